"""``POST /v1/adjudicate`` (one ruling under one variant) and ``GET /v1/rules`` (the rule ids rulings cite).

The body must be a JSON object (:func:`web_api.problems.json_body`);
:mod:`adjudicator.input.parse` checks its shape and what only the rules can say and
raises the engine's typed errors, which :mod:`web_api.problems` turns into problems.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.rules.engine import rule
from adjudicator.input.parse import ruling_request

from . import serialize
from .language import current_language
from .problems import json_body
from .variants_api import loaded_variants

bp = Blueprint("rulings", __name__, url_prefix="/v1")


@bp.post("/adjudicate")
def adjudicate():
    request = ruling_request(json_body(), loaded_variants())
    return jsonify(serialize.ruling(rule(request.situation, request.action, request.rules), current_language()))


@bp.get("/rules")
def rules():
    return jsonify(serialize.rule_list(current_language()))
