"""Rule options and presets: every preset valid, overrides validated, bad values refused."""

import pytest

from twentynine.schema.rules import (
    PRESET_NAMES,
    PRESETS,
    Rules,
    RulesError,
    resolve_rules,
    rules_diff,
)


def test_six_presets_each_valid_and_named() -> None:
    assert (
        set(PRESETS)
        == set(PRESET_NAMES)
        == {"bangladesh", "standard", "beginner", "pagat", "classic29", "bhoos"}
    )
    for name in PRESET_NAMES:
        rules = resolve_rules(name)
        assert Rules.model_validate(rules.options()) == rules


@pytest.mark.parametrize(
    ("preset", "option", "value"),
    [
        ("bangladesh", "direction", "counterclockwise"),
        ("bangladesh", "bidding", "duel"),
        ("bangladesh", "all_pass", "throw_in"),
        ("bangladesh", "pair_lowers_from_call", 19),
        ("bangladesh", "zero_point_throw_in", "automatic"),
        ("standard", "min_bid", 15),
        ("standard", "show_trump", "compulsory"),
        ("beginner", "bidding", "open"),
        ("beginner", "show_trump", "automatic"),
        ("beginner", "pair", "off"),
        ("pagat", "pair", "immediately_after_side_wins"),
        ("classic29", "last_trick_bonus", 1),
        ("classic29", "trump_marker", "own_card"),
        ("classic29", "revoke_loses_deal", True),
        ("bhoos", "duel_replacement", "next_seat"),
        ("bhoos", "must_overtrump_after_show", True),
        ("bhoos", "all_pass", "dealer_takes_min"),
    ],
)
def test_preset_values_follow_rules_md(preset: str, option: str, value: object) -> None:
    assert resolve_rules(preset).options()[option] == value


def test_overrides_apply_to_the_named_preset() -> None:
    rules = resolve_rules({"preset": "bangladesh", "set": True, "min_bid": 17})
    assert rules.set_ is True and rules.min_bid == 17
    assert rules.bidding == "duel"
    assert PRESETS["bangladesh"].set_ is False  # the preset itself is untouched


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("hearts", "unknown preset 'hearts'"),
        ({"min_bid": 16}, "needs a 'preset'"),
        ({"preset": "pagat", "min_bid": 20, "max_bid": 18}, "min_bid 20 is above max_bid 18"),
        ({"preset": "pagat", "redouble": True}, "redouble needs double"),
        ({"preset": "bangladesh", "redouble": False, "set": True}, "set needs redouble"),
        ({"preset": "pagat", "bidding": "auction"}, "bidding: Input should be"),
        ({"preset": "pagat", "colour": "red"}, "unknown rule option 'colour'"),
        ({"preset": "pagat", "max_bid": 29}, "max_bid 29 is above the 28 points"),
        ({"preset": "pagat", "min_bid": "x"}, "min_bid: Input should be a valid integer"),
        (7, "must be a preset name"),
    ],
)
def test_bad_rules_are_refused_with_one_clear_line(spec: object, message: str) -> None:
    with pytest.raises(RulesError) as info:
        resolve_rules(spec)  # type: ignore[arg-type]
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_classic29_may_bid_29_with_the_last_trick_point() -> None:
    assert resolve_rules({"preset": "classic29", "max_bid": 29}).total_points == 29


def test_rules_are_frozen() -> None:
    with pytest.raises(ValueError, match="frozen"):
        PRESETS["pagat"].min_bid = 16  # type: ignore[misc]


def test_diff_lists_only_differences() -> None:
    diff = rules_diff(PRESETS["standard"], PRESETS["pagat"])
    assert diff["pair"] == ("after_side_wins", "immediately_after_side_wins")
    assert "min_bid" not in diff and "direction" not in diff
    assert rules_diff(PRESETS["bhoos"], PRESETS["bhoos"]) == {}
