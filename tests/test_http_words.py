"""Rulings without their words: ``?words=none`` and ``Prefer: return=minimal`` (see :mod:`web_api.compare_api`).

The lean answer is the default answer with every sentence left out and the consequences as message
keys: checked against the default answer of the same request, over every row of the rule matrix.
"""

from __future__ import annotations

import pytest

from adjudicator.model.messages import code_of
from adjudicator.variants import load_all
from problems import assert_problem
from ruling_table import payloads as matrix_payloads

VARIANT_IDS = list(load_all())
WORDS = {"summary", "explanation", "note", "explanations", "question", "label", "condition"}  # the members that are sentences


def payloads() -> list[dict]:
    return matrix_payloads(VARIANT_IDS)


def without_words(value):
    """The default answer as the lean one should be: sentences dropped (consequences are compared apart)."""
    if isinstance(value, dict):  # a message's machine form is data, kept whole (a requirement has a "note")
        return {k: (v if k == "message" else without_words(v)) for k, v in value.items()
                if k not in WORDS and k != "consequences"}
    if isinstance(value, list):
        return [without_words(v) for v in value]
    return value


def test_the_lean_ruling_is_the_default_one_without_its_words(client, app):
    from adjudicator.input.payloads import adjudicate  # noqa: PLC0415 -- the engine's own consequences, as messages

    checked = 0
    for body in payloads():
        full = client.post("/v1/adjudicate", json=body)
        if full.status_code != 200:
            continue
        lean = client.post("/v1/adjudicate?words=none", json=body)
        assert lean.status_code == 200
        got, want = lean.get_json(), full.get_json()
        assert "summary" in want and "summary" not in got
        assert {k: v for k, v in got.items() if k != "consequence_messages"} == without_words(want)
        ruling = adjudicate(body, load_all())
        assert got["consequence_messages"] == [code_of(m) for m in ruling.consequences]
        assert len(got["consequence_messages"]) == len(want["consequences"])
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("prefer", ["return=minimal", "return=minimal; handling=lenient", "respond-async, return=minimal",
                                    'RETURN = "minimal"'])
def test_prefer_return_minimal_asks_for_the_same(client, prefer):
    body = payloads()[0]
    lean = client.post("/v1/adjudicate?words=none", json=body)
    preferred = client.post("/v1/adjudicate", json=body, headers={"Prefer": prefer})
    assert preferred.get_json() == lean.get_json()
    assert preferred.headers["Preference-Applied"] == "return=minimal"
    assert "Preference-Applied" not in lean.headers  # the query asked, not the header
    for resp in (lean, preferred):
        assert "prefer" in {v.strip().lower() for v in resp.headers["Vary"].split(",")}


def test_the_default_answer_keeps_its_words_and_the_query_wins(client):
    body = payloads()[0]
    plain = client.post("/v1/adjudicate", json=body)
    full = client.post("/v1/adjudicate?words=full", json=body, headers={"Prefer": "return=minimal"})
    other = client.post("/v1/adjudicate", json=body, headers={"Prefer": "return=representation"})
    assert plain.get_json() == full.get_json() == other.get_json()
    assert "summary" in plain.get_json() and "consequences" in plain.get_json()
    assert "Preference-Applied" not in full.headers and "Preference-Applied" not in other.headers


@pytest.mark.parametrize("path,body", [
    ("/v1/adjudicate", {"variant": "no-pagat"}),
    ("/v1/adjudicate/batch", {"requests": [None]}),  # no item is ever ruled: the query is still read
    ("/v1/compare", {"situation": {}}),
])
def test_a_bad_words_value_is_a_400(client, path, body):
    resp = client.post(f"{path}?words=some", json=body)
    problem = assert_problem(resp, 400, "invalid-query-parameter")
    assert problem["parameter"] == "words" and problem["allowed"] == ["full", "none"]


def test_batch_and_compare_rulings_come_without_words(client):
    body = payloads()[0]
    single = client.post("/v1/adjudicate?words=none", json=body).get_json()
    batch = client.post("/v1/adjudicate/batch", json={"requests": [body, body]},
                        headers={"Prefer": "return=minimal"})
    assert batch.headers["Preference-Applied"] == "return=minimal"
    assert [r["ruling"] for r in batch.get_json()["results"]] == [single, single]
    compared = client.post("/v1/compare?words=none",
                           json={k: v for k, v in body.items() if k != "variant"}).get_json()
    ruled = {r["variant"]: r["ruling"] for r in compared["results"] if "ruling" in r}
    assert ruled[body["variant"]] == single
    assert all("summary" not in r for r in ruled.values())
    assert all("why" in d for d in compared["differences"])  # the differences keep their words
