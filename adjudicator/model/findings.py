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

    def failed(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.passed is False)

    def open(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.passed is None)

    def deciding(self) -> tuple[Finding, ...]:
        """The findings the verdict rests on: the failing ones for ``illegal`` (or, decided across readings,
        the ones that fail under some reading), the open ones for ``undetermined``; none for ``legal``."""
        if self.verdict == ILLEGAL:
            return self.failed() or tuple(f for f in self.findings if f.passed is None and f.open_on
                                          and set(f.open_on) <= set(self.across))
        if self.verdict == UNDETERMINED:
            return self.open()
        return ()


# --- made in bulk ---------------------------------------------------------------------------------
# A ruling makes a Finding per check and a Ruling per reading. A frozen dataclass's own __init__ sets
# each field through object.__setattr__, half of what making one costs; these set the same fields
# directly. The objects are the same class, equal field for field to the ones __init__ makes.

_new = object.__new__
_FINDING_SETTERS = tuple(Finding.__dict__[name].__set__ for name in Finding.__slots__)
assert Finding.__slots__ == ("rule", "passed", "message", "parameters", "citations", "house_rules", "open_on",
                             "missing")


def finding(rule: str, passed: bool | None, message: Message, parameters: tuple, citations: tuple,
            house_rules: tuple = (), open_on: tuple = (), missing: tuple = ()) -> Finding:
    """``Finding(...)``, made faster (the engine's hot path)."""
    made = _new(Finding)
    s_rule, s_passed, s_message, s_parameters, s_citations, s_house, s_open, s_missing = _FINDING_SETTERS
    s_rule(made, rule)
    s_passed(made, passed)
    s_message(made, message)
    s_parameters(made, parameters)
    s_citations(made, citations)
    s_house(made, house_rules)
    s_open(made, open_on)
    s_missing(made, missing)
    return made


_READING_SETTERS = tuple(Reading.__dict__[name].__set__ for name in Reading.__slots__)
assert Reading.__slots__ == ("values", "verdict", "messages")


def reading(values: tuple, verdict: Verdict, messages: tuple = ()) -> Reading:
    """``Reading(...)``, made faster (a ruling decided across readings makes one per reading)."""
    made = _new(Reading)
    s_values, s_verdict, s_messages = _READING_SETTERS
    s_values(made, values)
    s_verdict(made, verdict)
    s_messages(made, messages)
    return made


def ruling(variant: str, action: str, verdict: Verdict, findings: tuple, interpretations: tuple, missing: tuple,
           not_stated: tuple, consequences: tuple, skipped: dict, two_way: tuple, variant_ref: Any,
           readings: tuple = (), across: tuple = (), open_points: tuple = (), cannot_happen: tuple = ()) -> Ruling:
    """``Ruling(...)``, made faster (the engine's hot path: every run of the checks, every merge of readings)."""
    made = _new(Ruling)
    made.__dict__.update(variant=variant, action=action, verdict=verdict, findings=findings,
                         interpretations=interpretations, missing=missing, not_stated=not_stated,
                         consequences=consequences, skipped=skipped, two_way=two_way, readings=readings,
                         across=across, variant_ref=variant_ref, open_points=open_points,
                         cannot_happen=cannot_happen)
    return made
