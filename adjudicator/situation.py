"""A game situation as the engine sees it: parsed cards, known and unknown facts.

Every field of a situation is optional. Reading a field that was not given
raises :class:`MissingFact` carrying its JSON pointer, so a ruling that needs
it answers ``undetermined`` instead of guessing. Impossible situations (an
unknown card code, more copies of a card than the deck holds, a player count
the variant does not support) raise :class:`InputError` with pointers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from . import cards
from .errors import InputError, pointer


class MissingFact(Exception):
    """A fact the ruling needs was not given; ``pointer`` says which."""

    def __init__(self, ptr: str):
        super().__init__(ptr)
        self.pointer = ptr


_ABSENT = object()


def parse_cards(value: Any, ptr: str, errors: list[dict], index: int | None = None) -> list[str]:
    """Parse a list of card codes, collecting one error per bad code.

    ``index`` (a meld's place in its list) is joined to ``ptr`` only when there
    is an error to report: building pointers for every meld cost more than parsing.
    """
    if not isinstance(value, list):
        errors.append({"pointer": ptr if index is None else f"{ptr}/{index}", "detail": "must be a list of card codes"})
        return []
    get = cards.CANONICAL.get
    try:
        out = [get(code) for code in value]
    except TypeError:  # an unhashable item (a list or an object) where a code should be
        out = [None]
    if None in out:  # slow path: spelled variants (10/T, suit symbols, lower case) and errors
        if index is not None:
            ptr = f"{ptr}/{index}"
        out = []
        for i, code in enumerate(value):
            try:
                out.append(cards.parse(code))
            except cards.CardError as e:
                errors.append({"pointer": f"{ptr}/{i}", "detail": str(e)})
    return out


def parse_melds(value: Any, ptr: str, errors: list[dict]) -> list[list[str]]:
    if not isinstance(value, list):
        errors.append({"pointer": ptr, "detail": "must be a list of melds (each a list of card codes)"})
        return []
    return [parse_cards(m, ptr, errors, i) for i, m in enumerate(value)]


@dataclass
class Side:
    """One team as seen in a situation; ``None`` marks a fact not given."""

    score: int | None
    melds: list[list[str]] | None
    red_threes: int | None


class Situation:
    """The parsed situation of a ruling request."""

    def __init__(self, raw: dict, variant, base: str = "/situation"):
        self.base = base
        self.raw = raw
        errors: list[dict] = []
        if not isinstance(raw, dict):
            raise InputError([{"pointer": base, "detail": "must be an object"}])
        self.players = self._players(raw.get("players", _ABSENT), variant, errors)
        self.first_round = raw.get("first_round")
        self.stock_count = raw.get("stock_count")
        self.pile = parse_cards(raw["discard_pile"], f"{base}/discard_pile", errors) \
            if raw.get("discard_pile") is not None else None
        self.team = self._side(raw.get("team"), f"{base}/team", errors)
        self.opponents = self._side(raw.get("opponents"), f"{base}/opponents", errors)
        player = raw.get("player") if isinstance(raw.get("player"), dict) else {}
        self.hand = parse_cards(player["hand"], f"{base}/player/hand", errors) \
            if player.get("hand") is not None else None
        self.has_melded = player.get("has_melded")
        turn = raw.get("turn") if isinstance(raw.get("turn"), dict) else {}
        self.turn_given = "drew" in turn
        self.drew = turn.get("drew")
        self.cards_from_pile = parse_cards(turn["cards_from_pile"], f"{base}/turn/cards_from_pile", errors) \
            if turn.get("cards_from_pile") is not None else []
        if errors:
            raise InputError(errors)

    # --- parsing -------------------------------------------------------
    def _players(self, value, variant, errors) -> int | None:
        supported = variant.value("players.supported")  # read only: no copy per request
        if value is _ABSENT or value is None:
            return supported[0] if len(supported) == 1 else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
            errors.append({"pointer": f"{self.base}/players", "detail": "must be an integer"})
            return None
        if int(value) not in supported:
            errors.append({"pointer": f"{self.base}/players",
                           "detail": f"{variant.id} supports {', '.join(map(str, supported))} players, not {value}"})
            return None
        return int(value)

    def _side(self, raw, ptr, errors) -> Side:
        if raw is None:
            return Side(None, None, None)
        if not isinstance(raw, dict):
            errors.append({"pointer": ptr, "detail": "must be an object"})
            return Side(None, None, None)
        melds = parse_melds(raw["melds"], f"{ptr}/melds", errors) if raw.get("melds") is not None else None
        return Side(raw.get("score"), melds, raw.get("red_threes"))

    # --- facts -----------------------------------------------------------
    def need(self, value, *path: str):
        """Return ``value`` or raise :class:`MissingFact` for the pointer ``path``."""
        if value is None:
            raise MissingFact(self.base + pointer(*path))
        return value

    def need_players(self) -> int:
        return self.need(self.players, "players")

    def need_hand(self) -> list[str]:
        return self.need(self.hand, "player", "hand")

    def need_pile(self) -> list[str]:
        return self.need(self.pile, "discard_pile")

    def need_team_melds(self) -> list[list[str]]:
        return self.need(self.team.melds, "team", "melds")

    def need_team_score(self) -> int:
        return self.need(self.team.score, "team", "score")

    def need_first_round(self) -> bool:
        return self.need(self.first_round, "first_round")

    def need_drew(self) -> str | None:
        if not self.turn_given:
            raise MissingFact(self.base + "/turn/drew")
        return self.drew

    def need_stock_count(self) -> int:
        return self.need(self.stock_count, "stock_count")



def all_cards(situation: Situation) -> list[str]:
    """Every physical card the situation shows (hand, pile, both teams' melds)."""
    out = list(situation.hand or ()) + list(situation.pile or ())
    for side in (situation.team, situation.opponents):
        for meld in side.melds or ():
            out += meld
    return out


def card_locations(situation: Situation, action_cards: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The same cards with the pointer where each stands (built only to explain an error)."""
    base = situation.base
    out: list[tuple[str, str]] = []
    if situation.hand is not None:
        out += [(c, f"{base}/player/hand/{i}") for i, c in enumerate(situation.hand)]
    if situation.pile is not None:
        out += [(c, f"{base}/discard_pile/{i}") for i, c in enumerate(situation.pile)]
    for side_name, side in (("team", situation.team), ("opponents", situation.opponents)):
        for m, meld in enumerate(side.melds or []):
            out += [(c, f"{base}/{side_name}/melds/{m}/{i}") for i, c in enumerate(meld)]
    return out + action_cards


def check_deck(variant, shown: list[str], locate, red_threes_laid: list[tuple[int, str]]) -> None:
    """Raise a 422 naming the first card that the variant's deck cannot hold so many of.

    ``shown`` is every card in play; ``locate()`` gives the same cards with
    their pointers and is called only when there is an error to explain.
    """
    decks, jokers = variant.value("deck.decks"), variant.value("deck.jokers")
    counts = Counter(shown)
    red_limit = 2 * decks
    laid = sum(n for n, _ in red_threes_laid)
    most = max(counts.values(), default=0)
    fits = most <= decks and counts[cards.JOKER] <= jokers or \
        not [c for c, n in counts.items() if n > (jokers if c == cards.JOKER else decks)]
    if fits and laid + counts["3H"] + counts["3D"] <= red_limit:
        return
    errors, seen = [], Counter()
    for card, ptr in locate():
        seen[card] += 1
        limit = jokers if card == cards.JOKER else decks
        if seen[card] == limit + 1:
            errors.append({"pointer": ptr, "detail": f"{variant.id}'s deck holds {limit} {card}; this is one more"})
    shown_reds = counts["3H"] + counts["3D"]
    if laid + shown_reds > red_limit:
        ptr = next((p for n, p in red_threes_laid if n), red_threes_laid[0][1] if red_threes_laid else "")
        errors.append({"pointer": ptr, "detail": f"{laid + shown_reds} red threes in all, but {variant.id}'s deck "
                                                 f"holds {red_limit}"})
    raise InputError(errors)
