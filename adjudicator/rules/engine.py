"""Rulings: decide one action in one situation under one variant.

:func:`rule` is the engine's entry point: a typed situation and action in, a
:class:`~adjudicator.model.findings.Ruling` out. Each handler composes the checks of
:mod:`adjudicator.rules.turn`, :mod:`adjudicator.rules.pile`, :mod:`adjudicator.rules.table`,
:mod:`adjudicator.rules.opening` and :mod:`adjudicator.rules.going_out`, reading only the
facts and parameters they need, so a missing fact or an unstated rule makes
just those checks undetermined. Nothing here names a variant.
"""

from __future__ import annotations

from typing import Callable

from ..model.actions import Action
from ..model.cards import JOKER, beyond, counts, is_black_three, is_red_three
from ..model.enums import ActionType
from ..model.findings import ILLEGAL, LEGAL, UNDETERMINED, Ruling
from .going_out import check_all_cards, check_canastas, check_last_discard, check_partner_answer, concealed
from .judge import Judge, MissingFact, NotStated, known
from ..model.messages import Card
from .opening import check_opening, pile_cards_apart, without_pile_cards
from .conditions import decide_facts
from .facts import ruling_work
from .readings import TableDoubt, decide_across
from .pile import (check_before_opening, check_one_card_rule, check_pile_cards, check_pile_not_empty,
                   frozen_reasons, shown_in_adds, take_onto_meld, take_with_hand, top_usable)
from ..model.situation import Situation
from ..turns import checkpoint
from .table import lay_all, team_table, team_table_or_melds
from .table_check import check_table
from .turn import check_draw, check_drew, first_round
from ..variants import Variant


def rule(situation: Situation, action: Action, rules: Variant) -> Ruling:
    """Rule on ``action`` in ``situation`` under ``rules`` (a variant, with any house rules applied).

    A table that a stated rule of the variant rules out is refused first
    (:func:`~adjudicator.rules.table_check.check_table` raises :class:`~adjudicator.model.errors.ImpossibleInput`),
    so a library caller and the HTTP service refuse the same tables. Where the ruling hangs on a point the
    text leaves open, it is decided across the point's readings (:mod:`adjudicator.rules.readings`), and only
    under those the table can happen under.
    """
    return rule_table(situation, action, rules, check_table(rules, situation, action))


def rule_table(situation: Situation, action: Action, rules: Variant, doubt: TableDoubt | None) -> Ruling:
    """:func:`rule_checked` on a whole table (``doubt``: what its check found), then, where the ruling lacks facts
    a choice can give, ruled under each of their values (:mod:`adjudicator.rules.conditions`): each value's table
    checked and ruled as any other, by :func:`rule`'s own steps."""
    first = rule_checked(situation, action, rules, doubt)
    if first.verdict != UNDETERMINED or not first.missing:
        return first  # most rulings: nothing a fact could change
    return decide_facts(first, situation, action, rules,
                        lambda table: rule_checked(table, action, rules, check_table(rules, table, action)))


def rule_checked(situation: Situation, action: Action, rules: Variant, doubt: TableDoubt | None) -> Ruling:
    """:func:`rule` for a table already checked: ``doubt`` is what the check found (the readings its table cannot
    happen under: :func:`~adjudicator.rules.table_check.check_table`, or
    :func:`~adjudicator.rules.table_check.table_doubt`), worked out once for the many actions of one table the
    option search rules -- and for a meld's parts, which it rules on a table that withholds most facts
    (:class:`~adjudicator.model.situation.PartTable`), whose own doubt could not be worked out."""
    work = ruling_work(situation, action)

    def run(ruled: Variant) -> Ruling:
        checkpoint(work)  # every ruling, once under each reading: where a long request lets others run
        return rule_once(situation, action, ruled)

    return decide_across(run, rules, doubt)


def rule_once(situation: Situation, action: Action, rules: Variant) -> Ruling:
    """One ruling under these rules as they stand (an open point stays open).

    A take whose cards from the hand make a meld with the top card, where the team already has a meld of that
    rank, is two plays the player may choose between wherever a team may hold a second meld of a rank: onto the
    meld, or a meld of its own. The first is ruled; where it is not legal and the text does not settle that a
    team holds one meld per rank, the second is ruled too, and the better of the two is the ruling (the player
    makes the choice the rules allow, never the worse one)."""
    judge = Judge(rules, situation.players)
    apart = _run(judge, situation, action, False)
    ruled = judge.ruling(action.type)
    if apart and ruled.verdict != LEGAL and known(rules, "meld.one_per_rank") is not True:
        other = Judge(rules, situation.players)
        _run(other, situation, action, True)
        alone = other.ruling(action.type)
        if alone.verdict == LEGAL or (alone.verdict == UNDETERMINED and ruled.verdict == ILLEGAL):
            return alone
    return ruled


def _run(judge: Judge, situation: Situation, action: Action, apart: bool) -> bool:
    """The action's handler under ``judge`` (``apart``: a take's cards laid as a meld of their own); True where
    a take could also be laid that way (see :func:`rule_once`)."""
    try:
        if action.type == ActionType.TAKE_PILE:
            return rule_take_pile(judge, situation, action, apart)
        HANDLERS[action.type](judge, situation, action)
    except MissingFact as e:
        # The ruling stopped before its remaining checks, for want of a fact: whatever passed so far, it is
        # not known to be legal (a check that failed still makes it illegal). Missing facts are not guessed.
        judge.missing.append(e.pointer)
        judge.stopped_short()
    except NotStated as e:
        judge.not_stated.append(e.name)
    return False


# --- handlers ----------------------------------------------------------------------------------

def rule_draw(judge: Judge, situation: Situation, action: Action) -> None:
    check_drew(judge, situation, want_drawn=False)
    check_draw(judge, situation)


def rule_take_pile(judge: Judge, situation: Situation, action: Action, apart: bool = False) -> bool:
    """A take of the pile; True where its cards could also lie as a meld of their own (``apart``: they are ruled
    so), see :func:`rule_once`."""
    check_drew(judge, situation, want_drawn=False)
    first_round(judge, situation, "first_round.no_pile", "take_pile")
    pile = check_pile_not_empty(judge, situation)
    if not pile:
        return False
    top = pile[-1]
    if not top_usable(judge, top):
        return False
    if len(pile) == 1 and situation.pile_unnamed is None:
        check_one_card_rule(judge, situation)
    opened = situation.need_team_opened()
    if not opened:
        check_before_opening(judge)
    frozen = []
    with judge.rule("pile.frozen.natural_pair"):  # what freezes the pile is read for this rule's citations
        frozen = frozen_reasons(judge, pile, opened, situation.pile_unnamed, situation.base)
    table = team_table(judge, situation)
    adds = action.adds
    other_play = False
    if action.with_cards:
        other_play = take_with_hand(judge, table, top, action.with_cards, frozen, apart=apart)
    else:
        shown, adds = shown_in_adds(situation, table, top, adds) if frozen else ([], adds)
        if shown:  # a frozen pile taken onto the meld, the hand's cards added to it: they are shown with the top
            take_with_hand(judge, table, top, shown, frozen, onto=True)
        else:
            take_onto_meld(judge, table, top, frozen)
    lay_all(table, action.melds, adds, going_out=False)
    pile_used = check_pile_cards(judge, situation, action)
    groups = [[top, *action.with_cards]] + [list(m) for m in action.melds] + [list(a.cards) for a in action.adds]
    check_opening(judge, situation, table, without_pile_cards(groups, pile_used), pile_used)
    left = _left_after_take(situation, action, pile)
    if left is not None and left <= 1:
        # the last card goes with this take, or with the discard that must end the turn: going out, as after a
        # meld that leaves one card -- the partner's answer binds it, and the team's canastas must allow it
        check_partner_answer(judge, situation, going_out=True, last_card=left == 1)
        check_canastas(judge, situation, table, left, going_out=False)
    rest = len(pile) - 1
    if situation.pile_unnamed is None:  # the cards nobody named: how many is not known
        judge.note("consequence.take_rest" if rest else "consequence.pile_only_top", count=rest)
    if (rest or situation.pile_unnamed is not None) and judge.known("pile.cards_usable_same_turn") is False:
        judge.note("consequence.rest_next_turn")
    if any(is_red_three(c) for c in pile[:-1]):
        judge.note("consequence.lay_out_red_threes")
    return other_play


def _left_after_take(situation: Situation, action: Action, pile: tuple[str, ...]) -> int | None:
    """Cards in hand once the take is laid: the hand and the pile's cards below its top, less the cards the take
    lays (None: the hand's size is not given). Where a text lets a take leave cards in the pile
    (``pile.taken_whole`` false), that is a choice the player may make, never one forced on him: the player may
    take the whole pile, so a take is ruled as the whole pile's. Cards nobody named below the pile are one at
    the least."""
    if situation.hand is None and situation.hand_count is None:
        return None
    below = len(pile) - 1 + (1 if situation.pile_unnamed is not None else 0)
    return situation.need_hand_size() - len(action.with_cards) - len(action.laid_cards()) + below


def rule_meld(judge: Judge, situation: Situation, action: Action) -> None:
    check_drew(judge, situation, want_drawn=True)
    table = team_table_or_melds(judge, situation, action.melds, going_out=False)
    lay_all(table, action.melds, action.adds, going_out=False)
    pile_used = check_pile_cards(judge, situation, action)
    laid = len(action.laid_cards())
    unknown: MissingFact | None = None
    try:
        last = not situation.hand_more_than(laid + 1)  # the meld leaves no card or one: going out
    except MissingFact as e:
        # How many cards it leaves decides only the going-out checks below; the opening's does not hang on it
        # (a hand not listed is never a concealed go-out), so the opening is ruled first and the count asked after.
        unknown, last = e, False
    hidden: bool | None = False
    waived = False
    if last and situation.hand is not None:
        # the last card goes with this meld, or with the discard that must end the turn: going out, concealed
        # where a go-out of these melds would be (and so with its waiver of the opening)
        rest = beyond(situation.hand, counts(action.laid_cards()))
        going = Action(ActionType.GO_OUT, melds=action.melds, adds=action.adds, discard=rest[0] if rest else None)
        hidden, waived = concealed(judge, situation, going, table, say=False)
    check_opening(judge, situation, table, *pile_cards_apart(situation, action.melds, pile_used), waived=waived,
                  concealed_out=hidden is not False and last)
    if unknown is not None:
        raise unknown
    if last:  # going out: the partner's answer binds it
        left = situation.need_hand_size() - laid
        check_partner_answer(judge, situation, going_out=True, last_card=left == 1)
        check_canastas(judge, situation, table, left, going_out=False)


def rule_go_out(judge: Judge, situation: Situation, action: Action) -> None:
    check_drew(judge, situation, want_drawn=True)
    check_partner_answer(judge, situation, going_out=True)
    check_all_cards(judge, situation, action)
    table = team_table_or_melds(judge, situation, action.melds, going_out=True)
    lay_all(table, action.melds, action.adds, going_out=True)
    pile_used = check_pile_cards(judge, situation, action)
    check_canastas(judge, situation, table, 0, going_out=True)
    hidden, waived = concealed(judge, situation, action, table)
    check_opening(judge, situation, table, *pile_cards_apart(situation, action.melds, pile_used), waived=waived,
                  concealed_out=hidden is not False)


def rule_discard(judge: Judge, situation: Situation, action: Action) -> None:
    check_drew(judge, situation, want_drawn=True)
    card = action.discard
    assert card is not None, "a discard names its card (the parser refuses one that does not)"
    if is_red_three(card):
        with judge.rule("red_three.never_melded") as check:
            if judge.param("red_three.laid_out"):
                check.result(False, "discard.red_three", card=Card(card))
        if check.decided:
            return
    _red_threes_kept(judge, situation, card)
    last = not situation.hand_more_than(1)  # the discard is the last card ("two or more" tapped says it is not)
    if situation.partner_answer is not None:
        check_partner_answer(judge, situation, going_out=last)
    if last:
        table = team_table(judge, situation, opponents=False)
        check_last_discard(judge)
        check_canastas(judge, situation, table, 0, going_out=True)
    _discard_consequences(judge, card)


def _red_threes_kept(judge: Judge, situation: Situation, card: str) -> None:
    """A red three still in hand when the turn ends with a discard: where the text lays red threes out as soon
    as they come (``red_three.laid_out``), it was kept. Asked only of a hand that is given."""
    hand = situation.hand
    if hand is None:
        return
    kept = [c for c in hand if is_red_three(c)]
    if card in kept:
        kept.remove(card)  # the card discarded is not kept
    if not kept:
        return
    with judge.rule("red_three.never_melded") as check:
        if judge.param("red_three.laid_out"):
            judge.decide("red_three.laid_out")
            check.result(False, "discard.red_three_kept", card=Card(kept[0]))


def _discard_consequences(judge: Judge, card: str) -> None:
    freezers = judge.known("pile.frozen_by") or []
    try:
        wild = judge.wild(card)
    except NotStated:
        wild = None
    if wild and (("joker" in freezers and card == JOKER) or ("two" in freezers and card != JOKER)):
        judge.note("consequence.wild_freezes", card=Card(card))
    if is_black_three(card):
        if judge.known("black_three.freezes_pile"):
            judge.note("consequence.black_three_freezes")
        elif judge.known("black_three.blocks_next_player"):
            judge.note("consequence.black_three_blocks")


def _take(judge: Judge, situation: Situation, action: Action) -> None:
    """The take as the other handlers are called (:func:`_run` calls :func:`rule_take_pile` itself, for what it
    says of the take's other play)."""
    rule_take_pile(judge, situation, action)


HANDLERS: dict[ActionType, Callable[[Judge, Situation, Action], None]] = {
    ActionType.DRAW: rule_draw, ActionType.TAKE_PILE: _take, ActionType.MELD: rule_meld,
    ActionType.GO_OUT: rule_go_out, ActionType.DISCARD: rule_discard}
