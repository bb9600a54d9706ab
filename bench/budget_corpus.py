"""Requests of every kind, from the lightest to the heaviest the service takes: the cost model's calibration corpus.

Used by ``bench/budget_bench.py`` (``--calibrate``: CPU per cost unit; and the search for the worst
single request of each endpoint). Seeded: the same corpus every run.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from options_bench import situation, whole_deck  # noqa: E402
from selfplay import play  # noqa: E402
from test_http_batch import GOOD, heavy_item  # noqa: E402

HANDS = (5, 11, 15, 20, 30, 45, 60, None)  # None: the whole deck but the pile's and the table's cards
TURNS = {"before": {"drew": None}, "after": {"drew": "stock"}, "unsaid": None}
WIDE = {"meld.min_cards": 2, "meld.max_wilds": None}  # house rules that multiply the melds a hand can make
BANDS = [{"min": i * 500, "points": 50 + 10 * i} for i in range(12)]  # the most bands a house rule may list


def hand_body(rules, vid: str, rng: random.Random, size: int | None, opened: bool, turn: str,
              house: dict | None) -> dict:
    cards = whole_deck(rules, opened)
    rng.shuffle(cards)
    hand = cards if size is None else cards[:size]
    body = {"variant": vid, "situation": situation(hand, [["KH", "KS", "KD"]] if opened else [], TURNS[turn], rules,
                                                   score=3200)}
    if house:
        body["house_rules"] = house
    return body


def options(variants, count: int, seed: int = 1) -> list[tuple[str, str, dict]]:
    """``(label, path, body)`` of ``/v1/options`` requests: every variant, hand size, phase, opened or not, with
    and without wide house rules, pages of 20 to 1,000."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        vid = rng.choice(list(variants))
        size = rng.choice(HANDS)
        opened, turn = rng.random() < 0.6, rng.choice(list(TURNS))
        house = WIDE if rng.random() < 0.3 else None
        limit = rng.choice((20, 20, 100, 300, 1000))
        body = hand_body(variants[vid], vid, rng, size, opened, turn, house)
        label = f"{vid} {size or 'deck'} cards {'opened' if opened else 'unopened'} {turn}" \
                f"{' wide' if house else ''} limit {limit}"
        out.append((label, f"/v1/options?limit={limit}", body))
    return out


def compares(variants, count: int, seed: int = 2) -> list[tuple[str, str, dict]]:
    """``/v1/compare`` of a situation alone (the options under 2 to 4 variants), of rulings and of scores."""
    rng = random.Random(seed)
    out = []
    ids = list(variants)
    for i in range(count):
        base = "sv-classic"
        size = rng.choice(HANDS[:-1])
        opened, turn = rng.random() < 0.6, rng.choice(list(TURNS))
        house = WIDE if rng.random() < 0.3 else None
        body = hand_body(variants[base], base, rng, size, opened, turn, house)
        del body["variant"]
        chosen = rng.sample(ids, rng.choice((2, 3, 4)))
        body["variants"] = chosen
        limit = rng.choice((5, 20, 20, 100))
        out.append((f"options of {size} cards under {len(chosen)} variants {turn}{' wide' if house else ''} "
                    f"limit {limit}", f"/v1/compare?limit={limit}", body))
    heavy = heavy_item()
    del heavy["variant"]
    out.append(("ruling: the heavy go-out under every variant", "/v1/compare", heavy))
    out.append(("ruling: an ordinary take under every variant", "/v1/compare",
                {k: v for k, v in GOOD.items() if k != "variant"}))
    for rounds in (1, 50, 200):
        game = long_game(rounds)
        del game["variant"]
        out.append((f"score: a game of {rounds} rounds under every variant", "/v1/compare", game))
    return out


def rulings(variants) -> list[tuple[str, str, dict]]:
    out = [("an ordinary take", "/v1/adjudicate", GOOD)]
    for vid in variants:
        out.append((f"the heavy go-out, {vid}", "/v1/adjudicate", heavy_item(vid)))
        out.append((f"the heavy go-out with house rules, {vid}", "/v1/adjudicate",
                    {**heavy_item(vid), "house_rules": WIDE}))
        out.append((f"the heavy go-out with 12 bands, {vid}", "/v1/adjudicate",
                    {**heavy_item(vid), "house_rules": {"opening.bands": BANDS}}))
    return out


def long_game(rounds: int, cards: bool = True) -> dict:
    """A game of ``rounds`` rounds that never reaches the target, its teams' cards listed."""
    melds = [["AH", "AS", "AD", "AC", "JK", "2C", "2D"], ["KH", "KS", "KD"]]
    one = [{"teams": [{"name": "A", "melds": melds, "went_out": True, "hand": []} if cards else
                      {"name": "A", "melded_points": 100, "natural_canastas": 1, "went_out": True},
                      {"name": "B", "melded_points": 0, "hand_points": 700}]},
           {"teams": [{"name": "A", "melded_points": 0, "hand_points": 700},
                      {"name": "B", "melded_points": 100, "natural_canastas": 1, "went_out": True}]}]
    return {"variant": "no-pagat", "rounds": (one * rounds)[:rounds]}


def scores(variants) -> list[tuple[str, str, dict]]:
    out = []
    for rounds in (1, 10, 50, 100, 200):
        out.append((f"a game of {rounds} rounds", "/v1/score", long_game(rounds)))
    out.append(("a game of 200 rounds with house rules", "/v1/score",
                {**long_game(200), "house_rules": {"opening.bands": BANDS}}))
    return out


def replays(variants, count: int, seed: int = 3) -> list[tuple[str, str, dict]]:
    """Self-played rounds (``tests/selfplay.py``) of every variant, the longest ones."""
    rng = random.Random(seed)
    out = []
    house = {"da-ludo": {"wild.twos": True, "meld.one_per_rank": True}}
    for i in range(count):
        vid = list(variants)[i % len(variants)]
        players = rng.choice(variants[vid].value("players.supported"))
        body = play(variants, vid, rng.randrange(10**6), players=players, house_rules=house.get(vid))
        out.append((f"{vid}, {players} players, {len(body['moves'])} moves", "/v1/replay", body))
    return out


def batches(variants) -> list[tuple[str, str, dict]]:
    heavy = heavy_item()
    return [("100 heavy go-outs", "/v1/adjudicate/batch", {"requests": [heavy] * 100}),
            ("1,000 ordinary takes", "/v1/adjudicate/batch", {"requests": [GOOD] * 1000}),
            ("50 games of 200 rounds", "/v1/score/batch", {"requests": [long_game(200, cards=False)] * 50})]


def corpus(variants, scale: int = 1) -> dict[str, list[tuple[str, str, dict]]]:
    """Every endpoint's requests, by endpoint."""
    return {"/v1/adjudicate": rulings(variants), "/v1/score": scores(variants),
            "/v1/options": options(variants, 90 * scale), "/v1/compare": compares(variants, 24 * scale),
            "/v1/replay": replays(variants, 12 * scale), "batch": batches(variants)}
