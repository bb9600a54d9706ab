"""Situations for the rule-matrix test, built from one ordinary mid-game base.

Each case changes only what it is about, so the row reads as the dispute a
table would have.
"""

from __future__ import annotations

import copy

# The variants this repository ships, by id (file-name order). Tests that pin verdicts name them;
# tests of invariants run over whatever load_all() finds, so a fifth variant file needs no test edit.
SHIPPED = ("da-ludo", "no-pagat", "sv-classic", "sv-gamerules")


def base(**over) -> dict:
    """Four players, not the first round, the team opened with kings, a natural pile."""
    sit = {
        "players": 4,
        "first_round": False,
        "stock_count": 40,
        "discard_pile": ["6C", "8D", "9D"],
        "team": {"score": 1000, "melds": [["KH", "KS", "KD"]], "red_threes": 0},
        "opponents": {"score": 1200, "melds": [["QH", "QS", "QD"]], "red_threes": 0},
        "player": {"hand": ["9H", "9S", "JK", "5C", "7D", "AH"], "has_melded": True},
        "turn": {"drew": None, "cards_from_pile": []},
    }
    out = merge(sit, over)
    if "has_melded" not in (over.get("player") or {}):  # the player has melded only if the team has
        out["player"]["has_melded"] = bool(out["team"].get("melds"))
    return out


def merge(sit: dict, over: dict) -> dict:
    out = copy.deepcopy(sit)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def drawn(**over) -> dict:
    """The same base after a draw from the stock."""
    return base(turn={"drew": "stock", "cards_from_pile": []}, **over)


UNOPENED = {"team": {"score": 1000, "melds": [], "red_threes": 0}}
CANASTA_K = [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]]
