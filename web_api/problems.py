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

import re
from typing import Any
from urllib.parse import quote

from flask import Flask, Response, current_app, has_request_context, request
from werkzeug.http import parse_options_header
from werkzeug.exceptions import ClientDisconnected, HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge

from adjudicator.words.catalogue import ENGLISH
from adjudicator.model.errors import AdjudicatorError
from adjudicator.model.messages import Message, msg
from adjudicator.words.render import DEFAULT_LANGUAGE, render, words

from . import jsonio
from .language import current_language, remember_body_language
from .request_id import current_request_id
from adjudicator import answers  # the engine's wing, loaded at the first answer (adjudicator/answers/__init__.py)
from adjudicator.answers.phrases import PROBLEM_BASE, problem_type  # noqa: F401 -- PROBLEM_BASE: its old home

PROBLEM_MIMETYPE = "application/problem+json"


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


def _words(text: str | Message, lang: str) -> str:
    return render(text, lang) if isinstance(text, Message) else text


def problem_body(status: int, title: str, detail: str | Message, *, type: str | None = None,
                 errors: list[dict] | None = None, **extensions: Any) -> dict:
    """The problem document as a dict (``instance`` and ``request_id`` when there is a request).

    The title is the one of its type (``title.<slug>`` in the catalogue), and a detail given as a
    message is rendered, in the request's language.
    """
    slug = type or _slug(title)
    lang = current_language() if has_request_context() else DEFAULT_LANGUAGE
    if f"title.{slug}" in ENGLISH:
        title = words(f"title.{slug}", lang)
    body: dict[str, Any] = {"type": problem_type(slug), "title": title, "status": status,
                            "detail": _words(detail, lang)}
    if has_request_context():
        body["instance"] = quote(request.path, safe="/:@!$&'()*+,;=-._~")
        body["request_id"] = current_request_id()
    if errors:
        body["errors"] = [{"pointer": e["pointer"], "detail": _words(e["detail"], lang),
                           **({"rule": e["rule"]} if "rule" in e else {}),
                           **({"parameters": e["parameters"]} if "parameters" in e else {})} for e in errors]
    for key, value in extensions.items():
        if key not in body and value is not None:
            body[key] = value
    return body


def problem_response(status: int, title: str, detail: str, *, type: str | None = None,
                     errors: list[dict] | None = None, headers: dict[str, str] | None = None,
                     base: Response | None = None, **extensions: Any) -> Response:
    """A ``application/problem+json`` response; ``base`` keeps another response's headers.

    Its words are in the request's language, and it says so (``Content-Language``, ``Vary:
    Accept-Language``) wherever it is answered: under ``/`` and ``/web/`` too, where the page's
    own files choose their words themselves.
    """
    body = problem_body(status, title, detail, type=type, errors=errors, **extensions)
    resp = base if base is not None else Response()
    resp.set_data(jsonio.dumps(body))
    resp.status_code = status
    resp.headers["Content-Type"] = PROBLEM_MIMETYPE
    if has_request_context():
        resp.headers["Content-Language"] = current_language()
        resp.vary.add("Accept-Language")
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


# ----------------------------------------------------------------------------------------------
# Reading request bodies


class BodyTooLarge(Exception):
    """Raised by the server while reading a body whose chunks announce more than the request's limit
    (:mod:`web_api.workers`): the answer is the 413 at once, not after waiting for bytes that would be refused."""


def body_limits(app: Flask) -> tuple[int | None, dict[str, int]]:
    """The largest body ``app`` reads: ``(MAX_CONTENT_LENGTH, {path: its own limit})`` -- the batch endpoints take
    ``BATCH_MAX_CONTENT_LENGTH`` (:mod:`web_api.batch_api`). For the server, which refuses a longer body early."""
    config = app.config
    batches = {rule.rule: config["BATCH_MAX_CONTENT_LENGTH"] for rule in app.url_map.iter_rules()
               if rule.endpoint.startswith("batch.")}
    return config.get("MAX_CONTENT_LENGTH"), batches


def _is_json_mimetype(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def _read_body() -> bytes:
    """The request body; a 413 when it is longer than ``MAX_CONTENT_LENGTH``; a 400 or 408 when it cannot be read.

    werkzeug refuses a too-long Content-Length up front, but a body sent without one
    (chunked; the server sets ``wsgi.input_terminated``) is only cut at the limit. When
    the cut body fills the limit, one more byte from the server's stream tells a body of
    exactly the limit from a longer one.

    Reading fails below the app when the server finds the chunked framing malformed (a
    chunk size that is not hex or too long, a chunk without its CRLF, a bad chunk
    extension or trailer), when the client closes the connection before the body is
    complete (fewer bytes than its Content-Length), or when the body does not arrive in time (gunicorn's worker gives it a
    deadline: :mod:`web_api.workers`). Whatever the server raises, the answer is a
    problem, never a 500 with a traceback: 408 ``request-timeout`` for a late body,
    400 ``malformed-request`` for the rest.
    """

    try:
        raw = _plain_body()
        if raw is not None:
            return raw
        raw = request.get_data(cache=True)
        if request.content_length is not None and len(raw) < request.content_length:
            raise ClientDisconnected()  # a server that terminates the stream itself hands on a short body as it is
        limit = request.max_content_length
        if limit is not None and request.content_length is None and len(raw) >= limit:
            if request.environ["wsgi.input"].read(1):
                raise RequestEntityTooLarge()
        return raw
    except HTTPException as e:
        if not isinstance(e, ClientDisconnected):
            raise  # the 413
        cause = e.__context__  # werkzeug turns the server's OSError or ValueError into ClientDisconnected
    except Exception as e:  # noqa: BLE001 -- the server's own parse errors (gunicorn's InvalidChunkSize, ...)
        cause = e
    if isinstance(cause, BodyTooLarge):
        raise RequestEntityTooLarge() from None
    if isinstance(cause, TimeoutError):
        late = msg("detail.body_late")
        raise ApiProblem(408, "Request Timeout", late, type="request-timeout",
                         errors=[{"pointer": "", "detail": late}]) from None
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    unreadable = msg("detail.body_unreadable",
                     reason=msg("detail.chunked_broken" if chunked else "detail.connection_closed"))
    raise ApiProblem(400, "Malformed request", unreadable, type="malformed-request",
                     errors=[{"pointer": "", "detail": unreadable}]) from None


def _plain_body() -> bytes | None:
    """The body of the common request, read straight from the server's stream; None for any other.

    The common request says how long its body is in plain digits, within the limit, and is not
    chunked: werkzeug's stream around the server's would then read the same bytes (gunicorn's
    reader ends at the length), only slower. A body shorter than its length is a client gone
    (:class:`ClientDisconnected`, as werkzeug says it); whatever the server raises goes to
    :func:`_read_body`'s handlers as it would from werkzeug's stream. Everything else -- no
    length, chunked, over the limit, a body read already -- takes werkzeug's way.
    """
    req = request._get_current_object()  # one look-up of the request, not one per use
    environ = req.environ
    length = environ.get("CONTENT_LENGTH")
    if not length or not length.isascii() or not length.isdigit() \
            or environ.get("HTTP_TRANSFER_ENCODING") == "chunked" or "_cached_data" in req.__dict__:
        return None
    size = int(length)
    limit = req.max_content_length
    if limit is not None and size > limit:
        return None  # werkzeug's 413
    raw = environ["wsgi.input"].read(size) if size else b""
    if len(raw) < size:
        raise ClientDisconnected()
    req._cached_data = raw  # as get_data(cache=True) keeps it
    return raw


_MIMETYPES: dict[str, str] = {}  # Content-Type header -> its media type, lower case (clients send few forms)


def _mimetype(environ: dict) -> str:
    """``request.mimetype`` (werkzeug parses the header per request), worked out once per form of the header."""
    header = environ.get("CONTENT_TYPE", "")
    hit = _MIMETYPES.get(header)
    if hit is None:
        if len(_MIMETYPES) >= 256:
            _MIMETYPES.clear()
        hit = _MIMETYPES[header] = parse_options_header(header)[0].lower()
    return hit


def json_body() -> dict:
    """Return the request body as a JSON object (a ``dict``), or raise an :class:`ApiProblem`.

    * 415 ``unsupported-media-type`` when the Content-Type is not ``application/json``
      (or ``application/*+json``); the response carries ``Accept-Post: application/json``.
    * 400 ``malformed-json`` when the body is empty, not UTF-8 (the detail says at which byte),
      not JSON (``NaN`` and ``Infinity`` included), nested too deeply, or has an integer too long to parse.
    * 400 ``body-not-an-object`` when the JSON is valid but not an object.
    * 400 ``malformed-json`` also when a string holds an unpaired UTF-16 surrogate escape (not text),
      or when an object names a member twice (its pointer is the second one: I-JSON, RFC 7493).
    * 413 (via werkzeug) when the body exceeds ``MAX_CONTENT_LENGTH``, whether the
      Content-Length says so up front or a body without one (chunked) runs past it, or a chunk
      announces more than that (refused at once: :mod:`web_api.workers`).

    400s carry ``errors: [{"pointer": "", "detail": ...}]``. No input bytes make it raise
    anything but an :class:`ApiProblem` or a werkzeug ``HTTPException``. It is :func:`body_bytes`
    then :func:`parse_body`, for a caller with something to do between reading and parsing.
    """
    return parse_body(body_bytes())


def body_bytes() -> bytes:
    """The request body's bytes, read whole (the 415, 413, 408 and 400s of reading: :func:`json_body`)."""
    if not _is_json_mimetype(_mimetype(request.environ)):
        detail = msg("detail.media_type", got=request.mimetype) if request.mimetype else msg("detail.no_media_type")
        raise ApiProblem(415, "Unsupported Media Type", detail, type="unsupported-media-type",
                         headers={"Accept-Post": "application/json"})
    return _read_body()


def parse_body(raw: bytes) -> dict:
    """The JSON object of a body's bytes (the 400s of parsing: :func:`json_body`)."""
    if not raw.strip():
        raise ApiProblem(400, "Malformed JSON", msg("detail.empty_body"), type="malformed-json",
                         errors=[{"pointer": "", "detail": msg("detail.empty_body")}])
    try:
        data = jsonio.loads(raw)  # I-JSON only: UTF-8, no lone surrogates, no NaN, at most 1,024 levels deep
    except jsonio.DuplicateKey as e:
        detail = msg("detail.duplicate_key")
        raise ApiProblem(400, "Malformed JSON", detail, type="malformed-json",
                         errors=[{"pointer": e.pointer, "detail": detail}]) from None
    except jsonio.JSONDecodeError as e:
        detail = _not_json(raw, str(e))
        raise ApiProblem(400, "Malformed JSON", detail, type="malformed-json",
                         errors=[{"pointer": "", "detail": detail}]) from None
    if not isinstance(data, dict):
        kind = {list: "array", str: "string", bool: "boolean", type(None): "null"}.get(type(data), "number")
        detail = msg("detail.not_an_object", kind=msg(f"kind.{kind}"))
        raise ApiProblem(400, "Body is not a JSON object", detail, type="body-not-an-object",
                         errors=[{"pointer": "", "detail": detail}])
    remember_body_language(data)
    return data


def _not_json(raw: bytes, reason: str) -> Message:
    """Why a body is not JSON, in words: bytes that are not UTF-8 (at which byte), nesting too deep, a lone
    surrogate escape, or orjson's own words for the rest ("unexpected character", ...)."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:  # orjson says "surrogates not allowed" of any bytes that are not UTF-8
        return msg("detail.not_utf8", offset=error.start)
    if "depth limit" in reason:
        return msg("detail.too_deep")
    if "surrogate" in reason:
        return msg("detail.surrogate")
    return msg("detail.not_json", reason=reason)


# ----------------------------------------------------------------------------------------------
# Handlers


def _handle_api_problem(e: ApiProblem) -> Response:
    return e.response()


def _handle_http_exception(e: HTTPException) -> Response:
    base = e.get_response()  # keeps headers such as Allow on 405
    status = e.code or 500
    title = e.name
    detail: str | Message = e.description or title
    if isinstance(e, NotFound) and has_request_context():
        detail = msg("detail.not_found", path=request.path)
    elif isinstance(e, MethodNotAllowed) and has_request_context():
        detail = msg("detail.method_not_allowed", method=request.method, path=request.path,
                     allowed=", ".join(e.valid_methods or []))
    elif isinstance(e, RequestEntityTooLarge):  # the request's own limit: a batch's is larger
        limit = request.max_content_length if has_request_context() else current_app.config.get("MAX_CONTENT_LENGTH")
        detail = msg("detail.too_large", limit=limit) if limit else msg("detail.too_large_unknown")
    return problem_response(status, title, detail, base=base)


def _handle_engine_error(e: AdjudicatorError) -> Response:
    members = answers.serialize.problem_members(e, current_language())
    extensions = {k: members[k] for k in ("known", "parameters", "error_count") if k in members}
    return problem_response(members["status"], members["title"], members["detail"], type=members["type"],
                            errors=members["errors"], **extensions)


def _handle_unexpected(e: Exception) -> Response:
    current_app.logger.exception("unhandled error on %s %s (request id %s)", request.method, request.path,
                                 current_request_id())
    return problem_response(500, "Internal Server Error", msg("detail.internal"), type="internal-error")


def register_error_handlers(app: Flask) -> None:
    """Turn every error into a problem response (HTTP errors, engine input errors, crashes)."""
    app.register_error_handler(ApiProblem, _handle_api_problem)
    app.register_error_handler(HTTPException, _handle_http_exception)
    app.register_error_handler(AdjudicatorError, _handle_engine_error)
    app.register_error_handler(Exception, _handle_unexpected)
