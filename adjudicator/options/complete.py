"""The complete listing: every distinct move of a group that the engine finds legal (or undetermined).

The search (:mod:`adjudicator.options`) proposes the most useful moves first,
with stable keys. This module walks every other move of the group in canonical
form (:mod:`adjudicator.options_every`), has the engine rule each one, and adds
those it does not refuse -- one per distinct move, so that a move is never
listed twice under two suits. Which moves a group holds:

* ``draw``: the draw; ``discard``: one discard per kind of card in hand;
* ``take_pile``: every choice of hand cards shown with the top card (naturals of
  its rank and wild cards; with a wild card on top, naturals of any one rank);
  each bare and with every layout of the rest of the hand laid in the same
  move (additions to the taken meld and, once opened, to the team's melds; new
  melds). The pile's other cards are laid after the take, in a meld move;
* ``meld``: every non-empty layout of the hand (additions, new melds, openings);
* ``go_out``: every layout that leaves no card, or one card to discard.

A group spends at most :data:`MAX_WORK` ruling moves whole (the walk itself stops at
:data:`~adjudicator.options_every.MAX_MOVES` layouts); a hand that has more --
most of a deck, yet to open -- gets the moves found so far, ``complete`` False.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import partial
from itertools import product
from typing import Callable, Iterator

from ..model.actions import Action
from ..model.enums import ActionType
from ..model.cards import RANKS
from ..model.findings import ILLEGAL, LEGAL, UNDETERMINED, Ruling
from ..model.messages import Card, Cards, Items, Message, Rank, msg
from .every import MAX_MOVES, WILD, Hand, Place, Readings, build, canonical, kind, layouts
from .parts import Parts, per_reading, summary_of
from ..model.situation import Situation
from ..rules.readings import TableDoubt
from ..turns import checkpoint
from ..variants import Variant


# What a group may spend ruling moves whole, in card-runs: one engine run over a hand of n cards costs n (a run
# takes ~10 µs per card in hand; a ruling decided across readings makes a run per reading). Beyond, the
# group's count is a lower bound: ~270 rulings of a 15-card hand, ~40 of a whole deck in hand.
MAX_WORK = 4000
# A layout with what it lays, by kinds: (chosen, melds, additions as (rank, kinds), cards laid, wild cards laid)
_Laid = tuple[dict, tuple[tuple[str, ...], ...], tuple[tuple[str | None, tuple[str, ...]], ...], int, int]


@dataclass(frozen=True)
class Move:
    """A move of the complete walk, with its key and words."""

    key: str
    kind: str
    message: Message
    action: Action
    rank: str | None = None


def complete(situation: Situation, rules: Variant, group: str, ruled: list[Variant], listed: list,
             rule: Callable[[Action], Ruling], doubt: TableDoubt | None,
             memo: dict | None = None) -> tuple[list, list[tuple], bool]:
    """``listed`` without repeats of one move, the moves it lacks -- each as ``(verdict, make)``, ``make()``
    giving the move and its ruling when it is read, in a useful order -- and whether the walk was complete.
    ``rule`` rules a move of the table (whose check found ``doubt``)."""
    if situation.hand is None or group == "draw":
        return listed, [], True
    seen: set[tuple] = set()
    kept = []
    for option in listed:
        key = canonical(option.action, situation)
        if key not in seen:
            seen.add(key)
            kept.append(option)
    memo = {} if memo is None else memo
    readings = Readings(ruled)
    if _by_parts(situation, group):
        return kept, *_by_layouts(situation, rules, readings, memo, seen, ruled, rule, doubt)
    if group == "take_pile" and situation.team_has_opened():
        return kept, *_opened_takes(situation, rules, readings, memo, seen, ruled, rule, doubt)
    moves, whole = CANDIDATES[group](situation, readings, memo)
    more, work = [], 0
    for action, moved in moves:
        key = canonical(action, situation)
        if key in seen:
            continue
        seen.add(key)
        if work >= MAX_WORK:
            whole = False
            break
        ruling = rule(action)
        work += _work(ruling, situation)
        if ruling.verdict in (LEGAL, UNDETERMINED):
            more.append(((ruling.verdict != LEGAL, _wilds(action), -len(action.hand_cards())),
                         ruling.verdict, lambda m=moved, a=action, r=ruling: (m(a), r)))
    more.sort(key=lambda m: m[0])
    return kept, [(verdict, make) for _, verdict, make in more], whole


def _by_layouts(situation: Situation, rules: Variant, readings: Readings, memo: dict, seen: set,
                ruled: list[Variant], rule: Callable[[Action], Ruling],
                doubt: TableDoubt | None) -> tuple[list[tuple], bool]:
    """The meld moves of a team that has opened, decided from the layouts themselves: each move's verdict
    from its parts' rulings (:class:`~adjudicator.options.parts.Parts`), the move built and ruled whole only when it is read
    (or when its parts cannot decide it), so that hundreds of moves cost little more than their count."""
    hand, spots, found, whole = _walked(situation, readings, memo)
    parts = Parts(situation, rules, memo.get("chosen") or [{} for _ in ruled], doubt)
    size = len(situation.hand or ())
    more = []
    work = 0
    for chosen, melds, adds, laid, wilds in _laid(found, spots):
        key = ("meld", (), melds, adds, None, ())
        if key in seen:
            continue
        seen.add(key)
        verdict = parts.verdict(hand, spots, chosen) if size - laid >= 2 else None
        if verdict is None:
            if work >= MAX_WORK:
                whole = False
                break
            move = _meld_move(situation, hand, spots, chosen)
            ruling = rule(move.action)
            work += _work(ruling, situation)
            verdict, make = ruling.verdict, (lambda m=move, r=ruling: (m, r))
        else:
            make = partial(_make_meld, situation, hand, spots, chosen, verdict, rule)
        if verdict in (LEGAL, UNDETERMINED):
            more.append(((verdict != LEGAL, wilds, -laid), verdict, make))
    more.sort(key=lambda m: m[0])
    return [(verdict, make) for _, verdict, make in more], whole


def _laid(found: list[tuple[dict, Counter | None]], spots: list[Place]) -> Iterator[_Laid]:
    """Each layout with what it lays, by kinds: ``(chosen, melds, adds, cards laid, wild cards laid)``."""
    info: dict[int, tuple] = {}  # id of a content -> (its meld's kinds or None, its addition or None, cards, wilds);
    # a content is one object per place and count the walk found, shared by the layouts that hold it
    new = [spot.how == "new" for spot in spots]
    for chosen, _ in found:
        checkpoint()  # each layout is decided in turn (from its parts, or ruled whole)
        melds: list[tuple[str, ...]] = []
        adds: list[tuple[str | None, tuple[str, ...]]] = []
        laid = wilds = 0
        for i, content in chosen.items():
            held = info.get(id(content))
            if held is None:
                kinds = tuple(sorted(k for (k, _), n in content.items() for _ in range(n)))
                held = info[id(content)] = ((kinds, None) if new[i] else (None, (spots[i].rank, kinds))) + \
                    (len(kinds), sum(1 for k in kinds if k in WILD))
            if held[0] is not None:
                melds.append(held[0])
            else:
                adds.append(held[1])
            laid += held[2]
            wilds += held[3]
        melds.sort()
        adds.sort()
        yield chosen, tuple(melds), tuple(adds), laid, wilds


def _opened_takes(situation: Situation, rules: Variant, readings: Readings, memo: dict, seen: set,
                  ruled: list[Variant], rule: Callable[[Action], Ruling],
                  doubt: TableDoubt | None) -> tuple[list[tuple], bool]:
    """The takes of a team that has opened: each choice of cards shown with the top card, bare and with
    every layout of the rest of the hand laid in the same move (additions to the taken meld and the team's,
    new melds). A take the engine refuses bare is refused with anything laid (its checks come first and
    read nothing laid), so its layouts are not walked; the others' verdicts come from their parts -- the take
    with one rank's cards laid (:class:`~adjudicator.options.parts.Parts`) -- as in :func:`_by_layouts`."""
    chosen_values = memo.get("chosen") or [{} for _ in ruled]
    whole, budget, work = True, MAX_MOVES, 0
    more: list[tuple] = []
    lays: dict[tuple, tuple] = {}  # a rank's cards laid with a take, by kinds (see Parts)
    keep = partial(_keep, more)
    for top, meld_rank, with_cards, rest in _take_choices(situation):
        take = Action(ActionType.TAKE_PILE, with_cards=tuple(with_cards))
        shown = canonical(take)[1]
        bare = rule(take)
        work += _work(bare, situation)
        budget -= 1
        if ("take_pile", shown, (), (), None, ()) not in seen:
            seen.add(("take_pile", shown, (), (), None, ()))
            keep(bare.verdict, (bare.verdict != LEGAL, _wilds(take), -len(with_cards)),
                 lambda m=partial(_take_move, top, meld_rank), a=take, r=bare: (m(a), r))
        if bare.verdict == ILLEGAL or not meld_rank or not rest.counts:
            continue
        spots, found, done = layouts(rest, situation.team.melds or (), readings, extra_add=meld_rank,
                                     extra_meld=(top, *with_cards), limit=max(1, budget))
        whole = whole and done
        budget -= len(found)
        parts = Parts(situation, rules, chosen_values, doubt, with_cards=tuple(with_cards),
                      take=(meld_rank, per_reading(summary_of(bare), chosen_values), lays))
        shown_wilds, shown_count = _wilds(take), len(with_cards)  # the same for each layout
        for chosen, melds, adds, laid, wilds in _laid(found, spots):
            key = ("take_pile", shown, melds, adds, None, ())
            if key in seen:
                continue
            seen.add(key)
            verdict = parts.verdict(rest, spots, chosen)
            if verdict is None:
                if work >= MAX_WORK:
                    return _ordered(more), False
                move = _built_take(rest, spots, chosen, with_cards, top, meld_rank)
                ruling = rule(move.action)
                work += _work(ruling, situation)
                verdict, make = ruling.verdict, (lambda m=move, r=ruling: (m, r))
            else:
                make = partial(_make_take, rest, spots, chosen, with_cards, top, meld_rank, verdict, rule)
            keep(verdict, (verdict != LEGAL, shown_wilds + wilds, -shown_count - laid), make)
        if budget <= 0:
            return _ordered(more), False
    return _ordered(more), whole


def _keep(more: list, verdict: str, order: tuple, make) -> None:
    if verdict in (LEGAL, UNDETERMINED):
        more.append((order, verdict, make))


def _ordered(more: list) -> list[tuple]:
    more.sort(key=lambda m: m[0])
    return [(verdict, make) for _, verdict, make in more]


def _built_take(rest: Hand, spots, chosen, with_cards, top, meld_rank) -> Move:
    return _take_move(top, meld_rank, build(ActionType.TAKE_PILE, rest, spots, chosen, with_cards=tuple(with_cards)))


# The moves, makers and rulings a listing keeps are partials of module functions, not closures: compiled, a
# nested function and the environment it shares hold each other, so every move of a walk would stay alive in a
# reference cycle, for the garbage collector to find, long after its answer was sent.

def _make_take(rest, spots, chosen, with_cards, top, meld_rank, verdict, rule):
    move = _built_take(rest, spots, chosen, with_cards, top, meld_rank)
    return move, LazyRuling(verdict, partial(_rule_of, rule, move))


def _make_meld(situation, hand, spots, chosen, verdict, rule):
    move = _meld_move(situation, hand, spots, chosen)
    return move, LazyRuling(verdict, partial(_rule_of, rule, move))


def _rule_of(rule, move: "Move") -> Ruling:
    return rule(move.action)


def _meld_move(situation: Situation, hand: Hand, spots, chosen) -> Move:
    return _meld_made(situation, build(ActionType.MELD, hand, spots, chosen))


def _meld_made(situation: Situation, action: Action) -> Move:
    opening = not situation.team_has_opened()
    return Move(_key("meld", action, situation), "opening" if opening else ("add" if not action.melds else "meld"),
                lay_message(action), action)


def _work(ruling: Ruling, situation: Situation) -> int:
    """What a ruling cost, in card-runs (see :data:`MAX_WORK`)."""
    return max(1, len(ruling.readings)) * max(1, len(situation.hand or ()))


class LazyRuling:
    """A ruling whose verdict is known before it is worked out: the engine writes it when it is read."""

    def __init__(self, verdict: str, work: Callable[[], Ruling]):
        self.verdict = verdict
        self._work = work
        self._ruling: Ruling | None = None

    def __getattr__(self, name):
        if self._ruling is None:
            self._ruling = self._work()
        return getattr(self._ruling, name)


def _by_parts(situation: Situation, group: str) -> bool:
    """Whether a meld's verdict follows from its parts, rank by rank: a team that has opened, laying from
    its own cards, keeping at least two (nothing then reads the move as a whole: no opening minimum, no
    cards taken from the pile, no going-out check)."""
    return group == "meld" and bool(situation.team.melds) and \
        not (situation.drew == "pile" and situation.cards_from_pile)


def _wilds(action: Action) -> int:
    return sum(1 for c in action.hand_cards() if kind(c) in WILD)


def _walked(situation: Situation, readings: Readings, memo: dict):
    """The hand's layouts, walked once for the meld and go-out groups."""
    if "walk" not in memo:
        hand = Hand(situation)
        memo["walk"] = (hand, *layouts(hand, situation.team.melds or (), readings))
    return memo["walk"]


def _discards(situation: Situation, readings: Readings, memo: dict):
    hand = Hand(situation)
    firsts: dict[str, str] = {}
    for (k, _), cards in hand.pools.items():
        firsts.setdefault(k, cards[0])
    return [(Action(ActionType.DISCARD, discard=card), _discard_move) for card in firsts.values()], True


def _discard_move(action: Action) -> Move:
    card = action.discard
    assert card is not None, "a discard names its card"
    return Move(f"discard:{card}", "discard", msg("options.discard.card", card=Card(card)), action,
                None if card == "JK" else card[:-1])


def _melds(situation: Situation, readings: Readings, memo: dict):
    hand, spots, found, whole = _walked(situation, readings, memo)
    return _meld_moves(situation, hand, spots, found), whole


def _meld_moves(situation: Situation, hand: Hand, spots: list[Place], found: list) -> Iterator[tuple]:
    """Each layout's action, built only as it is ruled: the group stops at :data:`MAX_WORK`, most of a whole
    deck's layouts unbuilt; its key and words only once it is read. A generator function, not a generator
    expression: mypyc builds the list of a generator expression whole."""
    made = partial(_meld_made, situation)
    for chosen, _ in found:
        yield build(ActionType.MELD, hand, spots, chosen), made


def _go_outs(situation: Situation, readings: Readings, memo: dict):
    hand, spots, found, whole = _walked(situation, readings, memo)
    made = partial(_go_out_move, situation)
    out = []
    for chosen, left in found:
        if left is None:  # more than one card left: no way out
            continue
        size = sum(left.values())
        discard = next(iter(left)) if size else None
        out.append((build(ActionType.GO_OUT, hand, spots, chosen, discard=discard), made))
    cards = situation.hand or ()
    if sum(hand.counts.values()) == 1:
        out.append((Action(ActionType.GO_OUT, discard=cards[0]), made))
    return out, whole


def _go_out_move(situation: Situation, action: Action) -> Move:
    melds = Items(tuple(Cards(tuple(a.cards)) for a in action.adds) + tuple(Cards(m) for m in action.melds), " + ")
    if action.discard and not (action.melds or action.adds):
        message = msg("options.go_out.discard_only", card=Card(action.discard))
    elif action.discard:
        message = msg("options.go_out.with_discard", melds=melds, card=Card(action.discard))
    else:
        message = msg("options.go_out.meld_all", melds=melds)
    return Move(_key("go_out", action, situation), "go_out", message, action)


def _take_choices(situation: Situation):
    """Each way of taking the pile's top card: ``(top, meld_rank, with_cards, rest)`` for every choice of hand
    cards shown with it (naturals of its rank and wild cards; with a wild card on top, naturals of any one rank
    the hand holds), ``rest`` the hand that remains. None where the pile is empty."""
    pile = situation.pile or ()
    if not pile:
        return
    top = pile[-1]
    top_kind = kind(top)
    hand = Hand(situation)
    ranks: list[str | None] = [top_kind] if top_kind not in WILD else \
        [r for r in RANKS if any(k == r for k, _ in hand.counts)] or [None]
    for meld_rank in ranks:
        fitting = [c for c in hand.counts if c[0] in WILD or (meld_rank is not None and c[0] == meld_rank)]
        for split in product(*(range(hand.counts[c] + 1) for c in fitting)):
            used = Counter({c: n for c, n in zip(fitting, split) if n})
            if top_kind in WILD and not any(c[0] == meld_rank for c in used):
                continue
            with_cards, rest = hand.take(used)
            yield top, meld_rank, with_cards, rest


def _takes(situation: Situation, readings: Readings, memo: dict):
    out, whole, budget = [], True, MAX_MOVES
    for top, meld_rank, with_cards, rest in _take_choices(situation):
        made = partial(_take_move, top, meld_rank)
        out.append((Action(ActionType.TAKE_PILE, with_cards=tuple(with_cards)), made))
        budget -= 1
        if situation.team_has_opened() or not meld_rank:
            continue
        spots, found, done = layouts(rest, (), readings, extra_add=meld_rank,
                                     extra_meld=(top, *with_cards), limit=max(1, budget))
        whole = whole and done
        for chosen, _ in found:
            out.append((build(ActionType.TAKE_PILE, rest, spots, chosen, with_cards=with_cards), made))
        budget -= len(found)
        if budget <= 0:
            return out, False
    return out, whole


def _take_move(top: str, meld_rank: str | None, action: Action) -> Move:
    shown = Cards(action.with_cards)
    parts = _parts(action)
    if not action.with_cards:
        message = msg("options.take_pile.onto_meld", top=Card(top), rank=Rank(meld_rank or kind(top)))
    else:
        message = msg("options.move.take", cards=shown, parts=Items(tuple(parts), "; ") if parts else None)
    return Move(_key("take_pile", action), "take_pile", message, action, meld_rank)


def _parts(action: Action) -> list[Message]:
    parts = [msg("options.move.part_meld", cards=Cards(m)) for m in action.melds]
    for add in action.adds:
        assert add.to is not None, "the walk adds cards only onto a meld of a rank it names"
        parts.append(msg("options.move.part_add", cards=Cards(add.cards), rank=Rank(add.to)))
    return parts


def lay_message(action: Action) -> Message:
    """A meld move's words, each part as it is laid: "Lay out: meld K K K; add 9 to your meld of nines"."""
    return msg("options.move.lay", parts=Items(tuple(_parts(action)), "; "))


def _key(group: str, action: Action, situation: Situation | None = None) -> str:
    """A stable key naming the move by kinds: ``meld:add(K:K,K);meld(9,9,JK)`` (and, after taking the pile,
    ``;from_pile(7)``: the kinds laid that came from it, where that tells two moves apart)."""
    parts = [f"with({_key_kinds(action.with_cards)})"] if action.type == ActionType.TAKE_PILE else []
    parts += sorted(f"meld({_key_kinds(m)})" for m in action.melds)
    parts += sorted(f"add({a.to}:{_key_kinds(a.cards)})" for a in action.adds)
    if action.discard:
        parts.append(f"discard({kind(action.discard)})")
    from_pile = canonical(action, situation)[5] if situation is not None else ()
    if from_pile:
        parts.append(f"from_pile({','.join(from_pile)})")
    return f"{group}:{';'.join(parts)}"


def _key_kinds(cards) -> str:
    return ",".join(sorted((kind(c) for c in cards), key=_kind_order))


def _kind_order(k: str) -> tuple:
    return (k in WILD, RANKS.index(k) if k in RANKS else len(RANKS), k)


CANDIDATES = {"discard": _discards, "meld": _melds, "go_out": _go_outs, "take_pile": _takes}
