"""Typed requests: what the parser hands the engine, one kind per endpoint.

The engine's wings take these, never request JSON; :mod:`adjudicator.input.parse` makes
them (and checks that the table can happen) at the edge. ``rules`` is an
:class:`adjudicator.variants.Variant` (with the house rules applied): the annotation
names it without importing it, since the variant loader stands above the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action
from .errors import AdjudicatorError
from .parameters import PARAMETERS
from .situation import Situation

# ``turn.drew``: not drawn yet (None), or where the player drew.
DREW = (None, "stock", "pile")
# What a ruling's request has (a comparison of rulings), and a score's (one round or a game).
RULING_MEMBERS = ("situation", "action")
SCORE_MEMBERS = ("teams", "rounds")
PENALTY_PREFIX = "score.penalty_"
PENALTY_KINDS = tuple(p.name[len(PENALTY_PREFIX):] for p in PARAMETERS if p.name.startswith(PENALTY_PREFIX))


@dataclass(frozen=True)
class RulingRequest:
    """What ``/v1/adjudicate`` rules on: a situation and an action under one variant (with house rules)."""

    rules: Variant
    situation: Situation
    action: Action


@dataclass(frozen=True)
class OptionsRequest:
    """What ``/v1/options`` lists the moves of: a situation under one variant (with house rules)."""

    rules: Variant
    situation: Situation


@dataclass(frozen=True)
class TeamRound:
    """One team's round as given: cards (``melds``, ``hand``) or counts in their place."""

    name: str
    pointer: str
    score_before: int = 0
    melds: tuple[tuple[str, ...], ...] | None = None
    hand: tuple[str, ...] | None = None
    melded_points: int | None = None
    natural_canastas: int | None = None
    mixed_canastas: int | None = None
    hand_points: int | None = None
    red_threes: int = 0
    went_out: bool = False
    concealed: bool = False
    penalties: tuple[str, ...] = ()

    def cards_shown(self) -> list[str]:
        """Every card the team shows (melds, then hand): :meth:`located_cards` without the pointers."""
        out: list[str] = []
        for meld in self.melds or ():
            out += meld
        return out + list(self.hand or ())

    def located_cards(self) -> list[tuple[str, str]]:
        """Every card the team shows (melds, then hand) with its pointer."""
        out = [(c, f"{self.pointer}/melds/{j}/{k}") for j, m in enumerate(self.melds or ()) for k, c in enumerate(m)]
        return out + [(c, f"{self.pointer}/hand/{k}") for k, c in enumerate(self.hand or ())]


@dataclass(frozen=True)
class ScoreRequest:
    """One round (``game`` False: a single entry in ``rounds``) or a whole game, under one variant."""

    rules: Variant
    players: int
    rounds: tuple[tuple[TeamRound, ...], ...]
    game: bool


@dataclass(frozen=True)
class CompareRequest:
    """A ruling, a score or the options of a situation (``kind``) to work out under each of ``variants``;
    ``asked`` holds, in the same order, each variant's typed request, or the error that variant finds in
    the input (a table its deck cannot hold, a player count it has no rules for)."""

    kind: str
    variants: tuple[str, ...]
    asked: tuple[RulingRequest | OptionsRequest | ScoreRequest | AdjudicatorError, ...]


@dataclass(frozen=True)
class Move:
    """One move of the log: the seat, the action, and what a draw brought from the stock. ``pointer`` is where
    the move stands in the request (``/moves/17``, ``/rounds/1/moves/17``), so a fault names its place."""

    player: int
    action: Action
    cards: tuple[str, ...] | None = None
    body: dict = field(default_factory=dict, compare=False)  # the action's JSON, to replay or quote
    pointer: str = field(default="", compare=False)


EVENT_KINDS = ("lay_out", "ask", "answer")
PARTNER_ANSWERS = ("yes", "no")
# What each kind of entry of a replayed log may say (the parser checks it; openapi.yaml names each form).
ACTION_MEMBERS = ("player", "action", "cards")
EVENT_MEMBERS = {"lay_out": ("player", "event", "red_threes", "cards"), "ask": ("player", "event"),
                 "answer": ("player", "event", "answer")}


@dataclass(frozen=True)
class Event:
    """What happens at the table beside the actions a ruling is asked about.

    ``lay_out``: the player lays out ``red_threes`` from the hand, and ``cards`` are what the stock brought to
    replace them, in order (a red three among them laid out and replaced in turn, as a draw's are). ``ask``:
    the player asks the partner "may I go out?". ``answer``: the partner's ``answer`` (``yes`` or ``no``)."""

    player: int
    kind: str
    red_threes: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    answer: str | None = None
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Log:
    """A parsed round: the rules (house rules applied), the players, each team's score before it, the deal
    and the moves (actions and events, in the order they happened).

    ``first_player`` is the seat that plays first. ``lays_out`` says the log lays out the dealt red threes
    itself (a ``lay_out`` event); a log without one (the form before events) has them laid out before the
    first move, their replacements not in it. ``base`` is where the round stands in the request ("" for a
    round alone, ``/rounds/1`` in a game)."""

    rules: Variant
    players: int
    scores: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    stock_count: int
    moves: tuple[Move | Event, ...]
    payload: dict = field(default_factory=dict, compare=False)
    first_player: int = 0
    lays_out: bool = False
    base: str = ""


@dataclass(frozen=True)
class GameLog:
    """A parsed game: its rounds in order, each a :class:`Log` (its ``scores`` those before the game: the
    replay carries each round's totals into the next)."""

    rules: Variant
    players: int
    scores: tuple[int, ...]
    rounds: tuple[Log, ...]
    payload: dict = field(default_factory=dict, compare=False)
