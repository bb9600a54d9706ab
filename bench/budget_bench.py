"""Budgets of the production server under the heaviest valid requests (issue 24): worst latency, answer size, RSS.

    .venv/bin/python bench/budget_bench.py                        # print the report
    .venv/bin/python bench/budget_bench.py --write BENCHMARKS.md  # ... and put it into BENCHMARKS.md

Starts ``gunicorn -c gunicorn.conf.py app:app`` on a free loopback port (the production
configuration: two workers, the service's worker class) and sends it, one after another:

* the issue's batches: 1,000 and 500 copies of a da-ludo go-out with 26 three-card melds, twos
  among them, so that each item is ruled under several readings (1.2 and 0.6 MB of JSON);
* the largest batch of those items the budget admits (``max_items`` of the 413 above), and four
  of them at once over 4 s, while ``/healthz`` is asked every 0.25 s;
* a score batch of long games, and one whose answer the client never reads;
* 300 ``/v1/options`` requests for the largest hand, each with house-rule meld settings no other
  one has (with the meld-fit cache unbounded, as before issue 24, they add about 31,000 entries,
  some 9 MB of Python objects, measured in process with tracemalloc);
* the fault amplifiers of ``tests/test_hardening.py`` (bodies full of faults): their fastest
  answer of three, and what ten rounds of them leave in the workers.

It reports, per workload, the HTTP status, the worst latency, the answer's size and the workers'
peak RSS (``VmHWM``), and at the end whether any worker was killed (``WORKER TIMEOUT``) and
whether the peak fits the memory limit of ``deploy/canasta-referee.yaml`` (master plus workers,
counted in RSS: shared pages twice, so an overestimate). Figures, not pass/fail: the budgets
themselves are asserted behaviourally in ``tests/test_hardening.py`` and ``tests/test_http_batch.py``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import re
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from http_bench import Server, machine, write_section  # noqa: E402
from options_bench import situation, whole_deck  # noqa: E402
from adjudicator.variants import load_all  # noqa: E402
from test_hardening import AMPLIFIERS, worker_pids  # noqa: E402
from test_http_batch import GOOD, heavy_item  # noqa: E402

MARKER = "budget_bench"
DEPLOY = ROOT / "deploy" / "canasta-referee.yaml"
VARIANTS = load_all()


# ----------------------------------------------------------------------------------------------
# Measuring


def status_kib(pid: int, field: str) -> int:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(rf"{field}:\s+(\d+)", text)
    return int(found.group(1)) if found else 0


class Workers:
    """The server's workers: their current and peak RSS, sampled while a workload runs."""

    def __init__(self, master: int):
        self.master = master
        self.peak_kib = 0  # the largest RSS one worker reached (sampled)
        self.peak_pss_kib = 0  # the largest proportional set size of master and workers together (sampled)

    def rss_kib(self) -> dict[int, int]:
        return {pid: status_kib(pid, "VmRSS") for pid in worker_pids(self.master)}

    def pss_kib(self) -> int:
        """Master and workers together, shared pages counted once (what the pod's memory limit sees)."""
        total = 0
        for pid in (self.master, *worker_pids(self.master)):
            try:
                found = re.search(r"Pss:\s+(\d+)", Path(f"/proc/{pid}/smaps_rollup").read_text())
            except OSError:
                continue
            total += int(found.group(1)) if found else 0
        return total

    def sample(self, stop: threading.Event) -> None:
        while not stop.wait(0.05):
            self.peak_kib = max([self.peak_kib, *self.rss_kib().values()])
            self.peak_pss_kib = max(self.peak_pss_kib, self.pss_kib())

    def hwm_kib(self) -> int:
        """The largest peak RSS of any worker since it started (the kernel's own high-water mark)."""
        return max([status_kib(pid, "VmHWM") for pid in worker_pids(self.master)] or [0])


def request(port: int, method: str, path: str, body: bytes | None = None, timeout: float = 120):
    """``(status, answer bytes, seconds)`` on a fresh connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, data, time.perf_counter() - started
    finally:
        conn.close()


def run(port: int, workers: Workers, bodies: list[bytes], path: str, spacing: float = 0.0) -> dict:
    """Send ``bodies`` (``spacing`` s apart, each on its own connection) while ``/healthz`` is asked."""
    stop = threading.Event()
    sampler = threading.Thread(target=workers.sample, args=(stop,), daemon=True)
    workers.peak_kib = 0
    sampler.start()
    health: list[float] = []

    def ask_health():
        while not stop.wait(0.25):
            try:
                health.append(request(port, "GET", "/healthz", timeout=60)[2])
            except OSError:
                health.append(float("inf"))

    prober = threading.Thread(target=ask_health, daemon=True)
    prober.start()
    results: list = [None] * len(bodies)

    def send(i: int, body: bytes):
        try:
            results[i] = request(port, "POST", path, body)
        except OSError as error:
            results[i] = (type(error).__name__, b"", float("inf"))

    threads = []
    for i, body in enumerate(bodies):
        threads.append(threading.Thread(target=send, args=(i, body), daemon=True))
        threads[-1].start()
        time.sleep(spacing)
    for t in threads:
        t.join()
    stop.set()
    sampler.join()
    prober.join()
    statuses = sorted({str(r[0]) for r in results})
    done = not_done = 0
    for status, data, _ in results:
        if status == 200 and data.startswith(b'{"results"'):
            for item in json.loads(data)["results"]:
                if "problem" in item and item["problem"].get("status") == 503:
                    not_done += 1
                else:
                    done += 1
    return {"status": "/".join(statuses), "worst_s": max(r[2] for r in results),
            "answer_bytes": max(len(r[1]) for r in results), "body_bytes": max(map(len, bodies)),
            "peak_rss_kib": workers.peak_kib, "healthz_worst_s": max(health or [0.0]), "done": done,
            "not_done": not_done}


def unread(port: int, path: str, body: bytes, wait: float) -> dict:
    """Send ``body`` and read nothing for ``wait`` s: is the connection dropped?"""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: the window is agreed then
        sock.settimeout(30)
        sock.connect(("127.0.0.1", port))
        head = (f"POST {path} HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        sock.sendall(head + body)
        time.sleep(wait)
        received = 0
        try:
            while chunk := sock.recv(1 << 20):
                received += len(chunk)
        except OSError:
            pass
    return {"received_bytes": received}


# ----------------------------------------------------------------------------------------------
# Bodies


def dumps(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def long_game(rounds: int) -> dict:
    """A game of ``rounds`` rounds (the schema's cap is 200) that never reaches the target: about 1 MB of answer."""
    one = [{"teams": [{"name": "A", "melded_points": 100, "natural_canastas": 1, "went_out": True},
                      {"name": "B", "melded_points": 0, "hand_points": 700}]},
           {"teams": [{"name": "A", "melded_points": 0, "hand_points": 700},
                      {"name": "B", "melded_points": 100, "natural_canastas": 1, "went_out": True}]}]
    return {"variant": "no-pagat", "rounds": (one * rounds)[:rounds]}


def house_rules(i: int) -> dict:
    """The ``i``-th of 672 distinct meld settings."""
    return {"meld.min_cards": 2 + i % 6, "meld.min_naturals": (i // 6) % 8,
            "meld.max_wilds": None if (i // 48) % 14 == 13 else (i // 48) % 14}


def options_body(i: int) -> bytes:
    """"What may I do?" for the largest hand (every card of the deck but the pile's), the team not yet opened,
    under the ``i``-th house-rule meld settings: the opening search checks about 100 meld shapes of each."""
    rules = VARIANTS["sv-classic"]
    return dumps({"variant": "sv-classic", "house_rules": house_rules(i),
                  "situation": situation(whole_deck(rules, opened=False), [], {"drew": "stock"}, score=0)})


# ----------------------------------------------------------------------------------------------
# The report


def mib(kib: int) -> str:
    return f"{kib / 1024:.0f} MiB"


def memory_limit_mib() -> float:
    for doc in yaml.safe_load_all(DEPLOY.read_text(encoding="utf-8")):
        if doc and doc.get("kind") == "Deployment":
            limit = doc["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"]
            number, unit = re.fullmatch(r"(\d+)(Mi|Gi)", limit).groups()
            return float(number) * (1024 if unit == "Gi" else 1)
    raise ValueError("no Deployment in " + str(DEPLOY))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path, help="write the report into this Markdown file (BENCHMARKS.md)")
    parser.add_argument("--options", type=int, default=300, help="/v1/options requests with distinct house rules")
    args = parser.parse_args(argv)

    rows: list[tuple[str, dict]] = []
    tmp = Path(tempfile.mkdtemp(prefix="budget-bench-"))
    with Server(None, None, None, None, tmp) as server:
        port, workers = server.port, Workers(server.proc.pid)
        time.sleep(0.5)
        start_rss = workers.rss_kib()
        heavy = heavy_item()
        print("heavy batches ...", flush=True)
        rows.append(("the issue's batch: 1,000 heavy go-outs", run(port, workers, [dumps({"requests": [heavy] * 1000})],
                                                                 "/v1/adjudicate/batch")))
        rows.append(("the issue's batch: 500 heavy go-outs", run(port, workers, [dumps({"requests": [heavy] * 500})],
                                                               "/v1/adjudicate/batch")))
        refused = json.loads(request(port, "POST", "/v1/adjudicate/batch", dumps({"requests": [heavy] * 1000}))[1])
        fits = refused["max_items"]
        within = dumps({"requests": [heavy] * fits})
        rows.append((f"{fits} heavy go-outs (`max_items` of the 413)", run(port, workers, [within],
                                                                          "/v1/adjudicate/batch")))
        rows.append((f"4 × {fits} heavy go-outs, 1 s apart", run(port, workers, [within] * 4, "/v1/adjudicate/batch",
                                                                spacing=1.0)))
        rows.append(("1,000 ordinary rulings", run(port, workers, [dumps({"requests": [GOOD] * 1000})],
                                                   "/v1/adjudicate/batch")))
        print("score batches ...", flush=True)
        game = dumps(long_game(200))
        count = min(1000, (4 * 1024 * 1024 - 100) // (len(game) + 1))  # as many as the 4 MiB body holds
        games = dumps({"requests": [long_game(200)] * count})
        rows.append((f"{count} games of 200 rounds (score batch)", run(port, workers, [games], "/v1/score/batch")))
        dropped_before = server.log_path.read_text(errors="replace").count("Dropped a client")
        never_read = unread(port, "/v1/score/batch", games, wait=20)
        dropped = server.log_path.read_text(errors="replace").count("Dropped a client") - dropped_before

        print("options with distinct house rules ...", flush=True)
        for i in range(20):  # warm both workers with the shipped settings
            request(port, "POST", "/v1/options", options_body(0))
        before = sum(workers.rss_kib().values())
        worst = 0.0
        for i in range(1, args.options + 1):
            status, _, seconds = request(port, "POST", "/v1/options", options_body(i))
            assert status == 200, status
            worst = max(worst, seconds)
        options_growth = sum(workers.rss_kib().values()) - before

        print("fault amplifiers ...", flush=True)
        amplifier_rows = []
        bodies = {name: dumps(body) for name, body in AMPLIFIERS.items()}
        for name, body in bodies.items():
            request(port, "POST", "/v1/adjudicate", body)
            times = [request(port, "POST", "/v1/adjudicate", body)[2] for _ in range(3)]
            amplifier_rows.append((name, len(body), min(times)))
        for _ in range(10):
            for body in bodies.values():
                request(port, "POST", "/v1/adjudicate", body)
        plateau = workers.rss_kib()
        for _ in range(10):
            for body in bodies.values():
                request(port, "POST", "/v1/adjudicate", body)
        after = workers.rss_kib()
        amplifier_growth = max((after[p] - plateau[p] for p in plateau if p in after), default=0)

        hwm = workers.hwm_kib()
        peak_pss = workers.peak_pss_kib
        master_rss = status_kib(server.proc.pid, "VmRSS")
        peak_total = master_rss + sum(status_kib(p, "VmHWM") for p in worker_pids(server.proc.pid))
        log_errors = server.errors_in_log()
        same_workers = set(start_rss) == worker_pids(server.proc.pid)

    limit = memory_limit_mib()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [f"## Budgets under heavy requests ({dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC)", "",
             "- Command: `python bench/budget_bench.py --write BENCHMARKS.md`",
             f"- Server: `{' '.join(server.cmd[1:])}` (production configuration: 2 gevent workers)",
             f"- Machine: {machine()}; the client runs on the same machine; load average at the end "
             f"{load} (other programs share the machine: latencies and rulings done by the deadline depend on "
             f"it, the sizes and memory figures hardly)", "",
             "| workload | body | status | worst latency | answer | rulings done / not done | "
             "worker RSS peak | worst `/healthz` meanwhile |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    for name, r in rows:
        done = f"{r['done']:,} / {r['not_done']:,}" if r["done"] or r["not_done"] else "–"
        health = f"{r['healthz_worst_s'] * 1000:.0f} ms" if r["healthz_worst_s"] else "–"
        lines.append(f"| {name} | {r['body_bytes'] / 1e6:.2f} MB | {r['status']} | {r['worst_s']:.2f} s | "
                     f"{r['answer_bytes'] / 1e6:.2f} MB | {done} | {mib(r['peak_rss_kib'])} | "
                     f"{health} |")
    lines += ["",
              f"- The same score batch, its answer never read: "
              f"{'dropped by the write deadline' if dropped else '**not dropped**'} "
              f"({never_read['received_bytes'] / 1e6:.2f} MB reached the client's buffers).",
              f"- {args.options} `/v1/options` requests, each with house-rule meld settings no other has: the two "
              f"workers' RSS grew by **{options_growth / 1024:.1f} MiB** together (target < 30 MiB); worst latency "
              f"{worst * 1000:.0f} ms.",
              "- Fault amplifiers (`tests/test_hardening.py`), fastest of three answers: "
              + "; ".join(f"{name} ({size / 1024:.0f} KiB) {seconds * 1000:.0f} ms"
                          for name, size, seconds in amplifier_rows)
              + f". Ten more rounds of them after ten to the plateau: a worker grew by at most "
                f"{amplifier_growth / 1024:.1f} MiB.",
              f"- Peak RSS of one worker over the whole run: **{mib(hwm)}** (target ≤ 250 MB). Master and workers "
              f"together, against the Deployment's memory limit of {limit:.0f} Mi: largest PSS sampled "
              f"**{mib(peak_pss)}** (shared pages once: what the limit counts) "
              f"**{'fits' if peak_pss / 1024 <= limit else 'does not fit'}**; the sum of their peak RSS, "
              f"shared pages counted in each: {mib(peak_total)} "
              f"({'within' if peak_total / 1024 <= limit else 'over'} the limit).",
              f"- Workers killed or replaced: {'none' if same_workers else '**yes**'}; errors in the log "
              f"(`[ERROR]`, `Traceback`, `WORKER TIMEOUT`): {len(log_errors) or 'none'}."]
    report = "\n".join(lines)
    print(report)
    if args.write:
        write_section(args.write, report, MARKER)
    return 0


if __name__ == "__main__":
    sys.exit(main())
