"""Nothing invented (issue #34 item 1, #42), on a 390 x 844 phone: every form, filled as a family fills it, sends
only cards the player picked and facts the player tapped. What the family knows without naming cards (a wild
card lies in the pile, the team's score) goes as those facts when tapped; the rest is asked by the referee
where it matters, and goes only as answered.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from e2e_helpers import open_page, tell
from playwright.sync_api import expect


def kind(code: str) -> str:
    if code == "JK":
        return "JK"
    if code[:-1] == "3":
        return "R3" if code[-1] in "HD" else "B3"
    return code[:-1]


CARD = re.compile(r"^(?:(?:10|[2-9AKQJ])[SHDC]|JK)$")


def cards_in(value) -> list[str]:
    """Every card code in a part of a request."""
    if isinstance(value, str):
        return [value] if CARD.match(value) else []
    if isinstance(value, list):
        return [c for v in value for c in cards_in(v)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in cards_in(v)]
    return []


class Picker:
    """Taps on the card picker, remembering every kind the player picked (the only cards a request may hold),
    and the facts the player gave by a tap (`said`: pointer -> value, the only facts a request may hold)."""

    def __init__(self, page):
        self.page = page
        self.picked: Counter = Counter()
        self.said: dict[str, object] = {}

    def __call__(self, field_id: str, kind_: str, count: int = 1):
        field = self.page.locator(f"#{field_id}")
        if not field.locator(f'.kind[data-kind="{kind_}"]').is_visible():
            field.locator(".chip.add").tap()
        field.locator(f'.kind[data-kind="{kind_}"]').tap()
        if count > 1:
            field.locator(".count", has_text=f"×{count}").tap()
        self.picked[kind_] += count


def situation_cards(body: dict) -> Counter:
    s = body["situation"]
    return Counter(kind(c) for c in cards_in([s.get("discard_pile"), s.get("team"), s.get("opponents"),
                                              s.get("player"), s.get("turn")]))


# Where a request holds cards (checked as cards, above): every other value of a situation is a fact.
CARD_PLACES = re.compile(r"^/situation/(discard_pile|team/melds|opponents/melds|player/hand|turn/cards_from_pile)$")
# What a question says by being asked: "Is this enough to open?" -- the team has not opened.
ASKED = {"open": {"/situation/team/melds": []}}


def facts_in(value, at: str = "/situation") -> dict:
    """Every fact of a situation by its pointer (a list is one value), but the cards and what says nothing (null;
    but `turn.drew: null`, which says "not drawn yet")."""
    if isinstance(value, dict):
        return {p: v for k, x in value.items() for p, v in facts_in(x, f"{at}/{k}").items()}
    if (value is None and at != "/situation/turn/drew") or (CARD_PLACES.match(at) and value):
        return {}
    return {at: value}


# The facts one tap on a routine question of the referee's gives (its choice's patch), by the question's pointer.
TOLD = {"/situation/turn/drew": {"/situation/turn/has_drawn": True}, "/situation/team/melds": {"/situation/team/opened": True},
        "/situation/first_round": {"/situation/first_round": False}, "/situation/stock_count": {"/situation/stock_empty": False},
        "/situation/players": {"/situation/players": 4}}


def empty_objects(value, at: str = "/situation") -> list[str]:
    """Where a situation holds `{}`: it says nothing, yet the service reads `team: {}` otherwise than no team."""
    if not isinstance(value, dict):
        return []
    if not value and at != "/situation":
        return [at]
    return [p for k, x in value.items() for p in empty_objects(x, f"{at}/{k}")]


def check_nothing_invented(body: dict, picker: Picker, form: str):
    shown = situation_cards(body)
    invented = shown - picker.picked
    assert not invented, f"{form}: the request holds cards nobody picked: {dict(invented)}"
    acted = Counter(kind(c) for c in cards_in(body.get("action")))
    assert not acted - picker.picked, f"{form}: the action holds cards nobody picked: {dict(acted - picker.picked)}"
    given = {**ASKED.get(form, {}), **picker.said}
    assert not empty_objects(body["situation"]), f"{form}: the request holds empty objects: {empty_objects(body['situation'])}"
    sent = facts_in(body["situation"])
    made_up = {p: v for p, v in sent.items() if p not in given or given[p] != v}
    assert not made_up, f"{form}: the request holds facts nobody tapped: {made_up}"
    missing = {p: v for p, v in picker.said.items() if p.startswith("/situation/") and (p not in sent or sent[p] != v)}
    assert not missing, f"{form}: facts tapped but not sent as tapped: {missing} (sent {sent})"


def watch(page, path):
    seen: list[dict] = []
    page.on("request", lambda r: seen.append(json.loads(r.post_data))
            if r.method == "POST" and r.url.split("?")[0].endswith(path) else None)
    return seen


def fill_take(page, pick):
    pick("field-top", "9")
    page.locator("#pile-wild").check()
    page.locator("#pile-black3").check()
    pick.said.update({"/situation/pile_unnamed/wild": True, "/situation/pile_unnamed/black_three": True})
    pick("field-with", "9")
    pick("field-with", "JK")


def fill_meld(page, pick):
    page.locator("label[for=question-meld]").tap()
    pick("new-meld-0", "9", 2)
    pick("new-meld-0", "2")
    page.locator("label[for=left-1]").tap()  # one card left after it
    pick.said["/situation/player/hand_count"] = 4


def fill_open(page, pick):
    page.locator("label[for=question-open]").tap()
    pick("open-meld-0", "K", 3)


def fill_go_out(page, pick):
    page.locator("label[for=question-go_out]").tap()
    pick("out-meld-0", "5", 3)


def fill_discard(page, pick):
    page.locator("label[for=question-discard]").tap()
    pick("field-card", "9")
    page.locator("label[for=last-card-0]").tap()  # my last card
    pick.said["/situation/player/hand_count"] = 1


FORMS = {"take_pile": fill_take, "meld": fill_meld, "open": fill_open, "go_out": fill_go_out, "discard": fill_discard}


@pytest.mark.parametrize("variant", ["sv-classic", "da-ludo", "no-pagat", "sv-gamerules"])
def test_no_form_sends_a_card_the_player_did_not_pick(phone, variant):
    page, base = phone
    open_page(page, base)
    sent = watch(page, "/v1/adjudicate")
    page.locator(f"label[for=variant-{variant}]").tap()
    for form, fill in FORMS.items():
        page.locator(f"label[for=question-{form}]").tap()
        page.locator("#clear-facts").tap()
        pick = Picker(page)
        fill(page, pick)
        before = len(sent)
        page.locator("#rule-button").tap()
        expect(page.locator("#ruling .verdict")).to_be_visible()
        page.wait_for_function("n => true", arg=None)
        assert len(sent) > before, form
        check_nothing_invented(sent[-1], pick, form)


def test_what_may_i_do_sends_only_the_cards_picked(phone):
    page, base = phone
    open_page(page, base)
    sent = watch(page, "/v1/options")
    page.locator("label[for=variant-sv-classic]").tap()
    page.locator("#options-button").tap()
    pick = Picker(page)
    pick("field-hand", "7", 2)
    pick("field-hand", "K", 3)
    pick("field-hand", "JK")
    pick("field-options-top", "7")
    page.locator("#pile-wild").check()
    pick.said["/situation/pile_unnamed/wild"] = True
    page.locator("#options-button").tap()
    expect(page.locator("#ruling .options-body")).to_be_visible()
    check_nothing_invented(sent[-1], pick, "options")
    # No move offers to add to a meld nobody entered.
    listed = page.locator("#ruling .options-body").inner_text()
    for made_up in ("queens", "jacks", "eights", "sixes", "fours"):
        assert made_up not in listed.lower(), listed


def test_a_frozen_pile_said_in_words_is_ruled_and_a_missing_card_said(phone):
    """The family ticks "a wild card lies in the pile" and shows a nine and a joker: illegal, from the text,
    with no made-up card; shown two nines with the team's melds not listed, it is ruled all the same."""
    page, base = phone
    open_page(page, base)
    sent = watch(page, "/v1/adjudicate")
    page.locator("label[for=variant-no-pagat]").tap()
    pick = Picker(page)
    fill_take(page, pick)
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .verdict")).to_have_attribute("data-verdict", "illegal")
    check_nothing_invented(sent[-1], pick, "take_pile")


@pytest.mark.parametrize("variant", ["sv-classic", "da-ludo", "no-pagat", "sv-gamerules"])
def test_whether_the_team_has_nines_is_sent_only_as_tapped(phone, variant):
    """A new meld of nines, the team opened with its melds not listed: the referee asks whether the team
    already has a meld of nines. The page sends no answer until the player taps one, then exactly that; the
    answer stays on the form, and "Not sure" takes it back."""
    page, base = phone
    open_page(page, base)
    sent = watch(page, "/v1/adjudicate")
    page.locator(f"label[for=variant-{variant}]").tap()
    page.locator("label[for=question-meld]").tap()
    page.locator("#clear-facts").tap()
    pick = Picker(page)
    pick("new-meld-0", "9", 3)
    page.locator("#rule-button").tap()
    # Nothing pre-filled (#42): the referee first asks the routine facts and whether the team has melded; each is
    # sent as tapped (the facts its answer gives, as the referee's patch says).
    told = tell(page, {"/situation/team/melds": 0})
    for pointer in told:
        pick.said.update(TOLD.get(pointer, {}))
        if pointer == "/situation/player/hand_count":
            pick.said["/situation/player/hand_count_at_least"] = sent[-1]["situation"]["player"]["hand_count_at_least"]
    question = page.locator("#fact-team-ranks-9")
    expect(question).to_be_visible()
    check_nothing_invented(sent[-1], pick, "meld")
    assert "/situation/team/ranks/9" in page.evaluate("() => [...document.querySelectorAll('#ruling [data-pointer]')]"
                                                      ".map((e) => e.dataset.pointer)")
    question.get_by_role("button").last.tap()  # No
    expect(page.locator("#fact-team-ranks-9")).to_have_count(0)
    expect(page.locator("#ruling .verdict")).to_be_visible()
    pick.said["/situation/team/ranks/9"] = False
    check_nothing_invented(sent[-1], pick, "meld")
    said = page.locator("#said-team-ranks-9")
    expect(said.locator("input[value='1']")).to_be_checked()  # the second choice: No
    before = len(sent)
    said.locator("label").last.tap()  # Not sure
    page.locator("#rule-button").tap()
    expect(page.locator("#fact-team-ranks-9")).to_be_visible()
    assert len(sent) > before
    del pick.said["/situation/team/ranks/9"]
    check_nothing_invented(sent[-1], pick, "meld")
