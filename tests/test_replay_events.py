"""A log that holds every event of a real round: red threes dealt and laid out with the cards that replaced
them, in each variant's own rule; the question "may I go out?" and the partner's answer; and a replay that
rules what follows an answer exactly as ``/v1/adjudicate`` rules it.

* Red threes: no-pagat "Alle legger straks ut røde treere fra hånden og trekker erstatningskort. Nye røde
  treere legges også ut og erstattes."; sv-classic "lägger ut dem direkt framför dig så fort du får dem – på
  handen från början eller genom att dra dem – och drar sedan ett nytt kort från stocken" (two, three and four
  players); sv-gamerules "måste han lägga den med bildsidan uppåt på bordet och ersätta den med ett annat
  kort"; da-ludo "I første runde lægger hver spiller eventuelle røde 3'ere ned. For hver rød 3'er trækkes
  straks et ekstra kort." (at the player's turn in the first round).
* The answer: no-pagat and sv-classic bind ("Svaret er bindende"); da-ludo and sv-gamerules do not say, so
  what the answer forbids there is undetermined, with the point to settle.
* One truth: every action of self-played games is ruled by the replay as ``/v1/adjudicate`` rules the same
  situation (its partner's answer included), except the moves of one turn ruled together as one laying,
  whose ruling is ``/v1/adjudicate``'s for that one laying.
"""

from __future__ import annotations

import copy

import pytest

from adjudicator.input.payloads import adjudicate, replay_payload
from adjudicator.input.replay_log import replay_request
from adjudicator.model.errors import ImpossibleInput, MalformedRequest
from adjudicator.model.findings import ILLEGAL, LEGAL, UNDETERMINED
from adjudicator.model.requests import Event
from adjudicator.options.body import action_body
from adjudicator.replay import event_step, new_table, situation_of, step
from adjudicator.variants import load_all
from replay_deal import HANDS
from replay_deal import KINGS as CANASTA
from selfplay import HOUSE, play_game

VARIANTS = load_all()


def replayed(body):
    return replay_payload(body, VARIANTS)


def draw(seat, cards):
    return {"player": seat, "action": {"type": "draw"}, "cards": cards}


def discard(seat, card):
    return {"player": seat, "action": {"type": "discard", "card": card}}


def lay_out(seat, reds, cards):
    return {"player": seat, "event": "lay_out", "red_threes": reds, "cards": cards}


def ask(seat):
    return {"player": seat, "event": "ask"}


def answer(seat, said):
    return {"player": seat, "event": "answer", "answer": said}


def deal_for(vid: str, players: int) -> dict:
    """A deal of the variant's size for ``players``, a red three in seat 0's hand and one in the last seat's."""
    each = VARIANTS[vid].value("deal.cards")[players]
    deck = [r + s for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4") for s in "SHDC"] * 2
    hands = [deck[i * each:(i + 1) * each] for i in range(players)]
    hands[0][-1], hands[-1][-1] = "3H", "3D"
    used = players * each
    return {"hands": hands, "discard_pile": [deck[used]],
            "stock_count": VARIANTS[vid].deck_size - used - 1}, deck[used + 1:]


# ----------------------------------------------------------------------------------------------
# Red threes dealt, laid out and replaced


TABLES = [("no-pagat", 4), ("sv-classic", 2), ("sv-classic", 3), ("sv-classic", 4), ("sv-gamerules", 4),
          ("da-ludo", 4)]


@pytest.mark.parametrize("vid, players", TABLES)
def test_dealt_red_threes_are_laid_out_and_replaced_in_each_variants_rule(vid, players):
    """Each dealt red three is laid out by its player and replaced from the stock -- before the first move, or
    (da-ludo) at the player's own turn in the first round -- and the hands are whole again."""
    deal, rest = deal_for(vid, players)
    draws = VARIANTS[vid].value("draw.cards")[players]
    first = [lay_out(0, ["3H"], [rest[0]])]
    last = lay_out(players - 1, ["3D"], ["3H", rest[1]])  # its replacement a red three, laid out and replaced too
    turns = []
    for seat in range(players):
        drawn = rest[2 + seat * draws: 2 + (seat + 1) * draws]
        turns += ([last] if vid == "da-ludo" and seat == players - 1 else []) + \
            [draw(seat, drawn), discard(seat, deal["hands"][seat][0])]
    moves = first + ([] if vid == "da-ludo" else [last]) + turns
    body = {"variant": vid, "players": players, "deal": deal, "moves": moves}
    result = replayed(body)
    assert result.first_illegal is None and result.undetermined is None, result.first_illegal
    assert all(e.verdict == LEGAL for e in result.entries)
    size = VARIANTS[vid].value("deal.cards")[players]
    assert [len(h) for h in result.table.hands] == [size + draws - 1] * players  # whole hands, no red three
    assert not any(c in ("3H", "3D") for h in result.table.hands for c in h)
    teams = len(result.table.red_threes)
    laid = [0] * teams
    laid[0] += 1
    laid[(players - 1) % teams] += 2
    assert result.table.red_threes == laid
    assert result.table.stock_count == deal["stock_count"] - 3 - players * draws
    said = [e for e in result.entries if e.event == "lay_out"]
    assert len(said) == 2 and said[1].said.args["red_threes"].codes == ("3D", "3H")


def test_a_lay_out_short_of_a_replacement_is_flagged_there():
    deal, rest = deal_for("no-pagat", 4)
    result = replayed({"variant": "no-pagat", "players": 4, "deal": deal,
                       "moves": [lay_out(0, ["3H"], []), draw(0, [rest[0]])]})
    first = result.first_illegal
    assert first.index == 0 and first.reason.key == "replay.replacement_count" and first.pointer == "/moves/0/cards"


def test_a_red_three_kept_in_hand_stays_in_the_hand_in_the_new_form():
    """Once a log lays out red threes itself, a dealt red three is in the hand until its lay-out: the situation
    the engine rules holds it (whether that is allowed is the engine's to say)."""
    deal, rest = deal_for("sv-classic", 4)
    log = replay_request({"variant": "sv-classic", "players": 4, "deal": deal,
                          "moves": [lay_out(0, ["3H"], [rest[0]]), draw(0, [rest[1]])]}, VARIANTS)
    table = new_table(log, 2)
    assert "3D" in table.hands[3] and "3H" in table.hands[0]  # nothing laid out before the events say so
    assert table.red_threes == [0, 0]


def test_a_lay_out_by_another_player_after_play_began_is_out_of_turn():
    deal, rest = deal_for("no-pagat", 4)
    result = replayed({"variant": "no-pagat", "players": 4, "deal": deal,
                       "moves": [lay_out(0, ["3H"], [rest[0]]), draw(0, [rest[1]]), lay_out(3, ["3D"], [rest[2]])]})
    assert result.first_illegal.index == 2 and result.first_illegal.reason.key == "replay.out_of_turn"


@pytest.mark.parametrize("entry, pointer, error", [
    ({"player": 0, "event": "lay_out", "red_threes": ["4C"]}, "/moves/0/red_threes/0", ImpossibleInput),
    ({"player": 0, "event": "lay_out"}, "/moves/0/red_threes", MalformedRequest),
    ({"player": 0, "event": "answer", "answer": "maybe"}, "/moves/0/answer", MalformedRequest),
    ({"player": 0, "event": "shuffle"}, "/moves/0/event", MalformedRequest),
    ({"player": 0, "event": "ask", "action": {"type": "draw"}}, "/moves/0/action", MalformedRequest),
    ({"player": 0, "action": {"type": "draw"}, "answer": "yes"}, "/moves/0/answer", MalformedRequest),
    ({"player": 0}, "/moves/0/action", MalformedRequest),
])
def test_an_entry_that_says_the_wrong_things_is_refused_at_its_member(entry, pointer, error):
    deal, _ = deal_for("no-pagat", 4)
    with pytest.raises(error) as refused:
        replay_request({"variant": "no-pagat", "players": 4, "deal": deal, "moves": [entry]}, VARIANTS)
    assert pointer in [i.pointer for i in refused.value.issues]


def test_both_forms_at_once_are_refused():
    deal, _ = deal_for("no-pagat", 4)
    with pytest.raises(MalformedRequest) as refused:
        replay_request({"variant": "no-pagat", "players": 4, "deal": deal, "moves": [],
                        "rounds": [{"deal": deal, "moves": []}]}, VARIANTS)
    assert [i.pointer for i in refused.value.issues] == ["/rounds"]


# ----------------------------------------------------------------------------------------------
# The question and the answer


def _going_out(vid: str, answer_: str | None, after: list, drawn: str = "AC") -> dict:
    """Seat 0 holds a canasta of kings, which it lays, three aces and a five; right after drawing, it asks (the
    moment every text allows: no-pagat's "rett etter trekk eller opptak av bunken, før videre melding")."""
    hands = copy.deepcopy(HANDS)
    hands[0] = CANASTA + ["AH", "AD", "AS", "5C"]
    hands[2][9] = "6D"  # both K♣ are seat 0's
    moves = [draw(0, [drawn])]
    if answer_ is not None:
        moves += [ask(0), answer(2, answer_)]
    moves.append({"player": 0, "action": {"type": "meld", "melds": [CANASTA]}})
    return {"variant": vid, "players": 4, "deal": {"hands": hands, "discard_pile": ["7C"], "stock_count": 63},
            "moves": moves + after}


GO_OUT = {"player": 0, "action": {"type": "go_out", "melds": [["AH", "AD", "AS", "AC"]], "discard": "5C"}}
STAY = discard(0, "5C")


@pytest.mark.parametrize("vid", ["no-pagat", "sv-classic"])
def test_a_binding_answer_is_ruled_in_what_follows(vid):
    """After a "no" going out is illegal; after a "yes" a turn may not end without going out."""
    no_out = replayed(_going_out(vid, "no", [GO_OUT]))
    assert no_out.first_illegal.index == 4 and "go_out.partner_answer" in {
        f.rule for f in no_out.first_illegal.ruling.failed()}
    yes_stay = replayed(_going_out(vid, "yes", [STAY]))
    assert yes_stay.first_illegal.index == 4 and yes_stay.first_illegal.ruling.verdict == ILLEGAL
    for said, after in (("yes", GO_OUT), ("no", STAY)):
        fine = replayed(_going_out(vid, said, [after]))
        assert fine.first_illegal is None and fine.entries[4].verdict == LEGAL
    assert replayed(_going_out(vid, "yes", [GO_OUT])).end.reason == "went_out"


@pytest.mark.parametrize("vid", ["da-ludo", "sv-gamerules"])
def test_where_the_text_does_not_say_the_answer_binds_what_it_forbids_is_undetermined(vid):
    hands = _going_out(vid, "no", [GO_OUT])
    if vid == "da-ludo":  # thirteen cards each
        for h, extra in zip(hands["deal"]["hands"][1:], (["3C", "3S"], ["9D", "10D"], ["JD", "QD"])):
            h += extra
        hands["deal"]["hands"][0] = CANASTA + ["AH", "AD", "AS", "5C", "5D", "5S"]
        hands["moves"][-1] = {"player": 0, "action": {"type": "go_out", "melds": [["AH", "AD", "AS", "AC"],
                                                                                   ["5C", "5D", "5S"]]}}
        hands["deal"]["stock_count"] = 110 - 53
        hands["house_rules"] = HOUSE["da-ludo"]
        # nobody opens in da-ludo's first round: a round of draws and discards comes first
        hands["moves"][:0] = [m for seat, card in enumerate(("9H", "10C", "QC", "JS"))
                              for m in (draw(seat, [card]), discard(seat, card))]
    result = replayed(hands)
    entry = result.entries[-1]
    assert entry.index == len(hands["moves"]) - 1
    assert entry.verdict == UNDETERMINED and "go_out.ask_partner" in dict(entry.ruling.open_points), entry


def test_an_answer_must_follow_a_question_by_the_partner():
    nobody = replayed(_going_out("no-pagat", None, [answer(2, "yes")]))
    assert nobody.first_illegal.index == 2 and nobody.first_illegal.reason.key == "replay.answer_without_question"
    body = _going_out("no-pagat", "yes", [GO_OUT])
    body["moves"][2]["player"] = 1  # an opponent answers
    wrong = replayed(body)
    assert wrong.first_illegal.index == 2 and wrong.first_illegal.reason.key == "replay.not_partner"
    # sv-classic lets the partner be asked at any time before going out ("innan du går ut")
    body = _going_out("sv-classic", None, [ask(0), GO_OUT])  # nobody answers
    waiting = replayed(body)
    assert waiting.first_illegal.index == 3 and waiting.first_illegal.reason.key == "replay.unanswered"
    again = replayed(_going_out("sv-classic", "no", [ask(0), answer(2, "yes"), GO_OUT]))
    assert again.first_illegal.index == 4 and again.first_illegal.reason.key == "replay.asked_again"


@pytest.mark.parametrize("players", [2, 3])
def test_a_question_without_a_partner_is_flagged_with_the_rule(players):
    """sv-classic: "2 spelare: ni spelar var för sig" -- nobody has a partner to ask."""
    deal, rest = deal_for("sv-classic", players)
    draws = VARIANTS["sv-classic"].value("draw.cards")[players]
    body = {"variant": "sv-classic", "players": players, "deal": deal,
            "moves": [lay_out(0, ["3H"], [rest[0]]), lay_out(players - 1, ["3D"], [rest[1]]),
                      draw(0, rest[2:2 + draws]), ask(0)]}
    first = replayed(body).first_illegal
    assert first.index == 3 and first.event == "ask" and first.reason.key == "error.rule_failed"
    assert first.reason.args["rule"] == "go_out.partner_answer"


# ----------------------------------------------------------------------------------------------
# One truth: the replay rules each action as /v1/adjudicate does


def situation_json(sit) -> dict:
    return {"players": sit.players, "first_round": sit.first_round, "stock_count": sit.stock_count,
            "discard_pile": list(sit.pile),
            "team": {"score": sit.team.score, "melds": [list(m) for m in sit.team.melds],
                     "red_threes": sit.team.red_threes},
            "opponents": {"score": sit.opponents.score, "melds": [list(m) for m in sit.opponents.melds],
                          "red_threes": sit.opponents.red_threes},
            "player": {"hand": list(sit.hand), "has_melded": sit.has_melded},
            "turn": {"drew": sit.drew, "cards_from_pile": list(sit.cards_from_pile),
                     "partner_answer": sit.partner_answer, "asked_after_melding": sit.asked_after_melding}}


@pytest.mark.parametrize("vid", ["no-pagat", "sv-classic", "da-ludo"])
def test_every_action_is_ruled_as_adjudicate_rules_its_situation(vid):
    body = play_game(VARIANTS, vid, 3, 4, house_rules={**HOUSE.get(vid, {}), "game.target": {"4": 1500}})
    compared = answered = 0
    whole = replay_payload(body, VARIANTS)
    for r, rnd in enumerate(body["rounds"]):
        if compared > 50 and answered >= 1:
            break  # enough: the rest of the game is replayed by the other tests
        scores = [t["score_before"] for t in whole.rounds[r].score_request["teams"]]
        log = replay_request({"variant": vid, "players": 4, "house_rules": body.get("house_rules"),
                              "scores": scores, **rnd}, VARIANTS)
        teams = len(log.scores)
        table = new_table(log, teams)
        for index, item in enumerate(log.moves):
            if isinstance(item, Event):
                assert event_step(log, table, teams, index, item).verdict == LEGAL
                continue
            sit = situation_json(situation_of(log, table, teams, item.player))
            entry = step(log, table, teams, index, item)
            if entry.together:
                continue  # ruled as the turn's one laying (tests/test_replay_endings.py)
            payload = {"variant": vid, "situation": sit, "action": action_body(item.action),
                       "house_rules": body.get("house_rules")}
            ruled = adjudicate(payload, VARIANTS)
            assert ruled.verdict == entry.verdict, (r, index)
            assert [f.rule for f in ruled.failed()] == [f.rule for f in entry.ruling.failed()]
            compared += 1
            answered += sit["turn"]["partner_answer"] is not None
    assert compared > 50 and answered >= 1, (compared, answered)


# ----------------------------------------------------------------------------------------------
# Where the replay waits for an engine fix (issue 31): written against the right answer


def test_after_a_binding_no_a_meld_that_leaves_one_card_is_the_first_illegal_move():
    body = _going_out("sv-classic", "no", [{"player": 0, "action": {"type": "meld", "melds": [
        ["AH", "AD", "AS", "AC"]]}}, discard(0, "5C")])
    first = replayed(body).first_illegal
    assert first is not None and first.index == 4


def test_a_take_that_leaves_one_card_without_a_canasta_is_the_first_illegal_move():
    hands = copy.deepcopy(HANDS)
    hands[1] = ["QH", "QS", "6C", "6D", "6S", "8H", "8S", "8C", "10H", "10S", "2C"]
    body = {"variant": "no-pagat", "players": 4,
            "deal": {"hands": hands, "discard_pile": ["7C"], "stock_count": 63}, "moves": [
                draw(0, ["QD"]), discard(0, "QD"),
                {"player": 1, "action": {"type": "take_pile", "with": ["QH", "QS"], "melds": [
                    ["6C", "6D", "6S"], ["8H", "8S", "8C"], ["10H", "10S", "2C"]]}},  # the seven of clubs is left
                discard(1, "7C")]}
    first = replayed(body).first_illegal
    assert first is not None and first.index == 2, first
