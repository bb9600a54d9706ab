"""The service's answers without the service: what the phone's Web Worker runs under Pyodide.

The page posts the same JSON body it would send to the service (``POST /v1/adjudicate``, ``/v1/options``,
``/v1/score``, ``/v1/compare``, ``/v1/replay`` or a batch); :func:`answer` gives back the status and the
JSON the service would have sent, made by the one function the service's views call
(:func:`adjudicator.answers.answer_json`): verdicts, citations and words are the service's own. Nothing is
parsed, ruled or serialized here; ``tests/test_phone_engine.py`` holds it so.
"""

from __future__ import annotations

from adjudicator.answers.use_cases import answer_json, to_json  # named: the archive follows import statements
from adjudicator.variants import load_all

VARIANTS = load_all()  # loaded and every citation checked when the worker starts, as the service does

ROUTES = {"/v1/adjudicate": "adjudicate", "/v1/options": "options", "/v1/score": "score", "/v1/compare": "compare",
          "/v1/replay": "replay", "/v1/adjudicate/batch": "batch", "/v1/score/batch": "score_batch"}


def answer(path: str, body_text: str, lang: str) -> str:
    """``{"status": ..., "body": ...}`` as JSON text: the answer of ``POST path`` with this body."""
    said = answer_json(ROUTES.get(path, path), body_text, lang, variants=VARIANTS)
    return to_json({"status": said.status, "body": said.document})
