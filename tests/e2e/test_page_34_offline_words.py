"""House-rule questions offline (issue #34 item 7), on a 390 x 844 phone in every language.

Offline, the score pad's house rules are asked as plain questions in any of the four languages (the
page's own, or the service's words kept once read), never in the matrix's internal descriptions nor as
"a point the text leaves open"; and no list shows its answer cut off.
"""

from __future__ import annotations

import pytest
from e2e_helpers import api, open_page
from playwright.sync_api import expect
from test_engine_offline import engine_installed, wait_until_engine_kept  # noqa: F401 -- fixture

LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}

FITS = """() => [...document.querySelectorAll('#setup-house select')].filter((s) => {
  const probe = document.createElement('span');
  probe.style.font = getComputedStyle(s).font;
  probe.style.whiteSpace = 'nowrap';
  probe.style.position = 'absolute';
  document.body.appendChild(probe);
  const room = s.clientWidth - 40; // the list's padding and its arrow
  const cut = [...s.options].some((o) => { probe.textContent = o.textContent; return probe.offsetWidth > room; });
  probe.remove();
  return cut;
}).map((s) => s.id)"""


def open_setup(page):
    page.locator("#tab-score").tap()
    expect(page.locator("html[data-matrix]")).to_have_count(1)
    page.locator("label[for=score-variant-da-ludo]").tap()
    house = page.locator("#setup-house")
    house.locator("summary").tap()
    expect(house.locator("#house-open")).to_be_visible()
    return house


@pytest.mark.parametrize("lang", ["sv", "nb", "da", "en"])
def test_house_rule_questions_offline_are_plain_questions_in_any_language(phone_at, live_server, ui_packs, lang):
    page = phone_at(locale="en-GB")
    open_page(page, live_server)
    wait_until_engine_kept(page)
    descriptions = [r["description"].rstrip(".") for r in api(live_server, "GET", "/v1/matrix")["rows"]]
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    page.locator("#lang-select").select_option(lang)
    house = open_setup(page)
    asked = [x.strip() for x in house.locator("label[for^=house-], legend").all_inner_texts() if x.strip()]
    assert asked
    shown = "\n".join(asked)
    assert not [d for d in descriptions if d in shown], shown
    # Every question in the reader's language: none fell back to "a point the text leaves open".
    assert ui_packs[lang]["q.unknown"] not in shown, shown
    assert page.evaluate(FITS) == [], "a list shows its answer cut off"


@pytest.mark.parametrize("lang", ["sv", "nb", "da", "en"])
def test_no_house_rule_list_is_cut_off(phone_at, live_server, lang):
    page = phone_at(locale=LOCALES[lang])
    open_page(page, live_server)
    open_setup(page)
    page.wait_for_timeout(200)
    assert page.evaluate(FITS) == [], "a list shows its answer cut off"
