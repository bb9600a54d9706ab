""""What may I do?" on the page: one tap from the facts entered lists the legal moves, grouped as the
service groups them; one more tap on a move shows its ruling with the rule text's own sentence."""

from __future__ import annotations

import pytest
from e2e_helpers import ENGINE_WAIT, Taps, api, open_page, pick
from playwright.sync_api import expect
from test_engine_offline import engine_installed, wait_until_engine_kept  # noqa: F401 -- fixture

LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}


def fill_frozen_pile(page, tap, words):
    """The frozen pile in "What may I do?"'s own form: a hand of two nines, a nine on a pile with a wild card."""
    tap(page.locator("label[for=variant-no-pagat]"))
    tap(page.locator("#options-button"))
    pick(tap, page.locator("#field-hand"), "9", 2)
    pick(tap, page.locator("#field-hand"), "5")  # cards kept after the take: not a going out
    pick(tap, page.locator("#field-hand"), "6")
    top = page.locator("#field-options-top")
    tap(top.locator(".chip.add"))
    pick(tap, top, "9")
    tap(page.get_by_text(words["take.wild"]))
    # Said, not pre-filled (#42): not drawn yet, and the team's meld of kings on the table (it has melded), so the
    # take is decided.
    tap(page.locator("label[for=turn-before]"))
    table = page.locator("#table-meld-0")
    tap(table.locator(".chip.add"))
    pick(tap, table, "K", 3)


def check_options(page, base, words, lang):
    tap = Taps(page)
    tap(page.locator("#options-button"))
    body = page.locator("#ruling .options-body")
    expect(body).to_be_visible(timeout=ENGINE_WAIT)
    groups = body.locator(".options-group")
    kinds = [groups.nth(i).get_attribute("data-kind") for i in range(groups.count())]
    assert kinds and kinds[0] == "take_pile" and "draw" in kinds, kinds  # what players ask first leads
    take = body.locator('.options-group[data-kind="take_pile"] .option-button').first
    expect(take.locator(".pill")).to_have_text(words["verdict.legal"])
    tap(take)
    expect(take).to_have_attribute("aria-expanded", "true")
    why = body.locator(".option-why:not([hidden])")
    expect(why.locator(".verdict")).to_have_attribute("data-verdict", "legal")
    expect(why.locator("blockquote").first).to_be_visible()
    assert tap.count <= 3, f"'what may I do?' took {tap.count} taps from a filled hand"
    return kinds


@pytest.mark.parametrize("lang", ["sv", "nb", "da", "en"])
def test_what_may_i_do_in_two_taps_from_a_filled_hand_online_and_offline(phone_at, live_server, ui_packs, lang):
    page = phone_at(locale=LOCALES[lang])
    words = ui_packs[lang]
    open_page(page, live_server)
    fill_frozen_pile(page, Taps(page), words)
    online = check_options(page, live_server, words, lang)
    expect(page.locator("#ruling .on-phone")).to_have_count(0)
    head = page.locator("#ruling .options-group h3").first.inner_text()

    wait_until_engine_kept(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    offline = check_options(page, live_server, words, lang)
    expect(page.locator("#ruling .on-phone")).to_have_text(words["ruling.onPhone"])
    assert offline == online
    assert page.locator("#ruling .options-group h3").first.inner_text() == head  # the service's own words
