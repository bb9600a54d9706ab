"""In-process benchmark of the ruling engine over a mix of actions, on one core.

    .venv/bin/python bench/engine_bench.py [--seconds 5]

Rules every row of the rule-matrix table under every variant, round-robin, and
prints rulings per second, twice:

* ``rule``: :func:`adjudicator.rules.engine.rule` on requests parsed beforehand -- the
  engine's own cost (the checks, their findings and citations);
* ``parse + rule``: :func:`adjudicator.rules.engine.adjudicate` on the JSON payloads --
  the request's shape, its meaning (cards, deck, hand) and the ruling, as an
  endpoint pays for them (without HTTP, Flask or JSON encoding).

Rows the engine refuses (422s) count in the second figure only. Each line gives the rate by the wall
clock and the process's CPU time per ruling (``time.process_time``): on a machine shared with other work
the CPU figure moves least. ``--split`` adds the rulings that hang on no open point apart from those
decided across readings (:mod:`adjudicator.rules.readings`), and the table check apart from the ruling.

``--against REF`` compares this checkout's engine with the one at a git ref in the same process: the ref's
package is imported under another name, and the two are timed pass for pass, alternately, by CPU time,
so both meet the same load (a shared machine moves either run by more than most changes are worth).
It prints the best and the median pass of each and their difference, for the rulings and for the parser
alone: ``shape check`` (the request's shape: the schemas' compiled fast path) and ``parse`` (the shape and the
meaning: the typed request).

``--passes N`` times each workload N passes by CPU time and prints the median and the best pass of each
on one line: the figure to alternate between two compiled copies (one of main, one of a branch), which
cannot share a process (their extension modules have the same names).
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from adjudicator.input.payloads import adjudicate  # noqa: E402
from adjudicator.rules.engine import rule, rule_checked  # noqa: E402
from adjudicator.rules.table_check import check_table  # noqa: E402
from adjudicator.model.errors import AdjudicatorError  # noqa: E402
from adjudicator.input.parse import ruling_request  # noqa: E402
from adjudicator.variants import load_all  # noqa: E402
from ruling_table import HOUSE_RULES, ROWS  # noqa: E402


def workload(variants) -> list[dict]:
    payloads = []
    for name, situation, action, _rule, _codes in ROWS:
        for vid in variants:
            payloads.append({"variant": vid, "situation": situation, "action": action,
                             "house_rules": HOUSE_RULES.get(name)})
    return payloads


def run(label: str, work, seconds: float) -> None:
    done, refused, start, cpu = 0, 0, time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for item in work:
            try:
                item()
            except AdjudicatorError:
                refused += 1
            done += 1
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    print(f"{label:>13}: {done} in {elapsed:.2f} s = {done / elapsed:,.0f} rulings/s on one core "
          f"({elapsed / done * 1e6:.1f} µs each; CPU {used / done * 1e6:.1f} µs each = {done / used:,.0f}/s; "
          f"{refused} refused)")


def workloads(package: str) -> dict[str, tuple]:
    """The timed workloads of the engine in ``package`` (``adjudicator``, or a git ref's copy of it)."""
    def mod(name: str):
        return importlib.import_module(f"{package}.{name}")
    variants = mod("variants").load_all()
    refused = mod("model.errors").AdjudicatorError
    ruling_request, check = mod("input.parse").ruling_request, mod("rules.table_check").check_table
    shape = mod("input.shape")
    engine, adjudicate = mod("rules.engine"), mod("input.payloads").adjudicate
    payloads = workload(variants)
    parsed, doubts = [], {}
    for p in payloads:
        try:
            asked = ruling_request(p, variants)
            doubts[id(asked)] = check(asked.rules, asked.situation, asked.action)  # what rule_checked is given
            parsed.append(asked)
        except refused:
            pass
    across = [r for r in parsed if engine.rule(r.situation, r.action, r.rules).readings]
    plain = [r for r in parsed if r not in across]

    def parse_and_rule(p):
        try:
            adjudicate(p, variants)
        except refused:
            pass

    def parse(p):  # the shape check (the schemas' fast path, or marshmallow) and the typed request
        try:
            ruling_request(p, variants)
        except refused:
            pass

    def shape_check(p):
        try:
            shape.check(p, "adjudicate", variants)
        except refused:
            pass
    ruled = engine.rule_checked
    return {"rule": (lambda r: engine.rule(r.situation, r.action, r.rules), parsed),
            "rule, plain": (lambda r: ruled(r.situation, r.action, r.rules, doubts[id(r)]), plain),
            "rule, across": (lambda r: ruled(r.situation, r.action, r.rules, doubts[id(r)]), across),
            "table check": (lambda r: check(r.rules, r.situation, r.action), parsed),
            "shape check": (shape_check, payloads),
            "parse": (parse, payloads),
            "parse + rule": (parse_and_rule, payloads)}


def against(ref: str, rounds: int) -> None:
    """This checkout's engine and the one at ``ref``, pass for pass in one process (see the module's note)."""
    folder = Path(tempfile.mkdtemp(prefix="engine-bench-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "adjudicator", "variants"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "adjudicator").rename(folder / "adjudicator_at_ref")  # its own imports are relative
    sys.path.insert(0, str(folder))
    try:
        sides = {"here": workloads("adjudicator"), ref: workloads("adjudicator_at_ref")}
    finally:
        shutil.rmtree(folder)  # imported by now: the copy is no longer needed
    for side in sides.values():  # a pass each untimed: caches filled, code warm
        for call, items in side.values():
            for item in items:
                call(item)
    times: dict = {side: {name: [] for name in sides[side]} for side in sides}
    for i in range(rounds):
        for side in (list(sides) if i % 2 == 0 else list(sides)[::-1]):
            for name, (call, items) in sides[side].items():
                cpu = time.process_time()
                for item in items:
                    call(item)
                times[side][name].append((time.process_time() - cpu) / len(items) * 1e6)
    print(f"CPU µs per item, {rounds} alternating passes each (load average {os.getloadavg()[0]:.1f})")
    for name in times["here"]:
        here, there = sorted(times["here"][name]), sorted(times[ref][name])
        best, median = here[0] / there[0] - 1, here[len(here) // 2] / there[len(there) // 2] - 1
        print(f"{name:>13}: {ref} best {there[0]:6.1f} median {there[len(there) // 2]:6.1f} | here best "
              f"{here[0]:6.1f} median {here[len(here) // 2]:6.1f} | {best:+.1%} best, {median:+.1%} median")


def passes(count: int) -> None:
    """CPU µs per item of each workload: the median and the best of ``count`` passes (after one untimed)."""
    timed = workloads("adjudicator")
    said = []
    for name, (call, items) in timed.items():
        for item in items:  # untimed: caches filled, code warm
            call(item)
        times = []
        for _ in range(count):
            cpu = time.process_time()
            for item in items:
                call(item)
            times.append((time.process_time() - cpu) / len(items) * 1e6)
        times.sort()
        said.append(f"{name} {times[len(times) // 2]:.1f} (best {times[0]:.1f})")
    print(f"CPU µs per item, median (best) of {count} passes, load average {os.getloadavg()[0]:.1f}: "
          + " | ".join(said))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--split", action="store_true", help="also time the table check, and the rulings with "
                        "and without open points, apart")
    parser.add_argument("--against", metavar="REF", help="compare with the engine at this git ref, in-process")
    parser.add_argument("--rounds", type=int, default=15, help="alternating passes each, with --against")
    parser.add_argument("--passes", type=int, metavar="N", help="the median and best of N passes by CPU time, "
                        "each workload")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.rounds)
        return
    if args.passes:
        passes(args.passes)
        return
    t0 = time.perf_counter()
    variants = load_all()
    print(f"variant load: {(time.perf_counter() - t0) * 1000:.1f} ms")
    payloads = workload(variants)
    print(f"action mix per pass: {dict(Counter(p['action']['type'] for p in payloads))}  ({len(payloads)} requests)")
    parsed = []
    for p in payloads:
        try:
            asked = ruling_request(p, variants)
            check_table(asked.rules, asked.situation, asked.action)  # rule() refuses these: time the rulings only
            parsed.append(asked)
        except AdjudicatorError:
            pass
    run("rule", [lambda r=r: rule(r.situation, r.action, r.rules) for r in parsed], args.seconds)
    run("parse + rule", [lambda p=p: adjudicate(p, variants) for p in payloads], args.seconds)
    if args.split:
        across = [r for r in parsed if rule(r.situation, r.action, r.rules).readings]
        plain = [r for r in parsed if r not in across]
        print(f"split: {len(plain)} rulings on no open point, {len(across)} decided across readings")
        run("table check", [lambda r=r: check_table(r.rules, r.situation, r.action) for r in parsed], args.seconds)
        run("rule, plain", [lambda r=r: rule_checked(r.situation, r.action, r.rules) for r in plain], args.seconds)
        run("rule, across", [lambda r=r: rule_checked(r.situation, r.action, r.rules) for r in across], args.seconds)
        run("parse", [lambda p=p: ruling_request(p, variants) for p in payloads], args.seconds)


if __name__ == "__main__":
    main()
