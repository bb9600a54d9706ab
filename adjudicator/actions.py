"""Parsing of the action a ruling is asked about, with 422s for impossible ones."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from . import cards
from .errors import InputError
from .situation import parse_cards, parse_melds

ACTION_TYPES = ("draw", "take_pile", "meld", "go_out", "discard")
LABELS = {"draw": "draw from the stock", "take_pile": "take the discard pile", "meld": "lay down these melds",
          "go_out": "go out", "discard": "discard this card"}


@dataclass
class Add:
    """Cards added to the team's meld of ``to`` (a rank), or of the cards' own rank when ``to`` is None."""

    cards: list[str]
    to: str | None
    pointer: str


@dataclass
class Action:
    type: str
    with_cards: list[str] = field(default_factory=list)
    melds: list[list[str]] = field(default_factory=list)
    adds: list[Add] = field(default_factory=list)
    discard: str | None = None

    @property
    def label(self) -> str:
        return LABELS[self.type]

    def hand_cards(self) -> list[str]:
        """Every card the action takes from the hand (for take_pile: only ``with``)."""
        if self.type == "take_pile":
            return list(self.with_cards)
        out = [c for m in self.melds for c in m] + [c for a in self.adds for c in a.cards]
        return out + ([self.discard] if self.discard else [])

    def laid_cards(self) -> list[str]:
        return [c for m in self.melds for c in m] + [c for a in self.adds for c in a.cards]


def parse_action(raw, base: str = "/action") -> Action:
    if not isinstance(raw, dict):
        raise InputError([{"pointer": base, "detail": "must be an object with a type"}])
    kind = raw.get("type")
    if kind not in ACTION_TYPES:
        raise InputError([{"pointer": f"{base}/type",
                           "detail": f"unknown action type {kind!r}; one of {', '.join(ACTION_TYPES)}"}])
    errors: list[dict] = []
    action = Action(kind)
    if kind == "take_pile":
        action.with_cards = parse_cards(raw.get("with") or [], f"{base}/with", errors)
    if kind in ("take_pile", "meld", "go_out"):
        action.melds = parse_melds(raw.get("melds") or [], f"{base}/melds", errors)
        action.adds = _parse_adds(raw.get("add") or [], f"{base}/add", errors)
    if kind == "go_out" and raw.get("discard") is not None:
        action.discard = _one(raw["discard"], f"{base}/discard", errors)
    if kind == "discard":
        if raw.get("card") is None:
            errors.append({"pointer": f"{base}/card", "detail": "a discard names its card"})
        else:
            action.discard = _one(raw["card"], f"{base}/card", errors)
    if kind == "meld" and not action.melds and not action.adds:
        errors.append({"pointer": f"{base}/melds", "detail": "a meld action lays down at least one meld or addition"})
    if errors:
        raise InputError(errors)
    return action


def _one(code, ptr: str, errors: list[dict]) -> str | None:
    try:
        return cards.parse(code)
    except cards.CardError as e:
        errors.append({"pointer": ptr, "detail": str(e)})
        return None


def _parse_adds(raw, ptr: str, errors: list[dict]) -> list[Add]:
    if not isinstance(raw, list):
        errors.append({"pointer": ptr, "detail": "must be a list"})
        return []
    out = []
    for i, item in enumerate(raw):
        where = f"{ptr}/{i}"
        if isinstance(item, dict):
            to = item.get("to")
            rank = cards.parse(f"{to}S")[:-1] if isinstance(to, str) and _is_rank(to) else None
            if rank is None:
                errors.append({"pointer": f"{where}/to", "detail": "must be a rank such as K or 10"})
            out.append(Add(parse_cards(item.get("cards"), f"{where}/cards", errors), rank, where))
        else:
            out.append(Add(parse_cards(item, where, errors), None, where))
    return out


def _is_rank(text: str) -> bool:
    try:
        cards.parse(f"{text}S")
        return True
    except cards.CardError:
        return False


def check_in_hand(action: Action, hand: list[str] | None, pile: list[str] | None, base: str = "/action") -> None:
    """422 when the action names cards the player cannot hold.

    ``with`` and the cards of melds, additions and discards come from the hand;
    in a take of the pile, melds and additions may also use the pile's cards.
    """
    if hand is None:
        return
    if action.type != "take_pile" and _holds(hand, action.hand_cards()):
        return  # the usual case; the walk below only names the offending cards
    if action.type == "take_pile" and _holds(hand, action.with_cards) and \
            _holds(_minus(hand, action.with_cards) + (pile[:-1] if pile else []), action.laid_cards()):
        return
    available = Counter(hand)
    errors = []

    def take(card: str, ptr: str, extra: Counter | None = None) -> None:
        if available[card] > 0:
            available[card] -= 1
        elif extra is not None and extra[card] > 0:
            extra[card] -= 1
        else:
            where = "hand" if extra is None else "hand or the pile"
            errors.append({"pointer": ptr, "detail": f"{card} is not in the player's {where}"})

    pile_rest = Counter(pile[:-1]) if (action.type == "take_pile" and pile) else None
    if action.type == "take_pile":
        for i, c in enumerate(action.with_cards):
            take(c, f"{base}/with/{i}")
    for m, meld in enumerate(action.melds):
        for i, c in enumerate(meld):
            take(c, f"{base}/melds/{m}/{i}", pile_rest)
    for add in action.adds:
        for i, c in enumerate(add.cards):
            take(c, f"{add.pointer}/{i}" if add.to is None else f"{add.pointer}/cards/{i}", pile_rest)
    if action.discard:
        take(action.discard, f"{base}/{'card' if action.type == 'discard' else 'discard'}")
    if errors:
        raise InputError(errors)


def _holds(have: list[str], need: list[str]) -> bool:
    """Whether the multiset ``have`` contains ``need`` (plain dict counting: these lists are short)."""
    if not need:
        return True
    counts: dict[str, int] = {}
    for card in have:
        counts[card] = counts.get(card, 0) + 1
    for card in need:
        n = counts.get(card, 0)
        if not n:
            return False
        counts[card] = n - 1
    return True


def _minus(have: list[str], used: list[str]) -> list[str]:
    rest = list(have)
    for card in used:
        rest.remove(card)
    return rest
