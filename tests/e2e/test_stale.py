"""Answers never go stale: a ruling is marked out of date the moment a fact changes, and a language
switch shows it again in the new language."""

from __future__ import annotations

from e2e_helpers import Taps, open_page, pick
from playwright.sync_api import expect


def test_a_changed_hand_marks_the_ruling_out_of_date_and_a_new_language_rerenders_it(phone, ui_packs):
    page, base = phone
    open_page(page, base)
    tap = Taps(page)
    tap(page.locator("label[for=variant-no-pagat]"))
    pick(tap, page.locator("#field-top"), "9")
    tap(page.get_by_text("A wild card lies in the pile"))
    hand = page.locator("#field-with")
    pick(tap, hand, "9")
    pick(tap, hand, "JK")
    tap(page.locator("#rule-button"))
    verdict = page.locator("#ruling .verdict")
    expect(verdict).to_have_attribute("data-verdict", "illegal")
    expect(page.locator("#ruling .stale-note")).to_have_count(0)

    # Swap the joker for a second nine: the "not allowed" on screen is about another hand now.
    hand.get_by_role("button", name="1 joker: tap to remove one").tap()
    stale = page.locator("#ruling .stale-note")
    expect(stale).to_have_text(ui_packs["en"]["ruling.stale"])
    expect(page.locator("#ruling")).to_have_class("ruling stale")
    pick(tap, hand, "9")
    expect(stale).to_be_visible()
    page.locator("#rule-button").tap()
    expect(stale).to_have_count(0)
    expect(page.locator("#ruling")).to_have_class("ruling")
    # a natural pair now: no longer refused (allowed, or allowed under the facts the referee then asks, #42)
    expect(verdict).not_to_have_attribute("data-verdict", "illegal")
    now = verdict.get_attribute("data-verdict")

    # Another language: the answer on screen is given again, in Swedish.
    page.locator("#lang-select").select_option("sv")
    expect(verdict).to_have_attribute("data-verdict", now)
    expect(page.locator("#ruling")).to_contain_text("du har dragit")  # the service's words, in Swedish
    expect(stale).to_have_count(0)


def test_rule_tiles_come_in_the_readers_language_first(phone_at, live_server):
    for locale, first in (("sv-SE", ["sv-classic", "sv-gamerules"]), ("nb-NO", ["no-pagat"]), ("da-DK", ["da-ludo"])):
        page = phone_at(locale=locale)
        open_page(page, live_server)
        ids = page.locator("#variant-choices input[name=variant]").evaluate_all("(xs) => xs.map((x) => x.value)")
        assert ids[:len(first)] == first, (locale, ids)
