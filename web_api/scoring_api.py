"""``POST /v1/score``: one round (``teams``) or a whole game (``rounds``) scored under one variant.

The body must be a JSON object (:func:`web_api.problems.json_body`); :func:`adjudicator.answers.answer`
checks its shape, cards, counts and the variant's rules, scores it and serializes the sheet, or gives the
problem (422, or 404 for an unknown variant).
"""

from __future__ import annotations

from flask import Blueprint

from adjudicator import answers  # the engine, loaded at the first answer (adjudicator/answers/__init__.py)

from . import budgets
from .language import current_language
from .problems import json_body
from .response import answered
from .variants_api import loaded_variants

bp = Blueprint("scoring", __name__, url_prefix="/v1")


@bp.post("/score")
def score():
    body, variants = json_body(), loaded_variants()
    budgets.admit("score", body, variants)  # priced before any work (issue 36)
    return answered(answers.answer("score", body, current_language(), variants=variants))
