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

import hashlib
import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any, NamedTuple, ParamSpec, TypeVar

from twentynine.analysis.annotate import KINDS, Annotation
from twentynine.analysis.fair import FAIR_KINDS, fair_deal
from twentynine.analysis.hindsight import HINDSIGHT_KINDS, hindsight_deal
from twentynine.analysis.judge.cards import fair_cards
from twentynine.analysis.judge.reasons import with_reasons
from twentynine.analysis.judge.words import tell
from twentynine.analysis.models.contract import ContractModel
from twentynine.analysis.models.contract import shipped_model as shipped_contract_model
from twentynine.analysis.models.dealing import DealingModel, dealing_name
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.models.others import shipped_model as shipped_others
from twentynine.analysis.models.table import TableModel
from twentynine.analysis.models.table import shipped_model as shipped_table
from twentynine.analysis.single_hand import SINGLE_HAND_KINDS, single_hand_deal
from twentynine.schema.log import Deal, MatchLog
from twentynine.schema.rules import Rules

P = ParamSpec("P")
T = TypeVar("T")

DEFAULT_SAMPLES = 32
"""Samples a fair decision takes (half when the first half settles its label; more while a
label is in doubt and more could settle it: :func:`analysis.judging.judge`)."""

SEEDS = range(-(2**63), 2**63)
"""The seeds an analysis takes: a signed 64-bit integer, what the warehouse's ``seed`` column
(BIGINT) and readers of the JSON lines keep exactly."""

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
    model: ContractModel | None = None
    auction_model: AuctionModel | None = None
    dealing: DealingModel | None = None
    """The dealing the layouts follow (None: a fair shuffle, for every preset; the server's,
    ``analyze --dealing server``, applies to the games under its rules only)."""
    table: TableModel | None = None
    """The correction of a contract's chance by the others' cards (None: the shipped one)."""
    deal: int | None = None
    """Only this deal of each match (None: every deal)."""


def _only_words(kinds: object) -> str:
    """The ``--only`` groups a stored list of kinds makes (every group: ``all``)."""
    chosen = frozenset(kinds) if isinstance(kinds, list) else frozenset()
    if chosen == frozenset(KINDS):
        return "all"
    groups = [name for name, group in ONLY_GROUPS.items() if group <= chosen]
    if {kind for g in groups for kind in ONLY_GROUPS[g]} == chosen:
        return ",".join(groups)
    return ",".join(sorted(map(str, chosen)))


class RunOption(NamedTuple):
    """One option that shapes the annotations: its key in the run's record, its name as
    messages and reports give it, its value in the record (JSON), and the value in words."""

    key: str
    name: str
    value: Callable[[AnalysisOptions], object]
    words: Callable[[object], str] = str


RUN_OPTIONS: tuple[RunOption, ...] = (
    RunOption("kinds", "--only", lambda o: sorted(o.kinds), _only_words),
    RunOption("samples", "--samples", lambda o: o.samples),
    RunOption("seed", "--seed", lambda o: o.seed),
    RunOption("from_trick", "first trick", lambda o: o.from_trick),
    RunOption("model", "contract model", lambda o: (o.model or shipped_contract_model()).version),
    RunOption(
        "others", "others' calls model", lambda o: (o.auction_model or shipped_others()).version
    ),
    RunOption("dealing", "--dealing", lambda o: dealing_name(o.dealing)),
    RunOption("table", "table model", lambda o: (o.table or shipped_table()).version),
)
"""The options that shape a match's annotations: THE one place a run's configuration is
made of. Each is kept with the match's annotations (:func:`run_record`), compared when a
run would add to them (``analyze --resume``, ``--deal``: :func:`config_difference`) and
named in the reports (:func:`config_words`); a new option of the analysis is one entry
here. The deal picked (``--deal``) is not part of it: the warehouse keeps which deals a
match's annotations cover beside it."""


def run_config(options: AnalysisOptions) -> dict[str, object]:
    """The value of each of :data:`RUN_OPTIONS` for ``options``, by key, in order."""
    return {option.key: option.value(options) for option in RUN_OPTIONS}


def run_record(options: AnalysisOptions) -> str:
    """What a match's annotations were worked out with, as the warehouse keeps it for
    ``analyze --resume``: :func:`run_config` as JSON. The same options give the same text.

    >>> run_record(AnalysisOptions(seed=7)) == run_record(AnalysisOptions(seed=7, deal=2))
    True
    >>> run_record(AnalysisOptions(seed=7)) == run_record(AnalysisOptions(seed=8))
    False
    """
    return json.dumps(run_config(options), separators=(",", ":"))


def _option_words(key: str, value: object = None, *, missing: bool = False) -> str:
    """``name value`` of one stored option (an option this version does not know: by key);
    ``missing``: the option is not in the record."""
    known = next((option for option in RUN_OPTIONS if option.key == key), None)
    name = key if known is None else known.name
    if missing:
        return f"{name} (not recorded)"
    return f"{name} {value if known is None else known.words(value)}"


def config_words(config: dict[str, Any], keys: Sequence[str] | None = None) -> str:
    """A stored configuration in words, each option as :data:`RUN_OPTIONS` names it; with
    ``keys``, only those options (one the record lacks: not recorded).

    >>> config_words({"kinds": ["bid"], "samples": 8, "seed": 3})
    '--only bids, --samples 8, --seed 3'
    >>> config_words({"seed": 3}, ["seed", "samples"])
    '--seed 3, --samples (not recorded)'
    """
    if keys is None:
        return ", ".join(_option_words(key, value) for key, value in config.items())
    return ", ".join(_option_words(k, config.get(k), missing=k not in config) for k in keys)


def config_differences(configs: Sequence[dict[str, Any]]) -> list[str]:
    """The keys of the options whose values are not the same in all of ``configs`` (an
    option some lack differs), in the order of the records.

    >>> config_differences([{"seed": 0, "samples": 8}, {"seed": 1, "samples": 8}])
    ['seed']
    """
    keys = list(dict.fromkeys(key for config in configs for key in config))
    return [k for k in keys if len({(k in c, json.dumps(c.get(k))) for c in configs}) > 1]


def config_key(config: dict[str, Any]) -> str:
    """A short id of a stored configuration: the same options give the same id in any
    warehouse and any version that records them alike (the order of the keys does not
    count); ``report players --run`` takes it.

    >>> config_key({"seed": 3, "samples": 8}) == config_key({"samples": 8, "seed": 3})
    True
    >>> len(config_key({"seed": 3})), config_key({"seed": 3}) == config_key({"seed": 4})
    (8, False)
    """
    text = json.dumps(config, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def config_difference(stored: dict[str, Any], asked: dict[str, Any]) -> str | None:
    """How the configuration ``asked`` differs from the ``stored`` one, in words; None when
    they are the same (an option one of them lacks differs: it was not recorded).

    >>> config_difference({"seed": 0, "samples": 32}, {"seed": 1, "samples": 32})
    '--seed 0 stored, --seed 1 asked'
    >>> config_difference({"seed": 0}, {"seed": 0}) is None
    True
    """
    keys = [*stored, *(key for key in asked if key not in stored)]
    differ = [key for key in keys if stored.get(key, _MISSING) != asked.get(key, _MISSING)]
    if not differ:
        return None

    def side(config: dict[str, Any]) -> str:
        return ", ".join(
            _option_words(key, config.get(key), missing=key not in config) for key in differ
        )

    return f"{side(stored)} stored, {side(asked)} asked"


_MISSING: Any = object()


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
                auction_model=options.auction_model,
                dealing=options.dealing,
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
            model=options.model,
            auction_model=options.auction_model,
            dealing=options.dealing,
            table=options.table,
        )
    if options.kinds & SINGLE_HAND_KINDS and options.from_trick <= 1:
        notes += single_hand_deal(
            task.match_id,
            task.rules,
            task.deal,
            task.number,
            samples=options.samples,
            seed=options.seed,
            auction_model=options.auction_model,
            dealing=options.dealing,
        )
    notes.sort(key=_order)
    notes = with_reasons(
        task.match_id,
        task.rules,
        task.deal,
        task.number,
        notes,
        samples=options.samples,
        seed=options.seed,
        auction_model=options.auction_model,
        dealing=options.dealing,
    )
    return tell(notes)


def _order(note: Annotation) -> tuple[int, int, str, str]:
    return (note.deal, -1 if note.action is None else note.action, note.kind, note.method)


def match_tasks(match: MatchLog, options: AnalysisOptions) -> list[DealTask]:
    """One task per deal of ``match`` (only ``options.deal``'s, when it names one)."""
    rules = match.resolved_rules()
    return [
        DealTask(match.match_id, rules, deal, number, options)
        for number, deal in enumerate(match.deals, start=1)
        if options.deal is None or number == options.deal
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

    ``matches`` is read as the work goes (it may be a stream) and each match is given back
    as soon as it and those before it are done. In this process (``executor`` None) a match
    is done before the next is read. Through ``executor``, deals go as tasks, at most
    ``window`` matches ahead of the oldest not given back (memory holds a few matches
    whatever the input's length), and the next match is read in a thread meanwhile, so that
    a done match is given back even while the input keeps the next one waiting.
    ``on_deal`` is called as each deal is done. Raises ``ValueError`` at once for a seed out
    of :data:`SEEDS`.
    """
    if options.seed not in SEEDS:
        raise ValueError(
            f"seed {options.seed} is out of range: give {SEEDS.start} to {SEEDS.stop - 1}"
        )
    if executor is None:
        for match in matches:
            yield _collect(_submitted(in_process(), match, options, on_deal))
        return
    source = iter(matches)
    pending: deque[_Pending] = deque()
    upcoming: Future[MatchLog | None] | None = _read_next(source)
    while upcoming is not None or pending:
        while pending and all(future.done() for future in pending[0][1]):
            yield _collect(pending.popleft())
        waiting: list[Future[Any]] = list(pending[0][1]) if pending else []
        if upcoming is not None and len(pending) <= window:
            waiting.append(upcoming)
        if waiting:
            wait(waiting, return_when=FIRST_COMPLETED)
        if upcoming is not None and upcoming.done() and len(pending) <= window:
            read = upcoming.result()  # the reader's error, if any, is the caller's
            upcoming = None if read is None else _read_next(source)
            if read is not None:
                pending.append(_submitted(executor, read, options, on_deal))


_Pending = tuple[str, list[Future[list[Annotation]]]]


def _submitted(
    executor: Executor,
    match: MatchLog,
    options: AnalysisOptions,
    on_deal: Callable[[], None] | None,
) -> _Pending:
    futures = [executor.submit(annotate_deal, task) for task in match_tasks(match, options)]
    if on_deal is not None:
        for future in futures:
            future.add_done_callback(lambda _: on_deal())
    return match.match_id, futures


def _read_next(source: Iterator[MatchLog]) -> Future[MatchLog | None]:
    """The next match of ``source`` (None at its end), read in a thread of its own: a daemon,
    so that an input that never ends keeps no process alive."""
    future: Future[MatchLog | None] = Future()

    def read() -> None:
        try:
            future.set_result(next(source, None))
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)

    threading.Thread(target=read, name="read-next-match", daemon=True).start()
    return future


def _collect(entry: _Pending) -> tuple[str, list[Annotation]]:
    match_id, futures = entry
    notes: list[Annotation] = []
    for future in futures:
        notes += future.result()
    return match_id, notes
