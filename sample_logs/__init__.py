"""The sample match logs, shipped with the package so that ``twentynine demo`` runs anywhere.

The files sit beside this module: one match per preset (``<preset>.json``), a league
(``league.jsonl``), known-bad logs with their expected findings (``bad/``) and the other input
formats (``formats/``). ``make_samples.py`` rebuilds them from fixed seeds.
"""

from pathlib import Path

SAMPLES_DIR = Path(__file__).resolve().parent
"""The folder of the sample logs, in a checkout or an installed package alike."""
