"""The phone page's request builders are checked against the one statement of a request's shape.

Every browser test holds each body its pages send against the request schemas (tests/e2e/request_shapes.py,
watched by conftest.open_context). This walk makes the page send every kind of request it builds -- each
form's ruling, the comparison, "what may I do?" and a scored round -- and shows that the watch saw each of
them; and that it catches a member the schemas do not define, sent to the service or to the engine's worker.
"""

from __future__ import annotations

import json

from conftest import open_context
from e2e_helpers import open_page
from playwright.sync_api import expect
from test_page import enter_counts, save_round, start_game, went_out
from test_page_34_nothing_invented import FORMS, Picker

STRAY = {"variant": "sv-classic", "situation": {"player": {"hand": ["9H"], "hand_size": 1}}, "action": {"type": "draw"}}


def test_every_request_the_page_builds_is_what_the_schemas_define(browser, live_server):
    context, page, watch = open_context(browser, live_server)
    try:
        open_page(page, live_server)
        page.locator("label[for=variant-da-ludo]").tap()
        for form, fill in FORMS.items():
            page.locator(f"label[for=question-{form}]").tap()
            page.locator("#clear-facts").tap()
            fill(page, Picker(page))
            page.locator("#rule-button").tap()
            expect(page.locator("#ruling .verdict")).to_be_visible()
        page.locator("#compare-button").tap()
        expect(page.locator("#compare .compare-head")).to_be_visible()
        page.locator("#options-button").tap()
        Picker(page)("field-hand", "K", 3)
        page.locator("#options-button").tap()
        expect(page.locator("#ruling .options-body")).to_be_visible()
        open_page(page, live_server, "#score")
        start_game(page, "sv-classic")
        enter_counts(page, 0, natural=1, melded=200)
        enter_counts(page, 1, melded=150, hand=20)
        went_out(page, "Us")
        save_round(page)
        assert set(watch.sent) >= {"/v1/adjudicate", "/v1/compare", "/v1/options", "/v1/score"}, watch.sent
        assert watch.sent.count("/v1/adjudicate") >= len(FORMS)
        watch.check()
    finally:
        context.close()


def test_a_member_the_schemas_do_not_define_is_caught_on_either_way_out(browser, live_server):
    context, page, watch = open_context(browser, live_server)
    try:
        open_page(page, live_server)
        page.evaluate("""body => fetch('/v1/adjudicate', {method: 'POST', body,
                         headers: {'Content-Type': 'application/json'}})""", json.dumps(STRAY))
        page.wait_for_function("() => true")
        # the engine's worker: the page's wrapper of postMessage tells the test before the worker is asked
        page.evaluate("""body => { try { Worker.prototype.postMessage.call({}, {path: '/v1/adjudicate', body}); }
                                   catch (e) { /* not a worker: only the wrapper was wanted */ } }""",
                      json.dumps(STRAY))
        page.wait_for_timeout(200)
        assert len(watch.refused) == 4, watch.refused  # each way out: the schemas, then openapi.yaml
        assert all("hand_size" in said or "shape.unknown_field" in said for said in watch.refused), watch.refused
        watch.refused.clear()
        watch.errors = [e for e in watch.errors if "422" not in e]  # the refusal the stray body earned
        watch.check()
    finally:
        context.close()
