"""HTTP tests for ``POST /v1/score``: one round, a whole game, and the problems a score can meet.

``adjudicator.scoring`` is imported at module level on purpose: if it is missing,
collecting this file fails loudly instead of skipping.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from engine_json import score
from adjudicator.variants import load_all
from problems import PROBLEM, PROBLEM_BASE, assert_problem, pointers  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = load_all()
VARIANT_IDS = list(VARIANTS)
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))

CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]

ROUND = {
    "variant": "sv-classic",
    "players": 4,
    "teams": [
        {"name": "Vi", "score_before": 1200, "melds": [CANASTA_K, ["9H", "9S", "JK"]], "hand": [],
         "red_threes": 1, "went_out": True},
        {"name": "De", "score_before": 800, "melds": [["QH", "QS", "QD"]], "hand": ["5C", "7D"]},
    ],
}

GAME = {
    "variant": "no-pagat",
    "rounds": [
        {"teams": [{"name": "A", "melded_points": 300, "natural_canastas": 1, "red_threes": 1, "went_out": True},
                   {"name": "B", "melded_points": 150, "hand_points": 40}]},
        {"teams": [{"name": "A", "melded_points": 200, "mixed_canastas": 1, "hand_points": 20},
                   {"name": "B", "melded_points": 250, "natural_canastas": 1, "went_out": True}]},
    ],
}


def as_json(value):
    """What a value looks like after a JSON round trip (mapping keys become strings)."""
    return json.loads(json.dumps(value))






def post(client, body):
    return client.post("/v1/score", json=body)


def check_team_arithmetic(team: dict) -> None:
    assert team["round"] == sum(line["points"] for line in team["lines"])
    assert team["total"] == team["score_before"] + team["round"]


def check_citations(client, result: dict) -> None:
    sources: dict[str, str] = {}

    def source(vid: str) -> str:
        if vid not in sources:
            sources[vid] = client.get(f"/v1/variants/{vid}/source").data.decode("utf-8")
        return sources[vid]

    for team in result["teams"]:
        for line in team["lines"]:
            for cite in line["citations"]:
                assert source(cite["variant"])[cite["start"]:cite["end"]] == cite["quote"]


# ----------------------------------------------------------------------------------------------
# One round


def test_one_round_over_http(client):
    resp = post(client, ROUND)
    assert resp.status_code == 200
    assert resp.mimetype == "application/json"
    result = resp.get_json()
    assert result == as_json(score(copy.deepcopy(ROUND), VARIANTS))
    assert result["variant"] == "sv-classic"
    assert [t["name"] for t in result["teams"]] == ["Vi", "De"]
    vi, de = result["teams"]
    for team in (vi, de):
        check_team_arithmetic(team)
    items = {line["item"]: line for line in vi["lines"]}
    assert items["natural_canastas"]["count"] == 1
    assert items["going_out"]["points"] > 0
    assert items["red_threes"]["count"] == 1
    assert items["melded_cards"]["count"] == 10
    assert items["melded_cards"]["citations"], "card values are cited"
    assert {line["item"] for line in de["lines"]} >= {"melded_cards", "hand"}
    assert vi["score_before"] == 1200 and de["score_before"] == 800
    assert result["target"] == 5000 and result["game_over"] is False and result["winner"] is None
    for team in (vi, de):
        assert isinstance(team["opening_requirement"]["points"], int)
    check_citations(client, result)


def test_a_round_can_end_the_game(client):
    body = copy.deepcopy(ROUND)
    body["teams"][0]["score_before"] = 4900
    result = post(client, body).get_json()
    assert result["game_over"] is True
    assert result["winner"] == "Vi"


# ----------------------------------------------------------------------------------------------
# A game


def test_a_game_over_http(client):
    resp = post(client, GAME)
    assert resp.status_code == 200
    result = resp.get_json()
    assert result == as_json(score(copy.deepcopy(GAME), VARIANTS))
    assert result["variant"] == "no-pagat"
    assert result["players"] == 4
    assert len(result["rounds"]) == 2
    first, second = result["rounds"]
    for rnd in (first, second):
        for team in rnd["teams"]:
            check_team_arithmetic(team)
    # totals carry from round to round, and the game's teams are the last round's
    before = {t["name"]: t["total"] for t in first["teams"]}
    assert {t["name"]: t["score_before"] for t in second["teams"]} == before
    assert result["teams"] == second["teams"]
    assert result["game_over"] == second["game_over"] and result["winner"] == second["winner"]


def test_openapi_examples_are_scored(client):
    examples = SPEC["paths"]["/v1/score"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    assert examples["round"]["value"] == ROUND
    assert examples["game"]["value"] == GAME
    for ex in examples.values():
        assert post(client, ex["value"]).status_code == 200


# ----------------------------------------------------------------------------------------------
# Problems


def test_unknown_variant_is_404(client):
    problem = assert_problem(post(client, {**ROUND, "variant": "nope"}), 404, "unknown-variant")
    assert problem["known"] == VARIANT_IDS


def test_teams_and_rounds_together_is_422(client):
    problem = assert_problem(post(client, {**ROUND, "rounds": GAME["rounds"]}), 422, "validation-failed")
    assert pointers(problem) == ["/rounds"]


def test_neither_teams_nor_rounds_is_422(client):
    problem = assert_problem(post(client, {"variant": "sv-classic", "players": 4}), 422, "validation-failed")
    assert pointers(problem) == [""]


@pytest.mark.parametrize("change,pointer", [
    (lambda b: b["teams"][0].update(nmae="x"), "/teams/0/nmae"),
    (lambda b: b["teams"][1].update(red_threes="1"), "/teams/1/red_threes"),
    (lambda b: b["teams"][1].update(went_out=1), "/teams/1/went_out"),
    (lambda b: b["teams"][1].update(penalties=[{"kind": "cheating"}]), "/teams/1/penalties/0/kind"),
    (lambda b: b["teams"][1].update(hand_points=-5), "/teams/1/hand_points"),
    (lambda b: b["teams"][0].pop("name"), "/teams/0/name"),
    (lambda b: b.update(teams=[]), "/teams"),
    (lambda b: b.update(players="4"), "/players"),
    (lambda b: b.update(extra=True), "/extra"),
])
def test_shape_faults_are_422_with_a_pointer(client, change, pointer):
    body = copy.deepcopy(ROUND)
    change(body)
    problem = assert_problem(post(client, body), 422, "validation-failed")
    assert pointer in pointers(problem)


def test_impossible_table_is_422_pointing_at_it(client):
    body = copy.deepcopy(ROUND)
    body["teams"][1]["hand"] = ["JK", "JK", "JK", "JK"]  # with Vi's joker, five jokers in a 108-card deck
    problem = assert_problem(post(client, body), 422, "impossible-input")
    assert any(p.startswith("/teams/1/hand/") for p in pointers(problem))


def test_wrong_team_count_is_422(client):
    body = copy.deepcopy(ROUND)
    body["teams"] = body["teams"][:1]
    problem = assert_problem(post(client, body), 422, "impossible-input")
    assert pointers(problem) == ["/teams"]


def test_unstated_rule_is_422_naming_the_house_rule(client):
    """A figure the text does not give (what a black three counts in da-ludo) cannot be tried reading by reading:
    a house rule must give it. (A point with readings -- whether twos are wild -- is scored under each.)"""
    body = {"variant": "da-ludo", "teams": [{"name": "A", "melds": [["KH", "KS", "KD"]], "hand": ["3C"]},
                                            {"name": "B", "melded_points": 10}]}
    problem = assert_problem(post(client, body), 422, "rule-not-stated")
    assert problem["parameters"] == ["card_value.black_three"]
    assert pointers(problem) == ["/teams/0/hand/0"]
    settled = post(client, {**body, "house_rules": {"card_value.black_three": 5}})
    assert settled.status_code == 200, settled.get_data(as_text=True)


def test_malformed_and_wrong_media_type(client):
    assert_problem(client.post("/v1/score", data=b"{", content_type="application/json"), 400, "malformed-json")
    assert_problem(client.post("/v1/score", data=b"{}", content_type="text/plain"), 415, "unsupported-media-type")
    assert_problem(client.get("/v1/score"), 405, "method-not-allowed")


def test_openapi_penalty_kinds_are_the_scoring_modules():
    from adjudicator.scoring import PENALTY_KINDS

    kinds = SPEC["components"]["schemas"]["Penalty"]["properties"]["kind"]["enum"]
    assert tuple(kinds) == tuple(PENALTY_KINDS)
