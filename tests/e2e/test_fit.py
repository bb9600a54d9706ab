"""Fit and finish: dark mode, landscape, 360 px in every language, errors beside their cause."""

from __future__ import annotations

import pytest
from e2e_helpers import Taps, open_page, pick
from playwright.sync_api import expect

LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}


def luminance(rgb: str) -> float:
    parts = [int(x) / 255 for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_dark_mode_follows_the_phone_with_the_same_contrast(phone_at, live_server, screenshots):
    page = phone_at(color_scheme="dark")
    open_page(page, live_server)
    colours = page.evaluate("""() => { const s = getComputedStyle(document.body);
        return { bg: s.backgroundColor, ink: s.color }; }""")
    assert luminance(colours["bg"]) < 0.05, f"the page is not dark: {colours}"
    assert contrast(colours["bg"], colours["ink"]) >= 7, colours
    page.locator("label[for=variant-no-pagat]").tap()
    tap = Taps(page)
    pick(tap, page.locator("#field-top"), "9")
    page.get_by_text("A wild card lies in the pile").tap()
    pick(tap, page.locator("#field-with"), "9")
    pick(tap, page.locator("#field-with"), "JK")
    page.locator("#rule-button").tap()
    verdict = page.locator("#ruling .verdict")
    expect(verdict).to_be_visible()
    word = verdict.locator(".verdict-word").evaluate("el => [getComputedStyle(el).color, getComputedStyle(el.parentElement).backgroundColor]")
    assert contrast(*word) >= 4.5, word
    page.wait_for_timeout(300)
    page.screenshot(path=screenshots / "g1-dark-verdict.png")
    open_page(page, live_server, "#score")
    page.screenshot(path=screenshots / "g2-dark-score.png")


def test_landscape_keeps_the_picker_in_view(phone_at, live_server, screenshots):
    page = phone_at(844, 390)
    open_page(page, live_server)
    # the rule data arrives after the first screen and may redraw the pickers (sv-classic's deck holds four
    # jokers, not the six a picker allows before it knows): ask once it is in, as a player would see it
    page.wait_for_load_state("networkidle")
    page.locator("label[for=variant-sv-classic]").tap()
    page.locator("label[for=question-meld]").tap()
    kinds = page.locator("#new-meld-0 .kinds")
    kinds.scroll_into_view_if_needed()
    # Nothing stays stuck over the page while scrolling: the header and the button scroll away.
    covered = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((el) => ['sticky', 'fixed'].includes(getComputedStyle(el).position) && el.offsetParent !== null)
        .filter((el) => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
        .reduce((sum, el) => sum + el.getBoundingClientRect().height, 0)""")
    assert covered <= 8, f"{covered}px of the 390px height stay covered in landscape"
    box = kinds.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 390, box
    hit = page.evaluate("""() => { const r = document.querySelector('#new-meld-0 .kinds').getBoundingClientRect();
        const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return el && el.closest('.kinds') !== null; }""")
    assert hit, "something covers the picker"
    page.screenshot(path=screenshots / "g3-landscape-picker.png")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_360px_nothing_wraps_in_the_header(phone_at, live_server, lang, screenshots):
    page = phone_at(360, 740, locale=LOCALES[lang])
    open_page(page, live_server)
    wrapped = page.evaluate("""() => [...document.querySelectorAll('.tabs .tab, .brand span')].filter((el) => {
        const range = document.createRange(); range.selectNodeContents(el);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return lines.size > 1 || el.scrollWidth > el.clientWidth + 1; }).map((el) => el.textContent)""")
    assert wrapped == [], f"{lang}: {wrapped} wrap or are cut at 360px"
    header = page.locator("header.top").bounding_box()
    assert header["height"] <= 110, header
    if lang == "en":
        page.screenshot(path=screenshots / "g4-360px.png")
