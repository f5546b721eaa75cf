"""The one seam through which a judgement asks how likely a contract is to be made.

Every bid, pass, Ditto, Double, Redouble, Set and the contract a single hand is weighed
against asks :func:`contract_chance`, and nothing else, for the chance that a caller's side
makes its call. It is handed what the caller knew when it called (a
:class:`~twentynine.analysis.models.contract.ContractView`: its first four cards, its
position from the dealer, the level, the auction before its call), a model, and, lazily,
the caller's side's double-dummy value on the layout being judged.

- The auction (bids, passes, Dittos) is judged by the contract model
  (:mod:`analysis.models.contract`), fitted on real calls from the bidder's view: no solve.
- The doubling and the single hand are judged by a seat that knows more than the caller's
  first four cards (the doubler its own, the single hand its eight), where the archive holds
  no real doubles to fit a model on: they pass no model, and the chance is
  :func:`analysis.calibration.made_probability` of the layout's double-dummy value.

>>> from twentynine.analysis.models.contract import cards, shipped_model
>>> view = ContractView(cards("JH 9H AH 7S"), 1, 16)
>>> 0.5 < contract_chance(view, lambda: None, shipped_model()) < 1.0  # no solve asked
True
>>> 0.0 < contract_chance(view, lambda: 20) < 1.0
True
>>> contract_chance(view, lambda: None) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from twentynine.analysis.calibration import made_probability
from twentynine.analysis.models.contract import (
    ContractModel,
    ContractView,
    Speech,
    view_at_last_bid,
)
from twentynine.analysis.models.dealing import DealingModel, side_shares
from twentynine.analysis.models.table import TableModel
from twentynine.schema.cards import Card, Seat
from twentynine.schema.log import Action
from twentynine.schema.rules import Rules


def contract_chance(
    view: ContractView,
    value: Callable[[], float | None],
    model: ContractModel | None = None,
    table: TableModel | None = None,
    around: tuple[Sequence[Card], Sequence[Card]] | None = None,
) -> float | None:
    """The chance that the caller's side makes ``view.level`` (None: no value to judge by).

    With ``model``, its chance from the caller's view, and with ``table`` and ``around``
    (the first four cards of the caller's partner and of the opponents on the layout:
    :func:`around`), corrected by what they hold of the caller's trump
    (:mod:`analysis.models.table`); without, the calibration of ``value()``, the caller's
    side's double-dummy card points on the layout judged with the caller's trump (called
    only then).
    """
    if model is not None:
        if table is not None and around is not None:
            return table.chance(model, view, *around)
        return model.chance(view)
    points = value()
    if points is None:
        return None
    return made_probability(points, view.level)


def around(
    hands: Mapping[Seat, Sequence[Card | None]], caller: Seat
) -> tuple[list[Card], list[Card]] | None:
    """The first four cards of ``caller``'s partner and of the two opponents on a layout of
    ``hands`` (None: one of them is not known).

    >>> from twentynine.analysis.models.contract import cards
    >>> hands = {s: list(cards(t)) for s, t in zip(Seat, ("JH 9H AH TH", "7S 8S QS KS",
    ...          "JS 9S AS TS", "7C 8C QC KC"))}
    >>> partner, opponents = around(hands, Seat.N)
    >>> " ".join(c.text for c in partner), len(opponents)
    ('JS 9S AS TS', 8)
    """
    fours = {s: [c for c in list(hands.get(s, ()))[:4] if c is not None] for s in Seat}
    if any(len(four) < 4 for four in fours.values()):
        return None
    opponents = [c for s in Seat if s.team is not caller.team for c in fours[s]]
    return fours[caller.partner], opponents


def speeches(actions: Sequence[Action]) -> list[Speech]:
    """The auction's bids, passes and Dittos of ``actions``, as the contract model reads them.

    >>> from twentynine.schema.log import BidAction, PassAction
    >>> speeches([BidAction(seat=Seat.E, value=16), PassAction(seat=Seat.S)])
    [(<Seat.E: 'E'>, 'bid', 16), (<Seat.S: 'S'>, 'pass', None)]
    """
    out: list[Speech] = []
    for action in actions:
        if action.type == "bid":
            out.append((action.seat, "bid", action.value))
        elif action.type in ("pass", "ditto"):
            out.append((action.seat, action.type, None))
    return out


def caller_view(
    rules: Rules,
    hands: Mapping[Seat, Sequence[Card | None]],
    dealer: Seat,
    actions: Sequence[Action],
    caller: Seat,
    level: int | None = None,
    dealing: DealingModel | None = None,
) -> ContractView:
    """The caller's view at its last call of ``actions`` (a deal's record, or a layout's), on
    a layout of ``hands``, calling ``level`` (None: the level of that call), the deal dealt
    as ``dealing`` deals (None: a fair shuffle): what
    :func:`~twentynine.analysis.models.contract.view_at_last_bid` reads of a recorded deal.

    >>> from twentynine.analysis.models.contract import cards
    >>> from twentynine.schema.log import BidAction
    >>> hands = {Seat.E: cards("JH 9H AS 7C")}
    >>> bids = [BidAction(seat=Seat.E, value=16), BidAction(seat=Seat.S, value=17),
    ...         BidAction(seat=Seat.E, value=18)]
    >>> view = caller_view(Rules.preset("bhoos"), hands, Seat.N, bids, Seat.E, 18)
    >>> view.position, view.level, view.standing, view.opponent_bid, view.partner_bid
    (1, 18, 17, True, False)
    """
    four = tuple(c for c in list(hands.get(caller, ()))[:4] if c is not None)
    position = dealer.order_from(rules.direction).index(caller) or 4
    shares = side_shares(dealing, caller, dealer)
    view = view_at_last_bid(four, position, caller, speeches(actions), rules.min_bid, shares)
    if view is None:  # no call of its own in ``actions``: the level alone
        return ContractView(four, position, level or rules.min_bid, shares=shares)
    return view if level is None else view._replace(level=level)
