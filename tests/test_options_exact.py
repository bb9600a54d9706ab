"""Every option listed is what ``rule()`` says of its move, whatever the parts cache holds (issue 33, break 1).

The options search decides most meld moves of a team that has opened from their parts' rulings, kept across
requests under the facts that change slowly (:mod:`adjudicator.options.parts`). A check that read a fact
left out of that key -- the review added three lines to ``rule_meld`` reading ``situation.stock_count`` --
once made ``/v1/options`` list a meld ``rule()`` refuses, and the cache kept it. Now the part's table
withholds every other fact (:class:`~adjudicator.model.situation.PartTable`): such a check finds it
missing and the move is ruled whole, so the answer stays right; and the direct read is counted, so the
last test here fails until the check reads the fact through the judge's ``need_*`` reader.

Generated tables (hypothesis, derandomized, bounded): for each, a twin with the same slow facts and other
fast ones (stock, pile, scores, red threes) fills the cache first ("warm"), then the table is listed again
with the cache emptied ("cold"): both times every option's verdict is ``rule()``'s verdict on its move.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import table_problems
from adjudicator.input.parse import options_request
from adjudicator.model import situation as situation_model
from adjudicator.options.listing import legal_moves
from adjudicator.rules.engine import rule
from adjudicator.variants import load_all
from test_options_complete import MELD_RANKS, deck

VARIANTS = load_all()
SETTINGS = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
STOCKS = (0, 1, 2, 7, 30)  # the last cards of the stock too: where a newcomer's check might look


@st.composite
def tables(draw, vid: str) -> tuple[dict, dict]:
    """A table of a team that has opened (its melds decided from their parts), 5-11 cards in hand, and its twin:
    the same slow facts with other fast ones."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cards = deck(vid)
    rng.shuffle(cards)

    def take(pred, n):
        got = [c for c in cards if pred(c)][:n]
        for c in got:
            cards.remove(c)
        return got

    ranks = rng.sample(MELD_RANKS, 5)
    melds = [take(lambda c, r=r: c != "JK" and c[:-1] == r, rng.randint(3, 5)) for r in ranks[:rng.randint(1, 3)]]
    hand = [c for r in ranks for c in take(lambda c, r=r: c != "JK" and c[:-1] == r, rng.randint(0, 3))]
    hand += take(lambda c: c == "JK" or c[:-1] == "2", rng.randint(0, 2))
    hand += take(lambda c: c[:-1] not in ("2", "3") and c != "JK", max(0, rng.randint(5, 11) - len(hand)))
    hand = hand[:11]

    def fast(stock: int) -> dict:
        return {"players": 4, "first_round": False, "stock_count": stock,
                "discard_pile": take(lambda c: True, rng.randint(0, 3)),
                "team": {"score": rng.choice((-200, 0, 1500, 3500)), "melds": melds, "red_threes": rng.randint(0, 2)},
                "opponents": {"score": rng.choice((0, 900)), "melds": [], "red_threes": rng.randint(0, 1)},
                "player": {"hand": hand, "has_melded": True}, "turn": {"drew": "stock", "cards_from_pile": []}}

    table, twin = fast(draw(st.sampled_from(STOCKS))), fast(draw(st.sampled_from(STOCKS)))
    twin["player"] = dict(table["player"])  # the same hand size: the slow facts are the same
    return table, twin


def _request(vid: str, situation: dict):
    return options_request({"variant": vid, "situation": situation}, VARIANTS)


def _listed_as_ruled(vid: str, situation: dict) -> int:
    """Every option of every group: its verdict is the one rule() gives its move on the real table."""
    request = _request(vid, situation)
    checked = 0
    for group in legal_moves(request.situation, request.rules).groups:
        verdicts = group.options.verdicts if hasattr(group.options, "verdicts") else [o.verdict for o in group.options]
        for verdict, option in zip(verdicts, group.options):
            ruled = rule(request.situation, option.action, request.rules).verdict
            assert verdict == ruled, (group.kind, option.key, option.body, verdict, ruled)
            checked += 1
    return checked


def _possible(vid: str, situation: dict) -> bool:
    request = _request(vid, situation)
    return not table_problems(request.situation, request.rules)


def _check(vid: str, pair: tuple[dict, dict]) -> None:
    table, twin = pair
    if not (_possible(vid, table) and _possible(vid, twin)):
        return
    VARIANTS[vid]._worked_out.clear()
    _listed_as_ruled(vid, twin)  # warm: the variant holds the twin's parts
    warm = _listed_as_ruled(vid, table)
    VARIANTS[vid]._worked_out.clear()
    cold = _listed_as_ruled(vid, table)
    assert warm == cold


@SETTINGS
@given(tables("sv-classic"))
def test_sv_classic_lists_what_rule_rules(pair):
    _check("sv-classic", pair)


@SETTINGS
@given(tables("no-pagat"))
def test_no_pagat_lists_what_rule_rules(pair):
    _check("no-pagat", pair)


@SETTINGS
@given(tables("da-ludo"))
def test_da_ludo_lists_what_rule_rules(pair):
    _check("da-ludo", pair)


@SETTINGS
@given(tables("sv-gamerules"))
def test_sv_gamerules_lists_what_rule_rules(pair):
    _check("sv-gamerules", pair)


def test_no_check_reads_a_withheld_fact_but_through_the_judge():
    """On a part's table a fact the cache key leaves out is read only through the judge's readers (need_*):
    a direct read is counted. A check that reads one directly (as the review's ``situation.stock_count`` in
    ``rule_meld``) makes this fail: the answers stay right (the part is set aside), but its parts never help."""
    before = dict(situation_model.DIRECT_READS)
    rng = random.Random("withheld")
    for vid in VARIANTS:
        for _ in range(3):
            table, twin = _seeded_pair(vid, rng)
            if _possible(vid, table):
                VARIANTS[vid]._worked_out.clear()
                _listed_as_ruled(vid, table)
    read = {k: v - before.get(k, 0) for k, v in situation_model.DIRECT_READS.items() if v != before.get(k, 0)}
    assert not read, f"checks read these withheld facts directly (read them through the judge's need_*): {read}"


def _seeded_pair(vid: str, rng: random.Random) -> tuple[dict, dict]:
    cards = deck(vid)
    rng.shuffle(cards)
    ranks = rng.sample(MELD_RANKS, 4)
    melds = []
    for r in ranks[:2]:
        meld = [c for c in cards if c != "JK" and c[:-1] == r][:3]
        for c in meld:
            cards.remove(c)
        melds.append(meld)
    hand = [c for c in cards if c != "JK" and c[:-1] in ranks][:8] + ["JK"]
    for c in hand:
        cards.remove(c)
    table = {"players": 4, "first_round": False, "stock_count": rng.choice(STOCKS), "discard_pile": cards[:2],
             "team": {"score": 1500, "melds": melds, "red_threes": 1},
             "opponents": {"score": 0, "melds": [], "red_threes": 0},
             "player": {"hand": hand, "has_melded": True}, "turn": {"drew": "stock", "cards_from_pile": []}}
    return table, table
