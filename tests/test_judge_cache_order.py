"""A check's words are worked out once per variant and kept (``Judge._record``'s cache). What a ruling says must
not hang on what the same variant was asked before: a draw whose stock is not given cites the empty-stock rule's
parameter (it read none of them) whether or not a draw from an empty stock was ruled first -- found by the
phone's engine (asked in another order) differing from the service in the whole suite."""

from __future__ import annotations

import pytest

from adjudicator.input.parse import ruling_request
from adjudicator.rules.engine import rule
from adjudicator.variants import load_all

VARIANTS = load_all()


def _draw(vid: str, stock: int | None) -> dict:
    return {"variant": vid, "situation": {
        "players": 4, "first_round": False, "stock_count": stock, "discard_pile": ["6C", "8D", "9D"],
        "team": {"score": 1000, "melds": [["KH", "KS", "KD"]], "red_threes": 0},
        "opponents": {"score": 1200, "melds": [["QH", "QS", "QD"]], "red_threes": 0},
        "player": {"hand": ["9H", "9S", "5C"], "has_melded": True}, "turn": {"drew": None}},
        "action": {"type": "draw"}}


def _said(vid: str, order: tuple) -> dict:
    fresh = VARIANTS[vid].with_entries({})  # its own cache of words, as a newly started service has
    out = {}
    for stock in order:
        request = ruling_request(_draw(vid, stock), VARIANTS)
        ruling = rule(request.situation, request.action, fresh)
        out[stock] = ([i.parameter for i in ruling.interpretations], [f.rule for f in ruling.findings],
                      ruling.verdict)
    return out


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_a_ruling_says_the_same_whatever_was_asked_before(vid):
    assert _said(vid, (None, 0)) == _said(vid, (0, None))
