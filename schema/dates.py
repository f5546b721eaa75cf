"""When a match began: read from its ``meta``, one way for every reader (the warehouse's
``started_at``, ``matches``) and one warning for a date that cannot be read (the auditor's
``DATE_UNREADABLE``).

>>> started_at({"start": "2026-11-29T19:30:00+06:00"})
datetime.datetime(2026, 11, 29, 13, 30)
>>> print(unreadable_start({"date": "2026-02-30"}))
meta.date '2026-02-30' is not a date (YYYY-MM-DD, or an ISO 8601 time): the match has no date
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, Final

START_KEYS: Final = ("start", "started_at", "start_time", "started", "date")
"""The keys of ``meta`` that may say when the match began, the first readable one winning."""


def _read(value: Any) -> dt.datetime | str:
    """``value`` as a UTC time without zone, or why it is not one."""
    if not isinstance(value, str):
        return "is not a date (YYYY-MM-DD, or an ISO 8601 time)"
    try:
        moment = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return "is not a date (YYYY-MM-DD, or an ISO 8601 time)"
    if moment.tzinfo is not None:
        try:
            moment = moment.astimezone(dt.UTC).replace(tzinfo=None)
        except OverflowError:  # a time in year 1 or 9999 whose UTC lies beyond
            return "lies outside the years 1 to 9999 in UTC"
    return moment


def started_at(meta: Mapping[str, Any] | None) -> dt.datetime | None:
    """When the match began, from ``meta``'s first readable time under a known key (UTC).

    >>> started_at({"date": "2026-11-29"}), started_at({"start": 17}), started_at(None)
    (datetime.datetime(2026, 11, 29, 0, 0), None, None)
    >>> started_at({"start": "0001-01-01T00:00:00+06:00"}) is None  # before year 1 in UTC
    True
    """
    if not meta:
        return None
    for key in START_KEYS:
        if key in meta:
            moment = _read(meta[key])
            if isinstance(moment, dt.datetime):
                return moment
    return None


def unreadable_start(meta: Mapping[str, Any] | None) -> str | None:
    """Why a match whose ``meta`` names a start under a known key has no date: the first such
    value, and what is wrong with it (None: it has a date, or names none).

    >>> print(unreadable_start({"start": "not a date"}))
    meta.start 'not a date' is not a date (YYYY-MM-DD, or an ISO 8601 time): the match has no date
    >>> unreadable_start({"start": "x", "date": "2026-01-01"}) is None, unreadable_start({})
    (True, None)
    """
    if not meta or started_at(meta) is not None:
        return None
    for key in START_KEYS:
        if key in meta and meta[key] is not None:
            why = _read(meta[key])
            if isinstance(why, str):
                shown = repr(meta[key]) if isinstance(meta[key], str) else type(meta[key]).__name__
                return f"meta.{key} {shown[:60]} {why}: the match has no date"
    return None


def date_text(moment: dt.datetime, minutes: bool = False) -> str:
    """A day (and with ``minutes``, the time) as ``YYYY-MM-DD``: four digits of year always,
    where ``strftime`` writes year 1 as ``1``.

    >>> date_text(dt.datetime(1, 1, 1)), date_text(dt.datetime(2026, 12, 7, 19, 5), True)
    ('0001-01-01', '2026-12-07 19:05')
    """
    return moment.isoformat(sep=" ", timespec="minutes") if minutes else moment.date().isoformat()
