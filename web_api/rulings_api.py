"""``POST /v1/adjudicate`` (one ruling under one variant) and ``GET /v1/rules`` (the rule ids rulings cite).

The body must be a JSON object (:func:`web_api.problems.json_body`); ``?words=none`` or
``Prefer: return=minimal`` asks for the ruling without its words (:func:`web_api.compare_api.wants_words`).
:mod:`adjudicator.input.parse` checks its shape and what only the rules can say and
raises the engine's typed errors, which :mod:`web_api.problems` turns into problems.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.rules.engine import rule
from adjudicator.input.parse import ruling_request

from adjudicator.answers import serialize
from . import budgets
from .compare_api import wants_words
from .language import current_language
from .problems import json_body
from .variants_api import loaded_variants

bp = Blueprint("rulings", __name__, url_prefix="/v1")


@bp.post("/adjudicate")
def adjudicate():
    body, variants = json_body(), loaded_variants()
    budgets.admit("adjudicate", body, variants)  # priced before any work (issue 36)
    request = ruling_request(body, variants)
    ruled = rule(request.situation, request.action, request.rules)
    return jsonify(serialize.ruling(ruled, current_language(), wants_words()))


@bp.get("/rules")
def rules():
    return jsonify(serialize.rule_list(current_language()))
