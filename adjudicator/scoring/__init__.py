"""Scoring: the points of a finished round, or of a whole game, under one variant.

Every figure comes from a parameter of :mod:`adjudicator.model.parameters`; nothing
here names a variant. Each score line says which parameters it rests on and
carries their citations, so a table can check the arithmetic against its own
rule text. The work is in parts: :mod:`adjudicator.input.parse` reads the request (a
:class:`~adjudicator.model.requests.ScoreRequest`),
:mod:`.legality` refuses tables that cannot happen, :mod:`.lines` prices each
team's round, :mod:`.game` carries totals and finds the winner, and :mod:`.across`
makes the score under each reading of what the text leaves open.
"""

from __future__ import annotations

from ..model.requests import PENALTY_KINDS
from .across import score
from .sheets import GameSheet, NextOpening, RoundSheet, ScoreLine, ScoreReading, TeamScore

__all__ = ["PENALTY_KINDS", "GameSheet", "NextOpening", "RoundSheet", "ScoreLine", "ScoreReading", "TeamScore",
           "score"]
