"""Issue #31, item by item: real tables are ruled (not refused), wrong rulings put right, impossible tables
refused only on a stated rule, one play one verdict, and a comparison that says when a table cannot happen.

Each test is the issue's own request (or its nearest table) through the HTTP service; the differential
properties that hold the paths together over generated tables are in ``test_one_truth.py``.
"""

from __future__ import annotations

import copy

import pytest

from adjudicator.variants import load_all
from ruling_cases import base

VARIANTS = load_all()

ITEM_1 = {"variant": "da-ludo", "situation": {
    "players": 4, "first_round": False, "stock_count": 40, "discard_pile": ["6C", "5H", "3D"],
    "team": {"score": 0, "melds": [["KH", "KS", "KD"]], "red_threes": 0},
    "player": {"hand": ["9H", "9S", "5C", "6D"]}, "turn": {"drew": None}}, "action": {"type": "draw"}}


def _ruled(client, body: dict) -> dict:
    resp = client.post("/v1/adjudicate", json=body)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def _refused(client, body: dict) -> dict:
    resp = client.post("/v1/adjudicate", json=body)
    assert resp.status_code == 422, resp.get_data(as_text=True)
    return resp.get_json()


def _stated(vid: str, names) -> bool:
    return all(VARIANTS[vid].params[n].status == "stated" for n in names)


def _cannot(ruling: dict) -> list[dict]:
    """The readings under which the ruling says the table cannot happen."""
    return ruling.get("cannot_happen", [])


# --- 1-3: real tables ruled, the readings that rule them out named ------------------------------------------


def test_item_1_da_ludo_red_three_above_the_bottom_of_the_pile_is_ruled(client):
    ruling = _ruled(client, ITEM_1)
    assert ruling["verdict"] == "legal"
    cannot = _cannot(ruling)
    assert [c["values"] for c in cannot] == [{"red_three.laid_out": True}]
    assert cannot[0]["reasons"][0]["rule"] == "red_three.never_melded"
    assert cannot[0]["reasons"][0]["pointer"] == "/situation/discard_pile/2"
    said = next(r for r in ruling["reasons"] if r["rule"] == "table.possible")
    assert said["passed"] is True and "red_three.laid_out" in said["parameters"]


def test_item_2_sv_classic_upcards_turned_past_a_black_three_are_ruled(client):
    body = copy.deepcopy(ITEM_1)
    body["variant"] = "sv-classic"
    body["situation"]["discard_pile"] = ["2C", "3S", "3H", "7D", "9D"]
    body["action"] = {"type": "take_pile", "with": ["9H", "9S"]}
    ruling = _ruled(client, body)
    assert ruling["verdict"] == "legal"
    assert [c["values"] for c in _cannot(ruling)] == [{"pile.upcard_turn_more": ["joker", "two", "red_three"]}]


def test_item_3_a_pile_left_after_a_take_cannot_happen(client):
    """Every text states that a take takes the whole pile -- sv-gamerules too, whose "plocka upp ett från
    kasthögen" the next sentence qualifies: "måste han plocka upp hela den bortkastade högen" (#43 item 1)."""
    body = {"variant": "sv-gamerules", "situation": base(turn={"drew": "pile", "cards_from_pile": []},
                                                         discard_pile=["6C", "8D"]),
            "action": {"type": "discard", "card": "5C"}}
    for vid in sorted(VARIANTS):
        problem = _refused(client, {**body, "variant": vid})
        assert problem["errors"][0]["rule"] == "pile.taken_whole"
        assert _stated(vid, problem["errors"][0]["parameters"])


# --- 4-6: wrong rulings -----------------------------------------------------------------------------------


def test_item_4_da_ludo_the_top_card_taken_with_the_pile_may_be_melded(client):
    body = {"variant": "da-ludo", "situation": {
        "players": 4, "first_round": False, "stock_count": 40, "discard_pile": [],
        "team": {"score": 0, "melds": [["KH", "KS", "KD"]], "red_threes": 0},
        "player": {"hand": ["9D", "9H", "9S", "6C", "5C", "6D"]},
        "turn": {"drew": "pile", "cards_from_pile": ["6C", "9D"]}},
        "action": {"type": "meld", "melds": [["9D", "9H", "9S"]]}}
    assert _ruled(client, body)["verdict"] == "legal"
    lower = copy.deepcopy(body)  # the card below the top may not be used this turn
    lower["action"] = {"type": "meld", "melds": [["6C", "6D", "6C"]]}
    lower["situation"]["player"]["hand"] = ["9D", "9H", "9S", "6C", "6C", "6D"]
    ruling = _ruled(client, lower)
    assert ruling["verdict"] == "illegal"
    assert [r["rule"] for r in ruling["reasons"] if r["passed"] is False] == ["pile.cards_same_turn"]


@pytest.mark.parametrize("vid", ["sv-classic", "no-pagat"])
def test_item_5_after_a_binding_no_melding_down_to_one_card_is_illegal(client, vid):
    situation = base(turn={"drew": "stock", "cards_from_pile": [], "partner_answer": "no"},
                     team={"score": 1000, "melds": [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]], "red_threes": 0},
                     player={"hand": ["9H", "9S", "9D", "5C"]})
    ruling = _ruled(client, {"variant": vid, "situation": situation,
                             "action": {"type": "meld", "melds": [["9H", "9S", "9D"]]}})
    assert ruling["verdict"] == "illegal"
    assert [r["rule"] for r in ruling["reasons"] if r["passed"] is False] == ["go_out.partner_answer"]
    kept = _ruled(client, {"variant": vid, "situation": situation,  # two cards kept: nothing forces going out
                           "action": {"type": "meld", "melds": [["9H", "9S", "JK"]]}} | {
        "situation": base(turn=situation["turn"], team=situation["team"],
                          player={"hand": ["9H", "9S", "JK", "5C", "6D"]})})
    assert kept["verdict"] == "legal"


@pytest.mark.parametrize("vid", ["sv-classic", "no-pagat", "sv-gamerules"])
def test_item_6_a_red_three_kept_in_hand_while_discarding_is_illegal(client, vid):
    situation = base(turn={"drew": "stock", "cards_from_pile": []}, player={"hand": ["3H", "5C", "9S", "9D"]})
    ruling = _ruled(client, {"variant": vid, "situation": situation, "action": {"type": "discard", "card": "5C"}})
    assert ruling["verdict"] == "illegal"
    failed = [r for r in ruling["reasons"] if r["passed"] is False]
    assert [r["rule"] for r in failed] == ["red_three.never_melded"]
    assert failed[0]["message"]["key"] == "discard.red_three_kept"


def test_item_6_da_ludo_leaves_the_red_three_kept_to_its_two_readings(client):
    situation = base(turn={"drew": "stock", "cards_from_pile": []}, player={"hand": ["3H", "5C", "9S", "9D"]})
    ruling = _ruled(client, {"variant": "da-ludo", "situation": situation,
                             "action": {"type": "discard", "card": "5C"}})
    assert ruling["verdict"] == "undetermined"
    assert {r["verdict"] for r in ruling["readings"]} == {"legal", "illegal"}


# --- 7: impossible tables refused where a stated rule rules them out ------------------------------------------


def test_item_7a_da_ludo_aces_with_three_twos_cannot_lie_on_the_table_whichever_way_twos_are_read(client):
    body = {"variant": "da-ludo", "situation": base(team={"score": 1000, "melds": [["AH", "AS", "2C", "2D", "2H"]]}),
            "action": {"type": "draw"}}
    problem = _refused(client, body)
    error = next(e for e in problem["errors"] if e["pointer"] == "/situation/team/melds/0")
    assert _stated("da-ludo", error["parameters"]) and error["parameters"]


@pytest.mark.parametrize("vid", ["no-pagat", "sv-gamerules"])
def test_item_7b_a_stock_of_63_with_two_cards_in_the_pile(client, vid):
    body = {"variant": vid, "situation": base(stock_count=63, discard_pile=["JK", "8D"]), "action": {"type": "draw"}}
    problem = _refused(client, body)
    error = next(e for e in problem["errors"] if e["pointer"] == "/situation/stock_count")
    assert error["rule"] == "deal.stock" and _stated(vid, error["parameters"])
    one = {"variant": vid, "situation": base(stock_count=63, discard_pile=["8D"]), "action": {"type": "draw"}}
    assert _ruled(client, one)["verdict"] == "legal"


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_item_7c_a_pile_taken_while_the_team_has_no_meld(client, vid):
    situation = base(team={"score": 0, "melds": [], "red_threes": 0}, discard_pile=[],
                     turn={"drew": "pile", "cards_from_pile": ["AH"]},
                     player={"hand": ["AH", "AS", "AD", "KC"], "has_melded": False})
    problem = _refused(client, {"variant": vid, "situation": situation,
                                "action": {"type": "meld", "melds": [["AH", "AS", "AD"]]}})
    error = next(e for e in problem["errors"] if e["rule"] == "pile.taken_whole")
    assert error["pointer"] == "/situation/team/melds" and _stated(vid, error["parameters"])


# --- 8-10: one play, one answer -------------------------------------------------------------------------------


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_item_8_one_natural_onto_the_teams_meld_is_one_play_however_written(client, vid):
    situation = base(team={"score": 1000, "melds": [["9C", "9D", "9S"]], "red_threes": 0},
                     discard_pile=["6C", "8D", "9H"], player={"hand": ["9S", "5C", "7D", "AH"]})
    shown = _ruled(client, {"variant": vid, "situation": situation,
                            "action": {"type": "take_pile", "with": ["9S"]}})
    added = _ruled(client, {"variant": vid, "situation": situation,
                            "action": {"type": "take_pile", "with": [], "add": [["9S"]]}})
    assert shown["verdict"] == added["verdict"] == "legal"


def test_item_9_a_variant_under_which_the_table_cannot_happen_differs_first(client):
    body = {k: v for k, v in ITEM_1.items() if k != "variant"}
    result = client.post("/v1/compare", json=body).get_json()
    answered = [r["variant"] for r in result["results"] if "ruling" in r]
    refused = [r["variant"] for r in result["results"] if "problem" in r]
    assert answered == ["da-ludo"] and refused == ["no-pagat", "sv-classic", "sv-gamerules"]
    assert result["agree"] is False
    first = result["differences"][0]
    assert first["rule"] == "table.possible"
    outcomes = {e["variant"]: e["passed"] for e in first["variants"]}
    assert outcomes == {"da-ludo": True, "no-pagat": False, "sv-classic": False, "sv-gamerules": False}


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_item_10_a_wild_card_added_to_the_teams_only_meld_needs_no_question(client, vid):
    situation = base(turn={"drew": "stock", "cards_from_pile": []}, player={"hand": ["JK", "5C", "7D", "AH"]})
    ruling = _ruled(client, {"variant": vid, "situation": situation, "action": {"type": "meld", "add": [["JK"]]}})
    assert ruling["verdict"] == "legal"
    assert not any(r["message"]["key"] == "meld.add_which" for r in ruling["reasons"])
    two = base(turn={"drew": "stock", "cards_from_pile": []}, player={"hand": ["JK", "5C", "7D", "AH"]},
               team={"score": 1000, "melds": [["KH", "KS", "KD"], ["QH", "QS", "QD"]], "red_threes": 0})
    asked = _ruled(client, {"variant": vid, "situation": two, "action": {"type": "meld", "add": [["JK"]]}})
    assert any(r["message"]["key"] == "meld.add_which" for r in asked["reasons"])
