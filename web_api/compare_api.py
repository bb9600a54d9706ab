"""``POST /v1/compare`` (one dispute or score under several variants) and ``GET /v1/matrix``.

``/v1/compare`` takes what ``/v1/adjudicate`` or ``/v1/score`` takes, with
``variants`` (a list of ids; default: every loaded variant) instead of
``variant``. A variant that finds the input impossible gets a ``problem``
entry (its ``type`` made an absolute problem URI here) instead of failing the
comparison; a fault that does not depend on the variant is raised as the
single-variant call would raise it.

``/v1/matrix`` is every catalogue parameter side by side across the loaded
variants, as JSON or CSV.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from adjudicator.compare import compare as compare_variants
from adjudicator.matrix import matrix as build_matrix, matrix_csv

from .problems import ApiProblem, json_body, problem_type
from .schemas import load_compare
from .variants_api import loaded_variants

bp = Blueprint("compare", __name__, url_prefix="/v1")

@bp.post("/compare")
def compare():
    data = load_compare(json_body())
    result = compare_variants(data, loaded_variants())
    for entry in result.get("results", []):
        problem = entry.get("problem")
        if isinstance(problem, dict) and "://" not in str(problem.get("type", "")):
            problem["type"] = problem_type(str(problem.get("type") or "problem"))
    return jsonify(result)


# ----------------------------------------------------------------------------------------------
# /v1/matrix

BOOLEANS = {"true": True, "false": False}
FORMATS = ("json", "csv")


def query_choice(name: str, allowed: tuple[str, ...], default: str) -> str:
    """The single value of query parameter ``name``, one of ``allowed``; a 400 problem otherwise."""
    values = request.args.getlist(name)
    if not values:
        return default
    if len(values) > 1:
        raise bad_query(name, allowed, f"{name} is given {len(values)} times; give it once")
    if values[0] not in allowed:
        raise bad_query(name, allowed, f"{name} must be one of {', '.join(allowed)}, not {values[0]!r}")
    return values[0]


def bad_query(name: str, allowed: tuple[str, ...], detail: str) -> ApiProblem:
    return ApiProblem(400, "Invalid query parameter", detail, type="invalid-query-parameter",
                      parameter=name, allowed=list(allowed))


@bp.get("/matrix")
def matrix():
    differs = BOOLEANS[query_choice("differs", tuple(BOOLEANS), "false")]
    fmt = query_choice("format", FORMATS, "json")
    if fmt == "csv":
        text = matrix_csv(loaded_variants(), differs=differs)
        return Response(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    return jsonify(build_matrix(loaded_variants(), differs=differs))
