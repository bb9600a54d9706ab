"""One event of the log: red threes laid out (and the cards that replaced them), the question "may I go
out?" and the partner's answer."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..model.cards import is_red_three
from ..model.messages import Cards, Message, msg
from ..model.requests import Event, Log
from ..rules.judge import known
from ..rules.table_check import table_problems
from .results import Entry
from .table import Table, beyond_deck, last_card, replaced, situation_of


def event_step(log: Log, table: Table, teams: int, index: int, ev: Event) -> Entry:
    """One event: red threes laid out (and their replacements drawn), a question, an answer."""
    seat, at = ev.player, ev.pointer

    def refused(reason: Message, where: str = at) -> Entry:
        return Entry(index, seat, None, reason, event=ev.kind, pointer=where)

    if ev.kind == "answer":
        asker = table.asked  # set by the entry just before: every other entry is refused while it waits
        if asker is None:
            return refused(msg("replay.answer_without_question"))
        if seat == asker or seat % teams != asker % teams:
            return refused(msg("replay.not_partner", seat=seat + 1, asker=asker + 1))
        table.asked, table.partner_answer = None, ev.answer
        return Entry(index, seat, None, event=ev.kind, pointer=at,
                     said=msg(f"replay.said.answer_{ev.answer}", seat=seat + 1))
    if seat != table.seat and (table.started or ev.kind != "lay_out"):
        return refused(msg("replay.out_of_turn", seat=seat + 1, expected=table.seat + 1))
    if table.asked is not None:
        return refused(msg("replay.unanswered"))
    if ev.kind == "ask":
        if table.partner_answer is not None:
            return refused(msg("replay.asked_again"))
        not_now = _may_not_ask(log, table, teams, seat)
        if not_now is not None:
            return refused(not_now)
        table.asked, table.asked_late = seat, table.melded_now
        return Entry(index, seat, None, event=ev.kind, pointer=at, said=msg("replay.said.ask", seat=seat + 1))
    # lay_out
    if known(log.rules, "red_three.laid_out", True) is False:
        return refused(msg("replay.red_threes_kept", variant=log.rules.ref))
    hand = table.hands[seat]
    short = Counter(ev.red_threes) - Counter(hand)
    if short:
        return refused(msg("replay.not_held", cards=Cards(tuple(sorted(short.elements())))), f"{at}/red_threes")
    if len(ev.cards) > table.stock_count:
        return refused(msg("replay.stock_short", count=len(ev.cards), stock=table.stock_count), f"{at}/cards")
    beyond = beyond_deck(log, table, ev.cards, f"{at}/cards")
    if beyond is not None:
        return refused(beyond.message, beyond.pointer)
    for c in ev.red_threes:
        hand.remove(c)
    problem = replaced(log, table, seat, list(ev.cards), None, ev.red_threes)
    if problem is not None:
        hand += ev.red_threes
        return refused(problem, f"{at}/cards")
    table.red_threes[seat % teams] += len(ev.red_threes)
    last_card(log, table, index, seat, ev.cards, at)
    got = tuple(c for c in ev.cards if not is_red_three(c))
    reds = ev.red_threes + tuple(c for c in ev.cards if is_red_three(c))
    return Entry(index, seat, None, event=ev.kind, pointer=at,
                 said=msg("replay.said.lay_out", seat=seat + 1, red_threes=Cards(reds), count=len(reds),
                          cards=Cards(got)))


def _may_not_ask(log: Log, table: Table, teams: int, seat: int) -> Message | None:
    """Why the player may not ask "may I go out?" now -- nobody to ask, or not the moment the text gives the
    question (the engine's own checks of a partner's answer, where they refuse the table; else the replay's
    teams) -- or None."""
    asked = replace(situation_of(log, table, teams, seat), partner_answer="yes",
                    asked_after_melding=table.melded_now)
    for found in table_problems(asked, log.rules):
        if found.pointer.endswith(("/turn/partner_answer", "/turn/asked_after_melding")):
            return found.message
    if not any(s != seat and s % teams == seat % teams for s in range(log.players)):
        return msg("replay.no_partner", players=log.players)
    return None
