"""Reading a game's log (``POST /v1/replay``): its shape, then what the shape cannot say.

The parser of :mod:`adjudicator.replay`'s input, at the edge with the other parsers: the
JSON log in, a typed :class:`~adjudicator.model.requests.Log` out, or the typed errors with
pointers to the log's faults.
"""

from __future__ import annotations

from typing import Any

from ..model.errors import ImpossibleInput, MalformedRequest, issue
from ..model.requests import Log, Move
from ..rules.table_check import deck_issues
from ..rules.turn import team_count
from ..variants import Variant
from . import shape
from .parse import action as parse_action, card_list, required_players, rules as parse_rules


def replay_request(payload: Any, variants: dict[str, Variant]) -> Log:
    """Parse a log: its shape (:func:`adjudicator.input.shape.check`), then what the shape cannot say (a hand per
    player, a score per team, seats at this table, card codes): a malformed log raises
    :class:`MalformedRequest`, one no table can hold :class:`ImpossibleInput`, with pointers to its faults."""
    payload = shape.check(payload, "replay", variants)
    rules = parse_rules(variants, payload)
    players = required_players(rules, payload.get("players"), "/players")
    deal = payload["deal"]
    faults: list = []
    if len(deal["hands"]) != players:
        faults.append(issue("/deal/hands", "error.replay_hands", players=players))
    hands = tuple(card_list(h, f"/deal/hands/{i}", faults) for i, h in enumerate(deal["hands"]))
    pile = card_list(deal.get("discard_pile") or [], "/deal/discard_pile", faults)
    if not faults:
        faults += deal_issues(rules, hands, pile, deal["stock_count"])
    teams = team_count(rules, players)
    scores = payload.get("scores")
    if scores is None:
        scores = [0] * teams
    elif len(scores) != teams:
        faults.append(issue("/scores", "error.replay_scores", teams=teams))
    moves, malformed = [], False
    for i, raw in enumerate(payload["moves"]):
        at = f"/moves/{i}"
        if raw["player"] >= players:
            faults.append(issue(f"{at}/player", "error.replay_seat", players=players))
            continue
        try:
            act = parse_action(raw["action"], f"{at}/action")
        except (MalformedRequest, ImpossibleInput) as e:
            faults += list(e.issues)
            malformed = malformed or isinstance(e, MalformedRequest)
            continue
        cards = raw.get("cards")
        if cards is not None:
            cards = card_list(cards, f"{at}/cards", faults)
        moves.append(Move(raw["player"], act, cards, raw["action"]))
    if faults:  # a log of the right shape that no table can hold is impossible, not malformed
        raise (MalformedRequest if malformed else ImpossibleInput)(faults)
    return Log(rules, players, tuple(scores), hands, pile, deal["stock_count"], tuple(moves), payload)


def deal_issues(rules: Variant, hands, pile, stock_count: int) -> list:
    """What no deck of the variant can deal: more copies of a card than it holds (the table check's own count,
    :func:`~adjudicator.rules.table_check.deck_issues`, pointing at the copy one too many, such as
    ``/deal/hands/1/3``), or more cards dealt and left in the stock than the deck has."""
    shown = [c for hand in hands for c in hand] + list(pile)

    def located():
        return [(c, f"/deal/hands/{i}/{j}") for i, hand in enumerate(hands) for j, c in enumerate(hand)] + \
            [(c, f"/deal/discard_pile/{j}") for j, c in enumerate(pile)]
    issues = deck_issues(rules, shown, located, [])
    if len(shown) + stock_count > rules.deck_size:
        issues.append(issue("/deal/stock_count", "error.more_than_deck", variant=rules.ref, limit=rules.deck_size))
    return issues
