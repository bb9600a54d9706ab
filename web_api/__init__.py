"""The Canasta Referee HTTP service: :func:`create_app` builds the Flask app.

Variants are loaded (and every citation verified) when the app is created, so a
broken variant file stops the service from starting instead of serving wrong
rules: :class:`adjudicator.variants.VariantError` propagates out of
:func:`create_app`. The rest of the engine (the rules, the parser, the options, scores and
comparisons) is loaded at the first answer, or before by :func:`load_engine`, which the server's
master calls before it forks its workers (``when_ready`` in ``gunicorn.conf.py``; docs/running.md, "Start-up").

Layout:

* :mod:`web_api.problems` -- RFC 9457 problem responses, :class:`~web_api.problems.ApiProblem`,
  :func:`~web_api.problems.json_body`.
* :mod:`adjudicator.answers.serialize` -- JSON from the engine's typed results; :mod:`web_api.language` -- the answer's language.
* :mod:`web_api.variants_api` -- ``/v1/variants``; :func:`~web_api.variants_api.get_variant`.
* :mod:`web_api.meta_api` -- ``/healthz`` and ``/openapi.yaml``.
* :mod:`web_api.rulings_api` -- ``/v1/adjudicate`` and ``/v1/rules``.
* :mod:`web_api.scoring_api` -- ``/v1/score``.
* :mod:`web_api.compare_api` -- ``/v1/compare`` and ``/v1/matrix``.
* :mod:`web_api.budgets` -- every request priced before the work (:mod:`adjudicator.cost`) and refused
  over its budget (413 ``over-budget``), and the turns long work takes; :mod:`web_api.admission` -- a few
  heavy requests at a time per worker, the rest wait briefly or are shed (503 ``busy``);
  :mod:`web_api.streaming` -- long answers written as they are made.
* :mod:`web_api.security` -- security headers, caching, CORS on every response: the one
  ``after_request`` hook, which also says the language and calls revalidation and compression.
* :mod:`web_api.caching`, :mod:`web_api.compression` -- ETags and 304s; gzip and brotli.
  (:mod:`web_api.workers` is gunicorn's worker class, not part of the app.)
* :mod:`web_api.request_id` -- the ``X-Request-ID`` of each request.
* :mod:`web_api.flask_app` -- the app's Flask class: what Flask works out again per request, worked out once.
* :mod:`web_api.access_log` -- gunicorn's access log line, its atoms worked out as the format names them
  (``logger_class`` in ``gunicorn.conf.py``; like :mod:`web_api.workers`, the server's, not the app's).

Configuration (``create_app(config)`` keys; the environment variables are read
when a key is not given):

* ``MAX_CONTENT_LENGTH`` -- largest request body in bytes (env ``CANASTA_MAX_CONTENT_LENGTH``;
  default 256 KiB). A bigger body is a 413 problem, also when it comes without a
  Content-Length (chunked). The largest legitimate body, a game of 200 rounds (the
  schema's cap) that lists every card of the deck in each round, is about 155 KB
  of JSON as ``json.dumps`` writes it.
* ``CORS_ALLOWED_ORIGINS`` -- exact origins allowed to call the JSON API from a browser,
  a comma-separated string or a list (env ``CORS_ALLOWED_ORIGINS``; default: none).
* ``VARIANTS_DIR`` -- folder of variant files (env ``CANASTA_VARIANTS_DIR``).
* ``BATCH_BUDGET``, ``BATCH_DEADLINE`` -- a batch's budget of work in cost units and its deadline in
  seconds (env ``CANASTA_BATCH_BUDGET``, ``CANASTA_BATCH_DEADLINE``): :mod:`web_api.batch_api`.
* ``REQUEST_BUDGET`` -- a single request's budget of work in the same units (env ``CANASTA_REQUEST_BUDGET``):
  :mod:`web_api.budgets`.
* ``HEAVY_SLOTS``, ``HEAVY_QUEUE``, ``HEAVY_WAIT`` -- heavy requests a worker works on at once, how many more
  wait their turn, and for how many seconds at most (env ``CANASTA_HEAVY_SLOTS``, ``CANASTA_HEAVY_QUEUE``,
  ``CANASTA_HEAVY_WAIT``): :mod:`web_api.admission`.
* ``HEAVY_AFTER_WORK`` -- the work (melds checked) past which a request priced light is heavy work all the same
  (env ``CANASTA_HEAVY_AFTER_WORK``): :mod:`web_api.budgets`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask

from adjudicator import answers
from adjudicator.answers import limits
from adjudicator.variants import load_all
from adjudicator.words.render import LANGUAGES

from . import (admission, batch_api, budgets, compare_api, meta_api, options_api, page, replay_api, rulings_api, scoring_api,
               security, variants_api)
from .flask_app import ServiceFlask
from .jsonio import OrjsonProvider
from adjudicator.answers.phrases import register_phrases
from .problems import register_error_handlers
from .response import ServiceResponse

ROOT = Path(__file__).resolve().parent.parent
OPENAPI_PATH = ROOT / "openapi.yaml"

DEFAULT_MAX_CONTENT_LENGTH = limits.BODY_BYTES  # the command line reads no more (adjudicator.answers.limits)

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": DEFAULT_MAX_CONTENT_LENGTH,  # bigger request bodies get a 413 problem
    "BATCH_MAX_CONTENT_LENGTH": batch_api.DEFAULT_BATCH_MAX_CONTENT_LENGTH,  # the same for /v1/*/batch
    "BATCH_BUDGET": batch_api.DEFAULT_BATCH_BUDGET,  # a batch's estimated work, in cost units
    "BATCH_DEADLINE": batch_api.DEFAULT_BATCH_DEADLINE,  # seconds a batch may work; the rest is "not done"
    "REQUEST_BUDGET": budgets.DEFAULT_REQUEST_BUDGET,  # a single request's estimated work, in cost units
    "HEAVY_SLOTS": admission.DEFAULT_SLOTS,  # heavy requests a worker works on at once
    "HEAVY_QUEUE": admission.DEFAULT_QUEUE,  # heavy requests a worker keeps waiting for their turn
    "HEAVY_WAIT": admission.DEFAULT_WAIT,  # seconds a heavy request waits for its turn at most
    "HEAVY_AFTER_WORK": budgets.DEFAULT_HEAVY_AFTER_WORK,  # melds checked past which light work is heavy
    "CORS_ALLOWED_ORIGINS": "",  # no cross-origin access
    "VARIANTS_DIR": None,  # None: CANASTA_VARIANTS_DIR or the repository's variants/
}


def _from_environment() -> dict[str, Any]:
    """Settings given by environment variables (``ValueError`` when one is malformed)."""
    settings: dict[str, Any] = {}
    for key in ("MAX_CONTENT_LENGTH", "BATCH_MAX_CONTENT_LENGTH", "BATCH_BUDGET", "REQUEST_BUDGET"):
        name = f"CANASTA_{key}"
        raw_limit = os.environ.get(name, "").strip()
        if raw_limit:
            if not raw_limit.isdigit() or int(raw_limit) <= 0:
                unit = "bytes" if key.endswith("LENGTH") else "cost units"
                raise ValueError(f"{name} must be a positive number of {unit}, not {raw_limit!r}")
            settings[key] = int(raw_limit)
    for key, least, what in (("HEAVY_SLOTS", 1, "requests"), ("HEAVY_QUEUE", 0, "requests"),
                             ("HEAVY_AFTER_WORK", 0, "melds checked")):
        name = f"CANASTA_{key}"
        raw_count = os.environ.get(name, "").strip()
        if raw_count:
            if not raw_count.isdigit() or int(raw_count) < least:
                raise ValueError(f"{name} must be a whole number of {what}, at least {least}, not {raw_count!r}")
            settings[key] = int(raw_count)
    for key, zero in (("BATCH_DEADLINE", False), ("HEAVY_WAIT", True)):
        name = f"CANASTA_{key}"
        raw_seconds = os.environ.get(name, "").strip()
        if raw_seconds:
            try:
                settings[key] = float(raw_seconds)
            except ValueError:
                settings[key] = -1.0
            if not (0 <= settings[key] if zero else 0 < settings[key]) or settings[key] == float("inf"):
                which = "0 or more" if zero else "a positive number of"
                raise ValueError(f"{name} must be {which} seconds, not {raw_seconds!r}")
    if "CORS_ALLOWED_ORIGINS" in os.environ:
        settings["CORS_ALLOWED_ORIGINS"] = os.environ["CORS_ALLOWED_ORIGINS"]
    return settings


def create_app(config: dict | None = None) -> Flask:
    """Build the app; ``config`` overrides the environment, :data:`DEFAULTS` and Flask settings (e.g. ``TESTING``)."""
    app = ServiceFlask(__name__, static_folder=None)  # the page's files are served by web_api.page
    app.url_map.merge_slashes = False  # "//" is a 404, not a redirect built from the Host header
    app.config.update(DEFAULTS)
    app.config.update(_from_environment())
    app.config.update(config or {})
    app.json = OrjsonProvider(app)  # documents in their natural order, UTF-8 (the texts are Nordic)
    app.response_class = ServiceResponse  # headers sent as they were set where werkzeug's last copy changes nothing

    app.extensions[variants_api.VARIANTS_KEY] = load_all(app.config["VARIANTS_DIR"])
    app.extensions[meta_api.OPENAPI_KEY] = OPENAPI_PATH.read_bytes()

    register_phrases()  # the problem texts join the engine's catalogue
    register_error_handlers(app)
    security.init_app(app)  # first, so its hooks see every request (preflights end here); its one
    # after_request hook also says the language and runs revalidation and compression (web_api.security)
    app.before_request(compare_api.words_first)  # ?words= and Prefer, read before the body
    budgets.init_app(app)  # turns for every request; a 413 for one over its budget
    admission.init_app(app)  # heavy work a few at a time per worker; the rest wait briefly, or get a 503
    app.register_blueprint(meta_api.bp)
    app.register_blueprint(variants_api.bp)
    app.register_blueprint(rulings_api.bp)
    app.register_blueprint(scoring_api.bp)
    app.register_blueprint(compare_api.bp)
    app.register_blueprint(batch_api.bp)
    app.register_blueprint(options_api.bp)
    app.register_blueprint(replay_api.bp)
    app.register_blueprint(page.bp)  # the phone page: / and /web/<file>
    return app


# a ruling every variant answers, made once in each language by load_engine
_FIRST_ANSWER = {"situation": {}, "action": {"type": "draw"}}


def load_engine(app: Flask) -> None:
    """Load the engine and make its first answers now, not at the first request (``app``: another app is left alone).

    :func:`create_app` loads the variants only: a process that answers nothing (a tool, the command line, a test of
    the app's settings) does not pay for the rules. The server's master calls this after it has loaded the app
    and before it forks its workers, so each worker starts with the engine imported, the request schemas built and
    each language's number formats read, shared with the master, and answers its first request as fast as the next.
    """
    variants = getattr(app, "extensions", {}).get(variants_api.VARIANTS_KEY)
    if not variants:
        return
    body = {"variant": next(iter(variants)), **_FIRST_ANSWER}
    for lang in LANGUAGES:
        made = answers.answer("adjudicate", body, lang, variants=variants)
        if made.status != 200:
            raise RuntimeError(f"the engine's first answer is a {made.status}: {made.document}")
