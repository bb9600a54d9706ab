"""HTTP hardening in one place: security headers, caching, CORS and request ids on every response.

:func:`init_app` (called by :func:`web_api.create_app` before any blueprint) adds one
``before_request`` hook (CORS preflights) and one ``after_request`` hook. Flask
runs ``after_request`` for every response it builds -- views, problems from the
error handlers (404, 405, 413, 500) and preflights -- so each of them gets:

* ``X-Request-ID`` (see :mod:`web_api.request_id`).
* ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``,
  ``X-Frame-Options: DENY`` (for browsers without CSP ``frame-ancestors``).
* ``Content-Security-Policy``: :data:`PAGE_CSP` for the phone page (``/`` and
  ``/web/*``), which loads only same-origin scripts, styles, images and API calls;
  :data:`API_CSP` for everything else, which is never meant to render as a page.
* ``Cache-Control``: ``no-store`` for every error (any status >= 400, a refused CORS
  preflight included) and for the JSON API (``/v1/*``, ``/healthz``). A view that sets
  its own ``Cache-Control`` keeps it (the page's files: ``no-cache`` with an ETag). The
  resources that only change with a deployment (``/v1/variants...``, ``/v1/matrix``,
  ``/openapi.yaml``) are then made ``no-cache`` with an ETag by :mod:`web_api.caching`,
  whose hook runs after this one.
* ``Location``: a redirect never points at the ``Host`` the client sent. Routing does not
  merge slashes (``url_map.merge_slashes`` is off in :func:`web_api.create_app`), and an
  absolute ``Location`` on the request's own host is made a path (``/web/x``, never
  ``http://<Host>/web/x``), so a forged ``Host`` header cannot turn an answer of this
  service into a redirect to another site.

CORS covers the JSON API only (``/v1/*``, ``/openapi.yaml``, ``/healthz``) and is an
exact allow-list of origins, ``CORS_ALLOWED_ORIGINS`` (config key; :func:`web_api.create_app`
reads the environment variable of the same name, comma-separated; empty or unset means
no cross-origin access). No credentials are ever allowed.

* A request whose ``Origin`` is allowed gets ``Access-Control-Allow-Origin: <origin>``
  and ``Access-Control-Expose-Headers: X-Request-ID``. Any other origin gets no CORS
  headers (the browser then withholds the response from the calling page); the request
  itself is still answered, as the same request from curl would be.
* While the allow-list is not empty, every API response carries ``Vary: Origin``, so a
  shared cache never hands one origin's answer to another.
* A preflight (``OPTIONS`` with ``Origin`` and ``Access-Control-Request-Method``) to an
  existing API resource is answered here: 204 with ``Access-Control-Allow-Methods``,
  ``-Allow-Headers`` and ``-Max-Age`` for an allowed origin; **403** problem
  ``cors-origin-not-allowed`` for any other origin (an explicit refusal that shows up
  in the browser's network panel, rather than a silent 204).
* ``OPTIONS`` without ``Access-Control-Request-Method`` is not a preflight: Flask
  answers it as before (200 with ``Allow``), and other unsupported methods stay
  405 problems with ``Allow``. A preflight to a path that does not exist is a 404.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Response, current_app, request
from werkzeug.datastructures import Headers

from adjudicator.model.messages import msg

from . import caching, compare_api, compression
from .language import current_language, says_language
from .problems import problem_response
from .request_id import HEADER as REQUEST_ID_HEADER
from .request_id import request_id_of

# 'wasm-unsafe-eval': the page's Web Worker compiles the offline engine's WebAssembly (Pyodide); it
# allows WebAssembly compilation only, not eval() or new Function().
PAGE_CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'none'; base-uri 'none'; "
            "form-action 'self'; object-src 'none'")
API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

NO_STORE = "no-store"

CORS_CONFIG_KEY = "CORS_ALLOWED_ORIGINS"
CORS_ALLOW_METHODS = "GET, POST, OPTIONS"
CORS_ALLOW_HEADERS = "Content-Type, X-Request-ID"
CORS_EXPOSE_HEADERS = REQUEST_ID_HEADER
CORS_MAX_AGE = "600"
_ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?")
_EXTENSION_KEY = "canasta.cors_origins"
_PREFLIGHT_KEY = "canasta.preflight"


# ----------------------------------------------------------------------------------------------
# Configuration


def parse_origins(value: str | Iterable[str] | None) -> frozenset[str]:
    """The allow-list from a comma-separated string or a list; raises ``ValueError`` on a bad entry.

    Each entry is an exact origin as a browser sends it: ``scheme://host[:port]``, with no
    path and no trailing slash (lower-cased here, as browsers send it). ``*`` and ``null``
    are refused: the allow-list is explicit.
    """
    if value is None:
        return frozenset()
    items = value.split(",") if isinstance(value, str) else list(value)
    origins = set()
    for item in items:
        origin = str(item).strip()
        if not origin:
            continue
        if not _ORIGIN.fullmatch(origin.lower()):
            raise ValueError(f"{CORS_CONFIG_KEY}: {origin!r} is not an origin like https://example.org "
                             "(scheme://host[:port], no path, no trailing slash; '*' is not supported)")
        origins.add(origin.lower())
    return frozenset(origins)


def allowed_origins() -> frozenset[str]:
    return current_app.extensions[_EXTENSION_KEY]


# ----------------------------------------------------------------------------------------------
# Which path is what


def is_page_path(path: str) -> bool:
    return path == "/" or path.startswith("/web/")


def is_cors_path(path: str) -> bool:
    return path.startswith("/v1/") or path in ("/openapi.yaml", "/healthz")


def is_json_api_path(path: str) -> bool:
    return path.startswith("/v1/") or path == "/healthz"


def is_preflight() -> bool:
    return (request.method == "OPTIONS" and "Origin" in request.headers
            and "Access-Control-Request-Method" in request.headers)


# ----------------------------------------------------------------------------------------------
# Hooks


def _answer_preflight() -> Response | None:
    if not is_preflight() or not is_cors_path(request.path) or request.url_rule is None:
        return None  # not ours: Flask answers it (automatic OPTIONS, 404, 405)
    request.environ[_PREFLIGHT_KEY] = True
    if request.headers["Origin"] not in allowed_origins():
        return problem_response(403, "Origin not allowed", msg("detail.origin"), type="cors-origin-not-allowed")
    response = Response(status=204)
    del response.headers["Content-Type"]  # no content
    response.headers["Access-Control-Allow-Methods"] = CORS_ALLOW_METHODS
    response.headers["Access-Control-Allow-Headers"] = CORS_ALLOW_HEADERS
    response.headers["Access-Control-Max-Age"] = CORS_MAX_AGE
    return response


def _add_cors_headers(response: Response, environ: dict, origins: frozenset[str], vary: list[str]) -> None:
    """CORS headers on an answer of the JSON API, for an allow-list that is not empty."""
    vary.append("Origin")
    origin = environ.get("HTTP_ORIGIN")
    if origin is not None and origin in origins:
        response.headers["Access-Control-Allow-Origin"] = origin
        if not environ.get(_PREFLIGHT_KEY):
            response.headers["Access-Control-Expose-Headers"] = CORS_EXPOSE_HEADERS


def security_headers(page: bool = False) -> dict[str, str]:
    """The security headers of every answer: the page's policy for the page, the API's for the rest.

    Also used by :mod:`web_api.workers` for the errors gunicorn answers before the app sees a request.
    """
    return {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "Content-Security-Policy": PAGE_CSP if page else API_CSP}


# The same four headers on every answer: checked and made (name, value) pairs once, appended as they are.
_PAGE_HEADERS = tuple(Headers(security_headers(page=True)).items())
_API_HEADERS = tuple(Headers(security_headers(page=False)).items())
_PAGE_NO_STORE = _PAGE_HEADERS + (("Cache-Control", NO_STORE),)
_API_NO_STORE = _API_HEADERS + (("Cache-Control", NO_STORE),)


def _append(headers: Headers, pairs: tuple) -> None:
    """Add header pairs checked once above (werkzeug would check each again on every answer)."""
    raw = getattr(headers, "_list", None)
    if type(raw) is list:
        raw.extend(pairs)
    else:  # pragma: no cover -- a werkzeug without the list inside: the public, checking way
        headers.extend(pairs)


def _relative_location(response: Response) -> None:
    """An absolute ``Location`` on the request's own host becomes a path: never a URL built from ``Host``."""
    location = response.headers.get("Location")
    if not location:
        return
    parts = urlsplit(location)
    if parts.netloc and parts.netloc.lower() == request.host.lower():
        path = "/" + parts.path.lstrip("/")  # "//x" would be another host again
        response.headers["Location"] = urlunsplit(("", "", path, parts.query, parts.fragment))


def _finish_for(origins: frozenset[str]):
    """The app's one ``after_request`` hook, for its CORS allow-list (read once, in :func:`init_app`)."""

    def finish(response: Response) -> Response:
        """Everything every answer gets, each header written once, the request and headers read once.

        In order: ``Content-Language`` (:mod:`web_api.language`), the request id and the security
        headers, ``Cache-Control``, a relative ``Location``, CORS, then revalidation
        (:mod:`web_api.caching`, GET and HEAD) and compression (:mod:`web_api.compression`, last:
        after the ETag of the plain body). ``Vary`` collects what each depends on and is written at
        the end, after any a view set.
        """
        req = request._get_current_object()  # one look-up of the request, not one per use
        environ, path = req.environ, req.path
        headers = response.headers
        present = {name.lower(): value for name, value in headers.items()}  # the view's headers, read once
        ctype = present.get("content-type")
        mimetype = ctype.split(";", 1)[0].strip().lower() if ctype else ""
        vary: list[str] = []
        if says_language(path, mimetype):
            if "content-language" not in present:  # a problem says it already (web_api.problems): once
                headers.add("Content-Language", current_language())
            vary.append("Accept-Language")
        headers.add(REQUEST_ID_HEADER, request_id_of(environ))
        page = is_page_path(path)
        status = response.status_code
        if status >= 400:
            cache = NO_STORE  # every error, a refused preflight included
        elif environ.get(_PREFLIGHT_KEY) or "cache-control" in present:
            cache = None  # Access-Control-Max-Age's job; or the view chose (no-cache + ETag)
        else:
            cache = NO_STORE if is_json_api_path(path) else None
        if cache is None:
            _append(headers, _PAGE_HEADERS if page else _API_HEADERS)
        elif "cache-control" in present:  # an error of a view that chose its own caching: no-store wins
            _append(headers, _PAGE_HEADERS if page else _API_HEADERS)
            headers["Cache-Control"] = cache
        else:  # the JSON API and errors, the common case: in one step
            _append(headers, _PAGE_NO_STORE if page else _API_NO_STORE)
        if 300 <= status < 400:
            _relative_location(response)
        if origins and is_cors_path(path):
            _add_cors_headers(response, environ, origins, vary)
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            caching.conditional(response, environ, mimetype, vary)
        compression.compress(response, environ, mimetype, vary, present)
        if compare_api.WORDS_KEY in environ:  # the answer depends on Prefer (web_api.compare_api.wants_words)
            vary.append("Prefer")
            applied = environ.get(compare_api.PREFERENCE_KEY)
            if applied and status < 400:
                headers.add("Preference-Applied", applied)
        if vary:
            _add_vary(headers, vary, present.get("vary"))
        return response

    return finish


def _add_vary(headers: Headers, names: list[str], current: str | None) -> None:
    """Add ``names`` to the answer's ``Vary`` (once each, after ``current``, those a view set)."""
    if current is None:
        headers.add("Vary", ", ".join(dict.fromkeys(names)))
        return
    have = [v.strip() for v in current.split(",") if v.strip()]
    lower = {v.lower() for v in have}
    for name in names:
        if name.lower() not in lower:
            have.append(name)
            lower.add(name.lower())
    headers["Vary"] = ", ".join(have)


def init_app(app: Flask) -> None:
    """Read the CORS allow-list (``ValueError`` on a bad origin) and install the hooks."""
    app.extensions[_EXTENSION_KEY] = parse_origins(app.config.get(CORS_CONFIG_KEY))
    app.before_request(_answer_preflight)
    app.after_request(_finish_for(app.extensions[_EXTENSION_KEY]))
