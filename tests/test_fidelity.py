"""Rules fidelity: deciding across readings, the deciding sentence first, and tables that cannot happen.

Every case names its variant: these are facts of the shipped texts.
"""

from __future__ import annotations

import pytest

from engine_json import InputError, adjudicate
from adjudicator.variants import load_all
from ruling_cases import CANASTA_K, base, drawn

V = load_all()


def rule(variant, situation, action, house=None):
    return adjudicate({"variant": variant, "situation": situation, "action": action, "house_rules": house}, V)


def reason(ruling, rule_id):
    return next(r for r in ruling["reasons"] if r["rule"] == rule_id)


# --- deciding across readings ---------------------------------------------------------------------

QUEEN_JOKER_TWO = drawn(player={"hand": ["QH", "JK", "2C", "5C", "6D"]})


def test_da_ludo_queen_joker_two_is_illegal_whether_twos_are_wild_or_not():
    ruling = rule("da-ludo", QUEEN_JOKER_TWO, {"type": "meld", "melds": [["QH", "JK", "2C"]]})
    assert ruling["verdict"] == "illegal"
    assert ruling["decided_across"] == ["wild.twos"]
    assert {tuple(r["values"].items()): r["verdict"] for r in ruling["readings"]} == {
        (("wild.twos", True),): "illegal", (("wild.twos", False),): "illegal"}
    wild, natural = ({tuple(r["values"].items()): r["explanations"] for r in ruling["readings"]}[k]
                     for k in ((("wild.twos", True),), (("wild.twos", False),)))
    assert any("natural" in e for e in wild)  # too few natural cards when the two is wild
    assert any("mixes" in e for e in natural)  # a two is not a queen when it is not
    assert ruling["deciding"], "the ruling names the sentences it rests on"


def test_a_house_rule_on_twos_settles_it_without_readings():
    ruling = rule("da-ludo", QUEEN_JOKER_TWO, {"type": "meld", "melds": [["QH", "JK", "2C"]]}, {"wild.twos": True})
    assert ruling["verdict"] == "illegal" and "readings" not in ruling
    assert reason(ruling, "meld.min_naturals")["passed"] is False


def test_ace_ace_two_depends_on_whether_twos_are_wild_and_says_what_each_reading_gives():
    ruling = rule("da-ludo", drawn(player={"hand": ["AH", "AD", "2C", "5C"]}),
                  {"type": "meld", "melds": [["AH", "AD", "2C"]]})
    assert ruling["verdict"] == "undetermined" and ruling["decided_across"] == []
    assert {r["values"]["wild.twos"]: r["verdict"] for r in ruling["readings"]} == {True: "legal", False: "illegal"}
    assert "wild.twos" in ruling["not_stated"]
    open_reasons = [r for r in ruling["reasons"] if r["passed"] is None]
    assert open_reasons and all(r["open_on"] == ["wild.twos"] for r in open_reasons)


def test_a_natural_pair_takes_a_frozen_pile_whether_or_not_a_second_meld_of_the_rank_is_allowed():
    """The pair and the top card go onto the team's meld of kings: where a team may hold a second meld of a
    rank it may still add to the first, so da-ludo's silence on second melds does not matter here."""
    situation = base(discard_pile=["6C", "JK", "8D", "KC"], player={"hand": ["KH", "KS", "5C"]},
                     team={"score": 1000, "melds": [["KH", "KS", "KD"]]})
    ruling = rule("da-ludo", situation, {"type": "take_pile", "with": ["KH", "KS"]})
    assert ruling["verdict"] == "legal" and "meld.one_per_rank" not in ruling["not_stated"]
    assert reason(ruling, "pile.frozen.natural_pair")["passed"] is True


def test_a_single_choice_enum_is_not_a_reading():
    from adjudicator.rules.readings import readings_for
    for vid, variant in V.items():
        for name in ("game.tie", "game.abandoned", "game.several_over_target"):
            assert readings_for(variant, name) == (), (vid, name)


# --- tables that cannot happen ----------------------------------------------------------------------

def test_a_red_three_inside_a_meld_is_refused():
    situation = base(team={"score": 1000, "melds": [["KH", "KS", "3H"]]})
    with pytest.raises(InputError) as err:
        rule("sv-classic", situation, {"type": "draw"})
    assert err.value.errors[0]["pointer"] == "/situation/team/melds/0/2"


def test_melds_in_a_da_ludo_first_round_are_refused_where_nobody_may_open():
    situation = base(first_round=True)
    with pytest.raises(InputError) as err:
        rule("da-ludo", situation, {"type": "draw"})
    assert [e["pointer"] for e in err.value.errors] == ["/situation/team/melds", "/situation/opponents/melds"]
    assert rule("sv-classic", situation, {"type": "draw"})["verdict"] in ("legal", "undetermined")


def test_cards_from_the_pile_without_taking_it_are_refused():
    situation = base(turn={"drew": "stock", "cards_from_pile": ["9H"]})
    with pytest.raises(InputError) as err:
        rule("sv-classic", situation, {"type": "discard", "card": "5C"})
    assert err.value.errors[0]["pointer"] == "/situation/turn/cards_from_pile"


def test_a_bare_canasta_at_3000_quotes_that_bonuses_do_not_count_first():
    situation = drawn(player={"hand": CANASTA_K[0] + ["5C", "6D"]}, team={"score": 3000, "melds": []})
    ruling = rule("sv-classic", situation, {"type": "meld", "melds": CANASTA_K})
    assert ruling["verdict"] == "illegal"
    first = reason(ruling, "opening.minimum")["citations"][0]["quote"]
    assert "bonusar för canastor" in first
