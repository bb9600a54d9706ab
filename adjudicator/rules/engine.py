"""Rulings: decide one action in one situation under one variant.

:func:`rule` is the engine's entry point: a typed situation and action in, a
:class:`~adjudicator.model.findings.Ruling` out. Each handler composes the checks of
:mod:`adjudicator.rules.turn`, :mod:`adjudicator.rules.pile`, :mod:`adjudicator.rules.table`,
:mod:`adjudicator.rules.opening` and :mod:`adjudicator.rules.going_out`, reading only the
facts and parameters they need, so a missing fact or an unstated rule makes
just those checks undetermined. Nothing here names a variant.
"""

from __future__ import annotations

from ..model.actions import Action
from ..model.cards import JOKER, is_black_three, is_red_three
from ..model.findings import Ruling
from .going_out import check_all_cards, check_canastas, check_last_discard, check_partner_answer, concealed
from .judge import Judge, MissingFact, NotStated
from ..model.messages import Card
from .opening import check_opening, pile_cards_apart, without_pile_cards
from .readings import decide_across
from .pile import (check_before_opening, check_one_card_rule, check_pile_cards, check_pile_not_empty,
                   frozen_reasons, take_onto_meld, take_with_hand, top_usable)
from ..model.situation import Situation
from ..turns import checkpoint
from .table import Table, lay_all
from .table_check import check_table
from .turn import check_draw, check_drew, first_round
from ..variants import Variant


def rule(situation: Situation, action: Action, rules: Variant) -> Ruling:
    """Rule on ``action`` in ``situation`` under ``rules`` (a variant, with any house rules applied).

    A table that cannot happen is refused first (:func:`~adjudicator.rules.table_check.check_table` raises
    :class:`~adjudicator.model.errors.ImpossibleInput`), so a library caller and the HTTP service refuse the
    same tables. Where the ruling hangs on a point the text leaves open, it is decided across the point's
    readings (:mod:`adjudicator.rules.readings`).
    """
    check_table(rules, situation, action)
    return rule_checked(situation, action, rules)


def rule_checked(situation: Situation, action: Action, rules: Variant) -> Ruling:
    """:func:`rule` for a table already checked: the option search rules many actions of one table, each
    built from the hand it checked."""
    checkpoint()  # every ruling: where a long request (options, a comparison, a replay) lets others run
    return decide_across(lambda ruled: rule_once(situation, action, ruled), rules)


def rule_once(situation: Situation, action: Action, rules: Variant) -> Ruling:
    """One ruling under these rules as they stand (an open point stays open)."""
    judge = Judge(rules, situation.players)
    try:
        HANDLERS[action.type](judge, situation, action)
    except MissingFact as e:
        judge.missing.append(e.pointer)
    except NotStated as e:
        judge.not_stated.append(e.name)
    return judge.ruling(action.type)


# --- handlers ----------------------------------------------------------------------------------

def rule_draw(judge: Judge, situation: Situation, action: Action) -> None:
    check_drew(judge, situation, want_drawn=False)
    check_draw(judge, situation)


def rule_take_pile(judge: Judge, situation: Situation, action: Action) -> None:
    check_drew(judge, situation, want_drawn=False)
    first_round(judge, situation, "first_round.no_pile", "take_pile")
    pile = check_pile_not_empty(judge, situation)
    if not pile:
        return
    top = pile[-1]
    if not top_usable(judge, top):
        return
    if len(pile) == 1:
        check_one_card_rule(judge, situation)
    melds = situation.need_team_melds()
    if not melds:
        check_before_opening(judge)
    frozen = []
    with judge.rule("pile.frozen.natural_pair"):  # what freezes the pile is read for this rule's citations
        frozen = frozen_reasons(judge, pile, melds)
    table = Table(judge, melds, situation.opponents.melds or ())
    if action.with_cards:
        take_with_hand(judge, table, top, action.with_cards, frozen)
    else:
        take_onto_meld(judge, table, top, frozen)
    lay_all(table, action.melds, action.adds, going_out=False)
    pile_used = check_pile_cards(judge, situation, action)
    groups = [[top, *action.with_cards]] + [list(m) for m in action.melds] + [list(a.cards) for a in action.adds]
    check_opening(judge, situation, table, without_pile_cards(groups, pile_used), pile_used)
    rest = len(pile) - 1
    judge.note("consequence.take_rest" if rest else "consequence.pile_only_top", count=rest)
    if rest and judge.known("pile.cards_usable_same_turn") is False:
        judge.note("consequence.rest_next_turn")
    if any(is_red_three(c) for c in pile[:-1]):
        judge.note("consequence.lay_out_red_threes")


def rule_meld(judge: Judge, situation: Situation, action: Action) -> None:
    check_drew(judge, situation, want_drawn=True)
    table = Table(judge, situation.need_team_melds(), situation.opponents.melds or ())
    lay_all(table, action.melds, action.adds, going_out=False)
    pile_used = check_pile_cards(judge, situation, action)
    check_opening(judge, situation, table, *pile_cards_apart(situation, action.melds, pile_used))
    left = situation.need_hand_size() - len(action.laid_cards())
    if left == 0:
        check_partner_answer(judge, situation, going_out=True)
    if left <= 1:
        check_canastas(judge, situation, table, left, going_out=False)


def rule_go_out(judge: Judge, situation: Situation, action: Action) -> None:
    check_drew(judge, situation, want_drawn=True)
    check_partner_answer(judge, situation, going_out=True)
    check_all_cards(judge, situation, action)
    table = Table(judge, situation.need_team_melds(), situation.opponents.melds or ())
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
            judge.param("red_three.laid_out")
            check.result(False, "discard.red_three", card=Card(card))
        return
    if situation.partner_answer is not None:
        check_partner_answer(judge, situation, going_out=situation.need_hand_size() == 1)
    if situation.need_hand_size() == 1:
        table = Table(judge, situation.need_team_melds())
        check_last_discard(judge)
        check_canastas(judge, situation, table, 0, going_out=True)
    _discard_consequences(judge, card)


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


HANDLERS = {"draw": rule_draw, "take_pile": rule_take_pile, "meld": rule_meld, "go_out": rule_go_out,
            "discard": rule_discard}
