"""A whole round replayed move by move under one variant; the first illegal move is flagged with its ruling.

:func:`replay` takes a log -- the deal (hands in seat order, the discard pile,
the stock's count) and the moves, each ``{player, action, cards?}`` with the
action exactly as ``/v1/adjudicate`` takes it and, for a draw, the cards it
brought -- and plays it on a table: hands, pile, each team's melds and red
threes, who has drawn, the first time round. Each move is ruled by the engine
(:func:`adjudicator.engine.rule`) in the situation the table stands in, then
applied. The replay stops at the first move the engine finds illegal, or that
the log cannot hold (a card the player does not have, a move out of turn, a
draw without its cards): that move is ``first_illegal``, with its ruling or
its reason. A round that ends (a player goes out) is scored as ``/v1/score``
scores it, from the table as it lies.

Players take turns in seat order from seat 0; seats ``i`` and ``i + teams``
are one team (seats 0 and 2 with four players). Red threes are laid out as the
variants' texts say: drawn from the stock, each is laid out and replaced by the
next card of the draw's ``cards``; taken with the pile, laid out without
replacement; in a dealt hand, laid out before the first move (the deal gives
hands as dealt, before their replacements, which are then not in the log).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import is_red_three
from .engine import rule
from .errors import AdjudicatorError, ImpossibleInput, MalformedRequest, issue
from .findings import ILLEGAL, Ruling
from .judge import Judge, MissingFact, NotStated
from .melds import sure_rank
from .messages import Cards, Message, msg
from .parse import action as parse_action, card_list, players as parse_players, rules as parse_rules
from .situation import Side, Situation
from .turn import by_players
from .scoring import score_payload
from .variants import Variant


@dataclass(frozen=True)
class Move:
    """One move of the log: the seat, the action, and what a draw brought from the stock."""

    player: int
    action: Action
    cards: tuple[str, ...] | None = None
    body: dict = field(default_factory=dict, compare=False)  # the action's JSON, to replay or quote


@dataclass(frozen=True)
class Log:
    """A parsed log: the rules (house rules applied), the players, the deal and the moves."""

    rules: Variant
    players: int
    scores: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    stock_count: int
    moves: tuple[Move, ...]
    payload: dict = field(default_factory=dict, compare=False)


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
    melded: list[bool]  # by team: has it opened
    seat: int = 0
    drew: str | None = None
    from_pile: tuple[str, ...] = ()
    turns: int = 0  # turns completed
    went_out: int | None = None  # the seat that went out
    concealed: bool = False


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
# Reading the log


def replay_request(payload: Any, variants: dict[str, Variant]) -> Log:
    """Parse a log; a malformed one raises :class:`MalformedRequest` with pointers to its faults."""
    if not isinstance(payload, dict):
        raise MalformedRequest([issue("", "error.replay_shape")])
    rules = parse_rules(variants, payload)
    faults: list = []
    count = payload.get("players")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool)):
        raise MalformedRequest([issue("/players", "error.replay_shape")])
    players = parse_players(rules, count, "/players", required=True)
    deal = payload.get("deal")
    if not isinstance(deal, dict):
        raise MalformedRequest([issue("/deal", "error.replay_shape")])
    hands_raw = deal.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != players or \
            not all(isinstance(h, list) for h in hands_raw):
        raise MalformedRequest([issue("/deal/hands", "error.replay_hands", players=players)])
    hands = tuple(card_list(h, f"/deal/hands/{i}", faults) for i, h in enumerate(hands_raw))
    pile_raw = deal.get("discard_pile", [])
    if not isinstance(pile_raw, list):
        faults.append(issue("/deal/discard_pile", "error.replay_shape"))
        pile_raw = []
    pile = card_list(pile_raw, "/deal/discard_pile", faults)
    stock = deal.get("stock_count")
    if not isinstance(stock, int) or isinstance(stock, bool) or stock < 0:
        faults.append(issue("/deal/stock_count", "error.replay_shape"))
        stock = 0
    teams = _teams(rules, players)
    scores = payload.get("scores")
    if scores is None:
        scores = [0] * teams
    elif not isinstance(scores, list) or len(scores) != teams or \
            not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        faults.append(issue("/scores", "error.replay_scores", teams=teams))
        scores = [0] * teams
    moves_raw = payload.get("moves")
    if not isinstance(moves_raw, list):
        raise MalformedRequest(faults + [issue("/moves", "error.replay_shape")])
    moves = []
    for i, raw in enumerate(moves_raw):
        at = f"/moves/{i}"
        if not isinstance(raw, dict) or not isinstance(raw.get("action"), dict):
            faults.append(issue(at, "error.replay_shape"))
            continue
        seat = raw.get("player")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            faults.append(issue(f"{at}/player", "error.replay_seat", players=players))
            continue
        try:
            act = parse_action(raw["action"], f"{at}/action")
        except (MalformedRequest, ImpossibleInput) as e:
            faults += list(e.issues)
            continue
        cards = raw.get("cards")
        if cards is not None:
            if not isinstance(cards, list):
                faults.append(issue(f"{at}/cards", "error.replay_shape"))
                continue
            cards = card_list(cards, f"{at}/cards", faults)
        moves.append(Move(seat, act, cards, raw["action"]))
    if faults:
        raise MalformedRequest(faults)
    return Log(rules, players, tuple(scores), hands, pile, stock, tuple(moves), payload)


def _teams(rules: Variant, players: int) -> int:
    try:
        size = by_players(Judge(rules), Situation(players=players), "players.team_size")
    except (MissingFact, NotStated):
        size = 1
    return max(1, players // max(1, size))


# ----------------------------------------------------------------------------------------------
# Replaying


def replay(log: Log, variants: dict[str, Variant] | None = None) -> Replay:
    """Rule and apply each move of ``log`` in turn, stopping at the first illegal one."""
    teams = _teams(log.rules, log.players)
    table = Table([list(h) for h in log.hands], list(log.pile), log.stock_count,
                  [[] for _ in range(teams)], [0] * teams, [False] * teams)
    for seat, hand in enumerate(table.hands):  # red threes dealt are laid out at once
        reds = [c for c in hand if is_red_three(c)]
        for c in reds:
            hand.remove(c)
        table.red_threes[seat % teams] += len(reds)
    entries: list[Entry] = []
    first = None
    for index, move in enumerate(log.moves):
        if table.went_out is not None:
            first = Entry(index, move.player, None, msg("replay.round_over"))
            break
        entry = step(log, table, teams, index, move)
        entries.append(entry)
        if entry.verdict == ILLEGAL:
            first = entry
            break
    ended = table.went_out is not None
    request = _score_request(log, table, teams) if ended else None
    sheet = error = None
    if request is not None and variants is not None:
        try:
            sheet = score_payload(request, variants)
        except AdjudicatorError as e:  # a card value the text does not give, ...: /v1/score says so too
            error = e
    return Replay(log.rules.id, tuple(entries), first, table, teams, ended, request, sheet, error)


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
        hand=tuple(table.hands[seat]), has_melded=table.melded[team], drew=table.drew,
        cards_from_pile=table.from_pile)


def step(log: Log, table: Table, teams: int, index: int, move: Move) -> Entry:
    act, seat = move.action, move.player
    if seat != table.seat:
        return Entry(index, seat, None, msg("replay.out_of_turn", seat=seat + 1, expected=table.seat + 1))
    hand = table.hands[seat]
    short = Counter(act.hand_cards()) - Counter(hand)
    if short:
        return Entry(index, seat, None, msg("replay.not_held", cards=Cards(tuple(sorted(short.elements())))))
    if act.type == "draw":
        if move.cards is None:
            return Entry(index, seat, None, msg("replay.draw_without_cards"))
        if len(move.cards) > table.stock_count:
            return Entry(index, seat, None, msg("replay.stock_short", count=len(move.cards),
                                               stock=table.stock_count))
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


def _apply(log: Log, table: Table, teams: int, seat: int, move: Move, ruling: Ruling) -> Message | None:
    act, hand, team = move.action, table.hands[seat], seat % teams
    if act.type == "draw":
        want = _draw_count(log, seat)
        cards = list(move.cards)
        got = [c for c in cards if not is_red_three(c)]
        reds = len(cards) - len(got)
        if want is not None and (len(got) != want and not (len(cards) == table.stock_count and len(got) < want)):
            return msg("replay.draw_count", count=len(cards), wanted=want, reds=reds)
        hand += got
        table.red_threes[team] += reds
        table.stock_count -= len(cards)
        table.drew, table.from_pile = "stock", ()
        return None
    if act.type == "take_pile":
        top, rest = table.pile[-1], table.pile[:-1]
        for c in act.with_cards:
            hand.remove(c)
        group = [top, *act.with_cards]
        _lay(table, team, [group], [])
        _lay(table, team, act.melds, act.adds, hand)
        reds = [c for c in rest if is_red_three(c)]
        taken = [c for c in rest if not is_red_three(c)]
        table.red_threes[team] += len(reds)
        hand += taken
        table.pile = []
        table.drew, table.from_pile = "pile", tuple(taken)
        table.melded[team] = True
        return None
    if act.type in ("meld", "go_out"):
        _lay(table, team, act.melds, act.adds, hand)
        if act.melds or act.adds:
            table.melded[team] = True
        if act.type == "go_out":
            if act.discard:
                hand.remove(act.discard)
                table.pile.append(act.discard)
            table.went_out = seat
            table.concealed = any(c.key == "consequence.concealed" for c in ruling.consequences)
        return None
    # discard
    hand.remove(act.discard)
    table.pile.append(act.discard)
    if not hand:
        table.went_out = seat
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
