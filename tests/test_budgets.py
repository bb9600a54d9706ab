"""Every endpoint is priced before the work and refused over its budget with what to send instead (issue 36).

The cost model (:mod:`adjudicator.cost`) prices a request from what drives the engine's work; the web
layer (:mod:`web_api.budgets`) refuses one over ``REQUEST_BUDGET`` with a 413 ``over-budget`` problem
naming, in words and as data, a request that fits. These tests assert refusals and bounds, never times
or sizes: the figures are ``bench/budget_bench.py``'s.
"""

from __future__ import annotations

import copy
import gzip
import json

import pytest

from problems import assert_problem, pointers
from test_http_batch import GOOD, heavy_item

from adjudicator import cost, turns
from adjudicator.input.house_rules import MAX_BANDS, MAX_ITEMS
from adjudicator.model.cards import RANKS, SUITS
from adjudicator.options.paging import Page
from web_api import create_app

VARIANT_IDS = ["da-ludo", "no-pagat", "sv-classic", "sv-gamerules"]


def deck_hand(size: int | None, leave=("6C", "8D", "9D", "KH", "KS", "KD")) -> list[str]:
    """``size`` cards of two decks and four jokers (all of them: None), the pile's and the table's left out."""
    cards = [r + s for r in RANKS for s in SUITS] * 2 + ["JK"] * 4
    for card in leave:
        cards.remove(card)
    cards = [c for c in cards if c not in ("3H", "3D")]  # red threes are laid out, never held
    return cards if size is None else cards[:size]


def table(hand: list[str], drew="unsaid", opened: bool = True) -> dict:
    """The issue's table: four players, a stock of 30 (what is left of 108 cards, when less), the pile 6C 8D 9D,
    the team's KH KS KD (when opened)."""
    stock = max(0, min(30, 108 - len(hand) - 3 - (3 if opened else 0)))
    out = {"players": 4, "stock_count": stock, "discard_pile": ["6C", "8D", "9D"],
           "team": {"melds": [["KH", "KS", "KD"]] if opened else []}, "player": {"hand": hand}}
    if drew != "unsaid":
        out["turn"] = {"drew": drew}
    return out


# The issue's compare: a 502-byte body that ran 30.8 s and took a worker to 1,142 MB.
ISSUE_COMPARE = {"situation": table(deck_hand(50))}
# ... and a plain 15-card hand with a wide house rule: 229 MB of answer in 7.5 s of CPU.
HAND_15 = ["AH", "AS", "KC", "QH", "QS", "JD", "10C", "10H", "9S", "8D", "7C", "5H", "4S", "2C", "JK"]
ISSUE_COMPARE_15 = {"situation": table(HAND_15), "house_rules": {"meld.min_cards": 2}}


def small_budget(budget: int):
    return create_app({"TESTING": True, "REQUEST_BUDGET": budget}).test_client()


def over_budget(resp) -> dict:
    problem = assert_problem(resp, 413, "over-budget")
    assert problem["cost"] > problem["budget"] > 0
    return problem


# ----------------------------------------------------------------------------------------------
# The cost model: what drives the work drives the estimate


def test_the_batch_estimate_is_the_cost_model_s(variants):
    from web_api import batch_api

    assert batch_api.ruling_cost is cost.ruling_cost and batch_api.score_cost is cost.score_cost


def test_a_ruling_costs_more_with_more_cards_open_points_and_house_rules(variants):
    heavy = heavy_item()
    base = cost.ruling_cost(heavy, variants)
    assert cost.ruling_cost(GOOD, variants) < base
    assert cost.ruling_cost({**heavy, "house_rules": {"meld.min_cards": 3}}, variants) > base
    bands = [{"min": 500 * i, "points": 50} for i in range(MAX_BANDS)]
    with_bands = cost.ruling_cost({**heavy, "house_rules": {"opening.bands": bands}}, variants)
    assert with_bands > cost.ruling_cost({**heavy, "house_rules": {"opening.bands": bands[:1]}}, variants)
    # a list over the bound is refused by the parser before any work: it counts as one band over it
    huge = cost.ruling_cost({**heavy, "house_rules": {"opening.bands": bands * 10_000}}, variants)
    assert with_bands < huge <= cost.ruling_cost({**heavy, "house_rules": {"opening.bands": bands * 2}}, variants)
    assert cost.ruling_cost({"nonsense": 1}, variants) > 0 and cost.ruling_cost([1], variants) > 0


def test_the_options_walk_costs_more_with_more_cards_and_groups(variants):
    every = Page()
    small = {"variant": "sv-classic", "situation": table(deck_hand(11))}
    big = {"variant": "sv-classic", "situation": table(deck_hand(None))}
    assert cost.options_cost(small, variants, every) < cost.options_cost(big, variants, every)
    drawn = {"variant": "sv-classic", "situation": table(deck_hand(None), drew="stock")}
    assert cost.options_cost(drawn, variants, every) < cost.options_cost(big, variants, every)  # one phase
    assert cost.options_cost(big, variants, Page(group="discard")) < cost.options_cost(big, variants, every)


def test_a_comparison_costs_more_under_more_variants(variants):
    one = cost.compare_cost({**ISSUE_COMPARE, "variants": VARIANT_IDS[:1]}, variants, Page())
    two = cost.compare_cost({**ISSUE_COMPARE, "variants": VARIANT_IDS[:2]}, variants, Page())
    every = cost.compare_cost(ISSUE_COMPARE, variants, Page())
    assert one < two < every
    assert cost.largest_comparison(ISSUE_COMPARE, variants, Page(), two) == 2  # the first two named


def test_a_replay_costs_more_with_more_moves(variants):
    from selfplay import play

    log = play(variants, "sv-classic", 3, players=4)
    shorter = {**log, "moves": log["moves"][: len(log["moves"]) // 2]}
    assert cost.replay_cost(shorter, variants) < cost.replay_cost(log, variants)
    assert cost.largest_log(log, variants, cost.replay_cost(shorter, variants)) >= len(shorter["moves"])
    assert cost.largest_log(log, variants, cost.replay_cost(log, variants)) == len(log["moves"])


# ----------------------------------------------------------------------------------------------
# House rules are bounded


def test_the_band_bound_leaves_room_for_the_texts_own_tables(variants):
    longest = max(len(v.value("opening.bands")) for v in variants.values())
    assert 3 <= longest and 3 * longest <= MAX_BANDS  # three times the longest table the four texts have


@pytest.mark.parametrize("path", ["/v1/adjudicate", "/v1/options", "/v1/compare"])
def test_a_band_list_over_the_bound_is_a_422_pointing_at_it(client, path):
    body = copy.deepcopy(GOOD)
    if path == "/v1/options":
        del body["action"]
    if path == "/v1/compare":
        del body["variant"]
    bands = [{"min": 100 * i, "points": 50} for i in range(MAX_BANDS + 1)]
    body["house_rules"] = {"opening.bands": bands}
    problem = assert_problem(client.post(f"{path}?lang=sv", json=body), 422)
    assert pointers(problem) == ["/house_rules/opening.bands"]
    assert str(MAX_BANDS) in problem["detail"]
    body["house_rules"] = {"opening.bands": bands[:MAX_BANDS]}
    assert client.post(path, json=body).status_code == 200


def test_another_list_over_its_bound_is_a_422(client):
    body = {**GOOD, "house_rules": {"pile.frozen_by": ["joker"] * (MAX_ITEMS + 1)}}
    assert pointers(assert_problem(client.post("/v1/adjudicate", json=body), 422)) == ["/house_rules/pile.frozen_by"]
    body["house_rules"] = {"pile.frozen_by": ["joker"] * MAX_ITEMS}
    assert client.post("/v1/adjudicate", json=body).status_code == 200


def test_the_issues_batch_item_with_130000_bands_is_its_own_422_at_once(client, variants):
    """3.3 MiB of bands in one heavy item: estimated at 306 units before, and an 18.8 MB answer."""
    bands = [{"min": 5 * i, "points": 50} for i in range(130_000)]
    item = {**heavy_item(), "house_rules": {"opening.bands": bands}}
    assert cost.ruling_cost(item, variants) > cost.ruling_cost(heavy_item(), variants)  # counted, capped
    resp = client.post("/v1/adjudicate/batch", json={"requests": [item, GOOD]})
    assert resp.status_code == 200
    first, second = resp.get_json()["results"]
    assert first["problem"]["status"] == 422
    assert first["problem"]["errors"][0]["pointer"] == "/house_rules/opening.bands"
    assert "ruling" in second
    assert len(resp.get_data()) < 100_000


def test_the_batch_estimate_counts_house_rules(variants):
    from web_api import create_app as make

    plain = [heavy_item()] * 3
    ruled = [{**heavy_item(), "house_rules": {"meld.min_cards": 3}}] * 3
    plain_cost = sum(cost.ruling_cost(i, variants) for i in plain)
    ruled_cost = sum(cost.ruling_cost(i, variants) for i in ruled)
    assert ruled_cost > plain_cost
    client = make({"TESTING": True, "BATCH_BUDGET": plain_cost}).test_client()
    assert client.post("/v1/adjudicate/batch", json={"requests": plain}).status_code == 200
    problem = assert_problem(client.post("/v1/adjudicate/batch", json={"requests": ruled}), 413, "batch-over-budget")
    assert problem["cost"] == ruled_cost


# ----------------------------------------------------------------------------------------------
# Each endpoint: refused over the budget, with what to send instead


def test_the_issues_compare_is_refused_at_once_with_a_request_that_fits(client):
    resp = client.post("/v1/compare?lang=sv", json=ISSUE_COMPARE)
    problem = over_budget(resp)
    assert resp.headers["Content-Language"] == "sv" and "Content-Length" in resp.headers
    fewer = problem.get("max_variants")
    if fewer is not None:  # compare fewer variants at once
        assert 1 <= fewer < 4 and pointers(problem) == ["/variants"] and str(fewer) in problem["detail"]
        resp = client.post("/v1/compare", json={**ISSUE_COMPARE, "variants": VARIANT_IDS[:fewer]})
    else:  # or ask for one group at a time
        assert problem["parameter"] == "group"
        resp = client.post("/v1/compare?group=meld", json=ISSUE_COMPARE)
    if resp.status_code == 413:  # the page, priced once the walks are done: a smaller one
        smaller = over_budget(resp)["max_limit"]
        resp = client.post(f"/v1/compare?group=meld&limit={smaller}", json={**ISSUE_COMPARE, "variants": ["sv-classic"]})
    assert resp.status_code == 200


def test_a_page_of_options_over_the_budget_is_refused_with_the_largest_that_fits(client):
    body = {"variant": "da-ludo", "situation": table(deck_hand(None))}
    problem = over_budget(client.post("/v1/options?limit=1000&lang=nb", json=body))
    assert problem["parameter"] == "limit" and 1 <= problem["max_limit"] < 1000
    assert str(problem["max_limit"]) in problem["detail"] and "limit" not in problem["detail"]
    fits = client.post(f"/v1/options?limit={problem['max_limit']}", json=body)
    assert fits.status_code == 200
    assert any(g["count"] > problem["max_limit"] for g in fits.get_json()["groups"])  # the rest: on later pages


def test_the_15_card_compare_with_a_wide_house_rule_is_paged(client):
    resp = client.post("/v1/compare", json=ISSUE_COMPARE_15)
    if resp.status_code == 413:
        problem = over_budget(resp)
        query = f"?limit={problem['max_limit']}" if "max_limit" in problem else "?group=meld"
        resp = client.post(f"/v1/compare{query}", json=ISSUE_COMPARE_15)
    assert resp.status_code == 200
    for result in resp.get_json()["results"]:
        for group in result["options"]["groups"]:
            assert len(group["options"]) <= 20 and group["count"] >= len(group["options"])


def test_a_replay_over_the_budget_is_refused_with_the_moves_that_fit(variants):
    from selfplay import play

    log = play(variants, "sv-classic", 3, players=4)
    client = small_budget(cost.replay_cost(log, variants) - 1)
    problem = over_budget(client.post("/v1/replay?lang=da", json=log))
    assert pointers(problem) == ["/moves"] and 1 <= problem["max_moves"] < len(log["moves"])
    assert str(problem["max_moves"]) in problem["detail"]
    shorter = {**log, "moves": log["moves"][: problem["max_moves"]]}
    assert client.post("/v1/replay", json=shorter).status_code == 200


@pytest.mark.parametrize("path,body,price", [
    ("/v1/adjudicate", heavy_item(), cost.ruling_cost),
    ("/v1/score", {"variant": "no-pagat", "rounds": [  # a game of 50 rounds that never reaches the target
        {"teams": [{"name": "A", "melded_points": 100, "natural_canastas": 1, "went_out": True},
                   {"name": "B", "melded_points": 0, "hand_points": 700}]},
        {"teams": [{"name": "A", "melded_points": 0, "hand_points": 700},
                   {"name": "B", "melded_points": 100, "natural_canastas": 1, "went_out": True}]}] * 25}, cost.score_cost),
])
def test_a_ruling_or_a_score_over_the_budget_is_refused(variants, path, body, price):
    units = price(body, variants)
    assert small_budget(units).post(path, json=body).status_code == 200
    problem = over_budget(small_budget(units - 1).post(path, json=body))
    assert problem["cost"] == units and not pointers(problem)


def test_the_heaviest_ruling_and_score_a_request_can_hold_fit_the_default_budget(variants):
    """Bounds: the largest table one ruling can be about (every card of four decks and twelve jokers laid out,
    twos open) and the longest game a body can hold (200 rounds, every card of the deck listed in each) are
    inside the budget: a ruling or a score is never refused for its size."""
    from web_api import DEFAULT_MAX_CONTENT_LENGTH
    from web_api.budgets import DEFAULT_REQUEST_BUDGET

    cards = [r + s for r in RANKS for s in SUITS if r not in ("3",)] * 4 + ["JK"] * 12
    melds = [cards[i:i + 7] for i in range(0, len(cards) - 7, 7)]
    ruling = {"variant": "da-ludo", "house_rules": {"deck.decks": 4, "deck.jokers": 12},
              "situation": {"players": 4, "player": {"hand": cards}, "team": {"melds": melds},
                            "opponents": {"melds": melds}},
              "action": {"type": "go_out", "melds": melds}}
    assert cost.ruling_cost(ruling, variants) < DEFAULT_REQUEST_BUDGET // 4
    deck = deck_hand(None, leave=())
    half = len(deck) // 2
    round_ = {"teams": [{"name": "A", "melds": [deck[i:i + 4] for i in range(0, half, 4)], "went_out": True},
                        {"name": "B", "melds": [], "hand": deck[half:]}]}
    game = {"variant": "no-pagat", "rounds": [round_] * 200}
    assert len(json.dumps(game)) <= DEFAULT_MAX_CONTENT_LENGTH
    assert cost.score_cost(game, variants) < DEFAULT_REQUEST_BUDGET


def test_an_over_budget_problem_speaks_each_language(client):
    body = {"variant": "da-ludo", "situation": table(deck_hand(None))}
    details = set()
    for lang in ("en", "sv", "nb", "da"):
        problem = over_budget(client.post(f"/v1/options?limit=1000&lang={lang}", json=body))
        details.add(problem["detail"])
        assert problem["title"] and problem["max_limit"]
    assert len(details) == 4


def test_the_request_budget_is_set_by_the_environment(monkeypatch):
    monkeypatch.setenv("CANASTA_REQUEST_BUDGET", "1234")
    assert create_app({"TESTING": True}).config["REQUEST_BUDGET"] == 1234
    monkeypatch.setenv("CANASTA_REQUEST_BUDGET", "lots")
    with pytest.raises(ValueError, match="CANASTA_REQUEST_BUDGET"):
        create_app({"TESTING": True})


# ----------------------------------------------------------------------------------------------
# Compare's options are paged like /v1/options


@pytest.mark.parametrize("query", ["", "?limit=3", "?limit=2&offset=2", "?group=meld&limit=5", "?group=draw"])
def test_each_variants_options_in_a_comparison_are_its_options_page(client, query):
    situation = table(HAND_15, drew="stock")
    compared = client.post(f"/v1/compare{query}", json={"situation": situation})
    assert compared.status_code == 200
    body = compared.get_json()
    for result in body["results"]:
        single = client.post(f"/v1/options{query}", json={"variant": result["variant"], "situation": situation})
        assert result["options"] == single.get_json()
    if "group=" in query:
        kind = query.split("group=")[1].split("&")[0]
        assert all(g["kind"] == kind for r in body["results"] for g in r["options"]["groups"])


def test_a_comparison_compares_the_moves_of_its_pages(client):
    situation = table(HAND_15, drew="stock")
    body = client.post("/v1/compare?limit=2", json={"situation": situation}).get_json()
    shown = {o["key"] for r in body["results"] for g in r["options"]["groups"] for o in g["options"]}
    assert {d["key"] for d in body["differences"]} <= shown
    for group in body["groups"]:
        assert {entry.split("=")[0] for entry in group["options"]} <= shown


@pytest.mark.parametrize("query", ["?limit=0", "?limit=1001", "?offset=-1", "?group=nope", "?limit=2&limit=3"])
def test_a_bad_page_of_a_comparison_is_a_400(client, query):
    problem = assert_problem(client.post(f"/v1/compare{query}", json={"situation": table(HAND_15)}), 400,
                             "invalid-query-parameter")
    assert problem["parameter"] in ("limit", "offset", "group")


# ----------------------------------------------------------------------------------------------
# Long work gives way: the engine's checkpoints, and answers written as they are made


def test_the_engine_takes_turns_at_its_checkpoints_without_knowing_whose(variants):
    """A hook set around the work is called by the options walk, a comparison and a replay."""
    from adjudicator.compare.comparison import compare
    from adjudicator.input.parse import compare_request, options_request
    from adjudicator.input.payloads import replay_payload
    from adjudicator.options.listing import legal_moves
    from selfplay import play

    calls = []
    asked = options_request({"variant": "sv-classic", "situation": table(HAND_15)}, variants)
    log = play(variants, "no-pagat", 1, players=4)
    for work in (lambda: legal_moves(asked.situation, asked.rules),
                 lambda: compare(compare_request({"situation": table(HAND_15)}, variants), variants, Page()),
                 lambda: replay_payload(log, variants)):
        calls.clear()
        with turns.taking_turns(0.0, lambda: calls.append(1)):
            work()
        assert len(calls) > 10
    calls.clear()
    legal_moves(asked.situation, asked.rules)  # no hook: a checkpoint does nothing
    assert calls == []


def test_the_engine_knows_nothing_of_gevent_or_http():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "adjudicator"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert not any(n.split(".")[0] in ("gevent", "gunicorn", "flask", "werkzeug") for n in names), path


def test_every_request_gives_way_while_it_works(monkeypatch, client):
    from web_api import budgets

    turned = []
    monkeypatch.setattr(budgets, "TURN_SECONDS", 0.0)
    monkeypatch.setattr(budgets, "give_way", lambda: turned.append(1))
    assert client.post("/v1/options", json={"variant": "sv-classic", "situation": table(HAND_15)}).status_code == 200
    assert len(turned) > 10
    turned.clear()
    assert client.post("/v1/compare", json={"situation": table(HAND_15, drew="stock")}).status_code == 200
    assert len(turned) > 10


def test_a_large_page_is_written_as_it_is_made_and_says_the_same(monkeypatch, client):
    from web_api import compare_api, options_api

    body = {"variant": "no-pagat", "situation": table(HAND_15)}
    monkeypatch.setattr(options_api, "STREAM_UNITS", 10**9)
    whole = client.post("/v1/options?limit=100", json=body)
    assert whole.status_code == 200 and "Content-Length" in whole.headers
    monkeypatch.setattr(options_api, "STREAM_UNITS", 0)
    streamed = client.post("/v1/options?limit=100", json=body)
    assert streamed.is_streamed and "Content-Length" not in streamed.headers
    assert streamed.get_json() == whole.get_json()
    zipped = client.post("/v1/options?limit=100", json=body, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert json.loads(gzip.decompress(zipped.get_data())) == whole.get_json()
    assert zipped.headers["Cache-Control"] == "no-store"
    compared = {"situation": table(HAND_15, drew="stock")}
    monkeypatch.setattr(compare_api, "STREAM_UNITS", 10**9)
    plain = client.post("/v1/compare?limit=5", json=compared).get_json()
    monkeypatch.setattr(compare_api, "STREAM_UNITS", 0)
    resp = client.post("/v1/compare?limit=5", json=compared)
    assert resp.is_streamed and resp.get_json() == plain


@pytest.mark.skipif(__import__("web_api.compression", fromlist=["brotli"]).brotli is None, reason="no brotli")
def test_a_streamed_answer_is_brotli_compressed_when_asked(monkeypatch, client):
    import brotli

    from web_api import options_api

    body = {"variant": "no-pagat", "situation": table(HAND_15)}
    whole = client.post("/v1/options?limit=50", json=body).get_json()
    monkeypatch.setattr(options_api, "STREAM_UNITS", 0)
    resp = client.post("/v1/options?limit=50", json=body, headers={"Accept-Encoding": "br, gzip"})
    assert resp.headers["Content-Encoding"] == "br"
    assert json.loads(brotli.decompress(resp.get_data())) == whole


def test_one_group_is_walked_alone_and_is_what_it_is_in_the_whole_listing(variants):
    from adjudicator.input.parse import options_request
    from adjudicator.options.listing import legal_moves

    asked = options_request({"variant": "da-ludo", "situation": table(HAND_15)}, variants)
    every = legal_moves(asked.situation, asked.rules)
    for group in every.groups:
        alone = legal_moves(asked.situation, asked.rules, group.kind)
        (same,) = [g for g in alone.groups if g.phase == group.phase] or [None]
        assert same is not None and [o.key for o in same.options] == [o.key for o in group.options]
        assert [o.verdict for o in same.options] == [o.verdict for o in group.options]


def test_a_list_over_the_parsers_cap_is_priced_at_the_cap_and_refused_by_the_parser(client, variants):
    """130,000 additions (254 KiB) cost what the longest list the parser reads costs: the answer is its 422."""
    body = {"variant": "sv-classic", "situation": {}, "action": {"type": "meld", "add": [1] * 130_000}}
    capped = {**body, "action": {"type": "meld", "add": [1] * (cost.MOST_CARDS + 1)}}
    assert cost.ruling_cost(body, variants) == cost.ruling_cost(capped, variants)
    assert_problem(client.post("/v1/adjudicate", json=body), 422, "validation-failed")


# ----------------------------------------------------------------------------------------------
# Priced before the walk (issue 45): a refusal for size costs no search, and its hint fits in one step

WIDE = {"meld.min_cards": 2, "meld.max_wilds": None}
# The independent probe's bodies (one shape each of what it sent): a whole deck's options, 1,000 a group, under
# wide house rules (refused after 0.8-1 s of walking before); a whole deck compared under two variants.
PROBE_OPTIONS = ("/v1/options?limit=1000", {"variant": "no-pagat", "situation": table(deck_hand(None), drew=None),
                                            "house_rules": WIDE})
PROBE_COMPARE = ("/v1/compare", {"situation": table(deck_hand(None)), "variants": ["da-ludo", "no-pagat"],
                                 "house_rules": {**WIDE, "meld.natural_majority": False, "meld.min_naturals": 1}})
REFUSED = [PROBE_OPTIONS, PROBE_COMPARE, ("/v1/compare", ISSUE_COMPARE), ("/v1/compare", ISSUE_COMPARE_15),
           ("/v1/options?limit=1000", {"variant": "da-ludo", "situation": table(deck_hand(None))}),
           ("/v1/compare?limit=100", {"situation": table(deck_hand(40), drew=None)})]


def _no_walk(*args, **kwargs):
    raise AssertionError("a request refused for its size walked its options")


@pytest.mark.parametrize("path,body", REFUSED)
def test_a_refusal_for_size_walks_nothing(monkeypatch, client, path, body):
    from adjudicator.answers import use_cases
    from adjudicator.compare import comparison

    monkeypatch.setattr(use_cases, "legal_moves", _no_walk)
    monkeypatch.setattr(comparison, "legal_moves", _no_walk)
    over_budget(client.post(path, json=body))  # a 500 if anything was walked


def _hinted(path: str, body: dict, problem: dict) -> tuple[str, dict]:
    """The request the 413's hint says to send instead."""
    base, _, query = path.partition("?")
    params = dict(p.split("=") for p in query.split("&") if p)
    if "max_limit" in problem:
        params["limit"] = str(problem["max_limit"])
    elif "max_variants" in problem:
        body = {**body, "variants": cost.compare_ids(body, VARIANTS)[:problem["max_variants"]]}
    else:
        assert problem["parameter"] == "group"
        params["group"] = "meld"
    return base + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else ""), body


VARIANTS = __import__("adjudicator.variants", fromlist=["load_all"]).load_all()


@pytest.mark.parametrize("path,body", REFUSED)
def test_the_hint_of_a_refusal_for_size_fits_in_one_step(client, path, body):
    hinted_path, hinted_body = _hinted(path, body, over_budget(client.post(path, json=body)))
    resp = client.post(hinted_path, json=hinted_body)
    assert resp.status_code == 200, (hinted_path, resp.get_json())
    resp.get_data()


def _small_tables(count: int, seed: int):
    """Tables of 2 to 12 cards drawn from few ranks and many wild cards (the hands whose moves multiply), under
    every variant, phase and house rule that widens the melds: what the bound of a group is held to."""
    import random

    rng = random.Random(seed)
    ranks = [r for r in RANKS if r not in ("2", "3")]
    for _ in range(count):
        chosen = rng.sample(ranks, rng.choice((1, 2, 3, 4, 6)))
        pool = [r + s for r in chosen for s in SUITS] * 2 + ["JK"] * 4 + ["2" + s for s in SUITS] * 2 + ["3S", "3C"]
        hand = rng.sample(pool, rng.randint(2, min(12, len(pool))))
        opened = rng.random() < 0.6
        melds = ([["KH", "KS", "KD"]] + ([["QH", "QS", "JK"]] if rng.random() < 0.5 else [])) if opened else []
        situation = {"players": 4, "stock_count": 30, "discard_pile": ["6C", "8D", rng.choice(["9D", "JK", *hand])],
                     "team": {"melds": melds}, "player": {"hand": hand, "has_melded": opened}}
        turn = rng.choice(["before", "after", "unsaid", "pile"])
        if turn == "pile":
            situation["turn"] = {"drew": "pile"}
            situation["cards_from_pile"] = hand[:rng.randint(1, min(3, len(hand)))]
        elif turn != "unsaid":
            situation["turn"] = {"drew": None if turn == "before" else "stock"}
        house = rng.choice([None, WIDE, {"meld.min_cards": 2}, {"meld.one_per_rank": False}, {"wild.twos": True}])
        yield {"variant": rng.choice(VARIANT_IDS), "situation": situation, **({"house_rules": house} if house else {})}


def test_no_group_holds_more_options_than_its_price_counts(variants):
    """The bound on each group's options (before any search) is never below the count the walk finds, so a page
    is never priced below what it costs (the service checks it again once walked: budgets.page_within)."""
    from adjudicator.input.parse import options_request
    from adjudicator.model.errors import AdjudicatorError
    from adjudicator.options.listing import legal_moves

    checked = 0
    for body in _small_tables(160, seed=45):
        try:
            asked = options_request(body, variants)
            listed = legal_moves(asked.situation, asked.rules)
        except AdjudicatorError:
            continue  # a table that cannot happen under these rules
        bounds = cost.group_bounds(cost.read_table(body), variants[body["variant"]], body.get("house_rules") or {})
        for group in listed.groups:
            assert group.count <= bounds[group.kind], (group.kind, group.count, bounds, body)
        page = Page(1000, 0, None)
        assert cost.page_cost(body, variants, [(asked.rules, listed)], page) <= \
            cost.pages_priced(body, variants, page, [body["variant"]])
        checked += 1
    assert checked > 100


def test_a_comparison_reads_its_request_once(monkeypatch, variants):
    """Its table (or its ruling's facts) is read from the body once, whatever the variants compared (issue 44)."""
    calls = {"table": 0, "facts": 0}
    read_table, ruling_facts = cost.read_table, cost._ruling_facts

    def counted_table(body):
        calls["table"] += 1
        return read_table(body)

    def counted_facts(body):
        calls["facts"] += 1
        return ruling_facts(body)

    monkeypatch.setattr(cost, "read_table", counted_table)
    monkeypatch.setattr(cost, "_ruling_facts", counted_facts)
    cost.compare_cost({"situation": table(HAND_15)}, variants, Page())
    cost.compare_cost({k: v for k, v in GOOD.items() if k != "variant"}, variants, Page())
    assert calls == {"table": 1, "facts": 1}


def test_a_page_longer_than_its_price_is_said_in_the_log_and_the_budget_still_holds(monkeypatch, caplog):
    """Were the bound on a group ever below its real count, the service would say so (an error in its log) and
    still refuse what is over the budget, before any option is made."""
    from adjudicator.options.paging import GROUP_KINDS

    monkeypatch.setattr(cost, "group_bounds", lambda *args: {kind: 0 for kind in GROUP_KINDS})  # a wrong bound
    body = {"variant": "sv-classic", "situation": table(HAND_15, drew="stock")}
    walks = cost.options_cost(body, VARIANTS, Page())  # the walks alone, priced as if no group held an option
    problem = over_budget(small_budget(walks).post("/v1/options", json=body))
    assert problem["cost"] > walks and "the cost model priced the page of options" in caplog.text
