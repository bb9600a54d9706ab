"""No signal, still a page: the service worker keeps the page, the rules and the game.

These tests are about a server without the offline engine (tests/e2e/test_engine_offline.py has
the engine's): the page, the rules and the typed rounds are kept, and what needs the referee waits.

The network is cut with Playwright's offline emulation (the page, its service worker and
the HTTP cache all see it). Nothing typed is lost: a round saved offline waits as "not yet
checked" and is scored when the connection returns; a half-entered round survives a reload.
"""

from __future__ import annotations

import re

from e2e_helpers import api, open_page, shown_number
from playwright.sync_api import expect
from test_page import count_team, enter_counts, save_round, start_game, went_out


def wait_until_kept_offline(page):
    """The worker controls the page and holds the page, the rule data and the four source texts."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=60_000)
    page.wait_for_function("""async () => {
        const names = await caches.keys();
        const data = names.find((n) => n.startsWith('cr-data-'));
        const shell = names.find((n) => n.startsWith('cr-shell-'));
        if (!data || !shell) return false;
        const keys = (await (await caches.open(data)).keys()).map((r) => new URL(r.url).pathname);
        return keys.includes('/v1/matrix') && keys.includes('/v1/variants')
          && keys.filter((k) => k.endsWith('/source')).length === 4;
    }""", timeout=60_000, polling=250)


def without_engine(monkeypatch, tmp_path):
    """A server without the offline engine (its runtime not installed): what waits for a connection waits."""
    monkeypatch.setenv("CANASTA_ENGINE_DIR", str(tmp_path))


def test_offline_reload_opens_the_page_the_game_and_the_rules_and_scores_later(phone, screenshots, monkeypatch, tmp_path):
    without_engine(monkeypatch, tmp_path)
    page, base = phone
    open_page(page, base, "#score")
    start_game(page, "sv-classic")
    enter_counts(page, 0, natural=1, melded=300)
    enter_counts(page, 1, melded=120, hand=30)
    went_out(page, "Us")
    save_round(page)
    expect(page.locator("#round-form-title")).to_have_text("Round 2")
    total_us = shown_number(page.locator("#total-0").inner_text())
    wait_until_kept_offline(page)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    expect(page.locator("#net-status")).to_be_visible()
    assert shown_number(page.locator("#total-0").inner_text()) == total_us  # the saved game opens

    # A round saved without a connection is kept, marked "not yet checked".
    enter_counts(page, 0, melded=200, hand=10)
    enter_counts(page, 1, natural=1, melded=400)
    went_out(page, "Them")
    page.locator("#save-round").tap()
    expect(page.locator("#score-notice")).to_contain_text("not yet checked")
    expect(page.locator("#cell-1-0")).to_contain_text("not yet checked")
    expect(page.locator("#pending-note")).to_contain_text("1 round not yet checked")
    expect(page.locator("#round-form-title")).to_have_text("Round 3")
    expect(page.locator("#next-dealer")).to_contain_text("Player 3 deals round 3")
    page.screenshot(path=screenshots / "d1-offline-round-saved.png")

    # Half of round 3 typed, then the page is reloaded (still offline): nothing is lost.
    page.locator("#team-0").get_by_label("Points of the melded cards").fill("155")
    page.locator("#team-1").get_by_role("button", name="Red threes: one more").tap()
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    expect(page.locator("#team-0").get_by_label("Points of the melded cards")).to_have_value("155")
    expect(page.locator("#red3-1-v")).to_have_text("1")
    expect(page.locator("#cell-1-0")).to_contain_text("not yet checked")

    # The rules and the texts read without a connection.
    page.locator("#tab-rules").tap()
    expect(page.locator("#matrix .param").first).to_be_visible()
    page.locator("#read-da-ludo").tap()
    expect(page.locator("#source-text")).to_contain_text("Canasta Spilleregler")
    page.locator("#tab-score").tap()

    # The connection returns: the waiting round is scored by the service.
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-note")).to_have_count(0, timeout=60_000)
    rounds = [
        {"teams": [count_team("Us", natural=1, melded=300, out=True), count_team("Them", melded=120, hand=30)]},
        {"teams": [count_team("Us", melded=200, hand=10), count_team("Them", natural=1, melded=400, out=True)]},
    ]
    expected = api(base, "POST", "/v1/score", {"variant": "sv-classic", "players": 4, "rounds": rounds})
    them = next(t for t in expected["teams"] if t["name"] == "Them")
    expect(page.locator("#cell-1-1 .running")).to_have_text(re.compile(r"\d"))
    assert shown_number(page.locator("#cell-1-1 .running").inner_text()) == them["total"]
    assert shown_number(page.locator("#total-1").inner_text()) == them["total"]
    # The half-entered round 3 is still in the form.
    expect(page.locator("#team-0").get_by_label("Points of the melded cards")).to_have_value("155")
    page.screenshot(path=screenshots / "d2-offline-round-scored.png")


def test_a_ruling_without_a_connection_says_so_and_keeps_the_facts(phone, monkeypatch, tmp_path):
    without_engine(monkeypatch, tmp_path)
    page, base = phone
    open_page(page, base)
    page.locator("label[for=variant-sv-classic]").tap()
    page.locator('#field-top .kind[data-kind="8"]').tap()
    wait_until_kept_offline(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    expect(page.locator("#field-top .chip").first).to_have_attribute("aria-label", "1 eight: tap to remove one")
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .problem")).to_contain_text("Rulings need a connection")
    page.context.set_offline(False)
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .verdict")).to_be_visible()


def test_requests_that_fail_count_as_offline_even_when_the_phone_says_online(phone_at, live_server, monkeypatch, tmp_path):
    """A captive portal or a dead mobile link: navigator.onLine stays true, but nothing answers.

    Every request is made to fail with Playwright's request interception; the page must say it
    is offline because its requests fail, and say it is back once one succeeds. The page runs
    without its service worker here: a request the worker makes once it controls the page is not
    always seen by the interception (it went through now and then, and the test failed).
    """
    without_engine(monkeypatch, tmp_path)
    page, base = phone_at(service_workers="block"), live_server
    open_page(page, base)
    page.locator("label[for=variant-sv-classic]").tap()
    page.locator('#field-top .kind[data-kind="8"]').tap()
    expect(page.locator("#net-status")).to_be_hidden()

    page.context.route("**/*", lambda route: route.abort("failed"))
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .problem")).to_be_visible()
    expect(page.locator("#net-status")).to_be_visible()
    expect(page.locator("#net-status")).to_contain_text("Offline")
    assert page.evaluate("navigator.onLine") is True  # the line tells the truth although the phone says online

    page.context.unroute("**/*")
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .verdict")).to_be_visible()
    expect(page.locator("#net-status")).to_be_hidden()
