"""An opening made in the turn the pile is taken counts only what the text lets count, in every ruling that
can complete one (take the pile, meld, go out): no-pagat's "Ved opptak av kastebunken kan toppkortet telle,
men ingen kort lenger nede i bunken." The case was found by replaying OpenSpiel games against the service."""

from __future__ import annotations

import pytest

from ruling_cases import base

SENTENCE = {"no-pagat": "Ved opptak av kastebunken kan toppkortet telle, men ingen kort lenger nede i bunken.",
            "sv-gamerules": "Om han tar avkasthögen får det översta kortet, men inget annat, räknas med i kravet."}
TAKEN = base(team={"score": 0, "melds": [], "red_threes": 0}, discard_pile=[],
             turn={"drew": "pile", "cards_from_pile": ["AH", "AS", "AD", "9H"]},
             player={"hand": ["AH", "AS", "AD", "9H", "KC", "KD", "KS"]})
ACTIONS = {"meld": {"type": "meld", "melds": [["AH", "AS", "AD"]]},
           "go_out": {"type": "go_out", "melds": [["AH", "AS", "AD"], ["KC", "KD", "KS"]], "discard": "9H"}}


def _opening(client, vid: str, action: dict, situation=TAKEN) -> dict:
    ruling = client.post("/v1/adjudicate", json={"variant": vid, "situation": situation, "action": action}).get_json()
    return next(r for r in ruling["reasons"] if r["rule"] == "opening.minimum")


@pytest.mark.parametrize("vid", sorted(SENTENCE))
@pytest.mark.parametrize("kind", sorted(ACTIONS))
def test_pile_cards_below_the_top_do_not_count(client, vid, kind):
    reason = _opening(client, vid, ACTIONS[kind])
    assert reason["passed"] is False and reason["citations"][0]["quote"] == SENTENCE[vid]


def test_only_the_top_card_counts_with_the_hand(client):
    """The top card (the last of cards_from_pile) counts; here it makes the 50 with the hand's kings."""
    situation = base(team={"score": 0, "melds": [], "red_threes": 0}, discard_pile=[],
                     turn={"drew": "pile", "cards_from_pile": ["5C", "AH"]},
                     player={"hand": ["5C", "AH", "AS", "AD", "KC"]})
    assert _opening(client, "no-pagat", {"type": "meld", "melds": [["AH", "AS", "AD"]]}, situation)["passed"]


def test_where_the_text_is_silent_both_readings_are_ruled(client):
    """sv-classic's note on opening.pile_top_only admits the point is open: the meld is undetermined."""
    ruling = client.post("/v1/adjudicate", json={"variant": "sv-classic", "situation": TAKEN,
                                                 "action": ACTIONS["meld"]}).get_json()
    assert ruling["verdict"] == "undetermined" and "opening.pile_top_only" in ruling["not_stated"]
    assert {r["verdict"] for r in ruling["readings"]} == {"legal", "illegal"}
