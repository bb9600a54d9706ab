"""Screenshots at 390 x 844 in every language, light and dark: the first screen, a verdict with an
open question, and a score pad. Saved under artifacts/screenshots/ to be looked at."""

from __future__ import annotations

import pytest
from e2e_helpers import Taps, open_page, pick
from playwright.sync_api import expect
from test_page import save_round

LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", list(LOCALES))
def test_screens(phone_at, live_server, screenshots, lang, scheme):
    page = phone_at(locale=LOCALES[lang], color_scheme=scheme)
    open_page(page, live_server)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.screenshot(path=screenshots / f"s-{lang}-{scheme}-1-first.png")
    page.locator("label[for=variant-da-ludo]").tap()
    page.locator("label[for=question-meld]").tap()
    tap = Taps(page)
    pick(tap, page.locator("#new-meld-0"), "9", 2)
    pick(tap, page.locator("#new-meld-0"), "2")
    page.locator("#new-meld-0").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / f"s-{lang}-{scheme}-2-picker.png")
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling fieldset[data-pointer]").first).to_be_visible()  # the referee asks (#42)
    page.wait_for_timeout(300)
    page.screenshot(path=screenshots / f"s-{lang}-{scheme}-3-open-point.png")
    page.locator("#tab-score").tap()
    page.locator("label[for=score-variant-da-ludo]").tap()
    page.locator("#start-game").tap()
    page.locator("#natural-0 button").nth(1).tap()
    page.locator("#melded-0").fill("300")
    page.locator("#melded-1").fill("150")
    page.locator("#went-out label").first.tap()
    save_round(page)
    page.locator("#melded-0").fill("12345")  # a warning: more than the deck is worth
    page.locator("#score-top").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=screenshots / f"s-{lang}-{scheme}-4-score.png")
    page.locator("#team-0").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / f"s-{lang}-{scheme}-5-round-form.png")
