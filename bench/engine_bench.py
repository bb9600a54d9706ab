"""In-process benchmark of the ruling engine over a mix of actions, on one core.

    .venv/bin/python bench/engine_bench.py [--seconds 5]

Rules every row of the rule-matrix table under every variant, round-robin, and
prints rulings per second. No HTTP: this is the engine's own cost.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from adjudicator.engine import adjudicate  # noqa: E402
from adjudicator.errors import InputError  # noqa: E402
from adjudicator.variants import load_all  # noqa: E402
from ruling_table import HOUSE_RULES, ROWS  # noqa: E402


def workload(variants) -> list[dict]:
    payloads = []
    for name, situation, action, _rule, _codes in ROWS:
        for vid in variants:
            payloads.append({"variant": vid, "situation": situation, "action": action,
                             "house_rules": HOUSE_RULES.get(name)})
    return payloads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    t0 = time.perf_counter()
    variants = load_all()
    load_s = time.perf_counter() - t0
    payloads = workload(variants)
    mix = Counter(p["action"]["type"] for p in payloads)
    done, errors, start = 0, 0, time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        for p in payloads:
            try:
                adjudicate(p, variants)
            except InputError:
                errors += 1
            done += 1
    elapsed = time.perf_counter() - start
    print(f"variant load: {load_s * 1000:.1f} ms")
    print(f"action mix per pass: {dict(mix)}  ({len(payloads)} requests, {errors} of all were 422s)")
    print(f"rulings: {done} in {elapsed:.2f} s = {done / elapsed:,.0f} rulings/s on one core "
          f"({elapsed / done * 1e6:.1f} µs each)")


if __name__ == "__main__":
    main()
