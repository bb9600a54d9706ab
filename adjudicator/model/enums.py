"""The engine's fixed vocabularies as string enums: verdicts, action types, parameter statuses.

Each member is a ``str`` equal to today's code (``Verdict.LEGAL == "legal"``), so JSON,
dictionary keys and comparisons with plain strings keep working; a typo in code is now a
name error instead of a string that quietly never matches.
"""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """A ruling's outcome: ``illegal`` when a finding failed, else ``undetermined`` when one is open."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    UNDETERMINED = "undetermined"


class ActionType(StrEnum):
    """What a player does: the actions a ruling is asked about."""

    DRAW = "draw"
    TAKE_PILE = "take_pile"
    MELD = "meld"
    GO_OUT = "go_out"
    DISCARD = "discard"


class Status(StrEnum):
    """How a variant's document gives a parameter: ``stated``, ``interpreted`` (read with judgement, a note
    says how) or ``not_stated`` (silent or self-contradictory, a note says which)."""

    STATED = "stated"
    INTERPRETED = "interpreted"
    NOT_STATED = "not_stated"
