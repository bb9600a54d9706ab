"""A comparison read once per distinct reading is the comparison read once per variant, refusals included.

``parse.compare_request`` reads the action once and the situation once per player count. It is held equal,
answer for answer and refusal for refusal, to the plain reading below: the whole request parsed again under
each variant, which is what a comparison means."""

from __future__ import annotations

import pytest

from adjudicator.input import parse
from adjudicator.input.parse import _compare_kind, _variant_ids, action, options_of, ruling_of, score_of
from adjudicator.input import house_rules, shape
from adjudicator.model.errors import MalformedRequest, UnknownVariant, issue
from adjudicator.model.requests import CompareRequest
from adjudicator.model.errors import AdjudicatorError
from adjudicator.variants import load_all
from ruling_table import HOUSE_RULES, ROWS
from test_scoring import CASES as SCORE_CASES

VARIANTS = load_all()


def reference(payload, variants):
    """The reference: each variant's own parse of the whole request (the reading before it was made faster)."""
    if isinstance(payload, dict) and "variant" in payload and "variants" not in payload:
        raise MalformedRequest([issue("/variant", "error.compare_variant")])
    payload = shape.check(payload, "compare", variants)
    kind = _compare_kind(payload)
    ids = _variant_ids(payload.get("variants"), variants)  # the variant list is read alike either way
    body = {k: v for k, v in payload.items() if k != "variants"}
    if kind == "ruling":
        action(body["action"])
    house_rules.apply(variants[ids[0]], body.get("house_rules"))
    parse_one = {"options": options_of, "ruling": ruling_of, "score": score_of}[kind]
    asked = []
    for vid in ids:
        try:
            asked.append(parse_one({**body, "variant": vid}, variants))
        except UnknownVariant:
            raise
        except AdjudicatorError as e:
            asked.append(e)
    return CompareRequest(kind, ids, tuple(asked))


def _outcome(read, payload):
    try:
        return read(payload, VARIANTS)
    except AdjudicatorError as e:
        return e


def _same(payload: dict) -> None:
    per_variant, once = _outcome(reference, payload), _outcome(parse.compare_request, payload)
    if isinstance(per_variant, AdjudicatorError):
        assert isinstance(once, AdjudicatorError) and once.same_as(per_variant)
        return
    assert (once.kind, once.variants) == (per_variant.kind, per_variant.variants)
    for mine, theirs in zip(once.asked, per_variant.asked, strict=True):
        if isinstance(theirs, AdjudicatorError):
            assert isinstance(mine, AdjudicatorError) and mine.same_as(theirs), (mine, theirs)
        else:
            assert mine == theirs
            assert mine.rules is theirs.rules or mine.rules == theirs.rules


def _payloads():
    for name, situation, action, _rule, _codes in ROWS:
        payload = {"situation": situation, "action": action}
        if HOUSE_RULES.get(name):
            payload["house_rules"] = HOUSE_RULES[name]
        yield name, payload


@pytest.mark.parametrize("name,payload", list(_payloads()))
def test_every_row_of_the_rule_matrix_reads_the_same(name, payload):
    _same(payload)
    _same({"situation": payload["situation"]})  # the options of the situation
    for players in (2, 3, 4, 6, None):  # counts some variants have no rules for, and none given
        situation = {**payload["situation"], "players": players}
        _same({**payload, "situation": situation})
        _same({**payload, "situation": situation, "variants": ["sv-classic", "no-pagat"]})


@pytest.mark.parametrize("payload", [
    {"situation": {"players": 3, "turn": {"drew": "nowhere"}}, "action": {"type": "draw"}},  # refused before the count
    {"situation": {"players": 3, "turn": {"partner_answer": "maybe"}}, "action": {"type": "draw"}},
    {"situation": {"players": 3, "player": {"hand": ["ZZ"]}}, "action": {"type": "draw"}},  # a card, after the count
    {"situation": {"players": 4, "player": {"hand": ["ZZ"]}}, "action": {"type": "draw"}},
    {"situation": {"players": 3}, "action": {"type": "dance"}},
    {"situation": {"players": 3}, "action": {"type": "draw"}, "variants": []},
    {"situation": {"players": 3}, "action": {"type": "draw"}, "variants": ["sv-classic", "sv-classic"]},
    {"situation": {"players": 3}, "action": {"type": "draw"}, "variants": ["nowhere"]},
    {"situation": {"players": 3}, "action": {"type": "draw"}, "variant": "sv-classic"},
    {"situation": {"players": 3}, "action": {"type": "draw"}, "house_rules": {"no.such.rule": 1}},
    {"situation": {"players": 2}, "action": {"type": "draw"}, "house_rules": {"players.supported": [2, 4]}},
    {"situation": {}, "action": {"type": "draw"}, "house_rules": {"players.supported": [2, 4]}},
    {"situation": {"players": 3}},
    {"action": {"type": "draw"}},
    {},
])
def test_refusals_read_the_same(payload):
    _same(payload)


@pytest.mark.parametrize("case", SCORE_CASES[:12], ids=lambda c: str(c[0]))
def test_scores_read_the_same(case):
    _id, _variant, players, house, teams = case[:5]
    payload = {"teams": teams, **({"players": players} if players is not None else {}),
               **({"house_rules": house} if house else {})}
    _same(payload)
