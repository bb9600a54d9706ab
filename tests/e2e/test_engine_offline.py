"""The referee in the pocket: with no signal, the engine kept on the phone rules and scores.

The engine is the project's own ``adjudicator`` under Pyodide in a Web Worker (web/engine.js,
web/engine-worker.js), installed by ``scripts/install-engine-runtime``. These tests fail (never
skip) when it is not installed: the README's test command installs it.

Each test loads the page once online, waits until the engine is kept ("ready without signal"),
cuts the network (Playwright's offline emulation: the page, its workers and the HTTP cache), and
compares what the phone says with what the service says for the same question.
"""

from __future__ import annotations

import re

import pytest
from e2e_helpers import ENGINE_WAIT, Taps, api, open_page, pick, shown_number
from playwright.sync_api import expect
from test_offline import wait_until_kept_offline
from test_page import count_team, enter_counts, start_game, went_out

from web_api.page import ENGINE_FILES, engine_dir

ENGINE_HINT = "run `bash scripts/install-engine-runtime .venv/bin/python` (Pyodide from the npm registry, and the engine archive)"
FROZEN = {"variant": "no-pagat",
          "situation": {"discard_pile": ["9S"], "player": {"hand": ["9H", "JK"]}, "wild_in_pile": True},
          "action": {"type": "take_pile", "with": ["9H", "JK"]}}


@pytest.fixture(autouse=True)
def engine_installed():
    missing = [n for n in ENGINE_FILES if not (engine_dir() / n).is_file()]
    if missing:
        pytest.fail(f"the offline engine is not installed ({', '.join(missing)} missing): {ENGINE_HINT}", pytrace=False)


def wait_until_engine_kept(page):
    """The page says it is ready without signal, and the worker controls it (it serves the engine offline)."""
    wait_until_kept_offline(page)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=ENGINE_WAIT)


def drop_snapshot(page):
    """Forget the engine's snapshot: its next start is a first start again (the slowest there is)."""
    page.evaluate("""async () => {
        for (const name of await caches.keys()) {
            if (!name.startsWith('cr-engine-')) continue;
            const cache = await caches.open(name);
            for (const request of await cache.keys()) if (request.url.endsWith('/snapshot.bin')) await cache.delete(request);
        }
    }""")


SNAPSHOT_KEPT = """async () => {
    for (const name of await caches.keys())
        if (name.startsWith('cr-engine-') && (await (await caches.open(name)).keys()).some((r) => r.url.endsWith('/snapshot.bin')))
            return true;
    return false;
}"""


# Inside the page, from the tap to the answer: what the engine was doing when the tap came, and whether the
# busy state -- the button marked busy and the note where the answer will appear, in view -- was on screen before
# the answer.
WATCH_TAP = """(selector) => {
  const w = window.__tap = { awakeAtTap: null, busy: false, noteInView: false, noteWords: null, noteIn: null, answered: false };
  const button = document.querySelector(selector);
  button.addEventListener('pointerdown', () => {
    w.awakeAtTap = document.getElementById('engine-status').dataset.awake || null;
  }, { capture: true, once: true });
  const inView = (el) => { const r = el.getBoundingClientRect();
    return r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.left < innerWidth && r.right > 0; };
  const look = () => {
    if (w.answered) return;
    if (document.querySelector('#ruling .on-phone')) { w.answered = true; obs.disconnect(); return; }
    if (button.getAttribute('aria-busy') === 'true') w.busy = true;
    const note = document.querySelector('[data-busy-note]');
    if (note && inView(note)) {
      w.noteInView = true;
      if (w.noteWords === null) { w.noteWords = note.textContent; w.noteIn = note.closest('#ruling') ? 'answer' : 'elsewhere'; }
    }
  };
  const obs = new MutationObserver(look);
  obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def frozen_pile(page, tap, words, variant="no-pagat"):
    """The frozen-pile dispute as a family enters it: no-pagat (or `variant`), a nine on a pile with a wild card
    in it, a nine and a joker from the hand."""
    tap(page.locator(f"label[for=variant-{variant}]"))
    pick(tap, page.locator("#field-top"), "9")
    tap(page.get_by_text(words["take.wild"]))
    hand = page.locator("#field-with")
    pick(tap, hand, "9")
    pick(tap, hand, "JK")


def shown_ruling(page) -> dict:
    verdict = page.locator("#ruling .verdict")
    expect(verdict).to_be_visible()
    return {"verdict": verdict.get_attribute("data-verdict"),
            "word": verdict.locator(".verdict-word").inner_text(),
            "first_citation": page.locator("#ruling .why blockquote").first.inner_text(),
            "explanation": page.locator("#ruling .why").first.inner_text()}


@pytest.mark.parametrize("lang,locale", [("sv", "sv-SE"), ("nb", "nb-NO"), ("da", "da-DK"), ("en", "en-GB")])
def test_offline_frozen_pile_ruling_equals_the_online_one(phone_at, live_server, ui_packs, lang, locale, screenshots):
    page = phone_at(locale=locale)
    base = live_server
    words = ui_packs[lang]
    open_page(page, base)
    tap = Taps(page)
    frozen_pile(page, tap, words)
    tap(page.locator("#rule-button"))
    online = shown_ruling(page)
    assert online["verdict"] == "illegal"
    expect(page.locator("#ruling .on-phone")).to_have_count(0)  # the service ruled
    wait_until_engine_kept(page)
    expect(page.locator("#engine-status")).to_have_text(words["engine.ready"])

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    expect(page.locator("#net-status")).to_be_visible()
    page.locator("#rule-button").tap()  # the facts were kept on the phone
    expect(page.locator("#ruling .on-phone")).to_have_text(words["ruling.onPhone"], timeout=ENGINE_WAIT)
    offline = shown_ruling(page)
    assert offline == online, "the phone's engine ruled otherwise than the service"
    page.screenshot(path=screenshots / f"e1-offline-frozen-pile-{lang}.png")


def test_a_cold_tap_shows_the_busy_state_where_the_answer_will_appear(phone, ui_packs, screenshots):
    """Without signal, a tap while the engine on the phone starts shows at once that it was taken: the button
    busy and "waking the referee" where the answer will appear (#42), in view. Checked as what was on screen before the answer came,
    not as a time. The engine's snapshot is dropped first, so the tap surely finds it starting (a first start
    takes seconds); left be, it keeps a new one, and the next start (a reload) answers the same from it."""
    page, base = phone
    words = ui_packs["en"]
    open_page(page, base)
    tap = Taps(page)
    frozen_pile(page, tap, words)
    wait_until_engine_kept(page)
    drop_snapshot(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    page.evaluate(WATCH_TAP, "#rule-button")
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .on-phone")).to_have_text(words["ruling.onPhone"], timeout=ENGINE_WAIT)
    seen = page.evaluate("window.__tap")
    assert seen["awakeAtTap"] != "yes", f"the engine was awake already when the tap came: {seen}"
    assert seen["busy"] and seen["noteInView"], f"no busy state on screen before the answer: {seen}"
    assert seen["noteWords"] == words["busy.waking"] and seen["noteIn"] == "answer", seen
    expect(page.locator("#rule-button")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("[data-busy-note]")).to_have_count(0)
    first = shown_ruling(page)
    page.wait_for_function(SNAPSHOT_KEPT, timeout=ENGINE_WAIT, polling=500)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .on-phone")).to_be_visible(timeout=ENGINE_WAIT)
    assert shown_ruling(page) == first, "the engine started from its snapshot ruled otherwise"
    page.screenshot(path=screenshots / "e3-offline-busy-then-answer.png")


def test_the_wait_for_the_engine_is_said_in_the_players_language(ui_packs):
    """Keeping the engine says how much of how many megabytes, and the time left in words, in each language."""
    for lang, pack in ui_packs.items():
        keeping = pack["engine.keeping"]
        assert "3" in keeping and "9" in keeping and "MB" in keeping, (lang, keeping)  # the sample: 3 of 9 MB
    en = ui_packs["en"]
    for lang in ("sv", "nb", "da"):
        assert ui_packs[lang]["engine.keeping"] != en["engine.keeping"], lang
        assert ui_packs[lang]["engine.left"] != en["engine.left"], lang


FIRST_KEEPING_WORDS = """
new MutationObserver((_, seen) => {
  const line = document.getElementById('engine-status');
  if (line && line.dataset.state === 'keeping' && !window.firstKeepingWords) {
    window.firstKeepingWords = line.innerText;
    seen.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def test_on_a_slow_link_the_page_says_how_much_is_kept_and_how_long_is_left(browser, live_server):
    """On slow 3G (the page and its service worker throttled, as bench/page_bench.py does), while the engine
    is kept the status line says, in Swedish, how many of how many megabytes and about how long is left."""
    from conftest import open_context
    from e2e_helpers import SLOW_3G, WorkerThrottle

    throttle = WorkerThrottle(browser, SLOW_3G)
    context, page, watch = open_context(browser, live_server, locale="sv-SE")
    try:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_3G)
        page.add_init_script(FIRST_KEEPING_WORDS)
        page.goto(live_server + "/", timeout=ENGINE_WAIT)
        said = re.compile(r"^Sparar domaren i telefonen för spel utan täckning: \d+,\d av \d+,\d MB, "
                          r"(några sekunder|cirka \d+ sekunder|cirka en minut|cirka \d+ minuter) kvar\. Låt sidan vara öppen\.$")
        status = page.locator("#engine-status")
        for _ in range(ENGINE_WAIT // 250):  # the estimate comes once the first bytes are in (a bound on a hang)
            throttle.reapply()
            if status.get_attribute("data-state") == "keeping" and said.match(status.inner_text()):
                break
            page.wait_for_timeout(250)
        assert said.match(status.inner_text()), status.inner_text()
        expect(status.locator("progress")).to_have_count(1)
        # the estimate is there from the first words, before the engine's own bytes give a rate: the page
        # came over this same link, and its own bytes' time is the first measure of it
        first = page.evaluate("window.firstKeepingWords")
        assert first and first.startswith("Sparar domaren i telefonen för spel utan täckning: 0,0 av"), first
        assert said.match(first), first
        watch.check()
    finally:
        context.close()
        throttle.close()


def test_offline_three_round_game_adds_up_like_the_service(phone, screenshots):
    page, base = phone
    open_page(page, base, "#score")
    wait_until_engine_kept(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    start_game(page, "sv-classic")
    plays = [
        dict(us=dict(natural=1, melded=300, hand=0), them=dict(melded=120, hand=30), out="Us"),
        dict(us=dict(melded=200, hand=10), them=dict(natural=1, melded=400), out="Them"),
        dict(us=dict(natural=1, mixed=1, melded=650), them=dict(melded=90, hand=85), out="Us"),
    ]
    for play in plays:
        enter_counts(page, 0, **play["us"])
        enter_counts(page, 1, **play["them"])
        went_out(page, play["out"])
        page.locator("#save-round").tap()
        # the first answer waits for the engine to boot in its worker (seconds, not a network round trip)
        expect(page.locator("#score-notice")).to_be_visible(timeout=ENGINE_WAIT)
        expect(page.locator("#score-table tr.pending")).to_have_count(0, timeout=ENGINE_WAIT)
    rounds = [{"teams": [count_team("Us", **play["us"], out=play["out"] == "Us"),
                         count_team("Them", **play["them"], out=play["out"] == "Them")]} for play in plays]
    page.context.set_offline(False)
    expected = api(base, "POST", "/v1/score", {"variant": "sv-classic", "players": 4, "rounds": rounds})
    for i, team in enumerate(expected["teams"]):
        assert shown_number(page.locator(f"#total-{i}").inner_text()) == team["total"], team["name"]
        assert shown_number(page.locator(f"#opening-{i}").inner_text()) == team["opening_requirement"]["points"], team["name"]
    expect(page.locator("#score-table")).not_to_contain_text("not yet checked")
    expect(page.locator("#pending-note")).to_have_count(0)
    page.screenshot(path=screenshots / "e2-offline-three-rounds.png")


def test_without_the_engine_the_page_says_it_rules_online_only(phone, monkeypatch, tmp_path):
    """The README's serve command on a machine with only Python: no engine, and the page says so."""
    monkeypatch.setenv("CANASTA_ENGINE_DIR", str(tmp_path))  # an empty folder: the runtime is not installed
    page, base = phone
    open_page(page, base)
    expect(page.locator("meta[name=engine]")).to_have_count(0)
    status = page.locator("#engine-status")
    expect(status).to_have_attribute("data-state", "absent")
    expect(status).to_have_text("Rulings need a connection: this server offers no referee for use without signal.")
    page.locator("label[for=variant-sv-classic]").tap()
    page.locator('#field-top .kind[data-kind="8"]').tap()
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .verdict")).to_be_visible()  # online, the service rules as ever


def test_install_criteria_manifest_service_worker_and_icons(phone, live_server):
    """Chromium's own installability check finds nothing missing: manifest, icons (PNG, maskable), worker."""
    import json

    page, base = phone
    open_page(page, base)
    wait_until_kept_offline(page)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = json.loads(page.evaluate("(u) => fetch(u).then((r) => r.text())", href))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone" and manifest["name"]
    pngs = {(i["sizes"], i["purpose"]) for i in manifest["icons"] if i["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= pngs
    for icon in manifest["icons"]:
        assert page.evaluate("(u) => fetch(u).then((r) => r.status)", icon["src"]) == 200, icon["src"]
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito profiles, where nothing installs: that says nothing about the page
    assert [e for e in errors if e["errorId"] != "in-incognito"] == [], errors
