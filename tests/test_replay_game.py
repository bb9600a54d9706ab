"""Whole games: a log of rounds, each replayed from the totals the round before left, scored as ``/v1/score``
scores a game (each round, the running totals, each team's next opening requirement, the winner), with the
first illegal move flagged at its round and index, and refusals at the round they concern."""

from __future__ import annotations

import copy

import pytest

from adjudicator.answers import serialize
from adjudicator.input.payloads import replay_payload, score_payload
from adjudicator.model.errors import ImpossibleInput
from adjudicator.model.findings import ILLEGAL
from adjudicator.variants import load_all
from replay_deal import HANDS, KINGS
from test_http_options import conforms

VARIANTS = load_all()


def going_out_round(seat: int = 0) -> dict:
    """A round in which ``seat`` (the first to play) draws and goes out concealed at once (sv-classic: 775 for
    its team, minus the other team's hands)."""
    hands = copy.deepcopy(HANDS)
    hands[0], hands[seat] = hands[seat], KINGS + ["AH", "AS", "AD", "JK"]
    for i, hand in enumerate(hands):
        if i != seat and "KC" in hand:
            hand[hand.index("KC")] = "6D"  # both K♣ are the player's
    return {"deal": {"hands": hands, "discard_pile": ["7C"], "stock_count": 63, "first_player": seat},
            "moves": [{"player": seat, "action": {"type": "draw"}, "cards": ["9C"]},
                      {"player": seat, "action": {"type": "go_out", "melds": [KINGS, ["AH", "AS", "AD", "JK"]],
                                                  "discard": "9C"}}]}


def opening_round(seat: int = 1) -> dict:
    """A round in which ``seat`` draws and opens with nines and kings (60 points), then discards."""
    others = [copy.deepcopy(HANDS[1]), copy.deepcopy(HANDS[2]),
              ["7C", "5D", "6H", "6S", "8C", "8D", "10C", "10D", "QC", "JC", "4S"]]
    hands = others[:seat] + [["9H", "9S", "9D", "KH", "KS", "KD", "5C", "7D", "AH", "JK", "4C"]] + others[seat:]
    return {"deal": {"hands": hands, "discard_pile": ["7S"], "stock_count": 63, "first_player": seat},
            "moves": [{"player": seat, "action": {"type": "draw"}, "cards": ["8H"]},
                      {"player": seat, "action": {"type": "meld", "melds": [["9H", "9S", "9D"], ["KH", "KS", "KD"]]}},
                      {"player": seat, "action": {"type": "discard", "card": "4C"}}]}


def game(*rounds, **more) -> dict:
    return {"variant": "sv-classic", "players": 4, "rounds": list(rounds), **more}


def replayed(body):
    return replay_payload(body, VARIANTS)


def test_a_game_scores_each_round_from_the_totals_before_it_as_score_does():
    body = game(going_out_round(0), going_out_round(1), going_out_round(0))
    result = replayed(body)
    assert result.first_illegal is None and len(result.rounds) == 3
    totals = [[t.total for t in r.score.teams] for r in result.rounds]
    assert totals[1] == [totals[0][0] + result.rounds[1].score.teams[0].round,
                         totals[0][1] + result.rounds[1].score.teams[1].round]
    assert [t["score_before"] for t in result.rounds[2].score_request["teams"]] == totals[1]
    sheet = score_payload(result.score_request, VARIANTS)
    assert serialize.score(result.score, "en") == serialize.score(sheet, "en")
    assert [t.total for t in result.score.teams] == totals[2]
    assert [len(r.teams) for r in result.score.rounds] == [2, 2, 2]


def test_the_game_ends_with_a_winner_and_a_round_after_it_is_refused_at_that_round():
    """sv-classic's target is 5,000: a team at 4,500 that goes out concealed wins; a round after that is a
    round after the end, refused as /v1/score refuses it."""
    won = replayed(game(going_out_round(0), scores=[4500, 0]))
    assert won.game_over and won.score.winner == "team 1"
    with pytest.raises(ImpossibleInput) as refused:
        replayed(game(going_out_round(0), going_out_round(1), scores=[4500, 0]))
    assert [(i.pointer, i.message.key) for i in refused.value.issues] == [("/rounds/1", "error.round_after_game_over")]


def test_the_next_round_asks_the_opening_the_totals_call_for():
    """Nines and kings make 60: enough to open at 0 points (50), not at 1,775 (90)."""
    low = replayed(game(going_out_round(0), opening_round(1)))
    assert low.first_illegal is None
    high = replayed(game(going_out_round(0), opening_round(0), scores=[1000, 0]))
    first = high.first_illegal
    assert high.first_illegal_round == 1 and first.index == 1 and first.ruling.verdict == ILLEGAL
    assert "opening.minimum" in {f.rule for f in first.ruling.failed()}
    assert first.pointer == "/rounds/1/moves/1"
    need = high.rounds[0].score.teams[0].opening
    assert need.points == 90


def test_the_first_illegal_move_of_a_game_is_at_the_top_with_its_round(client):
    broken = opening_round(1)
    broken["moves"][2]["player"] = 2  # out of turn
    answer = client.post("/v1/replay", json=game(going_out_round(0), broken, going_out_round(0))).get_json()
    conforms(answer, "GameReplay")
    assert answer["first_illegal"]["round"] == 1 and answer["first_illegal"]["index"] == 2
    assert answer["first_illegal"]["pointer"] == "/rounds/1/moves/2"
    assert answer["rounds_replayed"] == 2 and answer["rounds_given"] == 3
    assert len(answer["score"]["rounds"]) == 1  # the rounds that ended: the first
    clean = client.post("/v1/replay", json=game(going_out_round(0))).get_json()
    conforms(clean, "GameReplay")
    assert clean["first_illegal"] is None and "first_illegal" in clean


def test_a_round_that_stops_before_its_end_cannot_be_followed_by_another():
    unfinished = opening_round(1)
    with pytest.raises(ImpossibleInput) as refused:
        replayed(game(going_out_round(0), unfinished, going_out_round(0)))
    assert [i.pointer for i in refused.value.issues] == ["/rounds/1/moves"]
    going = replayed(game(going_out_round(0), unfinished))  # the game goes on: the last round is not over
    assert going.first_illegal is None and not going.rounds[1].ended and not going.game_over
    assert len(going.score_request["rounds"]) == 1


def test_a_round_that_stops_undetermined_stops_the_game_there():
    stopped = {"deal": {"hands": copy.deepcopy(HANDS), "discard_pile": ["7C"], "stock_count": 2, "first_player": 1},
               "moves": [{"player": 1, "action": {"type": "draw"}, "cards": ["5D"]},
                         {"player": 1, "action": {"type": "discard", "card": "4D"}},
                         {"player": 2, "action": {"type": "draw"}, "cards": ["3H"]}]}
    result = replayed(game(going_out_round(0), stopped, going_out_round(0)))
    assert result.undetermined_round == 1 and result.undetermined.index == 2
    assert result.first_illegal is None and len(result.rounds) == 2
    said = serialize.replay(result, "da")
    assert said["undetermined"]["round"] == 1
    assert said["undetermined"]["open_points"][0]["parameter"] == "stock.last_red_three_ends"
