"""The documentation runs as written: every shell example in README.md and docs/*.md.

The convention (docs/README.md, "Examples that run"):

- A shell example is a ```` ```console ```` block. A line starting with ``$ `` is a command (a
  trailing ``\\`` continues it on the next line); the lines after it, up to the next command,
  are what it prints (standard output and standard error, as a terminal shows them). A
  command ending in ``# exit N`` must exit with N, any other with 0.
- In the output shown, ``[...]`` stands for any text (a path, a timing, lines left out);
  everything else is compared exactly, line by line, trailing spaces aside.
- A block right after ``<!-- file: NAME -->`` is the content of the file NAME, written to
  the example folder before the commands run (so a page can show a log and then audit it).
- A block right after ``<!-- not run by tests/test_docs.py: REASON -->`` is left out, with
  its reason on the page (the README's install commands: .ci/run runs them on a clean clone).
- Every fenced block names its language; ``sh``, ``bash`` and ``shell`` are refused, so that
  no shell example escapes this test.

Each page runs in a fresh folder holding a copy of ``sample_logs/``, its commands in page
order (a page may load a warehouse and then query it); ``twentynine`` and ``python`` are the
worktree's own (``python -m twentynine``), so the test works from any clone.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.fork_server import SNAPSHOT_SUFFIX
from twentynine.importers.canonical import read_stream
from twentynine.replay import audit_match

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)\s*$")
FILE_MARK = re.compile(r"^<!-- file: (\S+) -->$")
SKIP_MARK = re.compile(r"^<!-- not run by tests/test_docs\.py: (.+\S) -->$")
EXIT_COMMENT = re.compile(r"\s+# exit (\d+)$")
WILDCARD = "[...]"
COMMAND_TIMEOUT = 120
FORK_CLIENT = ROOT / "tests" / "fork_client.py"


@dataclass
class Block:
    """One fenced block: where it starts, its language, its lines, and its marker."""

    page: Path
    line: int  # of the opening fence, from 1
    language: str
    lines: list[str]
    file_name: str | None = None
    skipped: str | None = None


@dataclass
class Example:
    """One command of a console block and the output the page shows for it."""

    page: Path
    line: int
    command: str
    exit_code: int
    output: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def read_blocks(page: Path) -> list[Block]:
    """Every fenced block of a page, with the marker on the line before it, if any.

    >>> import tempfile
    >>> md = Path(tempfile.mkdtemp()) / "p.md"
    >>> _ = md.write_text("<!-- file: a.json -->\\n```json\\n{}\\n```\\n", encoding="utf-8")
    >>> [(b.line, b.language, b.lines, b.file_name) for b in read_blocks(md)]
    [(2, 'json', ['{}'], 'a.json')]
    """
    blocks: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        before = lines[i - 1].strip() if i else ""
        file_mark, skip_mark = FILE_MARK.match(before), SKIP_MARK.match(before)
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        blocks.append(
            Block(
                page,
                i + 1,
                opening.group(1),
                lines[i + 1 : end],
                file_mark.group(1) if file_mark else None,
                skip_mark.group(1) if skip_mark else None,
            )
        )
        i = end + 1
    return blocks


def read_examples(block: Block) -> list[Example]:
    """The commands of a console block, each with its expected output and exit status.

    >>> lines = ["$ twentynine audit a \\\\", "  b  # exit 1", "x"]
    >>> block = Block(Path("x.md"), 1, "console", lines)
    >>> [(e.line, e.command, e.exit_code, e.output) for e in read_examples(block)]
    [(2, 'twentynine audit a b', 1, ['x'])]
    """
    examples: list[Example] = []
    lines = block.lines
    i = 0
    while i < len(lines):
        text = lines[i]
        if not text.startswith("$ "):
            if not examples:
                raise AssertionError(
                    f"{block.page.relative_to(ROOT)}:{block.line + 1 + i}: a console block "
                    f"starts with a command ($ ...), not {text!r}"
                )
            examples[-1].output.append(text)
            i += 1
            continue
        start = i
        command = text[2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1].rstrip() + " " + lines[i].strip()
        exit_code = 0
        found = EXIT_COMMENT.search(command)
        if found:
            exit_code = int(found.group(1))
            command = command[: found.start()]
        examples.append(Example(block.page, block.line + 1 + start, command.strip(), exit_code))
        i += 1
    return examples


def output_matches(expected: list[str], got: str) -> bool:
    """True when ``got`` is the output shown, ``[...]`` standing for any text.

    >>> output_matches(["3 files, [...] deals"], "3 files, 9 matches, 40 deals\\n")
    True
    >>> output_matches(["a", "[...]", "c"], "a\\nb\\nb\\nc")
    True
    >>> output_matches(["a"], "a\\nb")
    False
    """
    want = "\n".join(line.rstrip() for line in expected).strip("\n")
    have = "\n".join(line.rstrip() for line in got.splitlines()).strip("\n")
    pattern = ".*?".join(re.escape(part) for part in want.split(WILDCARD))
    return re.fullmatch(pattern, have, flags=re.DOTALL) is not None


def _shims(folder: Path, server: Path | None = None) -> dict[str, str]:
    """An environment whose ``twentynine`` and ``python`` are this checkout's; with a
    ``server`` (tests/fork_server.py's socket), ``twentynine`` runs in a fork of it."""
    bin_dir = folder / ".bin"
    bin_dir.mkdir()
    twentynine = f'exec "{sys.executable}" -m twentynine "$@"\n'
    if server is not None:
        twentynine = f'exec "{sys.executable}" -S -E "{FORK_CLIENT}" "{server}" "$@"\n'
    for name, target in (
        ("twentynine", twentynine),
        ("python", f'exec "{sys.executable}" "$@"\n'),
    ):
        shim = bin_dir / name
        shim.write_text("#!/bin/sh\n" + target, encoding="utf-8")
        shim.chmod(0o755)
    return _environment(bin_dir)


def _environment(bin_dir: Path) -> dict[str, str]:
    """The examples' environment: this checkout first, as a terminal shows output."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("TWENTYNINE_", "PYTEST_", "COV_"))
    }
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",  # standard output and error interleave as on a terminal
        PYTHONDONTWRITEBYTECODE="1",
        NO_COLOR="1",
        TERM="dumb",
        COLUMNS="100",
        LC_ALL="C.UTF-8",
    )
    return env


def run_example(example: Example, folder: Path, env: dict[str, str]) -> str | None:
    """Run one command in the example folder; None when it did as shown, else why not."""
    try:
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", example.command],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"{example.where}: $ {example.command}\n  did not end within {COMMAND_TIMEOUT} s"
    got = done.stdout.decode("utf-8", "replace").replace(str(folder) + os.sep, "")
    status_ok = done.returncode == example.exit_code
    output_ok = not example.output or output_matches(example.output, got)
    if status_ok and output_ok:
        return None
    shown = "\n".join(f"    {line}" for line in example.output) or "    (not shown)"
    printed = "\n".join(f"    {line}" for line in got.rstrip("\n").splitlines()) or "    (nothing)"
    return (
        f"{example.where}: $ {example.command}\n"
        f"  expected exit {example.exit_code}, output:\n{shown}\n"
        f"  got exit {done.returncode}, output:\n{printed}"
    )


def _page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_every_block_names_its_language(page: Path) -> None:
    wrong = [
        f"{_page_id(page)}:{block.line}: "
        + (
            "a fenced block names its language (console for shell examples, text otherwise)"
            if not block.language
            else f"```{block.language}: write shell examples as ```console with $ prompts"
        )
        for block in read_blocks(page)
        if block.language in ("", "sh", "bash", "shell", "shell-session")
    ]
    assert not wrong, "\n".join(wrong)


def run_page(page: Path, folder: Path, server: Path | None = None) -> list[str]:
    """Run a page's examples in order in ``folder``; what went wrong, one entry per command."""
    blocks = read_blocks(page)
    shutil.copytree(ROOT / "sample_logs", folder / "sample_logs")
    for block in blocks:
        if block.file_name is not None:
            target = folder / block.file_name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("\n".join(block.lines) + "\n", encoding="utf-8")
    env = _shims(folder, server)
    return [
        failure
        for block in blocks
        if block.language == "console" and block.skipped is None
        for example in read_examples(block)
        if (failure := run_example(example, folder, env)) is not None
    ]


@contextlib.contextmanager
def fork_server(folder: Path) -> Iterator[Path]:
    """tests/fork_server.py running in the examples' environment, until the block ends: the
    socket its clients connect to."""
    socket_path = folder / "twentynine.sock"
    snapshot = Path(f"{socket_path}{SNAPSHOT_SUFFIX}")
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.fork_server", str(socket_path)],
        cwd=ROOT,
        env=_environment(folder),
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + COMMAND_TIMEOUT
        while not snapshot.exists():
            assert server.poll() is None, "tests/fork_server.py ended at its start"
            assert time.monotonic() < deadline, "tests/fork_server.py did not start"
            time.sleep(0.05)
        yield socket_path
    finally:
        server.terminate()
        server.wait(timeout=COMMAND_TIMEOUT)


@pytest.fixture(scope="module")
def page_failures(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, list[str]]:
    """Every page run at once, each in its own folder (the pages do not share files), each
    command in a fork of one process that imported the package (tests/fork_server.py)."""
    with (
        fork_server(tmp_path_factory.mktemp("fork-server")) as server,
        ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool,
    ):
        futures = {
            page: pool.submit(run_page, page, tmp_path_factory.mktemp(page.stem), server)
            for page in PAGES
        }
        return {page: future.result() for page, future in futures.items()}


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_shell_examples_run_as_shown(page: Path, page_failures: dict[Path, list[str]]) -> None:
    failures = page_failures[page]
    assert not failures, "\n\n".join(failures)


def test_the_convention_catches_a_wrong_output(tmp_path: Path) -> None:
    """The checker itself: a wrong exit status or output is reported with its place."""
    page = tmp_path / "page.md"
    page.write_text("```console\n$ echo one  # exit 1\ntwo\n```\n", encoding="utf-8")
    [block] = read_blocks(page)
    [example] = read_examples(block)
    example.page = ROOT / "docs" / "page.md"  # as if it were a page of the docs
    failure = run_example(example, tmp_path, _shims(tmp_path))
    assert failure is not None
    assert failure.startswith("docs/page.md:2: $ echo one\n  expected exit 1")
    assert "    two\n  got exit 0, output:\n    one" in failure


def test_the_match_log_example_is_a_complete_legal_deal() -> None:
    """docs/match-log.md's example to copy from audits clean and is played to its end."""
    [block] = [b for b in read_blocks(ROOT / "docs" / "match-log.md") if b.file_name]
    [record] = read_stream(io.BytesIO("\n".join(block.lines).encode()), "club.json", "json")
    assert record.match is not None, record.problems
    audited = audit_match(record.match)
    assert audited.findings == ()
    [deal] = audited.deals
    assert deal.complete and deal.thrown_in is None and len(deal.tricks) == 8
    assert deal.show is not None  # it shows the trump: the example has every common action


# Names that look like a repository path: a known top-level folder or file, then more.
_PATH_LIKE = re.compile(r"(?<![\w./-])((?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.*-]+|[A-Za-z0-9_-]+\.md)")


def test_the_changelog_names_only_files_that_exist() -> None:
    top = {entry.name for entry in ROOT.iterdir()}
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    missing = []
    for number, line in enumerate(text.splitlines(), 1):
        for found in _PATH_LIKE.findall(line):
            name = found.rstrip(".")
            if name.split("/", 1)[0] not in top and "/" in name:
                continue  # not a path of this repository (deals/s, NS/EW, a URL's tail)
            if not any(ROOT.glob(name)):
                missing.append(f"CHANGELOG.md:{number}: {name} is not in the repository")
    assert not missing, "\n".join(missing)
