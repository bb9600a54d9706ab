"""``/v1/variants``: the loaded rule variants, their parameters with citations, and their source texts."""

from __future__ import annotations


from flask import Blueprint, Response, current_app, jsonify

from adjudicator.parameters import PARAMETERS
from adjudicator.variants import Variant, jsonable

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
    errors = [{"pointer": pointer, "detail": f"unknown variant {variant_id!r}"}] if pointer is not None else None
    return ApiProblem(404, "Unknown variant", f"no variant {variant_id!r}; known: {', '.join(known)}",
                      type="unknown-variant", errors=errors, known=known)


def get_variant(variant_id: str, *, pointer: str | None = None) -> Variant:
    """The loaded variant with this id, or raise the 404 ``unknown-variant`` problem."""
    variant = loaded_variants().get(variant_id)
    if variant is None:
        raise unknown_variant(variant_id, pointer=pointer)
    return variant


def parameter_entry(variant: Variant, name: str) -> dict:
    """One parameter of one variant, with what a client needs to override it as a house rule."""
    param = next(p for p in PARAMETERS if p.name == name)
    out = jsonable(variant.entry(name).as_dict())
    out.update({"type": param.type, "description": param.description, "overridable": True,
                "accepts": param.describe_type()})
    return out


def variant_detail(variant: Variant) -> dict:
    out = jsonable(variant.summary())
    out["parameters"] = [parameter_entry(variant, p.name) for p in PARAMETERS]
    return out


@bp.get("")
def list_variants():
    return jsonify({"variants": [jsonable(v.summary()) for v in loaded_variants().values()]})


@bp.get("/<variant_id>")
def show_variant(variant_id: str):
    return jsonify(variant_detail(get_variant(variant_id)))


@bp.get("/<variant_id>/source")
def variant_source(variant_id: str):
    variant = get_variant(variant_id)
    return Response(variant.text, content_type="text/plain; charset=utf-8")
