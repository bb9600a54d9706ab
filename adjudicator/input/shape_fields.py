"""Strict marshmallow fields: JSON's own types, and lists measured before their items are read.

The building blocks of :mod:`adjudicator.input.shape`'s schemas, and what
:mod:`adjudicator.input.fastcheck` knows how to compile. Each field's error messages are
message keys (``shape.not_integer``) or marshmallow's length texts, which
:func:`adjudicator.input.shape.issues_of` maps to keys.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields

MAX_CARD_LENGTH = 16  # "10H", "JK", " 10♠ " ...; anything longer is no card code
# A list of cards words at most this many of its faults; the rest are only counted under MORE, so a body
# of ten thousand wrong cards costs a count, not ten thousand messages.
WORDED_PER_LIST = 20
MORE = "_more"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class StrictInteger(fields.Integer):
    """A JSON number with an integral value; ``2.0`` loads as ``2``; strings, booleans and ``2.5`` do not."""

    default_error_messages = {"invalid": "shape.not_integer", "not_integral": "shape.not_integral"}

    def _validated(self, value: Any) -> int:
        if not _is_number(value) or (isinstance(value, float) and not math.isfinite(value)):
            raise self.make_error("invalid")
        if isinstance(value, float) and not value.is_integer():
            raise self.make_error("not_integral")
        return int(value)


class StrictBoolean(fields.Boolean):
    """Only JSON ``true`` or ``false``; ``1``, ``"true"`` and ``"yes"`` do not load."""

    default_error_messages = {"invalid": "shape.not_bool"}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid")


class StrictString(fields.String):
    """Only a JSON string; numbers, booleans, arrays and objects do not load."""

    default_error_messages = {"invalid": "shape.not_string"}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> str:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        return value


class BoundedList(fields.List):
    """A list whose length is checked before any item is read (an over-long list is one error, not thousands)."""

    default_error_messages = {"invalid": "shape.not_list"}

    def __init__(self, inner, max_length: int, min_length: int = 0, **kwargs: Any):
        super().__init__(inner, **kwargs)
        self.max_length, self.min_length = max_length, min_length

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list):
            if len(value) > self.max_length:
                raise ValidationError(f"Longer than maximum length {self.max_length}.")
            if len(value) < self.min_length:
                raise ValidationError(f"Shorter than minimum length {self.min_length}.")
        return super()._deserialize(value, attr, data, **kwargs)


class CardList(fields.Field):
    """A list of card codes (strings of at most :data:`MAX_CARD_LENGTH`), at most ``max_length`` long.

    One pass over the list: card lists are most of every body, and a field call
    per card dominated the cost of a request.
    """

    default_error_messages = {"invalid": "shape.not_list"}

    def __init__(self, max_length: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.max_length = max_length

    def _deserialize(self, value: Any, attr, data, **kwargs) -> list[str]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        if len(value) > self.max_length:
            raise ValidationError(f"Longer than maximum length {self.max_length}.")
        wrong = [i for i, v in enumerate(value) if not isinstance(v, str) or len(v) > MAX_CARD_LENGTH]
        if wrong:
            bad: dict = {i: ["shape.not_string"] if not isinstance(value[i], str) else
                         [f"Longer than maximum length {MAX_CARD_LENGTH}."] for i in wrong[:WORDED_PER_LIST]}
            if len(wrong) > WORDED_PER_LIST:
                bad[MORE] = len(wrong) - WORDED_PER_LIST  # counted, not worded: see adjudicator.input.shape.issues_of
            raise ValidationError(bad)
        return list(value)


class AddItem(fields.Field):
    """One addition to the team's melds: a list of cards, or ``{"to": rank, "cards": [...]}``."""

    default_error_messages = {"invalid": "shape.add_item"}

    def __init__(self, cards: CardList, add_to: Schema, **kwargs: Any):
        super().__init__(**kwargs)
        self.cards, self.add_to = cards, add_to

    def _deserialize(self, value: Any, attr, data, **kwargs) -> Any:
        if isinstance(value, list):
            return self.cards.deserialize(value)
        if isinstance(value, dict):
            return self.add_to.load(value)
        raise self.make_error("invalid")


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


# ----------------------------------------------------------------------------------------------
# What the schemas say for the reader of openapi.yaml (scripts/openapi-requests writes it from them)

CARD_CODE = {  # the items of every CardList (openapi.yaml's CardCode)
    "type": "string", "maxLength": MAX_CARD_LENGTH,
    "description": "A card: rank `A K Q J 10 9 8 7 6 5 4 3 2` (`T` also means ten) then\n"
                   "suit `S H D C` (or `♠ ♥ ♦ ♣`), case-insensitive, or `JK` for a joker.\n"
                   "Any other string is a 422 from the engine, pointing at it.\n",
    "examples": ["9H", "10S", "JK", "3D"],
}


def doc(text: str, **schema: Any) -> dict[str, Any]:
    """A field's ``metadata``: its description in openapi.yaml, and what else the spec says of it that the field's
    type does not (an ``enum`` the parser checks, ``examples``; ``component``: the name of the one schema that a
    field made by a helper is, wherever it stands)."""
    return {"description": text, **schema}


@dataclass(frozen=True)
class Form:
    """One form a schema's requests take (a round or a game, a ruling or a score ...), for openapi.yaml.

    A schema's ``Meta.forms`` are the forms one request may take (the spec's ``oneOf``); its ``Meta.copies`` are
    the same schema named once per endpoint that takes it. A form has the schema's members, less ``without`` (or
    only ``members``), ``required`` ones besides the schema's, members ``fixed`` to one value, and spec
    fragments merged into members (``overrides``). What makes a request one form and not another the parser
    checks; the spec names the forms so that clients and schemathesis see them."""

    name: str
    required: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    members: tuple[str, ...] | None = None
    description: str = ""
    fixed: dict[str, str] = field(default_factory=dict)
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
