"""House rules as a setting of the game: chosen at setup (what the text leaves open, common table
choices), shown on Score and Settle, and sent with every score, ruling and options request."""

from __future__ import annotations

import json
import re

from e2e_helpers import ENGINE_WAIT, open_page, pick, tell
from playwright.sync_api import expect
from test_page import enter_counts, save_round, went_out


def bodies_of(page, path: str) -> list[dict]:
    """Every JSON body the page posts to `path` from now on."""
    seen: list[dict] = []
    page.on("request", lambda r: seen.append(json.loads(r.post_data)) if r.method == "POST" and r.url.split("?")[0].endswith(path) else None)
    return seen


def open_score_pad(page, base) -> None:
    """The score pad, with the variants' matrix loaded (the setup's choices come from it)."""
    open_page(page, base, "#score")
    expect(page.locator("html[data-matrix]")).to_have_count(1)


def start_game(page, base, variant: str) -> None:
    """A new game of ``variant`` without house rules, at its first round."""
    open_score_pad(page, base)
    page.locator(f"label[for=score-variant-{variant}]").tap()
    page.locator("#start-game").tap()
    expect(page.locator("#round-form-title")).to_have_text("Round 1")


def start_da_ludo_with_house_rules(page):
    page.locator("label[for=score-variant-da-ludo]").tap()
    house = page.locator("#setup-house")
    expect(house).to_be_visible()
    house.locator("summary").tap()
    # The text's open points come first, asked in words; wild.twos is one of them.
    expect(house.locator("#house-open")).to_be_visible()
    twos = house.get_by_label("Are twos wild in your game?")
    expect(twos.locator("option:checked")).to_have_text("Not settled (the text is silent)")
    twos.select_option(label="Yes")
    # A common table choice: the target, typed as a number.
    target = house.locator("#house-game-target")
    expect(target.locator("option:checked")).to_contain_text("10,000")
    target.select_option(value="#")
    page.locator("#house-game-target-n").fill("8000")
    expect(house.locator("summary")).to_have_text("House rules: 2 chosen")
    # No parameter id is shown to the player.
    assert "wild.twos" not in house.inner_text() and "game.target" not in house.inner_text()
    page.locator("#start-game").tap()
    expect(page.locator("#round-form-title")).to_have_text("Round 1")


def test_house_rules_chosen_at_setup_are_kept_with_the_game_and_scored(phone):
    page, base = phone
    open_score_pad(page, base)
    scores = bodies_of(page, "/v1/score")
    start_da_ludo_with_house_rules(page)
    box = page.locator("#game-house-rules")
    expect(box).to_contain_text("Are twos wild in your game?")
    expect(box.locator("[data-parameter='wild.twos'] .house-a")).to_have_text("Yes")
    expect(box.locator("[data-parameter='game.target'] .house-a")).to_have_text("8,000")
    enter_counts(page, 0, natural=1, melded=200)
    enter_counts(page, 1, melded=150, hand=20)
    went_out(page, "Us")
    save_round(page)
    assert scores and scores[-1]["house_rules"] == {"wild.twos": True, "game.target": {"4": 8000}}
    expect(page.locator(".game-meta")).to_contain_text("to 8,000")  # the service's target under the house rule
    # Persisted with the game: a reload keeps them.
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    expect(page.locator("#game-house-rules [data-parameter='wild.twos'] .house-a")).to_have_text("Yes")


def test_a_number_being_typed_stays_when_the_variants_words_arrive(phone_at, live_server):
    """The setup's house rules are drawn again when the variant's words arrive. A player who has picked "a number"
    and begun typing keeps the choice, the text and the field's focus (found under load: the list snapped back to
    the text's 10,000 and the field was hidden). The words are held until the typing has begun."""
    page = phone_at(service_workers="block")  # the page's own requests, routed here (not answered by a worker)
    open_page(page, live_server, "#score")
    expect(page.locator("html[data-matrix]")).to_have_count(1, timeout=60_000)  # no worker: fetched after 8 s
    held = []
    page.route(re.compile(r".*/v1/variants/da-ludo([?#].*)?$"), lambda route: held.append(route))
    scores = bodies_of(page, "/v1/score")
    page.locator("label[for=score-variant-da-ludo]").tap()
    house = page.locator("#setup-house")
    house.locator("summary").tap()
    target = house.locator("#house-game-target")
    target.select_option(value="#")
    number = page.locator("#house-game-target-n")
    number.press_sequentially("80")
    for _ in range(600):  # the request was sent when the section was drawn: wait for its route
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the variant's words were asked for after the section was drawn"
    target.evaluate("el => { el.dataset.drawn = 'before'; }")
    held[0].continue_()
    expect(house.locator("#house-game-target[data-drawn]")).to_have_count(0)  # drawn again, with the words
    expect(target).to_have_value("#")
    expect(number).to_be_visible()
    expect(number).to_have_value("80")
    expect(number).to_be_focused()
    number.press_sequentially("00")
    expect(house.locator("summary")).to_have_text("House rules: 1 chosen")
    page.locator("#start-game").tap()
    expect(page.locator("#game-house-rules [data-parameter='game.target'] .house-a")).to_have_text("8,000")
    assert scores == []  # nothing scored yet: the game only started


def test_the_games_house_rules_apply_on_settle_to_rulings_and_options(phone):
    page, base = phone
    open_score_pad(page, base)
    start_da_ludo_with_house_rules(page)
    rulings = bodies_of(page, "/v1/adjudicate")
    options = bodies_of(page, "/v1/options")
    page.locator("#tab-settle").tap()
    page.locator("label[for=variant-da-ludo]").tap()
    expect(page.locator("#settle-house-rules")).to_contain_text("Are twos wild in your game?")
    page.locator("label[for=question-meld]").tap()
    meld = page.locator("#new-meld-0")
    pick(lambda el: el.tap(), meld, "9", 2)
    pick(lambda el: el.tap(), meld, "2")
    table = page.locator("#table-meld-0")  # the team's melds, listed: the page invents none (#34)
    table.locator(".chip.add").tap()
    pick(lambda el: el.tap(), table, "K", 3)
    page.locator("#rule-button").tap()
    # Twos are wild by the game's house rule: told the routine facts (nothing is pre-filled, #42: drawn, two or
    # more cards left ...), the ruling is decided, not "Not settled".
    tell(page)
    verdict = page.locator("#ruling .verdict")
    expect(verdict).to_be_visible()
    assert verdict.get_attribute("data-verdict") in ("legal", "illegal")
    assert rulings[-1]["house_rules"]["wild.twos"] is True
    page.locator("#options-button").tap()  # "What may I do?" has its own form: the hand, then ask
    pick(lambda el: el.tap(), page.locator("#field-hand"), "9", 2)
    page.locator("#options-button").tap()
    expect(page.locator("#ruling")).to_be_visible()
    page.wait_for_function("() => document.querySelector('#ruling') && document.querySelector('#ruling').textContent.length > 0")
    assert options and options[-1]["house_rules"]["wild.twos"] is True
    # Removed on the score pad, it is gone from Settle too.
    page.locator("#tab-score").tap()
    page.locator("#game-house-rules [data-parameter='wild.twos']").get_by_role("button", name="Remove").tap()
    expect(page.locator("#game-house-rules [data-parameter='wild.twos']")).to_have_count(0)
    page.locator("#tab-settle").tap()
    expect(page.locator("#settle-house-rules")).not_to_contain_text("Are twos wild in your game?")
    expect(page.locator("#settle-house-rules")).to_contain_text("8,000")


def test_da_ludo_penalties_are_entered_and_summed_by_the_engine(phone):
    page, base = phone
    start_game(page, base, "da-ludo")
    # The variant's own penalties, in the service's words with their points; none for sv-classic.
    hint = page.locator("#penalty-hint-1")
    expect(hint).to_have_accessible_name("Penalty for a hint or signal between partners (\u2212500 each)")
    scores = bodies_of(page, "/v1/score")
    enter_counts(page, 0, natural=1, melded=200)
    enter_counts(page, 1, natural=1, melded=300)
    for _ in range(2):
        hint.get_by_role("button", name="one more").tap()
    went_out(page, "Us")
    save_round(page)
    assert scores[-1]["rounds"][0]["teams"][1]["penalties"] == [{"kind": "hint"}, {"kind": "hint"}]
    assert "penalties" not in scores[-1]["rounds"][0]["teams"][0]
    page.locator("#round-0 .round-toggle").tap()
    lines = page.locator("#round-lines-0")
    expect(lines).to_contain_text("× 2")
    expect(lines).to_contain_text("\u22121,000")
    # The total is the engine's: 300 melded + 500 canasta - 1,000.
    expect(page.locator("#total-1")).to_have_text("\u2212200")


def test_sv_classic_has_no_penalty_entry(phone):
    page, base = phone
    start_game(page, base, "sv-classic")
    expect(page.locator("#team-0 [id^=penalty-]")).to_have_count(0)


def test_a_da_ludo_team_below_zero_can_answer_its_opening_requirement(phone):
    page, base = phone
    start_game(page, base, "da-ludo")
    enter_counts(page, 0, melded=200, hand=30)  # no canasta: everything counts as minus
    enter_counts(page, 1, natural=1, melded=300)
    went_out(page, "Them")
    save_round(page)
    expect(page.locator("#total-0")).to_have_text("\u2212230")
    expect(page.locator("#opening-0")).to_contain_text("not")  # the text does not say
    question = page.locator("#opening-open")
    expect(question).to_contain_text("How much must a team with a minus score meld to open?")
    scores = bodies_of(page, "/v1/score")
    question.get_by_label("Another number").fill("50")
    question.get_by_role("button", name="Use this number").tap()
    expect(page.locator("#opening-0")).to_have_text("Next opening: 50 points.")  # the service's words
    assert scores[-1]["house_rules"] == {"opening.negative": 50}
    expect(page.locator("#opening-open")).to_have_count(0)
    expect(page.locator("#game-house-rules [data-parameter='opening.negative'] .house-a")).to_have_text("50")


def test_offline_the_phones_engine_scores_and_rules_under_the_games_house_rules(phone):
    """The same house rules reach the engine on the phone: with no signal, the target and the open
    point chosen at setup are applied by it."""
    from test_engine_offline import wait_until_engine_kept

    page, base = phone
    open_score_pad(page, base)
    wait_until_engine_kept(page)
    start_da_ludo_with_house_rules(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    enter_counts(page, 0, natural=1, melded=200)
    enter_counts(page, 1, melded=150, hand=20)
    went_out(page, "Us")
    page.locator("#save-round").tap()
    expect(page.locator("#score-notice")).to_be_visible(timeout=ENGINE_WAIT)  # the engine boots on the first question
    expect(page.locator("#score-table tr.pending")).to_have_count(0, timeout=ENGINE_WAIT)  # checked on the phone
    expect(page.locator(".game-meta")).to_contain_text("to 8,000")
    page.locator("#tab-settle").tap()
    page.locator("label[for=variant-da-ludo]").tap()
    page.locator("label[for=question-meld]").tap()
    meld = page.locator("#new-meld-0")
    pick(lambda el: el.tap(), meld, "9", 2)
    pick(lambda el: el.tap(), meld, "2")
    table = page.locator("#table-meld-0")  # the team's melds, listed: the page invents none (#34)
    table.locator(".chip.add").tap()
    pick(lambda el: el.tap(), table, "K", 3)
    page.locator("#rule-button").tap()
    tell(page)  # the routine facts, as the family gives them (nothing is pre-filled, #42)
    verdict = page.locator("#ruling .verdict")
    expect(verdict).to_be_visible(timeout=ENGINE_WAIT)
    expect(page.locator("#ruling .on-phone")).to_have_count(1)  # ruled by the engine on the phone
    assert verdict.get_attribute("data-verdict") in ("legal", "illegal")  # twos are wild by the game's rule
