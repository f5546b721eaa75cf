"""The console script in this process: the one error line a user sees for a usage error
(click's are made one line in ``twentynine.cli.main``), without a process of its own."""

from __future__ import annotations

import io
import sys

import pytest

from twentynine.cli import main


def usage_error_line(args: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """Run ``twentynine ARGS``; check it exits 2 with one line on standard error and return it.

    Example: ``usage_error_line(["stats", "--since", "May 1"], monkeypatch)`` is
    ``"twentynine: Invalid value for '--since': 'May 1' is not a date: ..."``.
    """
    monkeypatch.setattr(sys, "argv", ["twentynine", *args])
    errors = io.StringIO()
    monkeypatch.setattr(sys, "stderr", errors)
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 2, errors.getvalue()
    [line] = errors.getvalue().splitlines()
    return line
