"""The discard pile: when it is frozen, whether its top card can be used, and how it may be taken."""

from __future__ import annotations

from typing import NamedTuple

from ..model.cards import JOKER, beyond, counts, is_black_three, is_red_three, rank
from .judge import Judge, MissingFact, NotStated
from .melds import sure_rank
from ..model.messages import Card, Cards, Items, Message, Rank, msg
from ..model.situation import PileUnnamed, Situation
from .table import Table, team_table


UNKNOWN = -1  # the index of a meld that may or may not be among the team's melds not listed


class Freeze(NamedTuple):
    """One reason the pile is frozen: what to say, and the parameter (and case) whose words say so."""

    message: Message
    parameter: str
    tag: str


def frozen_reasons(judge: Judge, pile, opened: bool, unnamed: PileUnnamed | None = None,
                   at: str = "/situation") -> list[Freeze]:
    """Why the pile is frozen for this team (empty: it is not), by ``pile.frozen_by`` and ``pile.before_opening``;
    ``opened``: whether the team has opened; ``unnamed``: what is known of the pile's cards nobody named (a fact
    not known there is missing only where it could freeze a pile nothing else freezes)."""
    reasons = []
    unknown: list[str] = []
    twos = unnamed is not None or any(c != JOKER and c[:-1] == "2" for c in pile)
    if unnamed is not None or JOKER in pile or twos or any(is_black_three(c) for c in pile) or \
            (pile and is_red_three(pile[0])):
        freezers = judge.param("pile.frozen_by")
    else:
        freezers = ()  # nothing in the pile could freeze it, whatever the text counts as a freezer
    wild_two = "two" in freezers and twos and judge.wild("2S")  # read only where a two may lie in the pile
    if "joker" in freezers and JOKER in pile:
        reasons.append(Freeze(msg("frozen.joker"), "pile.frozen_by", "freezer:joker"))
    if wild_two and any(c != JOKER and c[:-1] == "2" for c in pile):
        reasons.append(Freeze(msg("frozen.wild_two"), "pile.frozen_by", "freezer:two"))
    if unnamed is not None and not reasons and ("joker" in freezers or wild_two):
        if unnamed.wild:
            reasons.append(Freeze(msg("frozen.wild_card"), "pile.frozen_by",
                                  "freezer:joker" if "joker" in freezers else "freezer:two"))
        elif unnamed.wild is None:
            unknown.append("/pile_unnamed/wild")
    if "red_three_upcard" in freezers:
        if unnamed is None and pile and is_red_three(pile[0]):
            reasons.append(Freeze(msg("frozen.red_three_upcard"), "pile.frozen_by", "freezer:red_three_upcard"))
        elif unnamed is not None and unnamed.red_three_first:
            reasons.append(Freeze(msg("frozen.red_three_upcard"), "pile.frozen_by", "freezer:red_three_upcard"))
        elif unnamed is not None and unnamed.red_three_first is None:
            unknown.append("/pile_unnamed/red_three_first")
    if "black_three" in freezers:
        if any(is_black_three(c) for c in pile) or (unnamed is not None and unnamed.black_three):
            reasons.append(Freeze(msg("frozen.black_three"), "pile.frozen_by", "freezer:black_three"))
        elif unnamed is not None and unnamed.black_three is None:
            unknown.append("/pile_unnamed/black_three")
    if not opened and judge.param("pile.before_opening") == "frozen":
        reasons.append(Freeze(msg("frozen.not_opened"), "pile.before_opening", "freezer:not_opened"))
    if unknown and not reasons:  # frozen or not hangs on a card nobody named
        raise MissingFact(at + unknown[0])
    return reasons


def _cite_freezes(judge: Judge, frozen: list[Freeze]) -> Items:
    """Quote what froze the pile in the running check; the reasons as one phrase."""
    for freeze in frozen:
        judge.rests_on(freeze.parameter, freeze.tag)
    return Items(tuple(f.message for f in frozen))


def check_pile_not_empty(judge: Judge, situation: Situation):
    """The pile, when it has a top card to take (None otherwise, with the finding recorded)."""
    pile = None
    with judge.rule("pile.empty") as check:
        pile = situation.need_pile()
        judge.param("turn.draw_first")
        if not pile:
            check.result(False, "pile.empty")
    return pile or None


def top_usable(judge: Judge, top: str) -> bool:
    """Whether the top card can be taken at all: not a red three, a black three, or (often) a wild card."""
    if is_red_three(top):
        with judge.rule("pile.top.red_three") as check:
            if judge.param("red_three.laid_out"):  # a bonus card, laid out: never melded, so never taken to meld
                check.result(False, "pile.top_red_three", top=Card(top))
        if check.decided:
            return False
        return True  # where red threes are not laid out, one is a card of rank three like any other
    if is_black_three(top):
        with judge.rule("pile.top.black_three") as check:
            blocks = judge.param("black_three.blocks_next_player")
            freezes = judge.param("black_three.freezes_pile")
            if blocks:
                check.result(False, "pile.top_black_three_blocks", top=Card(top))
            elif freezes:
                check.result(False, "pile.top_black_three_freezes", top=Card(top))
            else:
                check.result(False, "pile.top_black_three_unmeldable", top=Card(top))
        return False
    with judge.rule("pile.top.wild") as check:
        if judge.wild(top):
            allowed = judge.param("pile.take_wild_top")
            check.result(bool(allowed), "pile.top_wild_allowed" if allowed else "pile.top_wild_refused",
                         top=Card(top))
    return not check.decided or check.passed is True


def check_one_card_rule(judge: Judge, situation: Situation) -> None:
    with judge.rule("pile.one_card_rule") as check:
        if judge.param("pile.one_card_rule"):
            size = situation.need_hand_size()
            check.result(size != 1, "pile.one_card_blocked" if size == 1 else "pile.one_card_free")


def check_before_opening(judge: Judge) -> None:
    with judge.rule("pile.before_opening") as check:
        before = judge.param("pile.before_opening")
        if before == "forbidden":
            check.result(False, "pile.before_opening_forbidden")
        elif before == "allowed":
            check.result(True, "pile.before_opening_allowed")


def take_onto_meld(judge: Judge, table: Table, top: str, frozen: list[Freeze]) -> None:
    """Taking the pile to put its top card onto the team's meld of that rank."""
    if frozen:
        ok = None
        with judge.rule("pile.frozen.add_to_meld") as check:
            ok = judge.param("pile.frozen_add_to_meld_only")
            judge.decide("pile.frozen_add_to_meld_only")
            why = _cite_freezes(judge, frozen)
            check.result(bool(ok), "pile.frozen_add_allowed" if ok else "pile.frozen_add_not_enough",
                         why=why, top=Card(top), rank=Rank(rank(top)))
        if not ok:
            with judge.rule("pile.frozen.natural_pair") as check:
                judge.param("pile.frozen_natural_pair")
                judge.decide("pile.frozen_natural_pair")
                why = _cite_freezes(judge, frozen)
                check.result(False, "pile.frozen_needs_pair", why=why, rank=Rank(rank(top)))
            return
    else:
        target = None
        with judge.rule("pile.unfrozen.add_to_meld") as check:
            ok = judge.param("pile.unfrozen_add_to_meld")
            target = table.find(rank(top))
            if ok and table.refuse_theirs(check, rank(top), "pile.top_onto_opponents", top=Card(top)):
                pass
            elif target is not None and ok:
                check.result(True, "pile.top_onto_meld", top=Card(top), rank=Rank(rank(top)))
            elif ok:
                check.result(False, "pile.no_meld_for_top", top=Card(top), rank=Rank(rank(top)))
            else:
                check.result(False, "pile.top_needs_hand_cards", top=Card(top))
        if target is None:
            return
    table.add([top], rank(top), msg("subject.top", top=Card(top)))


def _makes_meld(top_rank: str, matching: list[str], with_cards) -> bool:
    """Whether the cards shown could make a new meld with the top card: a natural pair, or one natural and a
    card that may be wild (a joker or a two)."""
    if len(matching) >= 2:
        return True
    return len(matching) == 1 and any(c == JOKER or c[:-1] == "2" for c in with_cards if c not in matching)


def take_with_hand(judge: Judge, table: Table, top: str, with_cards, frozen: list[Freeze], onto: bool = False,
                   apart: bool = False) -> bool:
    """Taking the pile with cards from the hand that meld with its top card. Where the team has a meld of the
    top card's rank, they go with it onto that meld: the same play as taking the pile onto the meld and adding
    them (``onto``: the action was written so). Where a team may hold a second meld of a rank, the player may
    instead lay them as a meld of their own (``apart``: this play is ruled): True where that other play is open
    to the player -- the team has a meld of the rank and the cards make a meld with the top card by themselves
    (the engine then rules it too, :func:`adjudicator.rules.engine.rule_once`). Cards that make no meld with the
    top card are taken onto the meld only."""
    top_rank = rank(top)
    matching = [c for c in with_cards if c != JOKER and rank(c) == top_rank]
    try:
        target = table.find(top_rank)
    except MissingFact:  # the team's melds are not listed: it may have one of this rank, or not
        target = UNKNOWN
        if not frozen and not _makes_meld(top_rank, matching, with_cards):
            raise  # whether the cards need that meld decides the take
    alone = _makes_meld(top_rank, matching, with_cards)
    if not frozen and target is not None and not alone:
        onto = True
        with judge.rule("pile.unfrozen.add_to_meld") as check:
            ok = judge.param("pile.unfrozen_add_to_meld")
            check.result(bool(ok), "pile.top_with_onto_meld" if ok else "pile.top_needs_hand_cards", top=Card(top),
                         cards=Cards(tuple(with_cards)), rank=Rank(top_rank))
    elif frozen:
        with judge.rule("pile.frozen.natural_pair") as check:
            judge.param("pile.frozen_natural_pair")
            judge.decide("pile.frozen_natural_pair")
            wild_shown = []
            try:
                wild_shown = [c for c in with_cards if judge.wild(c)]
            except NotStated:
                pass
            if wild_shown and len(matching) < 2:
                judge.case("wild_in_pair")  # the sentence saying a wild card does not count comes first
            why = _cite_freezes(judge, frozen)
            if len(matching) >= 2:
                check.result(True, "pile.frozen_pair_shown", why=why, rank=Rank(top_rank), shown=len(matching))
            elif wild_shown:
                check.result(False, "pile.frozen_pair_short_wild", why=why, rank=Rank(top_rank),
                             shown=len(matching), count=len(matching), wilds=Cards(tuple(wild_shown)))
            else:
                check.result(False, "pile.frozen_pair_short", why=why, rank=Rank(top_rank), shown=len(matching),
                             count=len(matching))
    else:
        with judge.rule("pile.unfrozen.natural_and_wild") as check:
            if len(matching) >= 2:
                check.result(True, "pile.natural_pair", rank=Rank(top_rank))
            elif len(matching) == 1:
                others = [c for c in with_cards if c not in matching]
                wild = [c for c in others if judge.wild(c)]
                if not wild:
                    check.result(False, "pile.one_natural_not_wild" if others else "pile.one_natural_alone",
                                 rank=Rank(top_rank), others=Cards(tuple(others)))
                else:
                    ok = judge.param("pile.unfrozen_natural_and_wild")
                    check.result(bool(ok), "pile.natural_and_wild" if ok else "pile.natural_and_wild_refused",
                                 rank=Rank(top_rank), wild=Card(wild[0]))
            else:
                check.result(False, "pile.no_natural", rank=Rank(top_rank), top=Card(top))
    group = [top] + list(with_cards)
    subject = msg("subject.top_with", top=Card(top), cards=Cards(tuple(with_cards)))
    if target is UNKNOWN:
        # Natural cards of the rank make a legal meld of their own and keep any meld they join legal: the
        # same verdict whether the team has a meld of that rank or not. A wild card's fit depends on that meld:
        # whether the team has one is asked (with one, its cards are then needed).
        try:
            has_wild = any(c == JOKER or judge.wild(c) for c in group)
        except NotStated:
            has_wild = True  # a two, where the text leaves open whether it is wild: it may be
        if has_wild:
            table.find(top_rank)  # raises: whether the team has a meld of this rank is not said
        table.lay(group, subject, going_out=False, joins=True)
        return False
    if target is not None and not apart:  # onto the team's meld of that rank
        table.add(group, top_rank, subject)
        return alone and not onto  # cards written as an addition to the meld go onto it: the player said so
    table.lay(group, subject, going_out=False)  # a meld of its own (where the team has one of the rank: a second)
    return False


def shown_in_adds(situation: Situation, table: Table, top: str, adds) -> tuple[list[str], tuple]:
    """A take written without cards shown but adding hand cards to the team's meld of the top card's rank: those
    cards are shown with the top card (the same play, however written). (cards shown, the other additions)."""
    top_rank = rank(top)
    if situation.hand is None or table.find(top_rank) is None:
        return [], tuple(adds)
    left = counts(situation.hand)
    shown: list[str] = []
    rest = []
    for add in adds:
        onto = (add.to or sure_rank(add.cards)) == top_rank
        if onto and all(left.get(c, 0) >= n for c, n in counts(add.cards).items()):
            for c in add.cards:
                left[c] -= 1
            shown += add.cards
        else:
            rest.append(add)
    return shown, tuple(rest)


def pile_cards_used(situation: Situation, action) -> list[str]:
    """Cards the action melds that can only have come from the pile this turn, beyond its top card (the last
    of ``turn.cards_from_pile``), which the take puts to use at once."""
    if action.type == "take_pile":
        return beyond(action.laid_cards(), counts(situation.need_hand(), action.with_cards))
    taken = situation.cards_from_pile
    if situation.drew != "pile" or not taken:
        return []
    used = beyond(action.laid_cards(), counts(situation.need_hand(), taken))
    if taken[-1] in used:
        used.remove(taken[-1])
    return used


def check_pile_cards(judge: Judge, situation: Situation, action) -> list[str]:
    """Whether cards taken with the pile (beyond its top card) may be melded in the same turn."""
    if action.type != "take_pile" and (situation.drew != "pile" or not situation.cards_from_pile):
        return []
    if not action.laid_cards():
        return []
    used: list[str] = []
    with judge.rule("pile.cards_same_turn") as check:
        used = pile_cards_used(situation, action)
        if used:
            ok = judge.param("pile.cards_usable_same_turn")
            check.result(bool(ok), "pile.cards_same_turn" if ok else "pile.cards_next_turn", cards=Cards(tuple(used)))
    return used


def forced_take(judge: Judge, situation: Situation) -> None:
    """With the stock empty, whether the player must take the pile instead of drawing."""
    with judge.rule("stock.empty.forced_take") as check:
        if not judge.param("stock.empty_forced_take"):
            return
        pile = situation.need_pile()
        if not pile:
            check.result(True, "stock.forced_take_pile_empty")
            return
        top = pile[-1]
        opened = situation.need_team_opened()
        frozen = frozen_reasons(judge, pile, opened, situation.pile_unnamed, situation.base)
        # a frozen pile, a wild or three on top, a team with no meld: nothing to fit, whatever its melds hold; else
        # whether the team has a meld of the top card's rank decides (said, or listed)
        must = bool(opened and not frozen and rank(top) != "3" and not judge.wild(top)
                    and team_table(judge, situation, opponents=False).has(rank(top)))
        check.result(not must, "stock.forced_take_must" if must else "stock.forced_take_free", top=Card(top))
