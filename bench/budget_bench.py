"""Budgets of the production server under the heaviest valid requests, before and after (issues 24 and 36).

    .venv/bin/python bench/budget_bench.py --calibrate                     # the cost model against CPU
    .venv/bin/python bench/budget_bench.py --against /tmp/base              # before (that checkout) and after
    .venv/bin/python bench/budget_bench.py --against /tmp/base --write BENCHMARKS.md

**Calibration** (``--calibrate``, in process, this checkout): every request of the corpus
(``bench/budget_corpus.py``: rulings, scores, the options of hands of 5 cards to a whole deck under
every variant, phase and house rules with pages of 20 to 1,000, comparisons, self-played replays,
batches) is answered by the app's WSGI callable with no budget, its CPU time measured
(``time.process_time``) and set beside the units the cost model priced it at
(:mod:`adjudicator.cost`, read from the request's environ). It reports, per endpoint, the CPU per unit
(median and largest, over the requests of 50 ms or more), the heaviest request the default budget
admits and the heaviest it refuses: the budget in seconds is the budget in units times the largest
CPU per unit. Those heaviest admitted requests are then the "worst found" of the server run.

**The server run** starts ``gunicorn -c gunicorn.conf.py app:app`` (the production configuration: two
gevent workers) from the ``--against`` checkout (before) and from this one (after), on loopback, and
sends each the same workloads, side by side (a shared machine's load changes by the minute):

1. the worst single request found for each endpoint (the issue's bodies, and the heaviest the budget
   admits), each on a fresh server of each checkout in turn, so that one's memory is not another's:
   status, time, answer size, the worker's peak RSS (``VmHWM``), whether it was killed;
2. ``/healthz`` asked every 50 ms while ten heavy requests run (five per worker): its latency;
3. ``--minutes`` (10) of mixed load -- rulings, options, comparisons, scores and replays, each with
   house rules no other request has -- on both servers at once, four keep-alive clients each: the
   workers' RSS every 30 s, and how many workers were replaced on the way (a worker past
   ``CANASTA_WORKER_MAX_RSS`` is);
4. 2,300 connections trickling a body at a byte a second (two workers' cap of 1,000 each and more),
   and 64 ``/healthz`` probes meanwhile: how many are answered, how fast.

Figures, not pass/fail: the budgets are asserted in ``tests/test_budgets*.py``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import http.client
import json
import os
import random
import re
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import budget_corpus as corpus_module  # noqa: E402
from budget_corpus import WIDE, hand_body, long_game  # noqa: E402
from http_bench import machine, write_section  # noqa: E402
from test_hardening import worker_pids  # noqa: E402
from test_http_batch import GOOD, heavy_item  # noqa: E402

MARKER = "budget_bench"
CALIBRATION_MARKER = "budget_calibration"


def dumps(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


# ----------------------------------------------------------------------------------------------
# Calibration, in process


def calibrate(scale: int) -> dict:
    """Every corpus request answered with no budget: its CPU, its units, its status with the default budget."""
    from flask import request as flask_request

    from adjudicator.variants import load_all
    from web_api import create_app
    from web_api.budgets import DEFAULT_REQUEST_BUDGET

    variants = load_all()
    app = create_app({"REQUEST_BUDGET": 10**12, "BATCH_BUDGET": 10**12, "BATCH_DEADLINE": 1000.0})
    seen: dict = {}

    @app.after_request
    def note(resp):
        seen["cost"] = flask_request.environ.get("canasta.cost")
        return resp

    gc.freeze()
    client = app.test_client()
    requests = corpus_module.corpus(variants, scale)
    for reqs in requests.values():  # warm the process (imports, first uses), not the requests' own caches
        client.post(reqs[0][1], json=reqs[0][2]).get_data()
    rows = []
    for endpoint, reqs in requests.items():
        for label, path, body in reqs:
            seen.clear()
            started = time.process_time()
            resp = client.post(path, json=body)
            data = resp.get_data()
            cpu = time.process_time() - started
            rows.append({"endpoint": endpoint, "label": label, "path": path, "body": body, "status": resp.status_code,
                         "cpu": cpu, "units": seen.get("cost") or 0, "bytes": len(data)})
            print(f"  {endpoint:15} {resp.status_code} {cpu * 1000:8.1f} ms {rows[-1]['units']:>8} u  {label}",
                  flush=True)
    return {"rows": rows, "budget": DEFAULT_REQUEST_BUDGET}


def calibration_report(result: dict) -> tuple[str, dict]:
    """The calibration table, and the heaviest admitted request of each endpoint (the server run's worst)."""
    rows, budget = result["rows"], result["budget"]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [f"## The cost model against CPU ({dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC)", "",
             "- Command: `python bench/budget_bench.py --calibrate --write BENCHMARKS.md`",
             f"- Machine: {machine()}; in process (the app's WSGI callable, no budget), CPU time of this process; "
             f"load average at the end {load} (the machine is shared: CPU times are inflated a little, not "
             "several-fold as wall times are)",
             f"- {len(rows)} requests of `bench/budget_corpus.py`; CPU per unit over those of 50 ms or more. "
             f"Default budget: {budget:,} units.", "",
             "| endpoint | requests | µs/unit median | µs/unit largest | budget in s at the largest | "
             "heaviest admitted: CPU, answer | heaviest refused: CPU it took |",
             "|---|---:|---:|---:|---:|---|---|"]
    worst: dict = {}
    for endpoint in dict.fromkeys(r["endpoint"] for r in rows):
        mine = [r for r in rows if r["endpoint"] == endpoint and r["units"]]
        heavy = [r["cpu"] / r["units"] * 1e6 for r in mine if r["cpu"] >= 0.05]
        limit = budget if endpoint != "batch" else 100_000
        admitted = [r for r in mine if r["units"] <= limit]
        refused = [r for r in mine if r["units"] > limit]
        top = max(admitted, key=lambda r: r["cpu"]) if admitted else None
        over = max(refused, key=lambda r: r["cpu"]) if refused else None
        if top is not None:
            worst[endpoint] = top
        largest = max(heavy) if heavy else 0.0
        lines.append(
            f"| {endpoint} | {len(mine)} | {statistics.median(heavy) if heavy else 0:.1f} | {largest:.1f} | "
            f"{limit * largest / 1e6:.1f} | "
            + (f"{top['cpu']:.2f} s, {top['bytes'] / 1e6:.1f} MB ({top['label']}, {top['units']:,} u)" if top else "–")
            + " | " + (f"{over['cpu']:.2f} s ({over['label']}, {over['units']:,} u)" if over else "–") + " |")
    lines += ["", "Every request over the budget is answered with a 413 before any work in the server; the "
              "figures of the refused ones are what they would have cost."]
    return "\n".join(lines), worst


# ----------------------------------------------------------------------------------------------
# The server


def status_kib(pid: int, field: str) -> int:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(rf"{field}:\s+(\d+)", text)
    return int(found.group(1)) if found else 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``gunicorn -c gunicorn.conf.py app:app`` from ``root`` on a free loopback port."""

    def __init__(self, root: Path, log_dir: Path, name: str):
        self.root, self.name = root, name
        self.port = free_port()
        self.log_path = log_dir / f"{name}-{self.port}.log"
        self.proc: subprocess.Popen | None = None
        self.started_workers: set[int] = set()

    def __enter__(self) -> "Server":
        env = {**os.environ, "PORT": str(self.port), "CANASTA_CACHE_DIR": "", "PYTHONDONTWRITEBYTECODE": "1"}
        for name in ("WEB_CONCURRENCY", "PYTHONPATH", "CANASTA_REQUEST_BUDGET", "CANASTA_WORKER_MAX_RSS"):
            env.pop(name, None)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:app",
                                          "-b", f"127.0.0.1:{self.port}"], cwd=self.root, env=env, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if get(self.port, "/healthz", timeout=2)[0] == 200 and len(self.workers()) >= 2:
                    self.started_workers = self.workers()
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.__exit__()
        raise RuntimeError(f"the server from {self.root} did not start:\n{self.log()[-2000:]}")

    def workers(self) -> set[int]:
        return worker_pids(self.proc.pid) if self.proc else set()

    def rss_kib(self) -> dict[int, int]:
        return {pid: status_kib(pid, "VmRSS") for pid in self.workers()}

    def hwm_kib(self) -> int:
        return max([status_kib(pid, "VmHWM") for pid in self.workers()] or [0])

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def post(port: int, path: str, body: bytes, timeout: float = 120) -> tuple[int | str, int, float]:
    """``(status, answer bytes, seconds)`` on a fresh connection, the answer read whole."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.perf_counter()
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        size = len(resp.read())
        return resp.status, size, time.perf_counter() - started
    except (OSError, http.client.HTTPException) as error:
        return type(error).__name__, 0, time.perf_counter() - started
    finally:
        conn.close()


def get(port: int, path: str, timeout: float = 60) -> tuple[int | str, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.perf_counter()
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        return resp.status, time.perf_counter() - started
    finally:
        conn.close()


class Sampler:
    """The workers' largest RSS, sampled every 20 ms while a workload runs."""

    def __init__(self, server: Server):
        self.server, self.peak_kib, self._stop = server, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.wait(0.02):
            self.peak_kib = max([self.peak_kib, *self.server.rss_kib().values()])

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


# ----------------------------------------------------------------------------------------------
# The workloads


def worst_requests(worst: dict) -> list[tuple[str, str, bytes]]:
    """``(label, path, body)``: the issue's bodies and the heaviest of each endpoint the budget admits."""
    from test_budgets import ISSUE_COMPARE, ISSUE_COMPARE_15, deck_hand, table

    bands = [{"min": 5 * i, "points": 50} for i in range(130_000)]
    single_bands = [{"min": 5 * i, "points": 50} for i in range(9_000)]  # what a 256 KiB body holds
    out = [
        ("/v1/compare: the issue's 50-card hand, no action (502 bytes)", "/v1/compare", dumps(ISSUE_COMPARE)),
        ("/v1/compare: the issue's 15 cards, meld.min_cards 2", "/v1/compare", dumps(ISSUE_COMPARE_15)),
        ("/v1/options: a whole deck, ?limit=1000", "/v1/options?limit=1000",
         dumps({"variant": "da-ludo", "situation": table(deck_hand(None))})),
        ("/v1/adjudicate: the heavy go-out with 9,000 bands (256 KiB)", "/v1/adjudicate",
         dumps({**heavy_item(), "house_rules": {"opening.bands": single_bands}})),
        ("batch: the issue's go-out with 130,000 bands (3.3 MiB)", "/v1/adjudicate/batch",
         dumps({"requests": [{**heavy_item(), "house_rules": {"opening.bands": bands}}]})),
    ]
    for endpoint, row in worst.items():
        out.append((f"{endpoint}: the heaviest the budget admits ({row['label']})", row["path"], dumps(row["body"])))
    return out


def run_worst(root: Path, tmp: Path, name: str, requests) -> list[dict]:
    rows = []
    for label, path, body in requests:
        with Server(root, tmp, name) as server:
            with Sampler(server) as sampler:
                status, size, seconds = post(server.port, path, body)
            time.sleep(0.3)
            killed = server.workers() != server.started_workers or "WORKER TIMEOUT" in server.log()
            rows.append({"label": label, "body": len(body), "status": status, "seconds": seconds, "bytes": size,
                         "peak_kib": max(sampler.peak_kib, server.hwm_kib()), "killed": killed})
            print(f"  {name}: {label}: {status} {seconds:.2f} s {size / 1e6:.2f} MB "
                  f"{rows[-1]['peak_kib'] / 1024:.0f} MiB{' KILLED' if killed else ''}", flush=True)
    return rows


def healthz_during(root: Path, tmp: Path, name: str, path: str, body: bytes, count: int = 10) -> dict:
    """``count`` heavy requests at once, ``/healthz`` asked every 50 ms meanwhile."""
    with Server(root, tmp, name) as server:
        results: list = [None] * count
        stop = threading.Event()
        latencies: list[float] = []

        def probe():
            while not stop.is_set():
                try:
                    latencies.append(get(server.port, "/healthz", timeout=60)[1])
                except OSError:
                    latencies.append(float("inf"))
                stop.wait(0.05)

        def heavy(i):
            results[i] = post(server.port, path, body)

        prober = threading.Thread(target=probe, daemon=True)
        threads = [threading.Thread(target=heavy, args=(i,), daemon=True) for i in range(count)]
        for t in threads:
            t.start()
        time.sleep(0.1)
        prober.start()
        for t in threads:
            t.join()
        stop.set()
        prober.join()
        killed = server.workers() != server.started_workers or "WORKER TIMEOUT" in server.log()
    ordered = sorted(latencies)
    return {"statuses": sorted({str(r[0]) for r in results}), "slowest_heavy": max(r[2] for r in results),
            "probes": len(ordered), "p50": statistics.median(ordered) if ordered else 0,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0,
            "max": ordered[-1] if ordered else 0, "killed": killed}


def self_played(variants) -> list[dict]:
    from selfplay import play

    return [play(variants, vid, s, players=4) for vid in ("sv-classic", "no-pagat") for s in range(3)]


def mixed_bodies(variants, seed: int, logs: list[dict]):
    """An endless mix of ordinary requests, each with house rules no other has."""
    from test_budgets import HAND_15, table

    rng = random.Random(seed)
    i = seed * 1_500_000
    while True:
        i += 1
        # every request's own house rules (valid for every table below): 6 million combinations
        distinct = {"meld.min_cards": 2 + i % 2, "score.going_out": i // 2 % 1001,
                    "meld.max_wilds": 3 + i // 2002 % 3, "score.red_three": i // 6006 % 1001}
        kind = i % 6
        if kind in (0, 1):
            yield "/v1/adjudicate", dumps({**GOOD, "house_rules": distinct})
        elif kind == 2:
            hand = rng.sample(HAND_15, 11)
            yield "/v1/options", dumps({"variant": rng.choice(list(variants)), "situation": table(hand, drew="stock"),
                                        "house_rules": distinct})
        elif kind == 3:
            yield "/v1/compare", dumps({"situation": table(rng.sample(HAND_15, 9), drew="stock"),
                                        "house_rules": distinct})
        elif kind == 4:
            yield "/v1/score", dumps({**long_game(10), "house_rules": distinct})
        else:
            yield "/v1/replay", dumps({**rng.choice(logs), "house_rules": {"score.going_out": distinct["score.going_out"]}})


class KeptConnection:
    """One client's keep-alive connection, opened again when the server closes it."""

    def __init__(self, port: int):
        self.port, self.conn = port, None

    def post(self, path: str, body: bytes) -> int | str:
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                resp = self.conn.getresponse()
                resp.read()
                if resp.will_close:
                    self.close()
                return resp.status
            except (OSError, http.client.HTTPException) as error:
                self.close()
                if attempt:
                    return type(error).__name__
        return "unreachable"

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def mixed_load(servers: dict[str, Server], minutes: float, variants, logs: list[dict], clients: int = 4) -> dict:
    """The same mixed load on each server at once (``clients`` keep-alive clients each), side by side."""
    stop = threading.Event()
    lock = threading.Lock()
    out = {name: {"series": [], "requests": 0, "errors": 0, "error_kinds": {}} for name in servers}

    def client(name: str, server: Server, seed: int):
        conn = KeptConnection(server.port)
        for path, body in mixed_bodies(variants, seed, logs):
            if stop.is_set():
                conn.close()
                return
            status = conn.post(path, body)
            with lock:
                mine = out[name]
                mine["requests"] += 1
                if status not in (200, 413):
                    mine["errors"] += 1
                    mine["error_kinds"][f"{path} {status}"] = mine["error_kinds"].get(f"{path} {status}", 0) + 1

    threads = [threading.Thread(target=client, args=(name, server, seed), daemon=True)
               for name, server in servers.items() for seed in range(clients)]
    for t in threads:
        t.start()
    seen = {name: set(server.started_workers) for name, server in servers.items()}
    started = time.monotonic()
    while time.monotonic() - started < minutes * 60:
        time.sleep(30)
        at = round((time.monotonic() - started) / 60, 1)
        for name, server in servers.items():
            rss = server.rss_kib()
            seen[name] |= set(rss)
            out[name]["series"].append((at, sorted(v // 1024 for v in rss.values())))
        print(f"  {at} min: " + "; ".join(f"{n} {out[n]['series'][-1][1]} MiB, {out[n]['requests']} requests"
                                           for n in servers), flush=True)
    stop.set()
    for t in threads:
        t.join(60)
    for name, server in servers.items():
        out[name]["new_workers"] = len(seen[name] - server.started_workers)
        out[name]["recycled_for_memory"] = server.log().count("CANASTA_WORKER_MAX_RSS")
    return out


def full_cap(root: Path, tmp: Path, name: str, connections: int = 2300, probes: int = 64) -> dict:
    """``connections`` trickling a body at a byte a second, then ``probes`` /healthz calls over 16 s."""
    with Server(root, tmp, name) as server:
        selector = selectors.DefaultSelector()
        socks = []
        head = (b"POST /v1/adjudicate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100000\r\n\r\n")
        refused = 0
        for _ in range(connections):
            try:
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
                sock.sendall(head)
                sock.setblocking(False)
                socks.append(sock)
                selector.register(sock, selectors.EVENT_READ)
            except OSError:
                refused += 1
        stop = threading.Event()

        def trickle():
            while not stop.wait(1.0):
                for sock in list(socks):
                    try:
                        sock.send(b"{")
                    except OSError:
                        pass

        def drain():
            nonlocal refused
            while not stop.is_set():
                for key, _ in selector.select(timeout=0.2):
                    try:
                        data = key.fileobj.recv(65536)
                    except OSError:
                        data = b""
                    if data.startswith(b"HTTP/1.1 503"):
                        refused += 1
                    if not data or data.startswith(b"HTTP/1.1 503"):
                        selector.unregister(key.fileobj)

        trickler = threading.Thread(target=trickle, daemon=True)
        drainer = threading.Thread(target=drain, daemon=True)
        trickler.start()
        drainer.start()
        time.sleep(2)
        answers = []
        for _ in range(probes):
            try:
                answers.append(get(server.port, "/healthz", timeout=10))
            except OSError as error:
                answers.append((type(error).__name__, 10.0))
            time.sleep(0.25)
        stop.set()
        trickler.join()
        drainer.join()
        for sock in socks:
            sock.close()
    ok = [seconds for status, seconds in answers if status == 200]
    return {"connections": connections, "trickle_refused": refused, "probes": probes, "answered": len(ok),
            "worst": max(ok) if ok else float("nan"), "median": statistics.median(ok) if ok else float("nan"),
            "other": sorted({str(status) for status, _ in answers if status != 200})}


# ----------------------------------------------------------------------------------------------
# The report


def mib(kib: int) -> str:
    return f"{kib / 1024:.0f} MiB"


def server_report(results: dict, against: Path, minutes: float) -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [f"## Budgets under the heaviest valid requests, before and after ({dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC)",
             "", f"- Command: `python bench/budget_bench.py --against {against} --minutes {minutes:g} --write BENCHMARKS.md`",
             "- Server: `gunicorn -c gunicorn.conf.py app:app` (production configuration: 2 gevent workers), "
             "before: the `--against` checkout, after: this one, the same workloads side by side (each worst "
             "request on a fresh server of each in turn; the mixed load on both at once)",
             f"- Machine: {machine()}; the clients run on the same machine; load average at the end {load} (the "
             "machine is shared with other work: times are long and vary, sizes and memory hardly)", "",
             "**1. The worst single request found for each endpoint** (each on a fresh server)", "",
             "| request | body | before: status, time, answer, worker peak RSS | after: status, time, answer, worker peak RSS |",
             "|---|---:|---|---|"]
    for before, after in zip(results["before"]["worst"], results["after"]["worst"]):
        def cell(r):
            return (f"{r['status']}, {r['seconds']:.2f} s, {r['bytes'] / 1e6:.2f} MB, {mib(r['peak_kib'])}"
                    + (", **worker killed**" if r["killed"] else ""))
        lines.append(f"| {before['label']} | {before['body'] / 1e3:.1f} KB | {cell(before)} | {cell(after)} |")
    lines += ["", "**2. `/healthz` while ten heavy requests run** (asked every 50 ms; five heavy requests per worker)", "",
              "| | heavy requests: status, slowest | probes | `/healthz` p50 | p99 | worst |", "|---|---|---:|---:|---:|---:|"]
    for when in ("before", "after"):
        h = results[when]["healthz"]
        lines.append(f"| {when}: {h['label']} | {'/'.join(h['statuses'])}, {h['slowest_heavy']:.1f} s"
                     f"{', **worker killed**' if h['killed'] else ''} | {h['probes']} | {h['p50'] * 1000:.0f} ms | "
                     f"{h['p99'] * 1000:.0f} ms | {h['max'] * 1000:.0f} ms |")
    lines += ["", f"**3. RSS under {minutes:g} minutes of mixed load** (rulings, options, comparisons, scores, replays, "
              "each with house rules no other request has; both servers at once, four keep-alive clients each): each "
              "worker's RSS every 30 s", "",
              "| minute | before (MiB) | after (MiB) |", "|---:|---|---|"]
    for (t, before), (_, after) in zip(results["before"]["mixed"]["series"], results["after"]["mixed"]["series"]):
        lines.append(f"| {t:g} | {' + '.join(map(str, before))} | {' + '.join(map(str, after))} |")
    for when in ("before", "after"):
        m = results[when]["mixed"]
        lines.append("")
        kinds = ", ".join(f"{k}: {v}" for k, v in sorted(m["error_kinds"].items())) or "none"
        lines.append(f"- {when}: {m['requests']:,} requests ({m['errors']} not 200/413: {kinds}); workers started on "
                     f"the way: {m['new_workers']} ({m['recycled_for_memory']} replaced for their memory)")
    lines += ["", "**4. `/healthz` while slow clients fill the connection cap**", "",
              "| | trickling connections (refused with 503) | `/healthz` answered | median | worst | other answers |",
              "|---|---|---:|---:|---:|---|"]
    for when in ("before", "after"):
        c = results[when]["cap"]
        lines.append(f"| {when} | {c['connections']:,} ({c['trickle_refused']:,}) | {c['answered']} of {c['probes']} | "
                     f"{c['median'] * 1000:.0f} ms | {c['worst'] * 1000:.0f} ms | {', '.join(c['other']) or '–'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calibrate", action="store_true", help="only the in-process calibration")
    parser.add_argument("--against", type=Path, help="a checkout of the code before (the server run)")
    parser.add_argument("--minutes", type=float, default=10.0, help="minutes of mixed load per server")
    parser.add_argument("--scale", type=int, default=1, help="corpus size multiplier for the calibration")
    parser.add_argument("--write", type=Path, help="write the report into this Markdown file (BENCHMARKS.md)")
    args = parser.parse_args(argv)

    print("calibrating the cost model in process ...", flush=True)
    calibration, worst = calibration_report(calibrate(args.scale))
    print(calibration)
    if args.write:
        write_section(args.write, calibration, CALIBRATION_MARKER)
    if args.calibrate:
        return 0
    if args.against is None:
        parser.error("the server run needs --against (a checkout of the code before)")
    from adjudicator.variants import load_all
    from test_budgets import deck_hand, table

    variants = load_all()
    logs = self_played(variants)
    requests = worst_requests(worst)
    heavy_options = ("a whole deck, ?limit=20", "/v1/options",
                     dumps({"variant": "da-ludo", "situation": table(deck_hand(None)), "house_rules": WIDE}))
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"budget-bench-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    roots = {"before": args.against.resolve(), "after": ROOT}
    results: dict = {when: {"worst": []} for when in roots}
    print("the worst requests, before and after in turn ...", flush=True)
    for request in requests:  # side by side: each request on a fresh server of each, one after the other
        for when, root in roots.items():
            results[when]["worst"] += run_worst(root, tmp, when, [request])
    label, path, body = heavy_options
    for when, root in roots.items():
        results[when]["healthz"] = {"label": label, **healthz_during(root, tmp, when, path, body)}
        print(f"  {when} healthz: {results[when]['healthz']}", flush=True)
    for when, root in roots.items():
        results[when]["cap"] = full_cap(root, tmp, when)
        print(f"  {when} cap: {results[when]['cap']}", flush=True)
    print(f"{args.minutes:g} minutes of mixed load on both servers at once ...", flush=True)
    with Server(roots["before"], tmp, "before") as before, Server(roots["after"], tmp, "after") as after:
        mixed = mixed_load({"before": before, "after": after}, args.minutes, variants, logs)
    for when in roots:
        results[when]["mixed"] = mixed[when]
    report = server_report(results, args.against, args.minutes)
    print(report)
    if args.write:
        write_section(args.write, report, MARKER)
    return 0


if __name__ == "__main__":
    sys.exit(main())
