"""Nothing pre-filled (issue #42): every control of every form of the Settle tab, tapped as a family taps it, and
each request the page then sends -- a ruling, the comparison, "what may I do?" -- holds exactly the cards picked
and the facts tapped, nothing more (test_page_34_nothing_invented.check_nothing_invented). Untouched, a form sends
only its cards: no control starts with a value. On a 390 x 844 phone, under sv-classic (the rules with a choice of
player counts) and da-ludo.
"""

from __future__ import annotations

import pytest
from e2e_helpers import open_page
from playwright.sync_api import expect
from test_page_34_nothing_invented import Picker, check_nothing_invented, watch

TEAM_MELD = ("table-meld-0", "K", 3)


def score(page, pick, points: int):
    page.locator("#team-score").fill(str(points))
    pick.said["/situation/team/score"] = points


def table_meld(page, pick):
    pick(*TEAM_MELD)


def every_take(page, pick):
    pick("field-top", "9")
    for box, name in (("pile-wild", "wild"), ("pile-black3", "black_three"), ("pile-red3", "red_three_first")):
        page.locator(f"#{box}").check()
        pick.said[f"/situation/pile_unnamed/{name}"] = True
    pick("field-with", "9")
    pick("field-with", "JK")
    table_meld(page, pick)
    score(page, pick, 1500)


def every_meld(page, pick):
    pick("new-meld-0", "9", 3)
    page.locator("label[for=left-2]").tap()  # two or more cards left after it
    pick.said["/situation/player/hand_count"] = 3 + 1 + 2  # the three nines, the king added, and two
    table_meld(page, pick)
    pick("field-add", "K")  # onto the kings just listed
    score(page, pick, 2000)


def every_open(page, pick):
    pick("open-meld-0", "K", 3)
    page.locator("label[for=left-0]").tap()  # it leaves no card
    pick.said["/situation/player/hand_count"] = 3
    score(page, pick, 6200)


def every_go_out(page, pick):
    pick("out-meld-0", "5", 3)
    pick("field-discard", "9")
    table_meld(page, pick)
    score(page, pick, 800)


def every_go_out_concealed(page, pick):
    pick("out-meld-0", "5", 3)
    page.locator("#concealed").check()
    pick.said.update({"/situation/team/melds": [], "/situation/player/has_melded": False})
    score(page, pick, 800)


def every_discard(page, pick):
    pick("field-card", "9")
    page.locator("label[for=last-card-2]").tap()  # not my last card
    pick.said["/situation/player/hand_count"] = 3


FULL = {"take_pile": every_take, "meld": every_meld, "open": every_open, "go_out": every_go_out,
        "discard": every_discard}


def only_cards(form):
    """The form with its cards and nothing else tapped."""
    cards = {"take_pile": [("field-top", "9"), ("field-with", "9"), ("field-with", "JK")],
             "meld": [("new-meld-0", "9")] * 3, "open": [("open-meld-0", "K")] * 3,
             "go_out": [("out-meld-0", "5")] * 3, "discard": [("field-card", "9")]}[form]

    def fill(page, pick):
        for field, kind_ in cards:
            pick(field, kind_)
    return fill


def ask(page, sent, pick, form, fill):
    page.locator(f"label[for=question-{form}]").tap()
    page.locator("#clear-facts").tap()
    fill(page, pick)
    before = len(sent)
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .verdict")).to_be_visible()
    assert len(sent) > before, form
    check_nothing_invented(sent[-1], pick, form)


@pytest.mark.parametrize("variant", ["sv-classic", "da-ludo"])
def test_an_untouched_form_sends_its_cards_and_nothing_more(phone, variant):
    page, base = phone
    open_page(page, base)
    sent = watch(page, "/v1/adjudicate")
    page.locator(f"label[for=variant-{variant}]").tap()
    for form in FULL:
        ask(page, sent, Picker(page), form, only_cards(form))


@pytest.mark.parametrize("variant", ["sv-classic", "da-ludo"])
def test_every_control_tapped_sends_exactly_what_was_tapped(phone, variant):
    page, base = phone
    open_page(page, base)
    sent = watch(page, "/v1/adjudicate")
    page.locator(f"label[for=variant-{variant}]").tap()
    for form, fill in FULL.items():
        pick = Picker(page)
        if variant == "sv-classic":  # the rules know two to four players: the count is sent once tapped
            page.locator(f"label[for=question-{form}]").tap()
            page.locator("label[for=players-3]").tap()
            pick.said["/situation/players"] = 3
        ask(page, sent, pick, form, fill)
    pick = Picker(page)
    if variant == "sv-classic":
        pick.said["/situation/players"] = 3  # the table's count stays said, whatever the question
    ask(page, sent, pick, "go_out", every_go_out_concealed)


def test_the_comparison_sends_what_the_ruling_sent(phone):
    page, base = phone
    open_page(page, base)
    sent = watch(page, "/v1/compare")
    page.locator("label[for=variant-all]").tap()
    pick = Picker(page)
    ask_all = watch(page, "/v1/compare")
    page.locator("label[for=question-take_pile]").tap()
    every_take(page, pick)
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .compare-head")).to_be_visible()
    assert sent and ask_all
    check_nothing_invented(sent[-1], pick, "take_pile")


def test_what_may_i_do_sends_exactly_what_was_tapped(phone):
    page, base = phone
    open_page(page, base)
    sent = watch(page, "/v1/options")
    page.locator("label[for=variant-sv-classic]").tap()
    page.locator("#options-button").tap()
    pick = Picker(page)
    pick("field-hand", "7", 2)
    pick("field-hand", "K", 3)
    page.locator("#options-button").tap()
    expect(page.locator("#ruling .options-body")).to_be_visible()
    check_nothing_invented(sent[-1], pick, "options")  # untouched: the hand, nothing more
    page.locator("label[for=turn-before]").tap()
    pick.said["/situation/turn/drew"] = None
    pick("field-options-top", "7")
    page.locator("#pile-wild").check()
    pick.said["/situation/pile_unnamed/wild"] = True
    table_meld(page, pick)
    score(page, pick, 300)
    page.locator("#stock-count").fill("12")
    pick.said["/situation/stock_count"] = 12
    page.locator("label[for=players-2]").tap()
    pick.said["/situation/players"] = 2
    page.locator("#options-button").tap()
    expect(page.locator("#ruling .options-body")).to_be_visible()
    check_nothing_invented(sent[-1], pick, "options")


def test_a_round_is_not_saved_until_someone_says_who_went_out(phone, ui_packs):
    """The score pad's "Who went out?" started at "Nobody": a round saved untouched was scored as one nobody
    went out of. Now nothing is chosen, saving asks, and "Nobody" is a tap like any team."""
    from test_page import enter_counts, save_round, start_game, went_out

    page, base = phone
    open_page(page, base, "#score")
    sent = watch(page, "/v1/score")
    start_game(page, "sv-classic")
    expect(page.locator("#went-out input:checked")).to_have_count(0)
    enter_counts(page, 0, natural=1, melded=200)
    enter_counts(page, 1, melded=150, hand=20)
    page.locator("#save-round").tap()
    expect(page.locator("#round-error")).to_have_text(ui_packs["en"]["entry.wentOut"])
    assert not sent
    went_out(page, ui_packs["en"]["round.nobody"])
    save_round(page)
    assert [t["went_out"] for t in sent[-1]["rounds"][0]["teams"]] == [False, False]
