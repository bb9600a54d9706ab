"""The typed results of a ruling: what each check found, and the verdict they add up to.

These are the engine's answers. They hold codes and message keys, never
finished sentences: :mod:`adjudicator.words.render` puts them in words, and the web
layer turns them into JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .enums import Verdict
from .messages import Message
from .citations import Citation
from .rule_ids import LEAD

LEGAL, ILLEGAL, UNDETERMINED = Verdict.LEGAL, Verdict.ILLEGAL, Verdict.UNDETERMINED


@dataclass(frozen=True, slots=True)
class HouseRuleUsed:
    """A parameter the players settled for this request, which a finding or line rests on."""

    parameter: str
    value: Any


@dataclass(frozen=True, slots=True)
class Reading:
    """One way of reading the open points a ruling depends on, and what the ruling comes to under it."""

    values: tuple[tuple[str, Any], ...]  # (parameter, value) pairs
    verdict: Verdict
    messages: tuple[Message, ...] = ()  # what decided it under this reading (the failing or open checks)


@dataclass(frozen=True, slots=True)
class CannotHappen:
    """A reading under which the table itself cannot happen: the values it gives the points the text leaves
    open (or reads two ways, or the service interprets), and the checks of the table that fail read so, each
    with the pointer of the field it fails at. A ruling is decided under the other readings only; a table that
    no reading allows is refused instead (:mod:`adjudicator.rules.table_check`)."""

    values: tuple[tuple[str, Any], ...]  # (parameter, value) pairs
    failures: tuple[tuple[str, "Finding"], ...]  # (JSON pointer, the failed check)


@dataclass(frozen=True, slots=True)
class Finding:
    """The outcome of one check.

    ``passed`` is True, False, or None when the check could not be decided: a fact
    the situation lacks (``missing``, JSON pointers) or a point the text leaves open
    (``open_on``, parameter names). ``parameters`` are those the check read;
    ``citations`` their words, the deciding sentence first; ``house_rules`` the
    ones the table settled itself.
    """

    rule: str
    passed: bool | None
    message: Message
    parameters: tuple[str, ...]
    citations: tuple[Citation, ...]
    house_rules: tuple[HouseRuleUsed, ...] = ()
    open_on: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Interpretation:
    """A parameter a ruling or score rested on that the document does not state outright (or a house rule set)."""

    parameter: str
    status: str  # interpreted | not_stated | house_rule
    value: Any
    note: str | None  # the variant author's note, in English (None for a house rule)
    citations: tuple[Citation, ...]
    occasion: Message | None = None  # what happened in this game because of it (a tie the text does not settle)
    notes: tuple[tuple[str, str], ...] = ()  # the note in other languages, as the variant file gives them


@dataclass(frozen=True)
class Ruling:
    """One action ruled under one variant.

    ``verdict`` is ``illegal`` when a finding failed, else ``undetermined`` when one
    is open, else ``legal`` -- or, when the ruling depends on points the text leaves
    open (``readings``), the verdict every reading gives, and ``undetermined`` when
    they differ. ``skipped`` maps a rule id to the parameters read by a check that
    found it did not apply (comparisons use it to say why a variant never reached a check).
    """

    variant: str
    action: str
    verdict: Verdict
    findings: tuple[Finding, ...]
    interpretations: tuple[Interpretation, ...]
    missing: tuple[str, ...]
    not_stated: tuple[str, ...]
    consequences: tuple[Message, ...]
    skipped: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    two_way: tuple[str, ...] = ()  # parameters read whose text reads two ways (interpreted, with readings)
    readings: tuple[Reading, ...] = ()  # the ruling under each reading of the open points it depends on
    across: tuple[str, ...] = ()  # the open points it was decided across (same verdict under every reading)
    variant_ref: Any = field(default=None, compare=False)  # the variant, named for people
    open_points: tuple = ()  # (parameter, the values a table could give it) for each open point it hangs on
    cannot_happen: tuple[CannotHappen, ...] = ()  # readings under which the table itself cannot happen
    conditions: tuple["Condition", ...] = ()  # facts the table lacks, and what each of their values gives
    # facts the table lacks that it was decided across (every value gives the verdict): each pointer, and how
    # "whichever it is" is said of it ("whether or not the stock has cards")
    facts_across: tuple[tuple[str, Message], ...] = ()

    def failed(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.passed is False)

    def open(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.passed is None)

    def deciding(self) -> tuple[Finding, ...]:
        """The findings the verdict rests on: the failing ones for ``illegal`` (or, decided across readings,
        the ones that fail under some reading), the open ones for ``undetermined``; for ``legal``, the passed
        check that was in doubt (:meth:`lead`)."""
        if self.verdict == ILLEGAL:
            return self.failed() or tuple(f for f in self.findings if f.passed is None and f.open_on
                                          and set(f.open_on) <= set(self.across))
        if self.verdict == UNDETERMINED:
            return self.open()
        lead = self.lead()
        return () if lead is None else (lead,)

    def lead(self) -> Finding | None:
        """Of a legal ruling, the check the table argued about: one that passed on a house rule, else on a point
        the text leaves open (decided across its readings), else the rule ranked highest as a question a table
        argues about (:data:`~adjudicator.model.rule_ids.LEAD`) -- the first of them in the ruling's order."""
        if self.verdict != LEGAL:
            return None
        across = set(self.across)
        best: Finding | None = None
        best_rank: tuple = ()
        for f in self.findings:
            if f.passed is not True or f.rule == "table.possible":
                continue
            settled = bool(f.house_rules), bool(across.intersection(f.parameters))
            if f.message.args.get("subject") is not None and not any(settled):
                continue  # a check of one meld, named by its place ("Meld 1"): no lead unless the table argued it
            rank = (*settled, LEAD.get(f.rule, 0))
            if best is None or rank > best_rank:
                best, best_rank = f, rank
        return best


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of a fact the table lacks (:mod:`adjudicator.rules.facts`), and the ruling it gives:
    ``rule()`` with the value supplied (which may itself hang on another fact: its own ``conditions``).
    ``value`` is the value's code; ``patch`` what a client sends to give it (``(path below the situation,
    value)`` pairs of a JSON Merge Patch); ``label`` the value as an answer, ``condition`` as a condition."""

    value: Any
    patch: tuple[tuple[tuple[str, ...], Any], ...]
    label: Message
    condition: Message
    verdict: Verdict
    ruling: Ruling


@dataclass(frozen=True, slots=True)
class Condition:
    """A fact a ruling lacks that a choice can give: its pointer and kind, the question, how "whichever it is"
    is said (``either``), and each value's choice (a value under which the table cannot happen left out)."""

    pointer: str
    kind: str
    question: Message
    either: Message
    choices: tuple[Choice, ...]
