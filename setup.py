"""Compile the rules engine ``replay/deal.py``, the auditor ``replay/audit.py``, the match
state ``replay/match.py``, the bots ``replay/bots.py``, their runner ``replay/selfplay.py`` and
the layouts' dealing ``analysis/packets.py`` with mypyc, and the Bhoos archive's reader
(``importers/_bhoos.py``, ``importers/bhoos_archive.py``); build the solver's kernel
``analysis/_ckernel.c`` (C); the metadata is in pyproject.toml.

``pip install -e .`` and ``pip install .`` build optional extensions: ``replay.deal``,
``replay.audit``, ``replay.match``, ``replay.bots``, ``replay.selfplay``,
``analysis.packets`` and their runtime ``replay.deal__mypyc``;
``importers._bhoos``, ``importers.bhoos_archive`` and their runtime
``importers.bhoos_archive__mypyc`` (a group of its own: the importers import nothing of the
engine's). It writes the SHA-256 of each source compiled in (those eight and the project
modules they import) to ``replay/_compiled_source.sha256``, in the format of ``sha256sum``, so
that :func:`replay._engine.engine_build` can tell a stale build. With ``TWENTYNINE_PURE_PYTHON=1``,
or when mypyc or the C compiler fails, the install is pure Python, and an earlier build's
extensions are removed from the source tree.

The solver's kernel is an optional C extension of its own, ``analysis._ckernel``: where it
fails to compile the install says so and the solver runs its pure-Python path (the same
answers, 150 to 200 times slower), whether or not the engine compiled.

mypyc type-checks the engine with the ``[tool.mypy]`` section of pyproject.toml, once per build,
not in the build backend's metadata hooks.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.machinery
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
ENGINE = "replay/deal.py"
# The modules compiled: the engine, the auditor's loop over it (a third of an audit's time
# when left to the interpreter), the match state it records every deal in, and the bots and
# the runner of their deals (the play-outs that judge the trump choices and the shows, about
# half of `analyze`'s time when left to the interpreter), and the layouts' dealing into packets
# (a sixth of it). One group, named after the engine, so its runtime keeps the name
# replay/deal__mypyc.
ENGINE_GROUP = (
    ENGINE,
    "replay/audit.py",
    "replay/match.py",
    "replay/bots.py",
    "replay/selfplay.py",
    "analysis/packets.py",
)
# The Bhoos archive's reader: mapping a game into its match is most of `twentynine import`'s
# time for the archive, and of reading it for `audit` and `load`, when left to the interpreter.
ARCHIVE_GROUP = ("importers/_bhoos.py", "importers/bhoos_archive.py")
GROUPS = (
    (ENGINE_GROUP, "twentynine.replay.deal"),
    (ARCHIVE_GROUP, "twentynine.importers.bhoos_archive"),
)
COMPILED = ENGINE_GROUP + ARCHIVE_GROUP
# Every module is installed under the one import name, twentynine: `twentynine/replay` is a link
# to the repository's `replay/` folder, so that mypyc names the modules it compiles
# twentynine.replay.deal and so on. The paths above, and those in the record of sources, are
# from the package's folder.
PACKAGE = "twentynine"
# The solver's search, in C: no mypyc, no dependency beyond the Python headers.
KERNEL_SOURCE = f"{PACKAGE}/analysis/_ckernel.c"
# The kernel carries the SHA-256 of the source it was built from, so that
# twentynine.analysis.solver.solver_build() can tell a stale build.
KERNEL = Extension(
    f"{PACKAGE}.analysis._ckernel",
    [KERNEL_SOURCE],
    define_macros=[
        (
            "KERNEL_SOURCE_SHA256",
            f'"{hashlib.sha256((ROOT / KERNEL_SOURCE).read_bytes()).hexdigest()}"',
        )
    ],
    optional=True,
)
RECORD = "_compiled_source.sha256"
PURE = os.environ.get("TWENTYNINE_PURE_PYTHON") == "1"
# Commands that finalize build_ext only for its list of sources, which the stand-in gives right
METADATA_COMMANDS = {"egg_info", "dist_info", "sdist"}


def _say(message: str) -> None:
    print(f"twentynine: {message}", file=sys.stderr, flush=True)


def _remove_engine(
    build_lib: str, *, inplace: bool, engine: bool = True, kernel: bool = True
) -> None:
    """Delete the compiled modules an earlier build left, so that their sources are imported:
    the engine's (mypyc), the solver's kernel, or both.

    From build/lib, whence a wheel takes every file, and for an editable install from the
    source tree too.
    """
    roots = [Path(build_lib), *([ROOT] if inplace else [])]
    modules = []
    if engine:
        # twentynine/replay/deal__mypyc
        modules += [f"{name.replace('.', '/')}__mypyc" for _, name in GROUPS]
        modules += [f"{PACKAGE}/{Path(module).with_suffix('')}" for module in COMPILED]
    if kernel:
        modules.append(KERNEL.name.replace(".", "/"))
    for root in roots:
        for module in modules:
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                (root / f"{module}{suffix}").unlink(missing_ok=True)
        if engine:
            (root / PACKAGE / "replay" / RECORD).unlink(missing_ok=True)


class BuildPy(build_py):
    def run(self) -> None:
        if PURE:
            _say("TWENTYNINE_PURE_PYTHON=1: the engine and the solver's kernel are pure Python")
            _remove_engine(self.build_lib, inplace=self.editable_mode)
        super().run()


def _engine_sources() -> list[str]:
    """The compiled modules and the project modules they import, directly or not.

    mypyc builds their types and ``Final`` constants into the compiled engine, so an edit to
    any of them makes the build stale.
    """
    sources = list(COMPILED)
    for path in sources:  # grows while it is read
        for node in ast.walk(ast.parse((ROOT / PACKAGE / path).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                if not module.startswith(f"{PACKAGE}."):
                    continue
                stem = module.removeprefix(f"{PACKAGE}.").replace(".", "/")
                for candidate in (f"{stem}.py", f"{stem}/__init__.py"):
                    if (ROOT / PACKAGE / candidate).is_file() and candidate not in sources:
                        sources.append(candidate)
    return sources


@functools.cache
def _mypycify() -> tuple[list[Extension], str]:
    """mypyc's extensions for the engine (none if mypyc fails), and the record of its sources."""
    record = "".join(
        f"{hashlib.sha256((ROOT / PACKAGE / path).read_bytes()).hexdigest()}  {path}\n"
        for path in _engine_sources()
    )
    try:
        from mypyc.build import mypycify

        made = mypycify(
            ["--config-file", str(ROOT / "pyproject.toml"), *(f"{PACKAGE}/{m}" for m in COMPILED)],
            opt_level="3",
            separate=[([f"{PACKAGE}/{f}" for f in files], name) for files, name in GROUPS],
        )
        extensions = [extension for extension in made if isinstance(extension, Extension)]
        if len(extensions) != len(made):
            raise TypeError(f"mypyc made extensions setuptools cannot build: {made}")
    except (Exception, SystemExit) as error:  # mypyc reports a failed type check by exiting
        _say(f"mypyc could not translate {ENGINE} ({error!r}); installing pure Python")
        extensions = []
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the pure-Python engine
    return extensions, record


class BuildExt(build_ext):
    """Builds mypyc's extensions in place of the stand-in; any failure leaves pure Python."""

    def finalize_options(self) -> None:
        swap = STAND_IN in (self.distribution.ext_modules or []) and not set(
            self.distribution.commands
        ).issubset(METADATA_COMMANDS)
        if swap:
            self.distribution.ext_modules = [*_mypycify()[0], KERNEL]
        super().finalize_options()
        self.failed: list[str] = []
        if swap and self.extensions == [KERNEL]:  # mypyc failed: the engine is pure Python
            _remove_engine(self.build_lib, inplace=self.inplace, kernel=False)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception:
            self.failed.append(ext.name)
            raise

    def _built(self, extension: Extension) -> bool:
        path = Path(self.build_lib, self.get_ext_filename(extension.name))  # type: ignore[no-untyped-call]
        return extension.name not in self.failed and path.exists()

    def run(self) -> None:
        super().run()
        if KERNEL in self.extensions:
            if self._built(KERNEL):
                _say(f"compiled the solver's kernel, {KERNEL_SOURCE}")
            else:
                _say(
                    f"could not compile the solver's kernel, {KERNEL_SOURCE} (no C compiler?);"
                    " the solver is pure Python, 150 to 200 times slower"
                )
                _remove_engine(self.build_lib, inplace=self.inplace, engine=False)
        engine = [e for e in self.extensions if e is not KERNEL]
        if not engine:
            return
        engine_failed = [name for name in self.failed if name != KERNEL.name]
        if all(self._built(e) for e in engine):
            record = _mypycify()[1]
            folders = [Path(self.build_lib, PACKAGE, "replay")]
            if self.inplace:
                folders.append(ROOT / PACKAGE / "replay")
            for folder in folders:
                (folder / RECORD).write_text(record, encoding="utf-8")
            _say(f"compiled {' and '.join(COMPILED)} with mypyc")
            return
        _say(
            f"could not compile {ENGINE} ({', '.join(engine_failed) or 'no extension'}); "
            "the engine is pure Python"
        )
        _remove_engine(self.build_lib, inplace=self.inplace, kernel=False)


# A stand-in that keeps the wheel platform-specific and makes setuptools run build_ext, where
# BuildExt swaps in mypyc's extensions: the other build-backend hooks never run mypyc.
STAND_IN = Extension(f"{PACKAGE}.replay.deal", [f"{PACKAGE}/{ENGINE}"], optional=True)

setup(ext_modules=[] if PURE else [STAND_IN], cmdclass={"build_py": BuildPy, "build_ext": BuildExt})
