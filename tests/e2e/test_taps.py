"""Taps from opening the page to a verdict, for the questions players ask most. Budgets are upper bounds."""

from __future__ import annotations

from e2e_helpers import Taps, open_page, pick
from playwright.sync_api import expect
from test_page_34_taps import answered, ways


def verdict_of(page):
    v = page.locator("#ruling .verdict")
    expect(v).to_be_visible()
    return v.get_attribute("data-verdict")


def test_frozen_pile_under_sv_classic(phone):
    page, base = phone
    open_page(page, base)
    tap = Taps(page)
    tap(page.locator("label[for=variant-sv-classic]"))
    pick(tap, page.locator("#field-top"), "9")
    tap(page.get_by_text("A wild card lies in the pile"))
    pick(tap, page.locator("#field-with"), "9")
    pick(tap, page.locator("#field-with"), "JK")
    tap(page.locator("#rule-button"))
    assert verdict_of(page) == "illegal"
    print(f"\nTAPS frozen pile (sv-classic): {tap.count}")
    assert tap.count <= 6


# Nothing is pre-filled (#42): the form sends no draw, so the first answer is decided only where every way it can go
# agrees (the frozen pile); else it settles the dispute when the family's case is on a line of it ("Allowed once you
# have drawn, after the first round"), as test_page_34_taps holds in every language.


def test_opening_at_6200_in_da_ludo(phone):
    page, base = phone
    open_page(page, base)
    tap = Taps(page)
    tap(page.locator("label[for=variant-da-ludo]"))
    tap(page.locator("label[for=question-open]"))
    pick(tap, page.locator("#open-meld-0"), "K", 7)  # a canasta of kings: two taps
    tap(page.locator("#team-score"))  # one tap into the field, then the keypad
    page.keyboard.type("6200")
    tap(page.locator("#rule-button"))
    assert answered(page, "legal"), ways(page)
    print(f"\nTAPS opening at 6,200 (da-ludo): {tap.count} (plus typing 6200)")
    assert tap.count <= 6


def test_going_out_without_a_canasta(phone):
    page, base = phone
    open_page(page, base)
    tap = Taps(page)
    tap(page.locator("label[for=variant-sv-classic]"))
    tap(page.locator("label[for=question-go_out]"))
    pick(tap, page.locator("#out-meld-0"), "5", 3)
    tap(page.locator("#rule-button"))
    assert answered(page, "illegal", {"opened", "canastas"}), ways(page)
    expect(page.locator('#ruling .verdict-if.illegal[data-kinds~="canastas"]').first).to_contain_text("canasta")
    print(f"\nTAPS going out without a canasta (sv-classic): {tap.count}")
    assert tap.count <= 5


def test_twos_question_settled_by_a_house_rule(phone):
    page, base = phone
    open_page(page, base)
    tap = Taps(page)
    tap(page.locator("label[for=variant-da-ludo]"))
    tap(page.locator("label[for=question-meld]"))
    meld = page.locator("#new-meld-0")
    pick(tap, meld, "9", 2)
    pick(tap, meld, "2")
    tap(page.locator("#rule-button"))
    assert verdict_of(page) == "undetermined"
    tap(page.locator("#open-wild-twos").get_by_role("button", name="Yes"))
    expect(page.locator("#open-wild-twos")).to_have_count(0)
    # Whether the team already has a meld of nines decides a new one under one meld per rank: the page makes
    # no meld up (#34); the answer says it on a line ("once you have drawn, if your team has melded this round,
    # if your team has no meld of nines: allowed"), and asks each of those facts with a tap in turn.
    assert answered(page, "legal", {"opened", "rank"}), ways(page)
    print(f"\nTAPS twos question settled by a house rule (da-ludo): {tap.count}")
    assert tap.count <= 7
