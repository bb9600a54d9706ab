"""Every move of a group in canonical form: the candidates the complete listing rules, one per distinct move.

Two moves are the same move when they differ only in the suits of natural cards
(and in which of identical wild cards): a card is its *kind* -- its rank; a
joker; a two; a red or a black three -- and, after taking the pile, whether it
came from the pile this turn (the engine reads that). A move is then a multiset
of kinds per meld laid, per addition (with the rank it goes onto), per card shown
with the pile's top card, and the discard.

:func:`layouts` walks every way to put the hand's kinds into places -- additions
to the team's melds, new melds of each rank (several per rank only where a
reading lets a team hold two melds of a rank), a black-three meld, a meld of wild
cards alone where a reading allows one -- and leaves out only what the engine's
own meld check (:class:`~adjudicator.options_hand.Shape`, one composition at a
time) refuses under *every* reading the search tries. Everything else is ruled by
the engine (:mod:`adjudicator.options`), which alone decides what is listed. A
walk stops after :data:`MAX_MOVES` moves and says so: the listing then gives its
count as a lower bound.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
from operator import itemgetter

from ..model.actions import Action, Add
from ..model.enums import ActionType
from ..model.cards import JOKER, RANKS, is_red_three
from ..rules.melds import sure_rank
from .hand import Shape, known, _team_meld
from ..model.situation import Situation
from ..turns import checkpoint
from ..variants import Variant

MAX_MOVES = 4000  # candidate moves walked per group at most; beyond, the count is a lower bound
WILD = ("JK", "2")


def kind(card: str) -> str:
    """A card up to what the engine reads of it (its suit only matters for threes)."""
    if card == JOKER:
        return "JK"
    r = card[:-1]
    if r == "2":
        return "2"
    if r == "3":
        return "3R" if is_red_three(card) else "3B"
    return r


def kinds(cards) -> tuple[str, ...]:
    """The kinds of some cards, sorted: a part of a move, its suits forgotten."""
    return tuple(sorted(kind(c) for c in cards))


def canonical(action: Action, situation: Situation | None = None) -> tuple:
    """The move an action stands for: the kinds of each part, parts unordered, and -- after taking the
    pile, where the engine tells them apart -- the kinds of the laid cards that came from the pile."""
    from_pile: tuple[str, ...] = ()
    if situation is not None and situation.drew == "pile" and situation.cards_from_pile and situation.hand:
        own = Counter(situation.hand) - Counter(situation.cards_from_pile)
        from_pile = kinds((Counter(action.laid_cards()) - own).elements())
    return (action.type, kinds(action.with_cards), tuple(sorted(kinds(m) for m in action.melds)),
            tuple(sorted((a.to or "", kinds(a.cards)) for a in action.adds)),
            kind(action.discard) if action.discard else None, from_pile)


@dataclass(frozen=True)
class Place:
    """Where cards may go: a new meld of ``rank`` (None: wild cards alone; ``3B``: black threes) or an
    addition to the team's meld of ``rank``."""

    how: str  # new | add
    rank: str | None


class Hand:
    """The hand as counts of classes -- (kind, from the pile this turn) -- with representative cards."""

    def __init__(self, situation: Situation | None, cards=None,
                 parts: tuple[Counter, dict[tuple, list[str]]] | None = None):
        """The hand of ``situation`` (or ``cards`` from it); or, given ``parts``, the hand of those counts and
        pools (what :meth:`take` leaves: a class compiled by mypyc is made only through its ``__init__``)."""
        self.counts: Counter = Counter()
        self.pools: dict[tuple, list[str]] = {}
        if parts is not None:
            self.counts, self.pools = parts
            return
        assert situation is not None, "a hand is counted from its situation, or given as its parts"
        cards = situation.hand if cards is None else cards
        taken = Counter(situation.cards_from_pile) if situation.drew == "pile" else Counter()
        own = Counter(cards) - taken
        both = set(own) & set(Counter(cards) - own)
        left = Counter(own)
        for card in sorted(cards, key=_order):
            pile = left[card] <= 0
            if not pile:
                left[card] -= 1
            cls = (kind(card), pile)
            self.counts[cls] += 1
            self.pools.setdefault(cls, []).append(card)
        # The engine counts a laid card as the pile's only beyond the player's own copies of its code: own
        # copies of a code the pile also gave go first, the pile's codes the player has none of go first.
        for (k, pile), pool in self.pools.items():
            pool.sort(key=lambda c: (c not in both) if not pile else (c in both))

    def take(self, used: Counter) -> tuple[list[str], "Hand"]:
        """The cards of ``used`` (by class), and what is left."""
        pools: dict[tuple, list[str]] = {}
        out: list[str] = []
        for cls, cards in self.pools.items():
            n = used[cls]
            out += cards[:n]
            if cards[n:]:
                pools[cls] = cards[n:]
        return out, Hand(None, parts=(self.counts - used, pools))


def _order(card: str) -> tuple:
    return (RANKS.index(card[:-1]) if card != JOKER else len(RANKS), card)


class Readings:
    """What the walk may leave out: compositions the engine's meld check refuses under every reading."""

    def __init__(self, ruled: list[Variant]):
        self.ruled = [(r, Shape(r), known(r, "wild.twos")) for r in ruled]
        self.twos_natural = any(t is not True for _, _, t in self.ruled)
        self.twos_wild = any(t is not False for _, _, t in self.ruled)
        self.several = any(known(r, "meld.one_per_rank", None) is not True for r, _, _ in self.ruled)
        self.wild_only = any(known(r, "meld.wild_only_allowed", None) is not False for r, _, _ in self.ruled)
        self.three_wilds = any(known(r, "black_three.meld_wilds_allowed", None) is not False
                               for r, _, _ in self.ruled)
        sizes = [known(r, "black_three.meld_sizes", None) for r, _, _ in self.ruled]
        self.three_sizes = None if any(s is None for s in sizes) else {n for s in sizes for n in s}

    def fits(self, rank: str, naturals: int, jokers: int, twos: int, team) -> bool:
        """Whether ``naturals`` of ``rank`` with these wild cards (onto ``team``, a meld's cards, or a new
        meld when None) pass the composition checks under some reading."""
        for rules, shape, twos_wild in self.ruled:
            if rank == "2" and twos_wild is True:
                continue
            if rank != "2" and twos and twos_wild is False:
                continue
            n0 = w0 = 0
            if team is not None:
                held = _team_meld(rules, team)
                n0, w0 = held.naturals, held.wilds
            if shape.fits(n0 + naturals, w0 + jokers + (0 if rank == "2" else twos)):
                return True
        return False


def places(hand: Hand, team_melds, readings: Readings, extra_add: str | None = None) -> list[Place]:
    """Every place the hand's cards may go: additions first, then new melds by rank."""
    team_ranks = list(dict.fromkeys([r for r in (sure_rank(m) for m in team_melds) if r] +
                                    ([extra_add] if extra_add else [])))
    out = [Place("add", r) for r in team_ranks]
    ranks = {k for k, _ in hand.counts if k not in ("JK", "3R", "3B") and (k != "2" or readings.twos_natural)}
    for r in sorted(ranks, key=lambda r: RANKS.index(r)):
        if r in team_ranks and not readings.several:
            continue
        naturals = sum(n for (k, _), n in hand.counts.items() if k == r)
        copies = max(1, naturals // 2) if readings.several else 1
        out += [Place("new", r)] * copies
    if any(k == "3B" for k, _ in hand.counts):
        out.append(Place("new", "3B"))
    if readings.wild_only and any(k in WILD for k, _ in hand.counts):
        out.append(Place("new", None))
    return out


def _team_cards(team_melds, extra, r):
    for m in team_melds:
        if sure_rank(m) == r:
            return tuple(m)
    return tuple(extra) if extra is not None else ()


def _nothing(_left: dict) -> tuple:
    """The counts a place without classes depends on: none."""
    return ()


def layouts(hand: Hand, team_melds, readings: Readings, extra_add: str | None = None, extra_meld=None,
            limit: int = MAX_MOVES):
    """Every assignment of the hand's classes to places: (the places, [({place index: Counter of classes},
    the classes left in hand when at most one card is left, else None)], whether the walk was complete --
    not cut at ``limit``)."""
    walker = _Walk(hand, places(hand, team_melds, readings, extra_add), team_melds, readings, extra_meld, limit)
    whole = walker.walk(0)
    return walker.spots, walker.found, whole


class _Walk:
    """One walk of :func:`layouts`: its state in an object, not in closures.

    A recursive closure holds itself (its cell, or compiled, its environment), so every walk's memo, places
    and layouts would stay alive in a reference cycle until the garbage collector found them; an object
    whose methods recurse is freed as soon as the walk's answer is taken."""

    def __init__(self, hand: Hand, spots: list[Place], team_melds, readings: Readings, extra_meld, limit: int):
        self.spots = spots
        self.team_melds = team_melds
        self.readings = readings
        self.extra_meld = extra_meld
        self.limit = limit
        self.wild_classes = [c for c in hand.counts if c[0] in WILD]
        relevant = [[c for c in hand.counts if c[0] in WILD or c[0] == place.rank] for place in spots]
        # what a place's contents depend on -- the counts left of its classes -- read in one C call
        self.counts_of = [itemgetter(*classes) if classes else _nothing for classes in relevant]
        self.memo: dict[tuple, list[tuple]] = {}
        self.left = dict(hand.counts)
        self.total = sum(self.left.values())
        self.found: list[tuple[dict, Counter | None]] = []
        self.chosen: dict[int, Counter] = {}
        self.last = len(spots)

    def contents(self, i: int) -> list[tuple]:
        """The contents place ``i`` may take from what is left: (Counter, its items), worked out once per
        count of the place's classes."""
        key = (i, self.counts_of[i](self.left))
        held = self.memo.get(key)
        if held is None:
            held = self.memo[key] = [(used, tuple(used.items()), sum(used.values()))
                                     for used in self._contents(self.spots[i], Counter(self.left))]
        return held

    def _contents(self, place: Place, left: Counter):
        readings = self.readings
        if place.rank is None:
            naturals_classes = []
        elif place.rank == "3B":
            naturals_classes = [c for c in left if c[0] == "3B" and left[c]]
        else:
            naturals_classes = [c for c in left if c[0] == place.rank and left[c]]
        wilds = [c for c in self.wild_classes if left[c] and not (place.rank == "2" and c[0] == "2")]
        if place.rank == "3B" and not readings.three_wilds:
            wilds = []
        team = None
        if place.how == "add":
            team = _team_cards(self.team_melds, self.extra_meld, place.rank)
        for nat in product(*(range(left[c] + 1) for c in naturals_classes)):
            n = sum(nat)
            if place.how == "new" and place.rank is not None and n == 0:
                continue
            for wv in product(*(range(left[c] + 1) for c in wilds)):
                w = sum(wv)
                if n == 0 and w == 0:
                    continue
                jokers = sum(m for c, m in zip(wilds, wv) if c[0] == "JK")
                twos = w - jokers
                if place.rank == "3B":
                    if readings.three_sizes is not None and n + w not in readings.three_sizes:
                        continue
                elif place.rank is None:
                    if n + w < 2:
                        continue
                elif not readings.fits(place.rank, n, jokers, twos, team):
                    continue
                used = Counter({c: m for c, m in zip(naturals_classes, nat) if m})
                used.update({c: m for c, m in zip(wilds, wv) if m})
                yield used

    def walk(self, i: int) -> bool:
        """Every layout from place ``i`` on; False once the walk reaches ``limit``."""
        # Places already known to take nothing from what is left are passed over in a loop, not a call each.
        # A place's contents are still worked out only after the layouts without it are walked, as ever: a
        # walk cut at its limit never works out (at a whole deck's cost) the contents of a place it stopped at.
        left, memo, counts_of, last = self.left, self.memo, self.counts_of, self.last
        held = None
        while i < last:
            held = memo.get((i, counts_of[i](left)))
            if held is None or held:
                break
            i += 1
        if i == last:
            chosen = self.chosen
            if chosen:
                rest = Counter({c: n for c, n in left.items() if n}) if self.total <= 1 else None
                self.found.append((dict(chosen), rest))
                checkpoint()  # a whole deck's walk finds thousands of layouts: others run meanwhile
                return len(self.found) < self.limit
            return True
        following = i + 1
        if not self.walk(following):
            return False
        chosen = self.chosen
        for used, items, count in held if held is not None else self.contents(i):
            for c, n in items:
                left[c] -= n
            self.total -= count
            chosen[i] = used
            going = self.walk(following)
            del chosen[i]
            for c, n in items:
                left[c] += n
            self.total += count
            if not going:
                return False
        return True


def build(kind_name: ActionType, hand: Hand, spots: list[Place], chosen: dict, with_cards=(),
          discard: tuple | None = None) -> Action:
    """The action a layout stands for, with representative cards."""
    pools = {c: list(v) for c, v in hand.pools.items()}
    melds, adds = [], []
    for i in sorted(chosen):
        cards = tuple(pools[c].pop(0) for c, n in sorted(chosen[i].items(), key=_class_order) for _ in range(n))
        place = spots[i]
        if place.how == "new":
            melds.append(cards)
        else:
            adds.append(Add(cards, place.rank))
    card = pools[discard].pop(0) if discard is not None else None
    return Action(kind_name, with_cards=tuple(with_cards), melds=tuple(melds), adds=tuple(adds), discard=card)


def _class_order(item) -> tuple:
    (k, pile), _ = item
    return (k in WILD, RANKS.index(k) if k in RANKS else len(RANKS), k, pile)
