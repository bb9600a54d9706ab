"""Every speed device of the engine and its edge, timed with it on and switched off, side by side in one process.

    .venv/bin/python bench/devices_bench.py                  # every device, 11 alternated rounds each
    .venv/bin/python bench/devices_bench.py --only words.said --rounds 15
    .venv/bin/python bench/devices_bench.py --list           # the devices, what each keeps
    .venv/bin/python bench/devices_bench.py --check          # each switch leaves every answer as it was

A speed device (a cache, a fast path, a value made once) stays only with its figure (docs/speed-devices.md).
Each device here has a switch that turns it off from the outside -- the engine carries no switch of its own --
and one or more workloads, the first being "its own benchmark": the requests the device serves, answered
through :func:`adjudicator.answers.answer` as the service's views answer them (parse, work, serialize; no
Flask, no HTTP), or the words of every message the rulings say, in four languages (``render``). Each round
times the workload with the device on and with it off, one after the other in alternating order, by this
process's CPU time (``time.process_time``), after a warm-up of both; it prints the median and the best round
of each and what the device wins: off / on - 1, the median over the rounds' pairs and of the best rounds.

The workloads repeat the same bodies round after round, so a table kept across requests finds every entry it
made in the warm-up: for those the figure is the most the table can win, not what a server meeting new tables
sees (``options.parts across requests`` says so in its row).

Switches: what a variant object works out once (:meth:`adjudicator.variants.Variant.once`) is worked out at each
call for the makers named; a table of words keeps nothing (every look-up misses, the value is made again, and
nothing is measured for a bound); an ``lru_cache`` is bypassed for the function behind it; the request schema's
fast path is not taken; the variants' parse cache is not read (an empty ``CANASTA_CACHE_DIR``, ``--startup``).

The devices removed by issue 44 were timed the same way, switched off in the engine as it was, by this script
at commit 01ad9d6 (``git show 01ad9d6:bench/devices_bench.py``); their figures are in docs/speed-devices.md.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from adjudicator.answers import answer  # noqa: E402
from adjudicator.variants import Variant, load_all  # noqa: E402

VARIANTS = load_all()


# ----------------------------------------------------------------------------------------------
# Workloads: the HTTP benchmark's bodies, answered as the views answer them


def _bodies() -> dict[str, list]:
    from bench.http_bench import build_workloads  # noqa: PLC0415 -- the same bodies as the HTTP benchmark
    from bench.options_bench import workloads as options_workloads  # noqa: PLC0415

    built = build_workloads()

    def decoded(label: str) -> list:
        return [json.loads(b) for b in built[label]["bodies"]]
    return {"adjudicate": decoded("POST /v1/adjudicate"), "compare": decoded("POST /v1/compare"),
            "score": decoded("POST /v1/score"), "options": decoded("POST /v1/options"),
            "batch": decoded("POST /v1/adjudicate/batch")[:1],
            "options, 15 cards": options_workloads(VARIANTS)["15 cards, 4 melds"],
            "render": _messages(decoded("POST /v1/adjudicate"))}


KIND = {"adjudicate": "adjudicate", "compare": "compare", "score": "score", "options": "options",
        "options, 15 cards": "options", "batch": "batch"}
LANGUAGES = ("en", "sv", "nb", "da")


def _messages(bodies: list) -> list:
    """Every message the adjudicate workload's rulings say (findings, consequences), for the words' own workload."""
    from adjudicator.input.payloads import adjudicate  # noqa: PLC0415
    out = []
    for body in bodies:
        ruled = adjudicate(body, VARIANTS)
        out += [f.message for f in ruled.findings] + list(ruled.consequences)
    return out


def run(workload: str, bodies: list) -> None:
    if workload == "render":  # each message put in words in each language, nothing kept between (render itself)
        from adjudicator.words.render import render  # noqa: PLC0415
        for lang in LANGUAGES:
            for message in bodies:
                render(message, lang)
        return
    kind = KIND[workload]
    for body in bodies:
        answer(kind, body, "en", variants=VARIANTS)


# ----------------------------------------------------------------------------------------------
# Switches


class Forgetful(dict):
    """A table that keeps nothing: every look-up misses, every value is made again."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def put(self, key: Any, value: Any, size: Any = None) -> Any:
        return value

    def setdefault(self, key: Any, default: Any = None) -> Any:
        return default

    def recent(self, key: Any, default: Any = None) -> Any:
        return default


@contextlib.contextmanager
def attribute(owner: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


@contextlib.contextmanager
def everywhere(original: Any, replacement: Any) -> Iterator[None]:
    """``replacement`` for ``original`` in every engine module that holds it by name."""
    patched = []
    for name, module in list(sys.modules.items()):
        if not (name.startswith("adjudicator") or name.startswith("web_api")) or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                setattr(module, attr, replacement)
                patched.append((module, attr))
    try:
        yield
    finally:
        for module, attr in patched:
            setattr(module, attr, original)


@contextlib.contextmanager
def worked_out_each_time(*makers: Callable) -> Iterator[None]:
    """What a variant works out once (:meth:`Variant.once`) with one of ``makers``, worked out at every call."""
    once = Variant.once

    def each_time(self: Variant, make: Callable, *args: Any) -> Any:
        return make(self, *args) if make in makers else once(self, make, *args)
    with attribute(Variant, "once", each_time):
        yield


@contextlib.contextmanager
def forgetful(module: Any, *names: str) -> Iterator[None]:
    """The module's tables ``names`` keep nothing, and what is put in them is not measured either (the bytes a
    bounded table counts are the table's cost, not the value's)."""
    with contextlib.ExitStack() as stack:
        for name in names:
            stack.enter_context(attribute(module, name, Forgetful()))
        for measure in ("size_of", "_made_size"):
            if hasattr(module, measure):
                stack.enter_context(attribute(module, measure, lambda *values, **shared: 0))
        yield


@contextlib.contextmanager
def uncached(module: Any, *names: str) -> Iterator[None]:
    """The functions behind ``lru_cache`` decorators, called afresh."""
    with contextlib.ExitStack() as stack:
        for name in names:
            stack.enter_context(everywhere(getattr(module, name), getattr(module, name).__wrapped__))
        yield


@contextlib.contextmanager
def no_fast_shape() -> Iterator[None]:
    from adjudicator.input import shape  # noqa: PLC0415
    kinds = shape._fast(*shape.caps(VARIANTS))
    with attribute(shape, "_fast", lambda *limits: {kind: (lambda payload: None) for kind in kinds}):
        yield


@contextlib.contextmanager
def parts_per_request() -> Iterator[None]:
    """The parts' rulings kept for one listing only: those the variant keeps forgotten as each listing starts."""
    from adjudicator.options import listing  # noqa: PLC0415
    from bench.options_bench import forget_parts  # noqa: PLC0415
    listed = listing.legal_moves

    def legal_moves(situation, rules, *args, **kwargs):
        forget_parts(rules)
        return listed(situation, rules, *args, **kwargs)
    with everywhere(listed, legal_moves):
        yield


def _module(name: str):
    import importlib  # noqa: PLC0415
    return importlib.import_module(name)


@dataclass(frozen=True)
class Device:
    name: str
    keeps: str  # what it keeps, its key, and who may read it
    workloads: tuple[str, ...]  # its own benchmark first
    off: Callable[[], Any]  # a context manager that switches it off


def devices() -> list[Device]:
    render = _module("adjudicator.words.render")
    judge = _module("adjudicator.rules.judge")
    hand = _module("adjudicator.options.hand")
    parts = _module("adjudicator.options.parts")
    possible = _module("adjudicator.rules.possible")
    variants = _module("adjudicator.variants")
    house_rules = _module("adjudicator.input.house_rules")
    return [
        Device("options.parts across requests", "a meld part's verdict and readings by (PartTable, action, the "
               "real table's doubt), per variant object (Variant.once); warm repeats: the most it can win",
               ("options, 15 cards", "options"), parts_per_request),
        Device("options.parts within a request", "the same, made again at each call (no table at all)",
               ("options, 15 cards", "options"), lambda: worked_out_each_time(parts.part_ruling)),
        Device("options.meld fits", "whether n naturals and w wild cards make a meld, by (n, w, wild card), per "
               "variant object (Variant.once)", ("options, 15 cards", "options"),
               lambda: worked_out_each_time(hand.meld_fits)),
        Device("judge.check sources", "a check's (citations, house rules, unread) by (rule, parameters read, "
               "deciding, case tags, players), and citations by (names, tags, players), per variant object",
               ("adjudicate", "compare", "score"),
               lambda: worked_out_each_time(judge.check_sources, judge.cited_in_case)),
        Device("variant.under_readings", "a copy of the variant per reading of its open points (Variant.once)",
               ("adjudicate", "compare"), lambda: worked_out_each_time(variants._read_as)),
        Device("table.possible_meld", "a meld the variant allows -> the open points its checks read, per variant "
               "object (Variant.once)", ("adjudicate", "compare"), lambda: worked_out_each_time(possible.possible_meld)),
        Device("words.said", "(language, a message's value) -> (words, read-only machine form), bounded",
               ("adjudicate", "compare", "score"), lambda: forgetful(render, "_SAID")),
        Device("words.texts", "(key, language, count) -> template", ("render", "adjudicate"),
               lambda: forgetful(render, "_TEXTS")),
        Device("words.numbers", "(value, language) -> number in words", ("render", "score"),
               lambda: forgetful(render, "_NUMBERS")),
        Device("words.lru", "_compiled templates, _formatter (lru_cache)", ("render", "adjudicate"),
               lambda: uncached(render, "_compiled", "_formatter")),
        Device("input.fastcheck", "a schema compiled to a plain walk; marshmallow only when it is not sure",
               ("adjudicate", "compare", "score"), no_fast_shape),
        Device("input.house copies", "a variant with a table's house rules by (variant id, each rule's name, repr "
               "and value), for that variant object only; 32 copies, each table 1 MiB", ("score", "adjudicate",
                                                                                          "compare"),
               lambda: forgetful(house_rules, "_COPIES")),
    ]


# ----------------------------------------------------------------------------------------------
# Timing


def answers(workload: str, bodies: list) -> list:
    if workload == "render":
        from adjudicator.words.render import render  # noqa: PLC0415
        return [render(m, lang) for lang in LANGUAGES for m in bodies]
    kind = KIND[workload]
    return [json.dumps(answer(kind, body, "en", variants=VARIANTS).document, sort_keys=True) for body in bodies]


def same_answers(device: Device, bodies: dict) -> list[str]:
    """The workloads whose answers differ with the device off (a switch must change the speed alone)."""
    differ = []
    for workload in device.workloads:
        on = answers(workload, bodies[workload])
        with device.off():
            off = answers(workload, bodies[workload])
        if on != off:
            differ.append(workload)
    return differ


def timed(workload: str, bodies: list) -> float:
    start = time.process_time()
    run(workload, bodies)
    return (time.process_time() - start) / len(bodies) * 1e6


def measure(device: Device, bodies: dict, rounds: int, workloads: tuple[str, ...]) -> list[tuple]:
    out = []
    for workload in workloads:
        items = bodies[workload]
        run(workload, items)  # warm, on and off
        with device.off():
            run(workload, items)
        on, off = [], []
        for i in range(rounds):
            for side in ("on", "off") if i % 2 == 0 else ("off", "on"):
                if side == "on":
                    on.append(timed(workload, items))
                else:
                    with device.off():
                        off.append(timed(workload, items))
        out.append((workload, on, off))
    return out


def startup(rounds: int) -> tuple[list[float], list[float]]:
    """``import app`` in a fresh interpreter, with the variants' parse cache and without it (an empty
    ``CANASTA_CACHE_DIR``), alternated."""
    code = "import time; t = time.perf_counter(); import app; print(time.perf_counter() - t)"
    python = str(ROOT / ".venv" / "bin" / "python")
    on, off = [], []
    for i in range(rounds):
        for side in ("on", "off") if i % 2 == 0 else ("off", "on"):
            env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
            if side == "off":
                env["CANASTA_CACHE_DIR"] = ""
            out = subprocess.run([python, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
            (on if side == "on" else off).append(float(out.stdout.strip().splitlines()[-1]) * 1e6)
    return on, off


def line(name: str, workload: str, on: list[float], off: list[float], unit: str = "µs") -> str:
    """The device's figures: each side's median and best round, and its win -- the median over the rounds of
    off/on - 1, each round's two sides timed one after the other (what the machine's load did meanwhile moved
    both), and the same of the best rounds."""
    paired = statistics.median(b / a for a, b in zip(on, off)) - 1
    return (f"| {name} | {workload} | {statistics.median(on):,.0f} ({min(on):,.0f}) | "
            f"{statistics.median(off):,.0f} ({min(off):,.0f}) | {paired:+.1%} | {min(off) / min(on) - 1:+.1%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=11, help="alternated rounds, on and off, per workload")
    parser.add_argument("--only", action="append", help="a device's name (repeatable)")
    parser.add_argument("--all-workloads", action="store_true", help="every workload of a device, not its own only")
    parser.add_argument("--startup", action="store_true", help="also the variants' parse cache (import app)")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--check", action="store_true", help="only check that each switch leaves the answers alone")
    args = parser.parse_args()
    listed = devices()
    if args.list:
        for d in listed:
            print(f"{d.name}: {d.keeps} [{', '.join(d.workloads)}]")
        return
    chosen = [d for d in listed if not args.only or d.name in args.only]
    bodies = _bodies()
    if args.check:
        for device in chosen:
            differ = same_answers(device, bodies)
            print(f"{device.name}: {'same answers' if not differ else 'ANSWERS DIFFER in ' + ', '.join(differ)}",
                  flush=True)
        return
    gc.collect()
    gc.freeze()  # as app.py does: the variants and what is loaded are not the collector's work per request
    print(f"load average {os.getloadavg()[0]:.1f}; CPU µs per request, median (best) of {args.rounds} alternated "
          "rounds; win = off/on - 1: median of the rounds' pairs; of the best rounds")
    print("| device | workload | on | off | win, median | win, best |\n|---|---|---:|---:|---:|---:|", flush=True)
    for device in chosen:
        workloads = device.workloads if args.all_workloads else device.workloads[:1]
        for workload, on, off in measure(device, bodies, args.rounds, workloads):
            print(line(device.name, workload, on, off), flush=True)
    if args.startup:
        on, off = startup(args.rounds)
        print(line("variants.parse cache", "import app (µs)", on, off), flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
