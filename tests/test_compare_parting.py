"""Issue #42 (page-asks section 8): compare's headline is true -- where two groups' outcomes read alike ("cannot say
before you draw" in both), each says the first condition where they part ("before you draw, in the first round:
not allowed"), so a reader sees how they differ."""

from __future__ import annotations

import pytest

from adjudicator import load_all
from adjudicator.answers import answer
from adjudicator.compare.comparison import compare
from adjudicator.input.parse import compare_request

FROZEN = {"situation": {"discard_pile": ["9D"], "pile_unnamed": {"wild": True}},
          "action": {"type": "take_pile", "with": ["9C", "9H"]}}


@pytest.mark.parametrize("lang, first_round", [("en", "in the first round: not allowed"),
                                               ("sv", "under första varvet: inte tillåtet"),
                                               ("nb", None), ("da", None)])
def test_groups_whose_outcomes_read_alike_say_where_they_part(client, lang, first_round):
    resp = client.post(f"/v1/compare?lang={lang}", json=FROZEN)
    assert resp.status_code == 200
    out = resp.get_json()
    assert not out["agree"] and len(out["groups"]) == 2
    outcomes = [g["outcome"] for g in out["groups"]]
    assert len(set(outcomes)) == len(outcomes), outcomes
    for outcome in outcomes:
        assert outcome in out["headline"]
    [ludo] = [g for g in out["groups"] if g["variants"] == ["da-ludo"]]
    if first_round:
        assert ludo["outcome"].endswith(f", {first_round})"), ludo["outcome"]


def test_the_library_says_the_parting_in_the_groups_outcome():
    variants = load_all()
    request = compare_request(FROZEN, variants)
    groups = compare(request, variants).groups
    keys = [g.outcome.key for g in groups]
    assert keys == ["compare.outcome_parting"] * 2
    assert groups[0].outcome != groups[1].outcome


def test_three_groups_alike_read_apart_and_a_lone_outcome_is_left_as_it_is(client):
    """A draw, the stock count not given: three groups "allowed while the stock has cards", parting where the stock
    is empty (a meld of sevens); a group with nothing further to say keeps its outcome."""
    draw = {"situation": {"players": 4, "first_round": False, "discard_pile": ["7H"], "turn": {"drew": None},
                          "team": {"score": 1000, "opened": True}, "player": {"hand": ["7C", "7D", "KS"]}},
            "action": {"type": "draw"}}
    out = client.post("/v1/compare", json=draw).get_json()
    outcomes = [g["outcome"] for g in out["groups"]]
    assert len(outcomes) == 3 and len(set(outcomes)) == 3, outcomes
    assert "allowed while the stock has cards" in outcomes
    out = client.post("/v1/compare", json=dict(draw, situation=dict(draw["situation"], stock_count=20))).get_json()
    assert out["agree"] and out["headline"] == "All 4 variants agree: allowed."
