"""The limits of a run, each said once: processes, samples, and how long a cluster may keep a
run waiting (docs/cli.md, "Limits"). A value beyond a limit is refused up front with one
line and exit 2, never started and left to swamp the machine or run for ever.

Cheap to import (the standard library only): every command may check its options.

>>> check_samples(MAX_SAMPLES) is None
True
>>> check_samples(10**9)
'--samples 1000000000: at most 4,096 samples a decision'
>>> check_jobs(1) is None, check_jobs(JOBS_PER_CPU * usable_cpus() + 1) is not None
(True, True)
"""

from __future__ import annotations

import os
from typing import Final

JOBS_PER_CPU: Final = 4
"""Worker processes a run may start for each CPU it may use (``--jobs``): more only share the
same CPUs, each with its own memory."""
MAX_SAMPLES: Final = 4096
"""Layouts a sampled decision may start with (``--samples``; the default is 32): at 4,096 a
decision already takes minutes, and one more doubling would take hours."""
MAX_SIMULATED: Final = 100_000
"""Matches ``simulate --matches`` may play in a run: about 25 minutes and 5 GB of JSON lines
on one core; more is a run that swamps the disk or never ends (several seeds make more)."""
LOAD_JOBS: Final = (1, 2)
"""The process counts ``load --jobs`` takes: one, or a reader and auditor beside the writer."""
CONNECT_SECONDS: Final = 10.0
"""How long a cluster's scheduler has to answer ``--cluster`` before the run gives up."""
WAIT_SECONDS: Final = 60.0
"""How long a cluster run waits, by default, while the cluster has no worker (at the start,
or once its workers are gone) before it gives up (``--wait``)."""
WAIT_NOTICE_SECONDS: Final = 10.0
"""How often a run that waits for a worker says so on standard error."""
STORE_SECONDS: Final = 2.0
"""How long a match ``analyze --db`` has finished may wait to be stored: one done within this
of the last store waits to go in with others (a store costs about the same for one match as
for many); a slower match is stored as soon as it is done."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it).

    >>> usable_cpus() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # no affinity on this system
        return os.cpu_count() or 1


def max_jobs() -> int:
    """The most worker processes ``--jobs`` may start on this machine.

    >>> max_jobs() == JOBS_PER_CPU * usable_cpus()
    True
    """
    return JOBS_PER_CPU * usable_cpus()


def check_jobs(jobs: int) -> str | None:
    """Why ``--jobs jobs`` is refused (None when it is not)."""
    cpus = usable_cpus()
    if jobs > JOBS_PER_CPU * cpus:
        cpu_words = "1 CPU" if cpus == 1 else f"{cpus} CPUs"
        return (
            f"--jobs {jobs}: at most {JOBS_PER_CPU * cpus} worker processes on this machine "
            f"({JOBS_PER_CPU} for each of its {cpu_words})"
        )
    return None


def check_simulated(matches: int) -> str | None:
    """Why ``simulate --matches matches`` is refused (None when it is not).

    >>> check_simulated(10**6)
    '--matches 1000000: at most 100,000 matches a run (several seeds make more)'
    """
    if matches > MAX_SIMULATED:
        more = "several seeds make more"
        return f"--matches {matches}: at most {MAX_SIMULATED:,} matches a run ({more})"
    return None


def check_samples(samples: int) -> str | None:
    """Why ``--samples samples`` is refused (None when it is not)."""
    if samples > MAX_SAMPLES:
        return f"--samples {samples}: at most {MAX_SAMPLES:,} samples a decision"
    return None
