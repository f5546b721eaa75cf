"""The README's quick start works on a stock Debian 12 (issue 23 §7): one apt line, then a
venv made with python3 and used by both commands, and the measured time of each part.

.ci/run runs the two commands on a clean clone; this checks what they must say."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_quick_start_makes_and_uses_a_venv_after_one_apt_line() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```console\n", 1)[1].split("```", 1)[0]
    commands = [line[2:] for line in block.splitlines() if line.startswith("$ ")]
    assert len(commands) == 2  # .ci/run runs exactly these two
    before = section.split("```console", 1)[0]
    apt = re.search(r"`(?:sudo )?apt-get install ([^`]+)`", before)
    assert apt is not None and {"python3-venv", "python3-dev", "gcc"} <= set(apt.group(1).split())
    # Debian 12 has no `python` and refuses pip outside a venv: the venv is made with
    # python3, and everything after runs in it (activated in each command: CI runs each alone)
    assert commands[0].startswith("python3 -m venv .venv && . .venv/bin/activate && ")
    assert commands[1].startswith(". .venv/bin/activate && ")
    for command in commands:
        before_venv = command.split(". .venv/bin/activate", 1)[0]
        assert not re.search(r"(^|[\s&])(python|pip)\s", before_venv), command
    # the measured time of each part is said
    after = section.split("```", 2)[2]
    for part in ("install", "demo", "tests"):
        assert re.search(rf"{part}[^.]*?\d+ (s|seconds|min|minutes)\b", after), part
