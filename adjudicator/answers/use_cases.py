"""One answer for every edge: a request body in, its status and its JSON document out.

:func:`answer` is what the service's views, the items of a batch, the phone's Web Worker and the command
line all call, so none of them can drift from another: it parses the body (:mod:`adjudicator.input`),
rules, scores, lists, compares or replays, serializes the result in the reader's language
(:mod:`.serialize`) and turns the engine's typed errors into RFC 9457 problem documents. What belongs to
HTTP alone -- reading query parameters and headers, ETags, compression, request ids, a problem's
``instance`` -- stays with the web layer, which adds it around the document given here.

A problem document here has its ``type`` as a URI and no ``instance`` or ``request_id``; an item of a
batch that fails is that item's problem (``known``, which belongs to a whole answer's 404, left out).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Callable, Final

from ..compare.comparison import compare as compare_variants
from ..input.parse import compare_request, options_request, ruling_request, score_request
from ..input.payloads import replay_payload
from ..input.shape import check
from ..model.errors import AdjudicatorError
from ..model.messages import Message, msg
from ..options.listing import legal_moves
from ..options.paging import GROUP_KINDS, LIMIT, Page
from ..rules.engine import rule
from ..scoring import score as score_sheet
from ..variants import Variant, load_all
from ..words.render import DEFAULT_LANGUAGE, LANGUAGES, words
from . import serialize
from .phrases import register_phrases
from .serialize import item_problem, problem_members, problem_type

register_phrases()  # the problems' titles and details join the engine's catalogue (again: no change)

KINDS: Final = ("adjudicate", "batch", "options", "score", "score_batch", "compare", "replay")
GROUPS: Final = GROUP_KINDS  # what ``group`` may name (options)
PAGE: Final = LIMIT  # options: a page of this many per group unless asked otherwise, whoever asks (None: all)
CITATION_FORMS: Final = ("full", "refs")  # compare: each citation in place, or once in a table and referenced


@dataclass(frozen=True, slots=True)
class Answer:
    """What an edge sends back: the HTTP status it stands for (200, or a problem's) and the JSON document."""

    status: int
    document: dict


@dataclass(frozen=True, slots=True)
class Asked:
    """How the reader asked for the answer: the variants it is ruled under and the form of the document."""

    variants: dict
    words: bool = True  # rulings with their sentences (False: keys, rule ids, verdicts and citations only)
    limit: int | None = PAGE  # options: a page of at most this many per group (None: every option)
    offset: int = 0  # options: where the page starts in each group
    group: str | None = None  # options: only the group of this kind
    citations: str = "full"  # compare: "refs" gives each citation once, in a table, referenced where used
    # options, compare: called with each variant's listing, ``[(variant id, listing)]``, once its groups' sizes
    # are known and before any option of the page is made; it may raise to stop there (the service's budget)
    admit: Callable[[list], None] | None = None
    # options, compare: makes a long list of the document as it is written, ``lazily(make, items)`` (the
    # service's streamed answers); None: every list made whole
    lazily: Callable[[Callable, Any], Any] | None = None

    @property
    def page(self) -> Page:
        """The page of each options listing the answer shows."""
        return Page(self.limit, self.offset, self.group)


def answer(kind: str, body: Any, lang: str = DEFAULT_LANGUAGE, *, variants: dict[str, Variant] | None = None,
           words: bool = True, limit: int | None = PAGE, offset: int = 0, group: str | None = None,
           citations: str = "full", admit: Callable[[list], None] | None = None,
           lazily: Callable[[Callable, Any], Any] | None = None) -> Answer:
    """The answer to ``body`` (the JSON the service's endpoint for ``kind`` takes, already decoded).

    ``kind`` is one of :data:`KINDS`; ``lang`` one of the languages the words speak (another is read as
    English); ``variants`` the loaded variants (default: :func:`~adjudicator.variants.load_all`). The
    options say what form the document takes (:class:`Asked`); a kind ignores those that are not its own.
    Only an engine error becomes a problem; any other exception is a fault of this code and is raised.
    """
    made = _MADE.get(kind)
    if made is None:
        raise ValueError(f"no such kind of answer: {kind!r}; the kinds are {', '.join(KINDS)}")
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    if type(body) is not dict:
        return not_an_object(body, lang)
    asked = Asked(load_all() if variants is None else variants, words, limit, offset, group, citations, admit, lazily)
    try:
        return Answer(200, made(body, lang, asked))
    except AdjudicatorError as error:
        members = problem_members(error, lang)
        members["type"] = problem_type(members["type"])
        return Answer(members["status"], members)


def batch_item(kind: str, item: Any, lang: str, variants: dict[str, Variant], words: bool = True) -> dict:
    """One item of a batch (``kind``: ``adjudicate`` or ``score``): ``{"ruling": ...}`` or ``{"score": ...}``, or
    ``{"problem": ...}`` when the engine refuses it (its pointers are into the item)."""
    member = _ITEMS.get(kind)
    if member is None:
        raise ValueError(f"a batch holds rulings or scores, not {kind!r}")
    try:
        return {member: _MADE[kind](item, lang, Asked(variants, words))}
    except AdjudicatorError as error:
        return {"problem": item_problem(error, lang, problem_type)}


# ----------------------------------------------------------------------------------------------
# Each kind: parse, work out, serialize


def _adjudicate(body: Any, lang: str, asked: Asked) -> dict:
    request = ruling_request(body, asked.variants)
    return serialize.ruling(rule(request.situation, request.action, request.rules), lang, asked.words)


def _score(body: Any, lang: str, asked: Asked) -> dict:
    return serialize.score(score_sheet(score_request(body, asked.variants), asked.variants), lang)


def _options(body: Any, lang: str, asked: Asked) -> dict:
    request = options_request(body, asked.variants)
    page = asked.page
    listed = legal_moves(request.situation, request.rules, page.group)  # one group asked: the others not walked
    if asked.admit is not None:
        asked.admit([(listed.variant, listed)])
    if asked.lazily is None:
        return serialize.options(listed, lang, limit=page.limit, offset=page.offset, only=page.group,
                                 words=asked.words)
    document = serialize.options(listed, lang, limit=0, offset=page.offset, only=page.group, words=asked.words)
    for shown, group in zip(document["groups"], page.groups(listed)):
        shown["options"] = asked.lazily(lambda o: serialize.option(o, lang, asked.words), page.each(group))
    return document


def _compare(body: Any, lang: str, asked: Asked) -> dict:
    variants = asked.variants
    page = asked.page
    result = compare_variants(compare_request(body, variants), variants, page, asked.admit)
    if asked.citations != "refs":  # (a table of citations is complete only once all is made: whole)
        if asked.lazily is not None and result.kind == "options":
            return _options_compared(result, lang, asked)
        return serialize.comparison(result, lang, problem_type, asked.words)
    with serialize.citation_table() as table:
        out = serialize.comparison(result, lang, problem_type, asked.words)
    out["citations"] = table
    return out


def _options_compared(result: Any, lang: str, asked: Asked) -> dict:
    """A comparison of options, each variant's page and the differences made as the answer is written."""
    page, lazily = result.page, asked.lazily
    assert lazily is not None  # _compare calls this only for a document written as it is made
    head = replace(result, page=Page(0, page.offset, page.group), differences=())
    document = serialize.comparison(head, lang, problem_type, asked.words)
    for shown, answered in zip(document["results"], result.results):
        if answered.options is not None:
            for group_shown, group in zip(shown["options"]["groups"], page.groups(answered.options)):
                group_shown["options"] = lazily(lambda o: serialize.option(o, lang, asked.words), page.of(group))
    document["differences"] = lazily(lambda d: serialize.options_difference(d, lang), result.differences)
    return document


def _replay(body: Any, lang: str, asked: Asked) -> dict:
    return serialize.replay(replay_payload(body, asked.variants), lang)


def _batch(body: Any, lang: str, asked: Asked) -> dict:
    items = check(body, "batch", asked.variants)["requests"]
    return {"results": [batch_item("adjudicate", item, lang, asked.variants, asked.words) for item in items]}


def _score_batch(body: Any, lang: str, asked: Asked) -> dict:
    items = check(body, "batch", asked.variants)["requests"]
    return {"results": [batch_item("score", item, lang, asked.variants) for item in items]}


_MADE: Final[dict[str, Callable[[Any, str, Asked], dict]]] = {
    "adjudicate": _adjudicate, "batch": _batch, "options": _options, "score": _score,
    "score_batch": _score_batch, "compare": _compare, "replay": _replay}
_ITEMS: Final = {"adjudicate": "ruling", "score": "score"}  # what a batch may hold: the kind, and its member


# ----------------------------------------------------------------------------------------------
# Bodies as JSON text (the command line, the phone's worker): decoded here, so both read them alike


def answer_json(kind: str, text: str | bytes, lang: str = DEFAULT_LANGUAGE, **options: Any) -> Answer:
    """:func:`answer` for a body given as JSON text; text that is not JSON is a 400 ``malformed-json``
    problem, as the service answers it (a member named twice included: I-JSON, RFC 7493)."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    if kind not in _MADE:
        return problem(404, "not-found", msg("detail.not_found", path=kind), lang, pointer=None)
    try:
        body = decode(text)
    except MalformedJson as error:
        return problem(400, "malformed-json", error.message, lang, pointer=error.pointer)
    return answer(kind, body, lang, **options)


def to_json(document: dict) -> str:
    """A document as compact JSON text, keys in their order, non-ASCII kept (the rule texts are Nordic)."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


class MalformedJson(ValueError):
    """Text that is not one I-JSON value: ``message`` says why, ``pointer`` where (RFC 6901; "" for the whole)."""

    def __init__(self, message: Message, pointer: str = ""):
        super().__init__(message.key)
        self.message = message
        self.pointer = pointer


def decode(text: str | bytes) -> Any:
    """The JSON value of ``text``, or :class:`MalformedJson`: not UTF-8, empty, not JSON, ``NaN`` or
    ``Infinity``, nested too deeply, or an object that names a member twice (pointed at)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MalformedJson(msg("detail.not_utf8", offset=error.start)) from None
    if not text.strip():
        raise MalformedJson(msg("detail.empty_body"))
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except RecursionError:
        raise MalformedJson(msg("detail.too_deep")) from None
    except _Duplicate:
        raise MalformedJson(msg("detail.duplicate_key"), _first_duplicate(text)) from None
    except ValueError as error:  # json.JSONDecodeError is a ValueError; so is a NaN refused
        raise MalformedJson(msg("detail.not_json", reason=str(error))) from None


class _Duplicate(Exception):
    """An object names a member twice (where is found by reading the text again, keeping every pair)."""


def _object(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Duplicate()
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _pairs(pairs: list) -> tuple:
    return (_PAIRS, pairs)  # a tuple stands for an object: JSON makes no tuples of its own


_PAIRS: Final = "pairs"


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _first_duplicate(text: str) -> str:
    """The JSON pointer of the first member (depth first) whose name its object already had."""
    stack: list[tuple[Any, str]] = [(json.loads(text, object_pairs_hook=_pairs), "")]
    while stack:
        node, at = stack.pop()
        below: list[tuple[Any, str]] = []
        if type(node) is tuple:
            pairs: list = node[1]
            seen: set[str] = set()
            for name, member in pairs:
                if name in seen:
                    return f"{at}/{_escape(name)}"
                seen.add(name)
                below.append((member, f"{at}/{_escape(name)}"))
        elif type(node) is list:
            items: list = node
            for i in range(len(items)):
                below.append((items[i], f"{at}/{i}"))
        below.reverse()  # the first member is looked at first
        stack.extend(below)
    return ""


# ----------------------------------------------------------------------------------------------
# Problems that are not the engine's


def problem(status: int, slug: str, detail: Message, lang: str, pointer: str | None = "") -> Answer:
    """A problem document of type ``slug`` (its title is ``title.<slug>``), its detail in ``lang``; with a
    pointer (None: none), one fault there."""
    said = words(detail.key, lang, **detail.args)
    out: dict = {"type": problem_type(slug), "title": words(f"title.{slug}", lang), "status": status,
                 "detail": said}
    if pointer is not None:
        out["errors"] = [{"pointer": pointer, "detail": said}]
    return Answer(status, out)


_KINDS_OF_JSON: Final = {list: "array", str: "string", bool: "boolean", type(None): "null"}


def not_an_object(body: Any, lang: str) -> Answer:
    """The 400 for a body that is JSON but not an object (an array, a string, ...)."""
    kind = _KINDS_OF_JSON.get(type(body), "number")
    return problem(400, "body-not-an-object", msg("detail.not_an_object", kind=msg(f"kind.{kind}")), lang)
