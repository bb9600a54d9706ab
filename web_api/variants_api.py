"""``/v1/variants``: the loaded rule variants, their parameters with citations, and their source texts."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from adjudicator.link import rules_version
from adjudicator.model.messages import msg
from adjudicator.variants import Variant

from adjudicator import answers  # the engine, loaded at the first answer (adjudicator/answers/__init__.py)
from .language import current_language
from .problems import ApiProblem

bp = Blueprint("variants", __name__, url_prefix="/v1/variants")

VARIANTS_KEY = "canasta.variants"


def loaded_variants() -> dict[str, Variant]:
    """The variants loaded when the app was created, keyed by id, in file-name order."""
    return current_app.extensions[VARIANTS_KEY]


def get_variant(variant_id: str) -> Variant:
    """The loaded variant named in the URL path, or raise the 404 ``unknown-variant`` problem.

    (An id in a request body is the engine's :class:`~adjudicator.model.errors.UnknownVariant`, with
    its pointer; this one has no body to point into.) ``known`` lists the ids that exist.
    """
    variant = loaded_variants().get(variant_id)
    if variant is None:
        known = list(loaded_variants())
        detail = msg("error.unknown_variant", variant=variant_id, known=", ".join(known))
        raise ApiProblem(404, "Unknown variant", detail, type="unknown-variant", known=known)
    return variant


@bp.get("")
def list_variants():
    lang = current_language()
    # rules_version: what a link names as the rules its question was asked under (adjudicator/link.py)
    return jsonify({"variants": [dict(answers.serialize.variant_summary(v, lang), rules_version=rules_version(v))
                                 for v in loaded_variants().values()]})


@bp.get("/<variant_id>")
def show_variant(variant_id: str):
    return jsonify(answers.serialize.variant_detail(get_variant(variant_id), current_language()))


@bp.get("/<variant_id>/source")
def variant_source(variant_id: str):
    variant = get_variant(variant_id)
    return Response(variant.text, content_type="text/plain; charset=utf-8")
