"""Every speed device of the engine and its edge, timed with it on and switched off, side by side in one process.

    .venv/bin/python bench/devices_bench.py                  # every device, 7 alternated rounds each
    .venv/bin/python bench/devices_bench.py --only words.said --rounds 11
    .venv/bin/python bench/devices_bench.py --list           # the devices, what each switch does

A speed device (a cache, a fast path, an object made past its constructor) stays only with its figure
(docs/speed-devices.md). Each device here has a switch that turns it off from the outside -- the engine
carries no switch of its own -- and one or more workloads, the first being "its own benchmark": the
requests the device serves, answered through :func:`adjudicator.answers.answer` as the service's views
answer them (parse, work, serialize; no Flask, no HTTP). Each round times the workload with the device on
and with it off, in alternating order, by this process's CPU time (``time.process_time``), after a warm-up
of both; it prints the median and the best round of each and what the device wins: ``off / on - 1``.

The workloads repeat the same bodies round after round, so a cache kept across requests finds every entry it
made in the warm-up: for those (``across requests`` below) the figure is the most the cache can win, not what
a server meeting new tables sees.

Switches: a table the device keeps is replaced by one that keeps nothing (every look-up misses and the value is
made again); a variant's ``cite_cache`` entries of one kind are refused by a filter put on every variant
object (copies made meanwhile included); a function is replaced by the plain way (a dataclass's own
constructor, the uncached function behind an ``lru_cache``).
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
from collections import OrderedDict
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


class ForgetfulOrdered(OrderedDict):
    def __setitem__(self, key: Any, value: Any) -> None:
        pass


class Filtered(dict):
    """A variant's ``cite_cache`` that refuses the entries ``refuse(key)`` picks (the others kept as ever)."""

    def __init__(self, refuse: Callable[[Any], bool], kept: dict):
        super().__init__({k: v for k, v in kept.items() if not refuse(k)})
        self.refuse = refuse

    def __setitem__(self, key: Any, value: Any) -> None:
        if not self.refuse(key):
            dict.__setitem__(self, key, value)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        return default if self.refuse(key) else dict.setdefault(self, key, default)


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
def refused(refuse: Callable[[Any], bool]) -> Iterator[None]:
    """Every variant object's ``cite_cache`` refuses the entries ``refuse`` picks (copies made meanwhile too)."""
    made = Variant.__post_init__
    swapped = []
    frozen = gc.get_freeze_count()
    gc.unfreeze()  # (frozen objects are not among gc.get_objects())
    for obj in gc.get_objects():
        if type(obj) is Variant and type(obj.cite_cache) is dict:
            swapped.append((obj, obj.cite_cache))
            object.__setattr__(obj, "cite_cache", Filtered(refuse, obj.cite_cache))
    if frozen:
        gc.freeze()

    def post_init(self: Variant) -> None:
        made(self)
        object.__setattr__(self, "cite_cache", Filtered(refuse, {}))
    Variant.__post_init__ = post_init  # type: ignore[method-assign]
    try:
        yield
    finally:
        Variant.__post_init__ = made  # type: ignore[method-assign]
        for obj, cache in swapped:
            object.__setattr__(obj, "cite_cache", cache)


def key_is(*heads: Any) -> Callable[[Any], bool]:
    """A ``cite_cache`` key that is one of ``heads`` or a tuple starting with one."""
    return lambda key: key in heads or (type(key) is tuple and bool(key) and key[0] in heads)


def _judge_record_key(key: Any) -> bool:  # Judge._record: (rule id, names, deciding, tags, players, read none)
    return type(key) is tuple and len(key) == 6 and type(key[0]) is str and type(key[5]) is bool


def _judge_citations_key(key: Any) -> bool:  # Judge.citations: (names, deciding, tags, players)
    return type(key) is tuple and len(key) == 4 and type(key[0]) is tuple and type(key[2]) is frozenset


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
def plain_constructors() -> Iterator[None]:
    """Finding, Reading, Ruling and Message made by their dataclasses' own ``__init__``."""
    from adjudicator.model import findings, messages  # noqa: PLC0415

    def finding(rule, passed, message, parameters, citations, house_rules=(), open_on=(), missing=()):
        return findings.Finding(rule, passed, message, parameters, citations, house_rules, open_on, missing)

    def reading(values, verdict, messages_=()):
        return findings.Reading(values, verdict, messages_)

    def ruling(variant, action, verdict, findings_, interpretations, missing, not_stated, consequences, skipped,
               two_way, variant_ref, readings=(), across=(), open_points=(), cannot_happen=()):
        return findings.Ruling(variant, action, verdict, findings_, interpretations, missing, not_stated,
                               consequences, skipped, two_way, readings, across, variant_ref, open_points,
                               cannot_happen)

    def message(key, args):
        return messages.Message(key, args)
    with everywhere(findings.finding, finding), everywhere(findings.reading, reading), \
            everywhere(findings.ruling, ruling), everywhere(messages.message, message):
        yield


@contextlib.contextmanager
def plain_situations() -> Iterator[None]:
    """Side and Situation made as a frozen dataclass makes them: each field set by ``object.__setattr__``."""
    from adjudicator.model import situation as model  # noqa: PLC0415
    side_init, situation_init = model.Side.__init__, model.Situation.__init__
    setattr_ = object.__setattr__

    def side(self, score=None, melds=None, red_threes=None, opened=None, canastas=None, ranks=()):
        if melds is None and opened is False:
            melds = ()
        setattr_(self, "score", score)
        setattr_(self, "melds", melds)
        setattr_(self, "red_threes", red_threes)
        setattr_(self, "opened", opened)
        setattr_(self, "canastas", canastas)
        setattr_(self, "ranks", model.rank_facts(ranks))

    def situation(self, players=None, first_round=None, stock_count=None, pile=None, team=model.EMPTY_SIDE,
                  opponents=model.EMPTY_SIDE, hand=None, hand_count=None, has_melded=None, drew=model.NOT_GIVEN,
                  cards_from_pile=(), partner_answer=None, base="/situation", pile_unnamed=None):
        if not model.table_canonical(hand, pile, cards_from_pile, team.melds, opponents.melds):
            if hand is not None:
                hand = model.parse_all(hand, base + "/player/hand")
            if pile is not None:
                pile = model.parse_all(pile, base + "/discard_pile")
            if cards_from_pile:
                cards_from_pile = model.parse_all(cards_from_pile, base + "/turn/cards_from_pile")
            if team.melds:
                team = model.replace(team, melds=model.parse_melds(team.melds, base + "/team/melds"))
            if opponents.melds:
                opponents = model.replace(opponents, melds=model.parse_melds(opponents.melds, base + "/opponents/melds"))
        for name, value in (("players", players), ("first_round", first_round), ("stock_count", stock_count),
                            ("pile", pile), ("team", team), ("opponents", opponents), ("hand", hand),
                            ("hand_count", hand_count), ("has_melded", has_melded), ("drew", drew),
                            ("cards_from_pile", cards_from_pile), ("partner_answer", partner_answer),
                            ("base", base), ("pile_unnamed", pile_unnamed)):
            setattr_(self, name, value)
    model.Side.__init__, model.Situation.__init__ = side, situation
    try:
        yield
    finally:
        model.Side.__init__, model.Situation.__init__ = side_init, situation_init


@contextlib.contextmanager
def no_fast_shape() -> Iterator[None]:
    from adjudicator.input import shape  # noqa: PLC0415
    kinds = shape._fast(*shape.caps(VARIANTS))
    with attribute(shape, "_fast", lambda *limits: {kind: (lambda payload: None) for kind in kinds}):
        yield


@contextlib.contextmanager
def no_fits_table() -> Iterator[None]:
    from adjudicator.options import hand  # noqa: PLC0415
    with attribute(hand, "_FITS", ForgetfulOrdered()):
        yield


@contextlib.contextmanager
def rulings_per_listing_off() -> Iterator[None]:
    from adjudicator.options import listing  # noqa: PLC0415
    from adjudicator.rules.engine import rule_checked  # noqa: PLC0415
    with attribute(listing, "_ruled", lambda situation, rules, action, cache: rule_checked(situation, action, rules)):
        yield


@contextlib.contextmanager
def plain_param_reads() -> Iterator[None]:
    """Judge.param reading the parameter's entry itself, without the variant's ``plain_values`` and ``read_as``
    (made at construction: a stated value, and what a read of another must know, by one look-up)."""
    from adjudicator.model.enums import Status  # noqa: PLC0415
    from adjudicator.rules import judge  # noqa: PLC0415

    def param(self, name):
        current = self._current
        if current is not None:
            read = current.params
            if name not in read:
                read.append(name)
        entry = self.rules.params[name]
        if entry.status == Status.STATED and entry.source == "document":
            return entry.value
        settled, two_way = entry.settled, bool(entry.readings) and entry.source == "document"
        self._interpret(name)
        if self.grounds is not None and entry.source != "house_rule":
            self.unsure_read[name] = None
            if current is not None and name not in current.unsure:
                current.unsure += (name,)
        if not settled:
            raise judge.NotStated(name)
        if two_way and name not in self.two_way:
            self.two_way.append(name)
        return entry.value
    with attribute(judge.Judge, "param", param):
        yield


@contextlib.contextmanager
def parts_per_request() -> Iterator[None]:
    """The parts' rulings kept for one listing only: the variant's parts cache emptied as each listing starts."""
    from adjudicator.options import listing, parts  # noqa: PLC0415
    listed = listing.legal_moves

    def legal_moves(situation, rules, *args, **kwargs):
        parts.part_cache(rules).clear()
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
    serialize = _module("adjudicator.answers.serialize")
    comparison = _module("adjudicator.compare.comparison")
    return [
        Device("options.parts across requests",
               "a meld part's ruling summary by (PartTable, action, doubt), per variant object, kept across requests",
               ("options, 15 cards", "options"), parts_per_request),
        Device("options.shape per variant", "Shape (wild-card ranges, opening memo) per variant object",
               ("options, 15 cards", "options"), lambda: refused(key_is("option_shape"))),
        Device("options.fits", "(composition values, n, w) -> passes, process-wide LRU of 4,096",
               ("options, 15 cards", "options"), no_fits_table),
        Device("options.readings per variant", "Readings by ids of the reading copies, per variant object",
               ("options, 15 cards", "options"), lambda: refused(key_is("option_readings"))),
        Device("options.rulings per listing", "a ruling by action, per listing (one request)",
               ("options, 15 cards", "options"), rulings_per_listing_off),
        Device("judge.citations per check", "a check's (citations, house rules, unread) by (rule, names, deciding, "
               "tags, players, read none), and citations by (names, deciding, tags, players), per variant object",
               ("adjudicate", "compare", "score"),
               lambda: refused(lambda k: _judge_record_key(k) or _judge_citations_key(k))),
        Device("judge.interpretations", "an Interpretation by parameter, per variant object",
               ("adjudicate", "compare", "score"), lambda: refused(key_is("interpretation"))),
        Device("judge.cited_once", "citations by names, per variant object", ("compare", "adjudicate"),
               lambda: refused(key_is("cited"))),
        Device("readings.under_readings", "a copy of the variant per reading, per variant object",
               ("adjudicate", "compare"), lambda: refused(key_is("reading"))),
        Device("readings.tries", "Tries (each reading's copy, words, values) by points, per variant object",
               ("adjudicate", "compare"), lambda: refused(key_is("tries"))),
        Device("readings.reading_words", "a reading's Message by its values' reprs, per variant object",
               ("adjudicate", "compare"), lambda: refused(key_is("reading words"))),
        Device("readings.all three", "under_readings, tries and reading words together", ("adjudicate", "compare"),
               lambda: refused(key_is("reading", "tries", "reading words"))),
        Device("table.doubts by identity", "a situation's TableDoubt by id(situation), per variant object",
               ("adjudicate", "compare", "options"), lambda: refused(key_is("table doubts"))),
        Device("table.open_points", "the parameters that can be tried reading by reading, per variant object",
               ("adjudicate", "compare"), lambda: refused(key_is("open points"))),
        Device("table.most_dealt", "the deal that leaves fewest cards by player count, per variant object",
               ("adjudicate", "compare"), lambda: refused(key_is("most_dealt"))),
        Device("table.possible_melds", "a meld found possible -> the open points its checks read, per variant "
               "object (cleared past 4,096)", ("adjudicate", "compare"), lambda: refused(key_is("possible_melds"))),
        Device("compare.shown", "ParameterShown tuple by names, per variant object", ("compare",),
               lambda: refused(key_is("shown"))),
        Device("compare.why", "(names, variant ids) -> differing and why, process-wide (loaded variants only)",
               ("compare",), lambda: attribute(comparison, "_WHY", Forgetful())),
        Device("scoring.next_opening", "NextOpening by (parameter, band, players), per variant object", ("score",),
               lambda: refused(key_is("score.next_opening"))),
        Device("scoring.card_prices", "a card's (value, parameter) where stated, per variant object", ("score",),
               lambda: refused(key_is("score.card_prices"))),
        Device("constructors bypassed", "Finding/Reading/Ruling/Message made by setting slots past __init__",
               ("adjudicate", "compare"), plain_constructors),
        Device("situation slots set directly", "Side/Situation fields set past the frozen dataclass's setattr",
               ("adjudicate", "options"), plain_situations),
        Device("variant.plain_values", "the stated values by name, made at construction (Judge.param's one look-up)",
               ("adjudicate",), plain_param_reads),
        Device("words.said", "(language, a message's value) -> (words, read-only machine form), bounded",
               ("adjudicate", "compare"), lambda: forgetful(render, "_SAID")),
        Device("words.summaries", "a ruling's summary by what it says, bounded", ("adjudicate", "compare"),
               lambda: forgetful(render, "_SUMMARIES")),
        Device("words.kept by identity", "(id(message), language) -> words", ("compare",),
               lambda: forgetful(render, "_KEPT")),
        Device("words.plain", "(key, language) -> words without arguments", ("score", "adjudicate"),
               lambda: forgetful(render, "_PLAIN")),
        Device("words.texts", "(key, language, count) -> template", ("render", "adjudicate"),
               lambda: forgetful(render, "_TEXTS")),
        Device("words.numbers", "(value, language) -> number in words", ("render", "score"),
               lambda: forgetful(render, "_NUMBERS")),
        Device("words.lru", "_compiled templates, _formatter (lru_cache)", ("render", "adjudicate"),
               lambda: uncached(render, "_compiled", "_formatter")),
        Device("serialize.citations by identity", "id(citation) -> JSON, id(tuple) -> JSON list",
               ("adjudicate", "compare", "score"), lambda: forgetful(serialize, "_CITATIONS", "_CITATION_LISTS")),
        Device("serialize.interpretations by identity", "(id(interpretation), language) -> JSON",
               ("adjudicate", "compare"), lambda: forgetful(serialize, "_INTERPRETATIONS")),
        Device("serialize.openings by identity", "(id(opening), language) -> JSON", ("score",),
               lambda: forgetful(serialize, "_OPENINGS")),
        Device("serialize.shown by identity", "id(tuple of shown parameters) -> JSON", ("compare",),
               lambda: forgetful(serialize, "_SHOWN_LISTS")),
        Device("input.fastcheck", "a schema compiled to a plain walk; marshmallow only when it is not sure",
               ("adjudicate", "compare", "score"), no_fast_shape),
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
    parser.add_argument("--rounds", type=int, default=7, help="alternated rounds, on and off, per workload")
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
