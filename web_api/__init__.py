"""The Canasta Referee HTTP service: :func:`create_app` builds the Flask app.

Variants are loaded (and every citation verified) when the app is created, so a
broken variant file stops the service from starting instead of serving wrong
rules: :class:`adjudicator.variants.VariantError` propagates out of
:func:`create_app`.

Layout:

* :mod:`web_api.problems` -- RFC 9457 problem responses, :class:`~web_api.problems.ApiProblem`,
  :func:`~web_api.problems.json_body`.
* :mod:`web_api.fields` -- strict marshmallow fields and :func:`~web_api.fields.load_or_422`.
* :mod:`web_api.variants_api` -- ``/v1/variants``; :func:`~web_api.variants_api.get_variant`.
* :mod:`web_api.meta_api` -- ``/healthz`` and ``/openapi.yaml``.
* :mod:`web_api.schemas` -- marshmallow request schemas for the POST endpoints.
* :mod:`web_api.rulings_api` -- ``/v1/adjudicate`` and ``/v1/rules``.
* :mod:`web_api.scoring_api` -- ``/v1/score``.
* :mod:`web_api.compare_api` -- ``/v1/compare`` and ``/v1/matrix``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from adjudicator.variants import load_all

from . import compare_api, meta_api, rulings_api, scoring_api, variants_api
from .problems import register_error_handlers

ROOT = Path(__file__).resolve().parent.parent
OPENAPI_PATH = ROOT / "openapi.yaml"

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 1024 * 1024,  # request bodies over 1 MiB get a 413 problem
    "VARIANTS_DIR": None,  # None: CANASTA_VARIANTS_DIR or the repository's variants/
}


def create_app(config: dict | None = None) -> Flask:
    """Build the app; ``config`` overrides :data:`DEFAULTS` and Flask settings (e.g. ``TESTING``)."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json.sort_keys = False  # keep documents in their natural order (id first, catalogue order)
    app.json.ensure_ascii = False  # the rule texts are Swedish, Norwegian and Danish

    app.extensions[variants_api.VARIANTS_KEY] = load_all(app.config["VARIANTS_DIR"])
    app.extensions[meta_api.OPENAPI_KEY] = OPENAPI_PATH.read_bytes()

    register_error_handlers(app)
    app.register_blueprint(meta_api.bp)
    app.register_blueprint(variants_api.bp)
    app.register_blueprint(rulings_api.bp)
    app.register_blueprint(scoring_api.bp)
    app.register_blueprint(compare_api.bp)
    from .page import bp as page_bp; app.register_blueprint(page_bp)  # noqa: E702 -- the phone page: / and /web/<file>
    return app
