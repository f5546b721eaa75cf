"""The requests a Bhoos server sends one seat's bot, made from a recorded archive game.

The archive writes ``playerIds`` with the dealer at index 0 and the first speaker at index 1;
``first_index`` places the first speaker where another server writes it (the practice
sandbox and the starter kit's examples: index 0). Fields and their order follow the
requests as the competition's bots logged them (``sample_logs/formats/bhoos_play.jsonl``).
"""

from __future__ import annotations

from typing import Any

POINTS = {"J": 3, "9": 2, "1": 1, "T": 1}


def rotated_ids(archive_ids: list[str], first_index: int) -> list[str]:
    """The archive's ids reordered so that its first speaker (index 1) is at ``first_index``."""
    ids = [""] * 4
    for k in range(4):
        ids[(first_index + k) % 4] = archive_ids[(1 + k) % 4]
    return ids


def _bid_state(history: list[list[Any]], speakers: list[str]) -> dict[str, Any]:
    defender, challenger, newcomer = speakers[0], speakers[1], 2
    defender_bid = challenger_bid = 0
    for who, bid in history:
        if who == defender and bid == 0:
            defender, defender_bid = challenger, challenger_bid
            challenger, challenger_bid = speakers[newcomer % 4], 0
            newcomer += 1
        elif who == defender:
            defender_bid, challenger_bid = bid, 0
        elif who == challenger and bid == 0:
            challenger, challenger_bid = speakers[newcomer % 4], 0
            newcomer += 1
        elif who == challenger:
            challenger_bid = bid
    return {
        "defenderId": defender,
        "challengerId": challenger,
        "defenderBid": defender_bid,
        "challengerBid": challenger_bid,
    }


def requests(game: dict[str, Any], player: str, first_index: int) -> list[dict[str, Any]]:
    """Every request ``player`` received in ``game`` (an archive game), in the order sent."""
    archive_ids: list[str] = game["playerIds"]
    ids = rotated_ids(archive_ids, first_index)
    hand: list[str] = game["cards"][archive_ids.index(player)]
    history: list[list[Any]] = game["bidHistory"]["bidHistory"]
    tricks: list[list[Any]] = game["handsHistory"]["handsHistory"]
    speakers = [archive_ids[(1 + k) % 4] for k in range(4)]
    clock = iter(range(1500, 0, -1))
    out: list[dict[str, Any]] = []
    for i, (who, _) in enumerate(history):
        if who == player:
            out.append(
                {
                    "playerId": player,
                    "playerIds": ids,
                    "cards": hand[:4],
                    "timeRemaining": next(clock),
                    "bidHistory": history[:i],
                    "bidState": _bid_state(history[:i], speakers),
                }
            )
    top = max(bid for _, bid in history)
    caller = [who for who, bid in history if bid == top][-1]
    if caller == player:
        out.append(
            {
                "playerId": player,
                "playerIds": ids,
                "cards": hand[:4],
                "timeRemaining": next(clock),
                "bidHistory": history,
            }
        )
    reveal = game.get("trumpReveal") or {}
    revealer = archive_ids[reveal["playerIdx"]] if reveal else ""
    won = {0: 0, 1: 0}
    mine_played: list[str] = []
    for number, (leader, cards, winner) in enumerate(tricks, 1):
        order = [archive_ids[(archive_ids.index(leader) + k) % 4] for k in range(4)]
        position = order.index(player)
        shown_before = reveal and (
            number > reveal["round"]
            or (number == reveal["round"] and order.index(revealer) < position)
        )
        turns = [bool(shown_before)]
        if reveal and number == reveal["round"] and revealer == player:
            turns = [False, True]  # asks to show, then is asked again to play
        for shown in turns:
            teams = [
                {
                    "players": [ids[k], ids[k + 2]],
                    "bid": top if caller in (ids[k], ids[k + 2]) else 0,
                    "won": won[k],
                }
                for k in (0, 1)
            ]
            out.append(
                {
                    "playerId": player,
                    "playerIds": ids,
                    "timeRemaining": next(clock),
                    "teams": teams,
                    "cards": [c for c in hand if c not in mine_played],
                    "bidHistory": history,
                    "played": cards[:position],
                    "handsHistory": tricks[: number - 1],
                    "trumpSuit": game["trump"] if shown or caller == player else False,
                    "trumpRevealed": (
                        {"hand": reveal["round"], "playerId": revealer} if shown else False
                    ),
                }
            )
        mine_played.append(cards[position])
        team = ids.index(winner) % 2
        won[team] += sum(POINTS.get(card[0], 0) for card in cards)
    return out
