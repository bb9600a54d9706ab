"""Rounds that end where the rules say, and logs refused where they are wrong (issue 32, items 4-8; issue 36,
item 8). Each test here failed on the replay before these fixes (checked at 57c2221).

* the stock's last card a red three stops the round at once where the text says so (no-pagat: "Er siste
  trekkort en rød treer, legges den ut og omgangen stopper straks, uten melding eller kast"); where the text is
  silent the replay stops undetermined on that point;
* a draw from the empty stock that ``/v1/adjudicate`` cannot rule stops the replay undetermined, with the open
  points and their questions, not with an invented end;
* a go-out written as melds and a discard in one turn is the one ``go_out`` of the same cards: the same verdict
  and the same score (sv-classic: "Går du ut med hela handen på en och samma tur ... får laget en extra bonus");
* "round over" says why the round ended, in every language;
* a deal or a move refused as impossible points into the log, never at a situation the request does not hold;
* house rules that make one team of everyone replay without a phantom opponent, and a deck of one copy says
  "one copy", in every language.
"""

from __future__ import annotations

import copy

import pytest

from adjudicator.answers import serialize
from adjudicator.input.payloads import replay_payload
from adjudicator.model.errors import ImpossibleInput
from adjudicator.model.findings import ILLEGAL, LEGAL, UNDETERMINED
from adjudicator.model.messages import Card, VariantRef, msg
from adjudicator.variants import load_all
from replay_deal import HANDS, KINGS
from adjudicator.words.render import render

VARIANTS = load_all()


def log(variant: str, moves: list, stock: int = 63, hands=None, pile=("7C",), **more) -> dict:
    return {"variant": variant, "players": 4, "deal": {"hands": copy.deepcopy(hands or HANDS),
                                                       "discard_pile": list(pile), "stock_count": stock},
            "moves": moves, **more}


def draw(seat: int, cards: list) -> dict:
    return {"player": seat, "action": {"type": "draw"}, "cards": cards}


def discard(seat: int, card: str) -> dict:
    return {"player": seat, "action": {"type": "discard", "card": card}}


def replayed(body):
    return replay_payload(body, VARIANTS)


# ----------------------------------------------------------------------------------------------
# 4. The stock's last card is a red three


def test_a_move_after_a_last_card_red_three_is_flagged_where_the_text_stops_the_round():
    """no-pagat: the second player draws the stock's last card, a red three; the round stops at once, so the
    discard after it is the first illegal move, and the round is scored as it lay."""
    body = log("no-pagat", [draw(0, ["5D"]), discard(0, "4C"), draw(1, ["3H"]), discard(1, "4D")], stock=2)
    result = replayed(body)
    assert [e.verdict for e in result.entries[:3]] == [LEGAL] * 3
    first = result.first_illegal
    assert first is not None and first.index == 3 and first.reason.key == "replay.round_over"
    assert first.reason.args["why"].key == "replay.end.last_red_three" and first.pointer == "/moves/3"
    assert result.ended and result.end.reason == "last_red_three" and result.end.player == 1
    assert result.table.red_threes == [0, 1] and result.table.stock_count == 0
    assert result.score is not None and not any(t["went_out"] for t in result.score_request["teams"])


def test_where_the_text_is_silent_the_last_card_red_three_stops_the_replay_undetermined():
    """sv-classic does not say what a red three as the stock's last card does: the replay stops at that draw
    with the point to settle; a house rule settles it either way."""
    moves = [draw(0, ["5D"]), discard(0, "4C"), draw(1, ["3H"]), discard(1, "4D")]
    result = replayed(log("sv-classic", moves, stock=2))
    assert result.first_illegal is None and not result.ended and result.score is None
    stop = result.undetermined
    assert stop is not None and stop.index == 2 and stop.reason.key == "replay.stopped.last_red_three"
    assert [name for name, _ in stop.open_points] == ["stock.last_red_three_ends"]
    said = serialize.replay(result, "sv")["undetermined"]
    assert said["open_points"][0]["question"].startswith("Det får ni avgöra vid bordet")
    assert {c["value"] for c in said["open_points"][0]["choices"]} == {True, False}
    ends = replayed(log("sv-classic", moves, stock=2, house_rules={"stock.last_red_three_ends": True}))
    assert ends.first_illegal.index == 3 and ends.end.reason == "last_red_three"
    goes_on = replayed(log("sv-classic", moves, stock=2, house_rules={"stock.last_red_three_ends": False}))
    assert goes_on.first_illegal is None and goes_on.undetermined is None and not goes_on.ended


# ----------------------------------------------------------------------------------------------
# 5. A draw from the empty stock that /v1/adjudicate cannot rule


@pytest.mark.parametrize("vid", ["sv-gamerules", "da-ludo"])
def test_a_draw_from_an_empty_stock_the_rules_leave_open_stops_the_replay_undetermined(vid, client):
    hands = HANDS if vid != "da-ludo" else [h + extra for h, extra in zip(HANDS, (["5D", "6D"], ["7C", "8C"],
                                                                                   ["9D", "10D"], ["JD", "QD"]))]
    moves = [draw(0, ["3S"]), discard(0, "4C"), draw(1, []), discard(1, "4D")]
    body = log(vid, moves, stock=1, hands=hands)
    result = replayed(body)
    assert result.first_illegal is None and not result.ended and result.end is None
    assert result.score is None and result.score_request is None  # no invented end, no score
    stop = result.undetermined
    assert stop.index == 2 and stop.reason.key == "replay.stopped.empty_stock"
    assert result.entries[2].verdict == UNDETERMINED and len(result.entries) == 3
    assert "stock.empty_round_ends" in dict(stop.open_points)
    answer = client.post("/v1/replay", json=body, query_string={"lang": "nb"}).get_json()
    points = answer["undetermined"]["open_points"]
    assert {p["parameter"] for p in points} >= {"stock.empty_round_ends"}
    assert all(p["question"].startswith("Det må dere avgjøre ved bordet") for p in points)
    assert answer["undetermined"]["ruling"]["verdict"] == "undetermined"
    settled = replayed({**body, "house_rules": {"stock.empty_round_ends": True, "stock.empty_forced_take": False}})
    assert settled.end.reason == "stock_ran_out" and settled.first_illegal.index == 3


# ----------------------------------------------------------------------------------------------
# 6. Going out concealed, written as melds and a discard


def _concealed(vid: str, split: bool, hands=None, **more) -> dict:
    melds = [KINGS, ["AH", "AS", "AD", "JK"]]
    if split:
        laying = [{"player": 0, "action": {"type": "meld", "melds": [m]}} for m in melds] + [discard(0, "9C")]
    else:
        laying = [{"player": 0, "action": {"type": "go_out", "melds": melds, "discard": "9C"}}]
    hands = copy.deepcopy(hands or HANDS)
    hands[0] = KINGS + ["AH", "AS", "AD", "JK"]
    return log(vid, [draw(0, ["9C"]), *laying], hands=hands, **more)


@pytest.mark.parametrize("vid", ["sv-classic", "no-pagat"])
def test_a_concealed_go_out_written_as_melds_and_a_discard_scores_as_one_go_out(vid):
    one, split = replayed(_concealed(vid, False)), replayed(_concealed(vid, True))
    assert one.first_illegal is None and split.first_illegal is None
    assert [e.verdict for e in split.entries] == [LEGAL] * 4 and split.entries[1].together == (1, 2, 3)
    assert one.score_request == split.score_request and split.score_request["teams"][0]["concealed"]
    assert serialize.score(one.score, "en") == serialize.score(split.score, "en")
    lines = {line.item: line.points for line in split.score.teams[0].lines}
    assert lines["concealed_going_out"] == 100


def test_an_opening_a_concealed_go_out_waives_is_waived_however_the_turn_is_written():
    """no-pagat: "Hvis laget ikke har åpnet, kan du etter trekk fra trekkbunken gå skjult ut uten å oppfylle
    åpningskravet ved å melde hånden med en komplett canasta". At 3,000 points a team opens with 120; eight
    kings and three fours make 95 -- but the turn goes out concealed, so the requirement is waived, whether the
    turn is written as one go-out or as its melds and the discard."""
    hands = copy.deepcopy(HANDS)
    hands[0] = KINGS + ["KC", "4C", "4D", "4H"]
    hands[2][9] = "6D"  # both K♣ are seat 0's
    melds = [KINGS + ["KC"], ["4C", "4D", "4H"]]
    one = log("no-pagat", [draw(0, ["9C"]), {"player": 0, "action": {"type": "go_out", "melds": melds,
                                                                       "discard": "9C"}}],
              hands=hands, scores=[3000, 0])
    split = log("no-pagat", [draw(0, ["9C"]), *({"player": 0, "action": {"type": "meld", "melds": [m]}}
                                                 for m in melds), discard(0, "9C")], hands=hands, scores=[3000, 0])
    a, b = replayed(one), replayed(split)
    assert a.first_illegal is None and b.first_illegal is None, (a.first_illegal, b.first_illegal)
    assert [e.verdict for e in b.entries] == [LEGAL] * 4 and b.score_request["teams"][0]["concealed"]
    assert serialize.score(a.score, "en") == serialize.score(b.score, "en")
    alone = replayed({**split, "moves": split["moves"][:2]})  # the kings laid alone, the turn not going out
    assert alone.first_illegal is not None and alone.first_illegal.index == 1


def test_melds_of_one_turn_open_together_however_they_are_written():
    """Several melds laid in one turn count together for the opening ("Flere grupper kan legges samtidig"):
    nines (30) and kings (30) open with 60 where 50 is needed, written as one move or as two."""
    hands = copy.deepcopy(HANDS)
    hands[0] = ["9H", "9S", "9D", "KH", "KS", "KD", "5C", "7D", "AH", "JK", "4C"]
    nines, kings = ["9H", "9S", "9D"], ["KH", "KS", "KD"]
    one = [{"player": 0, "action": {"type": "meld", "melds": [nines, kings]}}, discard(0, "4C")]
    two = [{"player": 0, "action": {"type": "meld", "melds": [nines]}},
           {"player": 0, "action": {"type": "meld", "melds": [kings]}}, discard(0, "4C")]
    a = replayed(log("no-pagat", [draw(0, ["8H"]), *one], hands=hands))
    b = replayed(log("no-pagat", [draw(0, ["8H"]), *two], hands=hands))
    assert a.first_illegal is None and b.first_illegal is None
    assert [e.verdict for e in b.entries] == [LEGAL] * 4 and b.entries[1].together == (1, 2)
    assert b.table.melds == a.table.melds
    alone = replayed(log("no-pagat", [draw(0, ["8H"]), two[0], discard(0, "4C")], hands=hands))
    assert alone.first_illegal.index == 1 and alone.first_illegal.ruling.verdict == ILLEGAL  # 30 alone: too few


# ----------------------------------------------------------------------------------------------
# 7. "Round over" says why


@pytest.mark.parametrize("lang, went_out, ran_out", [
    ("en", "went out", "The stock ran out"), ("sv", "gick ut", "Stocken tog slut"),
    ("nb", "gikk ut", "Trekkbunken var tom"), ("da", "lukkede", "Trækkebunken var tom")])
def test_round_over_says_why_the_round_ended(client, lang, went_out, ran_out):
    stock_out = log("sv-classic", [draw(0, ["5D"]), discard(0, "4C"), draw(1, []), discard(1, "4D")], stock=1)
    answer = client.post("/v1/replay", json=stock_out, query_string={"lang": lang}).get_json()
    first = answer["first_illegal"]
    assert first["index"] == 3 and first["reason"]["key"] == "replay.round_over"
    assert ran_out in first["reason"]["text"] and went_out not in first["reason"]["text"]
    assert answer["end"]["reason"] == "stock_ran_out" and ran_out in answer["end"]["text"]
    gone = _concealed("sv-classic", False)
    gone["moves"].append(draw(1, ["5D"]))
    answer = client.post("/v1/replay", json=gone, query_string={"lang": lang}).get_json()
    assert answer["end"]["reason"] == "went_out" and went_out in answer["first_illegal"]["reason"]["text"]
    assert ran_out not in answer["first_illegal"]["reason"]["text"]


# ----------------------------------------------------------------------------------------------
# 8. Refusals point into the log


def test_a_deal_the_rules_cannot_deal_points_into_the_deal(client):
    """A red three lies in the pile only as an upcard: at the top of a pile of three it cannot have been dealt."""
    body = log("sv-classic", [draw(0, ["5D"])], stock=61, pile=("7C", "9D", "3H"))
    with pytest.raises(ImpossibleInput) as refused:
        replayed(body)
    assert [i.pointer for i in refused.value.issues] == ["/deal/discard_pile/2"]
    problem = client.post("/v1/replay", json=body).get_json()
    assert [e["pointer"] for e in problem["errors"]] == ["/deal/discard_pile/2"]


def test_refusals_in_a_game_point_at_the_round(client):
    good = log("sv-classic", [draw(0, ["5D"]), discard(0, "4C")])
    game = {"variant": "sv-classic", "players": 4,
            "rounds": [{"deal": good["deal"], "moves": good["moves"]}, copy.deepcopy(
                {"deal": good["deal"], "moves": good["moves"]})]}
    game["rounds"][1]["deal"]["discard_pile"] = ["7C", "9D", "3H"]
    game["rounds"][1]["deal"]["stock_count"] = 61
    problem = client.post("/v1/replay", json=game).get_json()
    assert [e["pointer"] for e in problem["errors"]] == ["/rounds/1/deal/discard_pile/2"]


def test_a_draw_bringing_a_card_too_many_in_a_game_points_at_its_round_and_card(client):
    ended = _concealed("sv-classic", False)
    second = log("sv-classic", [draw(0, ["5D"]), discard(0, "4C"), draw(1, ["2D", "KC"])])
    second["moves"][2]["cards"] = ["KC"]
    second["deal"]["hands"][1][0] = "KC"  # with seat 2's K♣ both copies are dealt
    game = {"variant": "sv-classic", "players": 4, "rounds": [
        {"deal": ended["deal"], "moves": ended["moves"]}, {"deal": second["deal"], "moves": second["moves"]}]}
    answer = client.post("/v1/replay", json=game).get_json()
    first = answer["first_illegal"]
    assert (first["round"], first["index"]) == (1, 2) and first["pointer"] == "/rounds/1/moves/2/cards/0"
    assert first["reason"]["key"] == "error.too_many_copies"


# ----------------------------------------------------------------------------------------------
# Issue 36, item 8: house rules that change the team size; one copy, not "one copies"


@pytest.mark.parametrize("size", [1])
def test_house_rules_changing_the_team_size_replay_without_pointing_outside_the_log(client, size):
    """Four players each alone make four teams: a team's own melds were taken for an opponent's, and a deck
    of one copy then found every card twice (a 422 at /situation/opponents/melds/0/1). (Four players in teams of
    three cannot sit at a table: that house rule is refused at the rule, tests/test_every_reading.py.)"""
    body = log("sv-classic", [draw(0, ["2S"]), {"player": 0, "action": {"type": "meld", "melds": [["KH", "KS", "KD",
                                                                                                   "JK"]]}},
                              discard(0, "4C"), draw(1, ["2D"]), discard(1, "4D")], stock=9,
               house_rules={"players.team_size": {"4": size}, "deck.decks": 1, "deck.jokers": 2},
               scores=[0] * (4 // size))
    response = client.post("/v1/replay", json=body)
    answer = response.get_json()
    assert response.status_code == 200, answer
    assert answer["first_illegal"] is None and answer["moves_ruled"] == 5
    assert not any("/situation" in str(v) for v in answer["entries"])


@pytest.mark.parametrize("lang, one, two", [
    ("en", "holds only one copy of Q♠", "holds only two copies of Q♠"),
    ("sv", "har bara ett exemplar av D♠", "har bara två exemplar av D♠"),
    ("nb", "har bare ett eksemplar av D♠", "har bare to eksemplarer av D♠"),
    ("da", "kun ét eksemplar af D♠", "kun to eksemplarer af D♠")])
def test_a_card_one_copy_too_many_is_said_in_the_singular_and_the_plural(client, lang, one, two):
    body = log("sv-classic", [draw(0, ["QS"])], stock=9, house_rules={"deck.decks": 1, "deck.jokers": 2})
    first = client.post("/v1/replay", json=body, query_string={"lang": lang}).get_json()["first_illegal"]
    assert first["reason"]["key"] == "error.too_many_copies" and one in first["reason"]["text"], first
    ref = VariantRef("sv-classic", (("", "X"),))
    said = render(msg("error.too_many_copies", variant=ref, card=Card("QS"), limit=2, count=2), lang)
    assert two in said, said
    jokers = render(msg("error.too_many_jokers", variant=ref, card=Card("JK"), limit=1, count=1), lang)
    assert "jokers" not in jokers and "jokrar" not in jokers and "jokere" not in jokers, jokers
