"""The compiled path: :mod:`analysis._kernel` loaded a second time, each function in
``numba.njit(cache=True)``.

The kernel's source is read twice, as two modules: :mod:`analysis._kernel` stays plain
Python (the pure path), and this module's copy is compiled. The functions find each other
through their module's globals, so compiling the copy leaves the pure path untouched. The
buffers passed in are int64 numpy arrays, always the same types: one signature per function,
compiled once and cached on disk beside the source, under a stamp that hashes both this
file and the kernel's (:mod:`analysis._kernel_cache`), so an edit to either compiles again.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import numba
import numpy as np

from twentynine.analysis import _kernel
from twentynine.analysis._kernel_cache import register_stamped_source

_CALLED = frozenset({"search", "exact_value", "solve_root", "probe"})
"""The entry points. Every other function is inlined by LLVM where it is used (with numba's
runtime a call cost a reference count on each buffer; without it, the plain loops called
instead of inlined made no difference measurable on the shared machine)."""


def _numba_options() -> dict[str, Any]:
    """Cached on disk, and without numba's runtime (``_nrt``) where numba still has that
    option: the kernel allocates nothing, and with the runtime every buffer handed from
    function to function, inlined or not, took and dropped a reference by an atomic
    instruction, about half the CPU time of a search (``perf``: ``NRT_incref`` and
    ``NRT_decref``). The caller holds the buffers for the whole call. ``_nrt`` is not part
    of numba's public API: a numba without it compiles the kernel with its runtime (slower,
    the same answers) instead of failing at the first solve.

    >>> _numba_options()["cache"]
    True
    """
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # pragma: no cover - numba's layout changed
        return {"cache": True}
    if hasattr(CPUTargetOptions, "_nrt"):
        return {"cache": True, "_nrt": False}
    return {"cache": True}  # pragma: no cover - a numba that dropped the option


_OPTIONS: dict[str, Any] = _numba_options()


def _compiled_copy() -> ModuleType:
    # This file decides how the kernel compiles: an edit here must not load old code.
    register_stamped_source(Path(_kernel.__file__), (Path(__file__),))
    spec = importlib.util.spec_from_file_location(
        "twentynine.analysis._kernel_compiled", _kernel.__file__
    )
    if spec is None or spec.loader is None:  # pragma: no cover - the file sits beside this one
        raise ImportError(f"cannot load the solver kernel from {_kernel.__file__}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    for name, value in list(vars(module).items()):
        if (
            isinstance(value, FunctionType)
            and value.__module__ == spec.name
            and name != "new_buffer"
        ):
            compiled = numba.njit(forceinline=name not in _CALLED, **_OPTIONS)(value)
            setattr(module, name, compiled)
    return module


kernel = _compiled_copy()
"""The compiled kernel: the functions of :mod:`analysis._kernel`, same names."""


def new_buffer(size: int) -> np.ndarray:
    """A zeroed int64 buffer for the compiled path."""
    return np.zeros(size, dtype=np.int64)
