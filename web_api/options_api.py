"""``POST /v1/options``: what may I do? Every move open to the player in one situation, each with its ruling.

The body is ``{variant, situation, house_rules?, lang?}`` -- what ``/v1/adjudicate``
takes, without the action. :mod:`adjudicator.input.parse` checks it and
:func:`adjudicator.options.listing.legal_moves` lists the options; each carries the
``action`` to send to ``/v1/adjudicate`` and the ruling the engine gives it.

A group can hold hundreds of distinct moves; the answer gives each group's
``count`` and a page of its options (``?limit=``, ``?offset=``; ``?group=``
answers one group only), the most useful first.
"""

from __future__ import annotations

from flask import Blueprint, current_app

from adjudicator import cost
from adjudicator.cost import OverBudget
from adjudicator.options.listing import legal_moves
from adjudicator.options.paging import GROUP_KINDS, LIMIT, MAX_LIMIT, Page  # noqa: F401 -- their old home
from adjudicator.input.parse import options_request

from adjudicator.answers import serialize
from . import budgets, streaming
from .compare_api import query_number, query_page  # noqa: F401 -- query_number: its old home
from .language import current_language
from .problems import json_body
from .variants_api import loaded_variants

bp = Blueprint("options", __name__, url_prefix="/v1")
STREAM_UNITS = 5_000  # a page estimated at more (answers of about a megabyte) is written as it is made


@bp.post("/options")
def options():
    page = query_page()
    variants = loaded_variants()
    body = json_body()
    walk = cost.options_cost(body, variants, page)  # before any work: the walk of the groups shown
    if budgets.over(walk):
        raise OverBudget("options", walk, budgets.budget(), group=page.group is None)
    asked = options_request(body, variants)
    listed = legal_moves(asked.situation, asked.rules, page.group)  # one group asked: the others not walked
    shown = [(variants[listed.variant], listed)]
    units = cost.page_cost(body, variants, shown, page)  # the page, from the groups' real sizes: nothing made yet
    if budgets.over(walk + units):
        fits = cost.largest_page(body, variants, shown, page, budgets.budget() - walk)
        raise OverBudget("options", walk + units, budgets.budget(), limit=fits or None,
                         group=not fits and page.group is None)
    return streaming.respond(options_document(listed, current_language(), page), units > STREAM_UNITS,
                             current_app.logger)


def options_document(listed, lang: str, page: Page) -> dict:
    """:func:`serialize.options` of the page, each group's options made as the answer is written."""
    document = serialize.options(listed, lang, limit=0, offset=page.offset, only=page.group)
    for shown, group in zip(document["groups"], page.groups(listed)):
        shown["options"] = streaming.lazily(lambda o: serialize.option(o, lang), page.each(group))
    return document
