"""What a replay finds: an entry per move ruled, and the replay of a round or of a whole game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..model.errors import AdjudicatorError
from ..model.findings import ILLEGAL, LEGAL, Ruling
from ..model.messages import Message
from .table import End, Stop

if TYPE_CHECKING:
    from .table import Table


@dataclass(frozen=True)
class Entry:
    """One entry of the log ruled: its index, the seat, and the ruling (for an action) or what happened (for an
    event, ``said``); for an entry the log cannot hold, the ``reason``, and ``pointer``, where in the log the
    fault lies. ``together`` are the moves of one turn ruled as one laying with this one."""

    index: int
    player: int
    ruling: Ruling | None
    reason: Message | None = None
    event: str | None = None
    said: Message | None = None
    pointer: str = ""
    together: tuple[int, ...] = ()

    @property
    def verdict(self) -> str:
        if self.reason is not None:
            return ILLEGAL
        if self.ruling is not None:
            return self.ruling.verdict
        return LEGAL if self.event is not None else ILLEGAL


@dataclass(frozen=True)
class Replay:
    """What the replay of a round found: an entry per move ruled, the first illegal one (or None), where it
    stopped undetermined (or None), the table after the last legal move, why the round ended, and its score
    request and sheet when it ended."""

    variant: str
    entries: tuple[Entry, ...]
    first_illegal: Entry | None
    table: Table
    teams: int
    ended: bool
    score_request: dict | None
    score: Any = None
    score_error: AdjudicatorError | None = None  # what /v1/score answers instead, where it cannot score the round
    undetermined: Stop | None = None
    end: End | None = None
    base: str = ""  # where the round stands in the request ("" alone, /rounds/1 in a game)


@dataclass(frozen=True)
class GameReplay:
    """A game replayed round by round: each round's replay (up to the one that stopped), the first illegal
    move (``first_illegal_round``: its round), where it stopped undetermined, and the game's ``/v1/score``
    body of its ended rounds with the sheet (or the problem) ``/v1/score`` answers for it."""

    variant: str
    players: int
    rounds: tuple[Replay, ...]
    rounds_given: int
    first_illegal: Entry | None
    first_illegal_round: int | None
    undetermined: Stop | None
    undetermined_round: int | None
    score_request: dict | None
    score: Any = None
    score_error: AdjudicatorError | None = None

    @property
    def game_over(self) -> bool:
        return bool(self.score is not None and self.score.game_over)

Scorer = Callable[[dict], Any]  # a /v1/score body -> its sheet, or raises the AdjudicatorError /v1/score answers
