"""Openings: the combinations of melds that reach a team's opening requirement, found rank by rank.

A dynamic programme over ranks, never over card subsets. For each rank the
choices are "k of its naturals with w wild cards" that make a legal meld
(:class:`~adjudicator.options.hand.Shape`); the state after each rank is (wild
cards used, points so far capped at the requirement, canasta made), and for each
state only the Pareto-best (points, cards) pairs are kept. Wild cards are
interchangeable for a meld's shape, so the programme counts wild *slots* and
gives them their values at the end: the highest values to reach the points,
then the cheapest cards that still reach them. The cost grows with ranks x
wild cards x the requirement, not with the hand: a whole deck in hand stays fast.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hand import HandView

CHEAPEST, KEEPS_WILDS = "cheapest", "keeps_wilds"


@dataclass(frozen=True)
class Stock:
    """What one rank can give: its natural cards, and a meld already begun (a taken pile's top with its cards)."""

    rank: str
    naturals: tuple[str, ...]
    value: int  # of each natural
    base_naturals: int = 0
    base_wilds: int = 0
    forced: bool = False  # the combination must hold a meld of this rank


@dataclass(frozen=True)
class Target:
    """What the combination must reach: ``points`` (None: no minimum), perhaps a canasta, and how many hand
    cards it may use (``max_cards``; ``max_cards_with_canasta`` once it makes a canasta)."""

    points: int | None
    canasta: bool
    max_cards: int
    max_cards_with_canasta: int
    base_points: int = 0  # already counted (the pile's top card and the cards shown with it, red threes)
    together: bool = True  # whether the melds' values add up (else the best single meld counts)
    canasta_bonus: int = 0  # what a canasta laid adds, where the text counts its bonus toward the opening


@dataclass(frozen=True)
class Combination:
    """Melds found: ``groups`` as (rank, naturals, wild cards), the hand cards used and the points counted."""

    groups: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
    cards: int
    wilds: int
    points: int


def best(view: HandView, stocks: list[Stock], target: Target, wilds: list[str],
         objectives: tuple[str, ...] = (CHEAPEST, KEEPS_WILDS)) -> dict[str, Combination]:
    """The cheapest combination (fewest cards) and the one using fewest wild cards, by objective.

    Both are exact. The cheapest is searched with a growing bound on the cards it may use, the other with a
    growing bound on its wild cards (never above the cheapest's): the optimum is small, so the programme
    never builds the states of big combinations it would discard.
    """
    if not target.together:
        return _best_single(view, stocks, target, wilds)
    need = target.points or 0
    options = [_options(view.shape, s, len(wilds), view.canasta_min) for s in stocks]  # cheapest first
    if any(s.forced and not o for s, o in zip(stocks, options)):
        return {}
    by_value = sorted((view.value(c) for c in wilds), reverse=True)
    top = [0]
    for v in by_value:
        top.append(top[-1] + v)
    reach = target.base_points + top[-1] + target.canasta_bonus + \
        sum(max((g for _, _, g, _ in o), default=0) for o in options)
    if reach < need:
        return {}
    search = _Search(stocks, options, target, need, top)
    out: dict[str, tuple] = {}
    bound = 3
    while True:
        found = search.run(len(wilds), min(bound, target.max_cards_with_canasta))
        if found:
            out[CHEAPEST] = min(found, key=lambda f: (f[0], f[1], -f[2]))
            break
        if bound >= target.max_cards_with_canasta:
            return {}
        bound = bound * 3 // 2
    cheapest_wilds = out[CHEAPEST][1]
    if KEEPS_WILDS in objectives:
        for slots in range(cheapest_wilds + 1):  # the first bound with a combination is the fewest wild cards
            found = search.run(slots, target.max_cards_with_canasta) if slots < cheapest_wilds else [out[CHEAPEST]]
            if found:
                out[KEEPS_WILDS] = min(found, key=lambda f: (f[1], f[0], -f[2]))
                break
    return {objective: _combination(view, stocks, back, used, points, need, wilds, target.base_points)
            for objective, (_, used, _, back, points) in out.items() if objective in objectives}


class _Search:
    """The programme over ranks, run under a bound on wild cards and on cards."""

    def __init__(self, stocks, options, target: Target, need: int, top: list[int]):
        self.stocks, self.options, self.target, self.need, self.top = stocks, options, target, need, top

    def run(self, max_slots: int, max_cards: int) -> list[tuple]:
        """Every final state within the bounds that reaches the target: (cards, wild slots, points, back,
        natural points). A state is (wild slots used, canasta made, anything laid): points capped at the
        requirement must not let "nothing laid yet" stand for a meld."""
        need, target = self.need, self.target
        states: dict[tuple[int, bool, bool], dict[int, tuple[int, tuple | None]]] = {
            (0, False, False): {min(need, target.base_points): (0, None)}}
        for index, stock in enumerate(self.stocks):
            options = self.options[index]
            new: dict[tuple[int, bool, bool], dict[int, tuple[int, tuple | None]]] = {}
            for (used, made, laid), frontier in states.items():
                for points, (cards, back) in frontier.items():
                    if not stock.forced:
                        held = new.setdefault((used, made, laid), {})
                        old = held.get(points)
                        if old is None or cards < old[0]:
                            held[points] = (cards, back)
                    for k, w, gain, canasta in options:
                        total = cards + k + w
                        if total > max_cards:
                            break  # the options come fewest cards first
                        slots = used + w
                        if slots > max_slots:
                            continue
                        held = new.setdefault((slots, made or canasta, True), {})
                        reached = points + gain
                        if reached > need:
                            reached = need
                        old = held.get(reached)
                        if old is None or total < old[0]:
                            held[reached] = (total, (index, k, w, back))
            states = {key: _pareto(frontier) for key, frontier in new.items()}
        found = []
        for (used, made, laid), frontier in states.items():
            if not laid or target.canasta and not made:
                continue
            limit = target.max_cards_with_canasta if made else target.max_cards
            for points, (cards, back) in frontier.items():
                reached = points + self.top[used] + (target.canasta_bonus if made else 0)
                if reached >= need and cards <= limit:
                    found.append((cards, used, reached, back, points))
        return found


def _options(shape, stock: Stock, have_wilds: int, canasta_min: int) -> list[tuple[int, int, int, bool]]:
    """(naturals, wild cards, points of the naturals, canasta?) for each legal use of the rank, fewest cards
    first (worked out once per shape of stock)."""
    key = (len(stock.naturals), stock.value, stock.base_naturals, stock.base_wilds, have_wilds, canasta_min)
    held = shape.memo.get(key)
    if held is None:
        held = shape.memo[key] = sorted(_uses(shape, stock, have_wilds, canasta_min), key=lambda o: o[0] + o[1])
    return held


def _uses(shape, stock: Stock, have_wilds: int, canasta_min: int) -> list[tuple[int, int, int, bool]]:
    out = []
    for k in range(len(stock.naturals) + 1):
        n = stock.base_naturals + k
        if n == 0:
            continue  # a meld of wild cards alone has no rank to go by
        for w in range(have_wilds + 1):
            if k == 0 and w == 0:
                if stock.base_naturals:  # the begun meld as it is
                    out.append((0, 0, 0, stock.base_naturals + stock.base_wilds >= canasta_min))
                continue
            if shape.fits(n, stock.base_wilds + w):
                out.append((k, w, k * stock.value, n + stock.base_wilds + w >= canasta_min))
    return out


def _pareto(frontier: dict[int, tuple]) -> dict[int, tuple]:
    """Only the states no other beats on both points (more) and cards (fewer)."""
    out, fewest = {}, None
    for points in sorted(frontier, reverse=True):
        cards = frontier[points][0]
        if fewest is None or cards < fewest:
            out[points] = frontier[points]
            fewest = cards
    return out


def _combination(view: HandView, stocks: list[Stock], back, used: int, natural_points: int, need: int,
                 wilds: list[str], base_points: int) -> Combination:
    parts = []
    while back is not None:
        index, k, w, back = back
        parts.append((stocks[index], k, w))
    parts.reverse()
    chosen = spend(view, wilds, used, need - natural_points)
    groups, at = [], 0
    for stock, k, w in parts:
        if k or w or stock.base_naturals:
            groups.append((stock.rank, stock.naturals[:k], tuple(chosen[at:at + w])))
        at += w
    cards = sum(k + w for _, k, w in parts)
    points = base_points + sum(view.value(c) for _, naturals, wild in groups for c in naturals + wild)
    return Combination(tuple(groups), cards, used, points)


def spend(view: HandView, wilds: list[str], count: int, short: int) -> list[str]:
    """``count`` wild cards worth at least ``short`` points, the cheapest that do (``wilds`` lowest first)."""
    chosen = list(wilds[:count])
    rest = list(wilds[count:])
    while rest and chosen and sum(view.value(c) for c in chosen) < short:
        chosen.pop(0)
        chosen.append(rest.pop())
    return chosen


def _best_single(view: HandView, stocks: list[Stock], target: Target, wilds: list[str]) -> dict[str, Combination]:
    """Where only the best single meld counts toward the opening: the one meld that reaches it."""
    need = target.points or 0
    found: dict[str, tuple] = {}
    for stock in stocks:
        for k, w, gain, canasta in _options(view.shape, stock, len(wilds), view.canasta_min):
            if target.canasta and not canasta:
                continue
            chosen = spend(view, wilds, w, need - gain - target.base_points)
            reached = gain + target.base_points + sum(view.value(c) for c in chosen)
            if reached < need or k + w > (target.max_cards_with_canasta if canasta else target.max_cards):
                continue
            for objective, key in ((CHEAPEST, (k + w, w)), (KEEPS_WILDS, (w, k + w))):
                if objective not in found or key < found[objective][0]:
                    found[objective] = (key, Combination(((stock.rank, stock.naturals[:k], tuple(chosen)),),
                                                         k + w, w, reached))
    return {objective: combo for objective, (_, combo) in found.items()}
