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
from .facts import MAX_FACTS, Asked, asked
from .readings import merge_alike

RuleOn = Callable[[Situation], Ruling]  # the action ruled on a table (the table checked first; ImpossibleInput)


def decide_facts(first: Ruling, situation: Situation, action: Action, rules: Variant, rule_on: RuleOn) -> Ruling:
    """``first`` (the ruling on ``situation`` as given), or -- where it is undetermined for want of facts a kind
    answers -- the ruling decided across them, or carrying its conditions. ``rule_on`` rules the action on
    another table (the same table with one fact supplied), refusing a table that cannot happen."""
    if first.verdict != UNDETERMINED or not first.missing:
        return first  # most rulings: decided, or nothing missing
    return _across(first, situation, action, rules, rule_on, frozenset(), {})


def _asks(ruling: Ruling, situation: Situation, action: Action, rules: Variant, room: int) -> list[Asked]:
    """The ruling's missing facts that a kind answers, in the order the checks met them (at most ``room``)."""
    out: list[Asked] = []
    for pointer in ruling.missing:
        if len(out) >= room:
            break
        found = asked(pointer, situation, action, rules)
        if found is not None:
            out.append(found)
    return out


def _across(first: Ruling, situation: Situation, action: Action, rules: Variant, rule_on: RuleOn,
            supplied: frozenset, memo: dict) -> Ruling:
    if first.verdict != UNDETERMINED or not first.missing or len(supplied) > MAX_FACTS:
        return first
    settle = len(supplied) == MAX_FACTS  # the line is full: a fact is still supplied, but only to decide across it
    asks = [a for a in _asks(first, situation, action, rules, MAX_FACTS) if not any(a.pointer == p for p, _ in supplied)]
    if not asks:
        return first
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
                    child = _across(rule_on(table), table, action, rules, rule_on, key, memo)
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
