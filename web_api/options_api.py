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

from flask import Blueprint, current_app

from adjudicator import cost
from adjudicator.answers import answer
from adjudicator.cost import OverBudget
from adjudicator.options.paging import GROUP_KINDS, LIMIT, MAX_LIMIT, Page  # noqa: F401 -- their old home

from . import budgets, streaming
from .compare_api import query_number, query_page  # noqa: F401 -- query_number: its old home
from .language import current_language
from .problems import json_body
from .response import answered
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
    units = {"page": 0}

    def admit(listed: list) -> None:  # the walk is done: the page, from the groups' real sizes, nothing made yet
        shown = [(variants[vid], options) for vid, options in listed]
        units["page"] = cost.page_cost(body, variants, shown, page)
        if budgets.over(walk + units["page"]):
            fits = cost.largest_page(body, variants, shown, page, budgets.budget() - walk)
            raise OverBudget("options", walk + units["page"], budgets.budget(), limit=fits or None,
                             group=not fits and page.group is None)

    maker = streaming.Maker()
    got = answer("options", body, current_language(), variants=variants, limit=page.limit, offset=page.offset,
                 group=page.group, admit=admit, lazily=maker)
    if got.status != 200 or not maker.made:  # a problem, or nothing made lazily: as any answer
        return answered(got)
    return streaming.respond(got.document, units["page"] > STREAM_UNITS, current_app.logger)
