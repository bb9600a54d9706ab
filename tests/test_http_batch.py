"""``POST /v1/adjudicate/batch`` and ``/v1/score/batch``: answers in order, one bad item isolated."""

from __future__ import annotations

import copy

from problems import assert_problem
from ruling_cases import base
from test_http_scoring import ROUND

GOOD = {"variant": "sv-classic", "situation": base(), "action": {"type": "take_pile", "with": ["9H", "9S"]}}
ILLEGAL = {"variant": "sv-classic", "situation": base(), "action": {"type": "discard", "card": "5C"}}
IMPOSSIBLE = {"variant": "sv-classic", "situation": base(player={"hand": ["KH", "KH", "KH"]}),
              "action": {"type": "draw"}}
MISSHAPEN = {"variant": "sv-classic", "situation": {"nonsense": 1}, "action": {"type": "draw"}}
UNKNOWN = {**GOOD, "variant": "xx"}


def test_rulings_keep_their_order_and_isolate_bad_items(client):
    items = [GOOD, IMPOSSIBLE, ILLEGAL, MISSHAPEN, UNKNOWN, GOOD]
    resp = client.post("/v1/adjudicate/batch", json={"requests": items})
    assert resp.status_code == 200
    results = resp.get_json()["results"]
    assert [next(iter(r)) for r in results] == ["ruling", "problem", "ruling", "problem", "problem", "ruling"]
    for item, result in zip(items, results):
        single = client.post("/v1/adjudicate", json=item).get_json()
        if "ruling" in result:
            assert result["ruling"] == single
        else:
            assert {k: v for k, v in result["problem"].items()} == \
                {k: v for k, v in single.items() if k not in ("instance", "request_id", "known")}
    assert results[1]["problem"]["errors"][0]["pointer"] == "/situation/player/hand/2"  # into the item
    assert results[4]["problem"]["status"] == 404


def test_scores_in_a_batch(client):
    bad = copy.deepcopy(ROUND)
    bad["teams"] = bad["teams"][:1]
    resp = client.post("/v1/score/batch?lang=sv", json={"requests": [ROUND, bad]})
    results = resp.get_json()["results"]
    assert "score" in results[0] and results[1]["problem"]["errors"][0]["pointer"] == "/teams"
    assert resp.headers["Content-Language"] == "sv"


def test_a_batch_is_at_most_a_thousand(client):
    assert_problem(client.post("/v1/adjudicate/batch", json={"requests": [GOOD] * 1001}), 422, "validation-failed")
    assert_problem(client.post("/v1/adjudicate/batch", json={"requests": []}), 422, "validation-failed")
    assert_problem(client.post("/v1/adjudicate/batch", json={"request": [GOOD]}), 422, "validation-failed")
    assert client.post("/v1/adjudicate/batch", json={"requests": [GOOD] * 1000}).status_code == 200


def test_a_batch_may_be_larger_than_one_request(client):
    body = {"requests": [GOOD] * 1000}
    import json
    assert len(json.dumps(body)) > 256 * 1024
    assert client.post("/v1/adjudicate/batch", json=body).status_code == 200


def test_the_batch_cap_is_set_by_the_environment(monkeypatch):
    from web_api import create_app
    monkeypatch.setenv("CANASTA_BATCH_MAX_CONTENT_LENGTH", "2000")
    client = create_app({"TESTING": True}).test_client()
    assert client.post("/v1/adjudicate/batch", json={"requests": [GOOD]}).status_code == 200
    assert_problem(client.post("/v1/adjudicate/batch", json={"requests": [GOOD] * 10}), 413)
    monkeypatch.setenv("CANASTA_BATCH_MAX_CONTENT_LENGTH", "lots")
    import pytest
    with pytest.raises(ValueError, match="CANASTA_BATCH_MAX_CONTENT_LENGTH"):
        create_app({"TESTING": True})
