"""The kept parse of the variant files: used only while it is the file's own, never trusted otherwise."""

from __future__ import annotations

import hashlib
import marshal
import os
import shutil
import stat
from pathlib import Path

import pytest

from adjudicator import variants as loader

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CANASTA_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def folder(tmp_path) -> Path:
    """A copy of the shipped variants, free to change."""
    copy = tmp_path / "variants"
    shutil.copytree(ROOT / "variants", copy)
    return copy


def _yaml_parse_fails(monkeypatch):
    """Make PyYAML's parse fail, so a load can only come from the cache."""
    import yaml

    def refuse(*args, **kwargs):
        raise AssertionError("parsed instead of read from the cache")
    monkeypatch.setattr(yaml, "load", refuse)


def test_a_second_load_reads_the_kept_parse_and_equals_the_first(cache, folder, monkeypatch):
    first = loader.load_variant(folder / "sv-classic.yaml")
    assert len(list(cache.glob("*.marshal"))) == 1
    _yaml_parse_fails(monkeypatch)
    again = loader.load_variant(folder / "sv-classic.yaml")
    assert again.params == first.params and again.text == first.text and again.names == first.names


def test_a_changed_file_is_parsed_again(cache, folder, monkeypatch):
    loader.load_variant(folder / "sv-classic.yaml")
    path = folder / "sv-classic.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("name: ", "name: Changed ", 1), encoding="utf-8")
    changed = loader.load_variant(path)
    assert changed.name.startswith("Changed ")
    assert len(list(cache.glob("*.marshal"))) == 2


def test_a_wrong_citation_is_refused_whatever_the_cache_holds(cache, folder):
    """The cache holds the parse only: each load still checks every citation against the source text."""
    loader.load_variant(folder / "sv-classic.yaml")
    source = folder / loader.load_variant(folder / "sv-classic.yaml").source_file
    source.write_text("X" + source.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(loader.VariantError):
        loader.load_variant(folder / "sv-classic.yaml")


@pytest.mark.parametrize("damage", ["truncated", "flipped", "code"])
def test_a_damaged_or_foreign_cache_file_is_ignored(cache, folder, damage):
    expected = loader.load_variant(folder / "sv-classic.yaml")
    (kept,) = cache.glob("*.marshal")
    blob = kept.read_bytes()
    if damage == "truncated":
        blob = blob[: len(blob) // 2]
    elif damage == "flipped":
        blob = blob[:-1] + bytes([blob[-1] ^ 1])
    else:  # a well-formed file whose data is not plain data: a code object, with a matching digest
        body = marshal.dumps({"id": compile("1", "x", "eval")})
        blob = hashlib.sha256(body).digest() + body
    kept.write_bytes(blob)
    assert loader.load_variant(folder / "sv-classic.yaml").params == expected.params


def test_an_empty_cache_dir_setting_keeps_nothing(tmp_path, folder, monkeypatch):
    monkeypatch.setenv("CANASTA_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    loader.load_variant(folder / "sv-classic.yaml")
    assert not (tmp_path / "xdg").exists()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_can_write_to_is_not_used(cache, folder):
    cache.mkdir(mode=0o777)
    os.chmod(cache, 0o777)  # whatever the umask made of it
    loader.load_variant(folder / "sv-classic.yaml")
    assert not list(cache.glob("*.marshal"))
    assert cache.stat().st_mode & stat.S_IWOTH
