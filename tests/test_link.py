"""Links that carry a question or a game (adjudicator/link.py, docs/links.md): written and read back, every
damaged form refused with its reason, the rules' version named, and the command line both ways.

The page's own encoder (web/link.js, the browser's CompressionStream) is held to the same bytes by
tests/e2e/test_links.py, which encodes in Chromium and decodes here, and the reverse.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zlib
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from adjudicator import cli, link, load_all
from adjudicator.answers.use_cases import answer

ROOT = Path(__file__).resolve().parent.parent

FROZEN = {"variant": "sv-classic", "situation": {
    "first_round": False, "players": 4, "discard_pile": ["9H"],
    "pile_unnamed": {"wild": True, "black_three": False, "red_three_first": False},
    "team": {"score": 1200, "opened": True}, "turn": {"drew": None, "cards_from_pile": []}},
    "action": {"type": "take_pile", "with": ["9S", "JK"]}}

GAME = {"v": 1, "kind": "game", "lang": "da", "game": {
    "variant": "da-ludo", "players": 4, "teams": ["", "Dem"], "seats": ["Anna", "", "", ""], "first_dealer": 1,
    "house_rules": {"opening.negative": 50},
    "rounds": [{"teams": [{"natural_canastas": 1, "mixed_canastas": 0, "melded_points": 300, "hand_points": 0,
                           "red_threes": 1, "went_out": True, "concealed": False},
                          {"natural_canastas": 0, "mixed_canastas": 0, "melded_points": 120, "hand_points": 45,
                           "red_threes": 0, "went_out": False, "penalties": [{"kind": "hint"}]}]}]}}


def raw_fragment(payload: bytes, version: int = 1) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = packer.compress(payload) + packer.flush()
    return f"cr{version}." + base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.fixture(scope="module")
def variants():
    return load_all()


def test_a_question_goes_there_and_back(variants):
    document = link.question(FROZEN, lang="sv", variants=variants)
    assert document["ask"] == "ruling" and document["lang"] == "sv"
    assert document["rules"] == {"sv-classic": link.rules_version(variants["sv-classic"])}
    url = link.link(document, "https://referee.example/#settle")
    assert url.startswith("https://referee.example/#cr1.")
    assert link.decode(url) == document
    assert link.decode(url.split("#")[1]) == document  # the fragment alone reads the same
    assert len(url.split("#")[1]) < 400, "a common dispute fits a link of a few hundred characters"


def test_the_bytes_are_raw_deflate_in_base64url_of_the_json():
    document = link.check({"kind": "question", "ask": "options", "variant": "da-ludo", "situation": {"player": {"hand": ["AH"]}}})
    data = link.encode(document).split(".", 1)[1]
    assert set(data) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    inflated = zlib.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), -15)
    assert json.loads(inflated) == document
    # and a link another writer made (other compression level, other key order) reads the same
    other = raw_fragment(json.dumps(dict(reversed(list(document.items())))).encode())
    assert link.decode(other) == document


def test_the_decoded_question_is_ruled_as_the_request_it_came_from(variants):
    kind, body = link.request_of(link.decode(link.encode(link.question(FROZEN, variants=variants))))
    assert kind == "adjudicate"
    assert answer(kind, body, "sv", variants=variants).document == answer("adjudicate", FROZEN, "sv", variants=variants).document


@pytest.mark.parametrize("body, ask, endpoint", [
    (FROZEN, "ruling", "adjudicate"),
    ({k: v for k, v in FROZEN.items() if k != "variant"}, "compare", "compare"),
    ({k: v for k, v in FROZEN.items() if k != "action"}, "options", "options"),
])
def test_the_kind_of_question_follows_the_body(variants, body, ask, endpoint):
    document = link.question(body, variants=variants)
    assert document["ask"] == ask
    assert link.request_of(document) == (endpoint, body)
    if ask == "compare":
        assert set(document["rules"]) == set(variants)


def test_a_game_goes_there_and_back():
    assert link.decode(link.link(GAME, "https://referee.example/")) == GAME


@pytest.mark.parametrize("text, code", [
    ("https://referee.example/#settle", "not-a-link"),
    ("hello", "not-a-link"),
    ("cr1", "malformed"),
    ("cr1.", "truncated"),
    ("cr1.$$$$", "malformed"),
    ("cr2.AAAA", "future-version"),
    ("cr17.whatever", "future-version"),
    ("cr0.AAAA", "malformed"),
])
def test_a_damaged_or_foreign_link_says_why(text, code):
    with pytest.raises(link.LinkError) as caught:
        link.decode(text)
    assert caught.value.code == code


def test_a_link_cut_short_says_so(variants):
    whole = link.encode(link.question(FROZEN, variants=variants))
    for cut in range(len("cr1.") + 1, len(whole) - 1, 7):
        with pytest.raises(link.LinkError) as caught:
            link.decode(whole[:cut])
        assert caught.value.code in ("truncated", "malformed"), whole[:cut]
    with pytest.raises(link.LinkError) as caught:
        link.decode(whole[:-20])
    assert caught.value.code == "truncated"


def test_data_after_the_end_and_damaged_documents_are_refused():
    good = raw_fragment(json.dumps({"v": 1, "kind": "question", "ask": "options", "variant": "x", "situation": {}}).encode())
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = packer.compress(b'{"v":1}') + packer.flush() + b"junk"
    for text, code in [
        ("cr1." + base64.urlsafe_b64encode(stream).decode().rstrip("="), "malformed"),
        (raw_fragment(b"not json"), "malformed"),
        (raw_fragment(b"\xff\xfe"), "malformed"),
        (raw_fragment(b"[1, 2]"), "malformed"),
        (raw_fragment(b'{"v": 2, "kind": "question"}', version=1), "malformed"),  # the prefix and the document disagree
        (raw_fragment(json.dumps({"v": 1, "kind": "poem"}).encode()), "malformed"),
        (raw_fragment(json.dumps({"v": 1, "kind": "question", "ask": "ruling", "variant": "x", "situation": {}}).encode()), "malformed"),
        (raw_fragment(json.dumps({"v": 1, "kind": "question", "ask": "options", "variant": "x", "situation": {}, "lang": "fr"}).encode()), "malformed"),
        (raw_fragment(json.dumps({"v": 1, "kind": "game", "game": {"variant": "x", "players": 4, "rounds": [{"teams": "x"}]}}).encode()), "malformed"),
    ]:
        with pytest.raises(link.LinkError) as caught:
            link.decode(text)
        assert caught.value.code == code, text
    assert link.decode(good)["variant"] == "x"


def test_a_link_that_unpacks_into_too_much_is_refused():
    bomb = raw_fragment(b'{"v":1,"kind":"game","game":{"variant":"' + b"a" * (link.MAX_DOCUMENT + 10) + b'"}}')
    assert len(bomb) < 1000
    with pytest.raises(link.LinkError) as caught:
        link.decode(bomb)
    assert caught.value.code == "too-large"
    with pytest.raises(link.LinkError) as caught:
        link.decode("cr1." + "A" * (link.MAX_LINK + 1))
    assert caught.value.code == "too-large"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", max_size=300))
def test_any_data_is_read_or_refused_with_a_reason(data):
    try:
        link.decode("cr1." + data)
    except link.LinkError as error:
        assert error.code in ("malformed", "truncated", "too-large")


def test_the_rules_version_follows_the_rules_not_the_words(variants):
    classic = variants["sv-classic"]
    assert link.rules_version(classic) == link.rules_version(load_all.__wrapped__()["sv-classic"])
    assert len({link.rules_version(v) for v in variants.values()}) == len(variants)
    entry = classic.params["meld.max_wilds"]
    changed = classic.with_entries({"meld.max_wilds": replace(entry, value=(entry.value or 0) + 1)})
    assert link.rules_version(changed) != link.rules_version(classic)
    reworded = classic.with_entries({"meld.max_wilds": replace(entry, note="other words", notes=())})
    assert link.rules_version(reworded) == link.rules_version(classic)
    document = link.question(FROZEN, variants=variants)
    assert link.differing_rules(document, variants) == []
    assert link.differing_rules(document, dict(variants, **{"sv-classic": changed})) == ["sv-classic"]


def test_the_service_lists_each_variants_rules_version(client, variants):
    listed = client.get("/v1/variants").get_json()["variants"]
    assert {v["id"]: v["rules_version"] for v in listed} == {k: link.rules_version(v) for k, v in variants.items()}


# ---- the command line ----------------------------------------------------------------------------

def run(*args, stdin: str | None = None):
    done = subprocess.run([sys.executable, "-m", "adjudicator", "link", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout


def test_the_command_line_writes_a_link_and_reads_it_back(tmp_path, variants):
    body = tmp_path / "situation.json"
    body.write_text(json.dumps(FROZEN), encoding="utf-8")
    code, out = run(str(body), "--base", "https://referee.example/", "--lang", "sv")
    assert code == 0 and out.startswith("https://referee.example/#cr1.")
    url = out.strip()
    assert link.decode(url) == link.question(FROZEN, lang="sv", variants=variants)
    code, back = run(url)
    assert code == 0 and json.loads(back) == link.decode(url)
    saved = tmp_path / "link.txt"
    saved.write_text(url + "\n", encoding="utf-8")
    assert run(str(saved))[1] == back
    assert run("-", stdin=url)[1] == back
    game = tmp_path / "game.json"
    game.write_text(json.dumps(GAME, ensure_ascii=False), encoding="utf-8")
    code, out = run(str(game))
    assert code == 0 and out.startswith("#cr1.") and link.decode(out) == GAME


def test_the_command_line_refuses_what_it_cannot_read(tmp_path):
    code, out = run("cr2.AAAA")
    assert code == 2 and json.loads(out)["type"] == "link-future-version"
    code, out = run(str(tmp_path / "missing.json"))
    assert code == 2 and json.loads(out)["type"] == "link-unreadable-file"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, out = run(str(bad))
    assert code == 2 and json.loads(out)["type"] == "link-malformed"


def test_the_subcommand_is_registered_in_the_command_line(capsys):
    assert cli.main(["link", "cr1."]) == 2
    assert json.loads(capsys.readouterr().out)["type"] == "link-truncated"


def test_the_documented_example_is_true():
    """docs/links.md: its example link is the example document, read by the library."""
    import re

    text = (ROOT / "docs" / "links.md").read_text(encoding="utf-8")
    example = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    url = "".join(re.search(r"```\n(https://referee\.example/#cr1\.[^`]+)```", text).group(1).split())
    assert link.decode(url) == example
    # the version the example names is an example's (it changes with every edit of sv-classic.yaml): it has the
    # form the library writes, and the library names the variant's version in that form
    assert list(example["rules"]) == ["sv-classic"] and re.fullmatch(r"[0-9a-f]{8}", example["rules"]["sv-classic"])
    assert re.fullmatch(r"[0-9a-f]{8}", link.rules_version(load_all()["sv-classic"]))
    assert f"({len(url.split('#')[1])} characters after `#`;" in text
