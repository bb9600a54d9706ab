"""A game situation as the engine sees it: cards and facts, each known or not.

Every fact is optional: ``None`` means "not given". Reading one that a check
needs raises :class:`MissingFact` naming it, so the ruling
answers ``undetermined`` for that check instead of guessing. Build one directly
(``Situation(hand=("9H", "9S"), ...)``) or from request JSON with
:func:`adjudicator.input.parse.situation`, which calls the same constructor.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import RANKS, parse_all, parse_melds, table_canonical

_set = object.__setattr__  # a frozen dataclass's own way: its __init__ sets each field so


class MissingFact(Exception):
    """A fact the check needs was not given; ``pointer`` names it in the request."""

    def __init__(self, ptr: str):
        super().__init__(ptr)
        self.pointer = ptr


NOT_GIVEN = "not given"  # turn.drew when the request does not say whether the player has drawn
DRAWN = "drawn"  # turn.drew when the player has drawn this turn and nobody said where (``turn.has_drawn``)


@dataclass(frozen=True, slots=True, init=False)
class Side:
    """One team as the situation shows it. Its melds are put in canonical form by the situation it stands in
    (which knows where they stand, to point at a code that names no card).

    What a family knows without listing the melds: ``opened`` (the team has melded this round: True, or
    False, which is the same fact as ``melds == ()`` and is made so here) and ``canastas`` (how many
    canastas it has completed). A check that needs the melds themselves finds them missing; a check that
    needs only these facts reads them (:meth:`Situation.need_team_opened`, :class:`~adjudicator.rules.table.Table`).

    ``ranks``: the ranks the team has melded, as far as the family says them at a glance -- ``(("9", False),)``
    says "we have no meld of nines", ``(("9", True),)`` "we have one" (its cards not listed, so the team has
    opened). A rank not named is not known; the ranks are those a meld of one rank is made of (A to 4: black
    threes are melded only going out, twos are never a meld's rank in every reading). Kept in canonical form:
    rank codes (``"T"`` is ``"10"``) in the deck's order, one pair per rank. A check that needs only whether the
    team has a meld of a rank (one meld per rank; natural cards added to it, which never break a meld) reads it;
    one that needs that meld's cards still finds the melds missing.

    ``canastas_at_least``: the team has at least this many canastas (so it has opened), what a family says that
    knows no more ("yes, we have a canasta"); a check a lower bound cannot decide finds the count missing.
    """

    score: int | None
    melds: tuple[tuple[str, ...], ...] | None
    red_threes: int | None
    opened: bool | None
    canastas: int | None
    ranks: tuple[tuple[str, bool], ...]
    canastas_at_least: int | None

    def __init__(self, score: int | None = None, melds: tuple[tuple[str, ...], ...] | None = None,
                 red_threes: int | None = None, opened: bool | None = None, canastas: int | None = None,
                 ranks=(), canastas_at_least: int | None = None):
        if melds is None and opened is False:
            melds = ()  # a team that has not opened has no melds: one fact, one form
        _set(self, "score", score)
        _set(self, "melds", melds)
        _set(self, "red_threes", red_threes)
        _set(self, "opened", opened)
        _set(self, "canastas", canastas)
        _set(self, "ranks", rank_facts(ranks))
        _set(self, "canastas_at_least", canastas_at_least)

    def has_meld_of(self, rank: str) -> bool | None:
        """Whether the family said the team has a meld of ``rank`` (None: not said)."""
        for said, has in self.ranks:
            if said == rank:
                return has
        return None


@dataclass(frozen=True, slots=True)
class PileUnnamed:
    """Cards in the discard pile under the named ones that nobody named, and what the family knows of them:
    a wild card lies among them, a black three does, the pile was started by a red three (None: not known).
    Their number is not known (one or more)."""

    wild: bool | None = None
    black_three: bool | None = None
    red_three_first: bool | None = None


def rank_facts(ranks) -> tuple[tuple[str, bool], ...]:
    """``ranks`` (a mapping rank -> bool, or pairs) in canonical form: rank codes in the deck's order, a rank
    said None left out. A code that names no rank is a :class:`ValueError` (the parser points at it first)."""
    if not ranks:
        return ()
    pairs = ranks.items() if hasattr(ranks, "items") else ranks
    said: dict[str, bool] = {}
    for code, has in pairs:
        rank = _RANK_CODES.get(str(code).upper())
        if rank is None or rank not in MELD_RANKS:
            raise ValueError(f"not a rank: {code!r}")
        if has is not None:
            said[rank] = bool(has)
    return tuple((r, said[r]) for r in RANKS if r in said)


_RANK_CODES = {r: r for r in RANKS} | {"T": "10"}
MELD_RANK_NAMES = ("A", "K", "Q", "J", "10", "T", "9", "8", "7", "6", "5", "4")  # the ranks ``ranks`` may name
MELD_RANKS = frozenset(MELD_RANK_NAMES)

EMPTY_SIDE = Side()


@dataclass(frozen=True, init=False)
class Situation:
    """The table around one action.

    ``drew`` is ``None`` when the player has not drawn yet this turn, ``"stock"`` or
    ``"pile"`` when they have, :data:`DRAWN` when they have and nobody said where (taken as ``"pile"`` where
    ``cards_from_pile`` names cards), and :data:`NOT_GIVEN` when nobody said. ``cards_from_pile``
    lists the pile's cards taken this turn bottom first, so that its last card is the pile's
    top card. ``partner_answer`` is what the partner said when asked "may I go out?" (None:
    not asked, or not known); ``asked_after_melding`` whether the player had melded this turn before asking
    (beyond the meld a take of the pile lays; None: not said). ``base`` is
    where these facts stand in a request, so a missing one can be named by pointer.

    What a family says knowing no more than that: ``stock_empty`` (True is the same fact as ``stock_count ==
    0`` and is made so here; a count given says it too) and ``hand_count_at_least`` (the hand holds at least so
    many cards, its cards and count not given).

    The constructor is the one way to make one, by hand or by the parser: it puts every card code in
    canonical form (``"3h"`` is the three of hearts, never a black three; a
    :class:`~adjudicator.model.cards.CardError` points at a code that names no card), so a situation made
    by hand is ruled as the same situation parsed from JSON; cards canonical already (what the parser
    makes) are kept as they are, at the cost of one look at each list.
    """

    players: int | None
    first_round: bool | None
    stock_count: int | None
    pile: tuple[str, ...] | None
    team: Side
    opponents: Side
    hand: tuple[str, ...] | None
    hand_count: int | None
    has_melded: bool | None
    drew: str | None
    cards_from_pile: tuple[str, ...]
    partner_answer: str | None  # "yes" or "no": the partner's answer to "may I go out?" this turn
    base: str
    pile_unnamed: PileUnnamed | None  # cards under the named pile that nobody named (None: the pile is as named)
    asked_after_melding: bool | None  # the partner was asked after the player had melded this turn (None: not said)
    stock_empty: bool | None  # whether the stock is empty (None: not said; derived from a count given)
    hand_count_at_least: int | None  # the hand holds at least this many cards (its cards and count not given)

    def __init__(self, players: int | None = None, first_round: bool | None = None, stock_count: int | None = None,
                 pile: tuple[str, ...] | None = None, team: Side = EMPTY_SIDE, opponents: Side = EMPTY_SIDE,
                 hand: tuple[str, ...] | None = None, hand_count: int | None = None, has_melded: bool | None = None,
                 drew: str | None = NOT_GIVEN, cards_from_pile: tuple[str, ...] = (),
                 partner_answer: str | None = None, base: str = "/situation", pile_unnamed: PileUnnamed | None = None,
                 asked_after_melding: bool | None = None, stock_empty: bool | None = None,
                 hand_count_at_least: int | None = None):
        if not table_canonical(hand, pile, cards_from_pile, team.melds, opponents.melds):  # one look (compiled)
            if hand is not None:
                hand = parse_all(hand, base + "/player/hand")
            if pile is not None:
                pile = parse_all(pile, base + "/discard_pile")
            if cards_from_pile:
                cards_from_pile = parse_all(cards_from_pile, base + "/turn/cards_from_pile")
            if team.melds:
                team = replace(team, melds=parse_melds(team.melds, base + "/team/melds"))
            if opponents.melds:
                opponents = replace(opponents, melds=parse_melds(opponents.melds, base + "/opponents/melds"))
        _set(self, "players", players)
        _set(self, "first_round", first_round)
        _set(self, "stock_count", stock_count)
        _set(self, "pile", pile)
        _set(self, "team", team)
        _set(self, "opponents", opponents)
        _set(self, "hand", hand)
        _set(self, "hand_count", hand_count)
        _set(self, "has_melded", has_melded)
        _set(self, "drew", drew)
        _set(self, "cards_from_pile", cards_from_pile)
        _set(self, "partner_answer", partner_answer)
        _set(self, "base", base)
        _set(self, "pile_unnamed", pile_unnamed)
        _set(self, "asked_after_melding", asked_after_melding)
        if stock_empty is None and stock_count is not None:
            stock_empty = stock_count == 0  # the count says it
        elif stock_empty is True and stock_count is None:
            _set(self, "stock_count", 0)  # empty is no card: one fact, one form
        _set(self, "stock_empty", stock_empty)
        if drew == DRAWN and cards_from_pile:
            _set(self, "drew", "pile")  # cards taken with the pile this turn say where the player drew
        _set(self, "hand_count_at_least", hand_count_at_least)

    # --- facts a check needs (each ``need_*`` makes its test itself: one call less on the engine's hot path) --
    def need(self, value, path: str):
        """``value``, or :class:`MissingFact` for the fact at ``path`` (below ``base``)."""
        if value is None:
            raise MissingFact(self.base + path)
        return value

    def need_players(self) -> int:
        value = self.players
        if value is None:
            raise MissingFact(self.base + "/players")
        return value

    def need_hand(self) -> tuple[str, ...]:
        value = self.hand
        if value is None:
            raise MissingFact(self.base + "/player/hand")
        return value

    def need_hand_size(self) -> int:
        """Cards in the player's hand: the hand itself, or the count when only that is given."""
        if self.hand is not None:
            return len(self.hand)
        value = self.hand_count
        if value is None:
            raise MissingFact(self.base + "/player/hand_count")
        return value

    def hand_more_than(self, count: int) -> bool:
        """Whether the hand holds more than ``count`` cards: its size, or a lower bound that says so ("two or more
        cards left", tapped: what it settles is settled); a bound that does not decide it leaves the count missing."""
        least = self.hand_count_at_least
        if least is not None and least > count and self.hand_count is None and self._hand_not_listed():
            return True
        return self.need_hand_size() > count

    def _hand_not_listed(self) -> bool:
        return self.hand is None

    def need_pile(self) -> tuple[str, ...]:
        value = self.pile
        if value is None:
            raise MissingFact(self.base + "/discard_pile")
        return value

    def need_team_melds(self) -> tuple[tuple[str, ...], ...]:
        value = self.team.melds
        if value is None:
            raise MissingFact(self.base + "/team/melds")
        return value

    def need_team_opened(self) -> bool:
        """Whether the team has opened: from its melds, or the fact given without them."""
        team = self.team
        if team.melds is not None:
            return bool(team.melds)
        if team.opened is not None:
            return team.opened
        if team.canastas or team.canastas_at_least or any(has for _, has in team.ranks):
            return True
        raise MissingFact(self.base + "/team/melds")

    def team_has_opened(self) -> bool:
        """Whether the team is known to have opened (listed melds, or the fact given without them)."""
        team = self.team
        return bool(team.melds) or team.opened is True or bool(team.canastas) or bool(team.canastas_at_least) or \
            any(has for _, has in team.ranks)

    def need_stock_empty(self) -> bool:
        """Whether the stock is empty: from its count, or the fact given without it."""
        value = self.stock_empty
        if value is None:
            raise MissingFact(self.base + "/stock_count")
        return value

    def team_melds_or_unknown(self) -> tuple[tuple[str, ...], ...] | None:
        """The team's melds, or None for a team known to have opened whose melds are not listed (a check that
        needs them then finds them missing, see :class:`~adjudicator.rules.table.Table`)."""
        melds = self.team.melds
        if melds is None and not self.need_team_opened():
            return ()
        return melds

    def need_team_score(self) -> int:
        value = self.team.score
        if value is None:
            raise MissingFact(self.base + "/team/score")
        return value

    def need_first_round(self) -> bool:
        value = self.first_round
        if value is None:
            raise MissingFact(self.base + "/first_round")
        return value

    def need_drew(self) -> str | None:
        if self.drew == NOT_GIVEN:
            raise MissingFact(self.base + "/turn/drew")
        return self.drew

    def need_stock_count(self) -> int:
        value = self.stock_count
        if value is None:
            raise MissingFact(self.base + "/stock_count")
        return value

    def cards_shown(self) -> list[str]:
        """Every physical card the situation shows (hand, pile, both teams' melds)."""
        out = list(self.hand or ()) + list(self.pile or ())
        for side in (self.team, self.opponents):
            for meld in side.melds or ():
                out += meld
        return out


_new = object.__new__


# --- the table a meld's part is ruled on: the slow facts only, the others withheld --------------------
# The options search rules each part of a meld move once and keeps its ruling across requests, keyed by the
# facts that change slowly in a round (adjudicator.options.parts). A fact left out of that key must not be
# read by a check, or the kept ruling would be exact only for the table it was first made on. So the part's
# table withholds every other fact: a check that reads one through its ``need_*`` reader finds it missing (the
# part stays undetermined and the move is ruled whole on the real table); a check that reads one directly
# finds it missing too (:class:`WithheldFact`), and the read is recorded on the table (``reads``) and counted
# (:data:`DIRECT_READS`), so the part's ruling is never used whatever the check made of it, and a test
# (tests/test_options_exact.py) fails until the check reads the fact through the judge's reader.

DIRECT_READS: dict[str, int] = {}  # withheld fact -> times a check read it directly on a part's table


class WithheldFact(MissingFact):
    """A fact a check read directly on a part's table, which withholds it (see above)."""


def _withheld(name: str, path: str) -> property:
    def read(self):
        DIRECT_READS[name] = DIRECT_READS.get(name, 0) + 1
        self.reads.append(name)
        raise WithheldFact(self.at + path)
    read.__name__ = name.rpartition(".")[2]
    return property(read, doc=f"Withheld on a part's table: reading it raises :class:`WithheldFact` ({name}).")


class PartSide(Side):
    """A team on a part's table: its melds and what is said of them, its score and red threes withheld."""

    __slots__ = ("at", "reads")
    at: str
    reads: list
    score = _withheld("side.score", "/score")  # type: ignore[assignment]
    red_threes = _withheld("side.red_threes", "/red_threes")  # type: ignore[assignment]

    def _facts(self) -> tuple:
        """Every slot this side holds (those withheld are not set), ``reads`` aside: its key, by construction."""
        return tuple((name, _SLOTS[name].__get__(self)) for name in _SLOT_NAMES if _held(self, name))

    def __eq__(self, other):
        return type(other) is PartSide and self._facts() == other._facts()

    def __hash__(self):
        return hash((PartSide, self._facts()))

    def __repr__(self):
        return "PartSide(" + ", ".join(f"{name}={value!r}" for name, value in self._facts()) + ")"


_SLOTS = {name: klass.__dict__[name] for klass in (Side, PartSide) for name in klass.__slots__}
_SLOT_NAMES = tuple(name for name in _SLOTS if name != "reads")


def _held(side: PartSide, name: str) -> bool:
    try:
        _SLOTS[name].__get__(side)
    except AttributeError:  # a slot not set: a fact withheld
        return False
    return True


def _part_side(side: Side, at: str, reads: list) -> PartSide:
    made = _new(PartSide)
    for name in ("melds", "opened", "canastas", "ranks", "canastas_at_least"):
        _SLOTS[name].__set__(made, getattr(side, name))
    _SLOTS["at"].__set__(made, at)
    _SLOTS["reads"].__set__(made, reads)
    return made


class PartTable(Situation):
    """The slow facts of a table -- players, the turn, both teams' melds, the hand's size -- and nothing else.

    Every other fact (the hand, the pile, the stock, the scores, the red threes) is withheld: see above.
    ``reads`` lists the withheld facts read directly on this table so far. Equal (and hashed) by every fact
    it keeps -- whatever :func:`part_table` puts in it, so that it can stand in a cache's key and a fact
    kept cannot be left out of the key.
    """

    reads: list[str]  # the withheld facts read directly on this table (set when it is made)
    stock_count = _withheld("stock_count", "/stock_count")  # type: ignore[assignment]
    stock_empty = _withheld("stock_empty", "/stock_count")  # type: ignore[assignment]
    pile = _withheld("discard_pile", "/discard_pile")  # type: ignore[assignment]
    pile_unnamed = _withheld("pile_unnamed", "/pile_unnamed")  # type: ignore[assignment]
    hand = _withheld("player.hand", "/player/hand")  # type: ignore[assignment]

    @property
    def at(self) -> str:
        return self.base

    def _key(self) -> tuple:
        """Every fact this table keeps, ``reads`` aside (its key, by construction)."""
        return tuple(sorted((name, value) for name, value in self.__dict__.items() if name != "reads"))

    def __eq__(self, other):
        return type(other) is PartTable and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "PartTable(" + ", ".join(f"{name}={value!r}" for name, value in self._key()) + ")"

    # the judge's readers: a withheld fact is missing, as on any table that does not give it (not a direct read)
    def need_hand(self) -> tuple[str, ...]:
        raise MissingFact(self.base + "/player/hand")

    def need_hand_size(self) -> int:
        value = self.hand_count
        if value is None:
            raise MissingFact(self.base + "/player/hand_count")
        return value

    def _hand_not_listed(self) -> bool:
        return True  # a hand given is kept as its size (``hand_count``): with no count, none was given

    def need_pile(self) -> tuple[str, ...]:
        raise MissingFact(self.base + "/discard_pile")

    def need_stock_count(self) -> int:
        raise MissingFact(self.base + "/stock_count")

    def need_stock_empty(self) -> bool:
        raise MissingFact(self.base + "/stock_count")

    def need_team_score(self) -> int:
        raise MissingFact(self.base + "/team/score")

    def cards_shown(self) -> list[str]:
        raise MissingFact(self.base + "/player/hand")


def part_table(situation: Situation) -> PartTable:
    """The table a meld's part is ruled on: ``situation``'s slow facts (the hand's size for the cards a meld
    must leave), every other fact withheld."""
    reads: list[str] = []
    made = _new(PartTable)
    base = situation.base
    _set(made, "__dict__", {
        "players": situation.players, "first_round": situation.first_round,
        "team": _part_side(situation.team, base + "/team", reads),
        "opponents": _part_side(situation.opponents, base + "/opponents", reads),
        "hand_count": len(situation.hand) if situation.hand is not None else situation.hand_count,
        "has_melded": situation.has_melded, "drew": situation.drew, "cards_from_pile": situation.cards_from_pile,
        "partner_answer": situation.partner_answer, "base": base, "reads": reads,
        "asked_after_melding": situation.asked_after_melding, "hand_count_at_least": situation.hand_count_at_least})
    return made
