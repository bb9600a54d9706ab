"""The typed results of scoring: score lines, a team's round, a round's sheet, a game's sheet."""

from __future__ import annotations

from dataclasses import dataclass

from typing import Any

from ..model.enums import Status
from ..model.findings import CannotHappen, HouseRuleUsed, Interpretation
from ..model.messages import Message
from ..model.citations import Citation


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One component of a team's round (``item`` such as ``natural_canastas``), with what it rests on."""

    item: str
    count: int | None
    points: int
    parameters: tuple[str, ...]
    citations: tuple[Citation, ...]
    house_rules: tuple[HouseRuleUsed, ...] = ()


@dataclass(frozen=True, slots=True)
class NextOpening:
    """A team's opening requirement for the next round; ``open_point`` says why it is unknown, if it is."""

    points: int | None
    canasta_required: bool
    citations: tuple[Citation, ...]
    house_rules: tuple[HouseRuleUsed, ...] = ()
    open_point: Message | None = None
    status: Status = Status.STATED  # the figure's standing in the text; ``note``/``notes`` say why when not stated
    note: str | None = None
    notes: tuple[tuple[str, str], ...] = ()

    @property
    def undetermined(self) -> bool:
        return self.open_point is not None


@dataclass(frozen=True)
class TeamScore:
    name: str
    score_before: int
    lines: tuple[ScoreLine, ...]
    round: int
    total: int
    opening: NextOpening


@dataclass(frozen=True)
class ScoreReading:
    """The score under one reading of the points the text leaves open (or reads two ways): each team's round
    and total (``teams``: (name, round, total)), and the game's end and winner."""

    values: tuple[tuple[str, Any], ...]  # (parameter, value) pairs
    teams: tuple[tuple[str, int, int], ...]
    game_over: bool
    winner: str | None
    target: int


@dataclass(frozen=True)
class Across:
    """What a score made across the readings of its text says of them (:mod:`adjudicator.scoring.across`):
    ``points`` where every reading gives the same totals; ``readings``, each reading's totals where they differ
    (the lines shown are one of them, ``shown``); ``cannot_happen``, the readings under which the round's tables
    cannot happen."""

    readings: tuple[ScoreReading, ...] = ()
    points: tuple[str, ...] = ()
    cannot_happen: tuple[CannotHappen, ...] = ()
    shown: tuple[tuple[str, Any], ...] = ()

    @property
    def undetermined(self) -> bool:
        """Whether the totals depend on how the text is read (``readings`` then differ)."""
        return bool(self.readings)


NO_READINGS = Across()  # a score that rests on nothing the text leaves open


@dataclass(frozen=True)
class RoundSheet:
    """One scored round: every team's lines and totals, whether the game is over, and what the readings of its
    text say of it (``across``)."""

    variant: str
    target: int
    teams: tuple[TeamScore, ...]
    game_over: bool
    winner: str | None
    interpretations: tuple[Interpretation, ...]
    across: Across = NO_READINGS


@dataclass(frozen=True)
class GameSheet:
    """A whole game: its rounds in order, with totals carried from one to the next."""

    variant: str
    players: int
    target: int
    rounds: tuple[RoundSheet, ...]
    teams: tuple[TeamScore, ...]
    game_over: bool
    winner: str | None
    interpretations: tuple[Interpretation, ...]
    across: Across = NO_READINGS
