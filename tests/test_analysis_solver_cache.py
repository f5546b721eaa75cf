"""numba's cache of a kernel compiled again when a file that shapes it changes
(analysis/_kernel_cache.py), on a small function in a fresh process each time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMPILE = """
import sys
from pathlib import Path
import numba
from twentynine.analysis._kernel_cache import register_stamped_source

folder = Path(sys.argv[1])
register_stamped_source(folder / "tiny.py", (folder / "options.py",))
sys.path.insert(0, str(folder))
import tiny

add = numba.njit(cache=True)(tiny.add)
assert add(2, 3) == 5
stats = add.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def hits_and_misses(folder: Path) -> tuple[int, int]:
    """Cache hits and misses of compiling tiny.add in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", COMPILE, str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    hits, misses = done.stdout.split()
    return int(hits), int(misses)


def test_an_edit_to_a_shaping_file_compiles_again(tmp_path: Path) -> None:
    (tmp_path / "tiny.py").write_text("def add(a, b):\n    return a + b\n")
    (tmp_path / "options.py").write_text("INLINE = True\n")
    assert hits_and_misses(tmp_path) == (0, 1)  # compiled, stored
    assert hits_and_misses(tmp_path) == (1, 0)  # loaded from the cache
    (tmp_path / "options.py").write_text("INLINE = False\n")
    assert hits_and_misses(tmp_path) == (0, 1)  # the source is the same: compiled again
    assert hits_and_misses(tmp_path) == (1, 0)


def test_an_edit_to_the_source_still_compiles_again(tmp_path: Path) -> None:
    (tmp_path / "tiny.py").write_text("def add(a, b):\n    return a + b\n")
    (tmp_path / "options.py").write_text("INLINE = True\n")
    assert hits_and_misses(tmp_path) == (0, 1)
    (tmp_path / "tiny.py").write_text("def add(a, b):\n    return b + a\n")
    assert hits_and_misses(tmp_path) == (0, 1)
