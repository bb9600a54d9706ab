"""Equivalent plays ask the same questions in the same order (issue 42's conditions under principle 3).

A ruling that lacks facts asks them in the order its checks meet them (``adjudicator.rules.conditions``), and the
checks meet the action's melds in the order they were written. So "9 9 9, 5 5 5" and "5 5 5, 9 9 9" asked "a
meld of nines?" and "a meld of fives?" in opposite orders: the same play, two answers' shapes -- at f7cd598, in 6
of 16 tables tried (four variants, four situations, three melds in every order). The questions of one kind now come in the
kind's own order (ranks from the ace down), so the conditions -- each fact, each value and the verdict it gives,
down every line -- are the same however the melds, and the cards in them, are written.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import load_all, rule, ruling_request

MELDS = [["9H", "9S", "9D"], ["5H", "5S", "5D", "2C"], ["KH", "KS", "JK"], ["7C", "7D", "7H"], ["QH", "QS", "QC"]]
SITUATIONS = [{}, {"turn": {"has_drawn": True}}, {"team": {"opened": True}},
              {"turn": {"has_drawn": True}, "team": {"opened": True}},
              {"team": {"melds": [["8H", "8S", "8D"]]}}, {"stock_empty": False, "first_round": False}]
VARIANTS = load_all()


def shape(ruling) -> tuple:
    """What a ruling says, whatever the order its play was written in: its verdict, and per fact asked (in order),
    each value with its verdict and what it leads to."""
    return (ruling.verdict, tuple((c.pointer, c.kind, tuple((ch.value, ch.verdict, shape(ch.ruling))
                                                           for ch in c.choices)) for c in ruling.conditions),
            tuple(sorted(ruling.missing)))


def ruled(variant: str, situation: dict, kind: str, melds: list) -> tuple:
    asked = ruling_request({"variant": variant, "situation": situation, "action": {"type": kind, "melds": melds}},
                           VARIANTS)
    return shape(rule(asked.situation, asked.action, asked.rules))


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(variant=st.sampled_from(sorted(VARIANTS)), situation=st.sampled_from(SITUATIONS),
       kind=st.sampled_from(["meld", "go_out"]),
       chosen=st.lists(st.sampled_from(range(len(MELDS))), min_size=2, max_size=3, unique=True),
       data=st.data())
def test_melds_written_in_another_order_ask_the_same_questions(variant, situation, kind, chosen, data):
    melds = [MELDS[i] for i in chosen]
    order = data.draw(st.permutations(range(len(melds))))
    reversed_cards = data.draw(st.booleans())
    other = [list(reversed(melds[i])) if reversed_cards else melds[i] for i in order]
    assert ruled(variant, situation, kind, other) == ruled(variant, situation, kind, melds)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_nines_and_fives_in_either_order(variant):
    """The case that showed it: after the draw, with the team's melds not said."""
    one = ruled(variant, {"turn": {"has_drawn": True}}, "meld", [MELDS[0], MELDS[1], MELDS[2]])
    other = ruled(variant, {"turn": {"has_drawn": True}}, "meld", [MELDS[2], MELDS[1], MELDS[0]])
    assert one == other
