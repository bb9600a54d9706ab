"""The parts' rulings kept across requests (:mod:`adjudicator.options.parts`) change no answer: a listing made
with the variant's parts warm -- from other tables with the same melds, turn and hand size -- equals the one made
with none kept, move by move and verdict by verdict; and the slow table a part is ruled on leaves facts out as
missing, never as given."""

from __future__ import annotations

import random

import pytest

from adjudicator.input.parse import options_request
from adjudicator.model.actions import Action
from adjudicator.model.findings import UNDETERMINED
from adjudicator.model.situation import MissingFact, part_table
from adjudicator.options.listing import legal_moves
from adjudicator.options.every import Hand, Readings, build, layouts
from adjudicator.options.listing import search_readings
from adjudicator.options.parts import Parts, part_ruling
from adjudicator.rules.engine import rule, rule_checked
from adjudicator.rules.table_check import table_doubt
from adjudicator import table_problems

from test_options_complete import IDS, MELD_RANKS, VARIANTS, deck

CASES = 12


def _answer(vid: str, situation: dict) -> list[tuple]:
    request = options_request({"variant": vid, "situation": situation}, VARIANTS)
    options = legal_moves(request.situation, request.rules)
    return [(g.kind, g.count, g.complete, [(o.key, o.verdict) for o in g.options]) for g in options.groups]


def _tables(vid: str) -> list[dict]:
    """Tables of a team that has opened, with hands of 8-14 cards around its ranks: most moves are decided
    from parts (the brute force's hands, mostly small or just after a take, seldom are)."""
    rng = random.Random(f"parts/{vid}")
    out = []
    while len(out) < CASES:
        cards = deck(vid)
        rng.shuffle(cards)

        def take(pred, n):
            got = [c for c in cards if pred(c)][:n]
            for c in got:
                cards.remove(c)
            return got
        ranks = rng.sample(MELD_RANKS, 5)
        melds = [take(lambda c, r=r: c != "JK" and c[:-1] == r, rng.randint(3, 5)) for r in ranks[:rng.randint(1, 3)]]
        hand = [c for r in ranks for c in take(lambda c, r=r: c != "JK" and c[:-1] == r, rng.randint(1, 3))]
        hand += take(lambda c: c == "JK" or c[:-1] == "2", rng.randint(0, 2))
        hand += take(lambda c: c[:-1] not in ("2", "3") and c != "JK", max(0, rng.randint(8, 14) - len(hand)))
        situation = {"players": 4, "first_round": False, "stock_count": 30, "discard_pile": take(lambda c: True, 2),
                     "team": {"score": 1000, "melds": melds, "red_threes": 0},
                     "opponents": {"score": 0, "melds": [], "red_threes": 0},
                     "player": {"hand": hand, "has_melded": True},
                     "turn": {"drew": rng.choice(("stock", "pile")), "cards_from_pile": []}}
        request = options_request({"variant": vid, "situation": situation}, VARIANTS)
        if not table_problems(request.situation, request.rules):
            out.append(situation)
    return out


def _twin(situation: dict) -> dict:
    """The same slow facts (melds, turn, hand size) with the fast ones changed: pile, stock, scores."""
    return {**situation, "discard_pile": [], "stock_count": 7,
            "team": {**situation["team"], "score": 2500, "red_threes": 0},
            "opponents": {"score": -300, "melds": [], "red_threes": 1}}


def parts_kept(vid: str) -> int:
    """How many parts' rulings the variant object keeps."""
    return sum(1 for make, _ in VARIANTS[vid]._worked_out if make is part_ruling)


def forget(vid: str) -> None:
    """The variant object as loaded: nothing worked out yet (its parts, its citations)."""
    VARIANTS[vid]._worked_out.clear()


@pytest.mark.parametrize("vid", IDS)
def test_a_cached_answer_equals_an_uncached_one(vid):
    used = 0
    for situation in _tables(vid):
        forget(vid)
        cold = _answer(vid, situation)
        used += parts_kept(vid) > 0
        forget(vid)
        _answer(vid, _twin(situation))  # the variant now holds the twin's parts
        assert _answer(vid, situation) == cold
        assert _answer(vid, situation) == cold  # and its own
    assert used == CASES  # every table decided moves from parts

@pytest.mark.parametrize("vid", IDS)
def test_a_move_decided_from_its_parts_is_ruled_so_whole(vid):
    """Every layout the walk finds, illegal ones too: where its parts decide it, the engine gives the move
    itself the same verdict on the real table."""
    decided = 0
    for situation in _tables(vid)[:3]:
        request = options_request({"variant": vid, "situation": situation}, VARIANTS)
        sit, rules = request.situation, request.rules
        chosen = search_readings(sit, rules, True)
        forget(vid)
        parts = Parts(sit, rules, [dict(values) for values, _ in chosen], table_doubt(rules, sit))
        hand = Hand(sit)
        spots, found, _ = layouts(hand, sit.team.melds, Readings([variant for _, variant in chosen]))
        for content, _ in found:
            if len(sit.hand) - sum(sum(c.values()) for c in content.values()) < 2:
                continue
            verdict = parts.verdict(hand, spots, content)
            if verdict is not None:
                decided += 1
                action = build("meld", hand, spots, content)
                assert rule(sit, action, rules).verdict == verdict, action
    assert decided > 50


def test_the_slow_table_leaves_the_fast_facts_missing_and_a_check_that_needs_one_says_so():
    request = options_request({"variant": "sv-classic", "situation": {
        "players": 4, "first_round": False, "stock_count": 30, "discard_pile": ["5C"],
        "team": {"score": 1600, "melds": [], "red_threes": 0}, "opponents": {"score": 0, "melds": [], "red_threes": 0},
        "player": {"hand": ["KC", "KH", "KS", "5D", "7C"], "has_melded": False}, "turn": {"drew": "stock"}}}, VARIANTS)
    table = part_table(request.situation)
    for name in ("hand", "pile", "stock_count"):  # withheld: missing, whichever way a check reads them
        with pytest.raises(MissingFact):
            getattr(table, name)
    with pytest.raises(MissingFact):
        table.team.score
    assert table.hand_count == 5 and table.team.melds == () and table.drew == "stock"
    # an opening reads the team's score: on the slow table it is missing, so the part is never decided there
    ruling = rule_checked(table, Action("meld", melds=(("KC", "KH", "KS"),)), request.rules, None)
    assert ruling.verdict == UNDETERMINED and any(m.endswith("/team/score") for m in ruling.missing)
