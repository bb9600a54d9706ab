"""Seeded random players: whole rounds and whole games played by picking among the moves ``legal_moves`` lists.

Used by the self-play tests and the replay benchmark. The deal comes off a shuffled deck; red threes dealt are
laid out by ``lay_out`` events with the cards that replace them, as each variant's text says (before the first
move where everyone lays them out at once -- no-pagat, sv-classic, sv-gamerules -- and at the player's own turn
in the first round in da-ludo: "I første runde lægger hver spiller eventuelle røde 3'ere ned"). Each seat in
turn: draws (the cards off the stock, a red three laid out and replaced by the next card) or takes the pile
when a take is listed; where it could go out and has a partner, it sometimes asks "may I go out?" and the
partner answers yes or no at random; then it melds now and then, goes out when it can (and its answer lets
it), else discards. A go-out is now and then written as its melds, one move each, and the discard. Only
``legal`` options are picked, so the log it writes should replay without an illegal move.

:func:`play_game` plays rounds until a team wins, carrying the totals (the replay's own scoring of each round:
the opening requirement of the next round follows from them), each round dealt by the next seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from adjudicator.input.parse import action as parse_action
from adjudicator.input.payloads import replay_payload
from adjudicator.input.replay_log import replay_request
from adjudicator.model.cards import RANKS, SUITS, is_red_three
from adjudicator.model.findings import LEGAL
from adjudicator.model.requests import Event, Move
from adjudicator.options.body import action_body
from adjudicator.options.listing import legal_moves
from adjudicator.replay import event_step, new_table, situation_of, step
from adjudicator.rules.judge import known
from adjudicator.rules.possible import UPCARD_KIND

MAX_MOVES = 400  # a round that has not ended by then is cut (the log is still replayed)
MAX_ROUNDS = 40  # a game that has no winner by then is cut
ASK = 0.6  # how often a player who could go out asks first (where it has a partner)
SPLIT = 0.4  # how often a go-out is written as its melds and the discard, one move each
# What the self-play tables settle by house rule where a text leaves it open, so that a round always goes on or
# ends (the replay stops undetermined on these points otherwise) and a round can always be scored: da-ludo's
# twos and second melds (which also keep its listing quick), its black threes' value, and the empty stock.
HOUSE = {
    "da-ludo": {"wild.twos": True, "meld.one_per_rank": True, "card_value.black_three": 5,
                "stock.empty_round_ends": True, "stock.empty_forced_take": False,
                "stock.last_red_three_ends": True},
    "sv-classic": {"stock.last_red_three_ends": True},
    "sv-gamerules": {"stock.empty_round_ends": True, "stock.empty_forced_take": False,
                     "stock.last_red_three_ends": True},
}


def deck(rules) -> list[str]:
    return [r + s for r in RANKS for s in SUITS] * rules.value("deck.decks") + ["JK"] * rules.value("deck.jokers")


@dataclass
class Dealt:
    """A round as the self-play dealt it: the log's body, and the stock in the order it is drawn (last first)."""

    body: dict
    stock: list[str]


def deal(variants: dict, vid: str, rng: random.Random, players: int, house_rules=None, scores=None,
         first_player: int = 0) -> Dealt:
    rules = variants[vid]
    cards = deck(rules)
    rng.shuffle(cards)
    dealt = rules.value("deal.cards")
    size = dealt.get(players) or dealt.get(str(players)) or next(iter(dealt.values()))
    hands = [[cards.pop() for _ in range(size)] for _ in range(players)]
    pile = [cards.pop()]
    turn_more = known(rules, "pile.upcard_turn_more") or []
    while any(UPCARD_KIND[kind](pile[-1]) for kind in turn_more):
        pile.append(cards.pop())  # the text's upcards turn another card over (the rest of the pile freezes it)
    body: dict = {"variant": vid, "players": players,
                  "deal": {"hands": hands, "discard_pile": pile, "stock_count": len(cards)}, "moves": []}
    if first_player:
        body["deal"]["first_player"] = first_player
    if house_rules:
        body["house_rules"] = house_rules
    if scores is not None:
        body["scores"] = list(scores)
    return Dealt(body, cards)


def play(variants: dict, vid: str, seed: int, players: int | None = None, house_rules=None) -> dict:
    """A round's log (the ``/v1/replay`` body) played by random players from ``seed``."""
    rng = random.Random(seed)
    players = players or max(variants[vid].value("players.supported"))
    return play_round(variants, deal(variants, vid, rng, players, house_rules), rng)


def play_round(variants: dict, dealt: Dealt, rng: random.Random) -> dict:
    """Play the dealt round to its end (or :data:`MAX_MOVES`); the body, its moves filled in."""
    body, stock = dealt.body, dealt.stock
    log = replace(replay_request(body, variants), lays_out=True)  # the red threes dealt: laid out by events
    rules, players = log.rules, log.players
    teams = len(log.scores)
    table = new_table(log, teams)
    moves: list[dict] = body["moves"]
    parsed: list = []
    at_once = rules.id != "da-ludo"  # da-ludo: each at the player's own turn in the first round

    def record(*entries) -> bool:
        """Write entries (``(raw, parsed)``) and step each; False when the replay would not go on (the test's
        replay says why). The entries of one turn's laying are written before they are stepped: the replay
        rules them together."""
        nonlocal log
        first = len(parsed)
        for raw, item in entries:
            moves.append(raw)
            parsed.append(item)
        log = replace(log, moves=tuple(parsed))
        for index in range(first, len(parsed)):
            item = parsed[index]
            entry = event_step(log, table, teams, index, item) if isinstance(item, Event) else \
                step(log, table, teams, index, item)
            if entry.verdict != LEGAL or table.stop is not None:
                return False
        return True

    def at() -> str:
        return f"/moves/{len(moves)}"

    def lay_out(seat: int) -> bool:
        reds = [c for c in table.hands[seat] if is_red_three(c)]
        if not reds:
            return True
        drawn = _replacements(stock, len(reds))
        raw = {"player": seat, "event": "lay_out", "red_threes": reds, "cards": drawn}
        return record((raw, Event(seat, "lay_out", tuple(reds), tuple(drawn), pointer=at())))

    if at_once:
        for seat in [(log.first_player + i) % players for i in range(players)]:
            if not lay_out(seat):
                return body
    def just_drew(seat: int) -> bool:
        last = parsed[-1] if parsed else None
        return isinstance(last, Move) and last.player == seat and last.action.type in ("draw", "take_pile")

    while len(moves) < MAX_MOVES and table.end is None and table.stop is None:
        seat = table.seat
        if not at_once and table.drew is None and not lay_out(seat):
            break
        if table.end is not None or table.stop is not None:
            break
        options = legal_moves(situation_of(log, table, teams, seat), rules)
        if just_drew(seat) and table.partner_answer is None and _may_ask(log, table, teams, seat, options, rng):
            partner = next(s for s in range(players) if s != seat and s % teams == seat % teams)
            answer = rng.choice(("yes", "no"))
            if not record(({"player": seat, "event": "ask"}, Event(seat, "ask", pointer=at())),
                          ({"player": partner, "event": "answer", "answer": answer},
                           Event(partner, "answer", answer=answer, pointer=f"/moves/{len(moves) + 1}"))):
                break
            options = legal_moves(situation_of(log, table, teams, seat), rules)
        pick = _choose(rng, options, table.drew is None, table.partner_answer, len(table.hands[seat]),
                       len(table.pile))
        if pick is None:
            break
        action = pick.action
        if action.type == "go_out" and action.discard and (action.melds or action.adds) and rng.random() < SPLIT:
            parts = _split(action)
            if not record(*[({"player": seat, "action": part}, Move(seat, parse_action(part), None, part,
                                                                     f"/moves/{len(moves) + k}"))
                            for k, part in enumerate(parts)]):
                break
            continue
        move = {"player": seat, "action": action_body(action)}
        cards = None
        if action.type == "draw":
            cards = _drawn(stock, _draw_count(rules, players), known(rules, "red_three.replaced", True))
            move["cards"] = cards
        if not record((move, Move(seat, action, None if cards is None else tuple(cards), move["action"], at()))):
            break
    return body


def play_game(variants: dict, vid: str, seed: int, players: int | None = None, house_rules=None,
              max_rounds: int = MAX_ROUNDS) -> dict:
    """A whole game's log (``{variant, players, house_rules, rounds: [{deal, moves}]}``) played from ``seed``
    until a team wins (or ``max_rounds``): each round's totals, as the replay scores it, start the next."""
    rules = variants[vid]
    players = players or max(rules.value("players.supported"))
    rng = random.Random(f"{vid}/{players}/{seed}")  # each table its own games (variants alike play alike)
    house = HOUSE.get(vid) if house_rules is None else house_rules
    game: dict = {"variant": vid, "players": players, "rounds": []}
    if house:
        game["house_rules"] = house
    scores = None
    for r in range(max_rounds):
        dealt = deal(variants, vid, rng, players, house, scores, first_player=r % players)
        body = play_round(variants, dealt, rng)
        game["rounds"].append({"deal": body["deal"], "moves": body["moves"]})
        result = replay_payload(body, variants)
        if result.first_illegal is not None or not result.ended or result.score is None:
            break  # the test's replay says why
        scores = [t.total for t in result.score.teams]
        if result.score.game_over:
            break
    return game


def _has_reds(body: dict) -> bool:
    return any(is_red_three(c) for hand in body["deal"]["hands"] for c in hand)


def _replacements(stock: list[str], count: int) -> list[str]:
    """Cards off the stock for ``count`` red threes: each red three among them laid out and replaced in turn."""
    drawn: list[str] = []
    while stock and count:
        card = stock.pop()
        drawn.append(card)
        count += 0 if is_red_three(card) else -1
    return drawn


def _drawn(stock: list[str], want: int, replaced: bool) -> list[str]:
    drawn: list[str] = []
    while stock and (sum(1 for c in drawn if not is_red_three(c)) if replaced else len(drawn)) < want:
        drawn.append(stock.pop())
    return drawn


def _may_ask(log, table, teams: int, seat: int, options, rng: random.Random) -> bool:
    """Whether the player asks now: right after the draw or the take, when a go-out is listed and there is a
    partner to ask."""
    if len(table.hands[seat]) < 2 or not any(s != seat and s % teams == seat % teams for s in range(log.players)):
        return False  # with one card, a "no" would leave no way to end the turn: nobody asks then
    return bool(_legal(options.group("go_out"))) and rng.random() < ASK


def _legal(group) -> list[int]:
    """The indexes of a group's legal options (read from its verdicts: an option is made only when picked)."""
    if group is None:
        return []
    verdicts = getattr(group.options, "verdicts", None)
    if verdicts is None:
        verdicts = [o.verdict for o in group.options]
    return [i for i, v in enumerate(verdicts) if v == LEGAL]


def _pick(rng: random.Random, group, fits=lambda option: True):
    """A legal option of the group, at random, that ``fits``; None where there is none."""
    found = _legal(group)
    rng.shuffle(found)
    return next((o for o in (group.options[i] for i in found) if fits(o)), None)


def _choose(rng: random.Random, options, before_draw: bool, answer: str | None, hand_size: int, pile_size: int):
    if before_draw:
        # a take that leaves one card leaves only a discard that goes out, which may not be allowed: none is taken
        take = _pick(rng, options.group("take_pile"), lambda o: hand_size - len(o.action.with_cards) + pile_size
                     - 1 - len(o.action.laid_cards()) > 1) if rng.random() < 0.5 else None
        return take or _pick(rng, options.group("draw")) or _pick(
            rng, options.group("take_pile"), lambda o: hand_size - len(o.action.with_cards) + pile_size - 1
            - len(o.action.laid_cards()) > 1)
    go_out = _pick(rng, options.group("go_out"))
    if go_out is not None:
        return go_out
    if rng.random() < 0.6:
        # after a binding no, a meld that leaves one card leaves no discard but going out: none is made
        meld = _pick(rng, options.group("meld"),
                     lambda o: answer != "no" or hand_size - len(o.action.laid_cards()) > 1)
        if meld is not None:
            return meld
    return _pick(rng, options.group("discard"))


def _split(action) -> list[dict]:
    """A go-out with a discard written as one move per meld and per addition, then the discard."""
    parts: list[dict] = [{"type": "meld", "melds": [list(m)]} for m in action.melds]
    parts += [{"type": "meld", "add": [body]} for body in action_body(action).get("add", [])]
    return parts + [{"type": "discard", "card": action.discard}]


def _draw_count(rules, players: int) -> int:
    table = rules.value("draw.cards")
    return table.get(players) or table.get(str(players)) or next(iter(table.values()))
