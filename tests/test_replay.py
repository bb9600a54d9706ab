"""Replay: whole rounds played by a seeded random player replay without an illegal move, score as
``/v1/score`` scores their final table, and a corrupted move is flagged exactly where it is.

The player (:mod:`selfplay`) picks among the moves ``legal_moves`` lists, in every variant (da-ludo with
its two open points on twos and second melds settled by house rules, which keeps its listing quick).
Each log is replayed from scratch by :func:`adjudicator.replay.replay`; then one move is corrupted three
ways -- a card the player does not hold, a discard before drawing, a meld below the opening requirement
-- and the replay must stop at that move, and not before.
"""

from __future__ import annotations

import copy
import random

import pytest

from adjudicator.model.cards import RANKS, SUITS
from adjudicator.model.errors import AdjudicatorError, ImpossibleInput
from adjudicator.model.findings import ILLEGAL, LEGAL
from adjudicator.rules.engine import rule
from adjudicator.input.parse import action as parse_action
from adjudicator.input.payloads import replay_payload
from adjudicator.input.replay_log import replay_request
from adjudicator.replay import situation_of
from adjudicator.input.payloads import score_payload
from adjudicator.variants import load_all
from selfplay import play
from adjudicator.answers import serialize

VARIANTS = load_all()
SEEDS = 4  # rounds per variant
HOUSE = {"da-ludo": {"wild.twos": True, "meld.one_per_rank": True}}
LOGS = {(vid, seed): play(VARIANTS, vid, seed, house_rules=HOUSE.get(vid))
        for vid in VARIANTS for seed in range(SEEDS)}


def replayed(body):
    return replay_payload(body, VARIANTS)


@pytest.mark.parametrize("vid, seed", list(LOGS))
def test_a_self_played_round_replays_without_an_illegal_move(vid, seed):
    body = LOGS[(vid, seed)]
    result = replayed(body)
    assert result.first_illegal is None
    assert len(result.entries) == len(body["moves"]) > 20
    assert all(e.verdict == LEGAL for e in result.entries)
    assert result.ended  # the random player goes out when it can
    try:
        scored = score_payload(result.score_request, VARIANTS)
    except AdjudicatorError as e:  # /v1/score cannot score it either (a card value the text does not give)
        assert result.score is None and result.score_error.same_as(e)
    else:
        assert serialize.score(result.score, "en") == serialize.score(scored, "en")
    went_out = [t for t in result.score_request["teams"] if t["went_out"]]
    assert len(went_out) == 1


def _not_held(body, rng):
    """A card of a meld or discard swapped for one the player does not hold."""
    result = replayed(body)
    for index in rng.sample(range(len(body["moves"])), len(body["moves"])):
        move = body["moves"][index]
        action = move["action"]
        key = "card" if action["type"] == "discard" else None
        if key is None:
            continue
        hand = result_hand_before(body, index)
        missing = next(c for c in (r + s for r in RANKS for s in SUITS) if c not in hand and c[:-1] not in "23")
        action[key] = missing
        return index
    return None


def result_hand_before(body, index):
    partial = {**body, "moves": body["moves"][:index]}
    r = replayed(partial)
    return r.table.hands[body["moves"][index]["player"]]


def _discard_before_drawing(body, rng):
    draws = [i for i, m in enumerate(body["moves"]) if m["action"]["type"] in ("draw", "take_pile")]
    index = rng.choice(draws)
    move = body["moves"][index]
    hand = result_hand_before(body, index)
    body["moves"][index] = {"player": move["player"], "action": {"type": "discard", "card": hand[0]}}
    return index


def _meld_below_requirement(body, rng):
    """A move after a draw, by a team yet to open, replaced by a meld of low cards that the engine refuses
    for its opening value alone (three of a low rank, or two and a two)."""
    for index, move in enumerate(body["moves"]):
        if move["action"]["type"] not in ("meld", "discard", "go_out"):
            continue
        before = replayed({**body, "moves": body["moves"][:index]})
        seat = move["player"]
        if before.table.melds[seat % before.teams]:
            continue
        hand = before.table.hands[seat]
        twos = [c for c in hand if c[:-1] == "2"]
        for r in ("4", "5", "6", "7", "8"):
            same = [c for c in hand if c[:-1] == r]
            meld = same[:3] if len(same) >= 3 else (same[:2] + twos[:1] if len(same) == 2 and twos else None)
            if meld is None:
                continue
            log = replay_request({**body, "moves": []}, VARIANTS)
            action = parse_action({"type": "meld", "melds": [meld]})
            ruling = rule(situation_of(log, before.table, before.teams, seat), action, log.rules)
            if {f.rule for f in ruling.findings if f.passed is False} == {"opening.minimum"}:
                move["action"] = {"type": "meld", "melds": [meld]}
                return index
    return None


CORRUPTIONS = {"card not held": _not_held, "discard before drawing": _discard_before_drawing,
               "meld below the opening requirement": _meld_below_requirement}


@pytest.mark.parametrize("how", list(CORRUPTIONS))
def test_a_corrupted_move_is_flagged_exactly_there(how):
    flagged = 0
    for (vid, seed), body in LOGS.items():
        rng = random.Random(f"{how}/{vid}/{seed}")
        broken = copy.deepcopy(body)
        index = CORRUPTIONS[how](broken, rng)
        if index is None:
            continue
        result = replayed(broken)
        assert result.first_illegal is not None and result.first_illegal.index == index, (vid, seed, how)
        assert len(result.entries) == index + 1
        assert all(e.verdict == LEGAL for e in result.entries[:index])
        first = result.first_illegal
        assert first.verdict == ILLEGAL and (first.reason is not None or first.ruling.verdict == ILLEGAL)
        flagged += 1
    assert flagged == len(LOGS), flagged  # every seeded log has a move to corrupt each way


def _short_log(cards) -> dict:
    hands = [["9H", "9S", "KH", "KS", "KD", "5C", "7D", "AH", "AS", "JK", "4C"],
             ["QH", "QS", "QD", "6C", "6D", "8H", "8S", "10H", "10S", "2C", "4D"],
             ["JH", "JS", "JD", "5H", "5S", "7H", "7S", "AC", "AD", "KC", "4H"],
             ["9C", "9D", "6H", "6S", "8C", "8D", "10C", "10D", "QC", "JC", "4S"]]
    return {"variant": "sv-classic", "players": 4,
            "deal": {"hands": hands, "discard_pile": ["7C"], "stock_count": 63},
            "moves": [{"player": 0, "action": {"type": "draw"}, "cards": cards},
                      {"player": 0, "action": {"type": "discard", "card": "4C"}}]}


def test_a_red_three_drawn_is_laid_out_and_replaced():
    result = replayed(_short_log(["3H", "5D"]))
    assert result.first_illegal is None and [e.verdict for e in result.entries] == [LEGAL, LEGAL]
    assert result.table.red_threes == [1, 0] and "5D" in result.table.hands[0] and "3H" not in result.table.hands[0]
    assert result.table.stock_count == 61 and result.table.seat == 1 and result.table.pile == ["7C", "4C"]
    short = replayed(_short_log(["3H"]))  # the replacement is missing from the log
    assert short.first_illegal.index == 0 and short.first_illegal.reason.key == "replay.draw_count"
    assert short.table.stock_count == 63  # the table after the last legal move: as dealt


def test_a_draw_bringing_a_card_the_deck_cannot_hold_is_the_first_illegal_move():
    """K♣ lies in the hands of seats 1 and 2; two decks hold two: a K♣ drawn is one too many."""
    log = _short_log(["KC"])
    log["deal"]["hands"][1][0] = "KC"
    result = replayed(log)
    first = result.first_illegal
    assert first is not None and first.index == 0 and first.ruling is None
    assert first.reason.key == "error.too_many_copies" and first.reason.args["limit"] == 2
    assert first.reason.args["card"].code == "KC"
    assert result.table.stock_count == 63 and "KC" not in result.table.hands[0]  # the table as dealt
    assert replayed(_short_log(["KC"])).first_illegal is None  # with one K♣ dealt, the second exists


def test_a_joker_too_many_drawn_is_the_first_illegal_move():
    log = _short_log(["JK"])
    for seat in (1, 2, 3):
        log["deal"]["hands"][seat][0] = "JK"  # with seat 0's: sv-classic's four
    first = replayed(log).first_illegal
    assert first.index == 0 and first.reason.key == "error.too_many_jokers"


@pytest.mark.parametrize("change, pointer, key", [
    (lambda deal: deal["hands"][0].__setitem__(slice(9, 11), ["6C", "6C"]), "/deal/hands/1/3", "error.too_many_copies"),
    (lambda deal: deal.update(discard_pile=["KC", "KC"], stock_count=62), "/deal/discard_pile/1", "error.too_many_copies"),
    (lambda deal: deal.update(stock_count=64), "/deal/stock_count", "error.more_than_deck"),
])
def test_a_deal_no_deck_can_deal_is_refused_with_a_pointer(change, pointer, key):
    log = _short_log(["5D"])
    change(log["deal"])
    with pytest.raises(ImpossibleInput) as refused:
        replay_request(log, VARIANTS)
    assert [(i.pointer, i.message.key) for i in refused.value.issues] == [(pointer, key)]
