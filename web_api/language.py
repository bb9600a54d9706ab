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

from flask import Flask, Response, request

from adjudicator.words.render import DEFAULT_LANGUAGE, LANGUAGES

DEFAULT = DEFAULT_LANGUAGE
ALIASES = {"no": "nb", "nn": "nb", "nob": "nb", "nno": "nb", "swe": "sv", "dan": "da", "eng": "en"}
_BODY_KEY = "canasta.body_lang"
_CHOSEN_KEY = "canasta.lang"


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


def current_language() -> str:
    """The language of this request's words (see the module's docstring for the order)."""
    chosen = request.environ.get(_CHOSEN_KEY)
    if chosen is not None:
        return chosen
    candidates = [*request.args.getlist("lang"), request.environ.get(_BODY_KEY)]
    chosen = next((lang for lang in map(supported, candidates) if lang), None)
    if chosen is None:
        for tag, _quality in request.accept_languages:  # werkzeug sorts them by q-value
            chosen = supported(tag)
            if chosen:
                break
    chosen = chosen or DEFAULT
    request.environ[_CHOSEN_KEY] = chosen
    return chosen


def _say_language(response: Response) -> Response:
    if request.path.startswith("/web/") or request.path == "/":  # the page picks its own words
        return response
    if response.mimetype in ("application/json", "application/problem+json", "text/csv"):
        response.headers["Content-Language"] = current_language()
        response.vary.add("Accept-Language")
    return response


def init_app(app: Flask) -> None:
    app.after_request(_say_language)
