"""RFC 9457 problem details for every error the service returns, and the JSON body reader.

Every error response is ``application/problem+json``::

    {"type": "https://canasta-referee.example/problems/<slug>",
     "title": "...", "status": 422, "detail": "...", "instance": "/v1/...",
     "errors": [{"pointer": "/hand/0", "detail": "..."}]}

``request_id`` is the request's ``X-Request-ID`` (echoed as that response header too),
so a report from a client can be matched with the server's logs.

``errors`` is present only when one or more fields of the request are at fault;
each ``pointer`` is an RFC 6901 JSON pointer into the request body (``""`` is
the whole body). Problem types are always absolute URIs under
:data:`PROBLEM_BASE`; the slug names the kind of problem (``not-found``,
``method-not-allowed``, ``malformed-json``, ``validation-failed``,
``unknown-variant``, ``rule-not-stated``, ...). Extra members (``known``,
``parameters``) are RFC 9457 extension members.

For handlers and later endpoints:

* :class:`ApiProblem` -- raise it anywhere inside a request to answer with a problem.
* :func:`json_body` -- read the request body as a JSON object, or raise 415/400 problems.
* :func:`problem_response` -- build a problem response directly.
* :func:`register_error_handlers` -- wired up by :func:`web_api.create_app`.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from flask import Flask, Response, current_app, has_request_context, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge

from adjudicator.errors import InputError

from .request_id import current_request_id

PROBLEM_BASE = "https://canasta-referee.example/problems/"
PROBLEM_MIMETYPE = "application/problem+json"


def problem_type(slug: str) -> str:
    """The problem ``type`` URI for a slug such as ``"validation-failed"``."""
    return PROBLEM_BASE + slug


class ApiProblem(Exception):
    """An error that becomes an RFC 9457 problem response.

    :param status: HTTP status code.
    :param title: short, stable summary of the problem type.
    :param detail: explanation of this occurrence, for a human.
    :param type: slug appended to :data:`PROBLEM_BASE`; defaults to one derived from ``title``.
    :param errors: ``[{"pointer": ..., "detail": ...}]`` when request fields are at fault.
    :param headers: extra response headers (e.g. ``Allow``).
    :param extensions: extra top-level members (e.g. ``known=[...]``).
    """

    def __init__(self, status: int, title: str, detail: str, *, type: str | None = None,
                 errors: list[dict] | None = None, headers: dict[str, str] | None = None,
                 **extensions: Any):
        super().__init__(detail)
        self.status = status
        self.title = title
        self.detail = detail
        self.type = type or _slug(title)
        self.errors = errors or []
        self.headers = headers or {}
        self.extensions = extensions

    def response(self) -> Response:
        return problem_response(self.status, self.title, self.detail, type=self.type, errors=self.errors,
                                headers=self.headers, **self.extensions)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "problem"


def problem_body(status: int, title: str, detail: str, *, type: str | None = None,
                 errors: list[dict] | None = None, **extensions: Any) -> dict:
    """The problem document as a dict (``instance`` and ``request_id`` when there is a request)."""
    body: dict[str, Any] = {"type": problem_type(type or _slug(title)), "title": title,
                            "status": status, "detail": detail}
    if has_request_context():
        body["instance"] = quote(request.path, safe="/:@!$&'()*+,;=-._~")
        body["request_id"] = current_request_id()
    if errors:
        body["errors"] = [{"pointer": e["pointer"], "detail": e["detail"]} for e in errors]
    for key, value in extensions.items():
        if key not in body and value is not None:
            body[key] = value
    return body


def problem_response(status: int, title: str, detail: str, *, type: str | None = None,
                     errors: list[dict] | None = None, headers: dict[str, str] | None = None,
                     base: Response | None = None, **extensions: Any) -> Response:
    """A ``application/problem+json`` response; ``base`` keeps another response's headers."""
    body = problem_body(status, title, detail, type=type, errors=errors, **extensions)
    resp = base if base is not None else Response()
    resp.set_data(current_app.json.dumps(body, separators=(",", ":")).encode("utf-8"))
    resp.status_code = status
    resp.headers["Content-Type"] = PROBLEM_MIMETYPE
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


# ----------------------------------------------------------------------------------------------
# Reading request bodies


def _is_json_mimetype(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _read_body() -> bytes:
    """The request body, or a 413 when it is longer than ``MAX_CONTENT_LENGTH``.

    werkzeug refuses a too-long Content-Length up front, but a body sent without one
    (chunked; the server sets ``wsgi.input_terminated``) is only cut at the limit. When
    the cut body fills the limit, one more byte from the server's stream tells a body of
    exactly the limit from a longer one.
    """
    raw = request.get_data(cache=True)
    limit = request.max_content_length
    if limit is not None and request.content_length is None and len(raw) >= limit:
        if request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
    return raw


def json_body() -> dict:
    """Return the request body as a JSON object (a ``dict``), or raise an :class:`ApiProblem`.

    * 415 ``unsupported-media-type`` when the Content-Type is not ``application/json``
      (or ``application/*+json``); the response carries ``Accept-Post: application/json``.
    * 400 ``malformed-json`` when the body is empty, not UTF-8, not JSON (``NaN`` and
      ``Infinity`` included), nested too deeply, or has an integer too long to parse.
    * 400 ``body-not-an-object`` when the JSON is valid but not an object.
    * 413 (via werkzeug) when the body exceeds ``MAX_CONTENT_LENGTH``, whether the
      Content-Length says so up front or a body without one (chunked) runs past it.

    400s carry ``errors: [{"pointer": "", "detail": ...}]``. No input bytes make it raise
    anything but an :class:`ApiProblem` or a werkzeug ``HTTPException``.
    """
    if not _is_json_mimetype(request.mimetype):
        got = request.mimetype or "no Content-Type"
        raise ApiProblem(415, "Unsupported Media Type",
                         f"the request body must be application/json, not {got}",
                         type="unsupported-media-type", headers={"Accept-Post": "application/json"})
    raw = _read_body()
    if not raw.strip():
        raise ApiProblem(400, "Malformed JSON", "the request body is empty; send a JSON object",
                         type="malformed-json", errors=[{"pointer": "", "detail": "empty body"}])
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        reason = str(e) if not isinstance(e, RecursionError) else "nested too deeply"
        raise ApiProblem(400, "Malformed JSON", f"the request body is not valid UTF-8 JSON: {reason}",
                         type="malformed-json", errors=[{"pointer": "", "detail": reason}]) from None
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(data), "a number")
        raise ApiProblem(400, "Body is not a JSON object", f"the request body must be a JSON object, not {kind}",
                         type="body-not-an-object", errors=[{"pointer": "", "detail": f"expected an object, got {kind}"}])
    return data


# ----------------------------------------------------------------------------------------------
# Handlers


def _handle_api_problem(e: ApiProblem) -> Response:
    return e.response()


def _handle_http_exception(e: HTTPException) -> Response:
    base = e.get_response()  # keeps headers such as Allow on 405
    status = e.code or 500
    title = e.name
    detail = e.description or title
    if isinstance(e, NotFound) and has_request_context():
        detail = f"there is no resource at {request.path}"
    elif isinstance(e, MethodNotAllowed) and has_request_context():
        allowed = ", ".join(e.valid_methods or [])
        detail = f"{request.method} is not allowed on {request.path}; allowed: {allowed}"
    elif isinstance(e, RequestEntityTooLarge):
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        detail = (f"the request body is larger than the {limit} bytes this service accepts" if limit
                  else "the request body is larger than this service accepts")
    return problem_response(status, title, detail, base=base)


def _handle_input_error(e: InputError) -> Response:
    extensions = {}
    for name in ("known", "parameters"):
        if hasattr(e, name):
            extensions[name] = list(getattr(e, name))
    extensions.update(getattr(e, "extensions", None) or {})
    return problem_response(e.status, e.title, e.detail, type=e.type, errors=e.errors, **extensions)


def _handle_unexpected(e: Exception) -> Response:
    current_app.logger.exception("unhandled error on %s %s (request id %s)", request.method, request.path,
                                 current_request_id())
    return problem_response(500, "Internal Server Error",
                            "the server failed to handle this request; the error has been logged",
                            type="internal-error")


def register_error_handlers(app: Flask) -> None:
    """Turn every error into a problem response (HTTP errors, engine input errors, crashes)."""
    app.register_error_handler(ApiProblem, _handle_api_problem)
    app.register_error_handler(HTTPException, _handle_http_exception)
    app.register_error_handler(InputError, _handle_input_error)
    app.register_error_handler(Exception, _handle_unexpected)
