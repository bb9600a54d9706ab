"""JSON in and out with orjson: the edge's encoder and decoder, several times faster than the standard library's.

Reading: :func:`loads` takes the body's bytes and refuses what is not I-JSON: not
UTF-8, a lone UTF-16 surrogate escape, ``NaN``/``Infinity``, a number too large
for a double, nesting deeper than 1,024 levels. Writing: :class:`OrjsonProvider`
is Flask's JSON provider, so ``jsonify`` and every problem go through orjson, in
the documents' own key order, as UTF-8 (the rule texts are Swedish, Norwegian and
Danish).
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

JSONDecodeError = orjson.JSONDecodeError


def loads(data: bytes | str) -> Any:
    return orjson.loads(data)


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)


class OrjsonProvider(JSONProvider):
    """Flask's JSON through orjson (keys in insertion order, non-ASCII kept)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj).decode("utf-8")

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(dumps(obj), mimetype="application/json")
