"""Readable at arm's length: 16 px or more for every text a player reads, visible table separators in
light mode, a minus toggle that says what it is, and no word broken in the middle."""

from __future__ import annotations

from e2e_helpers import open_page
from playwright.sync_api import expect
from test_page import enter_counts, save_round, start_game, went_out

SMALLEST_TEXT = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest('[hidden], .sr-only, option')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 16) small.push(`${size}px: ${el.tagName}.${el.className} "${n.textContent.trim().slice(0, 30)}"`);
  }
  return small;
}"""


def test_every_text_a_player_reads_is_16px_or_more(phone, screenshots):
    page, base = phone
    open_page(page, base, "#score")
    start_game(page, "sv-classic")
    enter_counts(page, 0, natural=1, melded=300)
    enter_counts(page, 1, melded=120, hand=30)
    went_out(page, "Us")
    save_round(page)
    assert page.evaluate(SMALLEST_TEXT) == []
    page.locator("#tab-settle").tap()
    page.locator("label[for=variant-no-pagat]").tap()
    page.locator('#field-top .kind[data-kind="9"]').tap()
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .verdict")).to_be_visible()
    assert page.evaluate(SMALLEST_TEXT) == []
    page.locator("#tab-rules").tap()
    expect(page.locator("#matrix .param").first).to_be_visible()
    assert page.evaluate(SMALLEST_TEXT) == []


def test_light_mode_separators_minus_toggle_and_whole_words(phone_at, live_server):
    page = phone_at(locale="sv-SE")
    open_page(page, live_server, "#score")
    rule = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--rule').trim()")
    assert rule.startswith("#"), f"--rule is {rule!r} in light mode"
    page.locator("label[for=score-variant-sv-classic]").tap()
    page.locator("#start-game").tap()
    expect(page.locator("#round-form-title")).to_be_visible()
    page.locator("#tab-settle").tap()
    page.locator("label[for=variant-sv-classic]").tap()  # the pile question shows the team's score, which may be minus
    sign = page.locator("#view-settle .sign").first
    expect(sign).to_have_text("Minus")  # says what it does, not a bare "+"
    sign.tap()
    expect(sign).to_have_attribute("aria-pressed", "true")
    expect(sign).to_contain_text("Minus")
    # No word is broken in the middle: every text box is at least as wide as its longest word.
    broken = page.evaluate("""() => [...document.querySelectorAll('th, td, label, .choice, .total-name')]
      .filter((el) => getComputedStyle(el).overflowWrap === 'anywhere' || getComputedStyle(el).wordBreak === 'break-all')
      .map((el) => el.textContent.trim().slice(0, 20))""")
    assert broken == []
