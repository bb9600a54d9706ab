"""The service's answers without the service: what the phone's Web Worker runs under Pyodide.

The page posts the same JSON body it would send to ``POST /v1/adjudicate``, ``/v1/options``,
``/v1/score`` or ``/v1/compare``; :func:`answer` gives back the status and the JSON the service
would have sent, made by the same functions the service's views call (the engine's parser, the
engine, :mod:`adjudicator.answers.serialize`), so verdicts, citations and words are the service's own. No rule
is written here. Only the Flask parts of the views (request, ``jsonify``, error handlers) are
replaced, by a few lines that do what they do.
"""

from __future__ import annotations

import json

from adjudicator.compare.comparison import compare as compare_variants
from adjudicator.input.parse import compare_request, options_request, ruling_request, score_request
from adjudicator.model.errors import AdjudicatorError
from adjudicator.options.listing import legal_moves
from adjudicator.rules.engine import rule
from adjudicator.words.render import DEFAULT_LANGUAGE, LANGUAGES
from adjudicator.scoring import score as score_sheet
from adjudicator.variants import load_all
from adjudicator.answers import phrases, serialize
from adjudicator.answers.serialize import problem_type

phrases.register_phrases()  # the problem titles join the engine's catalogue, as create_app() does

VARIANTS = load_all()  # loaded and every citation checked, as the service does when it starts


def _adjudicate(body: dict, lang: str) -> dict:
    request = ruling_request(body, VARIANTS)
    return serialize.ruling(rule(request.situation, request.action, request.rules), lang)


def _options(body: dict, lang: str) -> dict:
    request = options_request(body, VARIANTS)
    return serialize.options(legal_moves(request.situation, request.rules), lang)


def _score(body: dict, lang: str) -> dict:
    return serialize.score(score_sheet(score_request(body, VARIANTS), VARIANTS), lang)


def _compare(body: dict, lang: str) -> dict:
    return serialize.comparison(compare_variants(compare_request(body, VARIANTS), VARIANTS), lang, problem_type)


ROUTES = {"/v1/adjudicate": _adjudicate, "/v1/options": _options, "/v1/score": _score, "/v1/compare": _compare}


def answer(path: str, body_text: str, lang: str) -> str:
    """``{"status": ..., "body": ...}`` as JSON text: the answer of ``POST path`` with this body."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    handler = ROUTES.get(path)
    if handler is None:
        return json.dumps({"status": 404, "body": {"type": problem_type("not-found"), "status": 404,
                                                   "title": "Not found", "detail": path}})
    body = json.loads(body_text)
    try:
        return json.dumps({"status": 200, "body": handler(body, lang)}, ensure_ascii=False)
    except AdjudicatorError as error:
        members = serialize.problem_members(error, lang)
        members["type"] = problem_type(members["type"])
        return json.dumps({"status": members["status"], "body": members}, ensure_ascii=False)
