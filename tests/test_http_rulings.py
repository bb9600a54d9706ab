"""HTTP tests for ``POST /v1/adjudicate`` and ``GET /v1/rules``."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from engine_json import adjudicate
from adjudicator.model.messages import msg
from adjudicator.words.render import render
from adjudicator.model.rule_ids import RULES
from adjudicator.variants import load_all
from problems import PROBLEM, PROBLEM_BASE, assert_problem, pointers  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = load_all()
VARIANT_IDS = list(VARIANTS)
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))

# The issue's example: a frozen pile (a joker in it, a red three under it) taken with one natural nine and a joker.
ISSUE = {
    "variant": "no-pagat",
    "situation": {
        "discard_pile": ["3H", "7C", "JK", "9D"],
        "team": {"score": 1600, "melds": [["KH", "KS", "KD"]], "red_threes": 1},
        "player": {"hand": ["9H", "JK", "5C"]},
    },
    "action": {"type": "take_pile", "with": ["9H", "JK"]},
}

LEGAL = {
    "variant": "sv-classic",
    "situation": {
        "players": 4,
        "first_round": False,
        "team": {"score": 1000, "melds": [["KH", "KS", "KD"]], "red_threes": 0},
        "player": {"hand": ["9H", "9S", "9C", "5C", "7D"], "has_melded": True},
        "turn": {"drew": "stock", "cards_from_pile": []},
    },
    "action": {"type": "meld", "melds": [["9H", "9S", "9C"]]},
}

RULING_KEYS = {"variant", "verdict", "summary", "reasons", "interpretations", "missing", "not_stated", "consequences",
               "deciding"}






def with_changes(payload: dict, change) -> dict:
    out = copy.deepcopy(payload)
    change(out)
    return out


def post(client, body):
    return client.post("/v1/adjudicate", json=body)


def assert_citations_are_the_source(client, ruling: dict) -> int:
    """Every citation of every reason and interpretation is source[start:end] of its variant."""
    sources: dict[str, str] = {}
    count = 0
    for item in ruling["reasons"] + ruling["interpretations"]:
        for cite in item["citations"]:
            vid = cite["variant"]
            if vid not in sources:
                resp = client.get(f"/v1/variants/{vid}/source")
                assert resp.status_code == 200
                sources[vid] = resp.data.decode("utf-8")
            assert sources[vid][cite["start"]:cite["end"]] == cite["quote"]
            count += 1
    return count


# ----------------------------------------------------------------------------------------------
# Rulings


def test_issue_example_is_illegal_for_the_frozen_pile_rule_with_its_words(client):
    resp = post(client, ISSUE)
    assert resp.status_code == 200
    assert resp.mimetype == "application/json"
    ruling = resp.get_json()
    assert set(ruling) == RULING_KEYS
    assert ruling["variant"] == "no-pagat"
    assert ruling["verdict"] == "illegal"
    assert ruling["consequences"] == []
    failed = [r for r in ruling["reasons"] if r["passed"] is False]
    assert [r["rule"] for r in failed] == ["pile.frozen.natural_pair"]
    reason = failed[0]
    assert "nines" in reason["explanation"] and "Joker" in reason["explanation"]
    assert "JK" not in reason["explanation"] and "9D" not in reason["explanation"], "cards by name, not by code"
    assert reason["explanation"] in ruling["summary"]
    assert reason["citations"], "the deciding reason quotes the rule"
    source = client.get("/v1/variants/no-pagat/source").data.decode("utf-8")
    for cite in reason["citations"]:
        assert cite["variant"] == "no-pagat" and cite["language"] == "no"
        assert source[cite["start"]:cite["end"]] == cite["quote"]
    quotes = " ".join(c["quote"] for c in reason["citations"])
    assert "to naturlige kort" in quotes  # "two natural cards" of the frozen-pile section
    assert assert_citations_are_the_source(client, ruling) >= len(reason["citations"])


def test_the_http_ruling_is_the_engines_ruling(client):
    for body in (ISSUE, LEGAL):
        assert post(client, body).get_json() == json.loads(json.dumps(adjudicate(copy.deepcopy(body), VARIANTS)))


def test_legal_ruling(client):
    resp = post(client, LEGAL)
    assert resp.status_code == 200
    ruling = resp.get_json()
    assert ruling["verdict"] == "legal", ruling["summary"]
    assert ruling["reasons"] and all(r["passed"] is True for r in ruling["reasons"])
    assert ruling["missing"] == [] and ruling["not_stated"] == []
    assert {"meld.same_rank", "meld.min_cards", "turn.draw_first"} <= {r["rule"] for r in ruling["reasons"]}
    assert ruling["summary"].startswith("Allowed under Classic Canasta (Swedish guide)")
    assert assert_citations_are_the_source(client, ruling) > 0


def test_undetermined_ruling_lists_the_missing_facts(client):
    resp = post(client, {"variant": "sv-classic", "situation": {}, "action": {"type": "draw"}})
    assert resp.status_code == 200
    ruling = resp.get_json()
    assert ruling["verdict"] == "undetermined"
    assert "/situation/turn/drew" in ruling["missing"]
    assert "/situation/stock_count" in ruling["missing"]
    assert all(p.startswith("/situation/") for p in ruling["missing"])
    assert not any(r["passed"] is False for r in ruling["reasons"])
    assert any(r["passed"] is None for r in ruling["reasons"])
    # the facts a choice can give lead the summary as conditions; the others are named in words (#42)
    assert "before you draw, while the stock has cards" in ruling["summary"]  # the values that allow it lead
    assert [c["pointer"] for c in ruling["conditions"]] == ["/situation/turn/drew", "/situation/stock_count"]
    assert not any(pointer in ruling["summary"] for pointer in ruling["missing"])


def test_not_given_drew_differs_from_not_drawn_yet(client):
    base = {"variant": "sv-classic", "situation": {"players": 4, "stock_count": 30}, "action": {"type": "draw"}}
    unknown = post(client, base).get_json()
    assert "/situation/turn/drew" in unknown["missing"]
    not_yet = post(client, with_changes(base, lambda b: b["situation"].update(turn={"drew": None}))).get_json()
    assert "/situation/turn/drew" not in not_yet["missing"]
    assert not_yet["verdict"] == "legal", not_yet["summary"]
    again = post(client, with_changes(base, lambda b: b["situation"].update(turn={"drew": "stock"}))).get_json()
    assert again["verdict"] == "illegal"
    assert [r["rule"] for r in again["reasons"] if r["passed"] is False] == ["turn.draw_first"]


def test_null_facts_mean_not_given(client):
    body = {"variant": "sv-classic", "action": {"type": "draw"},
            "situation": {"players": None, "first_round": None, "stock_count": None, "discard_pile": None,
                          "team": None, "opponents": None, "player": None, "turn": None}}
    resp = post(client, body)
    assert resp.status_code == 200
    assert resp.get_json() == post(client, {**body, "situation": {}}).get_json()


def test_house_rule_settles_an_unstated_point_and_is_cited_as_such(client):
    body = {"variant": "da-ludo", "situation": {"turn": {"drew": "stock"}, "team": {"score": 0, "melds": [["KH", "KS", "KD"]]},
                                                "player": {"hand": ["QH", "QS", "2C", "4D"]}},
            "action": {"type": "meld", "melds": [["QH", "QS", "2C"]]}}
    open_point = post(client, body).get_json()
    assert open_point["verdict"] == "undetermined"
    assert "wild.twos" in open_point["not_stated"]
    settled = post(client, {**body, "house_rules": {"wild.twos": True}}).get_json()
    assert "wild.twos" not in settled["not_stated"]
    assert settled["verdict"] == "legal", settled["summary"]
    house = [h for r in settled["reasons"] for h in r.get("house_rules", [])]
    assert {"parameter": "wild.twos", "value": True} in house
    assert any(i["parameter"] == "wild.twos" and i["status"] == "house_rule" for i in settled["interpretations"])


def test_integral_floats_are_integers(client):
    body = with_changes(ISSUE, lambda b: (b["situation"]["team"].update(score=1600.0),
                                          b["situation"].update(players=4.0)))
    resp = post(client, body)
    assert resp.status_code == 200
    assert resp.get_json() == post(client, with_changes(ISSUE, lambda b: b["situation"].update(players=4))).get_json()


def test_additions_as_lists_and_as_objects(client):
    body = {"variant": "sv-classic",
            "situation": {"players": 4, "turn": {"drew": "stock"}, "team": {"score": 0, "melds": [["KH", "KS", "KD"]]},
                          "player": {"hand": ["KC", "QH", "5C", "7D"]}},
            "action": {"type": "meld", "add": [["KC"]]}}
    as_list = post(client, body)
    assert as_list.status_code == 200
    as_object = post(client, with_changes(body, lambda b: b["action"].update(add=[{"to": "K", "cards": ["KC"]}])))
    assert as_object.status_code == 200
    assert "meld.add.target" in {r["rule"] for r in as_object.get_json()["reasons"]}
    assert as_list.get_json()["verdict"] == as_object.get_json()["verdict"]


# ----------------------------------------------------------------------------------------------
# Bad input


def test_malformed_json_is_400(client):
    resp = client.post("/v1/adjudicate", data=b'{"variant": "no-pagat",', content_type="application/json")
    body = assert_problem(resp, 400, "malformed-json")
    assert pointers(body) == [""]


def test_body_not_an_object_is_400(client):
    assert_problem(client.post("/v1/adjudicate", json=[ISSUE]), 400, "body-not-an-object")


def test_text_plain_is_415(client):
    resp = client.post("/v1/adjudicate", data=json.dumps(ISSUE), content_type="text/plain")
    assert_problem(resp, 415, "unsupported-media-type")
    assert resp.headers["Accept-Post"] == "application/json"


def test_unpaired_surrogate_is_400_not_a_crash(client):
    resp = client.post("/v1/adjudicate", data=b'{"variant": "no-pagat", "situ\\ud800": 1}',
                       content_type="application/json")
    body = assert_problem(resp, 400, "malformed-json")  # not I-JSON: refused while the body is decoded
    assert pointers(body) == [""] and "surrogate" in body["detail"]


def test_unknown_card_is_422_pointing_at_it(client):
    body = with_changes(ISSUE, lambda b: b["situation"]["player"].update(hand=["1Z", "JK", "5C"]))
    problem = assert_problem(post(client, body), 422, "impossible-input")
    assert pointers(problem) == ["/situation/player/hand/0"]
    assert "1Z" in problem["errors"][0]["detail"]


def test_too_many_copies_is_422(client):
    # no-pagat plays with two decks: a third five of clubs cannot exist.
    body = with_changes(ISSUE, lambda b: b["situation"]["player"].update(hand=["9H", "JK", "5C", "5C", "5C"]))
    problem = assert_problem(post(client, body), 422, "impossible-input")
    assert pointers(problem) == ["/situation/player/hand/4"]
    assert "5♣" in problem["detail"]


def test_too_many_jokers_is_422(client):
    body = with_changes(ISSUE, lambda b: b["situation"].update(discard_pile=["JK", "JK", "JK", "JK", "9D"]))
    problem = assert_problem(post(client, body), 422, "impossible-input")
    assert "four jokers" in problem["errors"][0]["detail"]  # a small count in words, the card by name


def test_unsupported_player_count_is_422(client):
    body = with_changes(ISSUE, lambda b: b["situation"].update(players=3))
    problem = assert_problem(post(client, body), 422, "impossible-input")
    assert pointers(problem) == ["/situation/players"]
    assert "4" in problem["errors"][0]["detail"]


def test_card_not_in_hand_is_422(client):
    body = with_changes(ISSUE, lambda b: b["action"].update({"with": ["9S", "JK"]}))
    problem = assert_problem(post(client, body), 422, "impossible-input")
    assert pointers(problem) == ["/action/with/0"]
    assert "9♠" in problem["detail"]


def test_unknown_action_type_is_422(client):
    body = with_changes(ISSUE, lambda b: b["action"].update(type="steal"))
    problem = assert_problem(post(client, body), 422, "validation-failed")
    assert pointers(problem) == ["/action/type"]


def test_unknown_variant_is_404_listing_the_known_ids(client):
    problem = assert_problem(post(client, {**ISSUE, "variant": "no-such"}), 404, "unknown-variant")
    assert problem["known"] == VARIANT_IDS
    assert pointers(problem) == ["/variant"]


def test_bad_house_rules_are_422_pointing_at_each(client):
    problem = assert_problem(post(client, {**ISSUE, "house_rules": {"no.such": 1, "wild.twos": "yes"}}), 422)
    assert set(pointers(problem)) == {"/house_rules/no.such", "/house_rules/wild.twos"}


@pytest.mark.parametrize("change,pointer", [
    (lambda b: b.update(situaton={}), "/situaton"),
    (lambda b: b["situation"].update(stock=3), "/situation/stock"),
    (lambda b: b["situation"]["player"].update(hnad=[]), "/situation/player/hnad"),
    (lambda b: b["situation"]["team"].update(red_three=1), "/situation/team/red_three"),
    (lambda b: b["action"].update(width=["9H"]), "/action/width"),
    (lambda b: b["action"].update(add=[{"to": "9", "cards": ["9H"], "x": 1}]), "/action/add/0/x"),
    (lambda b: b["situation"]["team"].update(score="1600"), "/situation/team/score"),
    (lambda b: b["situation"]["team"].update(score=1600.5), "/situation/team/score"),
    (lambda b: b["situation"]["team"].update(score=True), "/situation/team/score"),
    (lambda b: b["situation"].update(first_round="no"), "/situation/first_round"),
    (lambda b: b["situation"].update(stock_count=-1), "/situation/stock_count"),
    (lambda b: b["situation"]["team"].update(red_threes=5), "/situation/team/red_threes"),
    (lambda b: b["situation"].update(turn={"drew": "hand"}), "/situation/turn/drew"),
    (lambda b: b["situation"].update(discard_pile=["9D"] * 111), "/situation/discard_pile"),
    (lambda b: b["situation"]["player"].update(hand=[9]), "/situation/player/hand/0"),
    (lambda b: b["situation"]["player"].update(hand=["9H" * 9]), "/situation/player/hand/0"),
    (lambda b: b["action"].update(add=[5]), "/action/add/0"),
    (lambda b: b.update(variant=5), "/variant"),
    (lambda b: b.pop("action"), "/action"),
    (lambda b: b.pop("situation"), "/situation"),
    (lambda b: b.update(house_rules=[]), "/house_rules"),
])
def test_shape_faults_are_422_validation_failed_with_a_pointer(client, change, pointer):
    problem = assert_problem(post(client, with_changes(ISSUE, change)), 422, "validation-failed")
    assert pointer in pointers(problem)


def test_wrong_method_is_405_with_allow(client):
    resp = client.get("/v1/adjudicate")
    assert_problem(resp, 405, "method-not-allowed")
    assert "POST" in resp.headers["Allow"]


def test_too_large_body_is_413(client):
    resp = client.post("/v1/adjudicate", data=b'{"variant": "' + b"x" * (1024 * 1024 + 10) + b'"}',
                       content_type="application/json")
    assert_problem(resp, 413)


# ----------------------------------------------------------------------------------------------
# /v1/rules


def test_rules_lists_the_catalogue(client):
    resp = client.get("/v1/rules")
    assert resp.status_code == 200
    rules = resp.get_json()["rules"]
    assert [r["rule"] for r in rules] == list(RULES)
    for entry in rules:
        params = RULES[entry["rule"]]
        assert entry == {"rule": entry["rule"], "checks": render(msg(f"rule.{entry['rule']}")),
                         "parameters": list(params)}


def test_rules_cover_every_rule_id_used_in_rulings(client):
    from ruling_table import HOUSE_RULES, ROWS

    listed = {r["rule"] for r in client.get("/v1/rules").get_json()["rules"]}
    used: set[str] = set()
    for name, situation, action, _rule, _codes in ROWS:
        for vid in VARIANT_IDS:
            body = {"variant": vid, "situation": situation, "action": action}
            if HOUSE_RULES.get(name):
                body["house_rules"] = HOUSE_RULES[name]
            resp = post(client, body)
            if resp.status_code == 200:
                used |= {r["rule"] for r in resp.get_json()["reasons"]}
    assert len(used) >= 20
    assert used <= listed, used - listed


def test_openapi_rule_id_enum_is_the_catalogue():
    schemas = SPEC["components"]["schemas"]
    assert schemas["RuleId"]["enum"] == list(RULES)
    for rid in RULES:
        assert f"`{rid}`" in schemas["RuleId"]["description"]


def test_openapi_examples_answer_as_described(client):
    examples = SPEC["paths"]["/v1/adjudicate"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    verdicts = {name: post(client, ex["value"]).get_json()["verdict"] for name, ex in examples.items()}
    assert verdicts == {"frozen-pile": "illegal", "legal-meld": "legal", "undetermined": "undetermined",
                        "house-rule": "legal"}
    assert examples["frozen-pile"]["value"] == ISSUE
