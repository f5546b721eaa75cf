"""The rule options of Twenty-Nine and the six presets, as validated, frozen values.

A preset is a :class:`Rules` value, not a subclass; a variant is an option on it. A log's
``rules`` is a preset name or ``{"preset": NAME, OPTION: VALUE, ...}``; :func:`resolve_rules`
turns either into a :class:`Rules`.

>>> rules = resolve_rules({"preset": "bangladesh", "set": True})
>>> rules.bidding, rules.set_, rules.min_bid
('duel', True, 16)
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from twentynine.schema.cards import Direction

PresetName = Literal["bangladesh", "standard", "beginner", "pagat", "classic29", "bhoos"]
PRESET_NAMES: Final[tuple[PresetName, ...]] = (
    "bangladesh",
    "standard",
    "beginner",
    "pagat",
    "classic29",
    "bhoos",
)

BiddingStyle = Literal["duel", "rotation", "open", "single_round"]
DuelReplacement = Literal["partner", "next_seat"]
AllPass = Literal["throw_in", "dealer_takes_min"]
TrumpMarker = Literal["marker", "own_card"]
SeventhCard = Literal["off", "on", "pagat"]
ShowTrump = Literal["optional", "compulsory", "automatic"]
NeverShown = Literal["throw_in", "score_as_played"]
PairTiming = Literal["off", "holder_turn", "after_side_wins", "immediately_after_side_wins"]
ZeroPointThrowIn = Literal["off", "automatic", "on_request"]


class Rules(BaseModel):
    """Every option the engine knows, one field each. Frozen and validated once.

    Field names are the option names a log may override. ``set`` is spelt ``set_`` in
    Python (it is ``"set"`` in JSON).

    >>> Rules.preset("standard").show_trump
    'compulsory'
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    direction: Direction = Field(description="Which way deal, bidding and play pass.")
    min_bid: int = Field(ge=1, le=29, description="Lowest bid allowed.")
    max_bid: int = Field(ge=1, le=29, description="Highest bid allowed.")
    last_trick_bonus: int = Field(
        ge=0, le=1, description="Card points for winning the last trick (1 makes 29 in all)."
    )
    bidding: BiddingStyle = Field(
        description="duel (Bangladesh, with Ditto), rotation (a pass is final), open (a pass "
        "is not final), single_round (each speaks once)."
    )
    duel_replacement: DuelReplacement = Field(
        default="partner",
        description="In a duel, who replaces a passer: the passer's partner if not yet in "
        "(bangladesh), or the next seat that has not spoken (bhoos).",
    )
    all_pass: AllPass = Field(
        description="When the first three pass: throw the deal in, or the dealer takes min_bid."
    )
    trump_marker: TrumpMarker = Field(
        description="marker: a separate face-down card; own_card: one of the caller's own "
        "cards, playable once the trump is shown or as the last card."
    )
    seventh_card: SeventhCard = Field(
        description="off; on (Bangladesh: the caller's 7th card, unseen until the second "
        "deal, names the trump); pagat (the caller may look; it cannot be led or used to "
        "follow, and may be turned up to show the trump)."
    )
    show_trump: ShowTrump = Field(
        description="optional: a player who cannot follow may ask; compulsory: the first "
        "who cannot follow must ask; automatic: shown at the first failure to follow."
    )
    must_trump_after_show: bool = Field(
        description="The seat that asked for the show must then play a trump if able."
    )
    must_overtrump_after_show: bool = Field(
        default=False,
        description="bhoos: the asker must beat an opponent's winning trump if able.",
    )
    never_shown: NeverShown = Field(
        description="A deal whose trump is never shown: thrown in, or scored as played."
    )
    pair: PairTiming = Field(
        description="The Pair (K+Q of trumps): off; holder_turn (after the show, on the "
        "holder's turn, from the next trick); after_side_wins (after the holder's side wins "
        "a trick after the show); immediately_after_side_wins (only right after such a trick)."
    )
    pair_lowers_from_call: int = Field(
        default=0,
        ge=0,
        le=29,
        description="A Pair by the caller's side lowers the target only on a call of at least "
        "this (bangladesh: 19; 0 means any call).",
    )
    pair_points: int = Field(default=4, ge=0, le=28, description="How far a Pair moves the target.")
    double: bool = Field(description="Opponents may Double (stake x2).")
    redouble: bool = Field(description="After a Double the caller's side may Redouble (x4).")
    set_: bool = Field(
        alias="set", description="After a Redouble the doubling side may answer Set (stake 6)."
    )
    single_hand: bool = Field(description="A player may declare single hand after the full deal.")
    single_hand_points: int = Field(
        default=3, ge=1, le=12, description="Stake of a single hand, won or lost."
    )
    zero_point_throw_in: ZeroPointThrowIn = Field(
        description="No points in a player's first four: off; automatic throw-in when P1 or P2 "
        "(seed 000); or on_request, any player may ask for a redeal (seed 003)."
    )
    opponents_no_trump_throw_in: bool = Field(
        description="Thrown in when the caller's opponents hold no trump, or only the 7."
    )
    seventh_card_no_scoring_trump_throw_in: bool = Field(
        description="Thrown in when a seventh-card caller holds no J, 9, A or 10 of trumps "
        "besides the seventh card."
    )
    end_when_decided: bool = Field(
        description="A deal may end once, after the show, its result can no longer change."
    )
    under_half: bool = Field(
        default=False, description="A caller's side with under half its call loses 2 x stake."
    )
    no_trump: bool = Field(default=False, description="The caller may choose no trump.")
    reverse: bool = Field(
        default=False, description="The caller may choose reverse (no trump, ranks upside down)."
    )
    revoke_loses_deal: bool = Field(
        default=False, description="A revoke makes the revoking team lose the deal."
    )
    match_target: int = Field(
        default=6, ge=1, le=100, description="A match is won at +target and lost at -target."
    )
    stake: int = Field(default=1, ge=1, le=12, description="Game points for a made or failed call.")

    @model_validator(mode="after")
    def _check_consistency(self) -> Rules:
        problems: list[str] = []
        if self.min_bid > self.max_bid:
            problems.append(f"min_bid {self.min_bid} is above max_bid {self.max_bid}")
        total = 28 + self.last_trick_bonus
        if self.max_bid > total:
            problems.append(f"max_bid {self.max_bid} is above the {total} points in play")
        if self.redouble and not self.double:
            problems.append("redouble needs double")
        if self.set_ and not self.redouble:
            problems.append("set needs redouble")
        if self.must_overtrump_after_show and not self.must_trump_after_show:
            problems.append("must_overtrump_after_show needs must_trump_after_show")
        if self.seventh_card_no_scoring_trump_throw_in and self.seventh_card == "off":
            problems.append("seventh_card_no_scoring_trump_throw_in needs seventh_card")
        if self.pair_lowers_from_call and self.pair == "off":
            problems.append("pair_lowers_from_call needs pair")
        if self.duel_replacement != "partner" and self.bidding != "duel":
            problems.append("duel_replacement applies only to bidding 'duel'")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def total_points(self) -> int:
        """Card points in play: 28, plus the last-trick bonus."""
        return 28 + self.last_trick_bonus

    def options(self) -> dict[str, Any]:
        """The options as JSON-ready values, keyed by their JSON names.

        >>> Rules.preset("bhoos").options()["bidding"]
        'duel'
        """
        return self.model_dump(mode="json", by_alias=True)

    def with_options(self, **overrides: Any) -> Rules:
        """A copy with options changed, validated again (``set`` may be given as ``set``).

        >>> Rules.preset("standard").with_options(min_bid=16).min_bid
        16
        """
        data = self.options()
        data.update(overrides)
        return Rules.model_validate(data)

    @staticmethod
    def preset(name: str) -> Rules:
        """The preset of that name; ``KeyError`` naming the known presets otherwise."""
        try:
            return PRESETS[name]  # type: ignore[index]
        except KeyError:
            known = ", ".join(PRESET_NAMES)
            raise KeyError(f"unknown preset {name!r} (known: {known})") from None


class RulesError(ValueError):
    """A rules value in a log or on the command line that is not valid: says which and why."""


def resolve_rules(spec: str | dict[str, Any] | Rules) -> Rules:
    """Turn a log's ``rules`` (preset name or preset-with-overrides object) into Rules.

    Raises :class:`RulesError` with a one-line reason.

    >>> resolve_rules("pagat").min_bid
    15
    >>> resolve_rules({"preset": "pagat", "min_bid": 30})
    Traceback (most recent call last):
    ...
    twentynine.schema.rules.RulesError: min_bid: Input should be less than or equal to 29
    """
    # A preset name first: the common case (twice a match of an audit), and an isinstance
    # check against a pydantic model runs in Python.
    if isinstance(spec, str):
        try:
            return Rules.preset(spec)
        except KeyError as exc:
            raise RulesError(exc.args[0]) from None
    if isinstance(spec, Rules):
        return spec
    if not isinstance(spec, dict):
        raise RulesError("rules must be a preset name or an object with a 'preset'")
    if "preset" not in spec:
        raise RulesError("rules object needs a 'preset'")
    name = spec["preset"]
    if not isinstance(name, str):
        raise RulesError("rules.preset must be a preset name")
    try:
        base = Rules.preset(name)
    except KeyError as exc:
        raise RulesError(exc.args[0]) from None
    overrides = {key: value for key, value in spec.items() if key != "preset"}
    known = set(Rules.model_fields) - {"set_"} | {"set"}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise RulesError(f"unknown rule option {unknown[0]!r}")
    try:
        return base.with_options(**overrides)
    except ValidationError as exc:
        raise RulesError(describe_rules_error(exc)) from None


def describe_rules_error(exc: ValidationError) -> str:
    """One line for the first problem of a rules validation error."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def rules_diff(a: Rules, b: Rules) -> dict[str, tuple[Any, Any]]:
    """The options whose values differ, as ``{name: (value in a, value in b)}``.

    >>> rules_diff(Rules.preset("standard"), Rules.preset("pagat"))["show_trump"]
    Traceback (most recent call last):
    ...
    KeyError: 'show_trump'
    >>> rules_diff(Rules.preset("standard"), Rules.preset("pagat"))["pair"]
    ('after_side_wins', 'immediately_after_side_wins')
    """
    left, right = a.options(), b.options()
    return {key: (left[key], right[key]) for key in left if left[key] != right[key]}


_BANGLADESH = Rules(
    direction=Direction.COUNTERCLOCKWISE,
    min_bid=16,
    max_bid=28,
    last_trick_bonus=0,
    bidding="duel",
    duel_replacement="partner",
    all_pass="throw_in",
    trump_marker="marker",
    seventh_card="on",
    show_trump="optional",
    must_trump_after_show=True,
    never_shown="throw_in",
    pair="holder_turn",
    pair_lowers_from_call=19,
    double=True,
    redouble=True,
    set_=False,
    single_hand=True,
    single_hand_points=3,
    zero_point_throw_in="automatic",
    opponents_no_trump_throw_in=True,
    seventh_card_no_scoring_trump_throw_in=True,
    end_when_decided=True,
)

_STANDARD = Rules(
    direction=Direction.CLOCKWISE,
    min_bid=15,
    max_bid=28,
    last_trick_bonus=0,
    bidding="rotation",
    all_pass="dealer_takes_min",
    trump_marker="marker",
    seventh_card="on",  # our reading
    show_trump="compulsory",
    must_trump_after_show=False,  # our reading, as seed 002
    never_shown="throw_in",
    pair="after_side_wins",
    double=True,
    redouble=True,  # our reading
    set_=False,
    single_hand=True,  # our reading
    single_hand_points=3,
    zero_point_throw_in="off",
    opponents_no_trump_throw_in=False,  # our reading
    seventh_card_no_scoring_trump_throw_in=True,  # our reading
    end_when_decided=True,  # our reading
)

_BEGINNER = Rules(
    direction=Direction.CLOCKWISE,
    min_bid=16,
    max_bid=28,
    last_trick_bonus=0,
    bidding="open",
    all_pass="dealer_takes_min",
    trump_marker="marker",
    seventh_card="off",
    show_trump="automatic",
    must_trump_after_show=False,
    never_shown="score_as_played",  # our reading
    pair="off",
    double=False,
    redouble=False,
    set_=False,
    single_hand=False,
    zero_point_throw_in="off",
    opponents_no_trump_throw_in=False,
    seventh_card_no_scoring_trump_throw_in=False,
    end_when_decided=False,
)

_PAGAT = Rules(
    direction=Direction.CLOCKWISE,
    min_bid=15,
    max_bid=28,
    last_trick_bonus=0,
    bidding="rotation",
    all_pass="dealer_takes_min",
    trump_marker="marker",
    seventh_card="off",
    show_trump="compulsory",
    must_trump_after_show=False,
    never_shown="throw_in",
    pair="immediately_after_side_wins",
    double=False,
    redouble=False,
    set_=False,
    single_hand=False,
    zero_point_throw_in="off",
    opponents_no_trump_throw_in=False,
    seventh_card_no_scoring_trump_throw_in=False,
    end_when_decided=False,
)

_CLASSIC29 = Rules(
    direction=Direction.COUNTERCLOCKWISE,
    min_bid=16,
    max_bid=28,
    last_trick_bonus=1,
    bidding="rotation",
    all_pass="dealer_takes_min",  # our reading
    trump_marker="own_card",
    seventh_card="off",
    show_trump="optional",
    must_trump_after_show=True,
    never_shown="throw_in",  # our reading
    pair="after_side_wins",
    double=False,
    redouble=False,
    set_=False,
    single_hand=False,
    zero_point_throw_in="off",
    opponents_no_trump_throw_in=False,
    seventh_card_no_scoring_trump_throw_in=False,
    end_when_decided=False,
    revoke_loses_deal=True,
)

_BHOOS = Rules(
    direction=Direction.CLOCKWISE,
    min_bid=16,
    max_bid=28,
    last_trick_bonus=0,
    bidding="duel",
    duel_replacement="next_seat",
    all_pass="dealer_takes_min",
    trump_marker="marker",
    seventh_card="off",
    show_trump="optional",
    must_trump_after_show=True,
    must_overtrump_after_show=True,
    never_shown="throw_in",
    pair="off",
    double=False,
    redouble=False,
    set_=False,
    single_hand=False,
    zero_point_throw_in="off",
    opponents_no_trump_throw_in=False,
    seventh_card_no_scoring_trump_throw_in=False,
    end_when_decided=False,
)

PRESETS: Final[dict[PresetName, Rules]] = {
    "bangladesh": _BANGLADESH,
    "standard": _STANDARD,
    "beginner": _BEGINNER,
    "pagat": _PAGAT,
    "classic29": _CLASSIC29,
    "bhoos": _BHOOS,
}
