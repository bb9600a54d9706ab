"""Compare at a glance (issue #34 items 5-6), on a 390 x 844 phone in every language.

Compare rules under the game's house rules (and says so in words), leads with one line per variant
saying why, and shows a table row of a rule text as its cells, not as `| 3 000 eller mer | 120 |`.
"""

from __future__ import annotations

import json

import pytest
from e2e_helpers import open_page, pick, tell
from playwright.sync_api import expect

LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}
LANGS = list(LOCALES)


def bodies_of(page, path: str) -> list[dict]:
    seen: list[dict] = []
    page.on("request", lambda r: seen.append(json.loads(r.post_data))
            if r.method == "POST" and r.url.split("?")[0].endswith(path) else None)
    return seen


def tap(el):
    el.tap()


@pytest.mark.parametrize("lang", LANGS)
def test_compare_rules_under_the_house_rule_the_table_just_gave(phone_at, live_server, ui_packs, lang):
    """Item 5: "twos are wild: yes" settles da-ludo's ruling; Compare then sends it, da-ludo is settled
    there too, and the page says Compare used the table's house rules."""
    page = phone_at(locale=LOCALES[lang])
    words = ui_packs[lang]
    open_page(page, live_server)
    compared = bodies_of(page, "/v1/compare")
    page.locator("label[for=variant-da-ludo]").tap()
    page.locator("label[for=question-meld]").tap()
    meld = page.locator("#new-meld-0")
    pick(tap, meld, "9", 2)
    pick(tap, meld, "2")
    table = page.locator("#table-meld-0")  # the team's melds (a meld of kings): the page makes none up
    table.locator(".chip.add").tap()
    pick(tap, table, "K", 3)
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .verdict")).to_have_attribute("data-verdict", "undetermined")
    page.locator("#open-wild-twos").get_by_role("button", name=words["yes"]).tap()
    expect(page.locator("#open-wild-twos")).to_have_count(0)
    tell(page)  # drawn, and the rest a family in mid-game would say (nothing is pre-filled, #42)
    verdict = page.locator("#ruling .verdict")
    expect(verdict).not_to_have_attribute("data-verdict", "undetermined")
    settled = verdict.get_attribute("data-verdict")
    page.locator("#compare-button").tap()
    card = page.locator('#compare .compare-card[data-variant="da-ludo"]')
    expect(card).to_be_visible()
    assert compared[-1]["house_rules"] == {"wild.twos": True}
    expect(card).to_have_class(f"compare-card {settled}")
    said = page.locator("#compare .compare-house")
    expect(said).to_contain_text(words["q.wild.twos"])
    assert said.inner_text().startswith(words["compare.withHouse"].split("x")[0].strip())


@pytest.mark.parametrize("lang", LANGS)
def test_compare_without_house_rules_says_it_reads_the_texts_as_written(phone_at, live_server, ui_packs, lang):
    page = phone_at(locale=LOCALES[lang])
    words = ui_packs[lang]
    open_page(page, live_server)
    page.locator("label[for=variant-all]").tap()
    page.locator("label[for=question-go_out]").tap()
    pick(tap, page.locator("#out-meld-0"), "5", 3)
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .compare-house")).to_have_text(words["compare.asWritten"])


@pytest.mark.parametrize("lang", LANGS)
def test_compare_leads_with_one_line_per_variant_saying_why(phone_at, live_server, ui_packs, lang):
    """Item 6: going out with three fives and no canasta: each variant's line gives its own reason, so
    da-ludo's missing canasta and the others' reasons are read without scanning four columns."""
    page = phone_at(locale=LOCALES[lang])
    open_page(page, live_server)
    page.locator("label[for=variant-all]").tap()
    page.locator("label[for=question-go_out]").tap()
    pick(tap, page.locator("#out-meld-0"), "5", 3)
    page.locator("#rule-button").tap()
    lines = page.locator("#ruling .compare-lines > li")
    expect(lines).to_have_count(4)
    for i in range(4):
        line = lines.nth(i)
        expect(line.locator(".pill")).not_to_be_empty()
        assert len(line.locator(".compare-line-why").inner_text().strip()) > 10
    # The lines come before the cards: the first thing read after the headline.
    head = page.locator("#ruling .compare-head").bounding_box()
    first = lines.first.bounding_box()
    grid = page.locator("#ruling .compare-grid").bounding_box()
    assert head["y"] < first["y"] < grid["y"]
    assert first["y"] + first["height"] < 844 + page.evaluate("window.scrollY")


@pytest.mark.parametrize("lang", LANGS)
def test_a_quoted_table_row_is_shown_as_text_not_pipes(phone_at, live_server, lang):
    """Item 6: an opening ruled under sv-classic cites its table of minimums; no quote shows a pipe."""
    page = phone_at(locale=LOCALES[lang])
    open_page(page, live_server)
    page.locator("label[for=variant-sv-classic]").tap()
    page.locator("label[for=question-open]").tap()
    pick(tap, page.locator("#open-meld-0"), "K", 3)
    page.locator("#team-score").tap()
    page.keyboard.type("3000")
    page.locator("#rule-button").tap()
    tell(page)  # drawn, cards left: the opening's minimum is then what decides
    expect(page.locator("#ruling .verdict")).to_be_visible()
    page.locator("#ruling details.checks > summary").tap()
    page.evaluate("document.querySelectorAll('#ruling details').forEach((d) => { d.open = true; })")
    quotes = page.locator("#ruling blockquote")
    expect(quotes.first).to_be_visible()
    texts = [quotes.nth(i).inner_text() for i in range(quotes.count())]
    assert any(page.locator("#ruling blockquote .qrow").count() for _ in [0]), texts
    assert not [q for q in texts if "|" in q], texts
