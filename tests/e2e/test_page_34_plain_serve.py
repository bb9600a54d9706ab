"""The plain serve command, no phone engine (issue #34 item 9), on a 390 x 844 phone in every language.

Offline, a round written down is kept "not yet checked" and the totals wait: the banner says what works
(reading the texts, writing down rounds) and that rulings and totals wait, never that the score works.
"""

from __future__ import annotations

import pytest
from e2e_helpers import open_page
from playwright.sync_api import expect
from test_offline import wait_until_kept_offline

LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}
# What the banner said before: the score "keeps working" -- untrue without the engine.
CLAIMS = {"en": "score keep working", "sv": "poängen fungerar", "nb": "poengene virker", "da": "pointene virker"}
WAITS = {"en": "totals wait", "sv": "summor väntar", "nb": "summer venter", "da": "summer venter"}


@pytest.mark.parametrize("lang", list(LOCALES))
def test_without_the_engine_the_offline_banner_says_what_works(phone_at, live_server, monkeypatch, tmp_path, ui_packs, lang):
    monkeypatch.setenv("CANASTA_ENGINE_DIR", str(tmp_path))  # the README's serve command: no engine installed
    page = phone_at(locale=LOCALES[lang])
    open_page(page, live_server, "#score")
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "absent")
    wait_until_kept_offline(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    banner = page.locator("#net-status")
    expect(banner).to_be_visible()
    said = banner.inner_text()
    assert said == ui_packs[lang]["net.offline"]
    assert CLAIMS[lang] not in said and WAITS[lang] in said, said
