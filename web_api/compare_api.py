"""``POST /v1/compare`` (one dispute or score under several variants) and ``GET /v1/matrix``.

``/v1/compare`` takes what ``/v1/adjudicate`` or ``/v1/score`` takes, with
``variants`` (a list of ids; default: every loaded variant) instead of
``variant``. A variant that finds the input impossible gets a ``problem``
entry (its ``type`` made an absolute problem URI here) instead of failing the
comparison; a fault that does not depend on the variant is raised as the
single-variant call would raise it.

A situation alone compares the options open in it: each variant's are paged as ``/v1/options`` pages
them (``?limit=``, ``?offset=``, ``?group=``; each group's ``count`` and ``complete``), and the
agreement and the differences are over the moves of those pages. Every comparison is priced before
the work and refused over the request budget with what to send instead (:mod:`web_api.budgets`).

With ``?words=none`` (or ``Prefer: return=minimal``) the variants' rulings come without their
words (:func:`wants_words`; the differences keep theirs). With ``?citations=refs`` each citation is given once, in a top-level
``citations`` table, and referenced (``{"ref": "no-pagat:3364-3444"}``) where
it is used: the variants' rulings quote the same sentences many times over.

``/v1/matrix`` is every catalogue parameter side by side across the loaded
variants, as JSON or CSV.
"""

from __future__ import annotations

import csv
import io
import json


from flask import Blueprint, Response, current_app, jsonify, request

from adjudicator import cost
from adjudicator import answers  # the engine, loaded at the first answer (adjudicator/answers/__init__.py)
from adjudicator.compare.matrix import matrix as build_matrix
from adjudicator.cost import OverBudget
from adjudicator.model.messages import Message, msg
from adjudicator.options.paging import GROUP_KINDS, LIMIT, MAX_LIMIT, MAX_OFFSET, Page

from . import admission, budgets, streaming
from .language import current_language
from .problems import ApiProblem, json_body
from .response import answered
from .variants_api import loaded_variants

bp = Blueprint("compare", __name__, url_prefix="/v1")

WORD_FORMS = ("full", "none")  # ?words=none: rulings without their sentences
WORDS_KEY = "canasta.words"  # environ: whether this request's rulings carry words (set by wants_words)
PREFERENCE_KEY = "canasta.preference_applied"  # environ: the Prefer preference honoured, for the answer's header


STREAM_UNITS = 5_000  # pages of options estimated at more are written as they are made (web_api.streaming)


@bp.post("/compare")
def compare():
    citations = query_choice("citations", answers.use_cases.CITATION_FORMS, "full")  # refs: each once, referenced
    page = query_page()
    variants = loaded_variants()
    body = json_body()
    price = cost.compare_price(body, variants)  # before any work, the body read once (issues 44, 45)
    units = price(page)
    if budgets.over(units):
        raise OverBudget("compare", units, budgets.budget(), **_smaller(body, variants, price, page))
    admission.enter(units)
    made = {"pages": 0}

    def admit(listed: list) -> None:  # the walks are done: the pages from the groups' real sizes, nothing made yet
        made["pages"] = budgets.page_within("compare", body, variants, listed, page)

    maker = streaming.Maker()
    got = answers.answer("compare", body, current_language(), variants=variants, words=wants_words(),
                         citations=citations, limit=page.limit, offset=page.offset, group=page.group, admit=admit,
                         lazily=maker)
    if got.status != 200 or not maker.made:  # nothing made lazily (a comparison of rulings): as any answer
        return answered(got)
    return streaming.respond(got.document, made["pages"] > STREAM_UNITS, current_app.logger)


def _smaller(body, variants, price, page: Page) -> dict:
    """What a comparison over budget may send instead: for options, a smaller page of every variant named; else
    fewer variants; else, for options, one group at a time."""
    if not isinstance(body, dict):
        return {}
    options = cost.compare_kind(body) == "options"
    if options:
        hint = budgets.smaller_page(price, page)
        if "limit" in hint:
            return hint
    named = len(cost.compare_ids(body, variants))
    fewer = cost.largest_comparison(body, variants, page, budgets.budget()) if named > 1 else 0
    if 0 < fewer < named:
        return {"variants": fewer}
    return {"group": options and page.group is None}


# ----------------------------------------------------------------------------------------------
# /v1/matrix

BOOLEANS = {"true": True, "false": False}
FORMATS = ("json", "csv")


def query_choice(name: str, allowed: tuple[str, ...], default: str) -> str:
    """The single value of query parameter ``name``, one of ``allowed``; a 400 problem otherwise."""
    values = request.args.getlist(name)
    if not values:
        return default
    if len(values) > 1:
        raise bad_query(name, allowed, msg("detail.query_repeated", name=name, count=len(values)))
    if values[0] not in allowed:
        raise bad_query(name, allowed, msg("detail.query_choice", name=name, allowed=", ".join(allowed),
                                           given=values[0]))
    return values[0]


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


def query_page() -> Page:
    """The page of options a request asks for: ``?limit=`` (per group), ``?offset=``, ``?group=``."""
    limit = query_number("limit", 1, MAX_LIMIT, LIMIT)
    offset = query_number("offset", 0, MAX_OFFSET, 0)
    only = query_choice("group", GROUP_KINDS, "")
    return Page(limit, offset, only or None)


def wants_words() -> bool:
    """Whether this request's rulings come with their words.

    ``?words=none`` leaves them out and ``?words=full`` keeps them; without the query parameter, a
    ``Prefer: return=minimal`` header (RFC 7240) leaves them out, and the answer says
    ``Preference-Applied: return=minimal``. Keys, rule ids, verdicts and citations stay either way.
    """
    environ = request.environ
    known = environ.get(WORDS_KEY)
    if known is None:
        choice = query_choice("words", WORD_FORMS, "") if environ.get("QUERY_STRING") else ""
        if not choice:
            choice = "none" if prefers_minimal(environ.get("HTTP_PREFER")) else "full"
            if choice == "none":
                environ[PREFERENCE_KEY] = "return=minimal"
        known = environ[WORDS_KEY] = choice == "full"
    return known


WORD_ENDPOINTS = frozenset({"rulings.adjudicate", "batch.adjudicate_batch", "compare.compare", "options.options"})


def words_first() -> None:
    """``before_request``: the endpoints whose rulings can leave out their words read ``words`` and ``Prefer``
    before the body, so a bad ``words`` is a 400 even where no ruling is made (a batch of problems)."""
    if request.endpoint in WORD_ENDPOINTS:
        wants_words()


def prefers_minimal(header: str | None) -> bool:
    """Whether a ``Prefer`` header asks for ``return=minimal`` (among other preferences, with parameters)."""
    if not header:
        return False
    for preference in header.split(","):
        name, _, value = preference.split(";", 1)[0].partition("=")
        if name.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
            return True
    return False


def bad_query(name: str, allowed: tuple[str, ...], detail: Message) -> ApiProblem:
    return ApiProblem(400, "Invalid query parameter", detail, type="invalid-query-parameter",
                      parameter=name, allowed=list(allowed))


@bp.get("/matrix")
def matrix():
    differs = BOOLEANS[query_choice("differs", tuple(BOOLEANS), "false")]
    fmt = query_choice("format", FORMATS, "json")
    variants = loaded_variants()
    table = answers.serialize.matrix(list(variants), build_matrix(variants, differs_only=differs), current_language())
    if fmt == "csv":
        return Response(matrix_csv(table).encode("utf-8"), content_type="text/csv; charset=utf-8")
    return jsonify(table)


def csv_value(value) -> str:
    """A parameter value for one CSV cell: JSON for lists, mappings and booleans; empty when absent."""
    if value is None:
        return ""
    if isinstance(value, (bool, dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def matrix_csv(table: dict) -> str:
    """The matrix as RFC 4180 CSV (CRLF line ends): ``parameter, description`` then value, status and quote
    per variant; the quote is the first citation's words, or the note when there is no citation."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")
    header = ["parameter", "description"]
    for vid in table["variants"]:
        header += [f"{vid} value", f"{vid} status", f"{vid} quote"]
    writer.writerow(header)
    for row in table["rows"]:
        cells = [row["parameter"], row["description"]]
        for vid in table["variants"]:
            v = row["values"][vid]
            quote = v["citations"][0]["quote"] if v["citations"] else (v["note"] or "")
            cells += [csv_value(v["value"]), v["status"], quote]
        writer.writerow(cells)
    return buf.getvalue()
