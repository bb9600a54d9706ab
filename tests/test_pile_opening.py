"""An opening made in the turn the pile is taken counts only what the text lets count: no-pagat's "Ved opptak
av kastebunken kan toppkortet telle, men ingen kort lenger nede i bunken." The case was found by replaying
OpenSpiel games against the service.

The take itself lays the top card in a meld (``pile.taken_whole``), so a team yet to open opens in the take:
its melds are laid in the same move. A meld move after a take, the team still without a meld, is a table
that cannot happen where the text says so (and is ruled under its other reading in sv-gamerules)."""

from __future__ import annotations

import pytest

from ruling_cases import base

SENTENCE = {"no-pagat": "Ved opptak av kastebunken kan toppkortet telle, men ingen kort lenger nede i bunken.",
            "sv-gamerules": "Om han tar avkasthögen får det översta kortet, men inget annat, räknas med i kravet."}
UNOPENED = {"score": 0, "melds": [], "red_threes": 0}
PILE = base(team=UNOPENED, discard_pile=["AH", "AS", "AD", "9H"], player={"hand": ["9S", "9D", "KC", "KD", "KS"]})
ACTIONS = {"aces from the pile": {"type": "take_pile", "with": ["9S", "9D"], "melds": [["AH", "AS", "AD"]]}}


def _ruling(client, vid: str, action: dict, situation=PILE) -> dict:
    resp = client.post("/v1/adjudicate", json={"variant": vid, "situation": situation, "action": action})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def _opening(client, vid: str, action: dict, situation=PILE) -> dict:
    return next(r for r in _ruling(client, vid, action, situation)["reasons"] if r["rule"] == "opening.minimum")


@pytest.mark.parametrize("vid", sorted(SENTENCE))
def test_pile_cards_below_the_top_do_not_count(client, vid):
    reason = _opening(client, vid, ACTIONS["aces from the pile"])
    assert reason["passed"] is False and reason["citations"][0]["quote"] == SENTENCE[vid]


def test_only_the_top_card_counts_with_the_hand(client):
    """The top card counts; here it makes the 50 with the hand's aces."""
    situation = base(team=UNOPENED, discard_pile=["5C", "AH"], player={"hand": ["AS", "AD", "KC"]})
    assert _opening(client, "no-pagat", {"type": "take_pile", "with": ["AS", "AD"]}, situation)["passed"]


def test_the_hand_opens_with_the_top_card_in_the_take(client):
    """The kings of the hand melded in the take count; the aces below the top do not."""
    action = {"type": "take_pile", "with": ["9S", "9D"], "melds": [["KC", "KD", "KS"]]}
    assert _opening(client, "no-pagat", action)["passed"]


def test_where_the_text_is_silent_both_readings_are_ruled(client):
    """sv-classic's note on opening.pile_top_only admits the point is open: the take is undetermined."""
    ruling = _ruling(client, "sv-classic", ACTIONS["aces from the pile"])
    assert ruling["verdict"] == "undetermined" and "opening.pile_top_only" in ruling["not_stated"]
    assert {r["verdict"] for r in ruling["readings"]} == {"legal", "illegal"}


@pytest.mark.parametrize("vid", ["no-pagat", "sv-classic", "da-ludo"])
def test_a_meld_after_the_take_with_the_team_still_unopened_cannot_happen(client, vid):
    after = base(team=UNOPENED, discard_pile=[], turn={"drew": "pile", "cards_from_pile": ["AH", "AS", "AD", "9H"]},
                 player={"hand": ["AH", "AS", "AD", "9H", "KC"], "has_melded": False})
    resp = client.post("/v1/adjudicate", json={"variant": vid, "situation": after,
                                               "action": {"type": "meld", "melds": [["AH", "AS", "AD"]]}})
    assert resp.status_code == 422
    assert resp.get_json()["errors"][0]["rule"] == "pile.taken_whole"
