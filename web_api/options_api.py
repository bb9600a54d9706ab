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
from adjudicator import answers  # the engine, loaded at the first answer (adjudicator/answers/__init__.py)
from adjudicator.cost import OverBudget
from adjudicator.options.paging import GROUP_KINDS, LIMIT, MAX_LIMIT, Page  # noqa: F401 -- their old home

from . import admission, budgets, streaming
from .compare_api import query_number, query_page, wants_words  # noqa: F401 -- query_number: its old home
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
    price = cost.options_price(body, variants)  # before any search: the walks, and the page at most (issue 45)
    units = price(page)
    if budgets.over(units):
        raise OverBudget("options", units, budgets.budget(), **budgets.smaller_page(price, page))
    admission.enter(units)
    made = {"page": 0}

    def admit(listed: list) -> None:  # the walk is done: the page from the groups' real sizes, nothing made yet
        made["page"] = budgets.page_within("options", body, variants, listed, page)

    maker = streaming.Maker()
    got = answers.answer("options", body, current_language(), variants=variants, limit=page.limit,
                         offset=page.offset, group=page.group, words=wants_words(), admit=admit, lazily=maker)
    if got.status != 200 or not maker.made:  # a problem, or nothing made lazily: as any answer
        return answered(got)
    return streaming.respond(got.document, made["page"] > STREAM_UNITS, current_app.logger)
