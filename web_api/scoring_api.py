"""``POST /v1/score``: one round (``teams``) or a whole game (``rounds``) scored under one variant.

The request's shape is checked here (:mod:`web_api.schemas`); the scoring
module checks cards, counts and the variant's rules, raising
:class:`adjudicator.errors.InputError` (422, or 404 for an unknown variant)
or :class:`adjudicator.errors.NotStatedError` (422 ``rule-not-stated`` naming
the parameters a house rule can settle).
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.scoring import score as score_round

from .problems import json_body
from .schemas import SCHEMAS, load_score
from .variants_api import loaded_variants

bp = Blueprint("scoring", __name__, url_prefix="/v1")


@bp.post("/score")
def score():
    data = load_score(json_body(), SCHEMAS["score_round"], SCHEMAS["score_game"])
    return jsonify(score_round(data, loaded_variants()))
