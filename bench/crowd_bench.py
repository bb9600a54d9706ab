"""The production server under a crowd of heavy requests: is ``/healthz`` still answered, and a ruling? (issue 45)

    .venv/bin/python bench/crowd_bench.py --against /tmp/base                       # before and after
    .venv/bin/python bench/crowd_bench.py --against /tmp/base --write BENCHMARKS.md

Starts ``gunicorn -c gunicorn.conf.py app:app`` (the production configuration: two gevent workers)
from the ``--against`` checkout (before) and from this one (after), each burst on a fresh server,
before and after in turn (a shared machine's load changes by the minute), and for each burst:

* sends N heavy requests at once, each on its own connection (threads), and reads every answer whole:
  how many got 200, 413, 503 (the crowd shed) or no answer, and when the last one was answered;
* meanwhile asks ``GET /healthz`` every 0.1 s with ``curl``, as a liveness probe does (a fresh connection
  and process each time, the next 0.1 s after the last answer: ``while :; do curl /healthz; sleep 0.1;
  done``), and a light request as a client at the table sends it (a ruling, ``POST /v1/adjudicate``, the
  same way): each one's slowest answer, its median and how many were asked.

The bursts: the probe's own (``/work/shared/probe-bodies``: forty ``POST /v1/options?limit=1000`` of a
whole-deck hand, which held ``/healthz`` for up to 17.9 s), the same hundred at once, and a mix of every
kind of heavy work -- that options request, the probe's whole-deck comparison, the heaviest options page
and comparison the budget admits, a replay of a long self-played round, a batch of heavy go-outs -- forty
and a hundred at once; and forty rulings priced light that lack every fact (six new melds, nothing said: each asks
what it hangs on). Figures, not pass/fail: a test asserts behaviour (``tests/test_admission.py``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from budget_bench import Server, dumps, post  # noqa: E402
from http_bench import machine, write_section  # noqa: E402

MARKER = "crowd_bench"
PROBE_BODIES = Path(os.environ.get("CANASTA_PROBE_BODIES", "/work/shared/probe-bodies"))
PROBE_EVERY = 0.1  # seconds between a probe's answer and the next probe
PROBE_TIMEOUT = 60.0


def probe_options() -> tuple[str, str, bytes]:
    body = (PROBE_BODIES / "options_deck_wide.json").read_bytes()
    return "the probe's options, ?limit=1000", "/v1/options?limit=1000", body


def probe_compare() -> tuple[str, str, bytes]:
    body = (PROBE_BODIES / "compare_deck_wide2.json").read_bytes()
    return "the probe's whole-deck comparison", "/v1/compare", body


def mixed() -> list[tuple[str, str, bytes]]:
    """Every kind of heavy work: refused for size (the probe's two), and heavy requests both checkouts admit."""
    from budget_corpus import WIDE
    from selfplay import play
    from test_budgets import HAND_15, deck_hand, table
    from test_http_batch import heavy_item

    from adjudicator.variants import load_all

    variants = load_all()
    log = max((play(variants, "sv-classic", seed, players=4) for seed in range(4)), key=lambda b: len(b["moves"]))
    return [
        probe_options(),
        probe_compare(),
        ("a whole deck's options, ?limit=10", "/v1/options?limit=10",
         dumps({"variant": "da-ludo", "situation": table(deck_hand(None)), "house_rules": WIDE})),
        ("a whole deck's options", "/v1/options", dumps({"variant": "da-ludo", "situation": table(deck_hand(None))})),
        ("15 cards compared under every variant", "/v1/compare", dumps({"situation": table(HAND_15, drew="stock")})),
        (f"a replay of {len(log['moves'])} moves", "/v1/replay", dumps(log)),
        ("a batch of 100 heavy go-outs", "/v1/adjudicate/batch", dumps({"requests": [heavy_item()] * 100})),
    ]


def unsaid_rulings() -> list[tuple[str, str, bytes]]:
    """Rulings priced light that lack many facts (issue 45, after #42): six new melds with nothing said, under each
    variant -- each asks what it hangs on, ruling the melds again under each value of each fact."""
    melds = [["9H", "9S", "9D"], ["5H", "5S", "5D", "2C"], ["6H", "6S", "JK"], ["7H", "7S", "7D"],
             ["8H", "8S", "8D", "2D"], ["QH", "QS", "QD"]]
    return [(f"six new melds, nothing said ({variant})", "/v1/adjudicate",
             dumps({"variant": variant, "situation": {}, "action": {"type": "meld", "melds": melds}}))
            for variant in ("da-ludo", "sv-gamerules", "sv-classic", "no-pagat")]


LIGHT = ("/v1/adjudicate", dumps({"variant": "sv-classic", "situation": {"player": {"hand": ["9H", "9S", "JK"]},
                                                                         "discard_pile": ["9D"]},
                                   "action": {"type": "take_pile", "with": ["9H", "9S"]}}))


class Prober(threading.Thread):
    """Asks one request again and again with ``curl`` (a process of its own, as the issue's probe did: the client
    threads of this process cannot hold it up), ``PROBE_EVERY`` after each answer, until stopped."""

    def __init__(self, port: int, path: str, body: bytes | None):
        super().__init__(daemon=True)
        self.command = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "--max-time",
                        str(PROBE_TIMEOUT), f"http://127.0.0.1:{port}{path}"]
        if body is not None:
            self.command += ["-H", "Content-Type: application/json", "--data-binary", "@-"]
        self.body = body
        self.times: list[float] = []
        self.failures: list[str] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            ran = subprocess.run(self.command, input=self.body, capture_output=True, timeout=PROBE_TIMEOUT + 10)
            status, _, seconds = ran.stdout.decode().partition(" ")
            self.times.append(float(seconds or PROBE_TIMEOUT))
            if status != "200":
                self.failures.append(status or f"curl {ran.returncode}")
            self.stop.wait(PROBE_EVERY)

    def summary(self) -> dict:
        times = sorted(self.times)
        return {"asked": len(times), "worst": times[-1] if times else float("nan"),
                "median": statistics.median(times) if times else float("nan"), "failed": self.failures}


def burst(root: Path, tmp: Path, name: str, requests: list[tuple[str, str, bytes]], count: int) -> dict:
    """``count`` heavy requests at once (``requests`` in turn), ``/healthz`` and a ruling probed meanwhile."""
    with Server(root, tmp, name) as server:
        results: list = [None] * count
        healthz = Prober(server.port, "/healthz", None)
        light = Prober(server.port, *LIGHT)
        healthz.start()
        light.start()
        time.sleep(0.5)  # a few answers of each before the crowd
        started = time.perf_counter()

        def heavy(i: int) -> None:
            _, path, body = requests[i % len(requests)]
            status, _, seconds = post(server.port, path, body, timeout=120)
            results[i] = (status, seconds)

        threads = [threading.Thread(target=heavy, args=(i,), daemon=True) for i in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        last = time.perf_counter() - started
        time.sleep(0.3)
        healthz.stop.set()
        light.stop.set()
        healthz.join()
        light.join()
        killed = server.workers() != server.started_workers or "WORKER TIMEOUT" in server.log()
    statuses: dict[str, int] = {}
    for status, _ in results:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    return {"count": count, "statuses": statuses, "last": last, "killed": killed,
            "slowest": max(seconds for _, seconds in results), "healthz": healthz.summary(), "light": light.summary(),
            "load": os.getloadavg()}


def cpu_seconds(pids) -> float:
    """User and system CPU seconds the processes have used so far (/proc/<pid>/stat)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


def refusals() -> list[tuple[str, str, bytes]]:
    """Requests refused for their size: the probe's two, and the issue 36 comparisons."""
    from test_budgets import ISSUE_COMPARE, ISSUE_COMPARE_15

    return [probe_compare(), probe_options(), ("the issue 36 comparison of 50 cards", "/v1/compare", dumps(ISSUE_COMPARE)),
            ("15 cards compared with meld.min_cards 2", "/v1/compare", dumps(ISSUE_COMPARE_15))]


def refusal_cpu(root: Path, tmp: Path, name: str, repeat: int) -> list[dict]:
    """Each refused request sent ``repeat`` times in turn on a fresh server: the workers' CPU per request."""
    rows = []
    with Server(root, tmp, name) as server:
        for label, path, body in refusals():
            post(server.port, path, body)  # the first of a kind warms the worker's caches
            before = cpu_seconds(server.workers())
            statuses = {post(server.port, path, body)[0] for _ in range(repeat)}
            rows.append({"label": label, "bytes": len(body), "statuses": sorted(map(str, statuses)),
                         "cpu": (cpu_seconds(server.workers()) - before) / repeat})
            print(f"  {name}: {label}: {rows[-1]}", flush=True)
    return rows


def refusal_report(rows: dict) -> list[str]:
    lines = ["", "**What a refusal for size costs**: each request sent 10 times in turn (after one to warm the worker), "
             "the workers' CPU (`/proc/<pid>/stat`) per request", "",
             "| request | body | before: status, worker CPU | after: status, worker CPU |", "|---|---:|---|---|"]
    for before, after in zip(rows["before"], rows["after"]):
        lines.append(f"| {before['label']} | {before['bytes']:,} B | {'/'.join(before['statuses'])}, "
                     f"{before['cpu'] * 1000:.0f} ms | {'/'.join(after['statuses'])}, **{after['cpu'] * 1000:.0f} ms** |")
    return lines


def report(rows: list[dict], against: Path, write: bool, refused: dict | None = None) -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [f"## A crowd of heavy requests: `/healthz` and a ruling meanwhile ({dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC)",
             "",
             f"- Command: `python bench/crowd_bench.py --against {against}{' --write BENCHMARKS.md' if write else ''}`",
             "- Server: `gunicorn -c gunicorn.conf.py app:app` (production configuration: 2 gevent workers), a fresh "
             "one for each burst, before (the `--against` checkout) and after (this one) in turn",
             f"- Machine: {machine()}; the clients run on the same machine; load average at the end {load} (shared "
             "with other work: times vary from run to run)",
             "- Each burst: N heavy requests at once, each on its own connection; meanwhile `GET /healthz` and a "
             "ruling (`POST /v1/adjudicate`) each asked with `curl` 0.1 s after the last answer, on a fresh connection",
             "",
             "| burst | | heavy answers | last heavy answer | `/healthz`: asked, median, **worst** | "
             "ruling: asked, median, worst | load (1 min) |",
             "|---|---|---|---:|---|---|---:|"]
    for row in rows:
        r = row["result"]
        answers = ", ".join(f"{n} × {s}" for s, n in sorted(r["statuses"].items()))
        h, light = r["healthz"], r["light"]
        failed = f" ({len(h['failed'])} not 200)" if h["failed"] else ""
        lines.append(f"| {row['label']} | {row['when']} | {answers}{', **worker killed**' if r['killed'] else ''} | "
                     f"{r['last']:.1f} s | {h['asked']}, {h['median'] * 1000:.0f} ms, **{h['worst'] * 1000:.0f} ms**"
                     f"{failed} | {light['asked']}, {light['median'] * 1000:.0f} ms, {light['worst'] * 1000:.0f} ms | "
                     f"{r['load'][0]:.1f} |")
    if refused:
        lines += refusal_report(refused)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True, help="a checkout of the code before")
    parser.add_argument("--only", help="comma-separated: probe40, probe100, mixed40, mixed100, unsaid40, refusals")
    parser.add_argument("--write", type=Path, help="write the report into this Markdown file (BENCHMARKS.md)")
    args = parser.parse_args(argv)
    bursts = {"probe40": ("the probe's 40: options, ?limit=1000", [probe_options()], 40),
              "probe100": ("100 of the probe's options at once", [probe_options()], 100),
              "mixed40": ("40 of every kind of heavy work", mixed(), 40),
              "mixed100": ("100 of every kind of heavy work", mixed(), 100),
              "unsaid40": ("40 rulings lacking every fact: six new melds", unsaid_rulings(), 40)}
    chosen = args.only.split(",") if args.only else ["refusals", *bursts]
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"crowd-bench-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    roots = {"before": args.against.resolve(), "after": ROOT}
    rows = []
    refused = None
    if "refusals" in chosen:
        refused = {when: refusal_cpu(root, tmp, when, 10) for when, root in roots.items()}
    for name in (c for c in chosen if c != "refusals"):
        label, requests, count = bursts[name]
        for when, root in roots.items():
            result = burst(root, tmp, when, requests, count)
            rows.append({"label": label, "when": when, "result": result})
            print(f"  {name} {when}: {json.dumps(result)}", flush=True)
    text = report(rows, args.against, bool(args.write), refused)
    print(text)
    if args.write:
        write_section(args.write, text, MARKER)
    return 0


if __name__ == "__main__":
    sys.exit(main())
