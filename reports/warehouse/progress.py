"""A progress bar for ``twentynine load`` on a terminal (and nothing when output is piped).

>>> import io
>>> with terminal_progress(io.StringIO()) as progress:  # not a terminal: no bar
...     progress is None
True
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from twentynine.reports.warehouse.store import LoadSummary
from twentynine.reports.warehouse.store import Progress as ProgressCallback
from twentynine.schema.words import plural


@contextmanager
def terminal_progress(stream: TextIO | None = None) -> Iterator[ProgressCallback | None]:
    """A callback for :func:`~reports.warehouse.store.load_paths` that draws a bar of bytes read,
    with matches and deals stored, on ``stream`` (standard error) when it is a terminal.

    Yields None when it is not one, so that pipes and logs get only the summary lines.
    """
    stream = stream if stream is not None else sys.stderr
    if not stream.isatty():
        yield None
        return
    bar = Progress(
        TextColumn("loading"),
        BarColumn(),
        DownloadColumn(),
        TextColumn("{task.fields[counts]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(file=stream),
        transient=True,
    )
    task = bar.add_task("load", total=None, counts="")

    def update(summary: LoadSummary) -> None:
        bar.update(
            task,
            total=summary.bytes_total or None,
            completed=summary.bytes_read,
            counts=f"{plural(summary.stored, 'match')}, {plural(summary.deals, 'deal')} stored, "
            f"{summary.duplicates} already there",
        )

    with bar:
        yield update
