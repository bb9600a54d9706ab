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


# ----------------------------------------------------------------------------------------------
# Attacks on the cache folder (issue 36): each falls back to parsing the file, never hangs, never crashes


def _entry(raw: bytes, data: object) -> bytes:
    """A well-formed entry for the file bytes ``raw`` holding ``data``, as the loader itself writes one."""
    body = marshal.dumps(data)
    return loader.CACHE_FORMAT + hashlib.sha256(raw).digest() + hashlib.sha256(body).digest() + body


def _forged(folder: Path) -> tuple[bytes, dict]:
    """sv-classic's bytes and a parse of them changed as the issue's forger changed it (four decks, target 100)."""
    import yaml
    raw = (folder / "sv-classic.yaml").read_bytes()
    data = yaml.safe_load(raw.decode("utf-8"))
    data["parameters"]["deck.decks"]["value"] = 4
    data["parameters"]["game.target"]["value"] = {"4": 100}
    return raw, data


def _key(raw: bytes) -> str:
    return loader._cache_key(raw)


def _expected(folder: Path):
    """sv-classic as its file says, parsed with no cache at all."""
    import os as _os
    saved = _os.environ.get("CANASTA_CACHE_DIR")
    _os.environ["CANASTA_CACHE_DIR"] = ""
    try:
        return loader.load_variant(folder / "sv-classic.yaml")
    finally:
        _os.environ["CANASTA_CACHE_DIR"] = saved if saved is not None else ""


def _loads_the_file(folder: Path, expected) -> None:
    loaded = loader.load_variant(folder / "sv-classic.yaml")
    assert loaded.params == expected.params
    assert loaded.value("deck.decks") == 2 and loaded.value("game.target") != {4: 100}


@pytest.fixture
def private_cache(cache) -> Path:
    cache.mkdir(mode=0o700)
    os.chmod(cache, 0o700)
    return cache


def test_the_forged_entry_is_well_formed_so_the_attack_tests_below_test_the_guards(private_cache, folder):
    """Control: written by this user into its own private folder, the forged entry is read (the owner of the
    folder can change the variant files too); every test below differs from this one in one guard only."""
    expected = _expected(folder)
    raw, data = _forged(folder)
    (private_cache / _key(raw)).write_bytes(_entry(raw, data))
    os.chmod(private_cache / _key(raw), 0o600)
    assert loader.load_variant(folder / "sv-classic.yaml").value("deck.decks") == 4
    assert expected.value("deck.decks") == 2


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_forged_entry_in_a_folder_others_can_write_is_not_read(cache, folder):
    expected = _expected(folder)
    cache.mkdir(mode=0o777)
    os.chmod(cache, 0o777)
    raw, data = _forged(folder)
    (cache / _key(raw)).write_bytes(_entry(raw, data))
    _loads_the_file(folder, expected)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_forged_entry_others_can_write_is_not_read(private_cache, folder):
    expected = _expected(folder)
    raw, data = _forged(folder)
    path = private_cache / _key(raw)
    path.write_bytes(_entry(raw, data))
    os.chmod(path, 0o666)
    _loads_the_file(folder, expected)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_a_forged_entry_of_another_user_is_not_read(private_cache, folder):
    expected = _expected(folder)
    raw, data = _forged(folder)
    path = private_cache / _key(raw)
    path.write_bytes(_entry(raw, data))
    os.chmod(path, 0o600)
    os.chown(path, 54321, 54321)
    _loads_the_file(folder, expected)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_symlink_to_a_forged_entry_in_a_folder_others_can_write_is_not_followed(private_cache, folder, tmp_path):
    expected = _expected(folder)
    open_folder = tmp_path / "open"
    open_folder.mkdir()
    os.chmod(open_folder, 0o777)
    raw, data = _forged(folder)
    (open_folder / "forged").write_bytes(_entry(raw, data))
    os.chmod(open_folder / "forged", 0o600)
    (private_cache / _key(raw)).symlink_to(open_folder / "forged")
    _loads_the_file(folder, expected)


def _within(seconds: int):
    """Fail (not hang) when the block takes longer than ``seconds``: a bound on a hang, not a speed."""
    import contextlib
    import signal

    @contextlib.contextmanager
    def guard():
        def hung(*_):
            raise AssertionError(f"the load took more than {seconds} s: it waits on the cache")
        previous = signal.signal(signal.SIGALRM, hung)
        signal.alarm(seconds)
        try:
            yield
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
    return guard()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("how", ["named", "linked"])
def test_a_fifo_in_the_cache_does_not_hang_the_start(private_cache, folder, tmp_path, how):
    expected = _expected(folder)
    raw = (folder / "sv-classic.yaml").read_bytes()
    fifo = private_cache / _key(raw) if how == "named" else tmp_path / "fifo"
    os.mkfifo(fifo)
    if how == "linked":
        (private_cache / _key(raw)).symlink_to(fifo)
    with _within(60):  # a load takes well under a second; a loaded machine may take many
        _loads_the_file(folder, expected)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_link_to_dev_zero_does_not_crash_the_start(private_cache, folder):
    expected = _expected(folder)
    raw = (folder / "sv-classic.yaml").read_bytes()
    (private_cache / _key(raw)).symlink_to("/dev/zero")
    with _within(60):  # a load takes well under a second; a loaded machine may take many
        _loads_the_file(folder, expected)


def test_a_folder_in_place_of_an_entry_is_passed_over(private_cache, folder):
    expected = _expected(folder)
    raw = (folder / "sv-classic.yaml").read_bytes()
    (private_cache / _key(raw)).mkdir()
    _loads_the_file(folder, expected)


def test_an_entry_too_large_to_be_a_parse_is_not_read(private_cache, folder):
    expected = _expected(folder)
    raw, data = _forged(folder)
    data["padding"] = "x" * (loader.MAX_ENTRY_BYTES + 1)
    (private_cache / _key(raw)).write_bytes(_entry(raw, data))
    _loads_the_file(folder, expected)


def test_another_files_entry_under_this_files_name_is_not_read(private_cache, folder):
    """The name is not the proof: an entry names the sha256 of the bytes it was parsed from."""
    expected = _expected(folder)
    raw, data = _forged(folder)
    other = raw + b"\n# another file\n"
    (private_cache / _key(raw)).write_bytes(_entry(other, data))
    _loads_the_file(folder, expected)


@pytest.mark.parametrize("shape", ["a list", "parameters a list", "a value of the wrong type", "no id",
                                   "a bad status", "a citation off its text"])
def test_an_entry_of_the_wrong_shape_falls_back_to_the_file(private_cache, folder, shape):
    """The issue's entry of the wrong shape stopped the start; now the file is parsed and loads."""
    expected = _expected(folder)
    raw, data = _forged(folder)
    params = data["parameters"]
    if shape == "a list":
        data = [1, 2, 3]
    elif shape == "parameters a list":
        data["parameters"] = list(params)
    elif shape == "a value of the wrong type":
        params["deck.decks"]["value"] = "four"
    elif shape == "no id":
        del data["id"]
    elif shape == "a bad status":
        params["deck.decks"]["status"] = "forged"
    else:
        params["deck.decks"]["cite"][0]["start"] += 1
    (private_cache / _key(raw)).write_bytes(_entry(raw, data))
    _loads_the_file(folder, expected)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_symlinked_cache_folder_is_not_used(tmp_path, folder, monkeypatch):
    expected = _expected(folder)
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    raw, data = _forged(folder)
    (real / _key(raw)).write_bytes(_entry(raw, data))
    os.chmod(real / _key(raw), 0o600)
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("CANASTA_CACHE_DIR", str(tmp_path / "link"))
    _loads_the_file(folder, expected)


def test_a_kept_entry_is_writable_by_its_owner_alone(private_cache, folder):
    """Nobody else may change it; anybody may read it (a parse of a public file): the image fills the cache as
    root at build time, and the service's own user reads it (tests/test_image.py)."""
    loader.load_variant(folder / "sv-classic.yaml")
    (kept,) = private_cache.glob("*.marshal")
    assert not kept.stat().st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    assert not list(private_cache.glob(".*.tmp"))
