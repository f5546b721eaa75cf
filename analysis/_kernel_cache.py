"""numba's on-disk cache of the compiled kernel, made to notice every file that shapes it.

numba keeps a function's machine code beside its source and reuses it while the source
file's content is unchanged (its stamp is a hash of that one file). The kernel's source is
``analysis/_kernel.py``, but how it is compiled (which functions are inlined) is decided in
``analysis/_kernel_jit.py``: an edit there alone would load stale machine code. A locator
registered here gives the kernel's functions a stamp hashing both files, so an edit to
either compiles again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from numba.core import caching


def files_digest(paths: tuple[Path, ...]) -> str:
    """A hash of the contents of ``paths``, in order.

    >>> len(files_digest((Path(__file__),)))
    64
    """
    hasher = hashlib.sha256()
    for path in paths:
        hasher.update(path.read_bytes())
        hasher.update(b"\0")
    return hasher.hexdigest()


def register_stamped_source(source: Path, shaped_by: tuple[Path, ...]) -> None:
    """Cache the numba functions defined in ``source`` under a stamp that also hashes the
    files ``shaped_by``; other functions are cached as numba would. Registering the same
    ``source`` again replaces what it was stamped with.

    >>> register_stamped_source(Path(__file__), (Path(__file__),))
    """
    source = source.resolve()
    classes: list[Any] = caching.CacheImpl._locator_classes
    classes[:] = [cls for cls in classes if getattr(cls, "stamped_source", None) != source]

    class StampedLocator(caching._CacheLocator):
        """numba's own locator for the function, its stamp widened by ``shaped_by``."""

        stamped_source = source

        def __init__(self, inner: Any) -> None:
            self._inner = inner

        def get_cache_path(self) -> str:
            return str(self._inner.get_cache_path())

        def get_source_stamp(self) -> Any:
            return (self._inner.get_source_stamp(), files_digest(shaped_by))

        def get_disambiguator(self) -> str:
            return str(self._inner.get_disambiguator())

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> StampedLocator | None:
            if Path(py_file).resolve() != source:
                return None
            for other in classes:
                if other is not cls:
                    inner = other.from_function(py_func, py_file)
                    if inner is not None:
                        return cls(inner)
            return None

    classes.insert(0, StampedLocator)
