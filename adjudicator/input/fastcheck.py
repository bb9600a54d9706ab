"""A fast path through a marshmallow schema: decide "valid" without building error messages.

marshmallow costs most of a request (a field object called per member, errors
gathered as it goes). Nearly every request is valid, so :func:`compile_schema`
turns a schema into a plain function that walks the value once and either
returns it loaded -- exactly what ``schema.load`` returns -- or ``None``, "not
sure": the caller then runs the real schema, which finds and words the faults.
The schema stays the one statement of the rules; this module only reads it
(field types, ``required``, ``allow_none``, ``Length`` and ``Range``), and a
field it does not know makes the whole schema take the slow path.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Final

from marshmallow import Schema, fields
from marshmallow.validate import Length, Range

from .shape_fields import MAX_CARD_LENGTH, AddItem, BoundedList, CardList, StrictBoolean, StrictInteger, StrictString

NOT_SURE: Final = object()  # Final: compiled, a static, not a look-up in the module's globals per use
Check = Callable[[Any], Any]  # the loaded value, or NOT_SURE


class Unknown(Exception):
    """A field or validator this fast path does not model."""


def compile_schema(schema: Schema) -> Callable[[Any], Any]:
    """``fast(value)``: the loaded value, or ``None`` when only the schema itself can say."""
    try:
        check = _schema(schema)
    except Unknown:
        return lambda value: None

    def fast(value: Any) -> Any:  # made once per schema, not per call
        out = check(value)
        return None if out is NOT_SURE else out
    return fast


def _schema(schema: Schema) -> Check:
    # by member name as JSON has it: (name loaded, required, may be null, its check); a walk over the members
    # given (not over every member the schema has), the required ones counted
    members: dict[str, tuple[str, bool, bool, Check]] = {}
    for name, field in schema.fields.items():
        members[field.data_key or name] = (field.attribute or name, field.required, field.allow_none, _field(field))
    required = sum(1 for _, is_required, _, _ in members.values() if is_required)

    def check(value: Any) -> Any:
        if type(value) is not dict:
            return NOT_SURE
        given: dict[Any, Any] = value  # a dict: typed, so that compiled it is read as one (keys as given)
        out: dict[str, Any] = {}
        found = 0
        for key, item in given.items():
            member = members.get(key)
            if member is None:  # a member the schema does not define
                return NOT_SURE
            attribute, is_required, allow_none, field = member
            if is_required:
                found += 1
            if item is None:
                if not allow_none:
                    return NOT_SURE
                out[attribute] = None
                continue
            loaded = field(item)
            if loaded is NOT_SURE:
                return NOT_SURE
            out[attribute] = loaded
        return out if found == required else NOT_SURE
    return check


def _bounds(field: fields.Field, kind: type) -> tuple[Any, Any]:
    low = high = None
    for v in field.validators:
        if not isinstance(v, kind) or not isinstance(v, (Range, Length)):
            raise Unknown(v)
        if isinstance(v, Range) and not (v.min_inclusive and v.max_inclusive):
            raise Unknown(v)
        if isinstance(v, Length) and v.equal is not None:
            raise Unknown(v)
        low, high = v.min, v.max
    return low, high


def _field(field: fields.Field) -> Check:  # noqa: C901 -- one branch per field type, read in one place
    if isinstance(field, StrictString):
        low, high = _bounds(field, Length)
        low, high = low or 0, high if high is not None else math.inf
        return lambda v: v if type(v) is str and low <= len(v) <= high else NOT_SURE
    if isinstance(field, StrictInteger):
        low, high = _bounds(field, Range)
        low = -math.inf if low is None else low
        high = math.inf if high is None else high

        def integer(v: Any) -> Any:
            if type(v) is int:
                return v if low <= v <= high else NOT_SURE
            if type(v) is float and math.isfinite(v) and v.is_integer() and low <= v <= high:
                return int(v)
            return NOT_SURE
        return integer
    if isinstance(field, StrictBoolean):
        if field.validators:
            raise Unknown(field)
        return lambda v: v if v is True or v is False else NOT_SURE
    if isinstance(field, CardList):
        if field.validators:
            raise Unknown(field)
        most, longest = field.max_length, MAX_CARD_LENGTH  # captured: read per card, not from the globals

        def cards(v: Any) -> Any:
            if type(v) is not list or len(v) > most:
                return NOT_SURE
            for c in v:
                if type(c) is not str or len(c) > longest:
                    return NOT_SURE
            return list(v)
        return cards
    if isinstance(field, BoundedList):
        if field.validators:
            raise Unknown(field)
        inner, least, most = _field(field.inner), field.min_length, field.max_length

        def bounded(v: Any) -> Any:
            if type(v) is not list or not least <= len(v) <= most:
                return NOT_SURE
            out = [inner(i) for i in v]
            return NOT_SURE if NOT_SURE in out else out
        return bounded
    if isinstance(field, fields.Nested):
        if field.many or field.validators:
            raise Unknown(field)
        return _schema(field.schema)
    if isinstance(field, AddItem):
        as_cards, as_target = _field(field.cards), _schema(field.add_to)
        return lambda v: as_cards(v) if type(v) is list else as_target(v) if type(v) is dict else NOT_SURE
    if isinstance(field, fields.Dict):
        low, high = _bounds(field, Length)
        low, high = low or 0, high if high is not None else math.inf
        key = _field(field.key_field) if field.key_field is not None else (lambda k: k)
        typed = field.value_field
        value = _field(typed) if typed is not None and type(typed) is not fields.Raw else (lambda x: x)

        def mapping(v: Any) -> Any:
            if type(v) is not dict or not low <= len(v) <= high:
                return NOT_SURE
            for k, x in v.items():
                if key(k) is NOT_SURE or value(x) is NOT_SURE:
                    return NOT_SURE
            return dict(v)
        return mapping
    if type(field) is fields.Raw:
        return lambda v: v
    raise Unknown(field)
