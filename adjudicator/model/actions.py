"""The action a ruling is asked about: draw, take the pile, meld, go out, or discard."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import RANKS, CardError, parse, parse_all, parse_melds
from .enums import ActionType
from .errors import MalformedRequest, issue
from .messages import Items, Word

ACTION_TYPES = tuple(ActionType)
_TYPES = {t.value: t for t in ActionType}


@dataclass(frozen=True, slots=True)
class Add:
    """Cards added to the team's meld of ``to`` (a rank), or of the cards' own rank when ``to`` is None."""

    cards: tuple[str, ...]
    to: str | None = None
    # where the addition stands in the request, to point at its cards; not part of what the addition is
    pointer: str = field(default="", compare=False)

    def __post_init__(self):
        """Normalise the cards (``CardError`` for one that names no card) and the rank (``"k"`` is ``K``,
        ``"t"`` is ``10``)."""
        at = self.pointer if self.to is None else f"{self.pointer}/cards"
        object.__setattr__(self, "cards", parse_all(self.cards, at))
        if isinstance(self.to, str) and self.to not in RANKS:
            try:
                object.__setattr__(self, "to", parse(f"{self.to}S")[:-1])
            except CardError:  # no rank: the ruling finds no such meld of the team
                pass


@dataclass(frozen=True)
class Action:
    """One action. ``with_cards`` are the hand cards shown with the pile's top card (take_pile)."""

    type: ActionType
    with_cards: tuple[str, ...] = ()
    melds: tuple[tuple[str, ...], ...] = ()
    adds: tuple[Add, ...] = ()
    discard: str | None = None

    def __post_init__(self):
        """Check the type (a :class:`MalformedRequest` for one the rules do not know) and normalise every card
        (``"3h"`` is the three of hearts; a :class:`~adjudicator.model.cards.CardError` for a code that names
        no card), so that an action made by hand is ruled as the same action parsed from JSON."""
        kind = _TYPES.get(self.type) if isinstance(self.type, str) else None
        if kind is None:
            raise MalformedRequest([issue("/action/type", "error.action_type",
                                          types=Items(tuple(Word(t) for t in ACTION_TYPES), ", "))])
        set_ = object.__setattr__
        set_(self, "type", kind)
        if self.with_cards:
            set_(self, "with_cards", parse_all(self.with_cards, "/action/with"))
        if self.melds:
            set_(self, "melds", parse_melds(self.melds, "/action/melds"))
        if type(self.adds) is not tuple:
            set_(self, "adds", tuple(self.adds))
        if self.discard is not None:
            at = "/action/card" if kind is ActionType.DISCARD else "/action/discard"
            set_(self, "discard", parse(self.discard, at))

    def hand_cards(self) -> list[str]:
        """Every card the action takes from the hand (for take_pile: only ``with``)."""
        if self.type == ActionType.TAKE_PILE:
            return list(self.with_cards)
        out = self.laid_cards()
        return out + [self.discard] if self.discard else out

    def laid_cards(self) -> list[str]:
        """Every card the action lays on the table (new melds and additions)."""
        out = [c for m in self.melds for c in m]
        for add in self.adds:
            out += add.cards
        return out


# --- made from parsed JSON ----------------------------------------------------------------------------
# The parser (adjudicator.input.parse) has already checked the type and put every card in canonical form, pointing
# at each fault, so an action it makes need not go through __post_init__ again, nor through the frozen dataclass's
# per-field object.__setattr__. These make the same classes, equal field for field to what __init__ makes.

_new = object.__new__
_ADD_SETTERS = tuple(Add.__dict__[name].__set__ for name in Add.__slots__)
assert Add.__slots__ == ("cards", "to", "pointer")
_set_dict = object.__setattr__


def parsed_add(cards: tuple[str, ...], to: str | None, pointer: str) -> Add:
    """``Add(cards, to, pointer)`` for canonical cards and a canonical rank (or None)."""
    made = _new(Add)
    s_cards, s_to, s_pointer = _ADD_SETTERS
    s_cards(made, cards)
    s_to(made, to)
    s_pointer(made, pointer)
    return made


def parsed_action(kind: ActionType, with_cards: tuple[str, ...], melds: tuple[tuple[str, ...], ...],
                  adds: tuple[Add, ...], discard: str | None) -> Action:
    """``Action(kind, with_cards, melds, adds, discard)`` for a known type and canonical cards."""
    made = _new(Action)
    _set_dict(made, "__dict__", {"type": kind, "with_cards": with_cards, "melds": melds, "adds": adds,
                                 "discard": discard})
    return made


def action_type(kind: object) -> ActionType | None:
    """The action type named ``kind``, or None."""
    return _TYPES.get(kind) if isinstance(kind, str) else None
