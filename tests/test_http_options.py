"""HTTP tests for ``POST /v1/options`` and the comparison of options (``POST /v1/compare`` with a situation alone)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from adjudicator.variants import load_all
from problems import assert_problem, pointers

ROOT = Path(__file__).resolve().parent.parent
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
REGISTRY = Registry().with_resource("urn:openapi", Resource.opaque(SPEC))
VARIANT_IDS = list(load_all())

SITUATION = {
    "players": 4, "first_round": False, "stock_count": 40, "discard_pile": ["6C", "8D", "9D"],
    "team": {"score": 1000, "melds": [["KH", "KS", "KD"]], "red_threes": 0},
    "opponents": {"score": 1200, "melds": [["QH", "QS", "QD"]], "red_threes": 0},
    "player": {"hand": ["9H", "9S", "JK", "5C", "7D", "AH", "KC"], "has_melded": True},
    "turn": {"drew": None, "cards_from_pile": []},
}
DRAWN = {**SITUATION, "turn": {"drew": "stock", "cards_from_pile": []}}


def conforms(body: dict, schema: str) -> None:
    """The body is what openapi.yaml says a ``schema`` is."""
    validator = Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{schema}"}, registry=REGISTRY)
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.path))
    assert not errors, [(list(e.path), e.message[:200]) for e in errors[:5]]


def options(client, variant="sv-classic", situation=SITUATION, **more):
    return client.post("/v1/options", json={"variant": variant, "situation": situation, **more})


# ----------------------------------------------------------------------------------------------
# /v1/options


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("situation", [SITUATION, DRAWN, {k: v for k, v in SITUATION.items() if k != "turn"}],
                         ids=["before-drawing", "after-drawing", "drew-not-given"])
def test_every_option_is_what_adjudicate_rules(client, variant, situation):
    resp = options(client, variant, situation)
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    body = resp.get_json()
    conforms(body, "Options")
    assert body["variant"] == variant and body["groups"]
    for group in body["groups"]:
        sit = situation if not group["assumed"] else {**situation, "turn": {"drew": group["drew"]}}
        for option in group["options"]:
            ruled = client.post("/v1/adjudicate", json={"variant": variant, "situation": sit,
                                                        "action": option["action"]})
            assert ruled.status_code == 200
            assert ruled.get_json()["verdict"] == option["verdict"] == option["ruling"]["verdict"]
            assert option["ruling"]["reasons"] == ruled.get_json()["reasons"]


def test_the_groups_of_each_phase(client):
    before = options(client).get_json()
    assert before["phase"] == "before_draw" and [g["kind"] for g in before["groups"]] == ["draw", "take_pile"]
    take = {o["key"]: o for o in before["groups"][1]["options"]}
    assert take["take_pile:natural_pair"]["action"] == {"type": "take_pile", "with": ["9H", "9S"]}
    assert take["take_pile:natural_pair"]["description"] == "Take the pile with a natural pair of nines (9♥ 9♠)."
    after = options(client, situation=DRAWN).get_json()
    assert [g["kind"] for g in after["groups"]] == ["meld", "go_out", "discard"]
    melds = {o["key"]: o for o in after["groups"][0]["options"]}
    assert melds["add:K"]["action"] == {"type": "meld", "add": [{"to": "K", "cards": ["KC"]}]}
    assert melds["meld:9"]["way"] == "with_wilds" and melds["meld:9"]["rank"] == "9"
    go_out = after["groups"][1]
    assert go_out["possible"] is False and go_out["options"] == []
    assert [r["rule"] for r in go_out["blocked"]["reasons"] if r["passed"] is False]
    discards = {o["key"]: o for o in after["groups"][2]["options"]}
    assert discards["discard:JK"]["ruling"]["consequences"] == [
        "The wild card Joker freezes the pile for everyone; lay it crosswise."]


def test_an_unopened_team_gets_its_requirement_and_openings(client):
    situation = {**DRAWN, "team": {"score": 1600, "melds": [], "red_threes": 0},
                 "player": {"hand": ["9H", "9S", "9C", "JK", "2C", "5C", "AH", "AS", "AD"], "has_melded": False}}
    body = options(client, "no-pagat", situation).get_json()
    conforms(body, "Options")
    assert body["opening_requirement"]["points"] == 90 and not body["opening_requirement"]["canasta_required"]
    openings = [o for o in body["groups"][0]["options"] if o["kind"] == "opening"]
    assert openings and all(o["points"] >= 90 and o["verdict"] == "legal" for o in openings)
    assert openings[0]["key"] == "opening:cheapest"


def test_an_open_point_is_listed_undetermined_with_its_readings(client):
    situation = {**DRAWN, "player": {"hand": ["QH", "QS", "2C", "5C", "7D"], "has_melded": True}}
    body = options(client, "da-ludo", situation).get_json()
    queens = next(o for o in body["groups"][0]["options"] if o["key"] == "meld:Q")
    assert queens["verdict"] == "undetermined"
    assert {r["verdict"] for r in queens["ruling"]["readings"]} == {"legal", "illegal"}
    assert queens["ruling"]["not_stated"] == ["wild.twos"]
    settled = options(client, "da-ludo", situation, house_rules={"wild.twos": True}).get_json()
    assert next(o for o in settled["groups"][0]["options"] if o["key"] == "meld:Q")["verdict"] == "legal"


def test_the_words_follow_the_language_and_the_codes_do_not(client):
    english = options(client).get_json()
    swedish = options(client, lang="sv")
    assert swedish.headers["Content-Language"] == "sv"
    swedish = swedish.get_json()

    def codes(body):
        return [(g["kind"], g["possible"], [(o["key"], o["verdict"], o["action"], o["message"]) for o in g["options"]])
                for g in body["groups"]]

    assert codes(english) == codes(swedish)


@pytest.mark.parametrize("body, status, slug, pointer", [
    ({"variant": "sv-classic"}, 422, "validation-failed", "/situation"),
    ({"variant": "sv-classic", "situation": SITUATION, "action": {"type": "draw"}}, 422, "validation-failed",
     "/action"),
    ({"variant": "nope", "situation": SITUATION}, 404, "unknown-variant", "/variant"),
    ({"variant": "sv-classic", "situation": {**SITUATION, "player": {"hand": ["KH", "KH", "KH"]}}}, 422,
     "impossible-input", "/situation/player/hand/2"),
    ({"variant": "sv-classic", "situation": {**SITUATION, "player": {"hand": ["ZZ"]}}}, 422, "impossible-input",
     "/situation/player/hand/0"),
    ({"variant": "no-pagat", "situation": {**SITUATION, "players": 3}}, 422, "impossible-input",
     "/situation/players"),
    ({"variant": "sv-classic", "situation": SITUATION, "house_rules": {"wild.twos": "maybe"}}, 422,
     "impossible-input", "/house_rules/wild.twos"),
])
def test_refusals(client, body, status, slug, pointer):
    problem = assert_problem(client.post("/v1/options", json=body), status, slug)
    if status == 422:
        assert pointer in pointers(problem)


def test_only_post_json(client):
    resp = client.get("/v1/options")
    assert_problem(resp, 405)
    assert "POST" in resp.headers["Allow"]
    assert_problem(client.post("/v1/options", data="x", content_type="text/plain"), 415)
    assert_problem(client.post("/v1/options", data="[1]", content_type="application/json"), 400)


# ----------------------------------------------------------------------------------------------
# /v1/compare of options

EMPTY_STOCK = {"players": 4, "first_round": False, "stock_count": 0, "discard_pile": ["6C", "8D", "KC"],
               "team": {"score": 1000, "melds": [["KH", "KS", "KD"]], "red_threes": 0},
               "player": {"hand": ["9H", "JK", "5C", "3S"], "has_melded": True}, "turn": {"drew": None}}


def test_a_situation_alone_compares_the_options(client):
    resp = client.post("/v1/compare", json={"situation": EMPTY_STOCK})
    assert resp.status_code == 200
    body = resp.get_json()
    conforms(body, "Comparison")
    assert body["kind"] == "options" and body["variants"] == VARIANT_IDS and not body["agree"]
    for result in body["results"]:
        single = options(client, result["variant"], EMPTY_STOCK).get_json()
        assert result["options"] == single
    draw = next(d for d in body["differences"] if d["key"] == "draw")
    by_variant = {e["variant"]: e for e in draw["variants"]}
    # no-pagat: with the stock empty, a pile whose top card fits the team's meld must be taken
    assert by_variant["no-pagat"]["listed"] is False and by_variant["no-pagat"]["verdict"] == "illegal"
    assert [r["rule"] for r in by_variant["no-pagat"]["ruling"]["reasons"] if r["passed"] is False] == [
        "stock.empty.forced_take"]
    # sv-classic reads "utan att kunna fortsätta" two ways: the draw ends the round, or the pile must be taken
    assert by_variant["sv-classic"]["listed"] is True and by_variant["sv-classic"]["verdict"] == "undetermined"
    assert by_variant["sv-classic"]["action"] == {"type": "draw"}
    grouped = {vid for g in body["groups"] for vid in g["variants"]}
    assert grouped == set(VARIANT_IDS)
    assert all("take_pile:onto_meld=legal" in g["options"] for g in body["groups"] if "no-pagat" in g["variants"])


def test_options_compared_under_chosen_variants_with_a_variant_problem(client):
    situation = {**SITUATION, "players": 3}  # only sv-classic has rules for three players
    body = client.post("/v1/compare", json={"variants": ["sv-classic", "no-pagat"], "situation": situation})
    assert body.status_code == 200
    body = body.get_json()
    conforms(body, "Comparison")
    assert [r["variant"] for r in body["results"]] == ["sv-classic", "no-pagat"]
    assert "options" in body["results"][0] and body["results"][1]["problem"]["status"] == 422
    # three players cannot happen under no-pagat ("Fire spiller i to faste par"): the variants differ there first
    assert not body["agree"] and [d["rule"] for d in body["differences"]] == ["table.possible"]
    assert body["differences"][0]["differing_parameters"] == ["players.supported"]


def test_a_situation_with_an_action_is_still_a_ruling_comparison(client):
    body = client.post("/v1/compare", json={"situation": SITUATION, "action": {"type": "draw"}}).get_json()
    assert body["kind"] == "ruling"
    problem = assert_problem(client.post("/v1/compare", json={"action": {"type": "draw"}}), 422,
                             "validation-failed")
    assert pointers(problem) == ["/situation"]


# ----------------------------------------------------------------------------------------------
# Paging a long group

LONG = {**DRAWN, "opponents": {"score": 0, "melds": [], "red_threes": 0},
        "team": {"score": 1000, "melds": [["KH", "KS", "KD"], ["QD", "QC", "QH"], ["8H", "8S", "8C"]],
                          "red_threes": 0},
        "player": {"hand": ["AH", "AS", "KC", "QS", "QS", "10C", "10H", "9S", "8D", "7C", "2C", "JK"],
                   "has_melded": True}}


def test_a_long_group_comes_in_pages_with_its_count(client):
    first = client.post("/v1/options?group=meld&limit=10", json={"variant": "sv-classic", "situation": LONG})
    body = first.get_json()
    conforms(body, "Options")
    [meld] = body["groups"]
    assert meld["kind"] == "meld" and meld["complete"] and meld["count"] > 40 and len(meld["options"]) == 10
    rest = client.post("/v1/options?group=meld&limit=1000&offset=10", json={"variant": "sv-classic", "situation": LONG})
    if rest.status_code == 413:  # a page of 1,000 is priced before the walk knows the group's size: the hint fits
        rest = client.post(f"/v1/options?group=meld&limit={rest.get_json()['max_limit']}&offset=10",
                           json={"variant": "sv-classic", "situation": LONG})
    rest = rest.get_json()["groups"][0]
    assert rest["offset"] == 10 and len(rest["options"]) == meld["count"] - 10
    keys = [o["key"] for o in meld["options"] + rest["options"]]
    assert len(set(keys)) == meld["count"]  # no move twice, none left out of the pages


@pytest.mark.parametrize("query", ["limit=0", "limit=x", "offset=-1", "group=nope", "limit=5&limit=6"])
def test_a_bad_page_is_a_400_naming_the_parameter(client, query):
    response = client.post(f"/v1/options?{query}", json={"variant": "sv-classic", "situation": LONG})
    assert response.status_code == 400
    assert response.get_json()["parameter"] == query.split("=")[0]
