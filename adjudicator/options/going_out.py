"""One way to go out: every card melded (or all but one, discarded), planned from counts.

For each choice of last discard (none, or each kind of card in hand) the plan
puts each rank's naturals onto the team's meld of that rank or into a new meld,
the black threes into a meld of their own, and shares the wild cards out: each
meld first gets the fewest it needs, then the rest go where they complete a
canasta the team still lacks, then anywhere their shape allows. A plan records
what it leaves in hand and how far it misses the canastas or the opening; the
best plans are ruled in order, and the best of all is the most natural attempt
when none is allowed. Interval arithmetic per rank, never subsets of cards.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..model.actions import Action, Add
from ..model.enums import ActionType
from ..model.cards import rank
from ..model.messages import Card, Cards, Items, msg
from .hand import HandView, Shape, known
from .needs import canastas_to_go_out, opening_requirement
from .slots import Candidate, Slot
from ..model.situation import Situation

TRIED = 4  # plans ruled at most before giving up on going out
MANY_KINDS = 8  # beyond this many kinds of card, only the discards that can help are planned
# Where a plan puts one rank: (rank, its naturals, the wild counts it may take, cards before, new meld?)
_Place = tuple[str, list[str], list[int], int, bool]


@dataclass
class Plan:
    discard: str | None
    melds: list[tuple[str, ...]] = field(default_factory=list)
    adds: list[Add] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # cards the plan finds no place for
    short: int = 0  # conditions it misses (canastas, the opening)

    def action(self) -> Action:
        return Action(ActionType.GO_OUT, melds=tuple(self.melds), adds=tuple(self.adds), discard=self.discard)


def go_out_slots(view: HandView, situation: Situation) -> tuple[list[Slot], Action | None]:
    """The go-out option (its candidate plans, best first) and the most natural attempt."""
    if not view.hand:
        return [], None
    plans = [_plan(view, situation, d) for d in _discards(view, situation)]
    plans.sort(key=lambda p: (len(p.left), p.short, p.discard is not None,
                              view.value(p.discard) if p.discard else 0))
    if not plans:
        return [], Action(ActionType.GO_OUT)
    slot = Slot("go_out", "go_out", None)
    for plan in plans[:TRIED]:
        if plan.left and slot.candidates:
            break
        action = plan.action()
        melds = Items(tuple(Cards(tuple(a.cards)) for a in plan.adds) + tuple(Cards(m) for m in plan.melds), " + ")
        way = "with_discard" if plan.discard else "meld_all"
        key = f"options.go_out.{way}" if plan.melds or plan.adds or not plan.discard else "options.go_out.discard_only"
        slot.candidates.append(Candidate(action, way, msg(key, melds=melds,
                                                          card=Card(plan.discard) if plan.discard else None)))
    return [slot], plans[0].action()


def _discards(view: HandView, situation: Situation) -> list[str | None]:
    """The last discards worth planning: none, and each kind of card in hand -- or, in a hand of many kinds,
    those the plan without a discard finds no place for and the cheapest card (another discard only
    takes a card from a meld that had room for it)."""
    meld_all = known(view.rules, "go_out.meld_all", True) is not False
    out: list[str | None] = [None] if meld_all else []
    if known(view.rules, "go_out.discard_last", True) is False:
        return out
    kinds = sorted(set(view.hand), key=lambda c: (view.value(c), c))
    if len(kinds) <= MANY_KINDS:
        return out + kinds
    left = _plan(view, situation, None).left
    return out + list(dict.fromkeys(sorted(left, key=lambda c: (view.value(c), c))[:TRIED] + kinds[:1]))


def _plan(view: HandView, situation: Situation, discard: str | None) -> Plan:
    plan = Plan(discard)
    unusable = Counter(view.hand) - Counter(view.usable)  # pile cards that may not be laid this turn
    naturals = {r: list(cards) for r, cards in view.naturals.items()}
    wilds, blacks, reds = list(view.wilds), list(view.black_threes), list(view.red_threes)
    if discard is not None:
        if unusable[discard]:
            unusable[discard] -= 1
        else:
            for cards in (wilds, blacks, reds, naturals.get(rank(discard), [])):
                if discard in cards:
                    cards.remove(discard)
                    break
    plan.left += list(unusable.elements()) + reds
    if blacks:
        if len(blacks) in (known(view.rules, "black_three.meld_sizes", [3, 4]) or ()):
            plan.melds.append(tuple(blacks))
        else:
            plan.left += blacks
    _share(view, situation, plan, {r: c for r, c in naturals.items() if c}, wilds)
    return plan


def _size(p: _Place, given: dict[str, int]) -> int:
    """A place's meld size with the wild cards given to it so far."""
    return p[3] + len(p[1]) + given[p[0]]


def _share(view: HandView, situation: Situation, plan: Plan, naturals: dict[str, list[str]], wilds: list[str]) -> None:
    """Place each rank's naturals and share the wild cards out, then count what the plan misses."""
    shape, most = view.shape, len(wilds)
    places: list[_Place] = []  # (rank, naturals, wild range, size before, new meld?)
    for r, cards in naturals.items():
        meld = view.meld_of(r)
        if meld is not None:
            allowed = _room(shape, meld.naturals + len(cards), meld.wilds, most)
            places.append((r, cards, allowed, len(meld.cards), False))
        else:
            allowed = list(shape.wild_range(len(cards), most) or ())
            places.append((r, cards, allowed, 0, True))
    for meld in view.team:
        if meld.rank and meld.rank not in naturals:
            allowed = _room(shape, meld.naturals, meld.wilds, most)
            places.append((meld.rank, [], allowed, len(meld.cards), False))
    given: dict[str, int] = {}
    free = len(wilds)
    for place in sorted(places, key=lambda p: p[2][0] if p[2] else most + 1):
        r, cards, allowed = place[0], place[1], place[2]
        if not allowed or allowed[0] > free:
            plan.left += cards
            continue
        given[r] = allowed[0]
        free -= allowed[0]
    canasta_min = view.canasta_min
    placed = [p for p in places if p[0] in given]
    need = canastas_to_go_out(view, situation)
    have = view.canastas()

    # (_size is a module function: a nested one would share a cycle with this frame's environment, compiled)
    for p in sorted(placed, key=lambda p: canasta_min - _size(p, given)):  # complete canastas the team lacks
        if have >= need or not free:
            break
        if _size(p, given) >= canasta_min or p[3] >= canasta_min:
            continue
        extra = canasta_min - _size(p, given)
        if extra <= free and given[p[0]] + extra <= p[2][-1]:
            given[p[0]] += extra
            free -= extra
            have += 1
    for p in placed:  # the rest wherever their shape allows
        room = min(free, p[2][-1] - given[p[0]])
        given[p[0]] += room
        free -= room
    plan.left += wilds[len(wilds) - free:] if free else []
    at = 0
    for p in placed:
        r, cards, _, before, new = p
        shared = tuple(wilds[at:at + given[r]])
        at += given[r]
        if new:
            plan.melds.append(tuple(cards) + shared)
        elif cards or shared:
            plan.adds.append(Add(tuple(cards) + shared, r))
    made = view.canastas() + sum(1 for p in placed if p[3] < canasta_min <= _size(p, given))
    plan.short = max(0, need - made)
    need_open = opening_requirement(view, situation)
    if need_open is not None:
        laid = sum(view.value(c) for cards in [*plan.melds, *(a.cards for a in plan.adds)] for c in cards)
        if need_open.points and laid < need_open.points:
            plan.short += 1
        if need_open.canasta_required and not any(len(m) >= canasta_min for m in plan.melds):
            plan.short += 1


def _room(shape: Shape, naturals: int, wilds: int, most: int) -> list[int]:
    """How many more wild cards (up to ``most``) a meld of these counts may take."""
    fits = shape.wild_range(naturals, wilds + most)
    return [w - wilds for w in fits if w >= wilds] if fits else []
