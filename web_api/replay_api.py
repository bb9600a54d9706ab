"""``POST /v1/replay``: a whole round, or a whole game, replayed move by move; the first illegal move flagged
with its ruling.

The body is a log (:mod:`adjudicator.replay`): ``{variant, players, house_rules?, lang?, scores?, deal:
{hands, discard_pile, stock_count, first_player?}, moves: [...]}`` for one round, or ``{..., rounds: [{deal,
moves}, ...]}`` for a game. A move is an action ``{player, action, cards?}`` or an event ``{player, event, ...}``
(red threes laid out, "may I go out?", the partner's answer). The answer
(:func:`adjudicator.answers.serialize.replay`) has one entry per move ruled, ``first_illegal`` (null, or the
move's index -- and round -- with its full ruling or the reason the log cannot hold it), where the replay
stopped undetermined, the table after the last legal move, why the round ended and its score exactly as
``/v1/score`` gives it (``score_request`` is that body); for a game, each round's and the game's.
"""

from __future__ import annotations

from flask import Blueprint

from adjudicator import answers  # the engine, loaded at the first answer (adjudicator/answers/__init__.py)

from . import budgets
from .language import current_language
from .problems import json_body
from .response import answered
from .variants_api import loaded_variants

bp = Blueprint("replay", __name__, url_prefix="/v1")


@bp.post("/replay")
def replay_log():
    body, variants = json_body(), loaded_variants()
    budgets.admit("replay", body, variants)  # priced before any work (issue 36)
    return answered(answers.answer("replay", body, current_language(), variants=variants))
