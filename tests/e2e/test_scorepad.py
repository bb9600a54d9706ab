"""The score pad: names and seats, who deals next, points still needed, undo and delete, big totals,
warnings on entries no deck allows, labelled cells and a summary to share."""

from __future__ import annotations

import re

from e2e_helpers import open_page, shown_number
from playwright.sync_api import expect
from test_page import enter_counts, save_round, start_game, went_out


def setup_named_game(page):
    page.locator("label[for=score-variant-sv-classic]").tap()
    page.locator("#team-name-0").fill("Norr")
    page.locator("#team-name-1").fill("Syd")
    for seat, name in enumerate(["Anna", "Bo", "Cilla", "Dan"]):
        page.locator(f"#seat-name-{seat}").fill(name)
    page.locator("#seat-name-3").blur()
    expect(page.locator("#first-dealer")).to_contain_text("Dan")
    page.locator("#first-dealer").get_by_text("Bo", exact=True).tap()
    page.locator("#start-game").tap()
    expect(page.locator("#round-form-title")).to_have_text("Round 1")


def play_round(page, us_melded=200, them_melded=150):
    enter_counts(page, 0, natural=1, melded=us_melded)
    enter_counts(page, 1, melded=them_melded, hand=20)
    went_out(page, "Norr")
    save_round(page)


def test_names_seats_dealer_rotation_and_points_to_go(phone, screenshots):
    page, base = phone
    open_page(page, base, "#score")
    setup_named_game(page)
    expect(page.locator("#team-0 > legend")).to_contain_text("Anna & Cilla")
    expect(page.locator("#next-dealer")).to_have_text("Bo deals round 1")
    play_round(page)
    expect(page.locator("#next-dealer")).to_have_text("Cilla deals round 2")
    play_round(page)
    expect(page.locator("#next-dealer")).to_have_text("Dan deals round 3")
    play_round(page)
    expect(page.locator("#next-dealer")).to_have_text("Anna deals round 4")  # round the table and back
    total = shown_number(page.locator("#total-0").inner_text())
    assert shown_number(page.locator("#need-0").inner_text()) == 5000 - total
    # Totals large enough to read across the table.
    size = page.locator("#total-0").evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 28, f"totals are {size}px"
    # Score cells read as sentences to a screen reader.
    expect(page.locator("#cell-0-0 .sr-only")).to_have_text(re.compile(r"^Round 1, Norr: \+\S+ this round, \S+ in all$"))
    page.locator("#totals").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "f1-scorepad.png")


def test_undo_the_last_round_and_delete_any_round_with_confirmation(phone):
    page, base = phone
    open_page(page, base, "#score")
    setup_named_game(page)
    play_round(page, 200)
    play_round(page, 300)
    play_round(page, 400)
    expect(page.locator("#score-table tbody tr.round-row")).to_have_count(3)

    page.locator("#undo-round").tap()
    expect(page.locator("#undo-q")).to_have_text("Undo round 3? Its entries are removed.")
    page.locator("#undo-no").tap()  # changed my mind: nothing happens
    expect(page.locator("#score-table tbody tr.round-row")).to_have_count(3)
    page.locator("#undo-round").tap()
    page.locator("#undo-yes").tap()
    expect(page.locator("#score-table tbody tr.round-row")).to_have_count(2)
    expect(page.locator("#round-form-title")).to_have_text("Round 3")

    before = shown_number(page.locator("#total-0").inner_text())
    page.get_by_role("button", name="Round 1: show the lines").tap()
    page.locator("#delete-0").tap()
    expect(page.locator("#delete-0-q")).to_contain_text("Delete round 1?")
    page.locator("#delete-0-yes").tap()
    expect(page.locator("#score-table tbody tr.round-row")).to_have_count(1)
    expect(page.locator("#score-notice")).to_have_text("Round 1 deleted.")
    after = shown_number(page.locator("#total-0").inner_text())
    assert after < before
    # What was round 2 (Norr melded 300) is now round 1, added up again.
    page.get_by_role("button", name="Round 1: show the lines").tap()
    expect(page.locator("#round-lines-0")).to_contain_text("300")
    expect(page.locator("#next-dealer")).to_have_text("Cilla deals round 2")


def test_an_entry_no_deck_allows_is_warned_about_but_not_blocked(phone):
    page, base = phone
    open_page(page, base, "#score")
    start_game(page, "sv-classic")
    page.wait_for_function("() => document.documentElement.dataset.matrix !== undefined")
    enter_counts(page, 0, natural=1, melded=12345)
    expect(page.locator("#warn-0 .warning")).to_contain_text("12,345 melded points is more than the whole deck is worth")
    enter_counts(page, 1, natural=15)
    expect(page.locator("#warn-1 .warning")).to_contain_text("15 canastas need more cards than the deck has")
    went_out(page, "Us")
    save_round(page)  # a warning, not a block: the round is saved and scored (and here ends the game)
    expect(page.locator("#score-table tbody tr.round-row")).to_have_count(1)
    expect(page.locator("#winner")).to_be_visible()


def test_a_summary_to_share_or_print(phone):
    page, base = phone
    open_page(page, base, "#score")
    setup_named_game(page)
    play_round(page)
    page.locator("#share-game").tap()  # no share sheet in a headless browser: the summary is shown to copy
    summary = page.locator("#summary-text")
    expect(summary).to_be_visible()
    text = summary.input_value()
    assert text.splitlines()[1].startswith("Round 1: Norr +"), text
    assert re.search(r"^Total: Norr [\d,]+ · Syd [\d,]+$", text, re.M), text
    expect(page.locator("#print-game")).to_be_visible()
    # Printing keeps the score sheet and drops the forms.
    page.emulate_media(media="print")
    expect(page.locator("#round-form")).to_be_hidden()
    expect(page.locator("#score-table")).to_be_visible()
    page.emulate_media(media="screen")
