"""The schemas' fast path says exactly what marshmallow says: the same loaded value, or "not sure".

For any body -- valid, mutated, or arbitrary JSON -- the compiled check either
returns what ``schema.load`` returns, or ``None`` when ``schema.load`` would
have to be asked (and then marshmallow must refuse it or load it).
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from adjudicator.input import shape
from adjudicator.variants import load_all
from ruling_table import ROWS

VARIANTS = load_all()
SCHEMAS = shape._schemas(*shape.caps(VARIANTS))
FAST = shape._fast(*shape.caps(VARIANTS))
VALID = [{"variant": "sv-classic", "situation": s, "action": a, "house_rules": {"wild.twos": True}}
         for _, s, a, _, _ in ROWS]
SCORE = {"variant": "sv-classic", "players": 4,
         "teams": [{"name": "Vi", "melds": [["KH", "KS", "KD"]], "hand": ["5C"], "red_threes": 1, "went_out": True},
                   {"name": "De", "melded_points": 50, "natural_canastas": 1, "penalties": [{"kind": "hint"}]}]}
JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) |
                    st.text(max_size=20), lambda inner: st.lists(inner, max_size=5) |
                    st.dictionaries(st.text(max_size=12), inner, max_size=5), max_leaves=30)
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def agrees(kind: str, body) -> None:
    fast = FAST[kind](body)
    try:
        slow = SCHEMAS[kind].load(copy.deepcopy(body))
    except ValidationError:
        assert fast is None, (kind, body, fast)
        return
    assert fast is None or fast == slow, (kind, body, fast, slow)
    if fast is not None:
        assert all(type(a) is type(b) for a, b in zip(_leaves(fast), _leaves(slow)))


def _leaves(value):
    if isinstance(value, dict):
        for k in sorted(value):
            yield from _leaves(value[k])
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def test_every_valid_body_takes_the_fast_path():
    for body in VALID:
        assert FAST["adjudicate"](body) == SCHEMAS["adjudicate"].load(body)
    assert FAST["score"](SCORE) == SCHEMAS["score"].load(SCORE)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


def _set(value, path, new):
    if not path:
        return new
    out = copy.deepcopy(value)
    target = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return out


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), replacement=JSON, kind=st.sampled_from(["adjudicate", "score", "compare"]))
def test_a_mutated_body_gets_the_same_answer(seed, replacement, kind):
    rng = random.Random(seed)
    body = copy.deepcopy(rng.choice(VALID) if kind != "score" else SCORE)
    if kind == "compare":
        body = {k: v for k, v in body.items() if k != "variant"} | {"variants": ["da-ludo", "sv-classic"]}
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(list(_paths(body)))
        body = _set(body, path, replacement if rng.random() < 0.7 else (2.0 if rng.random() < 0.5 else 2.5))
    agrees(kind, body)


@SETTINGS
@given(body=st.dictionaries(st.sampled_from(["variant", "situation", "action", "teams", "rounds", "players",
                                              "house_rules", "lang", "variants", "other"]), JSON, max_size=6),
       kind=st.sampled_from(["adjudicate", "score", "compare"]))
def test_arbitrary_json_gets_the_same_answer(body, kind):
    agrees(kind, body)


def test_a_member_missing_or_unknown_or_not_named_by_a_string_takes_the_slow_path():
    """The fast path walks the members a body gives: a required one left out, one the schema does not define
    (however it is named), or a null where none is allowed must still reach marshmallow, which refuses it."""
    body = VALID[0]
    faults = [{k: v for k, v in body.items() if k != "action"},  # a required member left out
              {k: v for k, v in body.items() if k != "variant"},
              body | {"other": 1}, body | {1: "x"}, body | {None: "x"},  # members the schema does not define
              body | {"situation": body["situation"] | {("players",): 4}},
              body | {"action": None}]  # null where the schema allows none
    for fault in faults:
        assert FAST["adjudicate"](fault) is None, fault
        agrees("adjudicate", fault)
    optional = {k: v for k, v in body.items() if k != "house_rules"}  # an optional member left out: still fast
    assert FAST["adjudicate"](optional) == SCHEMAS["adjudicate"].load(optional)
