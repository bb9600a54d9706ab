"""The partner's answer to "may I go out?": binding where the text says so, in rulings and in the options."""

from __future__ import annotations

import pytest

from ruling_cases import base

CANASTA = [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]]


def _situation(answer: str | None) -> dict:
    return base(turn={"drew": "stock", "cards_from_pile": [], "partner_answer": answer},
                team={"score": 1000, "melds": CANASTA}, player={"hand": ["AH", "AD", "AS", "5C"]})


@pytest.mark.parametrize("vid,offered", [("no-pagat", False), ("sv-classic", False), ("da-ludo", None),
                                         ("sv-gamerules", None)])
def test_going_out_is_not_offered_after_a_binding_no(client, vid, offered):
    """no-pagat and sv-classic: "Svaret er bindende" / "Svaret är bindande"; da-ludo and sv-gamerules do not
    say whether the answer binds, so going out is offered only as undetermined."""
    options = client.post("/v1/options", json={"variant": vid, "situation": _situation("no")}).get_json()
    go_out = next(g for g in options["groups"] if g["kind"] == "go_out")
    assert go_out["possible"] is offered, go_out
    if offered is None:
        assert all(o["ruling"]["verdict"] == "undetermined" for o in go_out["options"])
    free = client.post("/v1/options", json={"variant": vid, "situation": _situation(None)}).get_json()
    assert next(g for g in free["groups"] if g["kind"] == "go_out")["possible"] is True


def test_a_binding_yes_forbids_ending_the_turn_without_going_out(client):
    body = {"variant": "no-pagat", "situation": _situation("yes"), "action": {"type": "discard", "card": "5C"}}
    ruling = client.post("/v1/adjudicate", json=body).get_json()
    assert ruling["verdict"] == "illegal"
    assert ruling["deciding"][0]["quote"].endswith("Svaret er bindende.")
    body["action"] = {"type": "go_out", "melds": [["AH", "AD", "AS"]], "discard": "5C"}
    assert client.post("/v1/adjudicate", json=body).get_json()["verdict"] == "legal"


def test_a_partner_answer_that_is_not_yes_or_no_is_refused(client):
    body = {"variant": "no-pagat", "situation": _situation("maybe"), "action": {"type": "discard", "card": "5C"}}
    resp = client.post("/v1/adjudicate", json=body)
    assert resp.status_code == 422
    assert resp.get_json()["errors"][0]["pointer"] == "/situation/turn/partner_answer"
