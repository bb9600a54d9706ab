"""In-process benchmark of ``legal_moves`` ("what may I do?"), on one core: p50 and p99 latencies.

    .venv/bin/python bench/options_bench.py [--runs 300] [--big-runs 60]

Two workloads, each under every variant and in every phase of the turn (not drawn yet,
drawn, not said -- which lists both):

* ``15 cards``: a 15-card hand (pairs, a joker and a two) with the team's 4 melds on the
  table, opened; target p99 < 20 ms;
* ``whole deck``: the largest hand a deck allows -- every card of the variant's deck but the
  pile's three (and, opened, the team's kings), red threes too -- for a team that has opened
  and one yet to open (its openings searched); target p99 < 100 ms.

Each is timed twice: ``legal_moves`` on a situation parsed beforehand (the search, the
complete walk and its rulings), and ``answer`` -- parse + ``legal_moves`` + the JSON-ready dict
of the first page of each group (:func:`adjudicator.answers.serialize.options` with the API's default
``limit``), which is what ``POST /v1/options`` does without Flask and JSON encoding.

Each is timed warm and ``cold``: the parts' rulings a meld listing is decided from are kept across
requests (:mod:`adjudicator.options.parts`, by the variant object), and repeating one situation finds
them all -- as a second page or the other phase of a turn does; ``cold`` forgets them before every
answer, as a table nobody asked about before finds it.

Times are the CPU time of this process (``time.process_time``): the machine's other load
does not inflate them (wall-clock figures on a shared machine did, several-fold).

Then again after ``gc.freeze()``: with the garbage collector as it is, its full collections
(each walks the loaded variants and their caches, ~10 ms) are most of the p99; a server that
freezes what it loaded at start-up does not pay them per request.

``--http-workload`` measures instead what the HTTP benchmark sends: the 255 situations of
``POST /v1/options`` in ``bench/http_bench.py`` (``build_workloads()``), each answered through the
app's WSGI callable as gunicorn calls it (Flask, hooks, JSON), after ``gc.freeze()`` as ``app.py``
does. It prints the CPU per request over all bodies (what decides the server's throughput), the
distribution of the bodies' own medians (p50/p90/p99/max), and the slowest bodies by variant,
phase, team opened or not and hand size -- the tail that blocks a gevent worker's other
connections. Run it from a compiled copy to see the engine as the image runs it (bench/README.md).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from adjudicator.model.cards import RANKS, SUITS  # noqa: E402
from adjudicator.options.listing import legal_moves  # noqa: E402
from adjudicator.options.parts import part_ruling  # noqa: E402
from adjudicator.input.parse import options_request  # noqa: E402
from adjudicator.variants import load_all  # noqa: E402
from adjudicator.answers import serialize  # noqa: E402
from web_api.options_api import LIMIT  # noqa: E402

HAND_15 = ["AH", "AS", "KC", "QH", "QS", "JD", "10C", "10H", "9S", "8D", "7C", "5H", "4S", "2C", "JK"]
MELDS_4 = [["KH", "KS", "KD"], ["QD", "QC", "QH"], ["6H", "6S", "6D", "6C", "JK"], ["8H", "8S", "8C"]]
PILE = ["6C", "8D", "9D"]
TURNS = {"not drawn": {"drew": None}, "drawn": {"drew": "stock"}, "not said": None}


def situation(hand, melds, turn, rules, score=1000) -> dict:
    shown = len(hand) + sum(len(m) for m in melds) + len(PILE)
    stock = max(0, min(30, rules.deck_size - shown))  # a table that can happen: the stock holds what is left
    out = {"players": 4, "first_round": False, "stock_count": stock, "discard_pile": PILE,
           "team": {"score": score, "melds": melds, "red_threes": 0},
           "opponents": {"score": 0, "melds": [], "red_threes": 0},
           "player": {"hand": hand, "has_melded": bool(melds)}}
    if turn is not None:
        out["turn"] = turn
    return out


def whole_deck(rules, opened: bool) -> list[str]:
    cards = [r + s for r in RANKS for s in SUITS] * rules.value("deck.decks") + ["JK"] * rules.value("deck.jokers")
    for c in PILE + (["KH", "KS", "KD"] if opened else []):
        cards.remove(c)
    return [c for c in cards if c not in ("3H", "3D")]  # red threes are laid out, never held


def workloads(variants) -> dict[str, list[dict]]:
    small, big = [], []
    for vid, rules in variants.items():
        for turn in TURNS.values():
            small.append({"variant": vid, "situation": situation(HAND_15, MELDS_4, turn, rules)})
            for opened in (True, False):
                big.append({"variant": vid, "situation": situation(
                    whole_deck(rules, opened), [["KH", "KS", "KD"]] if opened else [], turn, rules, score=3200)})
    return {"15 cards, 4 melds": small, "whole deck": big}


def timings(payloads, runs: int, variants, whole: bool, cold: bool = False) -> list[float]:
    parsed = [options_request(p, variants) for p in payloads]
    out = []
    for _ in range(runs):
        for payload, request in zip(payloads, parsed):
            if cold:
                forget_parts(request.rules)
            start = time.process_time()
            if whole:
                request = options_request(payload, variants)
                serialize.options(legal_moves(request.situation, request.rules), "en", limit=LIMIT)
            else:
                legal_moves(request.situation, request.rules)
            out.append(time.process_time() - start)
    return out


def forget_parts(rules) -> None:
    """The parts' rulings ``rules`` keeps across requests, forgotten (what it worked out else stays)."""
    kept = rules._worked_out
    for key in [key for key in kept if key[0] is part_ruling]:
        del kept[key]


def report(label: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p50 = statistics.median(samples) * 1000
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000
    print(f"  {label:<13} p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   max {samples[-1] * 1000:6.1f} ms   "
          f"({len(samples)} answers)")


def http_workload(rounds: int, slowest: int) -> None:
    """CPU per ``POST /v1/options`` of the HTTP benchmark's bodies, through the WSGI app, per body."""
    import io  # noqa: PLC0415

    from werkzeug.test import EnvironBuilder  # noqa: PLC0415

    from bench.http_bench import build_workloads  # noqa: PLC0415

    bodies = build_workloads()["POST /v1/options"]["bodies"]
    import app as service  # noqa: PLC0415 -- as gunicorn loads it

    def environ(body: bytes) -> dict:
        return EnvironBuilder(path="/v1/options", method="POST", data=body, content_type="application/json",
                              headers={"Accept": "application/json", "Host": "127.0.0.1"}).get_environ()

    def answer(env: dict, body: bytes) -> str:
        env = dict(env, **{"wsgi.input": io.BytesIO(body)})
        status: list[str] = []
        result = service.app(env, lambda s, h, exc=None: status.append(s))
        for _ in result:
            pass
        if hasattr(result, "close"):
            result.close()
        return status[0]

    prepared = [(environ(b), b) for b in bodies]
    for env, body in prepared:  # warm-up: every answer must be a 200
        if not answer(env, body).startswith("200"):
            raise SystemExit(f"not answered 200: {body[:200]!r}")
    gc.collect()
    gc.freeze()
    per: list[list[float]] = [[] for _ in prepared]
    for _ in range(rounds):
        for i, (env, body) in enumerate(prepared):
            start = time.process_time()
            answer(env, body)
            per[i].append(time.process_time() - start)
    every = [t for times in per for t in times]
    medians = [statistics.median(times) * 1000 for times in per]
    ranked = sorted(medians)

    def at(q: float) -> float:
        return ranked[min(len(ranked) - 1, int(len(ranked) * q))]
    print(f"POST /v1/options, the HTTP benchmark's {len(bodies)} bodies through the WSGI app, {rounds} rounds, "
          f"after gc.freeze(): CPU {sum(every) / len(every) * 1e6:,.0f} µs per request")
    print(f"  per body (median of its rounds): p50 {at(0.5):.2f} ms, p90 {at(0.9):.2f} ms, p99 {at(0.99):.2f} ms, "
          f"max {ranked[-1]:.2f} ms")
    print("  slowest:")
    for i in sorted(range(len(bodies)), key=lambda i: -medians[i])[:slowest]:
        payload = json.loads(bodies[i])
        sit = payload["situation"]
        turn = (sit.get("turn") or {}).get("drew", "-") if "turn" in sit else "not said"
        opened = "opened" if (sit.get("team") or {}).get("melds") else "yet to open"
        print(f"    {medians[i]:6.2f} ms  {payload['variant']:<12} drew {str(turn):<8} {opened:<11} "
              f"hand {len((sit.get('player') or {}).get('hand') or [])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=300, help="passes over the 15-card workload")
    parser.add_argument("--big-runs", type=int, default=60, help="passes over the whole-deck workload")
    parser.add_argument("--http-workload", action="store_true",
                        help="the HTTP benchmark's options bodies through the WSGI app, per body (see above)")
    parser.add_argument("--rounds", type=int, default=5, help="with --http-workload: passes over the bodies")
    parser.add_argument("--slowest", type=int, default=10, help="with --http-workload: the slowest bodies shown")
    args = parser.parse_args()
    if args.http_workload:
        http_workload(args.rounds, args.slowest)
        return
    variants = load_all()
    for name, payloads in workloads(variants).items():  # warm the caches (citations, meld shapes)
        timings(payloads, 2, variants, whole=True)
    print(f"garbage collector as it is (thresholds {gc.get_threshold()}):")
    run_all(variants, args)
    gc.collect()
    gc.freeze()
    print(f"\nafter gc.freeze() ({gc.get_freeze_count()} objects frozen: the variants, caches, everything so far):")
    run_all(variants, args)


def run_all(variants, args) -> None:
    for name, payloads in workloads(variants).items():
        runs = args.runs if name.startswith("15") else args.big_runs
        sizes = sorted({len(p["situation"]["player"]["hand"]) for p in payloads})
        print(f"{name}: {len(payloads)} situations (hands of {sizes[0]}-{sizes[-1]} cards; "
              f"{len(variants)} variants x {len(TURNS)} turn states{' x opened/unopened' if 'deck' in name else ''})")
        report("legal_moves", timings(payloads, runs, variants, whole=False))
        report("  cold", timings(payloads, runs, variants, whole=False, cold=True))
        report("answer", timings(payloads, runs, variants, whole=True))
        report("  cold", timings(payloads, runs, variants, whole=True, cold=True))
        for vid in variants:
            mine = [p for p in payloads if p["variant"] == vid]
            report(f"  {vid}", timings(mine, max(1, runs // 3), variants, whole=True))
            report("    cold", timings(mine, max(1, runs // 3), variants, whole=True, cold=True))


if __name__ == "__main__":
    main()
