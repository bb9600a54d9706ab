"""``POST /v1/replay``: a whole round replayed move by move, the first illegal move flagged with its ruling.

The body is a log (:mod:`adjudicator.replay`): ``{variant, players, house_rules?,
lang?, scores?, deal: {hands, discard_pile, stock_count}, moves: [{player, action,
cards?}]}``. The answer has one entry per move ruled, ``first_illegal`` (null, or
the move's index with its full ruling or the reason the log cannot hold it), the
table after the last legal move, and -- when the round ended -- its score exactly
as ``/v1/score`` gives it for the table as it lies (``score_request`` is that body).
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.words.render import render, summary
from adjudicator.input.payloads import replay_payload

from adjudicator.answers import serialize
from . import budgets
from .language import current_language
from .problems import json_body
from .variants_api import loaded_variants

bp = Blueprint("replay", __name__, url_prefix="/v1")


@bp.post("/replay")
def replay_log():
    body, variants = json_body(), loaded_variants()
    budgets.admit("replay", body, variants)  # priced before any work (issue 36)
    return jsonify(replayed(replay_payload(body, variants), current_language()))


def replayed(r, lang: str) -> dict:
    """The replay as JSON: entries in short, the first illegal move in full, the table, the score."""
    first = r.first_illegal
    table = r.table
    return {
        "variant": r.variant,
        "moves_ruled": len(r.entries),
        "entries": [_entry(e, lang) for e in r.entries],
        "first_illegal": None if first is None else {
            "index": first.index, "player": first.player,
            "reason": None if first.reason is None else {**first.reason.code(), "text": render(first.reason, lang)},
            "ruling": None if first.ruling is None else serialize.ruling(first.ruling, lang)},
        "table": {"to_play": table.seat, "drew": table.drew, "stock_count": table.stock_count,
                  "discard_pile": list(table.pile), "hands": [list(h) for h in table.hands],
                  "teams": [{"melds": [list(m) for m in table.melds[t]], "red_threes": table.red_threes[t],
                             "opened": bool(table.melds[t])} for t in range(r.teams)],
                  "has_melded": list(table.melded), "went_out": table.went_out},
        "ended": r.ended,
        "score_request": r.score_request,
        "score": None if r.score is None else serialize.score(r.score, lang),
        "score_problem": None if r.score_error is None else serialize.problem_members(r.score_error, lang),
    }


def _entry(e, lang: str) -> dict:
    out = {"index": e.index, "player": e.player, "verdict": e.verdict,
           "rules": [] if e.ruling is None else list(dict.fromkeys(f.rule for f in e.ruling.findings)),
           "summary": render(e.reason, lang) if e.ruling is None else summary(e.ruling, lang)}
    if e.reason is not None and e.ruling is not None:
        out["reason"] = render(e.reason, lang)
    return out
