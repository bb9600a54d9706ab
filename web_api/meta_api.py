"""Service endpoints: health (never cached) and the OpenAPI document (revalidated: :mod:`web_api.caching`)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from .variants_api import loaded_variants

bp = Blueprint("meta", __name__)

OPENAPI_KEY = "canasta.openapi"


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok", "variants": len(loaded_variants())})


@bp.get("/openapi.yaml")
def openapi_yaml():
    return Response(current_app.extensions[OPENAPI_KEY], content_type="application/yaml")
