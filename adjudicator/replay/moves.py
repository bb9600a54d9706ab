"""One action of the log ruled by the engine as the table lies and, where it is allowed, applied to the table."""

from __future__ import annotations

from collections import Counter

from ..model.cards import is_red_three
from ..model.enums import ActionType
from ..model.errors import Issue
from ..model.findings import ILLEGAL, UNDETERMINED, Ruling
from ..model.messages import Cards, Message, msg
from ..model.requests import Log, Move
from .laying import LAYING, laying_group
from .results import Entry
from .table import (Group, Stop, Table, beyond_deck, draw_count, end_round, end_turn, last_card, lay, replaced,
                    rule_at, went_out)


def step(log: Log, table: Table, teams: int, index: int, move: Move) -> Entry:
    """Rule one action and, where it is allowed, apply it to the table."""
    act, seat, at = move.action, move.player, move.pointer
    if seat != table.seat:
        return Entry(index, seat, None, msg("replay.out_of_turn", seat=seat + 1, expected=table.seat + 1),
                     pointer=at)
    if table.asked is not None:
        return Entry(index, seat, None, msg("replay.unanswered"), pointer=at)
    table.started = True
    hand = table.hands[seat]
    short = Counter(act.hand_cards()) - Counter(hand)
    if act.type == ActionType.TAKE_PILE and not short:  # what a take lays comes from the hand or the pile below the top
        short = Counter(act.laid_cards()) - (Counter(hand) - Counter(act.with_cards) + Counter(table.pile[:-1]))
    if short:
        return Entry(index, seat, None, msg("replay.not_held", cards=Cards(tuple(sorted(short.elements())))),
                     pointer=f"{at}/action")
    if act.type == ActionType.DRAW:
        problem = _drawn_cards(log, table, index, move)
        if problem is not None:
            return problem
    elif move.cards:
        return Entry(index, seat, None, msg("replay.cards_not_drawn"), pointer=f"{at}/cards")
    group = table.group if table.group is not None and index in table.group.indices else None
    if group is None and table.drew is not None and (act.type in LAYING or act.type == ActionType.DISCARD):
        group = table.group = laying_group(log, table, teams, index)
    together: tuple[int, ...] = ()
    if group is not None and group.ruling is not None and group.ruling.verdict != ILLEGAL:
        ruling, together = group.ruling, _together(group)
    else:
        ruling, found = rule_at(log, table, teams, seat, act)
        if ruling is None:
            assert found is not None
            return _refused(index, seat, found, at)
        if group is not None and group.ruling is not None and ruling.verdict != ILLEGAL and \
                index == group.indices[-1]:  # each move passes alone, but not the turn they make: flag its end
            ruling, together = group.ruling, _together(group)
    if ruling.verdict == ILLEGAL:
        return Entry(index, seat, ruling, pointer=at, together=together)
    if act.type == ActionType.DRAW and table.stock_count == 0 and ruling.verdict == UNDETERMINED:
        table.stop = Stop(index, seat, msg("replay.stopped.empty_stock"), ruling, ruling.open_points, at)
        return Entry(index, seat, ruling, pointer=at)
    problem = _apply(log, table, teams, seat, move, ruling, group)
    if problem is not None:  # the move itself is allowed; the log's cards are not
        return Entry(index, seat, ruling, problem, pointer=f"{at}/cards")
    if act.type == ActionType.DRAW:
        last_card(log, table, index, seat, move.cards or (), at)
    return Entry(index, seat, ruling, pointer=at, together=together)


def _together(group: Group) -> tuple[int, ...]:
    """The moves ruled as one, where there are several (a single move is simply ruled as the one laying)."""
    return group.indices if len(group.indices) > 1 else ()


def _refused(index: int, seat: int, found: Issue, at: str) -> Entry:
    """A move the engine refuses as impossible, flagged with the engine's words, pointing into the log: at the
    place in the move the engine names (``/moves/17/action/melds/0/1``), else at the move."""
    where = at
    if found.pointer.startswith("/action"):
        where = at + found.pointer
    elif found.pointer.startswith(at + "/"):
        where = found.pointer
    return Entry(index, seat, None, found.message, pointer=where)


def _drawn_cards(log: Log, table: Table, index: int, move: Move) -> Entry | None:
    """Why a draw's cards cannot be (none given, more than the stock, a card the deck cannot hold), or None."""
    seat, at = move.player, move.pointer
    if move.cards is None:
        if table.stock_count == 0:
            return None  # nothing to bring
        return Entry(index, seat, None, msg("replay.draw_without_cards"), pointer=at)
    if len(move.cards) > table.stock_count:
        return Entry(index, seat, None, msg("replay.stock_short", count=len(move.cards), stock=table.stock_count),
                     pointer=f"{at}/cards")
    beyond = beyond_deck(log, table, move.cards, f"{at}/cards")
    if beyond is not None:
        return Entry(index, seat, None, beyond.message, pointer=beyond.pointer)
    return None


def _apply(log: Log, table: Table, teams: int, seat: int, move: Move, ruling: Ruling,
           group: Group | None) -> Message | None:
    act, hand, team = move.action, table.hands[seat], seat % teams
    if act.type == ActionType.DRAW:
        cards = list(move.cards or ())
        if cards:
            problem = replaced(log, table, seat, cards, draw_count(log))
            if problem is not None:
                return problem
        table.drew, table.from_pile = "stock", ()
        if any(c.key == "consequence.round_ends" for c in ruling.consequences):
            end_round(table, "stock_ran_out", seat)
        return None
    if act.type == ActionType.TAKE_PILE:
        top, rest = table.pile[-1], table.pile[:-1]
        for c in act.with_cards:
            hand.remove(c)
        group_ = [top, *act.with_cards]
        lay(table, team, [group_], [])
        reds = [c for c in rest if is_red_three(c)]
        taken = [c for c in rest if not is_red_three(c)]
        table.red_threes[team] += len(reds)
        hand += taken
        lay(table, team, act.melds, act.adds, hand)
        table.pile = []
        table.drew, table.from_pile = "pile", (*taken, top)  # the top card last, as cards_from_pile has it
        table.laid = True
        table.melded_now = table.melded_now or bool(act.melds or act.adds)
        return None
    if act.type in LAYING:
        lay(table, team, act.melds, act.adds, hand)
        if act.melds or act.adds:
            table.laid = table.melded_now = True
        if act.type == ActionType.GO_OUT and act.discard:
            hand.remove(act.discard)
            table.pile.append(act.discard)
        if act.type == ActionType.GO_OUT or not hand:
            went_out(table, seat, group.ruling if group is not None and group.ruling is not None else ruling)
        return None
    # discard
    hand.remove(act.discard)
    table.pile.append(act.discard)
    if not hand:
        went_out(table, seat, group.ruling if group is not None and group.ruling is not None else ruling)
    end_turn(log, table, seat)
    return None
