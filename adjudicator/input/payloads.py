"""Request JSON in, an answer out, in one call: the parser and the engine put together.

Conveniences for a library user holding the API's JSON; the engine itself takes
typed requests (:mod:`adjudicator.model.requests`) and never calls back into the parser.
"""

from __future__ import annotations

from typing import Any

from ..model.findings import Ruling
from ..model.requests import GameLog
from ..replay import GameReplay, Replay, replay, replay_game, scored as scored_by
from ..rules.engine import rule
from ..scoring import GameSheet, RoundSheet, score
from ..variants import Variant
from .parse import ruling_request, score_request
from .replay_log import replay_request


def adjudicate(payload: Any, variants: dict[str, Variant]) -> Ruling:
    """Parse ``{variant, situation, action, house_rules?}`` and rule on it (raises the typed input errors)."""
    request = ruling_request(payload, variants)
    return rule(request.situation, request.action, request.rules)


def score_payload(payload: Any, variants: dict[str, Variant]) -> RoundSheet | GameSheet:
    """Parse ``{variant, players?, house_rules?, teams | rounds}`` and score it."""
    return score(score_request(payload, variants), variants)


def scored(replayed: Replay, variants: dict[str, Variant]) -> Replay:
    """The replay with its ended round scored exactly as ``/v1/score`` scores the table (or, where ``/v1/score``
    cannot, a card value the text does not give for one, the error it would answer)."""
    return scored_by(replayed, lambda body: score_payload(body, variants))


def replay_payload(payload: Any, variants: dict[str, Variant]) -> Replay | GameReplay:
    """Parse a log (``POST /v1/replay``'s body: one round, or a whole game's rounds), replay it move by move and
    score what ended as ``/v1/score`` scores it: the round, or each round and the game."""
    log = replay_request(payload, variants)
    if isinstance(log, GameLog):
        return replay_game(log, lambda body: score_payload(body, variants))
    return scored(replay(log), variants)
