"""``POST /v1/adjudicate/batch`` and ``POST /v1/score/batch``: many requests in one body, one answer each.

For apps that check every move of their games: ``{"requests": [...], "lang"?}``
with up to :data:`adjudicator.input.shape.MAX_BATCH` items, each what the single endpoint takes. The
answer keeps their order: ``{"results": [{"ruling": ...} | {"score": ...} |
{"problem": ...}]}``. One bad item is that item's problem (its pointers are
into the item), never the whole batch's. A batch may be larger than a single
request (``CANASTA_BATCH_MAX_CONTENT_LENGTH``, default 4 MiB).
"""

from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, current_app, jsonify, request

from adjudicator.rules.engine import rule
from adjudicator.model.errors import AdjudicatorError
from adjudicator.input.parse import ruling_request, score_request
from adjudicator.input.shape import check
from adjudicator.scoring import score

from . import serialize
from .language import current_language
from .problems import json_body, problem_type
from .variants_api import loaded_variants

DEFAULT_BATCH_MAX_CONTENT_LENGTH = 4 * 1024 * 1024

bp = Blueprint("batch", __name__, url_prefix="/v1")


@bp.before_request
def _larger_bodies() -> None:
    request.max_content_length = current_app.config["BATCH_MAX_CONTENT_LENGTH"]


def _batch(answer: Callable[[dict, dict, str], dict]):
    variants = loaded_variants()
    items = check(json_body(), "batch", variants)["requests"]
    lang = current_language()
    results = []
    for item in items:
        try:
            results.append(answer(item, variants, lang))
        except AdjudicatorError as e:
            results.append({"problem": serialize.item_problem(e, lang, problem_type)})
    return jsonify({"results": results})


def _ruling(item: Any, variants: dict, lang: str) -> dict:
    asked = ruling_request(item, variants)
    return {"ruling": serialize.ruling(rule(asked.situation, asked.action, asked.rules), lang)}


def _score(item: Any, variants: dict, lang: str) -> dict:
    return {"score": serialize.score(score(score_request(item, variants), variants), lang)}


@bp.post("/adjudicate/batch")
def adjudicate_batch():
    return _batch(_ruling)


@bp.post("/score/batch")
def score_batch():
    return _batch(_score)
