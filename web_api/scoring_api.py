"""``POST /v1/score``: one round (``teams``) or a whole game (``rounds``) scored under one variant.

The body must be a JSON object (:func:`web_api.problems.json_body`);
:mod:`adjudicator.input.parse` and :mod:`adjudicator.scoring` check its shape, cards,
counts and the variant's rules and raise the engine's typed errors (422, or 404
for an unknown variant).
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.input.parse import score_request
from adjudicator.scoring import score as score_request_sheet

from adjudicator.answers import serialize
from . import budgets
from .language import current_language
from .problems import json_body
from .variants_api import loaded_variants

bp = Blueprint("scoring", __name__, url_prefix="/v1")


@bp.post("/score")
def score():
    variants, body = loaded_variants(), json_body()
    budgets.admit("score", body, variants)  # priced before any work (issue 36)
    sheet = score_request_sheet(score_request(body, variants), variants)
    return jsonify(serialize.score(sheet, current_language()))
