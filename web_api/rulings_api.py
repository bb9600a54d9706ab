"""``POST /v1/adjudicate`` (one ruling under one variant) and ``GET /v1/rules`` (the rule ids rulings cite).

The body must be a JSON object (:func:`web_api.problems.json_body`); ``?words=none`` or
``Prefer: return=minimal`` asks for the ruling without its words (:func:`web_api.compare_api.wants_words`).
:func:`adjudicator.answers.answer` parses, rules and serializes it, or gives the problem.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator import answers  # the engine, loaded at the first answer (adjudicator/answers/__init__.py)

from . import budgets
from .compare_api import wants_words
from .language import current_language
from .problems import json_body
from .response import answered
from .variants_api import loaded_variants

bp = Blueprint("rulings", __name__, url_prefix="/v1")


@bp.post("/adjudicate")
def adjudicate():
    body, variants = json_body(), loaded_variants()
    budgets.admit("adjudicate", body, variants)  # priced before any work (issue 36)
    return answered(answers.answer("adjudicate", body, current_language(), variants=variants,
                           words=wants_words()))


@bp.get("/rules")
def rules():
    return jsonify(answers.serialize.rule_list(current_language()))
