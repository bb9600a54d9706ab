"""Typed errors for input the engine cannot rule on.

Each error carries :class:`Issue` s: a JSON pointer into the request (``""`` is
the whole request) and a :class:`~adjudicator.model.messages.Message` saying what is
wrong there. The engine knows nothing of HTTP: the web layer maps each class
to a status code and a problem type.

* :class:`MalformedRequest` -- the request's parts do not fit together (both
  ``teams`` and ``rounds``, a variant listed twice, a discard without its card).
* :class:`ImpossibleInput` -- a table that cannot happen under the variant
  (an unknown card code, a third copy of a card, a card not in the hand).
* :class:`UnknownVariant` -- a variant id no loaded variant has.
* :class:`RuleNotStated` -- an answer needs a figure the document does not
  state; ``parameters`` name the house rules that would settle it.
* :class:`RuleIllegal` -- a ``verify_*`` predicate's action is not legal; ``findings``
  say why.

A card code that names no card is a :class:`~adjudicator.model.cards.CardError`, an
:class:`ImpossibleInput`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .messages import Message, msg


@dataclass(frozen=True, slots=True)
class Issue:
    """One fault: where in the request, and what."""

    pointer: str
    message: Message


MAX_ISSUES = 100  # issues an error keeps; ``count`` says how many there were (a body can hold thousands)


class AdjudicatorError(Exception):
    """Base class: the request cannot be answered as it stands.

    ``issues`` are the first :data:`MAX_ISSUES` faults, ``count`` all of them: a
    256 KiB body of bad cards holds over ten thousand, and answering each would
    make the error far larger and slower than the request.
    """

    def __init__(self, issues: list[Issue] | tuple[Issue, ...], count: int | None = None):
        self.issues = tuple(issues[:MAX_ISSUES])
        self.count = len(issues) if count is None else count
        super().__init__(self.issues[0].message.key if self.issues else "")

    def __str__(self) -> str:
        said = "; ".join(f"{i.pointer or '/'}: {i.message.key}" for i in self.issues[:5])
        return said + (f"; and {self.count - 5} more" if self.count > 5 else "")

    def same_as(self, other: "AdjudicatorError") -> bool:
        """Whether two errors say the same thing (for comparisons: a fault every variant shares)."""
        return type(self) is type(other) and self.issues == other.issues


class MalformedRequest(AdjudicatorError):
    """The request's members do not fit together."""


class ImpossibleInput(AdjudicatorError):
    """The situation, action or round cannot happen under the variant."""


class UnknownVariant(AdjudicatorError):
    """No loaded variant has this id; ``known`` lists the ids that exist."""

    def __init__(self, variant_id: object, known: list[str], pointer: str = "/variant"):
        self.variant_id, self.known = variant_id, list(known)
        super().__init__([Issue(pointer, msg("error.unknown_variant", variant=str(variant_id),
                                             known=", ".join(known)))])


class RuleIllegal(AdjudicatorError):
    """Raised by the ``verify_*`` predicates: the action is not legal. ``findings`` are the checks that fail
    (or, when none fails, those left open), with their citations; each is also an issue at ``/action``."""

    def __init__(self, findings: tuple):
        self.findings = tuple(findings)
        super().__init__([Issue("/action", f.message) for f in self.findings])

    def __str__(self) -> str:
        return ", ".join(f.rule for f in self.findings)


class RuleNotStated(AdjudicatorError):
    """The answer needs a parameter the document does not state; a house rule can settle it."""

    def __init__(self, issues, parameters: list[str]):
        self.parameters = list(dict.fromkeys(parameters))
        super().__init__(issues)


# Stands in a list of issues for a fault past MAX_ISSUES: counted, never shown (errors keep the first MAX_ISSUES).
COUNTED = Issue("", Message("error.card_code", {"code": "…"}))


def issue(pointer: str, key: str, **args) -> Issue:
    return Issue(pointer, msg(key, **args))


def pointer(*parts: object) -> str:
    """Build a JSON pointer from path parts, escaping ``~`` and ``/``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
