"""The engine warmed before the first tap (issue #42, item 8), on a 390 x 844 phone in each language.

Without signal the page says "Ready without signal" only once the engine on the phone has started and ruled
once: until then it says it is waking it (the status line and the offline line), so the first question asked
after "ready" is answered by a warm engine -- the tap finds it awake and no "waking" note is shown. Checked as
what the page said and when, not as a time (the times are bench/page_bench.py's "after ready" figure).
"""

from __future__ import annotations

import pytest
from e2e_helpers import ENGINE_WAIT, Taps, open_page
from playwright.sync_api import expect
from test_engine_offline import SNAPSHOT_KEPT, WATCH_TAP, engine_installed, frozen_pile, wait_until_engine_kept

LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}
_ = engine_installed  # the fixture: these tests fail (never skip) without the engine

# Before the page's own scripts: every change of the two status lines, with whether the engine was awake then.
STATUS_LOG = """(() => {
  window.__said = [];
  const look = () => {
    const line = document.getElementById('engine-status');
    const net = document.getElementById('net-status');
    if (!line) return;
    const now = [line.textContent, line.dataset.awake || '', net ? net.textContent : ''];
    const last = window.__said[window.__said.length - 1];
    if (!last || last.join('|') !== now.join('|')) window.__said.push(now);
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();"""


@pytest.mark.parametrize("lang", list(LOCALES))
def test_ready_without_signal_is_said_once_the_engine_has_ruled_so_the_first_tap_is_warm(phone_at, live_server,
                                                                                       ui_packs, lang):
    words = ui_packs[lang]
    page = phone_at(locale=LOCALES[lang])
    open_page(page, live_server)
    frozen_pile(page, Taps(page), words)
    wait_until_engine_kept(page)
    page.wait_for_function(SNAPSHOT_KEPT, timeout=180_000, polling=500)  # an offline start then takes a second
    page.context.add_init_script(STATUS_LOG)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    status = page.locator("#engine-status")
    expect(status).to_have_text(words["engine.ready"], timeout=120_000)
    expect(page.locator("#net-status")).to_have_text(words["net.offlineEngine"])
    said = page.evaluate("window.__said")
    first_ready = next(i for i, (text, _, _) in enumerate(said) if text == words["engine.ready"])
    assert said[first_ready][1] == "yes", f"'ready' was said before the engine had started and ruled: {said}"
    offline_lines = [net for _, _, net in said[:first_ready] if net]
    assert words["net.offlineEngine"] not in offline_lines, f"the offline line said the phone rules too early: {said}"
    assert words["busy.waking"] in [text for text, _, _ in said[:first_ready]], said  # it said what it was doing

    page.evaluate(WATCH_TAP, "#rule-button")
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .on-phone")).to_have_text(words["ruling.onPhone"], timeout=ENGINE_WAIT)
    seen = page.evaluate("window.__tap")
    assert seen["awakeAtTap"] == "yes", f"the first tap after 'ready' found the engine asleep: {seen}"
    assert seen["noteWords"] != words["busy.waking"], f"the first tap after 'ready' waited for the engine: {seen}"



# Before the page's own scripts: the page's cache storage answers 4 s late, as on a phone busy opening the page, so a
# tap lands before the page has looked whether its engine is kept (its start waits for the rule data too).
SLOW_CACHES = """(() => {
  const open = CacheStorage.prototype.open;
  CacheStorage.prototype.open = function (...args) {
    return new Promise((resolve) => setTimeout(resolve, 4000)).then(() => open.apply(this, args));
  };
})();"""


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_tap_without_signal_before_the_page_has_looked_for_its_engine_is_answered_on_the_phone(
        phone_at, live_server, ui_packs, lang):
    """The engine is kept; offline, the page opens and the question is asked before the page has found it in its
    cache: the answer comes from the phone, never "Rulings need a connection" (it was, at load 13, in
    test_what_may_i_do[nb] on merged main)."""
    words = ui_packs[lang]
    page = phone_at(locale=LOCALES[lang])
    open_page(page, live_server)
    frozen_pile(page, Taps(page), words)
    wait_until_engine_kept(page)
    page.context.add_init_script(SLOW_CACHES)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    assert page.locator("#engine-status").get_attribute("data-state") in (None, "waiting")  # not looked yet
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .on-phone")).to_have_text(words["ruling.onPhone"], timeout=ENGINE_WAIT)
    expect(page.locator("#ruling .problem.offline")).to_have_count(0)
