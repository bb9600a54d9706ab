"""This checkout's answers and another tree's, timed side by side: one worker process each, rounds alternated.

    .venv/bin/python bench/pair_bench.py --against 7ae40fa            # a git ref (exported to a temporary folder)
    .venv/bin/python bench/pair_bench.py --against /tmp/main --rounds 15 --only compare

Each tree answers the HTTP benchmark's bodies (``bench/http_bench.py``: adjudicate, compare, score, options, a
batch of 100 rulings) through its own :func:`adjudicator.answers.answer`, as its views do (parse, work,
serialize; no Flask, no HTTP), in a worker process of its own -- two trees cannot share one process, their
modules have the same names. The driver builds the bodies once (this checkout's tables) and sends the same ones
to both, then asks each worker for one round of each workload in turn, alternating which goes first, and reads
back the worker's CPU time for the round (``time.process_time``): both meet the machine's load alike. It prints
per workload the median and best round of each tree and the change, median of the rounds' pairs.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import pickle
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = ("adjudicate", "compare", "score", "options", "batch")
LABELS = {"adjudicate": "POST /v1/adjudicate", "compare": "POST /v1/compare", "score": "POST /v1/score",
          "options": "POST /v1/options", "batch": "POST /v1/adjudicate/batch"}

WORKER = r'''
import gc, pickle, sys, time
sys.path.insert(0, ".")
from adjudicator.answers import answer
from adjudicator.variants import load_all
variants = load_all()
bodies = pickle.load(sys.stdin.buffer)
gc.collect()
gc.freeze()  # as app.py does
out = sys.stdout
for line in sys.stdin:
    kind = line.strip()
    if not kind:
        break
    items = bodies[kind]
    start = time.process_time()
    for body in items:
        answer(kind, body, "en", variants=variants)
    out.write(f"{(time.process_time() - start) / len(items) * 1e6}\n")
    out.flush()
'''


def bodies() -> dict[str, list]:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from bench.http_bench import build_workloads  # noqa: PLC0415

    built = build_workloads()
    return {kind: [json.loads(b) for b in built[LABELS[kind]]["bodies"]] for kind in WORKLOADS}


def tree(ref: str) -> Path:
    """``ref`` as a folder: itself, or a git ref exported to a temporary one."""
    if Path(ref).is_dir():
        return Path(ref)
    folder = Path(tempfile.mkdtemp(prefix="pair-bench-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


class Worker:
    def __init__(self, root: Path, payload: bytes):
        python = str(ROOT / ".venv" / "bin" / "python")
        self.proc = subprocess.Popen([python, "-c", WORKER], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        assert self.proc.stdin is not None
        self.proc.stdin.write(payload)
        self.proc.stdin.flush()

    def round(self, kind: str) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(kind.encode() + b"\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", required=True, help="a git ref or a folder holding another tree")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--only", action="append", choices=WORKLOADS)
    args = parser.parse_args()
    kinds = args.only or list(WORKLOADS)
    made = bodies()
    payload = pickle.dumps(made)
    sides = {"here": Worker(ROOT, payload), args.against: Worker(tree(args.against), payload)}
    try:
        times: dict[str, dict[str, list[float]]] = {side: {k: [] for k in kinds} for side in sides}
        for side in sides:  # warm-up: every module imported, every table filled
            for kind in kinds:
                sides[side].round(kind)
        load = [os.getloadavg()[0]]
        for i in range(args.rounds):
            for kind in kinds:
                for side in (list(sides) if i % 2 == 0 else list(sides)[::-1]):
                    times[side][kind].append(sides[side].round(kind))
            load.append(os.getloadavg()[0])
    finally:
        for worker in sides.values():
            worker.close()
    print(f"CPU µs per request (batch: per batch of {len(made['batch'][0]['requests']) if made['batch'] else 0}), "
          f"{args.rounds} alternated rounds, load average {min(load):.1f}-{max(load):.1f}")
    print(f"| workload | {args.against} median (best) | here median (best) | change, median of pairs |")
    print("|---|---:|---:|---:|")
    there, here = times[args.against], times["here"]
    for kind in kinds:
        change = statistics.median(h / t for h, t in zip(here[kind], there[kind])) - 1
        print(f"| {kind} ({len(made[kind])} bodies) | {statistics.median(there[kind]):,.0f} ({min(there[kind]):,.0f}) | "
              f"{statistics.median(here[kind]):,.0f} ({min(here[kind]):,.0f}) | {change:+.1%} |")


if __name__ == "__main__":
    main()
