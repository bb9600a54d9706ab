"""A seeded random player: plays a whole round by picking among the moves ``legal_moves`` lists.

Used by the self-play tests and the replay benchmark. Each seat in turn: draws (the cards come off a
shuffled stock, a red three laid out and replaced by the next card) or takes the pile when a take is
listed; then melds now and then, goes out when it can, else discards. Only ``legal`` options are picked,
so the log it writes should replay without an illegal move.
"""

from __future__ import annotations

import random

from adjudicator.model.cards import RANKS, SUITS, is_red_three
from adjudicator.model.findings import LEGAL
from adjudicator.options.listing import legal_moves
from adjudicator.options.body import action_body
from adjudicator.input.replay_log import replay_request
from adjudicator.model.requests import Move
from adjudicator.replay import new_table, situation_of, step

MAX_MOVES = 400  # a round that has not ended by then is cut (the log is still replayed)


def deck(rules) -> list[str]:
    return [r + s for r in RANKS for s in SUITS] * rules.value("deck.decks") + ["JK"] * rules.value("deck.jokers")


def play(variants: dict, vid: str, seed: int, players: int | None = None, house_rules=None) -> dict:
    """A round's log (the ``/v1/replay`` body) played by random players from ``seed``."""
    rules = variants[vid]
    rng = random.Random(seed)
    players = players or max(rules.value("players.supported"))
    cards = deck(rules)
    rng.shuffle(cards)
    dealt = rules.value("deal.cards")
    size = dealt.get(players) or dealt.get(str(players)) or next(iter(dealt.values()))
    hands = [[cards.pop() for _ in range(size)] for _ in range(players)]
    pile = [cards.pop()]
    while is_red_three(pile[-1]) or pile[-1] == "JK" or pile[-1][:-1] in ("2", "3"):
        pile.append(cards.pop())  # a natural top card to start (the rest of the pile freezes it, as it may)
    body = {"variant": vid, "players": players, "deal": {"hands": hands, "discard_pile": pile,
                                                         "stock_count": len(cards)}, "moves": []}
    if house_rules:
        body["house_rules"] = house_rules
    log = replay_request({**body, "moves": []}, variants)
    rules = log.rules
    teams = max(1, players // max(1, _team_size(rules, players)))
    table = new_table(log, teams)
    stock = list(cards)
    moves = body["moves"]
    while len(moves) < MAX_MOVES and not table.over:
        seat = table.seat
        situation = situation_of(log, table, teams, seat)
        options = legal_moves(situation, rules)
        pick = _choose(rng, options, table.drew is None)
        if pick is None:
            break
        move = {"player": seat, "action": action_body(pick.action)}
        if pick.action.type == "draw":
            want = _draw_count(rules, players)
            drawn = []
            while stock and sum(1 for c in drawn if not is_red_three(c)) < want:
                drawn.append(stock.pop())
            move["cards"] = drawn
        parsed = Move(seat, pick.action, tuple(move.get("cards") or ()) if "cards" in move else None)
        entry = step(log, table, teams, len(moves), parsed)
        moves.append(move)
        if entry.verdict != LEGAL:
            break  # the test's replay will say which move and why
    return body


def _choose(rng: random.Random, options, before_draw: bool):
    legal = {g.kind: [o for o in g.options if o.verdict == LEGAL] for g in options.groups}
    if before_draw:
        takes = legal.get("take_pile") or []
        if takes and rng.random() < 0.5:
            return rng.choice(takes)
        draws = legal.get("draw") or []
        return draws[0] if draws else (rng.choice(takes) if takes else None)
    if legal.get("go_out"):
        return rng.choice(legal["go_out"])
    melds = legal.get("meld") or []
    if melds and rng.random() < 0.6:
        return rng.choice(melds)
    discards = legal.get("discard") or []
    return rng.choice(discards) if discards else None


def _team_size(rules, players: int) -> int:
    table = rules.value("players.team_size")
    return table.get(players) or table.get(str(players)) or 1


def _draw_count(rules, players: int) -> int:
    table = rules.value("draw.cards")
    return table.get(players) or table.get(str(players)) or next(iter(table.values()))
