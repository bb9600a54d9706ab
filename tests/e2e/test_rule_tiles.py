"""The rule tiles on "Read the rules": the variant files' short names, one or two lines, in every language."""

from __future__ import annotations

import pytest
from e2e_helpers import open_page
from playwright.sync_api import expect

SHORT = {"sv-SE": "Gamerules (svensk)", "nb-NO": "Gamerules (svensk)", "da-DK": "Gamerules (svensk)", "en-GB": "Gamerules (Swedish)"}


@pytest.mark.parametrize("locale", list(SHORT))
def test_rule_tiles_carry_short_names(phone_at, live_server, locale):
    page = phone_at(locale=locale)
    open_page(page, live_server, "#rules")
    title = page.locator("#read-sv-gamerules .choice-title")
    expect(title).to_have_text(SHORT[locale])
    # The full name stays at hand, and the tile's name takes at most two lines.
    assert "gamerules" in title.get_attribute("title")
    lines = title.evaluate("el => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)")
    assert lines <= 2.1, f"the name takes {lines:.1f} lines"
    for vid in ("sv-classic", "no-pagat", "da-ludo"):
        assert len(page.locator(f"#read-{vid} .choice-title").inner_text()) <= 24
