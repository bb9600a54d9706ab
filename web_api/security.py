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

from adjudicator.model.messages import msg

from .problems import problem_response
from .request_id import HEADER as REQUEST_ID_HEADER
from .request_id import current_request_id

PAGE_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
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


def _add_cors_headers(response: Response) -> None:
    origins = allowed_origins()
    if not origins or not is_cors_path(request.path):
        return
    response.vary.add("Origin")
    origin = request.headers.get("Origin")
    if origin is not None and origin in origins:
        response.headers["Access-Control-Allow-Origin"] = origin
        if not request.environ.get(_PREFLIGHT_KEY):
            response.headers["Access-Control-Expose-Headers"] = CORS_EXPOSE_HEADERS


def security_headers(page: bool = False) -> dict[str, str]:
    """The security headers of every answer: the page's policy for the page, the API's for the rest.

    Also used by :mod:`web_api.workers` for the errors gunicorn answers before the app sees a request.
    """
    return {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "Content-Security-Policy": PAGE_CSP if page else API_CSP}


def _cache_control(response: Response) -> str | None:
    if response.status_code >= 400:
        return NO_STORE  # every error, a refused preflight included
    if request.environ.get(_PREFLIGHT_KEY):
        return None  # an allowed preflight's caching is Access-Control-Max-Age's job
    if "Cache-Control" in response.headers:
        return None  # the view chose (no-cache + ETag: web_api.caching and the page's files)
    if is_json_api_path(request.path):
        return NO_STORE
    return None


def _relative_location(response: Response) -> None:
    """An absolute ``Location`` on the request's own host becomes a path: never a URL built from ``Host``."""
    location = response.headers.get("Location")
    if not location:
        return
    parts = urlsplit(location)
    if parts.netloc and parts.netloc.lower() == request.host.lower():
        path = "/" + parts.path.lstrip("/")  # "//x" would be another host again
        response.headers["Location"] = urlunsplit(("", "", path, parts.query, parts.fragment))


def _finish(response: Response) -> Response:
    headers = response.headers
    headers[REQUEST_ID_HEADER] = current_request_id()
    headers.update(security_headers(page=is_page_path(request.path)))
    cache = _cache_control(response)
    if cache is not None:
        headers["Cache-Control"] = cache
    if 300 <= response.status_code < 400:
        _relative_location(response)
    _add_cors_headers(response)
    return response


def init_app(app: Flask) -> None:
    """Read the CORS allow-list (``ValueError`` on a bad origin) and install the hooks."""
    app.extensions[_EXTENSION_KEY] = parse_origins(app.config.get(CORS_CONFIG_KEY))
    app.before_request(_answer_preflight)
    app.after_request(_finish)
