"""Checks on the turn itself: drawing first, the first round, the stock and its end."""

from __future__ import annotations

from .judge import Judge, MissingFact, NotStated
from ..model.messages import Word
from .pile import forced_take
from ..model.situation import DRAWN, Situation
from ..variants import Variant


def by_players(judge: Judge, situation: Situation, name: str) -> int:
    """A by-players parameter's figure for this table (the player count is needed only where figures differ)."""
    table = judge.param(name)
    if len(set(table.values())) == 1:
        return next(iter(table.values()))
    count = situation.need_players()
    if count not in table:
        raise NotStated(name)
    return table[count]


def team_count(rules: Variant, players: int) -> int:
    """How many teams ``players`` players form under ``rules`` (``players.team_size``; one each where the text
    gives no team size for that count)."""
    try:
        size = by_players(Judge(rules), Situation(players=players), "players.team_size")
    except (MissingFact, NotStated):
        size = 1
    return max(1, players // max(1, size))


def check_drew(judge: Judge, situation: Situation, want_drawn: bool) -> None:
    """A turn starts with one draw; melding and discarding come after it."""
    with judge.rule("turn.draw_first") as check:
        drew = situation.need_drew()
        judge.param("turn.draw_first")
        if want_drawn:
            check.result(drew is not None, "turn.drawn" if drew else "turn.draw_first")
        elif drew is None:
            check.result(True, "turn.starts_with_draw")
        elif drew == DRAWN:  # drawn, nobody said where
            check.result(False, "turn.already_drew_somewhere")
        else:
            check.result(False, "turn.already_drew", source=Word(drew))


def first_round(judge: Judge, situation: Situation, rule_id: str, what: str) -> None:
    """A first-round restriction (rule and parameter share the name); read only when it can matter."""
    if situation.first_round is False:
        return
    with judge.rule(rule_id) as check:
        restricted = judge.param(rule_id)
        if not restricted:
            if situation.first_round:
                check.result(True, "first_round.unrestricted", what=Word(what))
            return
        first = situation.need_first_round()
        check.result(not first, "first_round.restricted" if first else "first_round.over", what=Word(what))


def check_draw(judge: Judge, situation: Situation) -> None:
    """Drawing from the stock: how many cards, and what an empty stock means."""
    empty = None
    with judge.rule("stock.empty") as check:
        empty = situation.need_stock_empty()
        if empty:
            ends = judge.param("stock.empty_round_ends")
            check.result(True if ends else False, "stock.empty_round_ends" if ends else "stock.empty")
            if ends:
                judge.note("consequence.round_ends")
    if empty:
        forced_take(judge, situation)
        return
    with judge.rule("draw.count") as check:
        n = by_players(judge, situation, "draw.cards")
        check.result(True, "draw.count", count=n)
        judge.note("consequence.draw_replace_red_threes" if judge.known("red_three.replaced")
                   else "consequence.draw", count=n)
    if situation.stock_count == 1 and judge.rules.params["stock.last_red_three_ends"].settled and \
            judge.known("stock.last_red_three_ends"):
        judge.note("consequence.last_card_red_three")
