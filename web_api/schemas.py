"""marshmallow request schemas for ``/v1/adjudicate``, ``/v1/score`` and ``/v1/compare``.

These schemas check the *shape* of a request: which members exist, their JSON
types, and caps that bound the work one request can ask for. They do not know
the rules of Canasta: card codes stay plain strings here (the engine answers
an unknown code with a 422 that points at it, e.g. ``/situation/player/hand/0``),
and so do copies of a card, cards not in the hand, player counts a variant does
not support, and house-rule values -- all of which the engine checks with
precise pointers.

Every object rejects members it does not define (marshmallow's ``RAISE``), at
the top level and in every nested object, so a misspelt member is a 422
("Unknown field.") instead of a fact silently ignored. The same caps stand in
``openapi.yaml``; ``tests/test_schemathesis.py`` holds the two together.

Caps: no real deck has more than :data:`MAX_CARDS` (110) cards, so no list of
cards, of melds, or of additions is longer; a card code is at most
:data:`MAX_CARD_LENGTH` characters.
"""

from __future__ import annotations

import json

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validates_schema
from marshmallow.validate import Length, OneOf, Range

from adjudicator.parameters import PARAMETERS

from .fields import StrictBoolean, StrictInteger, StrictString, load_or_422, messages_to_errors, validation_problem
from .problems import ApiProblem

MAX_CARDS = 110  # da-ludo's deck, the largest: 2 x 52 + 6 jokers
MAX_CARD_LENGTH = 16  # "10H", "JK", " 10♠ " ...; anything longer is no card code
MAX_VARIANT_ID_LENGTH = 64
MAX_TEAMS = 6
MAX_ROUNDS = 200
MAX_NAME_LENGTH = 64
MAX_SCORE = 1_000_000  # |cumulative score|; real games end near 10,000
MAX_POINTS = 100_000  # melded or hand points of one team in one round
MAX_COUNT = 55  # canastas of one team in one round (110 cards make at most 15)
MAX_PENALTIES = 100
MAX_HOUSE_RULES = 200
MAX_VARIANTS = 64
ACTION_TYPES = ("draw", "take_pile", "meld", "go_out", "discard")
DREW = ("stock", "pile")
RANK_MAX_LENGTH = 4
# Penalty kinds are the catalogue's score.penalty_<kind> parameters ("hint", "unverifiable_count").
PENALTY_KINDS = tuple(p.name.removeprefix("score.penalty_") for p in PARAMETERS if p.name.startswith("score.penalty_"))


# ----------------------------------------------------------------------------------------------
# Building blocks


def card(**kwargs: Any) -> StrictString:
    """One card code, kept as a string (the engine parses it)."""
    return StrictString(validate=Length(max=MAX_CARD_LENGTH), **kwargs)


class CardList(fields.Field):
    """A list of card codes (strings of at most :data:`MAX_CARD_LENGTH`), at most :data:`MAX_CARDS` long.

    The same check as ``List(card(), validate=Length(max=MAX_CARDS))``, with the
    same messages and per-index errors, in one pass: card lists are most of
    every body, and a field call per card dominated the cost of a request.
    """

    default_error_messages = {"invalid": "Not a valid list.",
                              "length": f"Longer than maximum length {MAX_CARDS}."}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> list[str]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        if len(value) > MAX_CARDS:
            raise self.make_error("length")
        bad = {i: ["Not a valid string."] if not isinstance(v, str) else
               [f"Longer than maximum length {MAX_CARD_LENGTH}."]
               for i, v in enumerate(value) if not isinstance(v, str) or len(v) > MAX_CARD_LENGTH}
        if bad:
            raise ValidationError(bad)
        return list(value)


def cards(**kwargs: Any) -> CardList:
    """A list of card codes, at most :data:`MAX_CARDS` long."""
    return CardList(**kwargs)


def melds(**kwargs: Any) -> fields.List:
    """A list of melds, each a list of card codes."""
    return fields.List(cards(), validate=Length(max=MAX_CARDS), **kwargs)


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class AddTo(StrictSchema):
    """``{"to": rank, "cards": [...]}``: cards onto the team's meld of that rank."""

    to = StrictString(required=True, validate=Length(min=1, max=RANK_MAX_LENGTH))
    cards = cards(required=True)


class AddItem(fields.Field):
    """One addition to the team's melds: a list of cards, or ``{"to": rank, "cards": [...]}``."""

    default_error_messages = {"invalid": "Must be a list of card codes or an object with to and cards."}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> Any:
        if isinstance(value, list):
            return _CARDS.deserialize(value)
        if isinstance(value, dict):
            return _ADD_TO.load(value)
        raise self.make_error("invalid")


_CARDS = CardList()


_ADD_TO = AddTo()


# ----------------------------------------------------------------------------------------------
# /v1/adjudicate


class SideSchema(StrictSchema):
    """A team as the situation shows it; ``null`` or absent means "not given"."""

    score = StrictInteger(allow_none=True, validate=Range(min=-MAX_SCORE, max=MAX_SCORE))
    melds = melds(allow_none=True)
    red_threes = StrictInteger(allow_none=True, validate=Range(min=0, max=4))


class PlayerSchema(StrictSchema):
    hand = cards(allow_none=True)
    hand_count = StrictInteger(allow_none=True, validate=Range(min=0, max=MAX_CARDS))
    has_melded = StrictBoolean(allow_none=True)


class TurnSchema(StrictSchema):
    # "drew": null says the player has not drawn yet; leaving "drew" out says it is not known.
    drew = StrictString(allow_none=True, validate=OneOf(DREW))
    cards_from_pile = cards(allow_none=True)


class SituationSchema(StrictSchema):
    players = StrictInteger(allow_none=True, validate=Range(min=1, max=12))
    first_round = StrictBoolean(allow_none=True)
    stock_count = StrictInteger(allow_none=True, validate=Range(min=0, max=MAX_CARDS))
    discard_pile = cards(allow_none=True)
    team = fields.Nested(SideSchema, allow_none=True)
    opponents = fields.Nested(SideSchema, allow_none=True)
    player = fields.Nested(PlayerSchema, allow_none=True)
    turn = fields.Nested(TurnSchema, allow_none=True)


class ActionSchema(StrictSchema):
    type = StrictString(required=True, validate=OneOf(ACTION_TYPES))
    with_ = cards(allow_none=True, data_key="with", attribute="with")
    melds = melds(allow_none=True)
    add = fields.List(AddItem(), allow_none=True, validate=Length(max=MAX_CARDS))
    discard = card(allow_none=True)
    card = card(allow_none=True)


def variant_id(**kwargs: Any) -> StrictString:
    return StrictString(validate=Length(min=1, max=MAX_VARIANT_ID_LENGTH), **kwargs)


def house_rules() -> fields.Dict:
    """``{parameter name: value}``; names and values are checked by the engine against the catalogue."""
    return fields.Dict(keys=StrictString(validate=Length(min=1, max=MAX_NAME_LENGTH)),
                       values=fields.Raw(allow_none=True), validate=Length(max=MAX_HOUSE_RULES))


class AdjudicateRequest(StrictSchema):
    variant = variant_id(required=True)
    situation = fields.Nested(SituationSchema, required=True)
    action = fields.Nested(ActionSchema, required=True)
    house_rules = house_rules()


# ----------------------------------------------------------------------------------------------
# /v1/score


class PenaltySchema(StrictSchema):
    kind = StrictString(required=True, validate=OneOf(PENALTY_KINDS))


class ScoreTeamSchema(StrictSchema):
    name = StrictString(required=True, validate=Length(min=1, max=MAX_NAME_LENGTH))
    score_before = StrictInteger(validate=Range(min=-MAX_SCORE, max=MAX_SCORE))
    melds = melds()
    hand = cards()
    red_threes = StrictInteger(validate=Range(min=0, max=4))
    went_out = StrictBoolean()
    concealed = StrictBoolean()
    penalties = fields.List(fields.Nested(PenaltySchema), validate=Length(max=MAX_PENALTIES))
    melded_points = StrictInteger(validate=Range(min=0, max=MAX_POINTS))
    natural_canastas = StrictInteger(validate=Range(min=0, max=MAX_COUNT))
    mixed_canastas = StrictInteger(validate=Range(min=0, max=MAX_COUNT))
    hand_points = StrictInteger(validate=Range(min=0, max=MAX_POINTS))


def score_teams(**kwargs: Any) -> fields.List:
    return fields.List(fields.Nested(ScoreTeamSchema), validate=Length(min=1, max=MAX_TEAMS), **kwargs)


class RoundSchema(StrictSchema):
    teams = score_teams(required=True)


def players(**kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=Range(min=1, max=12), **kwargs)


class ScoreRoundRequest(StrictSchema):
    variant = variant_id(required=True)
    players = players()
    house_rules = house_rules()
    teams = score_teams(required=True)


class ScoreGameRequest(StrictSchema):
    variant = variant_id(required=True)
    players = players()
    house_rules = house_rules()
    rounds = fields.List(fields.Nested(RoundSchema), required=True, validate=Length(min=1, max=MAX_ROUNDS))


# ----------------------------------------------------------------------------------------------
# /v1/compare


def variant_list() -> fields.List:
    return fields.List(variant_id(), validate=Length(min=1, max=MAX_VARIANTS))


class _UniqueVariants:
    @validates_schema
    def _unique(self, data: dict, **kwargs: Any) -> None:
        seen: set[str] = set()
        for i, vid in enumerate(data.get("variants") or []):
            if vid in seen:
                raise ValidationError({"variants": {i: [f"{vid!r} is listed twice."]}})
            seen.add(vid)


class CompareRulingRequest(_UniqueVariants, StrictSchema):
    variants = variant_list()
    situation = fields.Nested(SituationSchema, required=True)
    action = fields.Nested(ActionSchema, required=True)
    house_rules = house_rules()


class CompareRoundRequest(_UniqueVariants, StrictSchema):
    variants = variant_list()
    players = players()
    house_rules = house_rules()
    teams = score_teams(required=True)


class CompareGameRequest(_UniqueVariants, StrictSchema):
    variants = variant_list()
    players = players()
    house_rules = house_rules()
    rounds = fields.List(fields.Nested(RoundSchema), required=True, validate=Length(min=1, max=MAX_ROUNDS))


# ----------------------------------------------------------------------------------------------
# Loading


def check_unicode(value: Any, pointer: str = "") -> None:
    """Reject strings with unpaired surrogates (``"\\ud800"``): they are not text and cannot be echoed.

    JSON lets a string escape half of a UTF-16 pair; I-JSON (RFC 7493) forbids it.
    Such a string cannot be encoded as UTF-8, so a response that quoted it would fail.
    """
    def bad(text: str) -> bool:
        return any("\ud800" <= ch <= "\udfff" for ch in text)

    def shown(text: str) -> str:
        return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)

    def esc(part: str) -> str:
        return shown(part).replace("~", "~0").replace("/", "~1")

    try:  # the common case, at C speed: nothing to find
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        return
    except UnicodeEncodeError:
        pass
    stack = [(value, pointer)]
    while stack:
        node, ptr = stack.pop()
        if isinstance(node, str):
            if bad(node):
                raise _surrogate_problem(ptr)
        elif isinstance(node, dict):
            for key, item in node.items():
                if bad(key):
                    raise _surrogate_problem(f"{ptr}/{esc(key)}")
                stack.append((item, f"{ptr}/{esc(key)}"))
        elif isinstance(node, list):
            stack.extend((item, f"{ptr}/{i}") for i, item in enumerate(node))


def _surrogate_problem(ptr: str) -> ApiProblem:
    detail = "a string holds an unpaired UTF-16 surrogate escape, which is not a character"
    return ApiProblem(400, "Malformed JSON", f"the request body is not valid Unicode JSON: {detail}",
                      type="malformed-json", errors=[{"pointer": ptr, "detail": detail}])


def load(schema: Schema, data: dict) -> dict:
    """Check ``data`` (the parsed body) for unpaired surrogates, then load it with ``schema`` (422 on a fault)."""
    check_unicode(data)
    return load_or_422(schema, data)


def load_score(data: dict, round_schema: Schema, game_schema: Schema) -> dict:
    """A score request is one round (``teams``) or a game (``rounds``): exactly one of the two."""
    check_unicode(data)
    has_teams, has_rounds = "teams" in data, "rounds" in data
    if has_teams and has_rounds:
        raise validation_problem([{"pointer": "/rounds", "detail": "give teams (one round) or rounds (a game), not both"}])
    if not has_teams and not has_rounds:
        raise validation_problem([{"pointer": "", "detail": "give teams (one round) or rounds (a game)"}])
    return load_or_422(game_schema if has_rounds else round_schema, data)


def load_compare(data: dict) -> dict:
    """A comparison of rulings (``situation`` and ``action``) or of scores (``teams`` or ``rounds``)."""
    check_unicode(data)
    ruling = [k for k in ("situation", "action") if k in data]
    scoring = [k for k in ("teams", "rounds") if k in data]
    if ruling and scoring:
        raise validation_problem([{"pointer": f"/{scoring[0]}",
                                   "detail": "give situation and action (a ruling) or teams or rounds (a score), "
                                             f"not both; this request has {', '.join(ruling + scoring)}"}])
    if ruling:
        return load_or_422(SCHEMAS["compare_ruling"], data)
    if scoring:
        return load_score(data, SCHEMAS["compare_round"], SCHEMAS["compare_game"])
    # Neither: report what is missing, and any other fault of the body, against the ruling form.
    errors = [{"pointer": "", "detail": "give situation and action (to compare rulings) or teams or rounds "
                                        "(to compare scores)"}]
    try:
        SCHEMAS["compare_ruling"].load(data, partial=("situation", "action"))
    except ValidationError as error:
        errors += messages_to_errors(error.messages)
    raise validation_problem(errors)


# One instance of each request schema for the life of the process: building a
# schema (and, on first use, its nested schemas) costs more than loading a body
# with it, and loading keeps no state on the instance.
SCHEMAS: dict[str, Schema] = {
    "adjudicate": AdjudicateRequest(),
    "score_round": ScoreRoundRequest(),
    "score_game": ScoreGameRequest(),
    "compare_ruling": CompareRulingRequest(),
    "compare_round": CompareRoundRequest(),
    "compare_game": CompareGameRequest(),
}
