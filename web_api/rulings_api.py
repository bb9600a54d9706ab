"""``POST /v1/adjudicate`` (one ruling under one variant) and ``GET /v1/rules`` (the rule ids rulings cite).

The request's shape is checked here (:class:`web_api.schemas.AdjudicateRequest`:
strict JSON types, no unknown members, bounded lists); the engine then checks
what only the rules can say -- card codes, copies of a card, cards not in the
hand, player counts -- and raises :class:`adjudicator.errors.InputError` with
JSON pointers, which the shared handler turns into a 422 problem (404 for an
unknown variant, listing the known ids).
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.engine import adjudicate as rule
from adjudicator.rules import describe

from .problems import json_body
from .schemas import SCHEMAS, load
from .variants_api import loaded_variants

bp = Blueprint("rulings", __name__, url_prefix="/v1")


@bp.post("/adjudicate")
def adjudicate():
    data = load(SCHEMAS["adjudicate"], json_body())
    return jsonify(rule(data, loaded_variants()))


@bp.get("/rules")
def rules():
    return jsonify({"rules": describe()})
