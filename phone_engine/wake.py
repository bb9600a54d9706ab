"""Wake the phone's engine: ask it one question of each kind in each language, once.

The phone's worker runs :func:`wake` after its first start and before it keeps a memory snapshot of
the interpreter (web/engine-worker.js): the snapshot then holds not only the imported engine and the
four loaded variants but also what a first answer loads on demand (each language's catalogue, the
number formats, the options search, the comparison), so a later start from it answers at once.
``scripts/build-engine-archive`` runs it too, under the same Pyodide, to find which modules of the
standard library the engine loads (phone_engine/cut.py).

The questions are the page's: a ruling, "what may I do?", a round's score and a comparison. They go
through :func:`referee_local.answer`, as the page's do; an answer the engine refuses still loads
what refusing takes. Nothing here is a rule: the answers are thrown away.
"""

from __future__ import annotations

import json

import referee_local

LANGUAGES = ("en", "sv", "nb", "da")
_SITUATION = {
    "players": 4, "first_round": False, "stock_count": 40, "discard_pile": ["6C", "JK", "8D", "9D"],
    "team": {"score": 1600, "melds": [["KH", "KS", "KD"]], "red_threes": 1},
    "opponents": {"score": 3100, "melds": [["QH", "QS", "QD", "QC", "QH", "QS", "JK"]], "red_threes": 0},
    "player": {"hand": ["9H", "9S", "JK", "5C", "7D", "AH", "2C"], "has_melded": True},
    "turn": {"drew": None, "cards_from_pile": []},
}
_ROUND = [{"name": "Us", "melds": [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]], "hand": ["5C"], "red_threes": 1,
           "went_out": True},
          {"name": "Them", "melds": [["QH", "QS", "QD"]], "hand": ["JK", "5H"], "red_threes": 0}]
QUESTIONS = (
    ("/v1/adjudicate", {"variant": "no-pagat", "situation": _SITUATION, "action": {"type": "take_pile", "with": ["9H", "JK"]}}),
    ("/v1/adjudicate", {"variant": "da-ludo", "situation": _SITUATION,
                        "action": {"type": "meld", "melds": [["9H", "9S", "2C"]]}}),
    ("/v1/adjudicate", {"variant": "sv-gamerules", "situation": {**_SITUATION, "turn": {"drew": "stock", "cards_from_pile": []}},
                        "action": {"type": "go_out", "melds": [["9H", "9S", "JK"]], "discard": "5C"}}),
    ("/v1/options", {"variant": "sv-classic", "situation": _SITUATION}),
    ("/v1/score", {"variant": "sv-classic", "players": 4, "teams": _ROUND}),
    ("/v1/score", {"variant": "da-ludo", "players": 4, "rounds": [{"teams": _ROUND}, {"teams": _ROUND}]}),
    ("/v1/compare", {"situation": _SITUATION, "action": {"type": "take_pile", "with": ["9H", "9S"]}}),
)
# As the page asks now (#42: nothing pre-filled): only the cards tapped, so the referee rules under each value of
# the facts not said (its conditions), a path the fully said questions above never take.
NOTHING_SAID = (
    ("/v1/adjudicate", {"variant": "no-pagat", "situation": {"discard_pile": ["9S"], "pile_unnamed": {"wild": True}},
                        "action": {"type": "take_pile", "with": ["9H", "JK"]}}),
    ("/v1/adjudicate", {"variant": "sv-classic", "situation": {"discard_pile": ["7H"], "team": {"score": 1000}},
                        "action": {"type": "take_pile", "with": ["7C", "7D"]}}),
    ("/v1/adjudicate", {"variant": "da-ludo", "situation": {"team": {"score": 6200, "melds": []}},
                        "action": {"type": "meld", "melds": [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]]}}),
    ("/v1/options", {"variant": "sv-classic", "situation": {"discard_pile": ["7H"], "player": {
        "hand": ["7C", "7D", "KS", "KH", "KD", "5C", "9C", "JK"]}}}),
    ("/v1/compare", {"situation": {"discard_pile": ["9S"], "pile_unnamed": {"wild": True}},
                     "action": {"type": "take_pile", "with": ["9H", "9D"]}}),
)


def wake() -> dict[str, int]:
    """Every question in every language: how many were answered (refusals included) and how many failed.

    A failure is the engine's bug, not the wake's: it is counted, not raised, so the snapshot is still
    kept (the tests compare every answer with the service's, and fail on it there).
    """
    said = {"answered": 0, "failed": 0}
    for lang in LANGUAGES:
        for path, body in QUESTIONS + NOTHING_SAID:
            try:
                json.loads(referee_local.answer(path, json.dumps(body), lang))
                said["answered"] += 1
            except Exception:  # noqa: BLE001 -- see above
                said["failed"] += 1
    return said


def once(lang: str) -> None:
    """Rule once, after a start: the page says the engine is ready only after this (web/engine-worker.js).

    A started interpreter (from a snapshot too) answers its first question markedly slower than the next
    ones: what that first answer touches is loaded and run once here, before anyone has asked.
    """
    path, body = NOTHING_SAID[0]  # the page's questions leave facts unsaid: the conditions' path, as a tap takes it
    referee_local.answer(path, json.dumps(body), lang)
