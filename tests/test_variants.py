"""The rulebooks as data: every parameter present, cited verbatim, silences named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.model.parameters import PARAMETERS
from adjudicator.variants import VariantError, load_all, load_variant

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
IDS = ("sv-classic", "no-pagat", "da-ludo", "sv-gamerules")
ALL_IDS = list(load_all())  # invariants hold for every variant file, shipped or added


def test_the_shipped_variants_load(variants):
    assert set(IDS) <= set(variants)


@pytest.mark.parametrize("vid", ALL_IDS)
def test_every_parameter_has_a_status_and_support(variants, vid):
    v = variants[vid]
    assert [p.name for p in PARAMETERS] == list(v.params)
    for entry in v.params.values():
        assert entry.status in ("stated", "interpreted", "not_stated")
        assert entry.citations or (entry.note and entry.note.strip()), f"{vid} {entry.name} has neither"
        if entry.status == "stated":
            assert entry.citations, f"{vid} {entry.name} stated without a citation"
        if entry.status == "not_stated":
            assert entry.value is None and entry.note


@pytest.mark.parametrize("vid", ALL_IDS)
def test_every_citation_is_verbatim(variants, vid):
    v = variants[vid]
    for entry in v.params.values():
        for c in entry.citations:
            assert v.text[c.start:c.end] == c.quote
            assert c.variant == vid and c.language == v.language
            assert c.section == "" or c.section in v.text[:c.start + len(c.section)]


@pytest.mark.parametrize("vid,seed", [("sv-classic", "000_1f52410dae51c12f.txt"), ("no-pagat", "001_2fc192ac4da65819.txt"),
                                      ("da-ludo", "002_93829238aa3b1211.txt"), ("sv-gamerules", "003_3539fbbd078257f2.txt")])
def test_shipped_sources_are_byte_for_byte(variants, vid, seed):
    shipped = (ROOT / "variants" / "sources" / f"{vid}.txt").read_bytes()
    assert variants[vid].seed_file == seed
    if (SEEDS / seed).exists():
        assert shipped == (SEEDS / seed).read_bytes()


def _copy_variants(tmp_path: Path) -> Path:
    target = tmp_path / "variants"
    shutil.copytree(ROOT / "variants", target)
    return target


def test_a_corrupted_quote_stops_start_up(tmp_path):
    folder = _copy_variants(tmp_path)
    path = folder / "sv-classic.yaml"
    text = path.read_text(encoding="utf-8")
    bad = text.replace('"| Joker | 50 |"', '"| Joker | 60 |"', 1)
    assert bad != text
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(VariantError) as err:
        load_all(str(folder))
    message = str(err.value)
    assert "sv-classic" in message and "card_value.joker" in message and "| Joker | 60 |" in message


def test_a_shifted_offset_stops_start_up(tmp_path):
    folder = _copy_variants(tmp_path)
    path = folder / "no-pagat.yaml"
    text = path.read_text(encoding="utf-8")
    import re
    m = re.search(r"start: (\d+), end: (\d+)", text)
    start, end = int(m.group(1)), int(m.group(2))
    path.write_text(text.replace(m.group(0), f"start: {start + 1}, end: {end + 1}", 1), encoding="utf-8")
    with pytest.raises(VariantError, match="does not match the source"):
        load_variant(path)


def test_a_missing_parameter_stops_start_up(tmp_path):
    folder = _copy_variants(tmp_path)
    path = folder / "da-ludo.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  game.abandoned:", "  game.abandoned_typo:", 1), encoding="utf-8")
    with pytest.raises(VariantError, match="unknown parameters"):
        load_variant(path)


def test_a_wrong_section_stops_start_up(tmp_path):
    folder = _copy_variants(tmp_path)
    path = folder / "sv-classic.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('section: "Kortens poängvärden"', 'section: "Snabbfakta"', 1), encoding="utf-8")
    with pytest.raises(VariantError, match="stands under"):
        load_variant(path)


def test_a_stated_parameter_without_citation_is_refused(tmp_path):
    folder = _copy_variants(tmp_path)
    path = folder / "sv-classic.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    i = lines.index("  meld.min_cards:\n")
    del lines[i + 3:i + 5]  # the cite: key and its single citation
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(VariantError, match="meld.min_cards"):
        load_variant(path)


# --- the known silences and contradictions, pinned --------------------------------------------

PINNED = [
    # no-pagat announces an opening table ("kravet nedenfor") that is not there: Pagat's classic table is used.
    ("no-pagat", "opening.bands", "interpreted", [50, 90, 120], "kravet nedenfor"),
    ("no-pagat", "opening.negative", "interpreted", 15, None),
    # no-pagat gives no card-value table: Pagat's values, announced as such.
    ("no-pagat", "card_value.A", "interpreted", 20, "Pagat"),
    ("no-pagat", "card_value.joker", "interpreted", 50, "Pagat"),
    # da-ludo never says whether twos are wild.
    ("da-ludo", "wild.twos", "not_stated", None, None),
    ("da-ludo", "card_value.black_three", "not_stated", None, None),
    ("da-ludo", "opening.negative", "not_stated", None, None),
    ("da-ludo", "go_out.canastas_required", "interpreted", {4: 0}, None),
    # sv-gamerules contradicts itself about taking the pile before the first meld.
    ("sv-gamerules", "pile.before_opening", "interpreted", "forbidden", "förrän de har skapat sin första meld"),
    ("sv-gamerules", "meld.one_per_rank", "not_stated", None, None),
    ("sv-gamerules", "pile.frozen_by", "interpreted", ["joker", "two", "red_three_upcard", "black_three"], None),
    # sv-classic: the red-three minus rule, read literally, gives -400 for all four.
    ("sv-classic", "score.red_threes_all_four_negative", "interpreted", -400, "varje röd trea"),
    ("sv-classic", "opening.pile_top_only", "not_stated", None, None),
    ("sv-classic", "go_out.canastas_required", "interpreted", {2: 2, 3: 1, 4: 1}, None),
    ("sv-classic", "game.tie", "not_stated", None, None),
]


@pytest.mark.parametrize("vid,name,status,value,quoted", PINNED)
def test_known_silences_are_pinned(variants, vid, name, status, value, quoted):
    entry = variants[vid].entry(name)
    assert entry.status == status
    assert entry.note, "every silence or contradiction carries a note"
    got = [b["points"] for b in entry.value] if name == "opening.bands" else entry.value
    assert got == value
    if quoted:
        assert any(quoted in c.quote for c in entry.citations) or quoted in entry.note

