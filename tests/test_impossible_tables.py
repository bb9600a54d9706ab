"""Tables that cannot happen under a variant are refused on every path, each with the sentence that rules it out.

One test per kind of impossibility, run under every variant: the limit is worked out here from the
variant's own parameters (as :mod:`adjudicator.rules.possible` does), so the expectation follows the text, and
where the text leaves the limit open, reads it two ways or the service only interprets it, the table is not
refused but ruled, under the readings it can happen under (``cannot_happen`` names the others). Every refusal
names only parameters the variant states. Every path is tried: the library's ``rule()`` and ``legal_moves()``
on typed situations, ``/v1/adjudicate``, ``/v1/options``, ``/v1/compare``, ``/v1/adjudicate/batch`` and, for
what a scored round shows, ``/v1/score``.
"""

from __future__ import annotations

import pytest

from adjudicator import Action, ImpossibleInput, apply_house_rules, legal_moves, rule
from adjudicator.input.parse import situation as parse_situation
from adjudicator.variants import load_all
from ruling_cases import SHIPPED, base

VARIANTS = load_all()
DRAW = {"type": "draw"}


def _problem(client, path: str, body: dict) -> dict:
    resp = client.post(path, json=body)
    assert resp.status_code == 422, resp.get_data(as_text=True)
    assert resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    assert problem["type"].endswith("/impossible-input"), problem
    return problem


def _quotes(vid: str, *names: str) -> list[str]:
    return [c.quote for n in names for c in VARIANTS[vid].params[n].citations]


def refused_everywhere(client, vid: str, situation: dict, pointer: str, rule_id: str, quoted: list[str],
                       action: dict | None = None) -> None:
    """The table is a 422 at ``pointer``, refused by ``rule_id`` quoting one of ``quoted``, on every path."""
    action = action or DRAW
    body = {"variant": vid, "situation": situation, "action": action}
    problem = _problem(client, "/v1/adjudicate", body)
    hit = [e for e in problem["errors"] if e["pointer"] == pointer]
    assert hit, problem["errors"]
    assert hit[0]["rule"] == rule_id, hit
    assert hit[0]["parameters"] and all(VARIANTS[vid].params[n].status == "stated" for n in hit[0]["parameters"])
    assert any(q in hit[0]["detail"] for q in quoted), (hit[0]["detail"], quoted)
    assert "/situation" not in hit[0]["detail"]  # words for people: no pointer in the sentence
    for lang in ("sv", "nb", "da"):  # the reason in the reader's language, the quote in the text's own
        worded = _problem(client, f"/v1/adjudicate?lang={lang}", body)
        said = next(e for e in worded["errors"] if e["pointer"] == pointer)["detail"]
        assert said != hit[0]["detail"] and any(q in said for q in quoted)
    options = _problem(client, "/v1/options", {"variant": vid, "situation": situation})
    assert pointer in [e["pointer"] for e in options["errors"]]
    batch = client.post("/v1/adjudicate/batch", json={"requests": [body]}).get_json()
    assert pointer in [e["pointer"] for e in batch["results"][0]["problem"]["errors"]]
    compared = client.post("/v1/compare", json={"variants": [vid], "situation": situation,
                                                 "action": action}).get_json()
    if "results" in compared:
        assert "problem" in compared["results"][0], compared["results"][0]
    sit = parse_situation(situation, VARIANTS[vid])  # the library, on a table built without the parser
    with pytest.raises(ImpossibleInput):
        rule(sit, Action("draw"), VARIANTS[vid])
    with pytest.raises(ImpossibleInput):
        legal_moves(sit, VARIANTS[vid])


def accepted(client, vid: str, situation: dict) -> dict:
    resp = client.post("/v1/adjudicate", json={"variant": vid, "situation": situation, "action": DRAW})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert client.post("/v1/options", json={"variant": vid, "situation": situation}).status_code == 200
    return resp.get_json()


def ruled_under_readings(client, vid: str, situation: dict, point: str, ruled_out) -> dict:
    """The table is ruled (not refused), and the reading ``point = ruled_out`` is named as one it cannot happen
    under, with the rule that rules it out."""
    ruling = accepted(client, vid, situation)
    values = [c["values"] for c in ruling.get("cannot_happen", [])]
    assert {point: ruled_out} in values, (values, ruling["verdict"])
    assert ruling["reasons"][0]["rule"] == "table.possible" and ruling["reasons"][0]["passed"] is True
    return ruling


# --- the stock --------------------------------------------------------------------------------


def stock_limit(vid: str, players: int, pile: int = 1) -> int:
    """The deck less the deal and the cards of the pile (each turned up from the stock, or discarded after a
    draw from it; one upcard at least); where the text gives two deals, the smaller one (not refused under
    either reading)."""
    entry = VARIANTS[vid].params["deal.cards"]
    each = min(deal[players] for deal in (entry.value, *entry.readings))
    return VARIANTS[vid].deck_size - players * each - max(1, pile)


def test_the_stock_limits_are_the_texts_figures():
    assert stock_limit("no-pagat", 4) == 108 - 4 * 11 - 1 == 63
    assert stock_limit("sv-gamerules", 4) == 108 - 4 * 11 - 1 == 63
    assert stock_limit("da-ludo", 4) == 110 - 4 * 13 - 1 == 57
    # sv-classic deals three players 13, "11 förekommer också": 108 - 3 x 11 - 1 is possible under one reading
    assert stock_limit("sv-classic", 3) == 108 - 3 * 11 - 1 == 74
    assert stock_limit("sv-classic", 2) == 108 - 2 * 15 - 1 == 77


@pytest.mark.parametrize("vid", SHIPPED)
def test_a_stock_larger_than_the_deal_leaves(client, vid):
    for players in VARIANTS[vid].value("players.supported"):
        for pile in (["9D"], ["6C", "8D", "9D"]):
            most = stock_limit(vid, players, len(pile))
            accepted(client, vid, base(players=players, stock_count=most, discard_pile=pile))
            refused_everywhere(client, vid, base(players=players, stock_count=most + 1, discard_pile=pile),
                               "/situation/stock_count", "deal.stock", _quotes(vid, "deal.cards"))


def test_a_stock_only_one_deal_leaves_room_for_is_ruled_under_that_deal(client):
    """sv-classic deals three players 13 ("11 förekommer också"): a stock only the deal of 11 leaves is ruled,
    saying the deal of 13 rules it out."""
    most = stock_limit("sv-classic", 3)
    assert most == 108 - 3 * 11 - 1
    ruled_under_readings(client, "sv-classic", base(players=3, stock_count=most, discard_pile=["9D"],
                                                    turn={"drew": None, "cards_from_pile": []}),
                         "deal.cards", {"2": 15, "3": 13, "4": 11})


def test_without_the_player_count_the_smallest_deal_gives_the_limit(client):
    accepted(client, "sv-classic", base(players=None, stock_count=75))
    refused_everywhere(client, "sv-classic", base(players=None, stock_count=76), "/situation/stock_count",
                       "deal.stock", _quotes("sv-classic", "deal.cards"))


# --- melds lying on the table -----------------------------------------------------------------


@pytest.mark.parametrize("vid", SHIPPED)
def test_black_threes_never_lie_on_the_table_mid_round(client, vid):
    situation = base(opponents={"score": 0, "melds": [["3C", "3S", "3C"]]})
    refused_everywhere(client, vid, situation, "/situation/opponents/melds/0", "black_three.going_out_only",
                       _quotes(vid, "black_three.meld_only_going_out"))


@pytest.mark.parametrize("vid", SHIPPED)
def test_one_natural_and_two_jokers_cannot_lie_on_the_table(client, vid):
    situation = base(team={"score": 1000, "melds": [["9H", "JK", "JK"]]})
    rules = VARIANTS[vid]
    stated = [rid for rid, name in (("meld.min_naturals", "meld.min_naturals"),
                                    ("meld.natural_majority", "meld.natural_majority"),
                                    ("meld.naturals_per_wild", "meld.naturals_per_wild"))
              if rules.params[name].status == "stated" and rules.value(name)]
    body = {"variant": vid, "situation": situation, "action": DRAW}
    problem = _problem(client, "/v1/adjudicate", body)
    rules_hit = [e["rule"] for e in problem["errors"] if e["pointer"] == "/situation/team/melds/0"]
    assert rules_hit and set(rules_hit) <= set(stated), (problem["errors"], stated)  # only the stated limits refuse
    refused_everywhere(client, vid, situation, "/situation/team/melds/0", rules_hit[0],
                       _quotes(vid, "meld.min_naturals", "meld.natural_majority", "meld.max_wilds",
                               "meld.naturals_per_wild"))


@pytest.mark.parametrize("vid", SHIPPED)
def test_the_wild_card_limits_of_the_variant(client, vid):
    """Three naturals and two jokers: only a text asking two naturals per wild card refuses it."""
    situation = base(team={"score": 1000, "melds": [["KH", "KS", "KD", "JK", "JK"]]})
    ratio = VARIANTS[vid].value("meld.naturals_per_wild")
    if ratio and 3 < ratio * 2:
        refused_everywhere(client, vid, situation, "/situation/team/melds/0", "meld.naturals_per_wild",
                           _quotes(vid, "meld.naturals_per_wild"))
    else:
        accepted(client, vid, situation)


@pytest.mark.parametrize("vid", SHIPPED)
def test_two_melds_of_one_rank_where_the_text_allows_one(client, vid):
    situation = base(team={"score": 1000, "melds": [["KH", "KS", "KD"], ["KC", "KH", "KS"]]})
    entry = VARIANTS[vid].params["meld.one_per_rank"]
    if entry.settled and entry.value:
        refused_everywhere(client, vid, situation, "/situation/team/melds", "meld.one_per_rank",
                           _quotes(vid, "meld.one_per_rank"))
    else:  # the text is silent (an open point) or allows it: not refused
        accepted(client, vid, situation)


@pytest.mark.parametrize("vid", SHIPPED)
def test_melds_without_a_canasta_in_a_band_that_opens_only_with_one(client, vid):
    """da-ludo from 6,000: the opening needed a canasta, and canastas stay; the three endpoints agree."""
    bands = VARIANTS[vid].value("opening.bands")
    situation = base(team={"score": 6000, "melds": [["KH", "KS", "KD"]]})
    scored = {"variant": vid, "players": 4, "teams": [
        {"name": "Us", "score_before": 6000, "melds": [["KH", "KS", "KD"]], "hand": ["5C"]},
        {"name": "Them", "melds": [["QH", "QS", "QD", "QC", "QH", "QS", "QD"]], "went_out": True}]}
    if bands[-1]["canasta_required"] and bands[-1]["min"] <= 6000:
        refused_everywhere(client, vid, situation, "/situation/team/melds", "opening.canasta_required",
                           _quotes(vid, "opening.bands"))
        problem = _problem(client, "/v1/score", scored)  # the same rule and words as the ruling's
        assert problem["errors"][0]["rule"] == "opening.canasta_required"
        assert any(q in problem["errors"][0]["detail"] for q in _quotes(vid, "opening.bands"))
    else:
        accepted(client, vid, situation)
        assert client.post("/v1/score", json=scored).status_code == 200


# --- the pile ---------------------------------------------------------------------------------


@pytest.mark.parametrize("vid", SHIPPED)
def test_a_pile_taken_this_turn_leaves_no_pile(client, vid):
    situation = base(turn={"drew": "pile", "cards_from_pile": []}, discard_pile=["6C", "8D"])
    if VARIANTS[vid].params["pile.taken_whole"].status == "stated":
        refused_everywhere(client, vid, situation, "/situation/discard_pile", "pile.taken_whole",
                           _quotes(vid, "pile.taken_whole"))
    else:  # sv-gamerules: "plocka upp ett från kasthögen" against "plocka upp hela den bortkastade högen"
        ruled_under_readings(client, vid, situation, "pile.taken_whole", True)
    accepted(client, vid, base(turn={"drew": "pile", "cards_from_pile": []}, discard_pile=[]))


@pytest.mark.parametrize("vid", SHIPPED)
def test_a_pile_taken_this_turn_laid_its_top_card_in_a_meld_of_the_team(client, vid):
    situation = base(turn={"drew": "pile", "cards_from_pile": []}, discard_pile=[],
                     team={"score": 0, "melds": [], "red_threes": 0}, player={"has_melded": False})
    if VARIANTS[vid].params["pile.taken_whole"].status == "stated":
        refused_everywhere(client, vid, situation, "/situation/team/melds", "pile.taken_whole",
                           _quotes(vid, "pile.taken_whole"))
    else:
        ruled_under_readings(client, vid, situation, "pile.taken_whole", True)


@pytest.mark.parametrize("vid", SHIPPED)
def test_a_red_three_lies_in_the_pile_only_as_an_upcard(client, vid):
    stated = VARIANTS[vid].params["red_three.laid_out"].status == "stated"
    above_a_natural = base(discard_pile=["5C", "3H", "9D"])
    if stated:
        refused_everywhere(client, vid, above_a_natural, "/situation/discard_pile/1", "red_three.never_melded",
                           _quotes(vid, "red_three.laid_out"))
    else:  # da-ludo: a red three drawn after the first round may, read so, be kept and discarded
        ruled_under_readings(client, vid, above_a_natural, "red_three.laid_out", True)
    accepted(client, vid, base(discard_pile=["3H", "8D", "9D"]))
    under_joker = base(discard_pile=["JK", "3H", "8D", "9D"])
    if "joker" in VARIANTS[vid].value("pile.upcard_turn_more"):  # a joker upcard has another turned over it
        accepted(client, vid, under_joker)
    elif stated:
        refused_everywhere(client, vid, under_joker, "/situation/discard_pile/1", "red_three.never_melded",
                           _quotes(vid, "red_three.laid_out"))
    else:
        ruled_under_readings(client, vid, under_joker, "red_three.laid_out", True)


def test_a_red_three_turned_up_past_a_black_three_in_sv_classic(client):
    """"tills ett vanligt kort ligger överst", an ordinary card being "inte ett vildkort eller en svart trea":
    read so, a black three turned up is turned over too; the list alone names none."""
    situation = base(discard_pile=["2C", "3S", "3H", "7D", "9D"])
    ruled_under_readings(client, "sv-classic", situation, "pile.upcard_turn_more", ["joker", "two", "red_three"])
    refused_everywhere(client, "no-pagat", situation, "/situation/discard_pile/2", "red_three.never_melded",
                       _quotes("no-pagat", "red_three.laid_out"))


def test_every_fault_is_listed_at_once(client):
    situation = base(stock_count=100, opponents={"score": 0, "melds": [["3C", "3S", "3C"]]},
                     discard_pile=["5C", "3D", "9D"])
    problem = _problem(client, "/v1/adjudicate", {"variant": "no-pagat", "situation": situation, "action": DRAW})
    assert {e["pointer"] for e in problem["errors"]} >= {"/situation/stock_count", "/situation/opponents/melds/0",
                                                         "/situation/discard_pile/1"}


def test_another_deal_moves_the_limit_without_code():
    """A table dealing 15 each (a house rule here, a new variant file alike): 108 - 4 x 15 - 1 = 47."""
    dealt_15 = apply_house_rules(VARIANTS["no-pagat"], {"deal.cards": {"4": 15}})
    with pytest.raises(ImpossibleInput):
        rule(parse_situation(base(stock_count=48, discard_pile=["9D"]), dealt_15), Action("draw"), dealt_15)
    assert rule(parse_situation(base(stock_count=47, discard_pile=["9D"]), dealt_15), Action("draw"),
                dealt_15).verdict == "legal"


def test_a_partner_answer_where_everyone_plays_alone(client):
    """sv-classic with three players: nobody has a partner to ask."""
    situation = base(players=3, turn={"drew": "stock", "cards_from_pile": [], "partner_answer": "no"},
                     team={"score": 0, "melds": []}, opponents={"score": 0, "melds": []})
    refused_everywhere(client, "sv-classic", situation, "/situation/turn/partner_answer", "go_out.partner_answer",
                       _quotes("sv-classic", "players.team_size"))
    accepted(client, "sv-classic", {**situation, "players": 4})
