"""Reading a game's log (``POST /v1/replay``): its shape, then what the shape cannot say.

The parser of :mod:`adjudicator.replay`'s input, at the edge with the other parsers: the
JSON log in -- one round (``deal``, ``moves``) or a whole game (``rounds``, each with its
deal and moves) -- a typed :class:`~adjudicator.model.requests.Log` or
:class:`~adjudicator.model.requests.GameLog` out, or the typed errors with pointers to the
log's faults. Every pointer is a place in the log (``/deal/discard_pile/2``,
``/rounds/1/moves/17/cards/0``): a deal the variant's deck or rules cannot deal is refused
here, at its cards, never at a situation the request does not hold.
"""

from __future__ import annotations

from typing import Any

from ..model.cards import is_red_three
from ..model.errors import ImpossibleInput, Issue, MalformedRequest, issue
from ..model.messages import Items, Word
from ..model.requests import ACTION_MEMBERS, EVENT_KINDS, EVENT_MEMBERS, PARTNER_ANSWERS, Event, GameLog, Log, Move
from ..model.situation import Situation
from ..rules.table_check import assess, deck_issues
from ..rules.turn import team_count
from ..variants import Variant
from . import shape
from .parse import action as parse_action, card_list, required_players, rules as parse_rules


def replay_request(payload: Any, variants: dict[str, Variant]) -> Log | GameLog:
    """Parse a log: its shape (:func:`adjudicator.input.shape.check`), then what the shape cannot say (one form,
    a hand per player, a score per team, seats at this table, card codes, what each entry needs, a deal the
    deck and the rules can deal): a malformed log raises :class:`MalformedRequest`, one no table can hold
    :class:`ImpossibleInput`, with pointers to its faults."""
    payload = shape.check(payload, "replay", variants)
    rules = parse_rules(variants, payload)
    players = required_players(rules, payload.get("players"), "/players")
    teams = team_count(rules, players)
    faults: list[Issue] = []
    game = "rounds" in payload
    if game and ("deal" in payload or "moves" in payload):
        raise MalformedRequest([issue("/rounds", "error.replay_form")])
    if not game:
        missing = [issue(f"/{name}", "shape.required") for name in ("deal", "moves") if name not in payload]
        if missing:
            raise MalformedRequest(missing)
    scores = payload.get("scores")
    if scores is None:
        scores = [0] * teams
    elif len(scores) != teams:
        faults.append(issue("/scores", "error.replay_scores", teams=teams))
    malformed: list[bool] = [False]
    if game:
        rounds = tuple(_round(rules, players, tuple(scores), raw, f"/rounds/{r}", payload, faults, malformed)
                       for r, raw in enumerate(payload["rounds"]))
    else:
        rounds = (_round(rules, players, tuple(scores), payload, "", payload, faults, malformed),)
    if faults:  # a log of the right shape that no table can hold is impossible, not malformed
        raise (MalformedRequest if malformed[0] else ImpossibleInput)(faults)
    if game:
        return GameLog(rules, players, tuple(scores), rounds, payload)
    return rounds[0]


def _round(rules: Variant, players: int, scores: tuple[int, ...], raw: dict, base: str, payload: dict,
           faults: list[Issue], malformed: list[bool]) -> Log:
    """One round's deal and moves, its faults added to ``faults`` (pointers under ``base``)."""
    deal = raw["deal"]
    at = f"{base}/deal"
    own: list[Issue] = []
    if len(deal["hands"]) != players:
        own.append(issue(f"{at}/hands", "error.replay_hands", players=players))
    hands = tuple(card_list(h, f"{at}/hands/{i}", own) for i, h in enumerate(deal["hands"]))
    pile = card_list(deal.get("discard_pile") or [], f"{at}/discard_pile", own)
    first = deal.get("first_player", 0)
    if first >= players:
        own.append(issue(f"{at}/first_player", "error.replay_seat", players=players))
    if not own:
        own += deal_issues(rules, hands, pile, deal["stock_count"], at)
    faults += own
    moves: list[Move | Event] = []
    for i, entry in enumerate(raw["moves"]):
        item = _entry(entry, f"{base}/moves/{i}", players, faults, malformed)
        if item is not None:
            moves.append(item)
    lays_out = any(isinstance(m, Event) and m.kind == "lay_out" for m in moves)
    return Log(rules, players, scores, hands, pile, deal["stock_count"], tuple(moves), payload, first, lays_out, base)


def _entry(raw: dict, at: str, players: int, faults: list[Issue], malformed: list[bool]) -> Move | Event | None:
    """One entry of the log: an action (``action``, ``cards`` for a draw) or an event (``event`` and what that
    kind says), or None with its faults added."""
    seat = raw["player"]
    if seat >= players:
        faults.append(issue(f"{at}/player", "error.replay_seat", players=players))
        return None
    kind = raw.get("event")
    if kind is None:
        if "action" not in raw:
            faults.append(issue(f"{at}/action", "shape.required"))
            malformed[0] = True
            return None
        stray = [name for name in raw if name not in ACTION_MEMBERS]
        if stray:
            faults += [issue(f"{at}/{name}", "error.replay_member") for name in stray]
            malformed[0] = True
            return None
        try:
            act = parse_action(raw["action"], f"{at}/action")
        except (MalformedRequest, ImpossibleInput) as e:
            faults += list(e.issues)
            malformed[0] = malformed[0] or isinstance(e, MalformedRequest)
            return None
        cards = raw.get("cards")
        drawn = None if cards is None else card_list(cards, f"{at}/cards", faults)
        return Move(seat, act, drawn, raw["action"], at)
    if kind not in EVENT_KINDS:
        faults.append(issue(f"{at}/event", "error.replay_event",
                            kinds=Items(tuple(Word(k) for k in EVENT_KINDS), ", ")))
        malformed[0] = True
        return None
    stray = [name for name in raw if name not in EVENT_MEMBERS[kind]]
    if stray:
        faults += [issue(f"{at}/{name}", "error.replay_member") for name in stray]
        malformed[0] = True
        return None
    if kind == "answer":
        answer = raw.get("answer")
        if answer not in PARTNER_ANSWERS:
            faults.append(issue(f"{at}/answer", "error.replay_answer"))
            malformed[0] = True
            return None
        return Event(seat, kind, answer=answer, pointer=at)
    if kind == "ask":
        return Event(seat, kind, pointer=at)
    if not raw.get("red_threes"):
        faults.append(issue(f"{at}/red_threes", "error.replay_red_threes_none"))
        malformed[0] = True
        return None
    count = len(faults)
    reds = card_list(raw["red_threes"], f"{at}/red_threes", faults)
    drawn = card_list(raw.get("cards") or [], f"{at}/cards", faults)
    if len(faults) > count:
        return None
    faults += [issue(f"{at}/red_threes/{j}", "error.replay_not_red_three") for j, c in enumerate(reds)
               if not is_red_three(c)]
    return Event(seat, kind, reds, drawn, pointer=at)


def deal_issues(rules: Variant, hands, pile, stock_count: int, at: str = "/deal") -> list:
    """What no deck of the variant can deal, and what its rules say cannot lie on a table as dealt: more copies
    of a card than the deck holds (the table check's own count,
    :func:`~adjudicator.rules.table_check.deck_issues`, pointing at the copy one too many, such as
    ``/deal/hands/1/3``), more cards dealt and left in the stock than the deck has, a stock larger than the deal
    leaves or a red three in the pile where only an upcard could lie -- refused only where a stated rule (or every
    reading) rules the deal out, as :func:`~adjudicator.rules.table_check.assess` decides for any table, pointing
    into the deal: ``/deal/discard_pile/2``; a deal only some readings rule out is replayed, each move's ruling
    saying so."""
    shown = [c for hand in hands for c in hand] + list(pile)

    def located():
        return [(c, f"{at}/hands/{i}/{j}") for i, hand in enumerate(hands) for j, c in enumerate(hand)] + \
            [(c, f"{at}/discard_pile/{j}") for j, c in enumerate(pile)]
    issues = deck_issues(rules, shown, located, [])
    if len(shown) + stock_count > rules.deck_size:
        issues.append(issue(f"{at}/stock_count", "error.more_than_deck", variant=rules.ref, limit=rules.deck_size))
    if issues:
        return issues
    dealt = Situation(players=len(hands), stock_count=stock_count, pile=tuple(pile),
                      hand_count=sum(len(h) for h in hands), base=at)
    return list(assess(rules, dealt).refused)
