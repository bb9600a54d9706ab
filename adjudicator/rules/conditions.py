"""Rulings on what the table did not say: made under each value of a missing fact that can matter.

A ruling that stops for want of a fact does not guess it, and does not leave it as a shrug. Where a kind of
:mod:`adjudicator.rules.facts` answers the fact (is the stock empty? has the team a meld of sevens?), the
action is ruled again with the fact supplied with each of its values, through the same entry point as any
ruling (the table check included: a value under which the table cannot happen is left out, and a fact with
one possible value is then known) -- as :mod:`adjudicator.rules.readings` rules under each reading of an open
point of the text. Then:

* every value gives the same verdict: that is the verdict, and the ruling says it was decided across the fact
  (``Ruling.facts_across``), its findings matched across the values as readings' are;
* else the verdict is ``undetermined`` and ``Ruling.conditions`` says, per fact, the question and each value's
  choice with the ruling it gives -- ``rule()`` with that value supplied, which may itself hang on another
  fact (its own conditions) or on a reading of the text (its own readings).

At most :data:`~adjudicator.rules.facts.MAX_FACTS` facts are asked along one line (one more is supplied at its end,
only to decide across it); a fact whose values split the verdict is asked first, one whose values change nothing
is not asked, and below the question asked a choice keeps its line only (its first fact). A ruling asks only where
it is undetermined and lacks a fact some kind answers, so a ruling with every fact given costs nothing more.

**Bounded work.** Each fact deeper multiplies the rulings a line takes: a table that leaves many facts open (six
new melds and nothing said under da-ludo) took 897 rulings, seconds of CPU, for a request priced as a light one.
So a search may make at most :func:`fact_rulings` rulings (:data:`~adjudicator.rules.facts.MAX_FACT_WORK` melds
checked: fewer rulings the more melds each checks). One that would make more is dropped, and the lines are made
one fact long, then two, ... as long as twice the bound allows (every table ruled so far kept); lines of one fact
(each value's ruling decided across the next) are always made. The answer at a depth is exactly the one a whole
search to that depth gives; the bound is a count, not a time, so the same request gets the same answer on every
path (the service, a batch, options, the phone).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..model.actions import Action
from ..model.errors import ImpossibleInput
from ..model.findings import LEGAL, UNDETERMINED, Choice, Condition, Ruling
from ..model.messages import Items
from ..model.situation import Situation
from ..variants import Variant
from .facts import MAX_FACT_WORK, MAX_FACTS, Asked, asked, order_of, ruling_work
from .readings import merge_alike

RuleOn = Callable[[Situation], Ruling]  # the action ruled on a table (the table checked first; ImpossibleInput)


def decide_facts(first: Ruling, situation: Situation, action: Action, rules: Variant, rule_on: RuleOn) -> Ruling:
    """``first`` (the ruling on ``situation`` as given), or -- where it is undetermined for want of facts a kind
    answers -- the ruling decided across them, or carrying its conditions. ``rule_on`` rules the action on
    another table (the same table with one fact supplied), refusing a table that cannot happen."""
    if first.verdict != UNDETERMINED or not first.missing:
        return first  # most rulings: decided, or nothing missing
    tables = _Tables(rule_on)
    bound = fact_rulings(first, situation, action)
    tables.bound = bound
    try:
        return _Search(tables, MAX_FACTS).across(first, situation, action, rules, frozenset())  # most rulings
    except _Bounded:
        pass
    # Too many facts left open for whole lines in the bound: the longest lines twice the bound allows, one fact
    # longer at a time (every table ruled so far kept, the four-fact lines' included); lines of one fact always.
    tables.bound = None
    answer = _Search(tables, 1).across(first, situation, action, rules, frozenset())
    tables.bound = 2 * bound
    for depth in range(2, MAX_FACTS + 1):
        try:
            answer = _Search(tables, depth).across(first, situation, action, rules, frozenset())
        except _Bounded:
            break
    return answer


def fact_rulings(first: Ruling, situation: Situation, action: Action) -> int:
    """How many rulings a search may make (:data:`~adjudicator.rules.facts.MAX_FACT_WORK` melds checked): each
    ruling checks the melds the action lays and weighs the table's (its check), once more under each reading of
    the text it hangs on (``first``'s), so a large table, or one ruled under readings, goes less deep."""
    return MAX_FACT_WORK // (ruling_work(situation, action) * (1 + len(first.readings)))


class _Bounded(Exception):
    """A pass needs more rulings than the bound allows (internal: the pass is dropped)."""


class _Tables:
    """The ruling of each table a search supplies (by the facts supplied), each made once for every pass; at most
    ``bound`` made in all (None: no bound): counted, never timed."""

    __slots__ = ("rule_on", "made", "bound")

    def __init__(self, rule_on: RuleOn):
        self.rule_on = rule_on
        self.made: dict[frozenset, Ruling | ImpossibleInput] = {}
        self.bound: int | None = None

    def ruling(self, key: frozenset, table: Situation) -> Ruling:
        made = self.made.get(key)
        if made is None:
            if self.bound is not None and len(self.made) >= self.bound:
                raise _Bounded()
            try:
                made = self.rule_on(table)
            except ImpossibleInput as e:  # the table cannot happen with this value
                e.with_traceback(None)
                made = e
            self.made[key] = made
        if isinstance(made, ImpossibleInput):
            raise made
        return made


class _Search:
    """One pass: lines at most ``depth`` facts deep (one more supplied at a line's end, only to decide across it)."""

    __slots__ = ("tables", "depth", "memo")

    def __init__(self, tables: _Tables, depth: int):
        self.tables, self.depth = tables, depth
        self.memo: dict[frozenset, Ruling | ImpossibleInput] = {}

    def across(self, first: Ruling, situation: Situation, action: Action, rules: Variant,
               supplied: frozenset) -> Ruling:
        return _across(first, situation, action, rules, self, supplied)


def _asks(ruling: Ruling, situation: Situation, action: Action, rules: Variant, room: int) -> list[Asked]:
    """The ruling's missing facts that a kind answers, in the order the checks met them (at most ``room``), the
    questions of one kind in the kind's own order (:func:`~adjudicator.rules.facts.order_of`): equivalent plays ask
    the same questions in the same order. Past ``room``, only a question that can move up among its kind is asked."""
    out: list[tuple[Asked, tuple[str, int] | None]] = []
    for pointer in ruling.missing:
        order = order_of(pointer)
        if len(out) >= room and order is None:
            continue
        found = asked(pointer, situation, action, rules)
        if found is not None:
            out.append((found, order))
    for kind in {order[0] for _, order in out if order is not None}:
        places = [i for i, (_, order) in enumerate(out) if order is not None and order[0] == kind]
        for i, item in zip(places, sorted((out[i] for i in places), key=_place)):
            out[i] = item
    return [found for found, _ in out[:room]]


def _place(item: tuple[Asked, tuple[str, int] | None]) -> int:
    order = item[1]
    return 0 if order is None else order[1]


def _across(first: Ruling, situation: Situation, action: Action, rules: Variant, search: _Search,
            supplied: frozenset) -> Ruling:
    depth = search.depth
    if first.verdict != UNDETERMINED or not first.missing or len(supplied) > depth:
        return first
    settle = len(supplied) == depth  # the line is full: a fact is still supplied, but only to decide across it
    asks = [a for a in _asks(first, situation, action, rules, MAX_FACTS) if not any(a.pointer == p for p, _ in supplied)]
    if not asks:
        return first
    memo = search.memo
    conditions: list[Condition] = []
    for ask in asks:
        choices: list[Choice] = []
        refused: ImpossibleInput | None = None
        for value in ask.values:
            key = supplied | {(ask.pointer, repr(value.code))}
            child = memo.get(key)
            if child is None:
                table = value.supply(situation)
                try:
                    child = _across(search.tables.ruling(key, table), table, action, rules, search, key)
                except ImpossibleInput as e:  # the table cannot happen with this value: it is left out
                    e.with_traceback(None)
                    refused = refused or e
                    child = e
                memo[key] = child
            if isinstance(child, ImpossibleInput):
                refused = refused or child
                continue
            if len(child.conditions) > 1:  # below the question asked, the line it leads to: its first fact
                child = replace(child, conditions=child.conditions[:1])
            choices.append(Choice(value.code, value.patch, value.label, value.condition, child.verdict, child))
        if not choices:
            assert refused is not None
            raise refused  # whatever the fact is, the table cannot happen
        if len(choices) == 1:  # the one value the table can have: the fact is known, and the ruling is its
            return choices[0].ruling
        conditions.append(Condition(ask.pointer, ask.kind, ask.question, ask.either, tuple(choices)))
    for condition in conditions:
        verdicts = {c.verdict for c in condition.choices}
        if len(verdicts) == 1 and UNDETERMINED not in verdicts:
            return _decided(first, condition)
    if settle:
        return first  # asked no further down a full line: the ruling as it stands
    # A fact whose values give different verdicts comes first (the line a family reads first is the one that
    # settles something); one whose values give the same verdict is kept only where they differ further down
    # (a fact under which every value hangs on the same facts the same way changes nothing: it is not asked).
    splits = [c for c in conditions if len({ch.verdict for ch in c.choices}) > 1]
    further = [c for c in conditions if len({ch.verdict for ch in c.choices}) == 1
               and len({_outcome(ch.ruling) for ch in c.choices}) > 1]
    kept = tuple(splits + further)
    if not kept:
        return first  # no value of any of them decides anything: the ruling as it stands
    return replace(first, conditions=kept)


def _outcome(ruling: Ruling) -> tuple:
    """What a ruling says, whatever the table: its verdict and, per fact it hangs on, each value's outcome."""
    return (ruling.verdict, tuple((c.pointer, tuple((repr(ch.value), _outcome(ch.ruling)) for ch in c.choices))
                                  for c in ruling.conditions))


def _decided(first: Ruling, condition: Condition) -> Ruling:
    """The ruling every value of ``condition``'s fact gives: its findings matched across the values (one the
    same under each kept as it is; one met under some only, said with the values it holds under)."""
    runs = [((), choice.ruling) for choice in condition.choices]
    said = [choice.condition for choice in condition.choices]
    merged = merge_alike(first, runs, said, Items((condition.either,)))
    across = [(condition.pointer, condition.either)]
    for choice in condition.choices:
        across += [fact for fact in choice.ruling.facts_across if fact not in across]
    return replace(merged, facts_across=tuple(across), conditions=())


def legal_when(ruling: Ruling) -> Condition | None:
    """The first condition with a value under which the action is allowed (what an option's line says)."""
    for condition in ruling.conditions:
        if any(c.verdict == LEGAL for c in condition.choices):
            return condition
    return None
