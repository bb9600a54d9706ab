"""``POST /v1/replay``: a whole round replayed move by move, the first illegal move flagged with its ruling.

The body is a log (:mod:`adjudicator.replay`): ``{variant, players, house_rules?,
lang?, scores?, deal: {hands, discard_pile, stock_count}, moves: [{player, action,
cards?}]}``. The answer (:func:`adjudicator.answers.serialize.replay`) has one entry per move ruled,
``first_illegal`` (null, or the move's index with its full ruling or the reason the log cannot hold it),
the table after the last legal move, and -- when the round ended -- its score exactly as ``/v1/score``
gives it for the table as it lies (``score_request`` is that body).
"""

from __future__ import annotations

from flask import Blueprint

from adjudicator.answers import answer

from .language import current_language
from .problems import json_body
from .response import answered
from .variants_api import loaded_variants

bp = Blueprint("replay", __name__, url_prefix="/v1")


@bp.post("/replay")
def replay_log():
    return answered(answer("replay", json_body(), current_language(), variants=loaded_variants()))
