"""HTTP tests for ``POST /v1/compare`` and ``GET /v1/matrix``."""

from __future__ import annotations

import copy
import csv
import io
import json
from pathlib import Path

import pytest
import yaml

from engine_json import matrix, matrix_csv
from adjudicator.variants import load_all
from problems import PROBLEM, PROBLEM_BASE, assert_problem, pointers  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = load_all()
VARIANT_IDS = list(VARIANTS)
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))

DISPUTE = {
    "situation": {
        "discard_pile": ["3H", "7C", "JK", "9D"],
        "team": {"score": 1600, "melds": [["KH", "KS", "KD"]], "red_threes": 1},
        "player": {"hand": ["9H", "JK", "5C"]},
    },
    "action": {"type": "take_pile", "with": ["9H", "JK"]},
}

# A meld with a two: wild in sv-classic, not settled by da-ludo's text.
WILD_TWO = {
    "situation": {"players": 4, "turn": {"drew": "stock"}, "team": {"score": 0, "melds": [["KH", "KS", "KD"]]},
                  "player": {"hand": ["QH", "QS", "2C", "4D", "5S"]}},
    "action": {"type": "meld", "melds": [["QH", "QS", "2C"]]},
}

SCORE = {
    "players": 4,
    "teams": [{"name": "A", "melded_points": 300, "natural_canastas": 1, "went_out": True},
              {"name": "B", "melded_points": 150, "hand_points": 40}],
}






def compare(client, body):
    return client.post("/v1/compare", json=body)


# ----------------------------------------------------------------------------------------------
# Rulings compared


@pytest.mark.parametrize("dispute", [DISPUTE, WILD_TWO], ids=["frozen-pile", "wild-two"])
def test_one_entry_per_variant_equal_to_the_single_variant_ruling(client, dispute):
    resp = compare(client, dispute)
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["kind"] == "ruling"
    assert body["variants"] == VARIANT_IDS
    assert [r["variant"] for r in body["results"]] == VARIANT_IDS
    for entry in body["results"]:
        single = client.post("/v1/adjudicate", json={**copy.deepcopy(dispute), "variant": entry["variant"]})
        assert single.status_code == 200
        assert set(entry) - {"why"} == {"variant", "ruling"}
        assert entry["ruling"] == single.get_json()
    verdicts = {r["variant"]: r["ruling"]["verdict"] for r in body["results"]}
    assert sorted(v for g in body["groups"] for v in g["variants"]) == sorted(VARIANT_IDS)
    for group in body["groups"]:
        assert all(verdicts[v] == group["verdict"] for v in group["variants"])
    assert body["agree"] == (len(set(verdicts.values())) == 1)


def test_the_issue_dispute_is_illegal_everywhere(client):
    body = compare(client, DISPUTE).get_json()
    assert body["agree"] is True
    assert body["groups"] == [{"verdict": "illegal", "variants": VARIANT_IDS}]


def test_differences_name_the_rule_and_its_parameters(client):
    body = compare(client, {**WILD_TWO, "variants": ["sv-classic", "da-ludo"]}).get_json()
    assert body["variants"] == ["sv-classic", "da-ludo"]
    verdicts = [r["ruling"]["verdict"] for r in body["results"]]
    assert verdicts[1] == "undetermined" and verdicts[0] != "undetermined"
    assert body["agree"] is False
    assert body["differences"]
    for diff in body["differences"]:
        assert [v["variant"] for v in diff["variants"]] == ["sv-classic", "da-ludo"]
        assert set(diff["differing_parameters"]) <= set(diff["parameters"])
    assert any("wild.twos" in d["parameters"] for d in body["differences"])


def test_a_variant_that_finds_the_input_impossible_gets_a_problem_entry(client):
    # three players: sv-classic has rules for them, the four-player variants do not
    dispute = copy.deepcopy(WILD_TWO)
    dispute["situation"]["players"] = 3
    body = compare(client, dispute).get_json()
    by_variant = {r["variant"]: r for r in body["results"]}
    assert "ruling" in by_variant["sv-classic"]
    refused = [r for r in body["results"] if "problem" in r]
    assert refused
    for entry in refused:
        problem = entry["problem"]
        assert problem["type"] == PROBLEM_BASE + "impossible-input"
        assert problem["status"] == 422
        assert "/situation/players" in [e["pointer"] for e in problem["errors"]]
        single = client.post("/v1/adjudicate", json={**copy.deepcopy(dispute), "variant": entry["variant"]})
        assert_problem(single, 422, "impossible-input")
        assert single.get_json()["errors"] == problem["errors"]
    assert all(v != e["variant"] for g in body["groups"] for v in g["variants"] for e in refused)


# ----------------------------------------------------------------------------------------------
# Scores compared


def test_score_comparison_equals_the_single_variant_scores(client):
    ids = ["sv-classic", "no-pagat"]
    resp = compare(client, {**SCORE, "variants": ids})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["kind"] == "score"
    assert [r["variant"] for r in body["results"]] == ids
    for entry in body["results"]:
        single = client.post("/v1/score", json={**copy.deepcopy(SCORE), "variant": entry["variant"]})
        assert single.status_code == 200
        assert entry["score"] == single.get_json()
    for group in body["groups"]:
        for vid in group["variants"]:
            result = next(r["score"] for r in body["results"] if r["variant"] == vid)
            assert group["totals"] == {t["name"]: t["total"] for t in result["teams"]}


def test_game_comparison(client):
    game = {"players": 4, "rounds": [{"teams": SCORE["teams"]}, {"teams": SCORE["teams"]}]}
    body = compare(client, game).get_json()
    assert body["kind"] == "score"
    for entry in body["results"]:
        single = client.post("/v1/score", json={**copy.deepcopy(game), "variant": entry["variant"]})
        if "score" in entry:
            assert entry["score"] == single.get_json()
            assert len(entry["score"]["rounds"]) == 2
        else:
            assert entry["problem"]["status"] == single.status_code


def test_openapi_examples_compare(client):
    examples = SPEC["paths"]["/v1/compare"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    for ex in examples.values():
        assert compare(client, ex["value"]).status_code == 200


# ----------------------------------------------------------------------------------------------
# Bad comparisons


def test_unknown_variant_in_the_list_is_404(client):
    problem = assert_problem(compare(client, {**DISPUTE, "variants": ["sv-classic", "nope"]}), 404, "unknown-variant")
    assert problem["known"] == VARIANT_IDS
    assert pointers(problem) == ["/variants/1"]


def test_variant_independent_fault_is_422_for_the_whole_request(client):
    dispute = copy.deepcopy(DISPUTE)
    dispute["situation"]["player"]["hand"][0] = "XX"
    problem = assert_problem(compare(client, dispute), 422, "impossible-input")
    assert pointers(problem) == ["/situation/player/hand/0"]


@pytest.mark.parametrize("body,pointer", [
    ({**DISPUTE, "variants": ["sv-classic", "sv-classic"]}, "/variants/1"),
    ({**DISPUTE, "variants": []}, "/variants"),
    ({**DISPUTE, "variant": "sv-classic"}, "/variant"),
    ({**DISPUTE, **SCORE}, "/teams"),
    ({"variants": ["sv-classic"]}, ""),
    ({**SCORE, "rounds": [{"teams": SCORE["teams"]}]}, "/rounds"),
])
def test_shape_faults_are_422(client, body, pointer):
    problem = assert_problem(compare(client, body), 422, "validation-failed")
    assert pointer in pointers(problem)


def test_compare_errors_are_problems(client):
    assert_problem(client.post("/v1/compare", data=b"{x", content_type="application/json"), 400, "malformed-json")
    assert_problem(client.post("/v1/compare", data=json.dumps(DISPUTE), content_type="text/plain"), 415)
    assert_problem(client.get("/v1/compare"), 405, "method-not-allowed")


# ----------------------------------------------------------------------------------------------
# /v1/matrix


def test_matrix_json_is_every_parameter_of_every_variant(client):
    resp = client.get("/v1/matrix")
    assert resp.status_code == 200
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    assert body == json.loads(json.dumps(matrix(VARIANTS)))
    assert body["variants"] == VARIANT_IDS
    names = [row["parameter"] for row in body["rows"]]
    assert names == [p["name"] for p in client.get(f"/v1/variants/{VARIANT_IDS[0]}").get_json()["parameters"]]
    for row in body["rows"]:
        assert set(row["values"]) == set(VARIANT_IDS)


def test_matrix_differs_keeps_only_differing_rows(client):
    every = client.get("/v1/matrix?differs=false").get_json()
    differing = client.get("/v1/matrix?differs=true").get_json()
    assert every == client.get("/v1/matrix").get_json()
    assert differing["rows"] == [row for row in every["rows"] if row["differs"]]
    assert 0 < len(differing["rows"]) < len(every["rows"])


@pytest.mark.parametrize("differs", [False, True])
def test_matrix_csv(client, differs):
    resp = client.get(f"/v1/matrix?format=csv&differs={'true' if differs else 'false'}")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/csv; charset=utf-8"
    text = resp.data.decode("utf-8")
    assert text == matrix_csv(VARIANTS, differs=differs)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = rows[0]
    assert header[:2] == ["parameter", "description"]
    for vid in VARIANT_IDS:
        assert f"{vid} value" in header and f"{vid} status" in header and f"{vid} quote" in header
    table = client.get(f"/v1/matrix?differs={'true' if differs else 'false'}").get_json()
    assert [r[0] for r in rows[1:]] == [row["parameter"] for row in table["rows"]]
    assert text.endswith("\r\n")


def test_matrix_format_json_explicitly(client):
    assert client.get("/v1/matrix?format=json").get_json() == client.get("/v1/matrix").get_json()


@pytest.mark.parametrize("query,parameter", [
    ("format=xml", "format"),
    ("format=", "format"),
    ("format=JSON", "format"),
    ("differs=yes", "differs"),
    ("differs=1", "differs"),
    ("differs=true&differs=false", "differs"),
    ("format=csv&format=json", "format"),
])
def test_matrix_bad_query_is_400_naming_the_parameter(client, query, parameter):
    problem = assert_problem(client.get(f"/v1/matrix?{query}"), 400, "invalid-query-parameter")
    assert problem["parameter"] == parameter
    assert problem["allowed"]


def test_matrix_ignores_unknown_query_parameters(client):
    assert client.get("/v1/matrix?page=2").get_json() == client.get("/v1/matrix").get_json()


def test_matrix_is_read_only(client):
    resp = client.post("/v1/matrix", json={})
    assert_problem(resp, 405, "method-not-allowed")
    assert "GET" in resp.headers["Allow"]


# ----------------------------------------------------------------------------------------------
# ?citations=refs: each citation once


def _resolved(answer: dict) -> dict:
    """The answer with every ``{"ref": ...}`` replaced by its entry of the ``citations`` table."""
    table = answer["citations"]

    def walk(x):
        if isinstance(x, dict):
            if set(x) == {"ref"}:
                return table[x["ref"]]
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    return walk({k: v for k, v in answer.items() if k != "citations"})


@pytest.mark.parametrize("body", [DISPUTE, WILD_TWO, SCORE], ids=["ruling", "open-point", "score"])
def test_citation_refs_resolve_to_exactly_the_full_answer(client, body):
    full = client.post("/v1/compare", json=body)
    refs = client.post("/v1/compare?citations=refs", json=body)
    assert full.status_code == refs.status_code == 200
    assert "citations" not in full.get_json(), "the default shape is unchanged"
    answer = refs.get_json()
    assert _resolved(answer) == full.get_json()
    table = answer["citations"]
    assert table, "a comparison quotes its documents"
    for key, c in table.items():
        assert key == f"{c['variant']}:{c['start']}-{c['end']}"
        source = (ROOT / "variants" / "sources" / f"{c['variant']}.txt").read_text(encoding="utf-8")
        assert source[c["start"]:c["end"]] == c["quote"]
    assert len(refs.data) < len(full.data)


def test_citation_refs_table_lists_each_citation_once_and_only_those_used(client):
    answer = client.post("/v1/compare?citations=refs", json=DISPUTE).get_json()
    used = set()

    def walk(x):
        if isinstance(x, dict):
            if set(x) == {"ref"}:
                used.add(x["ref"])
            for k, v in x.items():
                if k != "citations" or isinstance(v, list):
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk({k: v for k, v in answer.items() if k != "citations"})
    assert used == set(answer["citations"])


@pytest.mark.parametrize("query", ["citations=short", "citations=refs&citations=full"])
def test_citation_form_bad_query_is_400_naming_the_parameter(client, query):
    r = client.post(f"/v1/compare?{query}", json=DISPUTE)
    body = assert_problem(r, 400, "invalid-query-parameter")
    assert body["parameter"] == "citations" and body["allowed"] == ["full", "refs"]


def test_a_ruling_after_a_refs_comparison_has_full_citations(client):
    client.post("/v1/compare?citations=refs", json=DISPUTE)
    ruling = client.post("/v1/adjudicate", json={"variant": "no-pagat", **DISPUTE}).get_json()
    assert all("quote" in c for r in ruling["reasons"] for c in r["citations"])
