"""What a family knows without naming cards (issue #34 item 1): "our team has opened" (``team.opened``), "we
have n canastas" (``team.canastas``) and what lies in the pile under its named cards (``pile_unnamed``).

The engine rules with these facts: undetermined (naming the missing melds or pile fact) where a card nobody
named matters, a ruling where it does not; a fact that contradicts the melds given is a 422. And one truth: every
option ``/v1/options`` lists for such a table is what ``/v1/adjudicate`` rules of its action.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.answers import answer

VARIANTS = ("sv-classic", "da-ludo", "no-pagat", "sv-gamerules")
BEFORE = {"first_round": False, "players": 4, "turn": {"drew": None}}
AFTER = {"first_round": False, "players": 4, "turn": {"drew": "stock"}}


def rule(variant: str, situation: dict, action: dict, **extra) -> dict:
    out = answer("adjudicate", {"variant": variant, "situation": situation, "action": action, **extra})
    assert out.status == 200, out.document
    return out.document


def take(hand, top="9D", team=None, unnamed=None, variant="sv-classic"):
    situation = dict(BEFORE, discard_pile=[top], team=team or {"opened": True, "score": 0}, player={"hand": hand + ["4C", "5S", "6D"]})  # cards kept: no going out
    if unnamed is not None:
        situation["pile_unnamed"] = unnamed
    return rule(variant, situation, {"type": "take_pile", "with": hand})


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_frozen_pile_said_in_words_refuses_a_nine_and_a_joker(variant):
    ruling = take(["9H", "JK"], unnamed={"wild": True}, variant=variant)
    assert ruling["verdict"] == "illegal"
    assert any(r["rule"] == "pile.frozen.natural_pair" and r["passed"] is False for r in ruling["reasons"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_natural_pair_is_ruled_whatever_melds_the_opened_team_has(variant):
    """Two natural nines with the top nine make a meld of their own and keep any meld of nines legal."""
    frozen = take(["9H", "9C"], unnamed={"wild": True}, variant=variant)
    listed = take(["9H", "9C"], unnamed={"wild": True}, team={"score": 0, "melds": [["KH", "KS", "KD"]]}, variant=variant)
    assert frozen["verdict"] == listed["verdict"] == "legal"
    assert frozen["missing"] == []


def test_a_wild_card_with_the_top_hangs_on_whether_the_team_has_a_meld_of_that_rank():
    """#42: the fact is asked ("does your team have a meld of sevens?"): without one, 7 7 joker is a new meld,
    ruled; with one, the joker's fit needs that meld's cards, which no choice can give."""
    ruling = take(["7H", "JK"], top="7D", unnamed={"wild": False, "black_three": False, "red_three_first": False})
    assert ruling["verdict"] == "undetermined" and ruling["missing"] == ["/situation/team/ranks/7"]
    [sevens] = ruling["conditions"]
    choices = {c["value"]: c for c in sevens["choices"]}
    assert choices[False]["verdict"] == "legal" and choices[True]["verdict"] == "undetermined"


def test_frozen_or_not_hangs_on_a_pile_fact_not_given():
    ruling = take(["9H", "JK"], unnamed={})
    assert ruling["verdict"] == "undetermined" and "/situation/pile_unnamed/wild" in ruling["missing"]
    unfrozen = take(["9H", "JK"], unnamed={"wild": False, "black_three": False, "red_three_first": False},
                    team={"score": 0, "melds": [["KH", "KS", "KD"]]})
    assert unfrozen["verdict"] == "legal"


@pytest.mark.parametrize("variant", ["sv-classic", "no-pagat", "sv-gamerules"])
def test_going_out_without_a_canasta_said_as_a_count(variant):
    situation = dict(AFTER, team={"opened": True, "canastas": 0, "score": 0},
                     player={"hand": ["5H", "5S", "5D"], "has_melded": True})
    ruling = rule(variant, situation, {"type": "go_out", "melds": [["5H", "5S", "5D"]]})
    assert ruling["verdict"] == "illegal"
    assert any(r["rule"] == "go_out.canasta_required" and r["passed"] is False for r in ruling["reasons"])


def test_a_ruling_that_stops_for_a_missing_fact_is_not_legal():
    """Before #34 a take with the team's melds not given came out 'legal' with the melds in `missing`."""
    situation = dict(BEFORE, discard_pile=["7D"], team={"score": None}, player={"hand": ["7H", "7S", "4C", "5S", "6D"]})
    ruling = rule("sv-classic", situation, {"type": "take_pile", "with": ["7H", "7S"]})
    assert ruling["verdict"] == "undetermined" and ruling["missing"] == ["/situation/team/melds"]


@pytest.mark.parametrize("team, pointer", [({"opened": False, "melds": [["KH", "KS", "KD"]]}, "/situation/team/opened"),
                                            ({"opened": True, "melds": []}, "/situation/team/opened"),
                                            ({"opened": False, "canastas": 1}, "/situation/team/canastas")])
def test_a_fact_that_contradicts_the_melds_is_refused(team, pointer):
    out = answer("adjudicate", {"variant": "sv-classic", "situation": dict(AFTER, team=team, player={"hand_count": 5}),
                                "action": {"type": "meld", "melds": [["9H", "9S", "9C"]]}})
    assert out.status == 422 and [e["pointer"] for e in out.document["errors"]] == [pointer]


def test_not_opened_is_the_same_fact_as_no_melds():
    body = {"type": "meld", "melds": [["9H", "9S", "9C"]]}
    said = rule("sv-classic", dict(AFTER, team={"opened": False, "score": 0}, player={"hand_count": 5}), body)
    listed = rule("sv-classic", dict(AFTER, team={"melds": [], "score": 0}, player={"hand_count": 5}), body)
    assert said == listed


CARDS = ["9H", "9C", "9S", "7H", "7S", "KH", "KS", "KD", "JK", "2C", "5C", "QH"]


@settings(max_examples=25, deadline=None)
@given(hand=st.lists(st.sampled_from(CARDS), min_size=2, max_size=7, unique=True),
       top=st.sampled_from(["9D", "7D", "KC", "5D"]),
       team=st.sampled_from([{"opened": True}, {"opened": True, "canastas": 1}, {"canastas": 0}, {"opened": False}]),
       unnamed=st.sampled_from([None, {}, {"wild": True}, {"wild": False, "black_three": False, "red_three_first": False}]),
       drew=st.sampled_from([None, "stock"]),
       variant=st.sampled_from(VARIANTS))
def test_every_option_listed_is_what_adjudicate_rules_of_it(hand, top, team, unnamed, drew, variant):
    situation = {"first_round": False, "players": 4, "discard_pile": [top], "team": dict(team, score=0),
                 "player": {"hand": hand}, "turn": {"drew": drew}}
    if unnamed is not None:
        situation["pile_unnamed"] = unnamed
    listing = answer("options", {"variant": variant, "situation": situation}, limit=None)
    assert listing.status == 200, listing.document
    for group in listing.document["groups"]:
        for option in group["options"]:
            ruled = rule(variant, situation | {"turn": {"drew": group["drew"]}}, option["action"])
            assert ruled["verdict"] == option["verdict"], (option["key"], ruled["verdict"], option["verdict"])
