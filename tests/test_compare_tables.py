"""Every case of the ruling matrix and of the scoring table, compared across all variants.

Each compare entry must be exactly what the single-variant endpoint gives for
that variant: the ruling or score itself, or the problem it raises.
"""

from __future__ import annotations

import pytest

from engine_json import InputError, adjudicate, compare, problem_of, score
from adjudicator.variants import load_all
from ruling_table import HOUSE_RULES, ROWS
from test_scoring import CASES as SCORE_CASES

VARIANTS = load_all()


def _single(run, payload: dict, vid: str) -> dict:
    try:
        return {"ok": run({**payload, "variant": vid}, VARIANTS)}
    except InputError as e:
        return {"problem": problem_of(e)}


def _check(kind: str, run, payload: dict) -> None:
    try:
        result = compare(payload, VARIANTS)
    except InputError as e:  # a fault of the request itself: every variant raises the same
        singles = [_single(run, payload, vid) for vid in VARIANTS]
        assert all("problem" in s and s["problem"]["errors"] == problem_of(e)["errors"] for s in singles)
        return
    assert [r["variant"] for r in result["results"]] == list(VARIANTS)
    for entry in result["results"]:
        single = _single(run, payload, entry["variant"])
        if "problem" in single:
            assert entry["problem"] == single["problem"]
        else:
            assert entry[kind] == single["ok"]
    outcomes = {(r[kind]["verdict"] if kind == "ruling" else str([t["total"] for t in r[kind]["teams"]]))
                for r in result["results"] if kind in r}
    ruled_out = any(r.get("problem", {}).get("type") == "impossible-input" for r in result["results"])
    assert result["agree"] == (len(outcomes) <= 1 and not (ruled_out and outcomes))  # a table ruled out differs
    assert len(result["groups"]) == len(outcomes)
    if ruled_out and outcomes:
        assert result["differences"][0]["rule"] == "table.possible"


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_every_ruling_row_compares_to_its_single_rulings(row):
    name, situation, action, _rule, _codes = row
    payload = {"situation": situation, "action": action}
    if HOUSE_RULES.get(name):
        payload["house_rules"] = HOUSE_RULES[name]
    _check("ruling", adjudicate, payload)


@pytest.mark.parametrize("case", SCORE_CASES, ids=[c[0] for c in SCORE_CASES])
def test_every_scored_round_compares_to_its_single_scores(case):
    _name, _variant, players, house, teams, _expected = case
    payload = {"teams": teams, "players": players}
    if house:
        payload["house_rules"] = house
    _check("score", score, payload)
