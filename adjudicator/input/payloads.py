"""Request JSON in, an answer out, in one call: the parser and the engine put together.

Conveniences for a library user holding the API's JSON; the engine itself takes
typed requests (:mod:`adjudicator.model.requests`) and never calls back into the parser.
"""

from __future__ import annotations

from ..model.findings import Ruling
from ..rules.engine import rule
from ..scoring import GameSheet, RoundSheet, score
from ..variants import Variant
from .parse import ruling_request, score_request


def adjudicate(payload: dict, variants: dict[str, Variant]) -> Ruling:
    """Parse ``{variant, situation, action, house_rules?}`` and rule on it (raises the typed input errors)."""
    request = ruling_request(payload, variants)
    return rule(request.situation, request.action, request.rules)


def score_payload(payload: dict, variants: dict[str, Variant]) -> RoundSheet | GameSheet:
    """Parse ``{variant, players?, house_rules?, teams | rounds}`` and score it."""
    return score(score_request(payload, variants), variants)
