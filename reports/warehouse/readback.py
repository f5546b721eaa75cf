"""Rebuilding a stored match's log from the warehouse: what was loaded comes back out.

The warehouse keeps every field of the log (the recorded results, notes, times, unseen
cards), so the rebuilt log equals the loaded one field for field, except that a field given
as null and a field left out read back alike.

>>> import tempfile
>>> from pathlib import Path
>>> from twentynine.replay import random_match
>>> from twentynine.reports.warehouse.store import open_warehouse
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("classic29"), seed=4)
>>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
...     _ = wh.load([log])
...     back = read_match(wh, log.match_id)
>>> back.model_dump(exclude_none=True) == log.model_dump(exclude_none=True)
True
"""

from __future__ import annotations

from typing import Any

import orjson

from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.store import Warehouse
from twentynine.schema.log import MatchLog

_ACTION_FIELDS = ("bid", "card", "suit", "seventh", "mode", "t", "note")
_JSON_NAMES = {"bid": "value"}


def _rows(wh: Warehouse, sql: str, match_id: str) -> list[dict[str, Any]]:
    result = wh.query(sql, {"m": match_id})
    return [dict(zip(result.columns, row, strict=True)) for row in result.rows]


def read_match(wh: Warehouse, match_id: str) -> MatchLog:
    """The log of a stored match, rebuilt from its rows.

    Raises :class:`~reports.warehouse.errors.WarehouseError` when no match has that id.
    """
    found = _rows(wh, "SELECT * FROM matches WHERE match_id = $m", match_id)
    if not found:
        raise WarehouseError(wh.name, f"no stored match {match_id!r}")
    match = found[0]
    players: dict[str, Any] = {}
    for p in _rows(wh, "SELECT * FROM match_players WHERE match_id = $m", match_id):
        ref = p["ref_id"]
        players[p["seat"]] = p["name"] if ref is None else {"name": p["name"], "id": ref}
    hands: dict[int, dict[str, list[str | None]]] = {}
    for h in _rows(
        wh, "SELECT deal_no, seat, cards FROM hands WHERE match_id = $m ORDER BY deal_no", match_id
    ):
        hands.setdefault(h["deal_no"], {})[h["seat"]] = h["cards"]
    actions: dict[int, list[dict[str, Any]]] = {}
    for a in _rows(
        wh, "SELECT * FROM actions WHERE match_id = $m ORDER BY deal_no, action_no", match_id
    ):
        action: dict[str, Any] = {"seat": a["seat"], "type": a["type"]}
        for name in _ACTION_FIELDS:
            if a[name] is not None:
                action[_JSON_NAMES.get(name, name)] = a[name]
        actions.setdefault(a["deal_no"], []).append(action)
    deals = []
    for d in _rows(wh, "SELECT * FROM deals WHERE match_id = $m ORDER BY deal_no", match_id):
        number = d["deal_no"]
        deal: dict[str, Any] = {"dealer": d["dealer"], "actions": actions.get(number, [])}
        if d["has_hands"]:
            deal["hands"] = hands.get(number, {})
        if d["has_result"]:
            deal["result"] = {
                "points": _scores(d["recorded_points_ns"], d["recorded_points_ew"]),
                "score": _scores(d["recorded_score_ns"], d["recorded_score_ew"]),
                "thrown_in": d["recorded_thrown_in"],
            }
        deals.append(deal)
    document: dict[str, Any] = {
        "format": "twentynine.match",
        "version": 1,
        "rules": orjson.loads(match["rules"]),
        "players": players,
        "deals": deals,
    }
    if match["log_id"] is not None:
        document["id"] = match["log_id"]
    if match["meta"] is not None:
        document["meta"] = orjson.loads(match["meta"])
    if match["has_result"]:
        document["result"] = {
            "score": _scores(match["recorded_score_ns"], match["recorded_score_ew"]),
            "winner": match["recorded_winner"],
        }
    return MatchLog.model_validate(document)


def _scores(ns: int | None, ew: int | None) -> dict[str, int] | None:
    return None if ns is None or ew is None else {"NS": ns, "EW": ew}
