"""Replay, by self-play: whole games played by seeded random players replay without an illegal move, score as
``/v1/score`` scores them, and every corruption of a move is flagged exactly where it is, with its round.

The players (:mod:`selfplay`) pick among the moves ``legal_moves`` lists, in every variant and, for sv-classic,
with two, three and four players: they are dealt red threes and lay them out with their replacements as the
text says, ask their partners "may I go out?" and get both answers, write some go-outs as melds and a discard,
and play rounds until a team wins. The tables settle by house rule what a text leaves open about the empty
stock (:data:`selfplay.HOUSE`), and some games go to a lower target (:data:`TARGETS`: random players seldom
make canastas, and da-ludo's game to 10,000 takes them some forty rounds, too long for a test; the benchmark
plays every text's own target).

Each game is replayed from scratch as one log (``rounds``); then one move is corrupted -- a card not held, a
discard before drawing, a meld below the opening requirement, a move after the stock's last card was a red
three, a discard after a binding "no", a go-out after a "no", a discard after a binding "yes", a lay-out
without its replacement, an answer by an opponent, a question with no partner to ask -- and the replay must
stop at that move of that round, and not before.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.answers import serialize
from adjudicator.input.parse import action as parse_action
from adjudicator.input.payloads import replay_payload, score_payload
from adjudicator.input.replay_log import replay_request
from adjudicator.model.cards import RANKS, SUITS, is_red_three
from adjudicator.model.errors import AdjudicatorError, ImpossibleInput
from adjudicator.model.findings import ILLEGAL, LEGAL, UNDETERMINED
from adjudicator.replay import replay, situation_of
from adjudicator.rules.engine import rule
from adjudicator.variants import load_all
from replay_deal import HANDS
from selfplay import HOUSE, play_game

VARIANTS = load_all()
TABLES = [(vid, players) for vid in VARIANTS for players in VARIANTS[vid].value("players.supported")]
SEEDS = {2: 1, 3: 1, 4: 2}  # games per table, by players (everyone alone: one game each)
# Targets the self-play tables agree on where the text's would take a random player's game too long for a test
# (the text's own everywhere else; the benchmark plays every text's own).
TARGETS = {"da-ludo": {"4": 2500}, "sv-classic": {"2": 3000, "3": 3000, "4": 5000}}
GAMES = [(vid, players, seed) for vid, players in TABLES for seed in range(SEEDS.get(players, 1))]
BINDING = {("no-pagat", 4), ("sv-classic", 4)}  # "Svaret er bindende" / "Svaret är bindande"


@cache
def game(vid: str, players: int, seed: int) -> dict:
    house = dict(HOUSE.get(vid, {}))
    if vid in TARGETS:
        house["game.target"] = TARGETS[vid]
    return play_game(VARIANTS, vid, seed, players, house_rules=house)


@cache
def clean(vid: str, players: int, seed: int):
    return replay_payload(game(vid, players, seed), VARIANTS)


def replayed(body):
    return replay_payload(body, VARIANTS)


# ----------------------------------------------------------------------------------------------
# Clean games


@pytest.mark.parametrize("vid, players, seed", GAMES)
def test_a_self_played_game_replays_clean_to_a_winner(vid, players, seed):
    body = game(vid, players, seed)
    result = clean(vid, players, seed)
    assert result.first_illegal is None and result.undetermined is None
    assert len(result.rounds) == len(body["rounds"]) == result.rounds_given
    for r, (played, rnd) in enumerate(zip(result.rounds, body["rounds"])):
        assert played.ended and played.end is not None, r
        assert len(played.entries) == len(rnd["moves"]), r
        assert all(e.verdict == LEGAL for e in played.entries), r
        assert played.score is not None, (r, played.score_error)
        # the round scores as /v1/score scores its table, from the totals the round before left
        assert serialize.score(played.score, "en") == serialize.score(score_payload(played.score_request, VARIANTS),
                                                                     "en")
        if r:
            before = [t.total for t in result.rounds[r - 1].score.teams]
            assert [t["score_before"] for t in played.score_request["teams"]] == before
        went_out = [t for t in played.score_request["teams"] if t["went_out"]]
        assert len(went_out) == (1 if played.end.reason == "went_out" else 0)
    # the game scores as /v1/score scores its rounds: each round, the running totals, the next openings, the winner
    assert result.score_request["rounds"] == [{"teams": p.score_request["teams"]} for p in result.rounds]
    assert serialize.score(result.score, "en") == serialize.score(score_payload(result.score_request, VARIANTS), "en")
    assert result.game_over and result.score.winner is not None
    assert [t.total for t in result.score.teams] == [t.total for t in result.rounds[-1].score.teams]


def test_the_self_played_games_hold_every_event():
    """Red threes dealt and drawn, laid out and replaced; both answers, each followed by what it allows; a
    go-out written as melds and a discard; each of the ways a round ends."""
    kinds: Counter = Counter()
    for key in GAMES:
        body, result = game(*key), clean(*key)
        for rnd, played in zip(body["rounds"], result.rounds):
            kinds["red three dealt"] += any(is_red_three(c) for h in rnd["deal"]["hands"] for c in h)
            for m in rnd["moves"]:
                if m.get("event") == "lay_out":
                    kinds["laid out, replaced"] += bool(m["cards"])
                if m.get("event") == "answer":
                    kinds[f"answer {m['answer']}"] += 1
                if "action" in m and m["action"]["type"] == "draw":
                    kinds["red three drawn"] += any(is_red_three(c) for c in m["cards"])
            kinds["ruled together"] += any(len(e.together) > 1 for e in played.entries)
            kinds[f"ended: {played.end.reason}"] += 1
    for kind in ("red three dealt", "laid out, replaced", "answer yes", "answer no", "red three drawn",
                 "ruled together", "ended: went_out"):
        assert kinds[kind] >= 2, (kind, kinds)


def test_a_whole_game_is_answered_as_json(client):
    body = game("sv-classic", 4, 0)
    answer = client.post("/v1/replay", json=body).get_json()
    assert answer["first_illegal"] is None and answer["game_over"] and answer["score"]["winner"]
    assert answer["rounds_replayed"] == answer["rounds_given"] == len(body["rounds"])
    scored = client.post("/v1/score", json=answer["score_request"]).get_json()
    assert answer["score"] == scored
    last = answer["score"]["rounds"][-1]["teams"]
    assert all(t["opening_requirement"]["text"] for t in last)  # each team's next opening requirement


# ----------------------------------------------------------------------------------------------
# Corruptions: each flagged at its round and index


def _totals_before(result, r: int) -> list[int]:
    return [t["score_before"] for t in result.rounds[r].score_request["teams"]]


def _round_body(body: dict, result, r: int, upto: int | None = None) -> dict:
    rnd = body["rounds"][r]
    out = {"variant": body["variant"], "players": body["players"], "scores": _totals_before(result, r),
           "deal": rnd["deal"], "moves": rnd["moves"][:upto]}
    if body.get("house_rules"):
        out["house_rules"] = body["house_rules"]
    return out


def _before(body: dict, result, r: int, index: int):
    """The round's replay up to (not including) entry ``index`` -- the round read in its own form (its red
    threes laid out by its events, even where the first of them comes later)."""
    log = replay_request(_round_body(body, result, r), VARIANTS)
    return replay(dataclasses.replace(log, moves=log.moves[:index]))


def _moves(body: dict, rng: random.Random):
    """(round, index, move) of every entry, in a random order."""
    found = [(r, i, m) for r, rnd in enumerate(body["rounds"]) for i, m in enumerate(rnd["moves"])]
    rng.shuffle(found)
    return found


def _not_held(body, result, rng):
    """A discard's card swapped for one the player does not hold."""
    for r, index, move in _moves(body, rng):
        if move.get("action", {}).get("type") != "discard":
            continue
        hand = _before(body, result, r, index).table.hands[move["player"]]
        move["action"]["card"] = next(c for c in (rk + s for rk in RANKS for s in SUITS)
                                      if c not in hand and c[:-1] not in "23")
        return r, index
    return None


def _discard_before_drawing(body, result, rng):
    for r, index, move in _moves(body, rng):
        if move.get("action", {}).get("type") not in ("draw", "take_pile"):
            continue
        hand = _before(body, result, r, index).table.hands[move["player"]]
        body["rounds"][r]["moves"][index] = {"player": move["player"], "action": {"type": "discard", "card": hand[0]}}
        return r, index
    return None


def _meld_below_requirement(body, result, rng):
    """A move after a draw, by a team yet to open, replaced by a meld of low cards that the engine refuses for
    its opening value alone (three of a low rank, or two and a two)."""
    for r, index, move in sorted(_moves(body, rng)):
        if move.get("action", {}).get("type") not in ("meld", "discard", "go_out"):
            continue
        before = _before(body, result, r, index)
        seat = move["player"]
        if before.table.melds[seat % before.teams] or before.table.drew is None:
            continue
        hand = before.table.hands[seat]
        twos = [c for c in hand if c[:-1] == "2"]
        for rank in ("4", "5", "6", "7", "8"):
            same = [c for c in hand if c[:-1] == rank]
            meld = same[:3] if len(same) >= 3 else (same[:2] + twos[:1] if len(same) == 2 and twos else None)
            if meld is None:
                continue
            log = replay_request(_round_body(body, result, r, 0), VARIANTS)
            ruling = rule(situation_of(log, before.table, before.teams, seat), parse_action(
                {"type": "meld", "melds": [meld]}), log.rules)
            if {f.rule for f in ruling.findings if f.passed is False} == {"opening.minimum"}:
                body["rounds"][r]["moves"][index] = {"player": seat, "action": {"type": "meld", "melds": [meld]}}
                return r, index
    return None


def _after_last_red_three(body, result, rng):
    """The stock made to run out at a draw whose last card is a red three (the deal's stock cut to what was
    drawn before, and one card): the player's next move comes after the round stopped (every table here
    stops it at once: no-pagat's text, the others' house rule)."""
    for r, index, move in _moves(body, rng):
        moves = body["rounds"][r]["moves"]
        if move.get("action", {}).get("type") != "draw" or index + 1 >= len(moves) or \
                moves[index + 1].get("player") != move["player"] or "action" not in moves[index + 1]:
            continue
        before = _before(body, result, r, index)
        shown = Counter(c for h in before.table.hands for c in h) + Counter(before.table.pile)
        if sum(before.table.red_threes) + shown["3H"] + shown["3D"] >= VARIANTS[body["variant"]].red_threes_in_deck:
            continue
        card = "3H" if shown["3H"] < VARIANTS[body["variant"]].value("deck.decks") else "3D"
        deal = body["rounds"][r]["deal"]
        deal["stock_count"] -= before.table.stock_count - 1
        move["cards"] = [card]
        return r, index + 1
    return None


def _binding_no_then_discard(body, result, rng):
    """The question right after the draw (the moment every text allows it: no-pagat's "rett etter trekk eller
    opptak av bunken, før videre melding"), a "no", then a go-out written as its melds and the discard that goes
    out: the melds, which leave only the card to discard, are the first move the answer forbids (going out all
    the same; flagged where the answer binds, undetermined where the text does not say it binds)."""
    for r, index, move in _moves(body, rng):
        act = move.get("action", {})
        if act.get("type") != "go_out" or not act.get("discard") or not (act.get("melds") or act.get("add")):
            continue
        if any(c in ("3C", "3S") for meld in act.get("melds", ()) for c in meld):
            continue  # black threes are melded only in the go-out itself: the meld alone is illegal before the ask
        seat = move["player"]
        moves = body["rounds"][r]["moves"]
        turn = index
        while turn and not (moves[turn - 1].get("action", {}).get("type") in ("draw", "take_pile")):
            turn -= 1
        if any(m.get("event") == "ask" for m in moves[turn:index]):
            continue  # asked already this turn
        took = moves[turn - 1].get("action", {}) if turn else {}
        if took.get("melds") or took.get("add"):
            continue  # the take melded more than its top card: too late to ask where the text gives the moment
        partner = (seat + body["players"] // 2) % body["players"]
        lay = {"type": "meld", **{k: act[k] for k in ("melds", "add") if k in act}}
        body["rounds"][r]["moves"][index:index + 1] = [
            {"player": seat, "action": lay}, {"player": seat, "action": {"type": "discard", "card": act["discard"]}}]
        body["rounds"][r]["moves"][turn:turn] = [{"player": seat, "event": "ask"},
                                                 {"player": partner, "event": "answer", "answer": "no"}]
        del body["rounds"][r]["moves"][index + 4:]
        return r, index + 2
    return None


def _flipped_answer(want: str, then: str):
    """An answer that came before a ``then`` move turned into ``want`` ("no" before a go-out, "yes" before a
    discard that does not go out, melds between them): that move is the first the answer forbids."""
    def corrupt(body, result, rng):
        for r, index, move in _moves(body, rng):
            moves = body["rounds"][r]["moves"]
            if move.get("event") != "answer" or move["answer"] == want:
                continue
            nxt = next((j for j in range(index + 1, len(moves)) if "action" in moves[j] and (
                then == "go_out" or moves[j]["action"]["type"] != "meld")), None)  # melds may come before a discard
            if nxt is None or moves[nxt]["action"]["type"] != then:
                continue
            move["answer"] = want
            return r, nxt
        return None
    return corrupt


def _lay_out_short(body, result, rng):
    """A lay-out that leaves out the card that replaced a red three."""
    for r, index, move in _moves(body, rng):
        if move.get("event") == "lay_out" and move["cards"]:
            move["cards"] = move["cards"][:-1]
            return r, index
    return None


def _answer_by_an_opponent(body, result, rng):
    for r, index, move in _moves(body, rng):
        if move.get("event") == "answer":
            move["player"] = (move["player"] + 1) % body["players"]
            return r, index
    return None


def _ask_without_partner(body, result, rng):
    """A question put in right after a draw at a table where everyone plays alone."""
    for r, index, move in _moves(body, rng):
        if move.get("action", {}).get("type") == "draw":
            body["rounds"][r]["moves"].insert(index + 1, {"player": move["player"], "event": "ask"})
            return r, index + 1
    return None


CORRUPTIONS = {
    "card not held": (_not_held, None),
    "discard before drawing": (_discard_before_drawing, None),
    "meld below the opening requirement": (_meld_below_requirement, None),
    "move after a last-card red three": (_after_last_red_three, None),
    "discard after a binding no": (_binding_no_then_discard, "partners"),
    "go-out after a no": (_flipped_answer("no", "go_out"), "partners"),
    "discard after a binding yes": (_flipped_answer("yes", "discard"), "partners"),
    "lay-out short of its replacement": (_lay_out_short, None),
    "answer by an opponent": (_answer_by_an_opponent, "partners"),
    "question with no partner": (_ask_without_partner, "alone"),
}


def _tables(which):
    alone = {(vid, p) for vid, p in TABLES if p in (2, 3)}
    return [k for k in GAMES if which is None or ((k[0], k[1]) in alone) == (which == "alone")]


@pytest.mark.parametrize("how", list(CORRUPTIONS))
def test_a_corrupted_move_is_flagged_exactly_there(how):
    corrupt, which = CORRUPTIONS[how]
    flagged = []
    for key in _tables(which):
        body = copy.deepcopy(game(*key))
        place = corrupt(body, clean(*key), random.Random(f"{how}/{key}"))
        if place is None:
            continue
        r, index = place
        result = replayed(body)
        bound = (key[0], key[1]) in BINDING or which != "partners" or how == "answer by an opponent"
        assert all(p.first_illegal is None and p.ended for p in result.rounds[:r]), (key, how)
        played = result.rounds[r]
        if not bound:  # the text does not say the answer binds: the move is undetermined, and the round goes on
            assert result.first_illegal is None or (result.first_illegal_round, result.first_illegal.index) > place
            assert played.entries[index].verdict == UNDETERMINED, (key, how)
            assert "go_out.ask_partner" in dict(played.entries[index].ruling.open_points), (key, how)
            flagged.append(key)
            continue
        first = result.first_illegal
        assert first is not None and (result.first_illegal_round, first.index) == place, \
            (key, how, place, first and (result.first_illegal_round, first.index, first.reason, first.ruling))
        assert len(played.entries) == index + 1
        assert all(e.verdict != ILLEGAL for e in played.entries[:index])
        assert first.verdict == ILLEGAL and (first.reason is not None or first.ruling.verdict == ILLEGAL)
        assert first.pointer.startswith(f"/rounds/{r}/moves/{index}")
        flagged.append(key)
    tables = _tables(which)
    assert len(flagged) >= max(1, len(tables) // 2), (how, flagged)  # most games have a move to corrupt each way
    if which == "partners":
        assert any((k[0], k[1]) in BINDING for k in flagged), (how, flagged)


# ----------------------------------------------------------------------------------------------
# Short logs in the form before events (existing clients)


def _short_log(cards) -> dict:
    hands = [list(h) for h in HANDS]
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


def test_a_dealt_red_three_without_events_is_laid_out_before_the_first_move():
    """The form before events: the hands as dealt, red threes included, no replacement in the log."""
    log = _short_log(["5D"])
    log["deal"]["hands"][1][10] = "3D"
    result = replayed(log)
    assert result.first_illegal is None and result.table.red_threes == [0, 1]
    assert "3D" not in result.table.hands[1] and len(result.table.hands[1]) == 10


def test_a_draw_bringing_a_card_the_deck_cannot_hold_is_the_first_illegal_move():
    """K♣ lies in the hands of seats 1 and 2; two decks hold two: a K♣ drawn is one too many."""
    log = _short_log(["KC"])
    log["deal"]["hands"][1][0] = "KC"
    result = replayed(log)
    first = result.first_illegal
    assert first is not None and first.index == 0 and first.ruling is None
    assert first.reason.key == "error.too_many_copies" and first.reason.args["limit"] == 2
    assert first.reason.args["card"].code == "KC" and first.pointer == "/moves/0/cards/0"
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


def test_an_unscorable_round_stops_the_game_with_the_problem():
    """da-ludo gives no value for a black three: a round that ends with one in a hand cannot be scored, so
    the totals the next round starts from are not known, and the game stops there with /v1/score's problem."""
    body = game("da-ludo", 4, 0)
    house = {k: v for k, v in body["house_rules"].items() if k != "card_value.black_three"}
    for r, played in enumerate(clean("da-ludo", 4, 0).rounds):
        if any(c in ("3C", "3S") for t in played.score_request["teams"] for c in t["hand"]):
            break
    else:
        pytest.skip("no round of this game ends with a black three in hand")
    result = replayed({**body, "house_rules": house})
    assert len(result.rounds) == r + 1 and result.rounds[r].score is None and result.first_illegal is None
    with pytest.raises(AdjudicatorError) as refused:
        score_payload(result.rounds[r].score_request, VARIANTS)
    assert result.rounds[r].score_error.same_as(refused.value)


# ----------------------------------------------------------------------------------------------
# Any corruption: answered, and every fault found in the log


LOG_ROOTS = ("/rounds/", "/scores", "/players", "/house_rules", "/variant")
CARDS = [r + s for r in RANKS for s in SUITS] + ["JK", "3H", "3D"]


@st.composite
def corrupted(draw_):
    body = copy.deepcopy(game("sv-classic", 4, 0))
    for _ in range(draw_(st.integers(1, 3))):
        r = draw_(st.integers(0, len(body["rounds"]) - 1))
        moves = body["rounds"][r]["moves"]
        i = draw_(st.integers(0, len(moves) - 1))
        how = draw_(st.sampled_from(["seat", "card", "drop", "again", "stock", "event"]))
        if how == "seat":
            moves[i]["player"] = draw_(st.integers(0, 3))
        elif how == "card":
            target = moves[i].get("cards") or moves[i].get("red_threes") or \
                [c for m in moves[i].get("action", {}).get("melds", []) for c in m]
            if moves[i].get("action", {}).get("type") == "discard":
                moves[i]["action"]["card"] = draw_(st.sampled_from(CARDS))
            elif target:
                target[draw_(st.integers(0, len(target) - 1))] = draw_(st.sampled_from(CARDS))
        elif how == "drop":
            del moves[i]
        elif how == "again":
            moves.insert(i, copy.deepcopy(moves[i]))
        elif how == "stock":
            body["rounds"][r]["deal"]["stock_count"] = max(0, body["rounds"][r]["deal"]["stock_count"]
                                                           + draw_(st.integers(-40, 3)))
        else:
            moves.insert(i, draw_(st.sampled_from([
                {"player": moves[i]["player"], "event": "ask"},
                {"player": (moves[i]["player"] + 2) % 4, "event": "answer", "answer": "yes"},
                {"player": moves[i]["player"], "event": "lay_out", "red_threes": ["3H"], "cards": ["5D"]}])))
        if not moves:
            moves.append({"player": 0, "action": {"type": "draw"}, "cards": ["5D"]})
    return body


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(body=corrupted())
def test_any_corrupted_game_is_answered_with_its_faults_in_the_log(body):
    """Whatever is changed, the replay answers -- a flagged move, an undetermined stop or a 422 -- and every
    place it names is in the log, never in a situation the request does not hold."""
    try:
        result = replayed(body)
    except AdjudicatorError as refused:
        assert all(i.pointer.startswith(LOG_ROOTS) for i in refused.issues), refused
        return
    said = serialize.replay(result, "en")
    for place in (said["first_illegal"], said["undetermined"]):
        if place is not None:
            assert place["pointer"].startswith(f"/rounds/{place['round']}/moves/{place['index']}"), place
    assert "/situation" not in str(said)
