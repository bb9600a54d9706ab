"""A whole round replayed move by move under one variant; the first illegal move is flagged with its ruling.

:func:`replay` takes a log (:class:`~adjudicator.model.requests.Log`, read by
:func:`adjudicator.input.replay_log.replay_request`) -- the deal (hands in seat order, the discard pile,
the stock's count) and the moves, each ``{player, action, cards?}`` with the
action exactly as ``/v1/adjudicate`` takes it and, for a draw, the cards it
brought -- and plays it on a table: hands, pile, each team's melds and red
threes, who has drawn, the first time round. Each move is ruled by the engine
(:func:`adjudicator.rules.engine.rule`) in the situation the table stands in, then
applied. The replay stops at the first move the engine finds illegal, or that
the log cannot hold (a card the player does not have, a move out of turn, a
draw without its cards, a draw bringing a card the deck cannot hold -- a third
K♣ of two decks, counting every card the round has shown): that move is
``first_illegal``, with its ruling or its reason. A deal no deck can deal is a
malformed log, refused before the replay (:func:`adjudicator.input.replay_log.deal_issues`). A round that ends (a player goes out) is scored as ``/v1/score``
scores it, from the table as it lies.

Players take turns in seat order from seat 0; seats ``i`` and ``i + teams``
are one team (seats 0 and 2 with four players). Red threes are laid out as the
variants' texts say (``red_three.laid_out``, ``red_three.replaced``): drawn
from the stock, each is laid out and, where the text replaces it, replaced by
the next card of the draw's ``cards``; taken with the pile, laid out without
replacement; in a dealt hand, laid out before the first move (the deal gives
hands as dealt, before their replacements, which are then not in the log).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .model.cards import is_red_three
from .model.errors import AdjudicatorError
from .model.findings import ILLEGAL, Ruling
from .model.messages import Cards, Message, msg
from .model.requests import Log, Move
from .model.situation import Side, Situation

from .rules.engine import rule
from .rules.table_check import deck_issues
from .rules.judge import known
from .rules.melds import sure_rank
from .rules.judge import Judge, MissingFact, NotStated
from .rules.turn import by_players, team_count


@dataclass(frozen=True)
class Entry:
    """One move ruled: its index in the log, the seat, and the ruling (or, for a move the log cannot hold,
    the ``reason``)."""

    index: int
    player: int
    ruling: Ruling | None
    reason: Message | None = None

    @property
    def verdict(self) -> str:
        return ILLEGAL if self.ruling is None or self.reason is not None else self.ruling.verdict


@dataclass
class Table:
    """The round as it lies: hands by seat, the pile, the stock, each team's melds and red threes."""

    hands: list[list[str]]
    pile: list[str]
    stock_count: int
    melds: list[list[list[str]]]
    red_threes: list[int]
    melded: list[bool]  # by seat: has the player melded this round
    seat: int = 0
    drew: str | None = None
    from_pile: tuple[str, ...] = ()
    turns: int = 0  # turns completed
    went_out: int | None = None  # the seat that went out
    concealed: bool = False
    over: bool = False  # the round has ended (a player went out, or the stock ran out)


@dataclass(frozen=True)
class Replay:
    """What the replay found: an entry per move ruled, the first illegal one (or None), the table after the
    last legal move, and the round's score request and sheet when it ended."""

    variant: str
    entries: tuple[Entry, ...]
    first_illegal: Entry | None
    table: Table
    teams: int
    ended: bool
    score_request: dict | None
    score: Any = None
    score_error: AdjudicatorError | None = None  # what /v1/score answers instead, where it cannot score the round


# ----------------------------------------------------------------------------------------------
# Replaying


def replay(log: Log) -> Replay:
    """Rule and apply each move of ``log`` in turn, stopping at the first illegal one. A round that ended
    carries the ``/v1/score`` body of its table (``score_request``); :func:`adjudicator.input.payloads.replay_payload`
    also scores it, as ``/v1/score`` does."""
    teams = team_count(log.rules, log.players)
    table = new_table(log, teams)
    entries: list[Entry] = []
    first = None
    for index, move in enumerate(log.moves):
        if table.over:
            first = Entry(index, move.player, None, msg("replay.round_over"))
            entries.append(first)
            break
        entry = step(log, table, teams, index, move)
        entries.append(entry)
        if entry.verdict == ILLEGAL:
            first = entry
            break
    ended = table.over
    request = _score_request(log, table, teams) if ended else None
    return Replay(log.rules.id, tuple(entries), first, table, teams, ended, request)


def new_table(log: Log, teams: int) -> Table:
    """The table as dealt, the red threes of the dealt hands laid out."""
    table = Table([list(h) for h in log.hands], list(log.pile), log.stock_count,
                  [[] for _ in range(teams)], [0] * teams, [False] * log.players)
    for seat, hand in enumerate(table.hands):
        reds = [c for c in hand if is_red_three(c)]
        for c in reds:
            hand.remove(c)
        table.red_threes[seat % teams] += len(reds)
    return table


def situation_of(log: Log, table: Table, teams: int, seat: int) -> Situation:
    """The situation of the player at ``seat``, as the table lies."""
    team = seat % teams
    others = [t for t in range(teams) if t != team]
    opponent = others[0] if others else team
    return Situation(
        players=log.players, first_round=table.turns < log.players, stock_count=table.stock_count,
        pile=tuple(table.pile),
        team=Side(log.scores[team], tuple(tuple(m) for m in table.melds[team]), table.red_threes[team]),
        opponents=Side(log.scores[opponent], tuple(tuple(m) for m in table.melds[opponent]),
                       table.red_threes[opponent]),
        hand=tuple(table.hands[seat]), has_melded=table.melded[seat], drew=table.drew,
        cards_from_pile=_still_held(table.from_pile, table.hands[seat]))


def _still_held(from_pile, hand) -> tuple[str, ...]:
    """The cards taken from the pile this turn that are still in the hand (those already laid lie on the table,
    where the take's own ruling counted them)."""
    left = Counter(hand)
    kept = []
    for card in from_pile:
        if left[card]:
            left[card] -= 1
            kept.append(card)
    return tuple(kept)


def step(log: Log, table: Table, teams: int, index: int, move: Move) -> Entry:
    act, seat = move.action, move.player
    if seat != table.seat:
        return Entry(index, seat, None, msg("replay.out_of_turn", seat=seat + 1, expected=table.seat + 1))
    hand = table.hands[seat]
    short = Counter(act.hand_cards()) - Counter(hand)
    if act.type == "take_pile" and not short:  # what a take lays comes from the hand or the pile below the top
        short = Counter(act.laid_cards()) - (Counter(hand) - Counter(act.with_cards) + Counter(table.pile[:-1]))
    if short:
        return Entry(index, seat, None, msg("replay.not_held", cards=Cards(tuple(sorted(short.elements())))))
    if act.type == "draw":
        if move.cards is None:
            return Entry(index, seat, None, msg("replay.draw_without_cards"))
        if len(move.cards) > table.stock_count:
            return Entry(index, seat, None, msg("replay.stock_short", count=len(move.cards),
                                               stock=table.stock_count))
        beyond = _beyond_deck(log, table, index, move.cards)
        if beyond is not None:
            return Entry(index, seat, None, beyond)
    elif move.cards:
        return Entry(index, seat, None, msg("replay.cards_not_drawn"))
    situation = situation_of(log, table, teams, seat)
    ruling = rule(situation, act, log.rules)
    if ruling.verdict == ILLEGAL:
        return Entry(index, seat, ruling)
    problem = _apply(log, table, teams, seat, move, ruling)
    if problem is not None:
        return Entry(index, seat, ruling, problem)  # the move itself is allowed; the log's cards are not
    return Entry(index, seat, ruling)


def _beyond_deck(log: Log, table: Table, index: int, drawn) -> Message | None:
    """Why the cards a draw brings cannot exist -- with every card the round has shown (hands, pile, melds,
    red threes laid out) the deck would hold one copy too many -- or None. The table check's own count
    (:func:`~adjudicator.rules.table_check.deck_issues`): the copy it finds one too many is a drawn one."""
    known = [c for hand in table.hands for c in hand] + table.pile + \
        [c for melds in table.melds for meld in melds for c in meld]
    issues = deck_issues(log.rules, known + list(drawn),
                         lambda: [(c, "") for c in known] + [(c, f"/moves/{index}/cards/{j}")
                                                            for j, c in enumerate(drawn)],
                         [(n, "") for n in table.red_threes])
    return issues[0].message if issues else None


def _apply(log: Log, table: Table, teams: int, seat: int, move: Move, ruling: Ruling) -> Message | None:
    act, hand, team = move.action, table.hands[seat], seat % teams
    if act.type == "draw":
        want = _draw_count(log, seat)
        cards = list(move.cards)
        laid_out = known(log.rules, "red_three.laid_out", True) is not False
        got = [c for c in cards if not (laid_out and is_red_three(c))]
        reds = len(cards) - len(got)
        replaced = known(log.rules, "red_three.replaced")  # None: the text leaves it open, either count fits
        fits = {True: len(got) == want, False: len(cards) == want, None: want in (len(got), len(cards))}
        if want is not None and not fits[replaced] and not (len(cards) == table.stock_count and len(got) < want):
            return msg("replay.draw_count", count=len(cards), wanted=want, reds=reds)
        hand += got
        table.red_threes[team] += reds
        table.stock_count -= len(cards)
        table.drew, table.from_pile = "stock", ()
        if any(c.key == "consequence.round_ends" for c in ruling.consequences):
            table.over = True
        return None
    if act.type == "take_pile":
        top, rest = table.pile[-1], table.pile[:-1]
        for c in act.with_cards:
            hand.remove(c)
        group = [top, *act.with_cards]
        _lay(table, team, [group], [])
        reds = [c for c in rest if is_red_three(c)]
        taken = [c for c in rest if not is_red_three(c)]
        table.red_threes[team] += len(reds)
        hand += taken
        _lay(table, team, act.melds, act.adds, hand)
        table.pile = []
        table.drew, table.from_pile = "pile", tuple(taken)
        table.melded[seat] = True
        return None
    if act.type in ("meld", "go_out"):
        _lay(table, team, act.melds, act.adds, hand)
        if act.melds or act.adds:
            table.melded[seat] = True
        if act.type == "go_out":
            if act.discard:
                hand.remove(act.discard)
                table.pile.append(act.discard)
            table.went_out, table.over = seat, True
            table.concealed = any(c.key == "consequence.concealed" for c in ruling.consequences)
        return None
    # discard
    hand.remove(act.discard)
    table.pile.append(act.discard)
    if not hand:
        table.went_out, table.over = seat, True
    table.seat = (seat + 1) % log.players
    table.drew, table.from_pile = None, ()
    table.turns += 1
    return None


def _lay(table: Table, team: int, melds, adds, hand: list[str] | None = None) -> None:
    """New melds and additions onto the team's melds (of the addition's rank, as the engine finds it)."""
    for meld in melds:
        if hand is not None:
            for c in meld:
                hand.remove(c)
        rank = sure_rank(meld)
        target = next((m for m in table.melds[team] if rank and sure_rank(m) == rank), None)
        if target is not None and hand is None:  # the pile's top (and its cards) onto the meld of its rank
            target += list(meld)
        else:
            table.melds[team].append(list(meld))
    for add in adds:
        if hand is not None:
            for c in add.cards:
                hand.remove(c)
        rank = add.to or sure_rank(add.cards)
        target = next((m for m in reversed(table.melds[team]) if sure_rank(m) == rank), None)
        if target is None:
            table.melds[team].append(list(add.cards))
        else:
            target += list(add.cards)


def _draw_count(log: Log, seat: int) -> int | None:
    try:
        return by_players(Judge(log.rules), Situation(players=log.players), "draw.cards")
    except (MissingFact, NotStated):
        return None


def _score_request(log: Log, table: Table, teams: int) -> dict:
    """The ``/v1/score`` body for the round as it ended."""
    out = []
    for t in range(teams):
        seats = [s for s in range(log.players) if s % teams == t]
        went_out = table.went_out in seats
        out.append({"name": f"team {t + 1}", "score_before": log.scores[t],
                    "melds": [list(m) for m in table.melds[t]],
                    "hand": [c for s in seats for c in table.hands[s]],
                    "red_threes": table.red_threes[t], "went_out": went_out,
                    "concealed": went_out and table.concealed})
    body = {"variant": log.rules.id, "players": log.players, "teams": out}
    house = log.payload.get("house_rules")
    if house:
        body["house_rules"] = house
    return body
