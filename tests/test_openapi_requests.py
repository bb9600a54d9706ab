"""The request's shape is stated once: the marshmallow schemas (adjudicator/input/shape.py).

openapi.yaml's request schemas are written from them by ``scripts/openapi-requests``, and the parser reads
what they define, no more and no less. So a member added in one place only fails here:

* added to a schema, or edited in openapi.yaml's generated block, and the spec not written anew: the committed
  spec is not what the schemas make;
* added to a schema (and the spec) but read by no parser: a member the client sends for nothing;
* read by the parser but defined by no schema: a member no request can carry (the schemas refuse it);
* sent by the phone page but defined by no schema: tests/e2e/test_page_requests.py.
"""

from __future__ import annotations

import copy
import runpy
from pathlib import Path

import pytest
from marshmallow import Schema, fields

from adjudicator.answers import use_cases
from adjudicator.answers.use_cases import answer
from adjudicator.input import shape
from adjudicator.input.shape_fields import AddItem
from adjudicator.variants import load_all
from replay_deal import HANDS

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = runpy.run_path(str(ROOT / "scripts" / "openapi-requests"))
VARIANTS = load_all()
SCHEMAS = shape._schemas(*shape.caps(VARIANTS))
# Read at the edge, not by the parser: the answer's language (web_api/language.py, adjudicator/cli.py).
READ_AT_THE_EDGE = {"lang"}


def test_openapi_yaml_is_what_the_schemas_make():
    text = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert GENERATOR["written"](text, GENERATOR["generate"](VARIANTS)) == text, \
        "openapi.yaml's request schemas are not what adjudicator/input/shape.py makes: " \
        "run python scripts/openapi-requests"


def test_every_member_of_a_schema_with_forms_is_in_one_of_them():
    made = GENERATOR["generate"](VARIANTS)
    for name, cls in _classes().items():
        forms = (*getattr(cls.Meta, "forms", ()), *getattr(cls.Meta, "copies", ()))
        if not forms:
            continue
        members = {field.data_key or key for key, field in cls().fields.items()}
        shown = {m for form in forms for m in made[form.name]["properties"]}
        assert shown == members, (name, members - shown)


def test_each_enum_of_the_spec_is_the_list_the_parser_checks():
    from adjudicator.input import parse
    from adjudicator.model.actions import ACTION_TYPES
    from adjudicator.model.requests import EVENT_KINDS, PENALTY_KINDS

    made = GENERATOR["generate"](VARIANTS)
    assert made["Action"]["properties"]["type"]["enum"] == [t.value for t in ACTION_TYPES]
    assert made["Turn"]["properties"]["drew"]["enum"] == list(parse.DREW)
    assert made["Turn"]["properties"]["partner_answer"]["enum"] == list(parse.PARTNER_ANSWERS)
    assert made["Penalty"]["properties"]["kind"]["enum"] == list(PENALTY_KINDS)
    assert [made[f]["properties"]["event"]["const"] for f in ("ReplayLayOut", "ReplayAsk", "ReplayAnswer")] == \
        list(EVENT_KINDS)


# ----------------------------------------------------------------------------------------------
# What the parser reads


def _classes() -> dict[str, type[Schema]]:
    """Every request schema class, by name (those of nested objects too)."""
    return GENERATOR["schema_classes"](SCHEMAS.values())


class Reads(dict):
    """A request object, as the schemas loaded it, that notes which members the parser asks it for.

    ``items()`` hands every member on (a copy of the request), so it counts as reading them all."""

    def __init__(self, value: dict, name: str, log: dict[str, set[str]]):
        super().__init__(value)
        self.name, self.log = name, log

    def _read(self, key) -> None:
        self.log.setdefault(self.name, set()).add(key)

    def get(self, key, default=None):
        self._read(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self._read(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self._read(key)
        return super().__contains__(key)

    def items(self):
        for key in self:
            self._read(key)
        return super().items()


def tracked(value, schema: Schema, log: dict[str, set[str]]):
    """``value`` (loaded by ``schema``) with each object of a schema a :class:`Reads`."""
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        field = next((f for k, f in schema.fields.items() if (f.data_key or k) == key), None)
        out[key] = _tracked_field(item, field, log) if field is not None else item
    return Reads(out, type(schema).__name__, log)


def _tracked_field(value, field: fields.Field, log):
    if value is None:
        return None
    if isinstance(field, fields.Nested):
        return tracked(value, field.schema, log)
    if isinstance(field, fields.List) and isinstance(value, list):
        return [_tracked_field(v, field.inner, log) for v in value]
    if isinstance(field, AddItem) and isinstance(value, dict):
        return tracked(value, field.add_to, log)
    return value


SITUATION = {
    "players": 4, "first_round": False, "stock_count": 40, "discard_pile": ["6C", "8D", "9D"],
    "pile_unnamed": {"wild": False, "black_three": False, "red_three_first": None},
    "team": {"score": 1000, "melds": [["KH", "KS", "KD"]], "red_threes": 0, "opened": True, "canastas": 0,
             "ranks": {"K": True, "9": False}},
    "opponents": {"score": 1200, "melds": [["QH", "QS", "QD"]], "red_threes": 1, "opened": True, "canastas": 0,
                  "ranks": {"Q": True}},
    "player": {"hand": ["9H", "9S", "JK", "5C", "7D", "KC", "4H"], "hand_count": 7, "has_melded": True},
    "turn": {"drew": "stock", "cards_from_pile": [], "partner_answer": None},
}
# every member given and null (or false), so that a member read only where another is falsy is read too
NULLS = {"players": None, "first_round": None, "stock_count": None, "discard_pile": None,
         "pile_unnamed": {"wild": None, "black_three": None, "red_three_first": None},
         "team": {"score": None, "melds": None, "red_threes": None, "opened": None, "canastas": None, "ranks": None},
         "opponents": None, "player": {"hand": None, "hand_count": None, "has_melded": None},
         "turn": {"drew": None, "cards_from_pile": None, "partner_answer": None}}
HOUSE = {"wild.twos": True}
TEAMS = [{"name": "Vi", "score_before": 0, "melds": [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]], "hand": [],
          "red_threes": 1, "went_out": True, "concealed": False, "penalties": [{"kind": "hint"}]},
         {"name": "De", "melded_points": 50, "natural_canastas": 1, "mixed_canastas": 0, "hand_points": 10}]
DEAL = {"hands": HANDS, "discard_pile": ["7C"], "stock_count": 63, "first_player": 0}
MOVES = [{"player": 0, "event": "lay_out", "red_threes": ["3H"], "cards": ["5D"]},
         {"player": 0, "action": {"type": "draw"}, "cards": ["8C"]},
         {"player": 0, "event": "ask"}, {"player": 2, "event": "answer", "answer": "no"}]
BODIES = {
    "adjudicate": [
        {"variant": "sv-classic", "situation": {**SITUATION, "turn": {"drew": None}},
         "action": {"type": "take_pile", "with": ["9H", "9S"], "melds": [], "add": [["KC"], {"to": "K", "cards": []}]},
         "house_rules": HOUSE, "lang": "sv"},
        {"variant": "sv-classic", "situation": SITUATION, "action": {"type": "go_out", "discard": "5C"}},
        {"variant": "sv-classic", "situation": SITUATION, "action": {"type": "discard", "card": "5C"}},
        {"variant": "sv-classic", "situation": NULLS, "house_rules": None,
         "action": {"type": "meld", "with": None, "melds": [["9H", "9S", "JK"]], "add": None, "discard": None,
                    "card": None}},
    ],
    "options": [{"variant": "sv-classic", "situation": SITUATION, "house_rules": HOUSE, "lang": "sv"}],
    "score": [{"variant": "da-ludo", "players": 4, "house_rules": HOUSE, "teams": TEAMS, "lang": "sv"},
              {"variant": "da-ludo", "players": 4, "rounds": [{"teams": TEAMS}]}],
    "compare": [{"variants": ["sv-classic", "no-pagat"], "situation": SITUATION, "action": {"type": "draw"},
                 "house_rules": HOUSE, "lang": "sv"},
                {"variants": ["da-ludo"], "players": 4, "teams": TEAMS},
                {"variants": ["da-ludo"], "players": 4, "rounds": [{"teams": TEAMS}]}],
    "batch": [{"requests": [{"variant": "sv-classic", "situation": SITUATION, "action": {"type": "draw"}}],
               "lang": "sv"}],
    "replay": [{"variant": "no-pagat", "players": 4, "house_rules": HOUSE, "lang": "sv", "scores": [0, 0],
                "deal": DEAL, "moves": MOVES},
               {"variant": "no-pagat", "players": 4, "rounds": [{"deal": DEAL, "moves": MOVES}]}],
}


@pytest.fixture(scope="module")
def reads() -> dict[str, set[str]]:
    """Every member the parsers read, by the name of its schema, over :data:`BODIES` answered as the service
    answers them."""
    log: dict[str, set[str]] = {}
    real = shape.check

    def check(payload, kind, variants):
        return tracked(real(payload, kind, variants), SCHEMAS[kind], log)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shape, "check", check)
        patch.setattr(use_cases, "check", check)
        for kind, bodies in BODIES.items():
            for body in bodies:
                answer(kind, copy.deepcopy(body), variants=VARIANTS)
    return log


def test_the_bodies_here_are_answered():
    """Each body is answered (no refusal cuts the parser's reading short)."""
    for kind, bodies in BODIES.items():
        for body in bodies:
            said = answer(kind, copy.deepcopy(body), variants=VARIANTS)
            assert said.status == 200, (kind, said.document)


def test_the_parsers_read_every_member_the_schemas_define(reads):
    for name, cls in _classes().items():
        members = {field.data_key or key for key, field in cls().fields.items()} - READ_AT_THE_EDGE
        unread = members - reads.get(name, set())
        assert not unread, f"{name}: the schema defines {sorted(unread)}, which no parser reads"


def test_the_parsers_read_no_member_the_schemas_do_not_define(reads):
    for name, cls in _classes().items():
        members = {field.data_key or key for key, field in cls().fields.items()}
        stray = reads.get(name, set()) - members
        assert not stray, f"{name}: a parser reads {sorted(stray)}, which the schema does not define"
