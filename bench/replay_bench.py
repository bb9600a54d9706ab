"""In-process benchmark of ``replay`` (``POST /v1/replay`` without Flask): a 4-player round of about 60 moves.

    .venv/bin/python bench/replay_bench.py [--runs 200] [--moves 60]

The rounds are played by the seeded random player of the self-play tests (``tests/selfplay.py``),
which picks among the moves ``legal_moves`` lists; for each variant the seed whose log is closest to
``--moves`` moves is taken. Each run parses the log (``replay_request``) and replays it (``replay``:
every move ruled by the engine and applied, the ended round scored). Target: under 50 ms per round.
Times are CPU time of this process (``time.process_time``), which the machine's other load does not inflate.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from adjudicator.input.payloads import replay_payload  # noqa: E402
from adjudicator.variants import load_all  # noqa: E402
from selfplay import play  # noqa: E402

HOUSE = {"da-ludo": {"wild.twos": True, "meld.one_per_rank": True}}  # as the self-play tests play it


def closest(variants, vid: str, moves: int, seeds: int = 12) -> dict:
    logs = [play(variants, vid, seed, players=4, house_rules=HOUSE.get(vid)) for seed in range(seeds)]
    return min(logs, key=lambda body: abs(len(body["moves"]) - moves))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    variants = load_all()
    logs = {vid: closest(variants, vid, args.moves) for vid in variants if 4 in variants[vid].value("players.supported")}
    for body in logs.values():  # warm the caches
        replay_payload(body, variants)
    gc.collect()
    gc.freeze()
    print(f"replay of one round, in process, one core ({args.runs} runs each; gc.freeze() after loading):")
    for vid, body in logs.items():
        samples = []
        for _ in range(args.runs):
            start = time.process_time()
            result = replay_payload(body, variants)
            samples.append(time.process_time() - start)
        samples.sort()
        p50 = statistics.median(samples) * 1000
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000
        print(f"  {vid:<13} {len(body['moves']):3d} moves, ended {result.ended!s:<5} first illegal "
              f"{'none' if result.first_illegal is None else result.first_illegal.index}:  p50 {p50:6.1f} ms   "
              f"p99 {p99:6.1f} ms   per move {p50 / len(body['moves']) * 1000:5.0f} µs")


if __name__ == "__main__":
    main()
