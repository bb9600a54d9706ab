"""Card codes: parsing, canonical form and the facts every rule asks of a card.

A card is a short code: rank ``A K Q J 10 9 8 7 6 5 4 3 2`` (``T`` also means
ten) followed by suit ``S H D C`` (or ``♠ ♥ ♦ ♣``), case-insensitive; ``JK`` is
the joker. Everything downstream works on the canonical string (``10H``,
``JK``) so that comparisons and counts are plain string operations.
"""

from __future__ import annotations

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
RED_SUITS = frozenset({"H", "D"})

_SUIT_ALIASES = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_RANK_ALIASES = {r: r for r in RANKS} | {"T": "10"}


class CardError(ValueError):
    """Raised for a code that names no card; carries the offending code."""

    def __init__(self, code: object):
        super().__init__(f"{code!r} is not a card code (rank A K Q J 10 9 8 7 6 5 4 3 2 then suit S H D C, or JK)")
        self.code = code


def parse(code: object) -> str:
    """Return the canonical code for ``code`` or raise :class:`CardError`."""
    if not isinstance(code, str):
        raise CardError(code)
    canonical = CANONICAL.get(code)
    if canonical is not None:
        return canonical
    text = code.strip().upper()
    if text == JOKER:
        return JOKER
    if len(text) < 2:
        raise CardError(code)
    rank, suit = _RANK_ALIASES.get(text[:-1]), _SUIT_ALIASES.get(text[-1])
    if rank is None or suit is None:
        raise CardError(code)
    return rank + suit


# Every canonical code maps to itself: the fast path of parse() and of situation parsing.
CANONICAL: dict[str, str] = {}
for _r in RANKS:
    for _s in SUITS:
        CANONICAL[_r + _s] = _r + _s
CANONICAL[JOKER] = JOKER


def rank(card: str) -> str:
    """The rank of a canonical card (``JK`` for the joker)."""
    return JOKER if card == JOKER else card[:-1]


def is_red_three(card: str) -> bool:
    return card != JOKER and card[:-1] == "3" and card[-1] in RED_SUITS


def is_black_three(card: str) -> bool:
    return card != JOKER and card[:-1] == "3" and card[-1] not in RED_SUITS

