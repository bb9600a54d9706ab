"""``POST /v1/options``: what may I do? Every move open to the player in one situation, each with its ruling.

The body is ``{variant, situation, house_rules?, lang?}`` -- what ``/v1/adjudicate``
takes, without the action. :mod:`adjudicator.input.parse` checks it and
:func:`adjudicator.options.listing.legal_moves` lists the options; each carries the
``action`` to send to ``/v1/adjudicate`` and the ruling the engine gives it.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.options.listing import legal_moves
from adjudicator.input.parse import options_request

from . import serialize
from .language import current_language
from .problems import json_body
from .variants_api import loaded_variants

bp = Blueprint("options", __name__, url_prefix="/v1")


@bp.post("/options")
def options():
    request = options_request(json_body(), loaded_variants())
    return jsonify(serialize.options(legal_moves(request.situation, request.rules), current_language()))
