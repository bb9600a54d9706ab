"""The shape of a request: which members exist, their JSON types, and the sizes that bound the work.

The first step of :mod:`adjudicator.input.parse`: marshmallow schemas with strict
fields (JSON has exact types: ``"4"`` is not an integer, ``4.0`` is), every
object refusing members it does not define, every list measured before its
items are read. Sizes that are facts of the game come from the loaded
variants: no list of cards (or of melds, or additions) is longer than the
largest deck, no team lays out more red threes than the largest deck holds.
A fault is a :class:`~adjudicator.model.errors.MalformedRequest` whose issues point
into the request and carry message keys (marshmallow's own messages are
mapped to keys here, so they can be put in the reader's language).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from marshmallow import Schema, ValidationError, fields
from marshmallow.validate import Length, Range

from ..model.errors import MAX_ISSUES, Issue, MalformedRequest, issue
from ..model.errors import pointer as json_pointer
from .fastcheck import compile_schema
from ..model.messages import Message, msg
from .shape_fields import MAX_CARD_LENGTH, MORE, AddItem, BoundedList, CardList, StrictBoolean, StrictInteger, \
    StrictSchema, StrictString
from ..variants import Variant

MAX_VARIANT_ID_LENGTH = 64
MAX_TEAMS = 6
MAX_ROUNDS = 200
MAX_BATCH = 1000  # requests in one batch body
MAX_NAME_LENGTH = 64
MAX_SCORE = 1_000_000  # |cumulative score|; real games end near 10,000
MAX_POINTS = 100_000  # melded or hand points of one team in one round
MAX_COUNT = 55  # canastas of one team in one round
MAX_PENALTIES = 100
MAX_HOUSE_RULES = 200
MAX_VARIANTS = 64
MAX_PLAYERS = 12
MAX_LOG_MOVES = 2000  # moves and events in one replayed round (a round of four rarely takes 200)
RANK_MAX_LENGTH = 4
MAX_RANK_FACTS = 13  # team.ranks: one per rank at most
MAX_LANGUAGE_LENGTH = 35


# ----------------------------------------------------------------------------------------------
# The request schemas


@lru_cache(maxsize=8)
def _schemas(max_cards: int, max_red_threes: int) -> dict[str, Schema]:
    """One instance of each request schema per pair of caps: building one costs more than loading a body."""

    def card_list(**kw: Any) -> CardList:
        return CardList(max_cards, **kw)

    def meld_list(**kw: Any) -> BoundedList:
        return BoundedList(card_list(), max_cards, **kw)

    def variant_id_field(**kw: Any) -> StrictString:
        return StrictString(validate=Length(min=1, max=MAX_VARIANT_ID_LENGTH), **kw)

    def house_rules_field() -> fields.Dict:
        return fields.Dict(keys=StrictString(validate=Length(min=1, max=MAX_NAME_LENGTH)),
                           values=fields.Raw(allow_none=True), validate=Length(max=MAX_HOUSE_RULES),
                           allow_none=True)

    def players_field(**kw: Any) -> StrictInteger:
        return StrictInteger(validate=Range(min=1, max=MAX_PLAYERS), **kw)

    def lang_field() -> StrictString:
        return StrictString(validate=Length(min=1, max=MAX_LANGUAGE_LENGTH))

    class AddTo(StrictSchema):
        to = StrictString(required=True, validate=Length(min=1, max=RANK_MAX_LENGTH))
        cards = card_list(required=True)

    class Side(StrictSchema):
        score = StrictInteger(allow_none=True, validate=Range(min=-MAX_SCORE, max=MAX_SCORE))
        melds = meld_list(allow_none=True)
        red_threes = StrictInteger(allow_none=True, validate=Range(min=0, max=max_red_threes))
        opened = StrictBoolean(allow_none=True)
        canastas = StrictInteger(allow_none=True, validate=Range(min=0, max=max_cards // 7))
        # rank -> whether the team has a meld of it (null: not known); which ranks, parse.py says (one place)
        ranks = fields.Dict(keys=StrictString(validate=Length(min=1, max=RANK_MAX_LENGTH)),
                            values=StrictBoolean(allow_none=True), validate=Length(max=MAX_RANK_FACTS), allow_none=True)

    class Player(StrictSchema):
        hand = card_list(allow_none=True)
        hand_count = StrictInteger(allow_none=True, validate=Range(min=0, max=max_cards))
        has_melded = StrictBoolean(allow_none=True)

    class Turn(StrictSchema):
        # "drew": null says the player has not drawn yet; leaving "drew" out says it is not known.
        drew = StrictString(allow_none=True, validate=Length(max=MAX_NAME_LENGTH))
        cards_from_pile = card_list(allow_none=True)
        partner_answer = StrictString(allow_none=True, validate=Length(max=MAX_NAME_LENGTH))
        # whether the player had melded this turn (beyond the meld a take lays) before asking the partner
        asked_after_melding = StrictBoolean(allow_none=True)

    class PileUnnamed(StrictSchema):
        wild = StrictBoolean(allow_none=True)
        black_three = StrictBoolean(allow_none=True)
        red_three_first = StrictBoolean(allow_none=True)

    class Situation(StrictSchema):
        players = StrictInteger(allow_none=True, validate=Range(min=1, max=MAX_PLAYERS))
        first_round = StrictBoolean(allow_none=True)
        stock_count = StrictInteger(allow_none=True, validate=Range(min=0, max=max_cards))
        discard_pile = card_list(allow_none=True)
        pile_unnamed = fields.Nested(PileUnnamed, allow_none=True)
        team = fields.Nested(Side, allow_none=True)
        opponents = fields.Nested(Side, allow_none=True)
        player = fields.Nested(Player, allow_none=True)
        turn = fields.Nested(Turn, allow_none=True)

    class Action(StrictSchema):
        type = StrictString(required=True, validate=Length(max=MAX_NAME_LENGTH))
        with_ = card_list(allow_none=True, data_key="with", attribute="with")
        melds = meld_list(allow_none=True)
        add = BoundedList(AddItem(card_list(), AddTo()), max_cards, allow_none=True)
        discard = StrictString(allow_none=True, validate=Length(max=MAX_CARD_LENGTH))
        card = StrictString(allow_none=True, validate=Length(max=MAX_CARD_LENGTH))

    class Penalty(StrictSchema):
        kind = StrictString(required=True, validate=Length(max=MAX_NAME_LENGTH))

    class ScoreTeam(StrictSchema):
        name = StrictString(required=True, validate=Length(min=1, max=MAX_NAME_LENGTH))
        score_before = StrictInteger(validate=Range(min=-MAX_SCORE, max=MAX_SCORE))
        melds = meld_list()
        hand = card_list()
        red_threes = StrictInteger(validate=Range(min=0, max=max_red_threes))
        went_out = StrictBoolean()
        concealed = StrictBoolean()
        penalties = BoundedList(fields.Nested(Penalty), MAX_PENALTIES)
        melded_points = StrictInteger(validate=Range(min=0, max=MAX_POINTS))
        natural_canastas = StrictInteger(validate=Range(min=0, max=MAX_COUNT))
        mixed_canastas = StrictInteger(validate=Range(min=0, max=MAX_COUNT))
        hand_points = StrictInteger(validate=Range(min=0, max=MAX_POINTS))

    def teams_field(**kw: Any) -> BoundedList:
        return BoundedList(fields.Nested(ScoreTeam), MAX_TEAMS, min_length=1, **kw)

    class Round(StrictSchema):
        teams = teams_field(required=True)

    def rounds_field() -> BoundedList:
        return BoundedList(fields.Nested(Round), MAX_ROUNDS, min_length=1)

    class Adjudicate(StrictSchema):
        variant = variant_id_field(required=True)
        situation = fields.Nested(Situation, required=True)
        action = fields.Nested(Action, required=True)
        house_rules = house_rules_field()
        lang = lang_field()

    class Score(StrictSchema):
        variant = variant_id_field(required=True)
        players = players_field()
        house_rules = house_rules_field()
        teams = teams_field()
        rounds = rounds_field()
        lang = lang_field()

    class Compare(StrictSchema):
        variants = BoundedList(variant_id_field(), MAX_VARIANTS)
        situation = fields.Nested(Situation)
        action = fields.Nested(Action)
        players = players_field()
        house_rules = house_rules_field()
        teams = teams_field()
        rounds = rounds_field()
        lang = lang_field()

    class OptionsRequest(StrictSchema):  # /v1/options: a situation alone, no action
        variant = variant_id_field(required=True)
        situation = fields.Nested(Situation, required=True)
        house_rules = house_rules_field()
        lang = lang_field()

    class Batch(StrictSchema):  # /v1/*/batch: each item is checked as its own request, its faults its own
        requests = BoundedList(fields.Raw(allow_none=True), MAX_BATCH, min_length=1, required=True)
        lang = lang_field()

    class Deal(StrictSchema):  # /v1/replay: the round as dealt
        hands = BoundedList(card_list(), MAX_PLAYERS, required=True)
        discard_pile = card_list()
        stock_count = StrictInteger(required=True, validate=Range(min=0, max=max_cards))
        first_player = StrictInteger(validate=Range(min=0, max=MAX_PLAYERS - 1))

    class LogMove(StrictSchema):  # an action (action, cards?) or an event (event and what it says)
        player = StrictInteger(required=True, validate=Range(min=0, max=MAX_PLAYERS - 1))
        action = fields.Nested(Action)
        cards = card_list(allow_none=True)
        event = StrictString(validate=Length(min=1, max=MAX_NAME_LENGTH))
        red_threes = card_list()
        answer = StrictString(validate=Length(min=1, max=MAX_NAME_LENGTH))

    def moves_field(**kw: Any) -> BoundedList:
        return BoundedList(fields.Nested(LogMove), MAX_LOG_MOVES, **kw)

    class LogRound(StrictSchema):  # one round of a whole game
        deal = fields.Nested(Deal, required=True)
        moves = moves_field(required=True)

    class Replay(StrictSchema):  # one round (deal, moves) or a whole game (rounds)
        variant = variant_id_field(required=True)
        players = players_field()
        house_rules = house_rules_field()
        lang = lang_field()
        scores = BoundedList(StrictInteger(validate=Range(min=-MAX_SCORE, max=MAX_SCORE)), MAX_TEAMS)
        deal = fields.Nested(Deal)
        moves = moves_field()
        rounds = BoundedList(fields.Nested(LogRound), MAX_ROUNDS, min_length=1)

    return {"adjudicate": Adjudicate(), "score": Score(), "compare": Compare(), "options": OptionsRequest(),
            "batch": Batch(), "replay": Replay()}


def caps(variants: dict[str, Variant]) -> tuple[int, int]:
    """(most cards in a list, most red threes a team lays out): the largest loaded deck's."""
    most_cards = most_reds = 0
    for v in variants.values():  # one pass, plain comparisons: every request asks (max() costs more than the rest)
        cards: int = v.deck_size
        reds: int = v.red_threes_in_deck
        if cards > most_cards:
            most_cards = cards
        if reds > most_reds:
            most_reds = reds
    return most_cards, most_reds


def check(payload: Any, kind: str, variants: dict[str, Variant]) -> dict:
    """``payload`` loaded by the ``kind`` schema (adjudicate, score, compare, options, batch), or :class:`MalformedRequest`.

    A valid payload takes the schema's compiled fast path (:mod:`adjudicator.input.fastcheck`); only a payload it is
    not sure of goes through marshmallow itself, which finds and words each fault.
    """
    if not isinstance(payload, dict):
        raise MalformedRequest([issue("", "shape.not_object")])
    limits = caps(variants)
    loaded = _fast(*limits)[kind](payload)
    if loaded is not None:
        return loaded
    try:
        return _schemas(*limits)[kind].load(payload)
    except ValidationError as error:
        raise MalformedRequest(*_issues(error.messages)) from None


@lru_cache(maxsize=8)
def _fast(max_cards: int, max_red_threes: int) -> dict:
    return {kind: compile_schema(schema) for kind, schema in _schemas(max_cards, max_red_threes).items()}


# ----------------------------------------------------------------------------------------------
# marshmallow's messages as message keys

_FIXED = {
    "Unknown field.": "shape.unknown_field",
    "Missing data for required field.": "shape.required",
    "Field may not be null.": "shape.null",
    "Invalid input type.": "shape.not_object",
    "Not a valid mapping type.": "shape.not_object",
    "Not a valid list.": "shape.not_list",
    "Not a valid string.": "shape.not_string",
    "Not a valid integer.": "shape.not_integer",
}
_PATTERNS = [
    (re.compile(r"Longer than maximum length (-?\d+)\."), "shape.too_long", ("maximum",)),
    (re.compile(r"Shorter than minimum length (-?\d+)\."), "shape.too_short", ("minimum",)),
    (re.compile(r"Length must be between (-?\d+) and (-?\d+)\."), "shape.length_between", ("minimum", "maximum")),
    (re.compile(r"Must be greater than or equal to (-?\d+) and less than or equal to (-?\d+)\."), "shape.between",
     ("minimum", "maximum")),
    (re.compile(r"Must be greater than or equal to (-?\d+)\."), "shape.at_least", ("minimum",)),
    (re.compile(r"Must be less than or equal to (-?\d+)\."), "shape.at_most", ("maximum",)),
]


def message_of(text: str) -> Message:
    """A marshmallow message (or one of this module's keys) as a message key with its arguments."""
    if text.startswith("shape."):
        return msg(text)
    key = _FIXED.get(text)
    if key:
        return msg(key)
    for pattern, key, names in _PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return msg(key, **{n: int(v) for n, v in zip(names, found.groups())})
    return msg("shape.other", text=text)



def issues_of(messages: Any, prefix: str = "") -> list[Issue]:
    """Flatten ``ValidationError.messages`` into issues with JSON pointers.

    Nested dicts become path segments and list indexes numeric segments
    (``{"hand": {0: ["Not a valid string."]}}`` points at ``/hand/0``);
    marshmallow's schema-level key ``_schema`` points at the object itself.
    """
    return _issues(messages, prefix)[0]


def _issues(messages: Any, prefix: str = "") -> tuple[list[Issue], int]:
    """:func:`issues_of`, up to :data:`~adjudicator.model.errors.MAX_ISSUES` issues, and how many there are in all."""
    out: list[Issue] = []
    count = 0

    def add(pointer: str, text: object) -> None:
        nonlocal count
        count += 1
        if len(out) < MAX_ISSUES:  # beyond it, only counted: no words, no pointer
            out.append(Issue(pointer, message_of(str(text))))

    def walk(node: Any, pointer: str) -> None:
        nonlocal count
        if isinstance(node, dict):
            # a mapping's member faults come as {"key": [...]} / {"value": [...]}: they point at the member
            # (no schema here has a field called key or value)
            member = set(node) <= {"key", "value"} and all(isinstance(v, list) for v in node.values())
            for key, value in node.items():
                if key == MORE:  # faults a list only counted (shape_fields.CardList)
                    count += value
                    continue
                within = key == "_schema" or member
                walk(value, pointer if within else
                     (pointer + json_pointer(key) if len(out) < MAX_ISSUES else pointer))
        elif isinstance(node, (list, tuple)):
            for item in node:
                if isinstance(item, (dict, list, tuple)):
                    walk(item, pointer)
                else:
                    add(pointer, item)
        else:
            add(pointer, node)

    walk(messages, prefix)
    return out, count
