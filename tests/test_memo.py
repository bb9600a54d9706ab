"""The tables of things made once are bounded by bytes, by their own type, and hand out read-only parts.

Issue 36 (item 5): workers kept growing under mixed load and distinct house rules, because the serializer's
and the words' tables were bounded by their number of entries only. Every such table in the library (the words',
and what each variant object works out once) is now a :class:`adjudicator.memo.Memo`, which measures each entry as it goes in and drops its oldest entries before
its bytes would pass its bound. Checked here by counting -- the bytes each table says it holds, the sizes of
the entries it holds, the live objects after many requests -- never by the clock or the process's memory.
"""

from __future__ import annotations

import copy
import gc
import json
import pickle

import pytest

from adjudicator.answers import answer
from adjudicator.input import house_rules
from adjudicator.memo import Memo, size_of
from adjudicator.model.frozen import FrozenDict, FrozenList, frozen
from adjudicator.model.messages import msg
from adjudicator.variants import Variant, load_all
from adjudicator.words import render
from test_answers import FROZEN_PILE, MELD, OPTIONS

VARIANTS = load_all()
LIBRARY_TABLES = render.TABLES


def _consistent(memo: Memo) -> None:
    """What a table says it holds is the sum of what its entries were counted as, and within its bounds."""
    assert memo.held == sum(memo._sizes.values()) and set(memo._sizes) == set(memo)
    assert memo.held <= memo.max_bytes
    if memo.max_entries is not None:
        assert len(memo) <= memo.max_entries


# ----------------------------------------------------------------------------------------------
# The table type


def test_a_memo_holds_no_more_bytes_than_its_bound_however_many_entries_come():
    memo = Memo("test", max_bytes=20_000)
    for i in range(5_000):
        memo[("key", i)] = "x" * (i % 300)
        _consistent(memo)
    assert memo.dropped > 4_000 and len(memo) < 200
    assert memo.held == sum(size_of(k, v) for k, v in memo.items())  # measured as it went in


def test_a_memo_bounded_by_entries_too():
    memo = Memo("test", max_bytes=10**9, max_entries=100)
    for i in range(1_000):
        memo[i] = i
        _consistent(memo)
    assert len(memo) <= 100 and memo.dropped >= 900


def test_every_way_in_is_counted_and_every_way_out_too():
    memo = Memo("test", max_bytes=100_000)
    memo["a"] = "A"
    memo.setdefault("b", "B")
    assert memo.setdefault("b", "other") == "B"
    memo.update({"c": "C"}, d="D")
    memo |= {"e": "E"}
    memo.put("f", "F", size=1_000)
    _consistent(memo)
    assert sorted(memo) == list("abcdef") and memo._sizes["f"] == 1_000
    del memo["a"]
    assert memo.pop("b") == "B" and memo.pop("zz", None) is None
    memo.popitem()
    _consistent(memo)
    memo.clear()
    assert memo.held == 0 and not memo and not memo._sizes


def test_an_entry_larger_than_a_quarter_of_the_bound_is_not_kept():
    memo = Memo("test", max_bytes=4_000)
    assert memo.put("big", "x" * 2_000) == "x" * 2_000
    assert "big" not in memo and memo.held == 0


def test_the_oldest_go_first_and_a_recent_one_is_kept_longest():
    memo = Memo("test", max_bytes=4_000)
    for key in range(8):
        memo.put(key, key, size=500)
    assert memo.recent(0) == 0 and memo.recent(99, "absent") == "absent"
    memo.put(8, 8, size=500)  # full: the oldest go until three quarters are held
    assert 0 in memo and 1 not in memo and 8 in memo
    _consistent(memo)


def test_size_of_counts_each_object_once_and_a_shared_part_as_a_pointer():
    part = frozen({"quote": "q" * 1_000})
    one, both = size_of([part]), size_of([part, part])
    assert both - one < 16  # one more pointer
    assert size_of([part], shared=(FrozenDict,)) < one - 1_000  # counted by the table that made it
    assert size_of(part, shared=(FrozenDict,)) >= size_of("q" * 1_000)  # but not when it is the entry itself


# ----------------------------------------------------------------------------------------------
# Read-only parts


def test_a_frozen_part_refuses_every_change():
    part = frozen({"a": [1, {"b": 2}], "c": (3,)})
    assert type(part) is FrozenDict and type(part["a"]) is FrozenList and type(part["c"]) is FrozenList
    edits = [lambda: part.__setitem__("x", 1), lambda: part.__delitem__("a"), lambda: part.clear(),
             lambda: part.pop("a"), lambda: part.popitem(), lambda: part.setdefault("x", 1),
             lambda: part.update(x=1), lambda: part.__ior__({"x": 1}),
             lambda: part["a"].append(1), lambda: part["a"].extend([1]), lambda: part["a"].insert(0, 1),
             lambda: part["a"].pop(), lambda: part["a"].remove(1), lambda: part["a"].clear(),
             lambda: part["a"].sort(), lambda: part["a"].reverse(), lambda: part["a"].__setitem__(0, 9),
             lambda: part["a"].__delitem__(0), lambda: part["a"].__iadd__([1]), lambda: part["a"].__imul__(2),
             lambda: part["a"][1].__setitem__("b", 3)]
    for edit in edits:
        with pytest.raises(TypeError):
            edit()
    assert part == {"a": [1, {"b": 2}], "c": [3]}


def test_a_copy_of_a_frozen_part_is_the_callers_own():
    part = frozen({"a": [1, {"b": 2}]})
    for mine in (copy.deepcopy(part), pickle.loads(pickle.dumps(part)), json.loads(json.dumps(part))):
        mine["a"][1]["b"] = 3
        mine["a"].append(4)
    shallow = copy.copy(part)
    shallow["x"] = 1
    assert type(dict(part)) is dict and type(list(part["a"])) is list
    assert part == {"a": [1, {"b": 2}]}


# ----------------------------------------------------------------------------------------------
# The library's tables


def test_every_table_of_the_answers_and_the_words_is_bounded_by_bytes():
    assert len(LIBRARY_TABLES) == len({id(t) for t in LIBRARY_TABLES}) >= 3
    for table in LIBRARY_TABLES:
        assert isinstance(table, Memo) and 0 < table.max_bytes <= 32 * 1024 * 1024, table
        _consistent(table)
    total = sum(t.max_bytes for t in LIBRARY_TABLES)
    assert total <= 48 * 1024 * 1024, f"{total / 2**20:.0f} MiB of tables"
    assert all(isinstance(v._worked_out, Memo) for v in VARIANTS.values())


@pytest.fixture
def small_bounds():
    """Every library table bounded to 64 KB while a test floods it (each table's own bound is restored)."""
    kept = [(t, t.max_bytes) for t in LIBRARY_TABLES]
    for table, _ in kept:
        table.max_bytes = 64 * 1024
        table._drop_oldest(table.max_bytes * 3 // 4, None)
    yield
    for table, bound in kept:
        table.max_bytes = bound


def test_a_flood_of_distinct_messages_keeps_the_words_within_their_bound(small_bounds):
    for i in range(3_000):
        message = msg("detail.query_number", name=f"n{i}", low=i, high=i + 1, given=str(i))
        render.said_and_code(message, ("en", "sv", "nb", "da")[i % 4])
        render.said(msg("card.joker"), "en")
        render.number(i * 1_000, "da")
    for table in render.TABLES:
        _consistent(table)
    assert render._SAID.dropped > 2_000 and render._NUMBERS.dropped > 0


def test_a_flood_of_distinct_rulings_and_house_rules_keeps_every_table_within_its_bound(small_bounds):
    hands = [["9H", "9S", "9D", "5C", "6D"], ["KH", "KS", "KD", "JK", "7C", "8C"], ["4H", "4S", "JK", "2C"]]
    for i in range(60):
        house = {"meld.min_cards": 3, "score.going_out": 100 + i}
        body = {**MELD, "variant": list(VARIANTS)[i % 4], "house_rules": house,
                "situation": {**MELD["situation"], "team": {"score": i * 50, "melds": [["KH", "KS", "KD"]]},
                              "player": {"hand": hands[i % 3]}}}
        assert answer("adjudicate", body, "sv").status in (200, 422)
        assert answer("options", {k: v for k, v in body.items() if k != "action"}, "nb").status in (200, 422)
    answer("compare", {"situation": FROZEN_PILE["situation"], "action": FROZEN_PILE["action"]}, "da")
    for table in (*LIBRARY_TABLES, *(v._worked_out for v in VARIANTS.values())):
        _consistent(table)
    assert sum(t.dropped for t in LIBRARY_TABLES) > 0


def test_the_house_rule_copies_kept_are_bounded():
    """A variant with house rules is kept for the next request with the same rules (issue 44), in a table bounded
    by copies and bytes, each copy's own table bounded by the bytes it is counted at: however many distinct house
    rules come, the variants alive are the loaded ones, the copies kept, and the copies each keeps of its own open
    points' readings."""
    assert house_rules._COPIES.max_entries == house_rules.HOUSE_COPIES
    assert house_rules._COPIES.max_bytes <= 48 * 1024 * 1024
    gc.collect()
    before = sum(1 for o in gc.get_objects() if isinstance(o, Variant))
    for i in range(house_rules.HOUSE_COPIES + 40):
        body = {**OPTIONS, "variant": list(VARIANTS)[i % 4], "house_rules": {"score.going_out": 100 + i}}
        assert answer("options", body, "en").status == 200
        assert answer("adjudicate", {**MELD, "house_rules": {"score.going_out": 100 + i}}, "en").status == 200
    _consistent(house_rules._COPIES)
    kept = [made for _, made in dict.values(house_rules._COPIES)]
    assert 0 < len(kept) <= house_rules.HOUSE_COPIES and house_rules._COPIES.dropped > 0
    for made in kept:
        assert made._worked_out.max_bytes == house_rules.COPY_TABLE_BYTES
        _consistent(made._worked_out)
    gc.collect()
    after = sum(1 for o in gc.get_objects() if isinstance(o, Variant))
    readings = sum(1 for v in [*VARIANTS.values(), *kept] for value in v._worked_out.values()
                   if isinstance(value, Variant))
    assert after <= max(before, len(VARIANTS) + len(kept) + readings)
