"""Request JSON in, an answer out, in one call: the parser and the engine put together.

Conveniences for a library user holding the API's JSON; the engine itself takes
typed requests (:mod:`adjudicator.model.requests`) and never calls back into the parser.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..model.errors import AdjudicatorError
from ..model.findings import Ruling
from ..replay import Replay, replay
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
    if replayed.score_request is None:
        return replayed
    try:
        return replace(replayed, score=score_payload(replayed.score_request, variants))
    except AdjudicatorError as e:
        return replace(replayed, score_error=e)


def replay_payload(payload: Any, variants: dict[str, Variant]) -> Replay:
    """Parse a game's log (``POST /v1/replay``'s body), replay it move by move and score the round if it ended."""
    return scored(replay(replay_request(payload, variants)), variants)
