"""``legal_moves``: every option it lists is ruled as listed, and no legal move is missing.

Two properties over random legal situations in every variant (``load_all()``), then hand-worked
cases per variant.

**Sound.** Every option is ruled ``legal`` (or, flagged so, ``undetermined``) by the adjudicator:
``rule()`` on its typed action in its group's situation, and ``/v1/adjudicate``'s own path
(``ruling_request``) on its JSON ``body``, give the option's verdict.

**Complete**: ``tests/test_options_complete.py`` rules every candidate move in canonical form and finds the
legal ones to be exactly the listed ones.
"""

from __future__ import annotations

import random
from itertools import product
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.model.actions import Action, Add
from adjudicator.model.cards import RANKS, SUITS, is_red_three
from adjudicator.rules.engine import rule
from adjudicator.model.findings import ILLEGAL, LEGAL, UNDETERMINED
from adjudicator.rules.melds import sure_rank
from adjudicator.options.listing import AFTER_DRAW, BEFORE_DRAW, legal_moves
from adjudicator.options.body import action_body
from adjudicator.input.parse import action as parse_action, options_request, ruling_request
from adjudicator.model.situation import NOT_GIVEN, Side, Situation
from adjudicator.variants import load_all

VARIANTS = load_all()
IDS = tuple(VARIANTS)
RANK_KEYS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
SCORES = (0, 1600, 3200, 7000, -50)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)


# ----------------------------------------------------------------------------------------------
# Random legal situations


def deck(vid: str) -> list[str]:
    rules = VARIANTS[vid]
    cards = [r + s for r in RANKS for s in SUITS] * rules.value("deck.decks") + ["JK"] * rules.value("deck.jokers")
    return [c for c in cards if not is_red_three(c)]  # red threes are laid out at once, never held


@st.composite
def situations(draw, vid: str, max_hand: int = 8) -> dict:
    """A situation JSON the variant accepts: proper team melds, a hand with pairs and wild cards in it.

    Its shape comes from one drawn seed (hypothesis would shrink every count to its smallest)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cards = deck(vid)
    rng.shuffle(cards)

    def take(pred, n: int) -> list[str]:
        out = [c for c in cards if pred(c)][:n]
        for c in out:
            cards.remove(c)
        return out

    melds = []
    for r in rng.sample(RANK_KEYS, rng.choice((0, 1, 1, 2, 2, 3))):
        size = 7 if rng.random() < 0.4 else rng.randint(3, 6)
        meld = take(lambda c, r=r: c != "JK" and c[:-1] == r, size)
        if len(meld) >= 4 and rng.random() < 0.3:
            meld = meld[:-1] + take(lambda c: c == "JK", 1)
        if len(meld) >= 3:
            melds.append(meld)
    hand: list[str] = []
    size = rng.randint(max(1, max_hand // 2), max_hand) if rng.random() < 0.8 else rng.randint(1, 3)
    for _ in range(rng.randint(0, 3)):
        r = rng.choice(RANK_KEYS + ("3",) + tuple(sure_rank(m) for m in melds))
        hand += take(lambda c, r=r: c != "JK" and c[:-1] == r, rng.randint(1, 3))
    hand += take(lambda c: c == "JK" or c[:-1] == "2", rng.choice((0, 0, 1, 1, 2)))
    hand = (hand + take(lambda c: True, max(0, size - len(hand))))[:size]
    rng.shuffle(hand)
    pile = take(lambda c: True, rng.randint(0, 4))
    naturals = [c for c in hand if c[:-1] not in ("2", "3") and c != "JK"]
    if naturals and rng.random() < 0.6:
        pile += take(lambda c, r=rng.choice(naturals)[:-1]: c != "JK" and c[:-1] == r, 1)
    drew = rng.choice([None, None, "stock", "stock", "pile", NOT_GIVEN])
    if drew == "pile":  # a pile taken this turn is gone, and its top card lies in a meld of the team
        cards += pile
        pile = []
        drew = drew if melds else "stock"
    score = rng.choice(SCORES)
    if melds and score >= 6000 and not any(len(m) >= 7 for m in melds):
        score -= 3000  # da-ludo's top band opens only with a canasta, and a canasta stays on the table
    situation = {
        "players": rng.choice(VARIANTS[vid].value("players.supported")),
        "first_round": not melds and rng.random() < 0.15,
        "stock_count": rng.choice([0, 1, 30, 30, 30]),
        "discard_pile": pile,
        "team": {"score": score, "melds": melds, "red_threes": rng.randint(0, 1)},
        "opponents": {"score": 0, "melds": [], "red_threes": 0},
        "player": {"hand": hand, "has_melded": bool(melds) and rng.random() < 0.5},
    }
    if drew != NOT_GIVEN:
        situation["turn"] = {"drew": drew, "cards_from_pile": rng.sample(hand, min(len(hand), 2))
                             if drew == "pile" and rng.random() < 0.5 else []}
    return situation


def parsed(vid: str, situation: dict, house_rules=None):
    return options_request({"variant": vid, "situation": situation, "house_rules": house_rules}, VARIANTS)


def group_situation(situation: dict, group) -> dict:
    """The situation as a group's rulings take it (with the ``drew`` it assumes)."""
    if not group.assumed:
        return situation
    return {**situation, "turn": {"drew": group.drew, "cards_from_pile": []}}


# ----------------------------------------------------------------------------------------------
# Soundness


@pytest.mark.parametrize("vid", IDS)
@SETTINGS
@given(data=st.data())
def test_every_option_is_ruled_as_listed(vid, data):
    situation = data.draw(situations(vid, max_hand=14))
    request = parsed(vid, situation)
    options = legal_moves(request.situation, request.rules)
    for group in options.groups:
        sit = replace(request.situation, drew=group.drew) if group.assumed else request.situation
        assert group.possible is (True if any(o.verdict == LEGAL for o in group.options) else
                                  (None if group.options or group.missing else False))
        if group.options:
            assert group.blocked is None
        for option in group.options:
            assert option.verdict in (LEGAL, UNDETERMINED), option.key
            assert rule(sit, option.action, request.rules).verdict == option.verdict, option.key
            assert parse_action(option.body) == option.action
            again = ruling_request({"variant": vid, "situation": group_situation(situation, group),
                                    "action": option.body}, VARIANTS)
            assert rule(again.situation, again.action, again.rules).verdict == option.verdict, option.key
            if option.verdict == UNDETERMINED:
                ruling = option.ruling
                assert ruling.missing or ruling.not_stated or ruling.readings, option.key
        if group.blocked is not None:
            assert group.blocked.verdict != LEGAL


# ----------------------------------------------------------------------------------------------
# Hand-worked cases, per variant

DRAWN = {"drew": "stock", "cards_from_pile": []}
NOT_DRAWN = {"drew": None, "cards_from_pile": []}
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]


def table(**over) -> dict:
    """Four players, not the first round; the team opened with kings; a natural pile topped by a nine."""
    sit = {"players": 4, "first_round": False, "stock_count": 40, "discard_pile": ["6C", "8D", "9D"],
           "team": {"score": 1000, "melds": [["KH", "KS", "KD"]], "red_threes": 0},
           "opponents": {"score": 1200, "melds": [["QH", "QS", "QD"]], "red_threes": 0},
           "player": {"hand": ["9H", "9S", "JK", "5C", "7D", "AH"], "has_melded": True}, "turn": NOT_DRAWN}
    sit.update(over)
    return sit


def moves(vid: str, situation: dict, house_rules=None):
    request = parsed(vid, situation, house_rules)
    return legal_moves(request.situation, request.rules)


def keys(options, kind: str) -> dict:
    return {o.key: o for o in options.group(kind).options}


def failing(ruling) -> set[str]:
    return {f.rule for f in ruling.findings if f.passed is False}


@pytest.mark.parametrize("vid", IDS)
def test_the_phase_follows_from_drew(vid):
    before = moves(vid, table())
    assert before.phase == BEFORE_DRAW and [g.kind for g in before.groups] == ["draw", "take_pile"]
    after = moves(vid, table(turn=DRAWN))
    assert after.phase == AFTER_DRAW and [g.kind for g in after.groups] == ["meld", "go_out", "discard"]
    both = moves(vid, {k: v for k, v in table().items() if k != "turn"})
    assert both.phase == "unknown"
    assert [(g.kind, g.drew, g.assumed) for g in both.groups] == [
        ("draw", None, True), ("take_pile", None, True), ("meld", "stock", True), ("go_out", "stock", True),
        ("discard", "stock", True)]
    draw = keys(before, "draw")["draw"]
    assert draw.verdict == LEGAL and draw.body == {"type": "draw"}
    assert draw.message.key == "options.draw.stock" and draw.message.args["count"] == 1


@pytest.mark.parametrize("vid", IDS)
def test_frozen_pile_with_a_natural_pair(vid):
    options = moves(vid, table(discard_pile=["6C", "JK", "8D", "9D"]))
    takes = keys(options, "take_pile")
    assert "take_pile:natural_and_wild" not in takes  # a natural and a wild card do not take a frozen pile
    assert all(sum(1 for c in o.action.with_cards if c[:-1] == "9") >= 2 for o in takes.values())
    pair = takes["take_pile:natural_pair"]
    assert pair.verdict == LEGAL and pair.body == {"type": "take_pile", "with": ["9H", "9S"]}
    assert "consequence.take_rest" in {c.key for c in pair.ruling.consequences}
    assert all(f.citations for f in pair.ruling.findings if f.rule.startswith("pile."))


@pytest.mark.parametrize("vid", IDS)
def test_frozen_pile_without_a_natural_pair(vid):
    options = moves(vid, table(discard_pile=["6C", "JK", "8D", "9D"],
                               player={"hand": ["9H", "JK", "5C", "7D"], "has_melded": True}))
    group = options.group("take_pile")
    assert group.possible is False and not group.options
    assert failing(group.blocked) == {"pile.frozen.natural_pair"}
    finding = next(f for f in group.blocked.findings if f.rule == "pile.frozen.natural_pair")
    assert finding.message.key == "pile.frozen_pair_short_wild" and finding.citations


@pytest.mark.parametrize("vid", IDS)
def test_an_unfrozen_pile_takes_a_natural_and_a_wild_card(vid):
    options = moves(vid, table(player={"hand": ["9H", "JK", "5C", "7D"], "has_melded": True}))
    takes = keys(options, "take_pile")
    assert takes["take_pile:natural_and_wild"].body == {"type": "take_pile", "with": ["9H", "JK"]}
    assert takes["take_pile:natural_and_wild"].verdict == LEGAL


HAND_TO_OPEN = ["9H", "9S", "KH", "KS", "KC", "AH", "AS", "JK", "5C"]
# the hand cards the take uses beyond the natural pair, per opening requirement (50, 90, 120)
EXTRA_CARDS = {"da-ludo": {0: 1, 1600: 3, 3200: 6}, "no-pagat": {0: 1, 1600: 3, 3200: 3},
               "sv-classic": {0: 1, 1600: 3, 3200: 3}, "sv-gamerules": {0: 1, 1600: 3, 3200: 3}}


@pytest.mark.parametrize("vid", IDS)
@pytest.mark.parametrize("score, need", [(0, 50), (1600, 90), (3200, 120)])
def test_an_unopened_team_opens_with_the_top_card(vid, score, need):
    options = moves(vid, table(team={"score": score, "melds": [], "red_threes": 0},
                               player={"hand": HAND_TO_OPEN, "has_melded": False}))
    assert options.requirement.points == need
    pair = keys(options, "take_pile")["take_pile:natural_pair"]
    assert pair.points >= need and pair.action.with_cards == ("9H", "9S")
    assert len(pair.cards) - 2 == EXTRA_CARDS[vid][score]  # the cheapest melds that reach the minimum
    # sv-gamerules reads "a team that has not opened may not take the pile" two ways
    assert pair.verdict == (UNDETERMINED if vid == "sv-gamerules" else LEGAL)
    if vid == "sv-gamerules":
        assert {r.verdict for r in pair.ruling.readings} == {LEGAL, ILLEGAL}
        assert "pile.before_opening" in pair.ruling.not_stated
    opening = next(f for f in pair.ruling.findings if f.rule == "opening.minimum")
    assert opening.passed is True and opening.citations


@pytest.mark.parametrize("vid", IDS)
def test_an_unopened_team_meets_its_requirement_after_drawing(vid):
    options = moves(vid, table(turn=DRAWN, team={"score": 1600, "melds": [], "red_threes": 0},
                               player={"hand": ["9H", "9S", "9C", "JK", "2C", "5C", "AH", "AS", "AD"],
                                       "has_melded": False}))
    melds = keys(options, "meld")
    cheapest = melds["opening:cheapest"]
    assert cheapest.points >= 90 and cheapest.verdict in (LEGAL, UNDETERMINED)
    keeps = melds.get("opening:keeps_wilds", cheapest)
    wild = lambda o: sum(1 for c in o.cards if c == "JK" or c[:-1] == "2")  # noqa: E731
    assert wild(keeps) <= wild(cheapest) and len(keeps.cards) >= len(cheapest.cards)
    ranks = {sure_rank(list(m)) for o in melds.values() for m in o.action.melds}
    assert {"9", "A"} <= ranks  # every rank that can open has an opening listed


def test_da_ludo_opens_with_a_canasta_from_6000():
    hand = ["9H", "9S", "9C", "9D", "9H", "JK", "JK", "5C", "AH", "AS", "AD"]
    options = moves("da-ludo", table(turn=DRAWN, team={"score": 7000, "melds": [], "red_threes": 0},
                                     player={"hand": hand, "has_melded": False}))
    assert options.requirement.canasta_required and options.requirement.points is None
    cheapest = keys(options, "meld")["opening:cheapest"]
    assert cheapest.verdict == LEGAL and any(len(m) >= 7 for m in cheapest.action.melds)
    canasta = next(f for f in cheapest.ruling.findings if f.rule == "opening.canasta_required")
    assert canasta.passed is True and canasta.citations
    short = moves("da-ludo", table(turn=DRAWN, team={"score": 7000, "melds": [], "red_threes": 0},
                                   player={"hand": ["9H", "9S", "9C", "JK", "5C", "AH", "AS", "AD"],
                                           "has_melded": False}))
    group = short.group("meld")
    assert group.possible is False and failing(group.blocked) == {"opening.canasta_required"}
    # the other texts ask 120 points in that band, no canasta
    classic = moves("sv-classic", table(turn=DRAWN, team={"score": 7000, "melds": [], "red_threes": 0},
                                        player={"hand": ["9H", "9S", "9C", "JK", "5C", "AH", "AS", "AD"],
                                                "has_melded": False}))
    assert classic.requirement.points == 120 and classic.group("meld").possible is True


@pytest.mark.parametrize("vid", IDS)
def test_going_out_without_a_canasta(vid):
    options = moves(vid, table(turn=DRAWN, player={"hand": ["AH", "AD", "AS", "5C"], "has_melded": True}))
    group = options.group("go_out")
    if vid == "da-ludo":  # four players need no canasta to go out; the round then counts negative
        way = group.options[0]
        assert group.possible is True and way.body == {"type": "go_out", "melds": [["AD", "AH", "AS"]],
                                                       "discard": "5C"}
        assert "consequence.no_canasta_all_negative" in {c.key for c in way.ruling.consequences}
    else:
        assert group.possible is False and failing(group.blocked) == {"go_out.canasta_required"}


# concealed: sv-classic allows it outright; sv-gamerules defines it as melding the whole hand in one go, so a
# go-out ending with a discard is concealed only under one reading (None: it depends); no-pagat needs a canasta
# laid in the turn; da-ludo has no concealed going out
CONCEALED = {"da-ludo": False, "no-pagat": False, "sv-classic": True, "sv-gamerules": None}


@pytest.mark.parametrize("vid", IDS)
def test_going_out_with_a_canasta(vid):
    options = moves(vid, table(turn=DRAWN, team={"score": 1000, "melds": [CANASTA_K, ["9H", "9S", "9D"]]},
                               player={"hand": ["AH", "AD", "AS", "5C"], "has_melded": False}))
    way = options.group("go_out").options[0]
    assert way.verdict == LEGAL and way.action.discard == "5C" and way.concealed is CONCEALED[vid]
    assert moves(vid, table(turn=DRAWN, team={"score": 1000, "melds": [CANASTA_K]},
                            player={"hand": ["AH", "AD", "AS", "5C"], "has_melded": True})
                 ).group("go_out").options[0].concealed is False


@pytest.mark.parametrize("vid", IDS)
def test_discarding_a_black_three(vid):
    options = moves(vid, table(turn=DRAWN, player={"hand": ["3S", "9H", "JK", "5C"], "has_melded": True}))
    discards = keys(options, "discard")
    three = {c.key for c in discards["discard:3S"].ruling.consequences}
    # sv-gamerules: a black three freezes the pile; the others: it blocks the next player
    assert three == {"consequence.black_three_freezes" if vid == "sv-gamerules" else "consequence.black_three_blocks"}
    assert {c.key for c in discards["discard:JK"].ruling.consequences} == {"consequence.wild_freezes"}
    assert not discards["discard:5C"].ruling.consequences


@pytest.mark.parametrize("vid", IDS)
def test_a_black_three_on_top_blocks_the_take(vid):
    options = moves(vid, table(discard_pile=["8D", "9D", "3C"],
                               player={"hand": ["3S", "3S", "9H", "9S"], "has_melded": True}))
    group = options.group("take_pile")
    assert group.possible is False and failing(group.blocked) == {"pile.top.black_three"}


@pytest.mark.parametrize("vid", IDS)
def test_black_threes_are_melded_only_going_out(vid):
    options = moves(vid, table(turn=DRAWN, team={"score": 1000, "melds": [CANASTA_K]},
                               player={"hand": ["3S", "3C", "3S", "5C"], "has_melded": True}))
    assert not options.group("meld").options
    way = options.group("go_out").options[0]
    assert way.verdict == LEGAL and way.action.melds == (("3C", "3S", "3S"),) and way.action.discard == "5C"


def test_an_empty_stock():
    empty = table(stock_count=0, discard_pile=["6C", "8D", "KC"])
    # sv-classic: the round ends when a player "måste dra från den utan att kunna fortsätta" -- read two ways
    # where the top card fits the team's kings (#43): drawing ends the round, or the pile must be taken
    fits = keys(moves("sv-classic", empty), "draw")["draw"]
    assert fits.verdict == UNDETERMINED and {dict(r.values)["stock.empty_forced_take"]: r.verdict
                                             for r in fits.ruling.readings} == {False: LEGAL, True: ILLEGAL}
    classic = keys(moves("sv-classic", table(stock_count=0, discard_pile=["6C", "8D", "7C"])), "draw")["draw"]
    assert classic.verdict == LEGAL and {c.key for c in classic.ruling.consequences} == {"consequence.round_ends"}
    assert classic.message.key == "options.draw.empty_stock"
    pagat = moves("no-pagat", empty)  # the top card fits the team's kings: the pile must be taken
    assert pagat.group("draw").possible is False and failing(pagat.group("draw").blocked) == {
        "stock.empty.forced_take"}
    assert keys(pagat, "take_pile")["take_pile:onto_meld"].verdict == LEGAL
    ludo = keys(moves("da-ludo", empty), "draw")["draw"]  # the text does not say what an empty stock means
    assert ludo.verdict == UNDETERMINED and ludo.ruling.readings


def test_twos_in_da_ludo_are_listed_undetermined():
    hand = ["QH", "QS", "2C", "5C", "7D"]
    options = moves("da-ludo", table(turn=DRAWN, player={"hand": hand, "has_melded": True}))
    queens = keys(options, "meld")["meld:Q"]
    assert queens.action.melds == (("QH", "QS", "2C"),) and queens.verdict == UNDETERMINED
    assert queens.ruling.not_stated == ("wild.twos",) and {r.verdict for r in queens.ruling.readings} == {
        LEGAL, ILLEGAL}
    settled = moves("da-ludo", table(turn=DRAWN, player={"hand": hand, "has_melded": True}),
                    house_rules={"wild.twos": True})
    assert keys(settled, "meld")["meld:Q"].verdict == LEGAL
    with_joker = moves("da-ludo", table(turn=DRAWN, player={"hand": hand + ["JK"], "has_melded": True}))
    assert keys(with_joker, "meld")["meld:Q"].action.melds == (("QH", "QS", "JK"),)  # the legal way first


@pytest.mark.parametrize("vid", IDS)
def test_melds_and_additions_by_rank(vid):
    hand = ["9H", "9S", "9C", "KC", "7D", "7H", "JK", "5C", "4S", "4D"]
    options = moves(vid, table(turn=DRAWN, player={"hand": hand, "has_melded": True}))
    melds = keys(options, "meld")
    assert melds["meld:9"].action.melds == (("9C", "9H", "9S"),) and melds["meld:9"].way == "all_naturals"
    assert melds["add:K"].action.adds[0].cards == ("KC",)
    assert melds["add_wild:K"].action.adds[0].cards == ("JK",)
    sevens = melds["meld:7"]
    assert sevens.way == "with_wilds" and sevens.action.melds == (("7D", "7H", "JK"),)
    assert "meld:5" not in melds  # one five cannot make a meld


def test_cards_from_the_pile_wait_for_the_next_turn_in_da_ludo():
    situation = table(turn={"drew": "pile", "cards_from_pile": ["7D", "7H"]}, discard_pile=[],
                      player={"hand": ["9H", "9S", "9C", "7D", "7H", "7S", "5C"], "has_melded": True})
    ludo = keys(moves("da-ludo", situation), "meld")
    assert "meld:9" in ludo and "meld:7" not in ludo  # one own seven is no meld
    assert "meld:7" in keys(moves("sv-classic", situation), "meld")


def test_without_the_hand_only_the_draw_is_listed():
    options = moves("sv-classic", table(player={"hand_count": 5}))
    assert options.group("draw").possible is True
    take = options.group("take_pile")
    assert take.possible is None and take.missing == ("/situation/player/hand",)


@pytest.mark.parametrize("vid", IDS)
@pytest.mark.parametrize("opened", [True, False])
def test_the_largest_hand_a_deck_allows(vid, opened):
    """A whole deck in hand (less the pile and the team's kings): the search stays bounded and sound."""
    hand = deck(vid)
    melds = [["KH", "KS", "KD"]] if opened else []
    for c in ["6C", "8D", "9D"] + [c for m in melds for c in m]:
        hand.remove(c)
    situation = table(turn=DRAWN, stock_count=0, opponents={"score": 0, "melds": [], "red_threes": 0},
                      team={"score": 3200, "melds": melds, "red_threes": 0},
                      player={"hand": hand, "has_melded": False})
    request = parsed(vid, situation)
    options = legal_moves(request.situation, request.rules)
    for option in options.all():
        assert rule(request.situation, option.action, request.rules).verdict == option.verdict
    assert options.group("meld").possible is True and options.group("go_out").options


def test_an_opening_that_hangs_on_the_figure_below_zero():
    """da-ludo gives no opening figure below zero: under one reading (0) any meld opens. The search must not
    take "nothing laid yet" for an opening when the requirement is nothing (a bug the brute force found)."""
    options = moves("da-ludo", table(turn=DRAWN, team={"score": -50, "melds": [], "red_threes": 1},
                                     player={"hand": ["9H", "9S", "9S", "3C"], "has_melded": False}))
    nines = keys(options, "meld")["opening:cheapest"]
    assert nines.action.melds == (("9H", "9S", "9S"),) and nines.verdict == UNDETERMINED
    assert "opening.negative" in nines.ruling.not_stated
    assert {r.verdict for r in nines.ruling.readings} == {LEGAL, ILLEGAL}


# --- one opening requirement: what the listing reports is what the search plans for ---------------

@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_the_listing_and_the_search_agree_on_the_opening_requirement(vid):
    """Every variant, scores across every band (and none given), melds none, given empty or laid: the listing's
    ``requirement`` and the search's target are one answer; with no score given, or melds laid, it is None (no
    guess), where the search used to plan for a score of 0. With the melds not given it is read from the score
    alone (#42: "is this enough to open?" before any meld is entered)."""
    from adjudicator.options.hand import view
    from adjudicator.options.needs import opening_requirement
    rules = VARIANTS[vid]
    hand = ("9H", "9S", "9D", "KH", "KS", "JK", "5C", "5D", "5S")
    seen = []
    # the laid meld is a canasta: a team on 6,000 or more in da-ludo cannot have melds without one
    canasta = ("QH", "QS", "QD", "QC", "QH", "QS", "QD")
    for score, melds in product((None, -150, 0, 1600, 3200, 6200), (None, (), (canasta,))):
        situation = Situation(players=4, hand=hand, drew="stock", team=Side(score=score, melds=melds))
        listed = legal_moves(situation, rules).requirement
        planned = opening_requirement(view(situation, rules, True), situation)
        assert listed == planned, (score, melds)
        if score is None or melds:
            assert listed is None, (score, melds)
        elif melds is None:
            assert listed == legal_moves(replace(situation, team=Side(score=score, melds=())), rules).requirement
        seen.append(listed)
    assert any(r is not None for r in seen)  # the grid does reach the bands
