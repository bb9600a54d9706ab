"""What the engine keeps across requests is keyed by what it depends on and cannot be changed (issue 44).

Two newcomers' edits once served wrong answers with every test green:

* a new situation fact kept on a meld part's table (``part_table()``) and read by a check, but not added to the
  hand-kept list the table's key was made of (``_KEPT``): once the variant's parts were warm, 7 of 12 options of
  a da-ludo table differed from ``rule()``. The key of a part's table is now every fact it keeps, by
  construction: the test below makes the newcomer's edit and lists the options after a twin warmed the parts.
* a value kept once per variant and handed to every ruling (a reading's words) that a caller could edit. What a
  variant works out once (:meth:`~adjudicator.variants.Variant.once`) is now immutable all the way down: a
  new kept value that is a list, a dict or a mutable object fails the walk below.

And the keys themselves: what a variant works out once is keyed by the maker and the arguments it is given -- a
maker that read something it was not given would be the next hand-kept key -- so every key is a value (no
object keyed by its identity, which another object can take once the first is gone).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import enum
import random
from pathlib import Path

from adjudicator.answers import answer
from adjudicator.input.parse import options_request
from adjudicator.model import situation as situation_model
from adjudicator.model.frozen import FrozenDict, FrozenList
from adjudicator.model.situation import PartTable, Situation
from adjudicator.options import parts
from adjudicator.options.listing import legal_moves
from adjudicator.rules import engine
from adjudicator.rules.engine import rule
from adjudicator.variants import Entry, Variant, load_all
from test_answers import CASES
from test_options_exact import _seeded_pair

VARIANTS = load_all()


def _table(vid: str, stock: int, seed: str) -> dict:
    """A table of a team that has opened (its melds decided from their parts), a 9-card hand: test_options_exact's
    seeded table, with the stock asked for, an empty pile and no red threes."""
    table, _ = _seeded_pair(vid, random.Random(seed))
    return {**table, "stock_count": stock, "discard_pile": [], "team": {**table["team"], "red_threes": 0}}


def test_a_new_fact_kept_on_a_parts_table_is_in_its_key(monkeypatch):
    """The newcomer's edit: a new fact (here, whether the stock is empty) kept by ``part_table()`` and read by a
    check on a meld (an empty stock refuses it). A twin table with a stock warms the variant's parts; the table
    with an empty stock is listed next: every option must still be what ``rule()`` says of its move."""
    made = situation_model.part_table

    def part_table(situation: Situation) -> PartTable:
        table = made(situation)
        table.__dict__["stock_empty"] = situation.stock_count == 0  # kept: a slow fact now
        return table

    handler = engine.HANDLERS[engine.ActionType.MELD]

    def rule_meld(judge, situation, action):
        handler(judge, situation, action)
        empty = situation.__dict__.get("stock_empty", situation.__dict__.get("stock_count") == 0)
        with judge.rule("turn.draw_first") as check:
            check.result(not empty, "check.missing", fact=None)
    monkeypatch.setattr(parts, "part_table", part_table)
    monkeypatch.setitem(engine.HANDLERS, engine.ActionType.MELD, rule_meld)

    vid = "da-ludo"
    VARIANTS[vid]._worked_out.clear()
    twin = options_request({"variant": vid, "situation": _table(vid, 20, "fact")}, VARIANTS)
    legal_moves(twin.situation, twin.rules)  # warm: the twin's parts (a stock: every meld allowed)
    empty = options_request({"variant": vid, "situation": _table(vid, 0, "fact")}, VARIANTS)
    checked = 0
    for group in legal_moves(empty.situation, empty.rules).groups:
        for option in group.options:
            assert option.verdict == rule(empty.situation, option.action, empty.rules).verdict, option.key
            checked += 1
    assert checked, "the table lists its options"


def test_a_parts_table_is_equal_only_to_one_that_keeps_the_same_facts():
    """Every fact a part's table keeps is in its key: change any one and the tables differ."""
    request = options_request({"variant": "sv-classic", "situation": _table("sv-classic", 20, "key")}, VARIANTS)
    table = situation_model.part_table(request.situation)
    kept = {name: value for name, value in vars(table).items() if name != "reads"}
    assert set(kept) >= {"players", "team", "opponents", "hand_count", "drew"}
    for name in kept:
        other = situation_model.part_table(request.situation)
        other.__dict__[name] = ("another", name)
        assert other != table and other._key() != table._key(), name
    other = situation_model.part_table(request.situation)
    other.__dict__["a_new_fact"] = 1
    assert other != table, "a fact added to the table is in its key"
    side = situation_model.part_table(request.situation).team
    assert side == table.team and hash(side) == hash(table.team)
    other_side = situation_model.part_table(options_request({"variant": "sv-classic", "situation": {
        **_table("sv-classic", 20, "key"), "team": {"score": 1500, "melds": [], "red_threes": 0}}},
        VARIANTS).situation).team
    assert other_side != side


# ----------------------------------------------------------------------------------------------
# What a variant works out once: immutable, keyed by values


def _worked_out() -> list[tuple]:
    """Every (key, value) the loaded variants and the copies they keep have worked out, after answers of each
    kind (rulings across readings, options, comparisons, scores, replays)."""
    for _path, kind, body, _query, options in CASES:
        answer(kind, copy.deepcopy(body), "en", variants=VARIANTS, **options)
    seen: set[int] = set()
    out = []
    stack = list(VARIANTS.values())
    while stack:
        variant = stack.pop()
        if id(variant) in seen:
            continue
        seen.add(id(variant))
        for key, value in list(variant._worked_out.items()):
            out.append((key, value))
            if isinstance(value, Variant):
                stack.append(value)
    return out


def _mutable_parts(value, path: str, seen: set[int]) -> list[str]:
    """Where in ``value`` a receiver could change something: a list, a dict, a set, or an object whose fields
    can be set."""
    if id(value) in seen or isinstance(value, (str, bytes, int, float, bool, type(None), enum.Enum)):
        return []
    seen.add(id(value))
    if callable(value) and not dataclasses.is_dataclass(value):
        return []  # a function named as a key's maker
    kind = type(value)
    if kind in (FrozenDict,):
        return [p for k, v in value.items() for p in _mutable_parts(v, f"{path}[{k!r}]", seen)]
    if kind in (FrozenList, tuple, frozenset):
        return [p for i, v in enumerate(value) for p in _mutable_parts(v, f"{path}[{i}]", seen)]
    if isinstance(value, (Situation, Entry, Variant)) or dataclasses.is_dataclass(value):
        params = getattr(type(value), "__dataclass_params__", None)
        if params is None or not params.frozen:
            return [f"{path}: a {kind.__name__} whose fields can be set"]
        if isinstance(value, PartTable):
            return [p for n, v in value._key() for p in _mutable_parts(v, f"{path}.{n}", seen)]
        names = [f.name for f in dataclasses.fields(value) if f.name != "_worked_out"]
        return [p for n in names for p in _mutable_parts(getattr(value, n), f"{path}.{n}", seen)]
    return [f"{path}: a {kind.__name__}"]


def test_what_a_variant_works_out_once_is_immutable_all_the_way_down():
    """A kept value is handed to every later caller: a list, a dict or a settable object in it would let one
    caller change the next one's answer."""
    found = _worked_out()
    assert len(found) > 100
    mutable = [p for key, value in found for p in _mutable_parts(value, f"{key[0].__name__}{key[1]!r:.60}", set())]
    assert not mutable, mutable[:10]


def _identity_hashed(value, seen: set[int]) -> list[str]:
    if id(value) in seen or value is None:
        return []
    seen.add(id(value))
    if isinstance(value, (tuple, frozenset, FrozenList)):
        return [p for v in value for p in _identity_hashed(v, seen)]
    if isinstance(value, FrozenDict):
        return [p for kv in value.items() for v in kv for p in _identity_hashed(v, seen)]
    kind = type(value)
    if kind.__hash__ is object.__hash__ and not callable(value):
        return [kind.__name__]
    return []


def test_what_a_variant_works_out_once_is_keyed_by_the_maker_and_values():
    """A key is the maker and the arguments it was given, each a value hashed by what it holds: never an object
    hashed by its identity (a situation's id was once a key, and ids are reused)."""
    for key, _ in _worked_out():
        make, args = key
        assert callable(make) and isinstance(args, tuple), key
        assert not _identity_hashed(args, set()), (make.__name__, args)


# ----------------------------------------------------------------------------------------------
# No table of a module's own


ENGINE = Path(__file__).resolve().parent.parent / "adjudicator"
# Module-level containers that are no table of things made at run time, each with why.
NOT_TABLES = {
    ("model/cards.py", "CANONICAL"): "every card code to itself, filled as the module loads, never after",
    ("model/situation.py", "DIRECT_READS"): "a count of withheld facts read directly, for test_options_exact",
    ("cost.py", "_NOTHING"): "an empty mapping handed to readers of a misshapen member",
    ("cost.py", "_OPEN"): "the pricing's own (issue 44 leaves cost.py to its owner): Variant.point_values replaces it",
}
_CONTAINERS = ("dict", "list", "set", "OrderedDict", "defaultdict", "WeakKeyDictionary", "WeakValueDictionary",
               "Counter")


def test_no_module_of_the_engine_keeps_a_table_of_its_own():
    """What the engine keeps across calls lives with what it depends on: a variant's (:meth:`Variant.once`, keyed
    by the maker and its arguments) or a table of words (a :class:`~adjudicator.memo.Memo`, bounded by bytes). A
    newcomer's ``_CACHE = {}`` at a module's top -- keyed by a hand-made tuple, bounded by nobody -- fails here;
    three such tables (compare's ``_WHY``, the options' ``_FITS``, scoring's ``_ORDERED``) were removed."""
    found = []
    for path in ENGINE.rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                continue
            value = node.value
            empty = (isinstance(value, ast.Dict) and not value.keys) or \
                (isinstance(value, (ast.List, ast.Set)) and not value.elts) or \
                (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _CONTAINERS)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = ast.unparse(target)
                where = (path.relative_to(ENGINE).as_posix(), name)
                if empty and where not in NOT_TABLES:
                    found.append(f"{where[0]}:{node.lineno} {name}")
    assert not found, ("keep what is made once with the variant it depends on (Variant.once) or in a bounded "
                       f"Memo, keyed by values: {found}")


def test_a_value_no_longer_worked_out_with_the_variant_is_read_nowhere():
    """A derived value removed from the variant (``plain_values``, issue 44) was still read by a newer line of
    the scoring (a red three in a hand): every score with one answered 500. A red three in a meld or a hand is
    priced under each variant, as the text states it and as a house rule sets it."""
    red_three_held = {"players": 4, "teams": [{"name": "A", "melds": [["KH", "KS", "KD"]], "hand": ["3H", "5C"]},
                                              {"name": "B", "melds": [], "hand": ["5H"]}]}
    for vid in VARIANTS:
        for house in ({}, {"red_three.laid_out": False}, {"red_three.laid_out": True}):
            result = answer("score", {**red_three_held, "variant": vid, "house_rules": house}, "en")
            assert result.status in (200, 422), (vid, house, result.status)


def test_every_fact_of_a_table_is_kept_on_a_parts_table_or_withheld():
    """The next newcomer's edit: a new fact with a default (``pile_big: bool | None = None``, set in the
    constructor) read by a check on a meld. ``part_table()`` does not copy it, so a part's table read the class's
    default: 3,201 of 3,685 options of tables with more than five cards in the pile differed from ``rule()``, with
    every other test green. Each fact of a situation, and of a team, is kept on a part's table (and so in its key)
    or withheld (reading it raises, and the part is ruled whole on the real table)."""
    request = options_request({"variant": "sv-classic", "situation": _table("sv-classic", 20, "facts")}, VARIANTS)
    table = situation_model.part_table(request.situation)
    loose = []
    for name in [f.name for f in dataclasses.fields(Situation)]:
        if name not in vars(table):
            try:
                getattr(table, name)
            except situation_model.WithheldFact:
                continue
            loose.append(f"situation.{name}")
    for name in [f.name for f in dataclasses.fields(situation_model.Side)]:
        if not situation_model._held(table.team, name):
            try:
                getattr(table.team, name)
            except situation_model.WithheldFact:
                continue
            loose.append(f"team.{name}")
    assert not loose, f"neither kept on a part's table nor withheld: {loose}"


# ----------------------------------------------------------------------------------------------
# A variant with house rules, kept across requests (adjudicator/input/house_rules.py)


def test_a_variant_with_house_rules_is_kept_by_the_rules_values_and_its_own_variant():
    """A request with house rules rules under a copy of its variant, kept for the next request with the same rules
    (each of the copy's tables then warm). The copy is the same only for the same variant object and the same
    rules by value: a newcomer who keyed it by the rules' names, or by the variant's id alone, would hand one
    table's rules to another (a house rule of ``true`` ruled as ``false``, a variant loaded afresh -- a test's, a
    library caller's own -- ruled under the first one's entries)."""
    from adjudicator.input.house_rules import apply  # noqa: PLC0415

    loaded = VARIANTS["sv-classic"]
    one = apply(loaded, {"wild.twos": True, "meld.min_cards": 3})
    assert apply(loaded, {"wild.twos": True, "meld.min_cards": 3}) is one  # kept
    other = apply(loaded, {"wild.twos": False, "meld.min_cards": 3})
    assert other is not one and other.value("wild.twos") is False and one.value("wild.twos") is True
    assert apply(loaded, {"meld.min_cards": 3}).value("wild.twos") == loaded.value("wild.twos")
    for name in ("wild.twos", "meld.min_cards"):
        assert one.params[name].source == "house_rule" and one.params[name].house_rule
    # another variant object of the same id (its own entries): its own copy, made from it
    changed = loaded.with_entries({"deck.jokers": Entry("deck.jokers", 6, loaded.params["deck.jokers"].status,
                                                        None, ())})
    mine = apply(changed, {"wild.twos": True, "meld.min_cards": 3})
    assert mine is not one and mine.value("deck.jokers") == 6 and one.value("deck.jokers") != 6
    # the kept copy answers as a copy made afresh
    body = {"variant": "sv-classic", "house_rules": {"wild.twos": True, "meld.min_cards": 3},
            "situation": {"players": 4, "player": {"hand": ["2C", "7H", "7S", "9D", "5C"]},
                          "turn": {"has_drawn": True}, "team": {"melds": [["KH", "KS", "KD"]]}},
            "action": {"type": "meld", "melds": [["2C", "7H", "7S"]]}}
    first, again = answer("adjudicate", body, "en"), answer("adjudicate", body, "en")
    assert first.status == again.status == 200 and first.document == again.document
    flipped = answer("adjudicate", {**body, "house_rules": {"wild.twos": False, "meld.min_cards": 3}}, "en")
    assert flipped.document["verdict"] != first.document["verdict"], (first.document["verdict"], flipped.document["verdict"])
