"""Scoring: the points of a finished round, or of a whole game, under one variant.

Every figure comes from a parameter of :mod:`adjudicator.model.parameters`; nothing
here names a variant. Each score line says which parameters it rests on and
carries their citations, so a table can check the arithmetic against its own
rule text. The work is in parts: :mod:`adjudicator.input.parse` reads the request,
:mod:`.legality` refuses tables that cannot happen, :mod:`.lines` prices each
team's round, :mod:`.game` carries totals and finds the winner.
"""

from __future__ import annotations

from ..input.parse import PENALTY_KINDS, score_request
from ..variants import Variant
from .game import score
from .sheets import GameSheet, NextOpening, RoundSheet, ScoreLine, TeamScore

__all__ = ["PENALTY_KINDS", "GameSheet", "NextOpening", "RoundSheet", "ScoreLine", "TeamScore", "score",
           "score_payload"]


def score_payload(payload: dict, variants: dict[str, Variant]) -> RoundSheet | GameSheet:
    """Parse ``{variant, players?, house_rules?, teams | rounds}`` and score it."""
    return score(score_request(payload, variants), variants)
