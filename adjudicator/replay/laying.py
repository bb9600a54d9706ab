"""One turn's laying, ruled as one: the melds and additions a player writes as several moves after the draw
(and the discard that goes out, if the turn goes out) are ruled together as the one ``meld`` or ``go_out`` of
the same cards, so that the two ways of writing a turn get the same verdict and the same score."""

from __future__ import annotations

from collections import Counter

from ..model.actions import Action
from ..model.enums import ActionType
from ..model.requests import Event, Log
from ..rules.melds import sure_rank
from .table import Group, Table, rule_at

LAYING = (ActionType.MELD, ActionType.GO_OUT)


def laying_group(log: Log, table: Table, teams: int, index: int) -> Group | None:
    """The turn's laying moves from ``index`` on (melds and additions by the player to play, the partner's
    question and answer between them, and the discard that empties the hand), ruled together as the one
    ``go_out`` (the turn goes out) or ``meld`` (it does not) of the same cards -- or None where there is
    nothing to put together (a single move rules as itself)."""
    seat = table.seat
    if not _may_group(log, table, index, seat):
        return None
    left = Counter(table.hands[seat])
    indices: list[int] = []
    melds: list[tuple[str, ...]] = []
    adds: list = []
    discard = None
    answer = table.partner_answer
    late = table.asked_late
    goes_out = False
    for j in range(index, len(log.moves)):
        item = log.moves[j]
        if isinstance(item, Event):
            if item.kind == "lay_out":
                break
            if item.kind == "ask":
                late = table.melded_now or bool(indices)  # asked after melding this turn, or before
            if item.kind == "answer":
                answer = item.answer
            continue
        act = item.action
        if item.player != seat or act.type not in (*LAYING, ActionType.DISCARD):
            break
        need = Counter(act.hand_cards())
        if need - left:
            break  # a card not held: the move is flagged alone
        if act.type != ActionType.MELD and +(left - need):
            break  # a discard or go-out that leaves cards ends the turn without going out: it is ruled alone
        left -= need
        indices.append(j)
        melds += act.melds
        adds += act.adds
        discard = act.discard if act.type != ActionType.MELD else discard
        if not +left:
            goes_out = True
            break
    if not indices or (len(indices) == 1 and (log.moves[indices[0]].action.type == ActionType.GO_OUT or not goes_out)):
        return None
    kind = ActionType.GO_OUT if goes_out else ActionType.MELD
    if kind == ActionType.MELD:
        discard = None
    laying = _one_laying(kind, melds, adds, discard)
    ruling, _ = rule_at(log, table, teams, seat, laying, answer, late)
    return Group(tuple(indices), ruling, goes_out)


def _may_group(log: Log, table: Table, index: int, seat: int) -> bool:
    """Whether the moves from ``index`` can make a laying of more than one move or a going-out, counted by
    sizes alone (the usual turn -- one meld, or none, and a discard that keeps cards -- is told at once)."""
    left = len(table.hands[seat])
    moves = log.moves
    first = True
    for j in range(index, len(moves)):
        item = moves[j]
        if isinstance(item, Event):
            if item.kind == "lay_out":
                return False
            continue
        if item.player != seat:
            return False
        kind = item.action.type
        if kind == ActionType.DISCARD:
            return left == 1
        if kind not in LAYING:
            return False
        left -= len(item.action.hand_cards())
        if left <= 0 or not first:
            return True
        first = False
    return False


def _one_laying(kind: ActionType, melds: list, adds: list, discard: str | None) -> Action:
    """One action laying ``melds`` and ``adds``: an addition to a meld laid in the same turn joins that meld
    (as one move would have laid it)."""
    laid = [list(m) for m in melds]
    rest = []
    for add in adds:
        rank = add.to or sure_rank(add.cards)
        target = next((m for m in laid if rank and sure_rank(m) == rank), None)
        if target is not None:
            target += list(add.cards)
        else:
            rest.append(add)
    return Action(kind, melds=tuple(tuple(m) for m in laid), adds=tuple(rest), discard=discard)
