"""``POST /v1/replay`` over HTTP: the answer's shape, the score as ``/v1/score`` gives it, the first illegal
move with its ruling or reason, and a malformed log as a 422 with pointers."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from problems import assert_problem, pointers
from selfplay import play
from test_http_options import SPEC, conforms
from adjudicator.variants import load_all

VARIANTS = load_all()
LOG = play(VARIANTS, "sv-classic", 7)
assert any(m.get("event") == "lay_out" for m in LOG["moves"])  # a red three dealt: the log lays it out
ACTIONS = [i for i, m in enumerate(LOG["moves"]) if "action" in m]


def post(client, body, **query):
    return client.post("/v1/replay", json=body, query_string=query)


def test_a_whole_round_replays_and_scores_as_score_does(client):
    response = post(client, LOG)
    assert response.status_code == 200
    body = response.get_json()
    conforms(body, "Replay")
    assert body["first_illegal"] is None and body["ended"]
    assert body["moves_ruled"] == len(LOG["moves"]) == len(body["entries"])
    assert all(e["verdict"] == "legal" and (e["rules"] or e.get("event")) and e["summary"] for e in body["entries"])
    scored = client.post("/v1/score", json=body["score_request"]).get_json()
    assert body["score"] == scored


def test_the_first_illegal_move_carries_its_full_ruling(client):
    broken = copy.deepcopy(LOG)
    index = next(i for i, m in enumerate(broken["moves"]) if m.get("action", {}).get("type") == "draw" and i > 4)
    seat = broken["moves"][index]["player"]
    broken["moves"][index] = {"player": seat, "action": {"type": "discard", "card": "4C"}}
    partial = post(client, {**broken, "moves": broken["moves"][:index]}).get_json()
    hand = partial["table"]["hands"][seat]
    broken["moves"][index]["action"]["card"] = hand[0]
    body = post(client, broken, lang="sv").get_json()
    conforms(body, "Replay")
    first = body["first_illegal"]
    assert first["index"] == index and first["reason"] is None
    assert first["ruling"]["verdict"] == "illegal"
    assert "turn.draw_first" in {r["rule"] for r in first["ruling"]["reasons"] if r["passed"] is False}
    assert first["ruling"]["deciding"]  # cited
    assert len(body["entries"]) == index + 1 and body["score"] is None
    assert body["table"] == partial["table"]  # the table after the last legal move


def test_a_move_out_of_turn_is_illegal_with_a_reason_in_words(client):
    index = next(i for i, m in enumerate(LOG["moves"]) if "action" in m)  # the first action, after the lay-outs
    moves = LOG["moves"][:index] + [{**LOG["moves"][index], "player": 1}]
    body = post(client, {**LOG, "moves": moves}, lang="nb").get_json()
    first = body["first_illegal"]
    assert first["index"] == index and first["ruling"] is None and first["pointer"] == f"/moves/{index}"
    assert first["reason"]["key"] == "replay.out_of_turn" and "spiller" in first["reason"]["text"]


def test_the_documented_examples_replay_clean(client):
    examples = SPEC["paths"]["/v1/replay"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    for name, example in examples.items():
        response = post(client, example["value"])
        assert response.status_code == 200, (name, response.get_json())
        body = response.get_json()
        conforms(body, "GameReplay" if "rounds" in example["value"] else "Replay")
        assert body["first_illegal"] is None, (name, body["first_illegal"])
    said = post(client, examples["events"]["value"], lang="sv").get_json()["entries"]
    assert [e.get("event") for e in said] == ["lay_out", None, "ask", "answer", None]
    assert said[0]["summary"] == "Spelare 1 lägger ut den röda trean 3♥ och drar 4♣ i stället."
    assert said[3]["summary"] == "Spelare 3 svarar: nej."


def test_a_log_with_events_answers_in_the_documented_shape(client):
    body = post(client, LOG).get_json()
    conforms(body, "Replay")
    events = [e for e in body["entries"] if "event" in e]
    assert all(e["verdict"] == "legal" and e["summary"] for e in events)
    assert body["end"]["reason"] in ("went_out", "stock_ran_out", "last_red_three") and body["end"]["text"]


@pytest.mark.parametrize("mutate, pointer", [
    (lambda b: b["deal"].update(hands=b["deal"]["hands"][:3]), "/deal/hands"),
    (lambda b: b["moves"][0].update(player=9), "/moves/0/player"),
    (lambda b: b["moves"][ACTIONS[1]]["action"].update(type="fly"), f"/moves/{ACTIONS[1]}/action/type"),
    (lambda b: b["moves"][0].update(cards=["ZZ"]), "/moves/0/cards/0"),
    (lambda b: b["deal"].pop("stock_count"), "/deal/stock_count"),
    (lambda b: b.update(scores=[1, 2, 3]), "/scores"),
])
def test_a_malformed_log_is_a_422_with_pointers(client, mutate, pointer):
    body = copy.deepcopy(LOG)
    mutate(body)
    problem = assert_problem(post(client, body), 422)
    assert pointer in pointers(problem)


def test_a_deal_with_a_card_too_many_is_a_422_pointing_at_it(client):
    body = copy.deepcopy(LOG)
    hands = body["deal"]["hands"]
    card = hands[1][3]
    hands[0][:2] = [card, card]  # two copies before seat 1's: its copy is the third
    problem = assert_problem(post(client, body), 422)
    assert "impossible-input" in problem["type"] and "/deal/hands/1/3" in pointers(problem)


def test_a_draw_bringing_a_card_too_many_is_the_first_illegal_move_with_a_reason(client):
    broken = copy.deepcopy(LOG)
    index = next(i for i, m in enumerate(broken["moves"]) if m.get("action", {}).get("type") == "draw" and i > 4)
    table = post(client, {**broken, "moves": broken["moves"][:index]}).get_json()["table"]
    shown = Counter(c for h in table["hands"] for c in h) + Counter(table["discard_pile"]) + \
        Counter(c for t in table["teams"] for m in t["melds"] for c in m)
    card = next(c for c, n in sorted(shown.items()) if n == 2 and c != "JK")  # both copies of two decks in sight
    broken["moves"][index]["cards"][0] = card
    body = post(client, broken, lang="da").get_json()
    conforms(body, "Replay")
    first = body["first_illegal"]
    assert first["index"] == index and first["ruling"] is None
    assert first["reason"]["key"] == "error.too_many_copies" and first["reason"]["text"]
    assert body["table"] == table  # the table after the last legal move
