"""The action a ruling is asked about: draw, take the pile, meld, go out, or discard."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import RANK_SET, CardError, action_canonical, is_canonical, parse, parse_all, parse_melds
from .enums import ActionType
from .errors import MalformedRequest, issue
from .messages import Items, Word

ACTION_TYPES = tuple(ActionType)
_TYPES = {t.value: t for t in ActionType}


@dataclass(frozen=True, slots=True, init=False)
class Add:
    """Cards added to the team's meld of ``to`` (a rank), or of the cards' own rank when ``to`` is None.

    Made by hand or by the parser through the same constructor: the cards are put in canonical form
    (``CardError`` for one that names no card) and the rank too (``"k"`` is ``K``, ``"t"`` is ``10``);
    canonical ones are kept as they are."""

    cards: tuple[str, ...]
    to: str | None
    # where the addition stands in the request, to point at its cards; not part of what the addition is
    pointer: str = field(compare=False)

    def __init__(self, cards: tuple[str, ...], to: str | None = None, pointer: str = ""):
        if not is_canonical(cards):
            cards = parse_all(cards, pointer if to is None else f"{pointer}/cards")
        if isinstance(to, str) and to not in RANK_SET:
            try:
                to = parse(f"{to}S")[:-1]
            except CardError:  # no rank: the ruling finds no such meld of the team
                pass
        _A_CARDS(self, cards)
        _A_TO(self, to)
        _A_POINTER(self, pointer)


_A_CARDS, _A_TO, _A_POINTER = (Add.__dict__[name].__set__ for name in ("cards", "to", "pointer"))
_set_dict = object.__setattr__


@dataclass(frozen=True, init=False)
class Action:
    """One action. ``with_cards`` are the hand cards shown with the pile's top card (take_pile).

    Made by hand or by the parser through the same constructor: the type is checked (a
    :class:`MalformedRequest` for one the rules do not know; a plain string names it) and every card is put in
    canonical form (``"3h"`` is the three of hearts; a :class:`~adjudicator.model.cards.CardError` for a code
    that names no card), so an action made by hand is ruled as the same action parsed from JSON; what is
    canonical already (what the parser makes) is kept as it is."""

    type: ActionType
    with_cards: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    adds: tuple[Add, ...]
    discard: str | None

    def __init__(self, type: ActionType | str, with_cards: tuple[str, ...] = (),
                 melds: tuple[tuple[str, ...], ...] = (), adds: tuple[Add, ...] = (), discard: str | None = None):
        kind = type if type.__class__ is ActionType else (_TYPES.get(type) if isinstance(type, str) else None)
        if kind is None:
            raise MalformedRequest([issue("/action/type", "error.action_type",
                                          types=Items(tuple(Word(t) for t in ACTION_TYPES), ", "))])
        if not action_canonical(with_cards, melds, discard):  # one look (compiled)
            with_cards = parse_all(with_cards, "/action/with")
            melds = parse_melds(melds, "/action/melds")
            if discard is not None:
                discard = parse(discard, "/action/card" if kind is ActionType.DISCARD else "/action/discard")
        if adds.__class__ is not tuple:
            adds = tuple(adds)
        _set_dict(self, "__dict__", {"type": kind, "with_cards": with_cards, "melds": melds, "adds": adds,
                                     "discard": discard})

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


def action_type(kind: object) -> ActionType | None:
    """The action type named ``kind``, or None."""
    return _TYPES.get(kind) if isinstance(kind, str) else None
