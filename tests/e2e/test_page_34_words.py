"""Words a native player would use (issue #34 item 8), on a 390 x 844 phone in every language, and the
glossary kept: the page's words for the game's things are the glossary's (docs/glossary/<lang>.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_helpers import api, open_page, pick, tell
from playwright.sync_api import expect

LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}
LANGS = list(LOCALES)
GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary"
SUIT_SIGNS = "\u2660\u2665\u2666\u2663"


def tap(el):
    el.tap()


def glossary(lang: str) -> dict[str, str]:
    """English term -> the bold stem of the language's word ("stock" -> "stocken")."""
    out = {}
    for line in (GLOSSARY / f"{lang}.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        bold = re.search(r"\*\*(.+?)\*\*", cells[1]) if len(cells) > 2 else None
        if bold:
            out[cells[0]] = bold.group(1)
    return out


# The page's words that name a thing of the game, with the glossary term each must use.
TERMS = {"options.stock": "stock", "take.pile": "discard pile", "q.concealed.discard_allowed": "go out",
         "q.stock.empty_forced_take": "stock"}


@pytest.mark.parametrize("lang", ["sv", "nb", "da"])
def test_the_page_says_the_glossarys_words(ui_packs, lang):
    words = glossary(lang)
    pack = ui_packs[lang]
    for key, term in TERMS.items():
        # Inflected as the sentence needs: each word of the glossary's, less its ending.
        stems = [w[:max(2, len(w) - 2)].lower() for w in words[term].split()]
        assert all(st in pack[key].lower() for st in stems), (lang, key, pack[key], words[term])


def test_every_point_a_text_leaves_open_is_asked_as_a_plain_question(live_server, ui_packs):
    """A house-rule question is a question a player would ask ("May a player going out concealed finish
    with a discard?"), never "How do you play this: whether ...?" -- in every language, online or not."""
    rows = api(live_server, "GET", "/v1/matrix")["rows"]
    open_names = [r["parameter"] for r in rows if any(v["status"] == "not_stated" for v in r["values"].values())]
    assert "concealed.discard_allowed" in open_names
    for lang in LANGS:
        pack = ui_packs[lang]
        for name in open_names:
            asked = pack.get(f"q.{name}")
            assert asked and asked.endswith("?") and "whether" not in asked, (lang, name, asked)
    assert ui_packs["sv"]["q.concealed.discard_allowed"] == "Får den som går ut dolt avsluta med ett kast?"
    assert ui_packs["nb"]["q.concealed.discard_allowed"].startswith("Kan den som går ut skjult")
    assert ui_packs["da"]["q.concealed.discard_allowed"] == "Må man slutte med at smide, når man lukker hånden?"


def test_the_words_a_player_reads_are_their_own(ui_packs):
    for lang in LANGS:
        pack = ui_packs[lang]
        # The hint names the minus button by the word on it.
        assert pack["num.minusShort"] in pack["facts.scoreError"] and "±" not in pack["facts.scoreError"], lang
    assert ui_packs["en"]["end.weWon"] == "We won!"
    assert ui_packs["da"]["end.weWon"] == "Vi vandt!"
    assert ui_packs["nb"]["score.title"] == "Poengføring"
    assert not ui_packs["da"]["options.title"].startswith("Det må du")


@pytest.mark.parametrize("lang", LANGS)
def test_the_rule_button_says_what_the_tab_says_and_no_suit_is_invented(phone_at, live_server, ui_packs, lang):
    page = phone_at(locale=LOCALES[lang])
    words = ui_packs[lang]
    open_page(page, live_server)
    if lang == "sv":
        expect(page.locator("#rule-button")).to_have_text(page.locator("#tab-settle").inner_text())
    # The frozen pile with a nine and a joker: the ruling names the cards entered, without suits.
    page.locator("label[for=variant-no-pagat]").tap()
    pick(tap, page.locator("#field-top"), "9")
    page.locator("#pile-wild").check()
    pick(tap, page.locator("#field-with"), "9")
    pick(tap, page.locator("#field-with"), "JK")
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .verdict")).to_have_attribute("data-verdict", "illegal")
    shown = page.locator("#ruling .why").inner_text()
    assert not [c for c in SUIT_SIGNS if c in shown], shown
    # "What may I do?" lists moves by rank, never a suit the player did not choose.
    page.locator("#options-button").tap()
    pick(tap, page.locator("#field-hand"), "7", 2)
    page.locator("#options-button").tap()
    body = page.locator("#ruling .options-body")
    expect(body).to_be_visible()
    listed = body.inner_text()
    assert not [c for c in SUIT_SIGNS if c in listed], listed


@pytest.mark.parametrize("lang", LANGS)
def test_a_team_with_no_canasta_is_said_in_words(phone_at, live_server, ui_packs, lang):
    """da: "Dit hold har ingen canastaer", not "nul"; and the Rules tab's counts are words, not boxes."""
    page = phone_at(locale=LOCALES[lang])
    open_page(page, live_server)
    page.locator("label[for=variant-sv-classic]").tap()
    page.locator("label[for=question-go_out]").tap()
    pick(tap, page.locator("#out-meld-0"), "5", 3)
    page.locator("#rule-button").tap()
    # Told as the family tells it (#42: nothing pre-filled): drawn, the team has melded (no meld of fives), no canasta.
    tell(page, {"/situation/team/melds": 0, "/situation/team/ranks/5": 1, "/situation/team/canastas": 0})
    expect(page.locator("#ruling .verdict")).to_have_attribute("data-verdict", "illegal")
    text = page.locator("#ruling .why").inner_text()
    assert "canast" in text.lower(), text
    assert not re.search(r"\b(nul|0|zero|noll) canast", text.lower()), text
    if lang == "da":
        assert "ingen canasta" in text, text  # "Dit hold har ingen canasta; du skal have én for at lukke." (#42)
    page.locator("#tab-rules").tap()
    count = page.locator(".rule-section summary .section-count").first
    expect(count).to_be_visible()
    assert count.evaluate("el => getComputedStyle(el).borderTopStyle") == "none"
    assert count.inner_text().startswith("(")
