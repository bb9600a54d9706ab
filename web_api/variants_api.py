"""``/v1/variants``: the loaded rule variants, their parameters with citations, and their source texts."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from adjudicator.messages import msg
from adjudicator.variants import Variant

from . import serialize
from .language import current_language
from .problems import ApiProblem

bp = Blueprint("variants", __name__, url_prefix="/v1/variants")

VARIANTS_KEY = "canasta.variants"


def loaded_variants() -> dict[str, Variant]:
    """The variants loaded when the app was created, keyed by id, in file-name order."""
    return current_app.extensions[VARIANTS_KEY]


def unknown_variant(variant_id: str, *, pointer: str | None = None) -> ApiProblem:
    """The 404 ``unknown-variant`` problem; it lists the known ids in ``known``.

    Pass ``pointer`` when the id came from a request body member (e.g. ``"/variant"``);
    leave it out when it came from the URL path.
    """
    known = list(loaded_variants())
    detail = msg("detail.unknown_variant", variant=variant_id, known=", ".join(known))
    errors = [{"pointer": pointer, "detail": detail}] if pointer is not None else None
    return ApiProblem(404, "Unknown variant", detail, type="unknown-variant", errors=errors, known=known)


def get_variant(variant_id: str, *, pointer: str | None = None) -> Variant:
    """The loaded variant with this id, or raise the 404 ``unknown-variant`` problem."""
    variant = loaded_variants().get(variant_id)
    if variant is None:
        raise unknown_variant(variant_id, pointer=pointer)
    return variant


@bp.get("")
def list_variants():
    lang = current_language()
    return jsonify({"variants": [serialize.variant_summary(v, lang) for v in loaded_variants().values()]})


@bp.get("/<variant_id>")
def show_variant(variant_id: str):
    return jsonify(serialize.variant_detail(get_variant(variant_id), current_language()))


@bp.get("/<variant_id>/source")
def variant_source(variant_id: str):
    variant = get_variant(variant_id)
    return Response(variant.text, content_type="text/plain; charset=utf-8")
