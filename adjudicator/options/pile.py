"""Ways to take the discard pile: the fewest hand cards that go with its top card.

Each minimal way is its own option: a natural pair of the top card's rank; one
natural and one wild card (each kind of wild card the hand holds, cheapest
first); or nothing from the hand, the top card going onto the team's meld of
its rank. A team yet to open must open with the take: each way then comes with
the cheapest melds (:mod:`adjudicator.options.opening`) that reach the
requirement, the taken meld grown by more of the hand's cards where that is
cheapest. Whether a way is allowed (a frozen pile, a wild or black three on top,
the first round, the pile before opening) is the ruling's to say; the first way
tried doubles as the most natural attempt when none is allowed.
"""

from __future__ import annotations

from collections import Counter

from ..model.actions import Action, Add
from ..model.enums import ActionType
from ..model.cards import JOKER, rank
from ..model.messages import Card, Cards, Items, Rank, msg
from dataclasses import replace

from .hand import HandView
from .melds import opening_target, stocks_of
from .needs import opening_requirement
from .opening import CHEAPEST, Stock, best
from .slots import Candidate, Slot
from ..model.situation import Situation


def take_slots(view: HandView, situation: Situation) -> tuple[list[Slot], Action]:
    """The ways to take the pile, and the most natural attempt (ruled when no way is allowed)."""
    pile = situation.pile or ()
    if not pile:
        return [], Action(ActionType.TAKE_PILE)
    top = pile[-1]
    top_rank = rank(top)
    matching = [c for c in view.hand if c != JOKER and rank(c) == top_rank]  # threes and twos too
    attempt = Action(ActionType.TAKE_PILE, with_cards=tuple(matching[:2]))
    if view.is_wild(top):
        return _wild_top(view, situation, top), attempt
    naturals = view.naturals.get(top_rank, [])
    ways: list[tuple[str, list[tuple[str, ...]]]] = []
    if len(naturals) >= 2:
        ways.append(("natural_pair", [tuple(naturals[:2])]))
    if naturals and view.wilds:
        ways.append(("natural_and_wild", [(naturals[0], w) for w in view.wild_kinds()]))
    if view.meld_of(top_rank) is not None:
        ways.append(("onto_meld", [()]))
    slots = []
    for way, withs in ways:
        slot = Slot(f"take_pile:{way}", "take_pile", top_rank)
        for with_cards in withs:
            slot.candidates.append(_take(view, situation, top, with_cards, way))
        slots.append(slot)
    return slots, (slots[0].candidates[0].action if slots else attempt)


def _wild_top(view: HandView, situation: Situation, top: str) -> list[Slot]:
    """A wild card on top (where the rules let it be taken): a natural pair of any rank goes with it."""
    for r in view.ranks():
        if len(view.naturals[r]) >= 2:
            return [Slot("take_pile:natural_pair", "take_pile", r,
                         [_take(view, situation, top, tuple(view.naturals[r][:2]), "natural_pair", r)])]
    return []


def _take(view: HandView, situation: Situation, top: str, with_cards: tuple[str, ...], way: str,
          meld_rank: str | None = None) -> Candidate:
    meld_rank = meld_rank or rank(top)
    take = Action(ActionType.TAKE_PILE, with_cards=with_cards)
    points = None
    if not situation.team_has_opened():
        take, points = _opening_take(view, situation, top, with_cards, meld_rank)
    wild = next((c for c in with_cards if view.is_wild(c)), None)  # the wild card shown, named by its rank
    return Candidate(take, way, msg(f"options.take_pile.{way}", top=Card(top), rank=Rank(meld_rank),
                                    wild=Rank(rank(wild)) if wild else None, cards=Cards(with_cards),
                                    melds=_melds_of(take), points=points), points)


def _opening_take(view: HandView, situation: Situation, top: str, with_cards: tuple[str, ...], meld_rank: str):
    """The take with the cheapest melds that open with it; the bare take when none reach the requirement."""
    need = opening_requirement(view, situation)
    left = Counter(with_cards)
    rest = replace(view, naturals={r: _less(cards, left) for r, cards in view.naturals.items()},
                   wilds=_less(view.wilds, left))
    shown_wild = sum(1 for c in (top, *with_cards) if view.is_wild(c))
    shown_natural = len(with_cards) + 1 - shown_wild
    base = Stock(meld_rank, tuple(rest.naturals.get(meld_rank, ())), view.value(rest.naturals[meld_rank][0])
                 if rest.naturals.get(meld_rank) else 0, shown_natural, shown_wild, forced=True)
    stocks = [base] + [s for s in stocks_of(rest, without=meld_rank) if s.naturals]
    base_points = view.value(top) + sum(view.value(c) for c in with_cards)
    target = opening_target(rest, situation, need, base_points, used=len(with_cards), keep=False)
    combo = best(rest, stocks, target, rest.wilds).get(CHEAPEST)
    if combo is None:
        return Action(ActionType.TAKE_PILE, with_cards=with_cards), None
    adds, melds = [], []
    for r, naturals, wilds in combo.groups:
        if r == meld_rank:
            if naturals or wilds:
                adds.append(Add(naturals + wilds, r))
        else:
            melds.append(naturals + wilds)
    return Action(ActionType.TAKE_PILE, with_cards=with_cards, melds=tuple(melds), adds=tuple(adds)), combo.points


def _less(cards, used: Counter) -> list[str]:
    out, left = [], Counter(used)
    for c in cards:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out


def _melds_of(action: Action) -> Items | None:
    """The cards laid with the take (additions to the taken meld first), as words; None when none."""
    groups = [tuple(a.cards) for a in action.adds] + [tuple(m) for m in action.melds]
    return Items(tuple(Cards(g) for g in groups), " + ") if groups else None
