"""A score made across the readings of its variant's text, as a ruling is.

Where a round's score rests on a point the text leaves open (``not_stated``, with
readings to try) or reads two ways (``interpreted`` with ``readings``) -- whether
twos are wild, whether a team may hold two melds of a rank, whether red threes are
laid out -- the round is scored again under each reading (at most
:data:`~adjudicator.rules.readings.MAX_POINTS` points together). Where every
reading gives the same totals, that is the score, and it says which points it was
decided across; where they differ, each reading's totals are given, the lines shown
being one of them (:class:`~adjudicator.scoring.sheets.Across`).

A round is refused only on a rule the text states (or a house rule settles): a
check that fails on a value the text does not state outright
(:func:`adjudicator.scoring.legality.check_round` hands it back with the parameters
it rests on) rules out only the readings it rests on (``cannot_happen``); where every
reading is ruled out so, the round is refused, saying so reading by reading. A check
that fails only on the service's interpretation of a point the text gives no other
reading of is scored as given, and said so -- as the table check does for a ruling
(:mod:`adjudicator.rules.table_check`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..model.enums import Status
from ..model.errors import AdjudicatorError, ImpossibleInput, Issue, RuleNotStated
from ..model.findings import CannotHappen
from ..model.requests import ScoreRequest
from ..rules.judge import Judge
from ..rules.possible import Fault, rule_failed
from ..rules.readings import MAX_POINTS, each_reading, readings_for
from ..rules.table_check import firm, refused_every_way
from ..variants import Variant
from .game import Run, score_under
from .reader import ORDER
from .sheets import Across, GameSheet, RoundSheet, ScoreReading


@dataclass(frozen=True)
class Attempt:
    """The request scored under one reading (``chosen``: the points' values; empty: the text as it stands):
    its sheet, or the error it raised; the faults resting on values the text does not state outright; and
    every point read that another reading could change (two-way reads, open points, the faults' grounds)."""

    chosen: tuple
    sheet: RoundSheet | GameSheet | None
    error: AdjudicatorError | None
    faults: tuple[Fault, ...]
    read: tuple[str, ...]


def score(request: ScoreRequest, variants: dict[str, Variant]) -> RoundSheet | GameSheet:
    """Score one round, or a whole game carrying totals, across the readings of what its text leaves open
    (see the module docstring); ``variants`` supply example house-rule values."""
    rules = request.rules
    first = _attempt(request, rules, variants, ())
    stated = [f for f in first.faults if not f.grounds]
    if stated:  # a rule the text states (or a house rule) rules the round out, however the rest is read
        raise ImpossibleInput([Issue(f.pointer, rule_failed(f.finding, firm(rules, f.finding.parameters)))
                               for f in stated])
    points = _points(rules, first.read, [])[:MAX_POINTS]
    if not points:
        return _as_it_stands(first, rules)
    while True:
        tries = [_attempt(request, read, variants, chosen) for chosen, read in each_reading(rules, points)]
        more: list[str] = []
        for attempt in tries:
            more += _points(rules, attempt.read, points + more)
        if not more or len(points) >= MAX_POINTS:
            break
        points += more[:MAX_POINTS - len(points)]
    return _merge(rules, points, tries)


def _attempt(request: ScoreRequest, rules: Variant, variants: dict[str, Variant], chosen: tuple) -> Attempt:
    run = Run()
    sheet: RoundSheet | GameSheet | None = None
    error: AdjudicatorError | None = None
    try:
        sheet = score_under(request, rules, variants, run)
    except (RuleNotStated, ImpossibleInput) as e:
        error = e
    read: dict[str, None] = dict.fromkeys(run.two_way())
    if isinstance(error, RuleNotStated):
        read.update(dict.fromkeys(error.parameters))
    for fault in run.faults:
        read.update(dict.fromkeys(fault.grounds))
    return Attempt(chosen, sheet, error, tuple(run.faults), tuple(read))


def _points(rules: Variant, names, known: list[str]) -> list[str]:
    """The names that can be tried reading by reading, not among ``known``."""
    return [n for n in names if n not in known and readings_for(rules, n)]


def _as_it_stands(first: Attempt, rules: Variant) -> RoundSheet | GameSheet:
    """The score where no point can be tried reading by reading: the sheet, or the error; a fault that rests
    only on the service's interpretation of a point with no other reading is scored as given, and said so."""
    if first.error is not None:
        raise first.error
    assert first.sheet is not None
    if not first.faults:
        return first.sheet
    names = dict.fromkeys(n for f in first.faults for n in f.grounds)
    values = tuple((n, rules.params[n].value) for n in names)
    told = CannotHappen(values, tuple((f.pointer, f.finding) for f in first.faults))
    return replace(first.sheet, across=Across(cannot_happen=(told,)))


def _merge(rules: Variant, points: list[str], tries: list[Attempt]) -> RoundSheet | GameSheet:
    """The attempts under each reading of ``points`` as one score (see the module docstring)."""
    tried = set(points)
    grounded = [[f for f in a.faults if set(f.grounds) <= tried] for a in tries]  # resting on the points tried
    if all(grounded):  # every reading rules the round out, each by the points tried and what the text states
        raise ImpossibleInput(list(refused_every_way(
            rules, [(a.chosen, list(a.faults), g) for a, g in zip(tries, grounded)])))
    # as the table check decides (rules.table_check.assess): where some reading finds no fault at all, the
    # readings that find any are ruled out; else those whose faults rest on the points tried
    clean = any(not a.faults for a in tries)
    kept: list[Attempt] = []
    ruled_out: list[tuple[Attempt, list[Fault]]] = []
    for attempt, g in zip(tries, grounded):
        if attempt.faults if clean else g:
            ruled_out.append((attempt, list(attempt.faults)))
        else:
            kept.append(attempt)
    for attempt in kept:
        if attempt.error is not None:  # a figure the text leaves open, or a stated rule, under this reading
            raise attempt.error
    cannot = [CannotHappen(a.chosen, tuple((f.pointer, f.finding) for f in grounded)) for a, grounded in ruled_out]
    for attempt in kept:  # faults resting on interpretations with no other reading: scored as given, said so
        if attempt.faults:
            names = dict.fromkeys(n for f in attempt.faults for n in f.grounds if n not in tried)
            values = attempt.chosen + tuple((n, rules.params[n].value) for n in names)
            cannot.append(CannotHappen(values, tuple((f.pointer, f.finding) for f in attempt.faults)))
    shown = next((a for a in kept if _as_written(rules, a.chosen)), kept[0])
    sheet = shown.sheet
    assert sheet is not None
    outcomes = {_outcome(a) for a in kept}
    differ = len(outcomes) > 1
    readings = tuple(_reading(a) for a in kept) if differ else ()
    return replace(sheet, interpretations=_interpretations(rules, points, kept, shown),
                   across=Across(readings, () if differ else tuple(points), tuple(cannot),
                                 shown.chosen if differ else ()))


def _as_written(rules: Variant, chosen: tuple) -> bool:
    """Whether a reading gives every point the value the document itself reads it as."""
    return all(rules.params[p].status != Status.NOT_STATED and rules.params[p].value == v for p, v in chosen)


def _outcome(attempt: Attempt) -> tuple:
    sheet = attempt.sheet
    assert sheet is not None
    return tuple((t.name, t.round, t.total) for t in sheet.teams), sheet.game_over, sheet.winner


def _reading(attempt: Attempt) -> ScoreReading:
    sheet = attempt.sheet
    assert sheet is not None
    return ScoreReading(attempt.chosen, tuple((t.name, t.round, t.total) for t in sheet.teams), sheet.game_over,
                        sheet.winner, sheet.target)


def _interpretations(rules: Variant, points: list[str], kept: list[Attempt], shown: Attempt) -> tuple:
    """The shown sheet's interpretations, those of the other readings added, the points tried shown as the
    document gives them (not as one reading read them)."""
    assert shown.sheet is not None
    merged = {i.parameter: i for i in shown.sheet.interpretations}
    for attempt in kept:
        assert attempt.sheet is not None
        for i in attempt.sheet.interpretations:
            merged.setdefault(i.parameter, i)
    judge = Judge(rules)
    for name in points:
        judge.interpret(name)
        merged[name] = judge.interpretations[name]
    return tuple(sorted(merged.values(), key=lambda i: ORDER.get(i.parameter, len(ORDER))))
