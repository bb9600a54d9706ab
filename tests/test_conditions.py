"""Issue #42: "Allowed if ..." -- a ruling on a fact the table did not give is made under each value of the fact
that can matter, and says in one line what the rest hinges on.

The library's typed :class:`~adjudicator.model.findings.Condition` and the API's ``conditions`` alike: each
choice's verdict is what ``/v1/adjudicate`` gives with the choice's merge patch applied; where every value agrees,
the ruling is decided (``decided_across_facts``) and the fact is not missing. Facts without cards are used fully
(a rank said true takes natural cards; no-pagat's forced take reads the rank; a pile known frozen settles it).
"""

from __future__ import annotations

import copy

import pytest

from adjudicator import Side, Situation, load_all, rule
from adjudicator.answers import answer
from adjudicator.model.actions import Action
from adjudicator.model.enums import ActionType
from adjudicator.model.findings import Condition

VARIANTS = load_all()
ALL = ("sv-classic", "no-pagat", "da-ludo", "sv-gamerules")
BEFORE = {"players": 4, "first_round": False, "discard_pile": ["6C", "8D", "9D"],
          "team": {"score": 1000, "melds": [["KH", "KS", "KD"]]}, "player": {"hand": ["7C", "7D", "KS", "5C"]},
          "turn": {"drew": None}}
HAND = ["7C", "7D", "KS", "KH", "KD", "5C", "9C", "JK"]  # the "What may I do?" hand
SEVENS = {"players": 4, "first_round": False, "discard_pile": ["7H"], "team": {"score": 1000, "opened": True},
          "player": {"hand": HAND}, "turn": {"drew": None}}


def ruled(variant: str, situation: dict, action: dict, lang: str = "en", **extra) -> dict:
    out = answer("adjudicate", {"variant": variant, "situation": situation, "action": action, **extra}, lang)
    assert out.status == 200, out.document
    return out.document


def merged(target: dict, patch: dict) -> dict:
    """RFC 7386: ``patch`` merged into a copy of ``target``."""
    out = copy.deepcopy(target)
    for key, value in patch.items():
        if isinstance(value, dict):
            out[key] = merged(out.get(key) if isinstance(out.get(key), dict) else {}, value)
        elif value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def choices(ruling: dict, pointer: str) -> dict:
    [found] = [c for c in ruling["conditions"] if c["pointer"] == pointer]
    return {c["value"]: c for c in found["choices"]}


def each_choice_is_adjudicates(body: dict, ruling: dict) -> None:
    """Every choice (nested ones too), its patch merged into the request, is what /v1/adjudicate rules."""
    for condition in ruling.get("conditions", ()):
        assert condition["question"].endswith("?") and "/" not in condition["question"]
        for choice in condition["choices"]:
            again = answer("adjudicate", merged(body, choice["patch"]), "en")
            assert again.status == 200, again.document
            assert again.document["verdict"] == choice["verdict"], (condition["pointer"], choice["value"])
            each_choice_is_adjudicates(merged(body, choice["patch"]), choice)


# --- the draw: "allowed while the stock has cards" ------------------------------------------------------------

@pytest.mark.parametrize("variant", ALL)
def test_a_draw_without_the_stock_count_is_ruled_under_each_value(variant):
    """Before #42 every variant said "undetermined: how many cards are left in the stock". Where an empty stock
    gives the same verdict (the round ends), the draw is decided across the fact; where the text leaves the empty
    stock open (da-ludo, sv-gamerules), the ruling says what each value gives."""
    situation = dict(BEFORE)
    body = {"variant": variant, "situation": situation, "action": {"type": "draw"}}
    ruling = ruled(variant, situation, {"type": "draw"})
    if variant in ("sv-classic", "no-pagat"):
        assert ruling["verdict"] == "legal" and ruling["decided_across_facts"] == ["/situation/stock_count"]
        assert ruling["missing"] == [] and "conditions" not in ruling
        assert "whether or not the stock has cards" in ruling["summary"]
        return
    assert ruling["verdict"] == "undetermined" and ruling["missing"] == ["/situation/stock_count"]
    stock = choices(ruling, "/situation/stock_count")
    assert stock["has_cards"]["verdict"] == "legal" and stock["has_cards"]["patch"] == {
        "situation": {"stock_empty": False}}
    assert stock["empty"]["verdict"] == "undetermined" and stock["empty"]["label"] == "No, it is empty"
    assert ruling["summary"].startswith("Allowed under ") and "while the stock has cards: you may draw" in \
        ruling["summary"]
    each_choice_is_adjudicates(body, ruling)


def test_the_library_gives_the_conditions_typed():
    situation = Situation(players=4, first_round=False, pile=("6C", "8D", "9D"), team=Side(1000, (("KH", "KS", "KD"),)),
                          hand=("7C", "7D", "KS", "5C"), drew=None)
    ruling = rule(situation, Action(ActionType.DRAW), VARIANTS["da-ludo"])
    [condition] = ruling.conditions
    assert isinstance(condition, Condition) and condition.kind == "stock"
    assert [(c.value, c.verdict) for c in condition.choices] == [("has_cards", "legal"), ("empty", "undetermined")]
    supplied = rule(Situation(**{**vars(situation), "stock_empty": False}), Action(ActionType.DRAW),
                    VARIANTS["da-ludo"])
    assert supplied.verdict == condition.choices[0].verdict == "legal" and supplied.conditions == ()


@pytest.mark.parametrize("variant", ALL)
def test_facts_not_said_at_all_lead_with_what_allows_the_draw(variant):
    """Nothing said of the turn and the stock: the draw is allowed before drawing while the stock has cards."""
    body = {"variant": variant, "situation": {"players": 4, "discard_pile": ["5C"], "first_round": False},
            "action": {"type": "draw"}}
    ruling = ruled(variant, body["situation"], body["action"])
    assert ruling["verdict"] == "undetermined"
    assert [c["pointer"] for c in ruling["conditions"]][0] == "/situation/turn/drew"
    assert "before you draw, while the stock has cards: you may draw" in ruling["summary"]
    each_choice_is_adjudicates(body, ruling)


# --- the take onto a meld of sevens nobody named ---------------------------------------------------------------

@pytest.mark.parametrize("variant", ALL)
def test_taking_the_pile_onto_a_meld_of_sevens_not_said(variant):
    body = {"variant": variant, "situation": SEVENS, "action": {"type": "take_pile", "with": []}}
    ruling = ruled(variant, SEVENS, body["action"])
    assert ruling["verdict"] == "undetermined" and ruling["missing"] == ["/situation/team/ranks/7"]
    sevens = choices(ruling, "/situation/team/ranks/7")
    assert sevens[True]["verdict"] == "legal" and sevens[False]["verdict"] == "illegal"
    assert sevens[True]["patch"] == {"situation": {"team": {"ranks": {"7": True}}}}
    assert "if your team has a meld of sevens: you may take the discard pile. Otherwise not allowed" in \
        ruling["summary"]
    each_choice_is_adjudicates(body, ruling)


@pytest.mark.parametrize("lang, words", [("sv", "om ditt lag har en sättning av sjuor"),
                                         ("nb", "hvis laget ditt har en melding av sjuere"),
                                         ("da", "hvis dit hold har en melding af 7'ere")])
def test_the_condition_leads_the_summary_in_every_language(lang, words):
    ruling = ruled("sv-classic", SEVENS, {"type": "take_pile", "with": []}, lang)
    assert words in ruling["summary"]
    [condition] = ruling["conditions"]
    english = ruled("sv-classic", SEVENS, {"type": "take_pile", "with": []})["conditions"][0]
    assert condition["question"] != english["question"] and condition["pointer"] == english["pointer"]


def test_without_words_the_conditions_keep_their_codes():
    out = answer("adjudicate", {"variant": "da-ludo", "situation": BEFORE, "action": {"type": "draw"}}, words=False)
    [condition] = out.document["conditions"]
    assert "question" not in condition and all("label" not in c for c in condition["choices"])
    assert [c["verdict"] for c in condition["choices"]] == ["legal", "undetermined"]


# --- facts without cards, used fully (item 2) ------------------------------------------------------------------

AFTER_DRAW = {"players": 4, "first_round": False, "turn": {"drew": "stock"}}


@pytest.mark.parametrize("variant", ALL)
def test_a_natural_king_onto_kings_said_without_cards(variant):
    situation = dict(AFTER_DRAW, team={"score": 1000, "opened": True, "ranks": {"K": True}},
                     player={"hand": ["KC", "5C", "6D"], "has_melded": True})
    assert ruled(variant, situation, {"type": "meld", "add": [{"to": "K", "cards": ["KC"]}]})["verdict"] == "legal"
    none = dict(situation, team={"score": 1000, "opened": True, "ranks": {"K": False}})
    assert ruled(variant, none, {"type": "meld", "add": [{"to": "K", "cards": ["KC"]}]})["verdict"] == "illegal"


@pytest.mark.parametrize("variant", ALL)
def test_the_top_card_onto_a_meld_of_nines_said_without_cards(variant):
    situation = {"players": 4, "first_round": False, "discard_pile": ["6C", "9D"], "turn": {"drew": None},
                 "team": {"score": 1000, "opened": True, "ranks": {"9": True}}, "player": {"hand": ["5C", "6D", "8H"]}}
    assert ruled(variant, situation, {"type": "take_pile", "with": []})["verdict"] == "legal"


@pytest.mark.parametrize("has, verdict", [(True, "illegal"), (False, "legal")])
def test_no_pagats_forced_take_reads_the_rank_said(has, verdict):
    """"En spiller må ta den dersom den ikke er frossen og toppkortet passer i lagets eksisterende melding": with
    kings said (cards not listed) the player must take the pile, so the draw is refused; without, it is allowed."""
    situation = {"players": 4, "first_round": False, "stock_count": 0, "discard_pile": ["5C", "KC"],
                 "turn": {"drew": None}, "team": {"score": 1000, "opened": True, "ranks": {"K": has}},
                 "player": {"hand": ["5D", "6D", "8H"]}}
    ruling = ruled("no-pagat", situation, {"type": "draw"})
    assert ruling["verdict"] == verdict and ruling["missing"] == []


def test_a_pile_known_frozen_settles_the_forced_take_without_the_melds():
    situation = {"players": 4, "first_round": False, "stock_count": 0, "discard_pile": ["KC"],
                 "pile_unnamed": {"wild": True}, "turn": {"drew": None}, "team": {"score": 1000, "opened": True},
                 "player": {"hand": ["5D", "6D", "8H"]}}
    ruling = ruled("no-pagat", situation, {"type": "draw"})
    assert ruling["verdict"] == "legal" and ruling["missing"] == []


# --- options as adjudicate (item 3) ----------------------------------------------------------------------------

def options(variant: str, situation: dict) -> dict:
    out = answer("options", {"variant": variant, "situation": situation}, limit=None)
    assert out.status == 200, out.document
    return out.document


@pytest.mark.parametrize("variant", ALL)
def test_the_options_list_the_addition_adjudicate_rules(variant):
    """The issue's table: kings said without cards, K♣ 5♣ 6♦ after the draw. Before, the meld group was empty,
    with neither blocked nor missing, while adjudicate ruled the addition."""
    situation = dict(AFTER_DRAW, team={"score": 1000, "opened": True, "ranks": {"K": True}},
                     player={"hand": ["KC", "5C", "6D"], "has_melded": True})
    listing = options(variant, situation)
    [meld] = [g for g in listing["groups"] if g["kind"] == "meld"]
    [kings] = [o for o in meld["options"] if o["key"] == "add:K"]
    assert kings["verdict"] == "legal" == ruled(variant, situation, kings["action"])["verdict"]
    for group in listing["groups"]:  # never silently absent
        assert group["options"] or group.get("blocked") or group.get("missing"), group["kind"]


@pytest.mark.parametrize("variant", ALL)
def test_the_draw_is_listed_with_its_condition_and_no_meld_is_yours_where_it_is_a_condition(variant):
    situation = dict(SEVENS)
    listing = options(variant, situation)
    [draw] = [o for g in listing["groups"] if g["kind"] == "draw" for o in g["options"]]
    if draw["verdict"] == "undetermined":
        assert draw["condition"] == "while the stock has cards"
    onto = [o for g in listing["groups"] for o in g["options"] if o["action"] == {"type": "take_pile", "with": []}]
    assert onto and all("your meld of sevens" not in o["description"] for o in onto)
    assert onto[0]["condition"] == "if your team has a meld of sevens"
    assert onto[0]["verdict"] == ruled(variant, situation, onto[0]["action"])["verdict"]


def test_what_a_team_needs_to_open_from_its_score_alone():
    """"Is this enough to open?" before any meld is entered: the requirement from the score alone."""
    need = options("da-ludo", {"team": {"score": 6200}})["opening_requirement"]
    assert need["canasta_required"] is True and "canasta" in need["text"]
    assert options("sv-classic", {"team": {"score": 1600}})["opening_requirement"]["points"] == 90


# --- the new facts: a choice's JSON says exactly what was tapped -------------------------------------------------

@pytest.mark.parametrize("situation, pointer", [
    ({"stock_count": 0, "stock_empty": False}, "/situation/stock_empty"),
    ({"stock_count": 3, "stock_empty": True}, "/situation/stock_empty"),
    ({"turn": {"drew": None, "has_drawn": True}}, "/situation/turn/has_drawn"),
    ({"turn": {"drew": "stock", "has_drawn": False}}, "/situation/turn/has_drawn"),
    ({"team": {"opened": False, "canastas_at_least": 1}}, "/situation/team/canastas_at_least"),
    ({"team": {"opened": True, "canastas": 0, "canastas_at_least": 1}}, "/situation/team/canastas"),
    ({"player": {"hand_count": 1, "hand_count_at_least": 2}}, "/situation/player/hand_count_at_least"),
    ({"player": {"hand": ["5C"], "hand_count_at_least": 2}}, "/situation/player/hand_count_at_least"),
])
def test_a_fact_that_contradicts_another_is_refused_at_it(situation, pointer):
    out = answer("adjudicate", {"variant": "sv-classic", "situation": {"players": 4, **situation},
                                "action": {"type": "draw"}})
    assert out.status == 422 and [e["pointer"] for e in out.document["errors"]] == [pointer], out.document


def test_the_short_facts_are_the_same_facts_as_the_long_ones():
    draw = {"type": "draw"}
    assert ruled("da-ludo", dict(BEFORE, stock_empty=True), draw)["verdict"] == \
        ruled("da-ludo", dict(BEFORE, stock_count=0), draw)["verdict"]
    said = ruled("sv-classic", dict(BEFORE, turn={"has_drawn": False}), draw)
    listed = ruled("sv-classic", BEFORE, draw)
    assert said == listed
    going_out = {"type": "go_out", "melds": [["5H", "5S", "5D"]]}
    with_one = dict(AFTER_DRAW, team={"score": 0, "opened": True, "canastas_at_least": 1, "ranks": {"5": False}},
                    player={"hand": ["5H", "5S", "5D"], "has_melded": True})
    assert ruled("sv-classic", with_one, going_out)["verdict"] == "legal"


def test_two_or_more_cards_left_is_a_fact_a_request_can_send():
    """The hand-size condition's "two or more" choice sends ``player.hand_count_at_least``: a request field."""
    discard = {"type": "discard", "card": "10D"}
    table = dict(AFTER_DRAW, stock_count=7, discard_pile=[], team={"score": 6000, "melds": [["4D", "4C", "4H", "4C",
                 "4S", "4S", "4D"]]}, player={"has_melded": True}, turn={"drew": "stock", "partner_answer": "yes"})
    ruling = ruled("da-ludo", table, discard)
    [hand] = [c for c in ruling["conditions"] if c["kind"] == "hand_size"]
    assert any("hand_count_at_least" in c["patch"]["situation"]["player"] for c in hand["choices"])
    each_choice_is_adjudicates({"variant": "da-ludo", "situation": table, "action": discard}, ruling)


