"""Annotating matches deal by deal, through any :class:`concurrent.futures.Executor`.

A :class:`DealTask` holds everything one deal's annotations need (picklable: it goes to
worker processes or to a Dask cluster); :func:`annotate_deal` computes them;
:func:`annotate_matches` runs the tasks of many matches through an executor and gives each
match's annotations back whole, in the order the matches came, so that the same input and
seed give the same output whichever executor ran it.

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=3)
>>> options = AnalysisOptions(kinds=frozenset({"card"}), from_trick=8)
>>> [(m, len(notes) > 0) for m, notes in annotate_matches([log], options)] == [
...     (log.match_id, True)]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from typing import NamedTuple, ParamSpec, TypeVar

from twentynine.analysis.annotate import KINDS, Annotation
from twentynine.analysis.fair import FAIR_KINDS, fair_deal
from twentynine.analysis.hindsight import HINDSIGHT_KINDS, hindsight_deal
from twentynine.analysis.judge.cards import fair_cards
from twentynine.analysis.judge.words import tell
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.single_hand import SINGLE_HAND_KINDS, single_hand_deal
from twentynine.schema.log import Deal, MatchLog
from twentynine.schema.rules import Rules

P = ParamSpec("P")
T = TypeVar("T")

DEFAULT_SAMPLES = 32
"""Samples a fair decision takes (half when the first half settles its label; more while a
label is in doubt and more could settle it: :func:`analysis.judging.judge`)."""

ONLY_GROUPS: dict[str, frozenset[str]] = {
    "cards": frozenset({"card", "par"}),
    "shows": frozenset({"show"}),
    "bids": frozenset({"bid"}),
    "trumps": frozenset({"trump"}),
    "doubles": frozenset({"double", "redouble", "set"}),
    "singles": frozenset({"single_hand"}),
}
"""The names ``--only`` takes, and the kinds of annotation each selects."""


def parse_only(text: str | None) -> frozenset[str]:
    """The kinds a ``--only`` value selects (all without one); ``ValueError`` names a bad one.

    >>> sorted(parse_only("shows,cards"))
    ['card', 'par', 'show']
    """
    if text is None:
        return frozenset(KINDS)
    kinds: set[str] = set()
    for name in (part.strip() for part in text.split(",")):
        if name not in ONLY_GROUPS:
            raise ValueError(f"unknown group {name!r} (known: {', '.join(ONLY_GROUPS)})")
        kinds |= ONLY_GROUPS[name]
    return frozenset(kinds)


class AnalysisOptions(NamedTuple):
    """What to annotate and how: kinds, samples a fair decision starts with, seed, and the
    model of the others' calls bids are judged with (None: the shipped one)."""

    kinds: frozenset[str] = frozenset(KINDS)
    samples: int = DEFAULT_SAMPLES
    seed: int = 0
    from_trick: int = 1
    auction_model: AuctionModel | None = None


class DealTask(NamedTuple):
    """One deal to annotate, with all it needs (sent to a worker as it is)."""

    match_id: str
    rules: Rules
    deal: Deal
    number: int
    options: AnalysisOptions


def annotate_deal(task: DealTask) -> list[Annotation]:
    """All the annotations of one deal the options ask for, in the deal's order."""
    options = task.options
    notes: list[Annotation] = []
    if options.kinds & HINDSIGHT_KINDS:
        notes += hindsight_deal(
            task.match_id,
            task.rules,
            task.deal,
            task.number,
            kinds=options.kinds,
            seed=options.seed,
            from_trick=options.from_trick,
        )
        if "card" in options.kinds:  # a card's label: its hindsight loss, confirmed or not
            notes += fair_cards(
                task.match_id,
                task.rules,
                task.deal,
                task.number,
                notes,
                samples=options.samples,
                seed=options.seed,
            )
    if options.kinds & FAIR_KINDS:
        notes += fair_deal(
            task.match_id,
            task.rules,
            task.deal,
            task.number,
            kinds=options.kinds,
            samples=options.samples,
            seed=options.seed,
            from_trick=options.from_trick,
            auction_model=options.auction_model,
        )
    if options.kinds & SINGLE_HAND_KINDS and options.from_trick <= 1:
        notes += single_hand_deal(
            task.match_id,
            task.rules,
            task.deal,
            task.number,
            samples=options.samples,
            seed=options.seed,
        )
    notes.sort(key=_order)
    return tell(notes)


def _order(note: Annotation) -> tuple[int, int, str, str]:
    return (note.deal, -1 if note.action is None else note.action, note.kind, note.method)


def match_tasks(match: MatchLog, options: AnalysisOptions) -> list[DealTask]:
    """One task per deal of ``match``."""
    rules = match.resolved_rules()
    return [
        DealTask(match.match_id, rules, deal, number, options)
        for number, deal in enumerate(match.deals, start=1)
    ]


class _InProcess(Executor):
    """Runs each task at once, in this process (``--jobs 1``: no pool to start)."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)
        return future


def in_process() -> Executor:
    """An executor that runs every task in the calling process, one after another."""
    return _InProcess()


def annotate_matches(
    matches: Iterable[MatchLog],
    options: AnalysisOptions,
    executor: Executor | None = None,
    *,
    on_deal: Callable[[], None] | None = None,
    window: int = 64,
) -> Iterator[tuple[str, list[Annotation]]]:
    """Each match's id and all its annotations, match after match in the input's order.

    Deals go to ``executor`` (in this process when None) as tasks, at most ``window``
    matches ahead of the one being given back; ``on_deal`` is called as each deal is done.
    """
    pool = executor if executor is not None else in_process()
    pending: list[tuple[str, list[Future[list[Annotation]]]]] = []
    for match in matches:
        futures = [pool.submit(annotate_deal, task) for task in match_tasks(match, options)]
        if on_deal is not None:
            for future in futures:
                future.add_done_callback(lambda _: on_deal())
        pending.append((match.match_id, futures))
        while len(pending) > window:
            yield _collect(pending.pop(0))
    while pending:
        yield _collect(pending.pop(0))


def _collect(entry: tuple[str, list[Future[list[Annotation]]]]) -> tuple[str, list[Annotation]]:
    match_id, futures = entry
    notes: list[Annotation] = []
    for future in futures:
        notes += future.result()
    return match_id, notes
