"""Going out: the canastas a team needs first, getting rid of every card, and going out concealed."""

from __future__ import annotations


from ..model.cards import beyond, counts
from .judge import Judge, MissingFact
from .melds import is_canasta
from ..model.messages import Cards, Fact, Items, Word, msg
from ..model.situation import Situation
from .table import Table
from .turn import by_players


def check_canastas(judge: Judge, situation: Situation, table: Table, cards_left: int, going_out: bool) -> None:
    """Getting rid of the last card is going out: the team's canasta requirement applies.

    ``going_out`` False is a meld that leaves ``cards_left`` (0 or 1) in hand: with
    too few canastas the player could not discard without going out.
    """
    with judge.rule("go_out.canasta_required" if going_out else "go_out.keep_card") as check:
        try:
            need = by_players(judge, situation, "go_out.canastas_required")
        except MissingFact:
            # The figure hangs on the player count: the team's canastas, where nobody said them, are asked first
            # (with none, it goes out at no table that needs one -- the point a family argues, not the count).
            table.canastas_before()
            raise
        if not (going_out or cards_left < (2 if cards_left >= 0 else 0)):
            return
        if need == 0:
            check.result(True, "go_out.no_canasta_needed")
            if table.canastas_after() == 0 and judge.param("score.no_canasta_all_negative"):
                judge.note("consequence.no_canasta_all_negative")
            return
        before, have, exact = table.canastas_for(need)
        if before < need <= have:
            same_turn = judge.param("go_out.canasta_same_turn")
            check.result(bool(same_turn), "go_out.canasta_this_turn" if same_turn else "go_out.canasta_before_turn")
        elif going_out and exact and not have:
            check.result(False, "go_out.no_canasta", count=need)
        elif going_out:
            check.result(have >= need, "go_out.canastas" if exact else "go_out.canastas_at_least", count=have,
                         need=need)
        elif have < need:
            check.result(False, "go_out.keep_card", count=cards_left, have=have, need=need)
        else:
            check.result(True, "go_out.may_go_out")


def check_all_cards(judge: Judge, situation: Situation, action) -> None:
    """Going out gets rid of every card: meld them all, or all but one and discard it."""
    with judge.rule("go_out.all_cards") as check:
        left = beyond(situation.need_hand(), counts(action.hand_cards()))
        ok = judge.param("go_out.discard_last" if action.discard else "go_out.meld_all")
        how = Word("meld_all_but_one" if action.discard else "meld_all")
        if left:
            check.result(False, "go_out.cards_left", count=len(left), cards=Cards(tuple(left)))
        else:
            check.result(bool(ok), "go_out.by" if ok else "go_out.by_refused", how=how)


def check_partner_answer(judge: Judge, situation: Situation, going_out: bool, last_card: bool = False) -> None:
    """The partner's answer to "may I go out?", where the text makes it binding (``go_out.ask_partner``):
    after a no the player may not go out, after a yes a turn may not end without going out. ``last_card``: the
    action leaves one card, which the turn's discard then gets rid of -- going out all the same."""
    answer = situation.partner_answer
    if answer is None or (answer == "yes") == going_out:
        return
    with judge.rule("go_out.partner_answer") as check:
        binds = judge.param("go_out.ask_partner")
        judge.decide("go_out.ask_partner")
        if binds:
            said_no = "go_out.partner_said_no_last_card" if last_card else "go_out.partner_said_no"
            check.result(False, said_no if answer == "no" else "go_out.partner_said_yes")
        else:
            check.result(True, "go_out.partner_answer_free")


def check_last_discard(judge: Judge) -> None:
    """Discarding the last card is going out; the text may or may not allow that."""
    with judge.rule("go_out.all_cards") as check:
        ok = judge.param("go_out.discard_last")
        check.result(bool(ok), "go_out.last_discard" if ok else "go_out.last_discard_refused")


def concealed(judge: Judge, situation: Situation, action, table: Table, say: bool = True) -> tuple[bool | None, bool]:
    """Note whether a go-out earns the concealed bonus; return (whether it is concealed, None where the text
    reads that two ways; whether the opening minimum is waived). ``say=False``: nothing noted (a meld move that
    leaves the last card to discard asks only whether the waiver is earned).

    A player whose team has no melds cannot have melded before, so ``has_melded``
    need not be given then; otherwise an unknown ``has_melded`` leaves the bonus open.
    """
    has_melded = situation.has_melded
    if has_melded is None and situation.team.melds == ():
        has_melded = False
    if has_melded is None:
        if say:
            judge.note("consequence.concealed_depends", fact=Fact(situation.base + "/player/has_melded"))
        return False, False
    if has_melded or not judge.known("concealed.allowed"):
        return False, False
    reasons = []
    if action.discard:
        entry = judge.rules.params["concealed.discard_allowed"]
        if entry.readings and entry.source == "document":  # the text reads two ways: say so, state no bonus
            judge.interpret("concealed.discard_allowed")
            if say:
                judge.note("consequence.concealed_disputed", bonus=judge.known("score.concealed_extra"))
            return None, False
        if judge.known("concealed.discard_allowed") is False:
            reasons.append(msg("concealed.ends_with_discard"))
    if judge.known("concealed.no_add_to_partner") and action.adds:
        reasons.append(msg("concealed.adds_to_partner"))
    new_canasta = any(is_canasta(judge, m) for m in action.melds)
    if judge.known("concealed.needs_canasta_in_turn") and not new_canasta:
        reasons.append(msg("concealed.no_canasta"))
    bonus = judge.known("score.concealed_extra")
    if reasons:
        if say:
            judge.note("consequence.not_concealed", reasons=Items(tuple(reasons)))
        return False, False
    if say:
        judge.note("consequence.concealed", bonus=bonus)
    return True, bool(judge.known("concealed.opening_waived_after_stock") and situation.drew == "stock" and new_canasta)
