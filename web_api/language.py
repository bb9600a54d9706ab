"""The language of an answer's words: chosen per request, said in ``Content-Language``.

The choice, first that names a supported language wins:

1. the ``lang`` query parameter;
2. the ``lang`` member of a JSON body (read when the body is);
3. ``Accept-Language``, by its q-values;
4. English.

Supported: ``en``, ``sv``, ``nb`` and ``da``; ``no`` and ``nn`` choose ``nb``
(Norwegian Bokmål), and a region never matters (``sv-SE`` is ``sv``, ``nb-NO``
is ``nb``). A tag the service does not speak falls through to the next
candidate, never to an error. Every answer says ``Content-Language`` and
``Vary: Accept-Language``; machine fields (verdicts, rule ids, parameters,
pointers, card codes) never change with the language.
"""

from __future__ import annotations

from flask import request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from adjudicator.words.render import DEFAULT_LANGUAGE, LANGUAGES

DEFAULT = DEFAULT_LANGUAGE
ALIASES = {"no": "nb", "nn": "nb", "nob": "nb", "nno": "nb", "swe": "sv", "dan": "da", "eng": "en"}
_BODY_KEY = "canasta.body_lang"
_CHOSEN_KEY = "canasta.lang"
SAID_IN = frozenset({"application/json", "application/problem+json", "text/csv"})  # answers that say Content-Language
_ACCEPTED: dict[str, str | None] = {}  # Accept-Language header -> the language it chooses (clients send few forms)
_ACCEPTED_MAX = 1024


def supported(tag: object) -> str | None:
    """The supported language a tag names (``sv-SE`` -> ``sv``, ``no`` -> ``nb``), or None."""
    if not isinstance(tag, str) or not tag.strip():
        return None
    primary = tag.strip().replace("_", "-").split("-")[0].lower()
    primary = ALIASES.get(primary, primary)
    return primary if primary in LANGUAGES else None


def remember_body_language(data: dict) -> None:
    """Called with a parsed JSON body: its ``lang`` member, if any, is a candidate."""
    if isinstance(data, dict) and "lang" in data:
        request.environ[_BODY_KEY] = data.get("lang")


def accepted(header: str) -> str | None:
    """The first supported language of an ``Accept-Language`` header by its q-values (worked out once per form)."""
    try:
        return _ACCEPTED[header]
    except KeyError:
        pass
    chosen = next((lang for lang in (supported(tag) for tag, _q in parse_accept_header(header, LanguageAccept))
                   if lang), None)
    if len(_ACCEPTED) >= _ACCEPTED_MAX:
        _ACCEPTED.clear()
    _ACCEPTED[header] = chosen
    return chosen


def current_language() -> str:
    """The language of this request's words (see the module's docstring for the order)."""
    environ = request.environ
    chosen = environ.get(_CHOSEN_KEY)
    if chosen is not None:
        return chosen
    if environ.get("QUERY_STRING"):  # the query is parsed only when there is one
        chosen = next((lang for lang in map(supported, request.args.getlist("lang")) if lang), None)
    if chosen is None:
        chosen = supported(environ.get(_BODY_KEY))
    if chosen is None:
        header = environ.get("HTTP_ACCEPT_LANGUAGE")
        chosen = accepted(header) if header else None
    chosen = chosen or DEFAULT
    environ[_CHOSEN_KEY] = chosen
    return chosen


def says_language(path: str, mimetype: str) -> bool:
    """Whether an answer names its language: the API's JSON, problems and CSV; the page picks its own words."""
    return mimetype in SAID_IN and path != "/" and not path.startswith("/web/")
