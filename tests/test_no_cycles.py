"""An answer leaves nothing for the garbage collector: what a request made is freed when its answer is sent.

The garbage collector is the only thing that frees objects held in a reference cycle, and it walks
every object it tracks to find them: for the options search, whose recursive closures (and, in the
compiled engine, every nested function with its environment) kept each request's moves, rulings and
words in cycles, its collections were a sixth of the answer's cost. So no request of the engine may
make cyclic garbage of its own. This file runs again against the compiled engine
(``tests/test_compiled_engine.py``), where a nested function shares a cycle with its environment.
The router of werkzeug makes one small cycle per request (a recursive matcher), which is not ours.
Left as it is: a comparison that every variant refuses alike raises the error the parser kept, and that
error's traceback holds the frames that hold the parsed request, which holds the error (an error path).
"""

from __future__ import annotations

import gc

import pytest
from ruling_table import payloads
from test_http_options import DRAWN, SITUATION

from adjudicator.variants import load_all

VARIANT_IDS = list(load_all())
WHOLE_HAND = {**SITUATION, "player": {"hand": ["9H", "9S", "9D", "JK", "2C", "5C", "5D", "5H", "7D", "7S", "7H", "AH",
                                               "AS", "KC", "KD", "QC", "QD", "QS"], "has_melded": False},
              "team": {"score": 1000, "melds": [], "red_threes": 0}}


def _cyclic_garbage(call) -> list:
    """The objects ``call`` left in reference cycles (the collector's finds, kept to be looked at)."""
    call()  # caches filled first: what a cache keeps is not garbage
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        call()
        gc.collect()
        found = list(gc.garbage)  # werkzeug's own cycle among them: _ours keeps what the project made
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    return found


def _ours(found: list) -> list[str]:
    """Names of the types among ``found`` that the project defines, or a function of it (cells and tuples
    are part of any cycle; what the project made says where the cycle is)."""
    names = []
    for o in found:
        module = getattr(type(o), "__module__", "") or ""
        code = getattr(o, "__code__", None)
        where = code.co_filename if code is not None else module
        if "adjudicator" in where or "web_api" in where or module.startswith(("adjudicator", "web_api")):
            names.append(f"{type(o).__qualname__} {getattr(o, '__qualname__', '')}".strip())
    return names


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("situation", [SITUATION, DRAWN, WHOLE_HAND], ids=["before-drawing", "after-drawing",
                                                                             "unopened-hand"])
def test_options_leave_no_cycles(client, variant, situation):
    body = {"variant": variant, "situation": situation}
    limit = 1000
    refused = client.post(f"/v1/options?limit={limit}", json=body)
    if refused.status_code == 413:  # a page is priced before the walk at what the hand could hold: the hint fits
        limit = refused.get_json()["max_limit"]

    def call():
        resp = client.post(f"/v1/options?limit={limit}", json=body)
        assert resp.status_code == 200

    assert _ours(_cyclic_garbage(call)) == []


def test_rulings_scores_and_comparisons_leave_no_cycles(client):
    bodies = payloads(VARIANT_IDS)  # the rule matrix, each row under each variant

    def call():
        for body in bodies:
            ruled = client.post("/v1/adjudicate", json=body).status_code
            assert ruled in (200, 422)
            if ruled == 200:  # a comparison every variant refuses re-raises the parsed error: see the module
                compared = {k: v for k, v in body.items() if k != "variant"}
                assert client.post("/v1/compare", json=compared).status_code in (200, 422)
        for body in bodies[::7]:
            assert client.post("/v1/adjudicate/batch", json={"requests": [body] * 3}).status_code == 200

    assert _ours(_cyclic_garbage(call)) == []
