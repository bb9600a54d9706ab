"""``POST /v1/adjudicate`` (one ruling under one variant) and ``GET /v1/rules`` (the rule ids rulings cite).

The request's shape is checked here (:class:`web_api.schemas.AdjudicateRequest`:
strict JSON types, no unknown members, bounded lists); the engine then checks
what only the rules can say -- card codes, copies of a card, cards not in the
hand, player counts -- and raises :class:`adjudicator.errors.InputError` with
JSON pointers, which the shared handler turns into a 422 problem (404 for an
unknown variant, listing the known ids).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from flask import Blueprint, jsonify

from .problems import ApiProblem, json_body
from .schemas import AdjudicateRequest, load
from .variants_api import loaded_variants

bp = Blueprint("rulings", __name__, url_prefix="/v1")


def engine_module(name: str) -> ModuleType:
    """Import ``adjudicator.<name>`` when a request needs it.

    The engine's modules are imported lazily so the service starts (and its other
    endpoints work) while one of them is being written; a request that needs a
    missing module gets a 501 ``not-implemented`` problem instead of a crash.
    """
    full = f"adjudicator.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as error:
        if error.name != full:
            raise
        raise not_implemented(full) from error


def not_implemented(module: str) -> ApiProblem:
    return ApiProblem(501, "Not Implemented", f"this service was built without {module}; the endpoint cannot answer",
                      type="not-implemented")


@bp.post("/adjudicate")
def adjudicate():
    data = load(AdjudicateRequest(), json_body())
    ruling = engine_module("engine").adjudicate(data, loaded_variants())
    return jsonify(ruling)


@bp.get("/rules")
def rules():
    return jsonify({"rules": engine_module("rules").describe()})
