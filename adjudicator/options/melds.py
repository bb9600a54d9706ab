"""Melds and additions the hand allows after the draw, rank by rank; for a team yet to open, its openings.

For a team that has opened, per rank: a new meld of all its naturals (with the
fewest wild cards that make it legal), else the smallest legal meld; additions
of naturals to the team's meld of that rank; one wild card added to a meld where
its shape allows. For a team yet to open, the combinations that reach the
opening requirement (:mod:`adjudicator.options.opening`): the cheapest in cards,
the one keeping most wild cards, and for every rank the cheapest opening that
holds a meld of it. For a team nobody said has opened or not, both: the engine's
ruling on each move says under which it is allowed. Everything is counted per
rank; the engine rules on each proposal afterwards.
"""

from __future__ import annotations

from ..model.actions import Action, Add
from ..model.enums import ActionType
from ..model.messages import Cards, Items, Rank, msg
from .hand import HandView, known, opening_unsaid
from .needs import cards_to_keep, opening_requirement
from .opening import CHEAPEST, KEEPS_WILDS, Combination, Stock, Target, best
from .slots import Candidate, Slot
from ..model.situation import Situation


def meld_slots(view: HandView, situation: Situation) -> tuple[list[Slot], Action | None]:
    """The meld options, and the most natural attempt for a team yet to open (ruled when none opens). Where
    nobody said whether the team has opened, both cases' moves: its openings, and the melds and additions of
    a team that has (onto its melds, if it has them); the engine's ruling on each gives its condition."""
    if situation.team_has_opened():
        return _opened_slots(view), None
    openings = opening_slots(view, situation)
    return (openings + _opened_slots(view) if opening_unsaid(situation) else openings), _every_meld(view)


def _opened_slots(view: HandView) -> list[Slot]:
    """The melds and additions of a team that has opened, rank by rank."""
    slots: list[Slot] = []
    one_per_rank = known(view.rules, "meld.one_per_rank", True)
    for r in view.ranks():
        naturals = view.naturals[r]
        if view.may_have(r):  # onto the team's meld of the rank: listed, said, or not known (if it has one)
            slots.append(_natural_additions(r, naturals))
            if not view.may_lack(r) and one_per_rank is not False:
                continue
        slot = _new_meld(view, r, naturals)
        if slot.candidates:
            slots.append(slot)
    slots += [s for s in (_wild_addition(view, m.rank) for m in view.team if m.rank) if s.candidates]
    return slots


def _every_meld(view: HandView) -> Action | None:
    """Each rank that makes a meld, all of them together: the opening a player would try first."""
    melds, wilds = [], list(view.wilds)
    for r in view.ranks():
        allowed = view.shape.wild_range(len(view.naturals[r]), len(wilds))
        if allowed is not None:
            melds.append(tuple(view.naturals[r]) + tuple(wilds[:allowed.start]))
            wilds = wilds[allowed.start:]
    return Action(ActionType.MELD, melds=tuple(melds)) if melds else None


def _natural_additions(r: str, naturals: list[str]) -> Slot:
    ways = [tuple(naturals)] + ([tuple(naturals[:1])] if len(naturals) > 1 else [])
    return Slot(f"add:{r}", "add", r, [
        Candidate(Action(ActionType.MELD, adds=(Add(cards, r),)), "naturals",
                  msg("options.add.naturals", cards=Cards(cards), rank=Rank(r))) for cards in ways])


def _new_meld(view: HandView, r: str, naturals: list[str]) -> Slot:
    """All the rank's naturals with the fewest wild cards that make them a meld; then the smallest meld."""
    shape, have = view.shape, len(view.wilds)
    slot = Slot(f"meld:{r}", "meld", r)
    n = len(naturals)
    allowed = shape.wild_range(n, have)
    if allowed is not None:
        w = allowed.start
        slot.candidates.append(_meld(view, r, naturals, w, "all_naturals" if w == 0 else "with_wilds"))
    # the smallest legal meld: for when all of them would leave too few cards in hand
    smallest = min(((k + w, w, k) for k in range(1, n + 1) for w in (shape.wild_range(k, have) or ())), default=None)
    if smallest is not None:
        _, w, k = smallest
        candidate = _meld(view, r, naturals[:k], w, "smallest")
        if all(c.action != candidate.action for c in slot.candidates):
            slot.candidates.append(candidate)
    return slot


def _meld(view: HandView, r: str, naturals, w: int, way: str) -> Candidate:
    cards = tuple(naturals) + tuple(view.wilds[:w])
    return Candidate(Action(ActionType.MELD, melds=(cards,)), way,
                     msg(f"options.meld.{way}", cards=Cards(cards), rank=Rank(r)))


def _wild_addition(view: HandView, r: str) -> Slot:
    """One wild card onto the team's meld of ``r``, the cheapest kind first."""
    meld = view.meld_of(r)
    slot = Slot(f"add_wild:{r}", "add", r)
    if meld is None or not view.shape.fits(meld.naturals, meld.wilds + 1):
        return slot
    for card in view.wild_kinds():
        slot.candidates.append(Candidate(Action(ActionType.MELD, adds=(Add((card,), r),)), "wild",
                                         msg("options.add.wild", cards=Cards((card,)), rank=Rank(r))))
    return slot


# ----------------------------------------------------------------------------------------------
# Openings


def opening_slots(view: HandView, situation: Situation) -> list[Slot]:
    need = opening_requirement(view, situation)
    stocks = stocks_of(view)
    if not stocks:
        return []
    target = opening_target(view, situation, need)
    found = best(view, stocks, target, view.wilds)
    slots: list[Slot] = []
    for objective in (CHEAPEST, KEEPS_WILDS):
        combo = found.get(objective)
        if combo is None:
            continue
        candidate = _opening(combo, objective, msg(f"options.opening.{objective}", melds=melds_words(combo),
                                                   points=combo.points, count=combo.cards))
        if any(candidate.action == s.candidates[0].action for s in slots):
            continue
        slots.append(Slot(f"opening:{objective}", "opening", None, [candidate]))
    # every rank, even one the openings above hold: under another reading of an open point they may differ
    # (the listing drops an opening that repeats one already listed)
    for stock in stocks if found else ():
        forced = [Stock(s.rank, s.naturals, s.value, forced=s.rank == stock.rank) for s in stocks]
        combo = best(view, forced, target, view.wilds, (CHEAPEST,)).get(CHEAPEST)
        if combo is not None:
            slots.append(Slot(f"opening:{stock.rank}", "opening", stock.rank, [_opening(
                combo, "with_rank", msg("options.opening.with_rank", rank=Rank(stock.rank), melds=melds_words(combo),
                                        points=combo.points, count=combo.cards))]))
    return slots


def stocks_of(view: HandView, without: str | None = None) -> list[Stock]:
    return [Stock(r, tuple(view.naturals[r]), view.value(view.naturals[r][0])) for r in view.ranks() if r != without]


def opening_target(view: HandView, situation: Situation, need, base_points: int = 0, used: int = 0,
                   keep: bool = True) -> Target:
    """What an opening must reach; ``keep``: a meld (not a take) must leave cards in hand without canastas."""
    room = len(situation.hand or ()) - used
    rules = view.rules
    if known(rules, "opening.red_threes_count"):
        base_points += (situation.team.red_threes or 0) * (known(rules, "score.red_three", 0) or 0)
    bonus = (known(rules, "score.mixed_canasta", 0) or 0) if known(rules, "opening.bonuses_count") else 0
    return Target(need.points if need else None, bool(need and need.canasta_required),
                  room - (cards_to_keep(view, situation, False) if keep else 0),
                  room - (cards_to_keep(view, situation, True) if keep else 0), base_points,
                  known(rules, "opening.melds_together", True) is not False, bonus)


def _opening(combo: Combination, way: str, message) -> Candidate:
    melds = tuple(naturals + wilds for _, naturals, wilds in combo.groups)
    return Candidate(Action(ActionType.MELD, melds=melds), way, message, combo.points)


def melds_words(combo: Combination) -> Items:
    return Items(tuple(Cards(naturals + wilds) for _, naturals, wilds in combo.groups if naturals or wilds), " + ")
