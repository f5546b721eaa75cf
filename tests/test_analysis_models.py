"""The contract model (analysis/models/): its file, its predictions, its fit and its measures."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from twentynine.analysis.models.contract import (
    FEATURES,
    SHIPPED_PATH,
    SUIT_ORDER,
    ContractModel,
    ContractView,
    ModelError,
    cards,
    load_model,
    model_from_json,
    parameters_version,
    shipped_model,
    tally,
    view_at_last_bid,
)
from twentynine.analysis.models.files import ModelFileError
from twentynine.analysis.models.fit import (
    BASELINE,
    ContractRow,
    auc,
    contract_rows,
    cross_validate,
    evaluate,
    fit_model,
    predict,
    reliability,
)
from twentynine.replay.selfplay import simulate_matches
from twentynine.schema import Rules
from twentynine.schema.cards import ALL_CARDS, RANKS, Card, Seat
from twentynine.schema.log import MatchLog


@pytest.fixture(scope="module")
def simulated() -> list[MatchLog]:
    """Bot matches (the simulator's bots bid about as real ones do: made 55 to 65%)."""
    return list(simulate_matches(Rules.preset("bhoos"), matches=16, seed=3))


def _shipped_body() -> dict[str, Any]:
    body: dict[str, Any] = json.loads(SHIPPED_PATH.read_text(encoding="utf-8"))
    return body


# ------------------------------------------------------------------------- the file
def test_the_shipped_model_loads_and_says_how_it_was_fitted() -> None:
    model = shipped_model()
    assert model is shipped_model()  # read once
    assert model == load_model(SHIPPED_PATH)
    assert model.version.startswith("contract-") and model.trump == "best"
    assert set(model.features) <= set(FEATURES) and "level" in model.features
    size = len(model.features) + 1
    cov = np.array(model.covariance)
    assert cov.shape == (size, size)
    assert np.allclose(cov, cov.T, atol=1e-6)
    assert np.all(np.linalg.eigvalsh(cov) > 0)
    fit = model.fit
    assert fit is not None and len(fit["files"]) == 7 and fit["out_of_fold"] == "leave one file out"
    # the targets, as the fit recorded them out of fold; the baseline beside them
    metrics, baseline = fit["metrics"], fit["baseline"]["metrics"]
    assert metrics["ece"] <= 0.03 and metrics["max_gap"] <= 0.06
    assert metrics["brier_gain"][2] < 0  # the interval wholly below the base rate
    assert metrics["auc"] >= baseline["auc"]
    assert fit["baseline"]["features"] == list(BASELINE)
    assert len(metrics["bands"]) == 5 and sum(b[3] for b in metrics["bands"]) == fit["calls"]


def test_a_model_file_survives_a_write_and_read(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(shipped_model().dumps(), encoding="utf-8")
    assert load_model(path) == shipped_model()


_SHIPPED_FEATURES = len(shipped_model().features)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a contract model (format 'other'"),
        ({"features": ["trump_jack", "moon_phase"]}, "unknown feature 'moon_phase'"),
        ({"coefficients": [1.0]}, f"1 coefficients for {_SHIPPED_FEATURES} features"),
        ({"covariance": [[1.0]]}, f"the covariance must be {_SHIPPED_FEATURES + 1} by "),
        ({"intercept": float("nan")}, "every parameter must be a finite number"),
        ({"intercept": "high"}, "not a number"),
        ({"trump": "random"}, "trump must be 'best' or 'longest'"),
        ({"version": ""}, "the model has no version"),
        ({"features": ["level"] * 6}, "a feature is named twice"),
    ],
)
def test_a_bad_model_file_is_one_line_naming_it(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**_shipped_body(), **change}), encoding="utf-8")
    with pytest.raises(ModelError) as caught:
        load_model(path)
    text = str(caught.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def test_a_file_that_is_not_json_or_a_model_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ModelError, match="not JSON"):
        load_model(path)
    with pytest.raises(ModelError, match="must be a JSON object"):
        model_from_json([1, 2])
    body = _shipped_body()
    del body["coefficients"]
    with pytest.raises(ModelError, match="has no 'coefficients'"):
        model_from_json(body)


# ---------------------------------------------------------------------- predictions
def _hands(count: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(ALL_CARDS, 4)) for _ in range(count)]


def _better(card: Card) -> list[Card]:
    """The cards of the same suit that rank higher."""
    return [c for c in ALL_CARDS if c.suit is card.suit and c.strength > card.strength]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_chance_never_falls_for_a_better_hand_or_a_lower_call(seed: int) -> None:
    model = shipped_model()
    for four in _hands(400, seed):
        view = ContractView(four, position=1 + seed, level=17)
        p = model.chance(view)
        assert 0 < p < 1
        # a higher call is never likelier to be made
        chances = [model.chance(view._replace(level=lv)) for lv in range(16, 29)]
        assert chances == sorted(chances, reverse=True) and len(set(chances)) == 13
        trump = model.best_suit(view)
        jack = next(c for c in ALL_CARDS if c.suit is trump and c.rank is RANKS[0])
        for i, card in enumerate(four):
            if jack not in four:  # the jack of the trump in place of any card
                swapped = (*four[:i], jack, *four[i + 1 :])
                assert model.chance(view._replace(four=swapped)) >= p - 1e-12
            for higher in _better(card):  # a card replaced by a higher one of its suit
                if higher not in four:
                    swapped = (*four[:i], higher, *four[i + 1 :])
                    assert model.chance(view._replace(four=swapped)) >= p - 1e-12


def test_the_trump_is_the_suit_the_model_rates_highest() -> None:
    model = shipped_model()
    view = ContractView(cards("JH 9H 7S 8C"), 1, 16)
    by_suit = model.chances_by_suit(view)
    assert model.best_suit(view).value == "H"
    assert model.chance(view) == max(by_suit.values())
    chosen = view._replace(trump=SUIT_ORDER[0])  # a chosen trump is taken as it is
    assert model.chance(chosen) == by_suit[SUIT_ORDER[0]] < model.chance(view)


def test_the_interval_holds_the_chance_and_narrows_where_the_calls_were() -> None:
    model = shipped_model()
    common = ContractView(cards("JH 7H AS 8C"), 1, 17)
    rare = common._replace(level=27)
    for view in (common, rare):
        low, high = model.interval(view)
        assert low < model.chance(view) < high
    width = [model.interval(v)[1] - model.interval(v)[0] for v in (common, rare)]
    assert width[0] < 0.1 < 0.2 < width[1]  # 17s are common in the archive, 27s unseen
    mean, low, high = model.combination([(2.0, common)], -1.0)  # a bid's game points
    assert mean == pytest.approx(2 * model.chance(common) - 1)
    assert low == pytest.approx(2 * model.interval(common)[0] - 1, abs=0.02)


def test_the_view_at_the_last_bid_reads_the_auction() -> None:
    four = cards("JH 9H AS 7C")
    ditto = [(Seat.E, "bid", 16), (Seat.S, "bid", 17), (Seat.E, "ditto", None)]
    view = view_at_last_bid(four, 1, Seat.E, ditto)
    assert view is not None
    assert (view.level, view.standing, view.opponent_bid, view.partner_bid) == (17, 17, True, False)
    partner = [(Seat.E, "bid", 16), (Seat.S, "pass", None), (Seat.W, "bid", 17)]
    view = view_at_last_bid(four, 3, Seat.W, partner)
    assert view is not None and view.partner_bid and not view.opponent_bid and not view.forced
    forced = [(Seat.E, "pass", None), (Seat.S, "pass", None), (Seat.W, "pass", None)]
    view = view_at_last_bid(four, 4, Seat.N, [*forced, (Seat.N, "bid", 16)])
    assert view is not None and view.forced and view.standing is None
    assert view_at_last_bid(four, 4, Seat.N, forced) is None  # never bid


# ------------------------------------------------------------------------------ fit
def test_rows_are_the_scored_contracts_once_each(simulated: list[MatchLog]) -> None:
    rows = contract_rows(simulated)
    deals = sum(len(m.deals) for m in simulated)
    assert 0.9 * deals < len(rows) <= deals
    assert len({(r.match_id, r.number) for r in rows}) == len(rows)
    twice = contract_rows([*simulated, simulated[0].model_copy(update={"id": "again"})])
    assert len(twice) == len(rows)  # the same deals under another id count once
    made = sum(r.made for r in rows) / len(rows)
    assert 0.4 < made < 0.8


def test_the_fit_is_deterministic_and_sensible(simulated: list[MatchLog]) -> None:
    rows = contract_rows(simulated)
    one, two = fit_model(rows), fit_model(list(rows))
    assert one == two and one.dumps() == two.dumps()
    c = dict(zip(one.features, one.coefficients, strict=True))
    assert c["trump_jack"] > c["trump_low"] and c["trump_jack"] > 0 and c["side_jacks"] > 0
    assert c["level"] < 0
    e = evaluate(rows, predict(one, rows))
    assert e.auc > 0.6 and e.gain_high < 0 and e.ece < 0.05


def test_the_fit_recovers_a_known_model() -> None:
    truth = ContractModel(
        "truth",
        ("trump_jack", "trump_length", "level"),
        -0.5,
        (1.2, 0.6, -0.4),
        tuple(tuple(0.0 for _ in range(4)) for _ in range(4)),
        trump="longest",
    )
    rng = random.Random(5)
    rows = []
    for i, four in enumerate(_hands(6000, 7)):
        view = ContractView(four, 1, 16 + rng.randrange(4))
        made = rng.random() < truth.chance(view)
        rows.append(ContractRow(view, made, str(i % 3), str(i), "m", i))
    fitted = fit_model(rows, truth.features, trump="longest", l2=0.0)
    assert fitted.coefficients == pytest.approx(truth.coefficients, abs=0.12)
    assert fitted.intercept == pytest.approx(truth.intercept, abs=0.15)
    folds = cross_validate(rows, truth.features, trump="longest")
    assert [f[0] for f in folds.folds] == ["0", "1", "2"]
    e = evaluate(rows, folds.predicted, folds.base)
    assert e.ece < 0.02 and e.gain_high < 0


# -------------------------------------------------------------------------- measures
def test_auc_is_the_share_of_pairs_ranked_right() -> None:
    rng = np.random.default_rng(1)
    p = rng.choice([0.2, 0.4, 0.6, 0.8], 200)  # ties on purpose
    y = (rng.random(200) < p).astype(float)
    pairs = [
        1.0 if a > b else 0.5 if a == b else 0.0
        for (a, ya), (b, yb) in itertools.product(zip(p, y, strict=True), repeat=2)
        if ya == 1 and yb == 0
    ]
    assert auc(p, y) == pytest.approx(sum(pairs) / len(pairs))


def test_bands_ece_and_the_brier_interval() -> None:
    rng = np.random.default_rng(2)
    p = rng.random(1000)
    y = (rng.random(1000) < p).astype(float)
    rows = [
        ContractRow(ContractView(cards("JH 9H AS 7C"), 1, 16), bool(m), "a", str(i // 2), "m", i)
        for i, m in enumerate(y)
    ]
    bands = reliability(p, y)
    assert [b.calls for b in bands] == [200] * 5
    assert [b.predicted for b in bands] == sorted(b.predicted for b in bands)
    e = evaluate(rows, p, seed=4)
    gaps = [abs(b.predicted - b.observed) for b in e.bands]
    assert e.ece == pytest.approx(sum(gaps) / 5) and e.max_gap == max(gaps)
    assert e.gain_low < e.brier_gain < e.gain_high < 0  # p is the truth: beats the base rate
    assert evaluate(rows, p, seed=4) == e and evaluate(rows, p, seed=5).gain_low != e.gain_low


# ------------------------------------------------------------- the side's expected trumps
def test_the_side_expects_the_trumps_the_dealing_gives_it() -> None:
    """``side_trump``: the trumps a bidder's side can expect beyond its four; a fair shuffle
    gives it 3/7 of each, and a server that deals the trumps to the side gives it more, and
    a higher chance."""
    model = shipped_model()
    assert "side_trump" in model.features
    four = cards("JH 9H AS 7C")
    fair = ContractView(four, 1, 17)
    hearts, counted = SUIT_ORDER.index(four[0].suit), tally(four)
    assert FEATURES["side_trump"](fair, counted, hearts) == pytest.approx(6 * 3 / 7)
    to_side = tuple(1.0 if c.suit is four[0].suit else 3 / 7 for c in ALL_CARDS)
    to_others = tuple(0.0 if c.suit is four[0].suit else 3 / 7 for c in ALL_CARDS)
    rich, poor = fair._replace(shares=to_side), fair._replace(shares=to_others)
    assert FEATURES["side_trump"](rich, counted, hearts) == 6.0
    assert FEATURES["side_trump"](poor, counted, hearts) == 0.0
    assert model.chance(poor) < model.chance(fair) < model.chance(rich)


def test_the_summed_logits_are_the_features_times_the_weights() -> None:
    """The model adds up its log-odds a card at a time (and the side's trumps a suit at a
    time); they must be the plain dot product of its features."""
    model = shipped_model()
    rng = random.Random(7)
    for four in _hands(200, 5):
        shares = tuple(rng.random() for _ in ALL_CARDS) if rng.random() < 0.7 else None
        view = ContractView(four, rng.randint(1, 4), rng.randint(16, 20), shares=shares)
        for suit in SUIT_ORDER:
            x = model.vector(view, suit)
            plain = model.intercept + sum(b * v for b, v in zip(model.coefficients, x, strict=True))
            assert model.logit(view, suit) == pytest.approx(plain, abs=1e-9)


# ------------------------------------------------- issue 36 §2: files the product can trust
def _written(tmp_path: Path, body: dict[str, Any]) -> Path:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    return path


def _one_line_refusal(path: Path, message: str) -> None:
    with pytest.raises(ModelError) as caught:
        load_model(path)
    text = str(caught.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text, text


def test_the_version_is_the_parameters_covariance_included(tmp_path: Path) -> None:
    body = _shipped_body()
    made = parameters_version(
        body["features"], body["trump"], body["intercept"], body["coefficients"], body["covariance"]
    )
    assert body["version"] == made  # the shipped file carries its parameters' version
    edited = {**body, "coefficients": [1.0, *body["coefficients"][1:]]}
    _one_line_refusal(_written(tmp_path, edited), "its version is not the one its parameters make")
    wider = [list(row) for row in body["covariance"]]
    wider[0][0] *= 2
    _one_line_refusal(
        _written(tmp_path, {**body, "covariance": wider}),
        "its version is not the one its parameters make",
    )
    # with the version its parameters make, the edited model is another model, taken
    edited["version"] = parameters_version(
        edited["features"], "best", edited["intercept"], edited["coefficients"], body["covariance"]
    )
    assert load_model(_written(tmp_path, edited)).version == edited["version"]


def test_the_other_shipped_models_carry_their_parameters_version(tmp_path: Path) -> None:
    from twentynine.analysis.models import dealing, others

    auction = json.loads(others.SHIPPED_PATH.read_text(encoding="utf-8"))
    assert others.load_model(others.SHIPPED_PATH).version == auction["version"]
    auction["jump"] = 0.5
    with pytest.raises(ModelError, match="its version is not the one its parameters make"):
        others.load_model(_written(tmp_path, auction))
    deals = json.loads(dealing.SHIPPED_PATH.read_text(encoding="utf-8"))
    assert dealing.load_model(dealing.SHIPPED_PATH).version == deals["version"]
    deals["weights"]["KD"][0] = 5.0
    with pytest.raises(ModelError, match="its version is not the one its weights make"):
        dealing.load_model(_written(tmp_path, deals))
    deals = json.loads(dealing.SHIPPED_PATH.read_text(encoding="utf-8"))
    deals["deals"] = 10**400
    with pytest.raises(ModelError, match="deals: a number of 401 digits is too large"):
        dealing.load_model(_written(tmp_path, deals))


def _versioned(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with the version its parameters make (so that only the change is judged)."""
    try:
        version = parameters_version(
            body["features"],
            body["trump"],
            float(body["intercept"]),
            [float(b) for b in body["coefficients"]],
            [[float(v) for v in row] for row in body["covariance"]],
        )
    except (TypeError, ValueError, OverflowError):
        return body
    return {**body, "version": version}


def test_a_covariance_not_positive_semi_definite_is_refused(tmp_path: Path) -> None:
    body = _shipped_body()
    size = len(body["covariance"])
    negative = [[1.0 if i == j else 0.0 for j in range(size)] for i in range(size)]
    negative[0][1] = negative[1][0] = 2.0  # variances of 1, a covariance of 2: not a fit's
    _one_line_refusal(
        _written(tmp_path, _versioned({**body, "covariance": negative})),
        "the covariance is not positive semi-definite",
    )
    lopsided = [row[:] for row in negative]
    lopsided[0][1] = 0.5
    lopsided[1][0] = 0.0
    _one_line_refusal(
        _written(tmp_path, _versioned({**body, "covariance": lopsided})),
        "the covariance is not symmetric",
    )
    huge = [
        [1e308 if i in (0, 1) and j in (0, 1) else 0.0 for j in range(size)] for i in range(size)
    ]
    _one_line_refusal(
        _written(tmp_path, _versioned({**body, "covariance": huge})),
        "the covariance's numbers are too large to use",
    )


_FEATURES_NOW = _shipped_body()["features"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"intercept": True}, "intercept: true is not a number"),
        ({"coefficients": ["1"] * _SHIPPED_FEATURES}, 'coefficients[0]: "1" is not a number'),
        ({"comment": "mine"}, "unknown key 'comment'"),
        ({"fit": [1, 2]}, "fit must be an object: the record of the fit, not a list"),
        ({"fit": {"calls": "many"}}, "fit.calls must be a count of calls"),
        (
            {"features": [], "coefficients": [], "covariance": [[0.01]]},
            "the model has no features",
        ),
        ({"coefficients": [700.0] * _SHIPPED_FEATURES}, "a parameter of 700 log-odds"),
        ({"intercept": 10**400}, "intercept: a number of 401 digits is too large"),
    ],
)
def test_what_is_not_a_model_is_refused(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    body = _versioned({**_shipped_body(), **change})
    _one_line_refusal(_written(tmp_path, body), message)


def test_a_number_too_long_to_read_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    text = SHIPPED_PATH.read_text(encoding="utf-8")
    path.write_text(text.replace('"intercept": -3.396787', '"intercept": ' + "9" * 4400))
    _one_line_refusal(path, "a number too long to read")


def _uncertain(intercept: float, variance: float) -> ContractModel:
    """A model like one fitted on 3 calls: a far intercept, a huge variance."""
    features = ("level",)
    cov = ((variance, 0.0), (0.0, variance))
    return ContractModel(
        parameters_version(features, "best", intercept, (0.0,), cov),
        features,
        intercept,
        (0.0,),
        cov,
        fit={"calls": 3},
    )


def test_an_uncertain_fit_gives_wide_intervals_even_near_0_and_1() -> None:
    view = ContractView(cards("JH 9H AS 7C"), 1, 16)
    model = _uncertain(-26.0, 1e9)
    assert model.chance(view) < 1e-10
    low, high = model.interval(view)
    assert low < 0.01 and high > 0.99
    # a bid worth 2p - 1, and the gain of one bid over another: as wide as can be
    mean, low, high = model.combination([(2.0, view)], -1.0)
    assert mean == pytest.approx(-1.0) and low == pytest.approx(-1.0) and high > 0.9
    mean, low, high = model.combination([(1.0, view), (-1.0, view._replace(level=17))])
    assert low < -0.5 and high > 0.5
    # a sure fit keeps a narrow one, as the delta method gives it
    sure = _uncertain(0.0, 1e-6)
    mean, low, high = sure.combination([(2.0, view)], -1.0)
    assert mean == pytest.approx(0.0) and high - low == pytest.approx(
        2 * 1.959964 * 2 * 0.25 * math.sqrt(1e-6), rel=0.1
    )
    # the same terms, the same interval, whichever process asks
    assert model.combination([(1.0, view)]) == _uncertain(-26.0, 1e9).combination([(1.0, view)])


def test_a_model_fitted_on_few_calls_is_said_to_be(tmp_path: Path) -> None:
    from twentynine.analysis.models.contract import FEW_CALLS, few_calls, few_calls_text

    assert few_calls_text(1).startswith("fitted on 1 call, ")  # was "1 call are few"

    assert few_calls(shipped_model()) is None
    assert few_calls(_uncertain(-26.0, 1e9)) == (
        f"fitted on 3 calls, fewer than {FEW_CALLS:,}: its chances are mostly noise"
    )


def test_a_bid_s_loss_interval_holds_an_uncertain_fit_s_doubt_on_both_sides() -> None:
    """Issue 36 §2: with a model fitted on 3 calls (every chance near 0%), a bid's loss kept
    the sampling's narrow interval and was labelled a blunder."""
    from twentynine.analysis.auction import with_model_uncertainty
    from twentynine.analysis.judging import Judgement

    # the bid chosen, a pass best: the loss is the bid's shortfall, 1 - 2p at p near 0
    verdict = Judgement("bid 18", "pass", {}, {}, 1.0, 0.9, 1.1, 32)
    own = {"bid 18": ContractView(cards("7S 9C 7C 9D"), 1, 18)}
    wide = with_model_uncertainty(verdict, _uncertain(-26.0, 1e9), own, 1)
    assert wide.low < -0.5  # p may be anything: the bid may have been the better call
    assert wide.high == pytest.approx(1.1)  # nothing makes it worse than a sure failure
    sure = with_model_uncertainty(verdict, _uncertain(-26.0, 1e-6), own, 1)
    assert sure.low == pytest.approx(0.9) and sure.high == pytest.approx(1.1)
    # the other way round, the doubt lies above the loss only
    other = with_model_uncertainty(
        verdict._replace(chosen="pass", best="bid 18"), _uncertain(-26.0, 1e9), own, 1
    )
    assert other.low == pytest.approx(0.9) and other.high > 2.5


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"intercept": 0.5}, "its version is not its parameters'"),
        ({"intercept": True}, "intercept: true is not a number"),
        ({"unknown": 1}, "'unknown' is not a key of a table model"),
        ({"coefficients": [700.0] * 10}, "a parameter beyond 50 log-odds"),
        ({"coefficients": [0.1] * 3}, "10 coefficients are needed"),
        ({"fit": []}, "'fit' must be an object"),
    ],
)
def test_a_table_model_file_is_checked_as_every_model_file(
    tmp_path: Path, change: dict[str, object], reason: str
) -> None:
    from twentynine.analysis.models.table import SHIPPED_PATH
    from twentynine.analysis.models.table import load_model as load_table

    body = {**json.loads(SHIPPED_PATH.read_text(encoding="utf-8")), **change}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(ModelFileError, match=re.escape(reason)):
        load_table(path)
