"""JSON in and out with orjson: the edge's encoder and decoder, several times faster than the standard library's.

Reading: :func:`loads` takes the body's bytes and refuses what is not I-JSON: not
UTF-8, a lone UTF-16 surrogate escape, ``NaN``/``Infinity``, a number too large
for a double, nesting deeper than 1,024 levels, an object that names a member twice
(:class:`DuplicateKey`, with a JSON pointer to the second one: orjson, like most
parsers, would keep the last one silently). Writing: :class:`OrjsonProvider`
is Flask's JSON provider, so ``jsonify`` and every problem go through orjson, in
the documents' own key order, as UTF-8 (the rule texts are Swedish, Norwegian and
Danish).
"""

from __future__ import annotations

import json
import weakref
from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

JSONDecodeError = orjson.JSONDecodeError


class DuplicateKey(ValueError):
    """A JSON object names a member twice; ``pointer`` (RFC 6901) is the second one."""

    def __init__(self, pointer: str):
        super().__init__(f"duplicate member name at {pointer}")
        self.pointer = pointer


def loads(data: bytes | str) -> Any:
    """The JSON value of ``data``; ``JSONDecodeError`` when it is not I-JSON, :class:`DuplicateKey` when a name repeats.

    Duplicates cost almost nothing to rule out: every member has one ``:`` after its name, and the
    value written out again by orjson holds the same strings (a ``:`` inside one included) with one
    ``:`` per member it kept. So when the body and the value written again hold as many colons, no
    name was dropped. A body with a ``\\u`` escape (which could spell a colon the rewrite spells
    out) is counted member by member instead; only when a count differs is the body read again,
    keeping every pair, to find the duplicate.
    """
    value = orjson.loads(data)
    colon, escape = (b":", b"\\u") if isinstance(data, bytes) else (":", "\\u")
    colons = data.count(colon)
    if escape not in data:
        try:
            if orjson.dumps(value).count(b":") == colons:
                return value
        except orjson.JSONEncodeError:  # pragma: no cover -- orjson writes what it reads
            pass
    if colons != _members(value):
        pointer = _first_duplicate(data)
        if pointer is not None:
            raise DuplicateKey(pointer)
    return value


def _members(value: Any) -> int:
    """Members of every object in ``value``."""
    count, stack = 0, [value] if type(value) in (dict, list) else []
    while stack:
        node = stack.pop()
        if type(node) is dict:
            count += len(node)
            stack.extend(v for v in node.values() if type(v) in (dict, list))
        else:
            stack.extend(v for v in node if type(v) in (dict, list))
    return count


class _Pairs(list):
    """An object as the standard library's parser hands it over: its (name, value) pairs, repeats kept."""


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _first_duplicate(data: bytes | str) -> str | None:
    """The JSON pointer of the first member whose name its object already had, or None."""
    try:
        tree = json.loads(data, object_pairs_hook=_Pairs)
    except RecursionError:  # nested deeper than the standard library follows; orjson took it (at most 1,024)
        return None
    stack: list[tuple[Any, str]] = [(tree, "")]
    while stack:
        node, pointer = stack.pop()
        if isinstance(node, _Pairs):
            seen: set[str] = set()
            for name, member in node:
                if name in seen:
                    return f"{pointer}/{_escape(name)}"
                seen.add(name)
            stack.extend((member, f"{pointer}/{_escape(name)}") for name, member in reversed(node))
        elif isinstance(node, list):
            stack.extend((member, f"{pointer}/{i}") for i, member in reversed(list(enumerate(node))))
    return None


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)


class OrjsonProvider(JSONProvider):
    """Flask's JSON through orjson (keys in insertion order, non-ASCII kept).

    Only Flask's public provider interface is used: the app it serves is kept here (weakly, as Flask keeps
    it), and ``response``'s arguments are read as ``jsonify`` documents them."""

    def __init__(self, app: Any):
        super().__init__(app)
        self.served = weakref.proxy(app)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj).decode("utf-8")

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if args and kwargs:
            raise TypeError("jsonify() behavior undefined when passed both args and kwargs")
        obj = (args[0] if len(args) == 1 else list(args)) if args else (kwargs or None)
        return self.served.response_class(dumps(obj), mimetype="application/json")
