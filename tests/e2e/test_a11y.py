"""axe-core (bundled by axe-playwright-python; nothing from a CDN) on every view, light and dark.

No serious or critical violation is allowed. The views: the first screen, a verdict with an open
question and the comparison, the score set-up, a score pad with a round opened, the rules and a
source text.
"""

from __future__ import annotations

import pytest
from e2e_helpers import Taps, open_page, pick
from playwright.sync_api import expect
from test_page import enter_counts, save_round, start_game, went_out

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - a missing tool fails the test, it never skips it
    Axe = None


def serious(page) -> list[str]:
    if Axe is None:
        pytest.fail("axe-playwright-python is not installed: .venv/bin/pip install axe-playwright-python==0.1.8", pytrace=False)
    result = Axe().run(page)
    found = []
    for v in result.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [" ".join(n["target"]) for n in v["nodes"]][:5]
            found.append(f"{v['id']} ({v['impact']}): {v['help']} -> {targets}")
    return found


def views(page, base):
    """Visit every view; yield its name once it is on screen."""
    open_page(page, base)
    yield "first screen"
    page.locator("label[for=variant-da-ludo]").tap()
    page.locator("label[for=question-meld]").tap()
    tap = Taps(page)
    pick(tap, page.locator("#new-meld-0"), "9", 2)
    pick(tap, page.locator("#new-meld-0"), "2")
    yield "picker open"
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling fieldset[data-pointer]").first).to_be_visible()  # the referee's one-tap questions
    yield "verdict with an open question"
    page.locator("#compare-button").tap()
    expect(page.locator("#compare .compare-card")).to_have_count(4)
    page.locator("#ruling details").evaluate_all("els => els.forEach((d) => { d.open = true; })")
    yield "comparison"
    page.locator("#tab-score").tap()
    expect(page.locator("#start-game")).to_be_visible()
    yield "score set-up"
    start_game(page, "sv-classic")
    enter_counts(page, 0, natural=1, melded=300)
    enter_counts(page, 1, melded=100, hand=20)
    went_out(page, "Us")
    save_round(page)
    page.get_by_role("button", name="Round 1: show the lines").tap()
    enter_counts(page, 0, melded=12345)
    yield "score pad"
    page.locator("#tab-rules").tap()
    expect(page.locator("#matrix .param").first).to_be_visible()
    yield "rules"
    page.locator("#read-no-pagat").tap()
    expect(page.locator("#source-text")).not_to_be_empty()
    yield "source text"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_or_critical_accessibility_violation_on_any_view(phone_at, live_server, scheme):
    page = phone_at(color_scheme=scheme)
    problems = {}
    seen = []
    for name in views(page, live_server):
        seen.append(name)
        found = serious(page)
        if found:
            problems[name] = found
    assert len(seen) == 8, seen
    assert not problems, "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in problems.items())
