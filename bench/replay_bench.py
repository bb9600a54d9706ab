"""In-process benchmark of ``POST /v1/replay`` without Flask: whole four-player games, and single rounds.

    .venv/bin/python bench/replay_bench.py [--games 10] [--ludo-games 2] [--runs 5] [--round-runs 50]
                                           [--moves 60] [--max-rounds 120] [--save FILE] [--load FILE]

Whole games: for each variant that four can play, ``--games`` games (da-ludo: ``--ludo-games``; its target of
10,000 takes the random players some forty rounds) are played to a winner at the text's own target by the
seeded random players of the self-play tests (``tests/selfplay.py``: red threes dealt and laid out with their
replacements, partners asked, some go-outs written as melds and a discard; the empty-stock points the texts
leave open settled by house rule, as the tests settle them). Each game is then replayed ``--runs`` times as
one log (``rounds``): parsed (``replay_request``), every round replayed from the totals before it, each round
and the game scored as ``/v1/score`` scores them (``replay_payload``); and, beside it in the same run, the same
with its JSON answer made (``serialize.replay``). A game's time is the median of its runs; the figures are the
median and p99 over the games (with few games, p99 is the slowest).

Single rounds, as before (issue 21): for each variant the self-played round closest to ``--moves`` moves,
parsed and replayed ``--round-runs`` times. Times are CPU time of this process (``time.process_time``), which
the machine's other load inflates less than wall time; the load is printed with the figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from adjudicator.answers import serialize  # noqa: E402
from adjudicator.input.payloads import replay_payload  # noqa: E402
from adjudicator.variants import load_all  # noqa: E402
from selfplay import HOUSE, play, play_game  # noqa: E402


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def timed(fn, runs: int) -> float:
    """The median CPU seconds of ``runs`` calls of ``fn``."""
    samples = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def games_for(variants, args) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = json.loads(Path(args.load).read_text(encoding="utf-8")) if args.load else {}
    for vid, rules in variants.items():
        if 4 not in rules.value("players.supported") or vid in out:
            continue
        count = args.ludo_games if vid == "da-ludo" else args.games
        if not count:
            continue
        start = time.process_time()
        out[vid] = [play_game(variants, vid, seed, 4, house_rules=HOUSE.get(vid, {}), max_rounds=args.max_rounds)
                    for seed in range(count)]
        print(f"  played {count} {vid} games in {time.process_time() - start:.0f} s of CPU", flush=True)
    if args.save:
        Path(args.save).write_text(json.dumps(out), encoding="utf-8")
    return out


def whole_games(variants, args) -> None:
    print("whole four-player games, each replayed as one log (parse, every round, every score):", flush=True)
    games = games_for(variants, args)
    for bodies in games.values():  # warm the caches
        for body in bodies:
            replay_payload(body, variants)
    gc.collect()
    gc.freeze()
    every: list[float] = []
    print(f"  {'variant':<13} games  won  rounds p50  moves p50   replay p50    p99   with JSON p50    p99   per move")
    for vid, bodies in games.items():
        replays, answers, moves, rounds = [], [], [], []
        over = 0
        for body in bodies:
            result = replay_payload(body, variants)
            assert result.first_illegal is None and result.undetermined is None, (vid, result.first_illegal)
            over += result.game_over
            replays.append(timed(lambda: replay_payload(body, variants), args.runs))
            answers.append(timed(lambda: serialize.replay(replay_payload(body, variants), "en"), args.runs))
            moves.append(sum(len(r["moves"]) for r in body["rounds"]))
            rounds.append(len(body["rounds"]))
        every += replays
        per_move = statistics.median(t / m for t, m in zip(replays, moves)) * 1e6
        print(f"  {vid:<13} {len(bodies):5d}  {over:3d}  {statistics.median(rounds):10.0f}  {statistics.median(moves):9.0f}"
              f"   {statistics.median(replays) * 1000:8.1f} ms {p99(replays) * 1000:6.1f}"
              f"   {statistics.median(answers) * 1000:10.1f} ms {p99(answers) * 1000:6.1f}   {per_move:5.0f} µs",
              flush=True)
    print(f"  all {len(every)} games: replay p50 {statistics.median(every) * 1000:.1f} ms, "
          f"p99 {p99(every) * 1000:.1f} ms")


def single_rounds(variants, args) -> None:
    print(f"one round of about {args.moves} moves ({args.round_runs} runs each):", flush=True)
    for vid, rules in variants.items():
        if 4 not in rules.value("players.supported"):
            continue
        logs = [play(variants, vid, seed, players=4, house_rules=HOUSE.get(vid)) for seed in range(12)]
        body = min(logs, key=lambda b: abs(len(b["moves"]) - args.moves))
        replay_payload(body, variants)
        samples = []
        for _ in range(args.round_runs):
            start = time.process_time()
            result = replay_payload(body, variants)
            samples.append(time.process_time() - start)
        p50 = statistics.median(samples) * 1000
        print(f"  {vid:<13} {len(body['moves']):3d} moves, ended {result.ended!s:<5} first illegal "
              f"{'none' if result.first_illegal is None else result.first_illegal.index}:  p50 {p50:6.1f} ms   "
              f"p99 {p99(samples) * 1000:6.1f} ms   per move {p50 / len(body['moves']) * 1000:5.0f} µs", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--ludo-games", type=int, default=2)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--round-runs", type=int, default=50)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--max-rounds", type=int, default=120, help="a game without a winner by then is cut")
    parser.add_argument("--save", help="write the games played to this JSON file")
    parser.add_argument("--load", help="replay the games of this JSON file (play only the variants it lacks)")
    args = parser.parse_args()
    variants = load_all()
    load = os.getloadavg()
    print(f"replay, in process, one core; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on "
          f"{os.cpu_count()} cores", flush=True)
    single_rounds(variants, args)
    whole_games(variants, args)
    load = os.getloadavg()
    print(f"load at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
