"""A fifth variant is a YAML file: it loads, is listed, rules, scores and is compared, with no code change.

The synthetic variant is a copy of sv-classic with another id and three decks
instead of two, written into a temporary variants folder beside copies of the
shipped files (``CANASTA_VARIANTS_DIR`` / the app's ``VARIANTS_DIR``).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from adjudicator.variants import load_all
from web_api import create_app

ROOT = Path(__file__).resolve().parent.parent
FIFTH = "zz-fifth"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("variants")
    shutil.copytree(ROOT / "variants", out, dirs_exist_ok=True)
    text = (ROOT / "variants" / "sv-classic.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^id: sv-classic$", f"id: {FIFTH}", text)
    text = re.sub(r"(?m)^name: .*$", "name: Three-deck test copy", text)
    text, changed = re.subn(r"(?m)^(  deck\.decks:\n    value:) 2$", r"\1 3", text)
    assert changed == 1, "the copy must change deck.decks"
    (out / f"{FIFTH}.yaml").write_text(text, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def client(folder):
    return create_app({"TESTING": True, "VARIANTS_DIR": str(folder)}).test_client()


FIVE_RED_THREES = {"players": 4, "discard_pile": ["6C", "9D"],
                   "team": {"score": 1000, "melds": [["KH", "KS", "KD"]], "red_threes": 3},
                   "opponents": {"score": 0, "melds": [], "red_threes": 2},
                   "player": {"hand": ["9H", "9S", "5C"]}, "turn": {"drew": None}}
TAKE = {"type": "take_pile", "with": ["9H", "9S"]}


def test_it_loads_beside_the_shipped_four(folder):
    variants = load_all(str(folder))
    assert list(variants) == ["da-ludo", "no-pagat", "sv-classic", "sv-gamerules", FIFTH]
    assert variants[FIFTH].value("deck.decks") == 3 and variants[FIFTH].red_threes_in_deck == 6


def test_it_is_listed_and_shown(client):
    listed = [v["id"] for v in client.get("/v1/variants").get_json()["variants"]]
    assert FIFTH in listed
    detail = client.get(f"/v1/variants/{FIFTH}").get_json()
    assert next(p for p in detail["parameters"] if p["name"] == "deck.decks")["value"] == 3
    assert client.get(f"/v1/variants/{FIFTH}/source").status_code == 200
    assert FIFTH in client.get("/v1/matrix").get_json()["variants"]


def test_five_red_threes_are_possible_with_three_decks_only(client):
    ruled = client.post("/v1/adjudicate", json={"variant": FIFTH, "situation": FIVE_RED_THREES, "action": TAKE})
    assert ruled.status_code == 200, ruled.get_json()
    assert ruled.get_json()["verdict"] == "legal"
    refused = client.post("/v1/adjudicate", json={"variant": "sv-classic", "situation": FIVE_RED_THREES,
                                                   "action": TAKE})
    assert refused.status_code == 422 and refused.get_json()["type"].endswith("/impossible-input")
    assert refused.get_json()["errors"][0]["pointer"] == "/situation/opponents/red_threes"


def test_a_third_copy_of_a_card_is_possible_with_three_decks(client):
    hand = {**FIVE_RED_THREES, "team": {"score": 1000, "melds": [["KH", "KS", "KD"]]}, "opponents": None,
            "player": {"hand": ["9H", "9H", "9H", "5C"]}}
    take = {"type": "take_pile", "with": ["9H", "9H"]}
    assert client.post("/v1/adjudicate", json={"variant": FIFTH, "situation": hand, "action": take}).status_code == 200
    refused = client.post("/v1/adjudicate", json={"variant": "sv-classic", "situation": hand, "action": take})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["pointer"] == "/situation/player/hand/2"


def test_it_scores(client):
    body = {"variant": FIFTH, "players": 4,
            "teams": [{"name": "Vi", "melds": [["KH", "KS", "KD"]], "red_threes": 6, "went_out": False},
                      {"name": "De", "melded_points": 50}]}
    resp = client.post("/v1/score", json=body)
    assert resp.status_code == 200, resp.get_json()
    vi = resp.get_json()["teams"][0]
    # all six red threes of a three-deck game count as "all of them": sv-classic's 800
    assert {line["item"]: line["points"] for line in vi["lines"]}["red_threes"] == 800


def test_it_is_compared_by_default(client):
    resp = client.post("/v1/compare", json={"situation": FIVE_RED_THREES, "action": TAKE})
    assert resp.status_code == 200
    results = {r["variant"]: r for r in resp.get_json()["results"]}
    assert set(results) == {"da-ludo", "no-pagat", "sv-classic", "sv-gamerules", FIFTH}
    assert results[FIFTH]["ruling"]["verdict"] == "legal"
    assert results["sv-classic"]["problem"]["type"].endswith("/impossible-input")
