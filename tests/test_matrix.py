"""The rule matrix: every parameter of every variant side by side, as JSON and as CSV."""

from __future__ import annotations

from adjudicator.answers.serialize import citation  # noqa: E402

import csv
import io
import json

import pytest

from adjudicator.input import house_rules
from adjudicator.words.render import words
from engine_json import accepts, matrix, matrix_csv
from web_api.compare_api import csv_value
from adjudicator.model.parameters import PARAMETERS
from adjudicator.variants import STATUSES, load_all

VARIANTS = load_all()
IDS = list(VARIANTS)
NAMES = [p.name for p in PARAMETERS]


def jsonish(value):
    if isinstance(value, dict):
        return {str(k): jsonish(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonish(v) for v in value]
    return value


def test_every_parameter_of_every_variant():
    table = matrix(VARIANTS)
    assert table["variants"] == IDS
    assert [r["parameter"] for r in table["rows"]] == NAMES
    for param, row in zip(PARAMETERS, table["rows"]):
        assert row["description"] == words(f"param.{param.name}.about")
        assert row["type"] == param.type
        assert row["accepts"] == accepts(param)
        assert list(row["values"]) == IDS
        for vid, cell in row["values"].items():
            entry = VARIANTS[vid].entry(param.name)
            assert set(cell) == {"value", "status", "note", "citations"}
            assert cell["status"] in STATUSES and cell["status"] == entry.status
            assert cell["value"] == jsonish(entry.value)
            assert cell["note"] == entry.note
            assert cell["citations"] == [citation(c) for c in entry.citations]
            if cell["status"] == "stated":
                assert cell["citations"]
            else:
                assert cell["note"]
        pairs = {(json.dumps(c["value"], sort_keys=True), c["status"]) for c in row["values"].values()}
        assert row["differs"] == (len(pairs) > 1)
    json.dumps(table)  # plain JSON all the way down


def test_known_values():
    rows = {r["parameter"]: r for r in matrix(VARIANTS)["rows"]}
    jokers = rows["deck.jokers"]["values"]
    assert jokers["da-ludo"]["value"] == 6 and jokers["sv-classic"]["value"] == 4
    assert rows["deck.jokers"]["differs"] is True
    assert rows["wild.twos"]["values"]["da-ludo"] == {**rows["wild.twos"]["values"]["da-ludo"], "value": None,
                                                        "status": "not_stated"}
    assert rows["deal.cards"]["values"]["sv-classic"]["value"] == {"2": 15, "3": 13, "4": 11}
    # same value and status everywhere
    assert rows["canasta.min_cards"]["differs"] is False
    # same value, different status: still a difference of the texts
    assert {c["value"] for c in rows["meld.min_naturals"]["values"].values()} == {2}
    assert rows["meld.min_naturals"]["differs"] is True


def test_differs_keeps_only_differing_rows():
    full = matrix(VARIANTS)
    kept = matrix(VARIANTS, differs=True)
    assert kept["variants"] == IDS
    assert [r["parameter"] for r in kept["rows"]] == [r["parameter"] for r in full["rows"] if r["differs"]]
    assert all(r["differs"] for r in kept["rows"])
    names = {r["parameter"] for r in kept["rows"]}
    assert {"deck.jokers", "wild.twos", "meld.natural_majority", "pile.one_card_rule", "card_value.8",
            "score.going_out"} <= names
    assert "canasta.min_cards" not in names and "score.natural_canasta" not in names
    assert 0 < len(kept["rows"]) < len(full["rows"])


def test_subset_and_order_of_variants():
    subset = {vid: VARIANTS[vid] for vid in ("sv-gamerules", "sv-classic")}
    table = matrix(subset, differs=True)
    assert table["variants"] == ["sv-gamerules", "sv-classic"]
    names = [r["parameter"] for r in table["rows"]]
    assert "deck.jokers" not in names  # both have 4
    assert "pile.one_card_rule" in names
    assert all(list(r["values"]) == ["sv-gamerules", "sv-classic"] for r in table["rows"])
    # a single variant differs from nothing
    assert matrix({"sv-classic": VARIANTS["sv-classic"]}, differs=True)["rows"] == []


def test_house_ruled_variants_show_the_house_rule():
    ruled = {vid: house_rules.apply(v, {"wild.twos": True}) for vid, v in VARIANTS.items()}
    row = next(r for r in matrix(ruled)["rows"] if r["parameter"] == "wild.twos")
    assert {c["status"] for c in row["values"].values()} == {"house_rule"}
    assert {c["value"] for c in row["values"].values()} == {True}
    assert row["differs"] is False


def parse(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_csv_round_trip():
    text = matrix_csv(VARIANTS)
    rows = parse(text)
    header = rows[0]
    assert header[:2] == ["parameter", "description"]
    assert header[2:] == [f"{vid} {col}" for vid in IDS for col in ("value", "status", "quote")]
    assert len(rows) == 1 + len(PARAMETERS)
    assert [r[0] for r in rows[1:]] == NAMES
    assert all(len(r) == len(header) for r in rows)
    assert text.endswith("\r\n")
    by_name = {r[0]: dict(zip(header, r)) for r in rows[1:]}
    for param in PARAMETERS:
        line = by_name[param.name]
        assert line["description"] == words(f"param.{param.name}.about")
        for vid in IDS:
            entry = VARIANTS[vid].entry(param.name)
            assert line[f"{vid} status"] == entry.status
            assert line[f"{vid} quote"] == (entry.citations[0].quote if entry.citations else entry.note)
            cell = line[f"{vid} value"]
            if entry.value is None:
                assert cell == ""
            elif isinstance(entry.value, (bool, dict, list)):
                assert json.loads(cell) == jsonish(entry.value)
            else:
                assert cell == str(entry.value)
    assert by_name["deal.cards"]["sv-classic value"] == '{"2": 15, "3": 13, "4": 11}'
    assert by_name["pile.frozen_by"]["da-ludo value"] == '["joker"]'  # the sheet names only the joker (#43)
    assert by_name["wild.twos"]["sv-classic value"] == "true"
    assert by_name["deck.jokers"]["da-ludo value"] == "6"


def test_csv_keeps_non_ascii_and_quotes_safely():
    text = matrix_csv(VARIANTS)
    assert "flertal af rene kort" in text and ("æ" in text or "ø" in text)
    text.encode("utf-8")  # the caller serves it as UTF-8
    # JSON values and quotes with commas and double quotes survive the round trip
    rows = parse(text)
    cells = [c for r in rows for c in r]
    assert any('"' in c for c in cells) and any("," in c for c in cells)


def test_csv_differs():
    rows = parse(matrix_csv(VARIANTS, differs=True))
    kept = [r["parameter"] for r in matrix(VARIANTS, differs=True)["rows"]]
    assert [r[0] for r in rows[1:]] == kept
    assert "deck.jokers" in kept


@pytest.mark.parametrize("value, cell", [(None, ""), (True, "true"), (False, "false"), (3, "3"),
                                         ("frozen", "frozen"), ([3, 4], "[3, 4]"), ({4: 1}, '{"4": 1}')])
def test_csv_value(value, cell):
    assert csv_value(value) == cell


# Issue 43: the parameters whose status or readings changed, one row each across the four variants
# (variant -> (value, status, readings)); the readings are the file's, not the matrix's.
ISSUE_43 = {
    "pile.taken_whole": {"sv-gamerules": (True, "stated", ()), "sv-classic": (True, "stated", ()),
                         "no-pagat": (True, "stated", ()), "da-ludo": (True, "stated", ())},
    "pile.frozen_by": {"da-ludo": (["joker"], "interpreted", (["joker"], ["joker", "two"]))},
    "stock.empty_forced_take": {"sv-classic": (False, "interpreted", (False, True)),
                                "no-pagat": (True, "stated", ())},
    "go_out.ask_partner_when": {"no-pagat": ("after_draw_before_meld", "stated", ()),
                                "sv-classic": ("before_going_out", "stated", ()),
                                "da-ludo": ("before_going_out", "interpreted", ()),
                                "sv-gamerules": ("before_going_out", "interpreted", ())},
}


@pytest.mark.parametrize("name", sorted(ISSUE_43))
def test_issue_43_rows(name):
    row = next(r for r in matrix(VARIANTS)["rows"] if r["parameter"] == name)
    for vid, (value, status, readings) in ISSUE_43[name].items():
        cell = row["values"][vid]
        assert (cell["value"], cell["status"]) == (value, status), (vid, cell)
        assert VARIANTS[vid].entry(name).readings == readings, vid
        if status != "stated":
            assert cell["note"]
    assert all(cell["citations"] or cell["status"] != "stated" for cell in row["values"].values())
