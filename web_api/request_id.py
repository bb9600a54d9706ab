"""Request ids: one per request, echoed as ``X-Request-ID`` on every response.

A client (or a proxy in front of the service) may send its own ``X-Request-ID``;
it is kept when it is *sane*: 1 to 128 characters of ``[A-Za-z0-9._-]``. Anything
else (too long, spaces, quotes, control characters, an empty value) is replaced
by a fresh ``uuid4().hex``, so the id is always safe to put in a header, a log
line (the gunicorn access log prints it) and a JSON body.

The id lives in the WSGI environ of the request (not in ``flask.g``, which an
outer app context can share between requests), and is created on first use:
:func:`current_request_id` works in ``before_request``, in views, in error
handlers and in ``after_request``.
"""

from __future__ import annotations

import random
import re

from flask import has_request_context, request

HEADER = "X-Request-ID"
ENVIRON_HEADER = "HTTP_X_REQUEST_ID"  # the header as the WSGI environ holds it
ENVIRON_KEY = "canasta.request_id"
MAX_LENGTH = 128
SANE = re.compile(r"[A-Za-z0-9._-]{1,%d}" % MAX_LENGTH)


def is_sane(value: str | None) -> bool:
    """True when ``value`` may be used as a request id as it is."""
    return value is not None and SANE.fullmatch(value) is not None


_UUID4_CLEAR = ~((0xF000 << 64) | (0xC000 << 48))  # the version and variant bits of a UUID
_UUID4_SET = (0x4000 << 64) | (0x8000 << 48)  # version 4, RFC 4122 variant


def new_request_id() -> str:
    """A random version-4 UUID in hex, as ``uuid.uuid4().hex`` writes it.

    An id must be unique, not secret (a client may send its own), so it is drawn from ``random``
    (reseeded in each forked worker) rather than the kernel: a twentieth of the cost, on every request.
    """
    return "%032x" % (random.getrandbits(128) & _UUID4_CLEAR | _UUID4_SET)


def current_request_id() -> str | None:
    """This request's id (the client's when sane, else a new one); ``None`` outside a request."""
    if not has_request_context():
        return None
    return request_id_of(request.environ)


def request_id_of(environ: dict) -> str:
    """:func:`current_request_id` from the request's WSGI environ (for the hooks that hold it already)."""
    rid = environ.get(ENVIRON_KEY)
    if rid is None:
        incoming = environ.get(ENVIRON_HEADER)
        rid = incoming if incoming is not None and SANE.fullmatch(incoming) else new_request_id()
        environ[ENVIRON_KEY] = rid
    return rid
