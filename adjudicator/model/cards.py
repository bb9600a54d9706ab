"""Card codes: parsing, canonical form and the facts every rule asks of a card.

A card is a short code: rank ``A K Q J 10 9 8 7 6 5 4 3 2`` (``T`` also means
ten) followed by suit ``S H D C`` (or ``♠ ♥ ♦ ♣``), case-insensitive; ``JK`` is
the joker. Everything downstream works on the canonical string (``10H``,
``JK``) so that comparisons and counts are plain string operations: the
model's types (:class:`~adjudicator.model.situation.Situation`,
:class:`~adjudicator.model.actions.Action`) put every code through :func:`parse`
when they are made, so ``"3h"`` is the three of hearts everywhere, never a black
three, and a code that names no card is a :class:`CardError`.
"""

from __future__ import annotations

from typing import Final

from .errors import ImpossibleInput, issue

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
RED_SUITS = frozenset({"H", "D"})

_SUIT_ALIASES = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_RANK_ALIASES = {r: r for r in RANKS} | {"T": "10"}


class CardError(ImpossibleInput, ValueError):
    """A code that names no card: an :class:`~adjudicator.model.errors.ImpossibleInput` pointing at it
    (``pointer``, when the code stands in a situation or an action); carries the offending ``code``."""

    def __init__(self, code: object, pointer: str = ""):
        super().__init__([issue(pointer, "error.card_code", code=str(code))])
        self.code = code


def canonical(code: object) -> str | None:
    """The canonical code for ``code`` (``"3h"`` is ``"3H"``, the three of hearts), or None when it names no
    card: for a parser that words its own fault (a body can hold thousands, so no exception each)."""
    if not isinstance(code, str):
        return None
    known = CANONICAL.get(code)
    if known is not None:
        return known
    text = code.strip().upper()
    if text == JOKER:
        return JOKER
    if len(text) < 2:
        return None
    rank, suit = _RANK_ALIASES.get(text[:-1]), _SUIT_ALIASES.get(text[-1])
    return None if rank is None or suit is None else rank + suit


def parse(code: object, pointer: str = "") -> str:
    """The canonical code for ``code`` (``"3h"`` is ``"3H"``, the three of hearts), or :class:`CardError`."""
    known = canonical(code)
    if known is None:
        raise CardError(code, pointer)
    return known


def parse_all(codes, pointer: str = "") -> tuple[str, ...]:
    """``codes`` in canonical form, or :class:`CardError` at the first that names no card (``pointer/i``).

    Model types call it on construction, so a card is normalised once, wherever it comes from; a tuple
    that is canonical already (what the parser and the engine make) comes back as it is."""
    if type(codes) is tuple:
        try:
            if _CANONICAL_CODES.issuperset(codes):
                return codes
        except TypeError:  # an unhashable item where a code should be
            pass
    return tuple(parse(code, f"{pointer}/{i}") for i, code in enumerate(codes))


def parse_melds(melds, pointer: str = "") -> tuple[tuple[str, ...], ...]:
    """:func:`parse_all` for each meld (``pointer/m/i``); canonical melds come back as they are."""
    if type(melds) is tuple and all(type(m) is tuple and _canonical(m) for m in melds):
        return melds
    return tuple(parse_all(m, f"{pointer}/{i}") for i, m in enumerate(melds))


def _canonical(codes: tuple) -> bool:
    try:
        return _CANONICAL_CODES.issuperset(codes)
    except TypeError:
        return False


def is_canonical(codes: object) -> bool:
    """Whether ``codes`` is a tuple of canonical codes already (what the parser and the engine make): the model's
    constructors then keep it as it is, without building the pointers :func:`parse_all` would need."""
    if type(codes) is not tuple:
        return False
    try:
        return _ALL_KNOWN(codes)  # the frozenset's own issuperset, bound once: one call into C
    except TypeError:  # an unhashable item where a code should be
        return False


def _melds_known(melds: object) -> bool:
    """Every meld of ``melds`` (None: none) a tuple of canonical codes (TypeError for an unhashable code)."""
    if melds is None:
        return True
    if type(melds) is not tuple:
        return False
    known = _ALL_KNOWN
    for meld in melds:
        if type(meld) is not tuple or not known(meld):
            return False
    return True


def action_canonical(with_cards: object, melds: object, discard: object) -> bool:
    """Whether an action's cards are canonical already (the cards shown with the pile's top card, the melds,
    the card discarded), in one call: the action's constructor then keeps them as they are."""
    try:
        return (with_cards == () or (type(with_cards) is tuple and _ALL_KNOWN(with_cards))) and \
            _melds_known(melds) and (discard is None or (type(discard) is str and discard in _CANONICAL_CODES))
    except TypeError:  # an unhashable item where a code should be
        return False


def table_canonical(hand: object, pile: object, taken: object, team: object, opponents: object) -> bool:
    """Whether a situation's cards are canonical already -- its hand, pile and cards taken from the pile (each
    None or a tuple of codes) and both teams' melds (None or a tuple of melds) -- in one call: the
    situation's constructor then keeps them as they are."""
    known = _ALL_KNOWN
    try:
        return (hand is None or (type(hand) is tuple and known(hand))) and \
            (pile is None or (type(pile) is tuple and known(pile))) and \
            (taken == () or (type(taken) is tuple and known(taken))) and _melds_known(team) and \
            _melds_known(opponents)
    except TypeError:  # an unhashable item where a code should be
        return False


# Every canonical code maps to itself: the fast path of parse() and of situation parsing.
CANONICAL: dict[str, str] = {}
for _r in RANKS:
    for _s in SUITS:
        CANONICAL[_r + _s] = _r + _s
CANONICAL[JOKER] = JOKER
_CANONICAL_CODES: Final[frozenset[str]] = frozenset(CANONICAL)
_ALL_KNOWN: Final = _CANONICAL_CODES.issuperset
RANK_SET: Final = frozenset(RANKS)


def rank(card: str) -> str:
    """The rank of a canonical card (``JK`` for the joker)."""
    return JOKER if card == JOKER else card[:-1]


def is_red_three(card: str) -> bool:
    return card != JOKER and card[:-1] == "3" and card[-1] in RED_SUITS


def is_black_three(card: str) -> bool:
    return card != JOKER and card[:-1] == "3" and card[-1] not in RED_SUITS


def counts(cards, less=()) -> dict[str, int]:
    """How many of each card ``cards`` hold beyond the cards of ``less`` (a multiset difference; a card
    ``less`` has more of stays at zero). Plain dict counting: the engine's lists are short, and a
    ``Counter`` costs several times more to make and subtract."""
    out: dict[str, int] = {}
    for card in cards:
        out[card] = out.get(card, 0) + 1
    for card in less:
        n = out.get(card, 0)
        if n:
            out[card] = n - 1
    return out


def beyond(cards, available: dict[str, int]) -> list[str]:
    """The cards of ``cards`` that ``available`` (from :func:`counts`, used up here) does not cover, sorted."""
    out = []
    for card in cards:
        n = available.get(card, 0)
        if n:
            available[card] = n - 1
        else:
            out.append(card)
    return sorted(out)
