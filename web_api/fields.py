"""Strict marshmallow fields and the bridge from marshmallow errors to 422 problems.

JSON has exact types; the service does not coerce between them. marshmallow's
stock fields accept ``"2"`` for an integer and ``"yes"`` for a boolean, so
request schemas use these fields instead:

* :class:`StrictInteger` -- a JSON number with an integral value: ``2`` and ``2.0`` load
  as ``2``; ``2.5``, ``"2"``, ``true`` and ``NaN``/``Infinity`` are rejected.
* :class:`StrictFloat` -- any finite JSON number (not a string, not a boolean), loaded as ``float``.
* :class:`StrictBoolean` -- only ``true`` or ``false``.
* :class:`StrictString` -- only a JSON string.

All accept the usual marshmallow keyword arguments (``required``, ``allow_none``,
``validate``, ``data_key``, ...).

To validate a request body, use :func:`load_or_422`::

    from web_api.problems import json_body
    from web_api.fields import load_or_422

    data = load_or_422(MySchema(), json_body())

Schemas should keep marshmallow's default ``unknown = RAISE`` so that misspelt
members are reported ("Unknown field.") instead of silently dropped.
A :class:`marshmallow.ValidationError` becomes a 422 ``validation-failed``
problem whose ``errors`` are ``[{"pointer": "/hand/0/rank", "detail": "..."}]``
(see :func:`messages_to_errors`).
"""

from __future__ import annotations

import math
from typing import Any

from marshmallow import Schema, ValidationError, fields

from .problems import ApiProblem

__all__ = ["StrictInteger", "StrictFloat", "StrictBoolean", "StrictString", "messages_to_errors",
           "raise_validation_problem", "load_or_422", "validation_problem"]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class StrictInteger(fields.Integer):
    """A JSON number with an integral value; ``2.0`` loads as ``2``; strings, booleans and ``2.5`` do not load."""

    default_error_messages = {"invalid": "Not a valid integer.", "not_integral": "Not an integer (has a fraction)."}

    def _validated(self, value: Any) -> int:
        if not _is_number(value):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self.make_error("invalid", input=value)
            if not value.is_integer():
                raise self.make_error("not_integral", input=value)
            return int(value)
        return int(value)


class StrictFloat(fields.Float):
    """A finite JSON number (integer or fraction), loaded as ``float``; strings and booleans do not load."""

    default_error_messages = {"invalid": "Not a valid number."}

    def _validated(self, value: Any) -> float:
        if not _is_number(value):
            raise self.make_error("invalid", input=value)
        try:
            num = float(value)
        except OverflowError as error:
            raise self.make_error("too_large", input=value) from error
        if not math.isfinite(num):
            raise self.make_error("special")
        return num


class StrictBoolean(fields.Boolean):
    """Only JSON ``true`` or ``false``; ``1``, ``"true"`` and ``"yes"`` do not load."""

    default_error_messages = {"invalid": "Not a valid boolean (use true or false)."}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid", input=value)


class StrictString(fields.String):
    """Only a JSON string; numbers, booleans, arrays and objects do not load."""

    def _deserialize(self, value: Any, attr, data, **kwargs) -> str:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        return value


def _escape(part: object) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def messages_to_errors(messages: Any, prefix: str = "") -> list[dict]:
    """Flatten ``ValidationError.messages`` into ``[{"pointer", "detail"}]`` with JSON pointers.

    Nested dicts become path segments and list indexes become numeric segments
    (``{"hand": {0: {"rank": ["Not a valid string."]}}}`` gives pointer
    ``/hand/0/rank``). marshmallow's schema-level key ``_schema`` points at the
    object itself. ``prefix`` is prepended to every pointer (use it when the
    validated data sits inside a larger body, e.g. ``"/house_rules"``).
    Pointers are escaped per RFC 6901 (``~`` -> ``~0``, ``/`` -> ``~1``).
    """
    out: list[dict] = []

    def walk(node: Any, pointer: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, pointer if key == "_schema" else f"{pointer}/{_escape(key)}")
        elif isinstance(node, (list, tuple)):
            for item in node:
                if isinstance(item, (dict, list, tuple)):
                    walk(item, pointer)
                else:
                    out.append({"pointer": pointer, "detail": str(item)})
        else:
            out.append({"pointer": pointer, "detail": str(node)})

    walk(messages, prefix)
    return out


def validation_problem(errors: list[dict], detail: str | None = None) -> ApiProblem:
    """The 422 ``validation-failed`` problem for a list of ``{pointer, detail}``."""
    summary = detail or "; ".join(f"{e['pointer'] or '/'}: {e['detail']}" for e in errors[:5])
    if detail is None and len(errors) > 5:
        summary += f"; and {len(errors) - 5} more"
    return ApiProblem(422, "Validation failed", summary or "the request body is invalid",
                      type="validation-failed", errors=errors)


def raise_validation_problem(error: ValidationError, prefix: str = "") -> None:
    """Raise the 422 problem for a marshmallow :class:`ValidationError` (always raises)."""
    raise validation_problem(messages_to_errors(error.messages, prefix)) from error


def load_or_422(schema: Schema, data: Any, *, prefix: str = "", **load_kwargs: Any) -> Any:
    """``schema.load(data)``, turning a :class:`ValidationError` into a 422 problem with pointers."""
    try:
        return schema.load(data, **load_kwargs)
    except ValidationError as error:
        raise_validation_problem(error, prefix)
