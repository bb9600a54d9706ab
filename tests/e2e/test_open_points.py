"""Open points settled with a tap: the text is silent, the table answers, the referee rules again."""

from __future__ import annotations

import json

from e2e_helpers import Taps, api, open_page, pick, shown_number
from playwright.sync_api import expect
from test_page import enter_counts, start_game, went_out


def test_the_house_rule_question_appears_on_an_undetermined_ruling_and_rules_again(phone, screenshots):
    page, base = phone
    open_page(page, base)
    page.locator("label[for=variant-da-ludo]").tap()
    page.locator("label[for=question-meld]").tap()
    meld = page.locator("#new-meld-0")
    tap = Taps(page)
    pick(tap, meld, "9", 2)
    pick(tap, meld, "2")
    # The team's melds, listed (no meld of nines): the page invents none (#34).
    table = page.locator("#table-meld-0")
    tap(table.locator(".chip.add"))
    pick(tap, table, "K", 3)
    page.locator("#rule-button").tap()
    verdict = page.locator("#ruling .verdict")
    expect(verdict).to_have_attribute("data-verdict", "undetermined")
    question = page.locator("#open-wild-twos")
    expect(question.locator("legend")).to_have_text("Are twos wild in your game?")
    expect(page.locator("#ruling")).not_to_contain_text("wild.twos")  # words for people, not the parameter id
    page.screenshot(path=screenshots / "e1-open-point.png")

    # What the service rules with the house rule is what the page shows after the tap: the request the page sent
    # then (only what was tapped, nothing pre-filled: #42) is ruled by the service as the page shows it.
    sent = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data))
            if r.method == "POST" and "/v1/adjudicate" in r.url and "batch" not in r.url else None)
    question.get_by_role("button", name="Yes").tap()
    expect(page.locator("#open-wild-twos")).to_have_count(0)
    assert sent and sent[-1]["house_rules"] == {"wild.twos": True}
    expected = api(base, "POST", "/v1/adjudicate", sent[-1])["verdict"]
    expect(verdict).to_have_attribute("data-verdict", expected)

    # The house rule is listed, sent with the next ruling, and can be changed.
    house = page.locator("#settle-house-rules")
    expect(house).to_contain_text("Are twos wild in your game? Yes")
    page.locator("#rule-button").tap()
    expect(verdict).to_have_attribute("data-verdict", expected)
    expect(page.locator("#ruling .house-note").first).to_contain_text("House rule: Are twos wild in your game? Yes")
    told = dict(sent[-1])  # the question as last asked, with the house rule Yes
    house.get_by_role("button", name="Change").tap()
    with page.expect_request(lambda r: r.method == "POST" and "/v1/adjudicate" in r.url and "batch" not in r.url) as asked:
        house.get_by_role("button", name="No").tap()
    expect(house).to_contain_text("Are twos wild in your game? No")
    body = json.loads(asked.value.post_data)
    assert body == dict(told, house_rules={"wild.twos": False})  # the same question, only the house rule changed
    expect(verdict).to_have_attribute("data-verdict", api(base, "POST", "/v1/adjudicate", body)["verdict"])
    page.reload()
    expect(page.locator("#settle-house-rules")).to_contain_text("Are twos wild in your game? No")  # remembered
    page.locator("#settle-house-rules").get_by_role("button", name="Remove").tap()
    expect(page.locator("#settle-house-rules")).to_have_count(0)


def test_a_score_the_text_cannot_settle_asks_and_scores_with_the_answer(phone):
    page, base = phone
    open_page(page, base, "#score")
    start_game(page, "da-ludo")
    enter_counts(page, 0, natural=1, melded=300)
    went_out(page, "Us")
    team = page.locator("#team-1")
    team.locator("label[for=mode-1-cards]").tap()
    team.locator("#team-1-hand .chip.add").tap()
    team.locator('#team-1-hand .kind[data-kind="B3"]').tap()  # a black three caught in hand: da-ludo gives it no value
    page.locator("#save-round").tap()
    question = page.locator("#open-card_value-black_three")
    expect(question.locator("legend")).to_have_text("How many points is a black three worth?")
    question.get_by_role("button", name="5 (as other texts say)").tap()
    expect(page.locator("#round-form-title")).to_have_text("Round 2")
    expect(page.locator("#game-house-rules")).to_contain_text("How many points is a black three worth? 5")
    assert shown_number(page.locator("#cell-0-1 .delta").inner_text()) < 0


def test_a_tie_at_the_target_offers_another_round(phone, screenshots):
    page, base = phone
    open_page(page, base, "#score")
    start_game(page, "sv-classic")
    enter_counts(page, 0, natural=1, melded=4800)
    enter_counts(page, 1, natural=1, melded=4900)
    went_out(page, "Us")
    page.locator("#save-round").tap()
    winner = page.locator("#winner")
    expect(winner).to_contain_text("A tie at the top")
    expect(page.locator("#round-form")).to_have_count(0)
    page.screenshot(path=screenshots / "e2-tie.png")
    page.locator("#play-another").tap()
    expect(page.locator("#round-form-title")).to_have_text("Round 2")
    expect(page.locator("#game-house-rules")).to_contain_text("Play another round")
    enter_counts(page, 0, natural=1, melded=100)
    enter_counts(page, 1, melded=100)
    went_out(page, "Us")
    page.locator("#save-round").tap()
    expect(winner).to_contain_text("We won")
