"""``POST /v1/options``: what may I do? Every move open to the player in one situation, each with its ruling.

The body is ``{variant, situation, house_rules?, lang?}`` -- what ``/v1/adjudicate``
takes, without the action. :func:`adjudicator.answers.answer` checks it, lists the options
(:func:`adjudicator.options.listing.legal_moves`) and serializes them; each carries the
``action`` to send to ``/v1/adjudicate`` and the ruling the engine gives it.

A group can hold hundreds of distinct moves; the answer gives each group's
``count`` and a page of its options (``?limit=``, ``?offset=``; ``?group=``
answers one group only), the most useful first.
"""

from __future__ import annotations

from flask import Blueprint, request

from adjudicator.answers import answer
from adjudicator.answers.use_cases import GROUPS as GROUP_KINDS, PAGE
from adjudicator.model.messages import msg

from .compare_api import bad_query, query_choice
from .language import current_language
from .problems import json_body
from .response import answered
from .variants_api import loaded_variants

bp = Blueprint("options", __name__, url_prefix="/v1")
LIMIT, MAX_LIMIT = PAGE, 1000  # options per group in one answer: by default (the library's), at most


@bp.post("/options")
def options():
    limit = query_number("limit", 1, MAX_LIMIT, LIMIT)
    offset = query_number("offset", 0, 10**6, 0)
    only = query_choice("group", GROUP_KINDS, "")
    return answered(answer("options", json_body(), current_language(), variants=loaded_variants(), limit=limit,
                           offset=offset, group=only or None))


def query_number(name: str, low: int, high: int, default: int) -> int:
    """The single whole-number value of query parameter ``name``, from ``low`` to ``high``; a 400 otherwise."""
    values = request.args.getlist(name)
    allowed = (f"{low}-{high}",)
    if not values:
        return default
    if len(values) > 1:
        raise bad_query(name, allowed, msg("detail.query_repeated", name=name, count=len(values)))
    text = values[0]
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise bad_query(name, allowed, msg("detail.query_number", name=name, low=low, high=high, given=text))
    return int(text)
