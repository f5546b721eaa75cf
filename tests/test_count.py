"""The count beside the table (issue 33 §4), in the viewer and the terminal replay alike:
what each side still needs, the masters still out and the voids shown, from the view shown;
the replay's opening lead shows the eight cards it was led from."""

from __future__ import annotations

from twentynine.frames import deal_frames
from twentynine.replay import audit_match, random_match
from twentynine.reports.html.viewer import deal_data
from twentynine.reports.html.words import masters_out, voids_shown
from twentynine.schema import Rules
from twentynine.schema.cards import Seat
from twentynine.schema.log import MatchLog, PlayAction


def _match() -> tuple[MatchLog, int]:
    log = random_match(Rules.preset("pagat"), seed=3)
    number = next(i for i, d in enumerate(log.deals, 1) if any(a.type == "play" for a in d.actions))
    return log, number


def test_the_replay_shows_the_eight_cards_the_opening_lead_came_from() -> None:
    log, number = _match()
    deal = log.deals[number - 1]
    lead = next(k for k, a in enumerate(deal.actions) if isinstance(a, PlayAction))
    frames = deal_frames(log, number)
    frame = frames[lead + 1]  # the start, then one frame per action
    (line,) = [x for x in frame.splitlines() if "led from:" in x]
    leader = deal.actions[lead].seat
    assert f"{leader.value}'s 8 cards" in line and "??" not in line
    assert sum("led from:" in f for f in frames) == 1
    # every frame once the call is made keeps the count, from the view shown
    assert "Count     masters out:" in frames[lead + 1]
    assert "Count" not in frames[0]
    other = next(s for s in Seat if s is not leader and s.team is not leader.team)
    seen = deal_frames(log, number, seat=other)[lead + 1]
    assert "??" in next(x for x in seen.splitlines() if "led from:" in x)


def test_the_viewer_counts_from_the_view_shown() -> None:
    log, number = _match()
    data = deal_data(log, audit_match(log), number, None)
    counted = [s for s in data["steps"] if s["count"]]
    assert counted and all(set(s["count"]) == {"all", "N", "E", "S", "W"} for s in counted)
    deal = log.deals[number - 1]
    lead = next(k for k, a in enumerate(deal.actions) if isinstance(a, PlayAction))
    (step,) = [s for s in data["steps"] if s["k"] == lead and not s.get("end")]
    # every card seen: each master still out has its holder named; a seat names its own
    # and no other seat's (it cannot see them)
    masters = step["count"]["all"].split(";")[0].removeprefix("masters out: ").split(", ")
    assert len(masters) == 4 and all(m[-1] in "NESW" for m in masters)
    for seat in "NESW":
        mine = step["count"][seat].split(";")[0].removeprefix("masters out: ").split(", ")
        assert all(m.endswith("yours") or m[-1] in "♠♥♣♦" for m in mine), mine


def test_masters_and_voids_follow_the_cards_played() -> None:
    from twentynine.schema.cards import Card, Suit

    trick = [(Seat.N, Card.parse("JS")), (Seat.E, Card.parse("9S")), (Seat.S, Card.parse("7H"))]
    assert masters_out([trick], {}, None)[0] == "A♠"
    assert voids_shown([trick]) == {Seat.S: [Suit.SPADES]}
