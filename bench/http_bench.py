"""HTTP benchmark of the production server: gunicorn with ``gunicorn.conf.py``, on loopback.

    .venv/bin/python bench/http_bench.py                       # measure, print the table
    .venv/bin/python bench/http_bench.py --write BENCHMARKS.md # ... and write it into BENCHMARKS.md
    .venv/bin/python bench/http_bench.py --sweep               # compare gunicorn worker settings
    .venv/bin/python bench/http_bench.py --slow-clients 50     # answer times while slow clients hold connections

What it does:

1. Builds request bodies from the test tables (``tests/ruling_table.py`` for
   ``/v1/adjudicate`` and ``/v1/compare``, ``tests/test_scoring.py`` for
   ``/v1/score``) and keeps only those the app answers with 200 (checked
   in-process with Flask's test client before the server starts).
2. Starts ``gunicorn -c gunicorn.conf.py app:app`` bound to ``127.0.0.1`` on a
   free port (the production config otherwise unchanged: ``WEB_CONCURRENCY``
   and the worker class come from the config's defaults unless ``--workers`` /
   ``--worker-class`` / ``--threads`` override them), and waits for ``/healthz``.
3. Drives it from a separate process: ``wrk`` (with a Lua script that cycles
   through the POST bodies) when it is on ``PATH``, else a Python client
   (``http.client`` with keep-alive, one thread per connection, spread over
   ``nproc`` processes). Every run is bounded by ``--duration`` seconds, and
   the Python client also by ``--max-requests`` per connection.
4. Runs the **floor** beside it: a bare Flask app (:func:`floor_app`: no hooks, no
   extensions) under the same gunicorn config and worker class, answering a POST that
   reads a JSON body with 6 KB of JSON (and a bare GET), in the same rounds.
5. Reports, per endpoint, the **server CPU per request** (the gunicorn processes' user +
   system time over the requests answered, from ``/proc``: little moved by other load on
   a shared machine) and the **floor ratio** (the floor's CPU per request over the
   endpoint's: the share of the server's throughput a CPU-bound endpoint keeps compared
   with bare Flask), requests/s, p50 and p99 latency, plus start-up time (median of
   ``--startup-runs`` fresh interpreters running ``import app``, which loads and
   verifies every variant) and the time until gunicorn answers ``/healthz``.

Only loopback is used; the server and every child process are stopped on exit.
The load generator runs on the same machine as the server and takes some of
its CPU: requests/s are a floor, and the server CPU per request and the floor
ratios are the comparable figures.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import datetime as dt
import http.client
import io
import json
import multiprocessing as mp
import os
import platform
import re
import resource
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
VENV_BIN = ROOT / ".venv" / "bin"
# Where the servers and the start-up runs import the project from: this checkout, or with --engine compiled a
# copy of it whose engine is compiled (scripts/compile-engine), as the Docker image runs it.
SERVED = {"root": ROOT, "engine": "python"}
ENGINE_WORDS = {"python": "the Python sources, as the README's serve command runs them",
                "compiled": "compiled by mypyc (`scripts/compile-engine`), as the Docker image runs it"}

TARGETS = {  # endpoint -> minimum floor ratio: floor CPU per request / the endpoint's (issues 23, 44)
    "POST /v1/adjudicate": 0.60,
    "POST /v1/compare": 0.30,
    "POST /v1/score": 0.60,
}
FLOOR = "POST (bare Flask)"  # the floor every ratio is taken against
BARE_GET = "GET (bare Flask)"
MACHINERY = "POST (service, no-op view)"  # the service's own per-request machinery, against the floor
BATCH_SIZE = 100  # rulings per /v1/adjudicate/batch body
BATCH_CPU_TARGET_US = 100.0  # server CPU per ruling of a batch (issue 44)
P99_TARGET_MS = 20.0
STARTUP_TARGET_S = 0.3
FLOOR_ANSWER_BYTES = 6 * 1024


# ----------------------------------------------------------------------------------------------
# The floor: bare Flask, nothing of this project


def floor_document(size: int = FLOOR_ANSWER_BYTES) -> bytes:
    """A JSON document of about ``size`` bytes, shaped like an answer (a list of small objects with words)."""
    items, out = [], b""
    while len(out) < size:
        n = len(items)
        items.append({"rule": f"rule.{n}", "passed": n % 3 != 0, "parameters": [f"param.{n}", "wild.twos"],
                      "explanation": "Ni kan inte ta högen: den är frusen, och ni visar bara ett naturligt kort."})
        out = json.dumps({"verdict": "illegal", "reasons": items}, ensure_ascii=False).encode("utf-8")
    return out


def floor_app():
    """The floor: a bare Flask app that reads a POST's JSON body and answers ~6 KB of JSON made once.

    Run by gunicorn as ``bench.http_bench:floor_app()`` with the service's own gunicorn.conf.py
    (the same worker class, workers and logging), so that everything this project adds shows as
    the difference. ``GET /bare`` answers a small JSON object, for the GET endpoints.
    """
    from flask import Flask, Response, request  # noqa: PLC0415 -- only the floor's server imports Flask here

    app = Flask("floor")
    answer = floor_document()

    @app.post("/floor")
    def floor():
        request.get_json()
        return Response(answer, mimetype="application/json")

    @app.get("/bare")
    @app.get("/healthz")  # (what the benchmark waits for before it starts)
    def bare():
        return {"status": "ok"}

    return app


def machinery_app():
    """The service's own machinery with nothing to do: ``app.py``'s app (its classes, hooks, headers, request
    id, language) with one more route, ``POST /v1/noop``, that reads the body as every endpoint does
    (:func:`web_api.problems.json_body`) and answers the floor's document.

    Against the floor it shows what the service adds to every request before any rule is read (issue 23:
    "a few µs, not ~85"). Run by gunicorn as ``bench.http_bench:machinery_app()``, like the floor.
    """
    import app as service  # noqa: PLC0415 -- as gunicorn loads it (variants loaded, gc.freeze)
    from web_api.problems import json_body  # noqa: PLC0415

    answer = floor_document()

    def noop():
        json_body()
        return service.app.response_class(answer, mimetype="application/json")

    if "noop" not in service.app.view_functions:
        service.app.add_url_rule("/v1/noop", "noop", noop, methods=["POST"])
    return service.app


# ----------------------------------------------------------------------------------------------
# Workloads


def _import_tables():
    sys.path[:0] = [str(ROOT), str(TESTS)]
    from ruling_table import HOUSE_RULES, ROWS, payloads  # noqa: PLC0415

    try:
        from test_scoring import CASES as SCORE_CASES  # noqa: PLC0415
    except Exception:  # noqa: BLE001 -- the scoring table is optional; fall back to one round
        SCORE_CASES = []
    return ROWS, HOUSE_RULES, SCORE_CASES, payloads


FALLBACK_ROUND = {
    "variant": "sv-classic", "players": 4,
    "teams": [{"name": "Vi", "melds": [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]], "hand": ["5C"], "went_out": True},
              {"name": "De", "melds": [["QH", "QS", "QD"]], "hand": ["JK", "5H"]}],
}


def build_workloads() -> dict[str, dict]:
    """``{label: {"method", "path", "bodies": [bytes], "mix": str}}``; bodies answered 200 in-process."""
    rows, house_rules, score_cases, matrix_payloads = _import_tables()
    from adjudicator.variants import load_all  # noqa: PLC0415
    from web_api import create_app  # noqa: PLC0415

    app = create_app()
    client = app.test_client()
    variants = sorted(load_all())

    def keep_ok(path: str, payloads: list[dict]) -> tuple[list[bytes], list[dict]]:
        bodies, kept = [], []
        for payload in payloads:
            raw = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            resp = client.post(path, data=raw, content_type="application/json")
            if resp.status_code == 200:
                bodies.append(raw)
                kept.append(payload)
        return bodies, kept

    adjudicate = matrix_payloads(variants)
    adj_bodies, adj_kept = keep_ok("/v1/adjudicate", adjudicate)

    compare = []
    for name, situation, action, _rule, _codes in rows:
        payload = {"situation": situation, "action": action}  # no "variants": all four
        if house_rules.get(name):
            payload["house_rules"] = house_rules[name]
        compare.append(payload)
    cmp_bodies, cmp_kept = keep_ok("/v1/compare", compare)

    score = []
    for case in score_cases:
        _id, variant, players, house, teams = case[:5]
        payload = {"variant": variant, "teams": teams}
        if players is not None:
            payload["players"] = players
        if house:
            payload["house_rules"] = house
        score.append(payload)
    score_bodies, score_kept = keep_ok("/v1/score", score or [FALLBACK_ROUND])
    if not score_bodies:
        score_bodies, score_kept = keep_ok("/v1/score", [FALLBACK_ROUND])

    batches = []
    for start in range(0, len(adj_kept), BATCH_SIZE):
        chunk = (adj_kept[start:] + adj_kept)[:BATCH_SIZE]  # every batch holds BATCH_SIZE rulings
        batches.append({"requests": chunk})
    batch_bodies, _ = keep_ok("/v1/adjudicate/batch", batches)

    options = list({json.dumps({"variant": p["variant"], "situation": p["situation"],
                                **({"house_rules": p["house_rules"]} if p.get("house_rules") else {})},
                               sort_keys=True): None for p in adj_kept})
    opt_bodies, opt_kept = keep_ok("/v1/options", [json.loads(o) for o in options])

    def mix(kept: list[dict], key) -> str:
        counts: dict[str, int] = {}
        for p in kept:
            counts[key(p)] = counts.get(key(p), 0) + 1
        return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))

    return {
        FLOOR: {"method": "POST", "path": "/floor", "bodies": adj_bodies, "server": "floor",
                "mix": f"bare Flask: the adjudicate bodies read with request.get_json(), answered with "
                       f"{len(floor_document()):,} bytes of JSON"},
        BARE_GET: {"method": "GET", "path": "/bare", "bodies": [], "server": "floor",
                   "mix": "bare Flask: a GET answered with a small JSON object"},
        MACHINERY: {"method": "POST", "path": "/v1/noop", "bodies": adj_bodies, "server": "machinery",
                    "mix": "the service's app with a view that reads the body as every endpoint does and "
                           "answers the floor's document: its hooks, headers and classes, no rule"},
        "GET /healthz": {"method": "GET", "path": "/healthz", "bodies": [], "mix": "baseline"},
        "POST /v1/adjudicate": {
            "method": "POST", "path": "/v1/adjudicate", "bodies": adj_bodies,
            "mix": f"{len(adj_bodies)} bodies ({mix(adj_kept, lambda p: p['action']['type'])}) "
                   f"over {len({p['variant'] for p in adj_kept})} variants"},
        "POST /v1/adjudicate?words=none": {
            "method": "POST", "path": "/v1/adjudicate?words=none", "bodies": adj_bodies,
            "mix": "the same rulings without their words"},
        "POST /v1/compare": {
            "method": "POST", "path": "/v1/compare", "bodies": cmp_bodies,
            "mix": f"{len(cmp_bodies)} rulings ({mix(cmp_kept, lambda p: p['action']['type'])}), "
                   f"each under all {len(variants)} variants"},
        "POST /v1/compare?citations=refs": {
            "method": "POST", "path": "/v1/compare?citations=refs", "bodies": cmp_bodies,
            "mix": "the same comparisons, each citation given once"},
        "POST /v1/compare?words=none": {
            "method": "POST", "path": "/v1/compare?words=none", "bodies": cmp_bodies,
            "mix": "the same comparisons, the variants' rulings without their words"},
        "POST /v1/score": {
            "method": "POST", "path": "/v1/score", "bodies": score_bodies,
            "mix": f"{len(score_bodies)} rounds ({mix(score_kept, lambda p: p['variant'])})"},
        "POST /v1/adjudicate/batch": {
            "method": "POST", "path": "/v1/adjudicate/batch", "bodies": batch_bodies, "items": BATCH_SIZE,
            "mix": f"{len(batch_bodies)} batches of {BATCH_SIZE} rulings (the adjudicate bodies)"},
        "POST /v1/options": {
            "method": "POST", "path": "/v1/options", "bodies": opt_bodies,
            "mix": f"{len(opt_bodies)} situations ({mix(opt_kept, lambda p: p['variant'])})"},
    }


# ----------------------------------------------------------------------------------------------
# In process: the same workloads through the WSGI callables, floor and service in one process


def in_process(workloads: dict, seconds: float, rounds: int) -> dict:
    """CPU per request of each workload through the app's WSGI callable (no server, no sockets).

    The floor app and the service run in this one process, interleaved in short slices
    (``rounds`` of ``seconds`` each), so whatever else the machine runs slows both alike: the
    ratios of this table are robust on a busy machine where the HTTP figures are not. What it
    leaves out is the server's own share (gevent, HTTP parsing, the access log), the same for
    every request: over HTTP every ratio is a little nearer 1.
    """
    import gc  # noqa: PLC0415
    import io  # noqa: PLC0415

    from werkzeug.test import EnvironBuilder  # noqa: PLC0415

    import app as service  # noqa: PLC0415 -- as gunicorn loads it (variants loaded, gc.freeze)

    apps = {"floor": floor_app(), None: service.app, "machinery": machinery_app()}
    gc.freeze()

    def environs(work: dict) -> list[tuple[dict, bytes | None]]:
        path, _, query = work["path"].partition("?")
        out = []
        for body in work["bodies"] or [None]:
            environ = EnvironBuilder(path=path, query_string=query or None, method=work["method"], data=body,
                                     content_type="application/json" if body else None,
                                     headers={"Accept": "application/json", "Host": "127.0.0.1"}).get_environ()
            out.append((environ, body))
        return out

    def call(wsgi, environ: dict, body: bytes | None) -> str:
        environ = dict(environ)
        if body is not None:
            environ["wsgi.input"] = io.BytesIO(body)
        status = []
        result = wsgi(environ, lambda s, h, exc=None: status.append(s))
        for _ in result:
            pass
        if hasattr(result, "close"):
            result.close()
        return status[0]

    prepared = {name: (apps[work.get("server")], environs(work)) for name, work in workloads.items()}
    cpu = {name: [] for name in workloads}
    for name, (wsgi, envs) in prepared.items():  # warm-up, and every answer must be a 200
        for environ, body in envs:
            status = call(wsgi, environ, body)
            if not status.startswith("200"):
                raise RuntimeError(f"{name}: {status}")
    floor_envs = prepared[FLOOR][1]
    alternated = {name: [] for name, work in workloads.items() if work["method"] == "POST" and name != FLOOR}
    for _ in range(rounds):
        for name, (wsgi, envs) in prepared.items():
            done, start = 0, time.process_time()
            while time.process_time() - start < seconds:
                for environ, body in envs:
                    call(wsgi, environ, body)
                    done += 1
            cpu[name].append((time.process_time() - start) / done * 1e6)
        for name in alternated:  # each request followed by one of the floor's, as a server runs other code between
            wsgi, envs = prepared[name]
            done, start = 0, time.process_time()
            while time.process_time() - start < seconds:
                for i, (environ, body) in enumerate(envs):
                    call(wsgi, environ, body)
                    call(apps["floor"], *floor_envs[i % len(floor_envs)])
                    done += 1
            alternated[name].append((time.process_time() - start) / done * 1e6 - cpu[FLOOR][-1])
    results = {}
    for name, samples in cpu.items():
        base = cpu[BARE_GET if workloads[name]["method"] == "GET" else FLOOR]
        results[name] = {"cpu_us": statistics.median(samples), "cpu_min": min(samples), "cpu_max": max(samples),
                         "floor_ratio": statistics.median(b / c for b, c in zip(base, samples)),
                         "items": workloads[name].get("items", 1),
                         "alternated_us": statistics.median(alternated[name]) if name in alternated else None}
    return results


def in_process_table(results: dict) -> str:
    lines = ["| endpoint | CPU µs/request in process (min–max) | floor ratio in process | alternated with the floor | target |",
             "|---|---:|---:|---:|---|"]
    for name, res in results.items():
        if res["items"] > 1:
            said = f"{res['cpu_us'] / res['items']:,.0f} µs per ruling (≤ {BATCH_CPU_TARGET_US:.0f})"
        elif name in TARGETS:
            said = f"≥ {TARGETS[name]:.2f}: {'met' if res['floor_ratio'] >= TARGETS[name] else '**missed**'}"
        else:
            said = ""
        alternated = res.get("alternated_us")
        lines.append(f"| `{name}` | {res['cpu_us']:,.0f} ({res['cpu_min']:,.0f}–{res['cpu_max']:,.0f}) | "
                     f"{res['floor_ratio']:.2f} | {'' if alternated is None else f'{alternated:,.0f}'} | {said} |")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# The server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gunicorn_bin() -> str:
    """The project's gunicorn: ``.venv/bin``, else beside the Python running this, else on ``PATH``."""
    for exe in (VENV_BIN / "gunicorn", Path(sys.executable).parent / "gunicorn"):
        if exe.exists():
            return str(exe)
    return shutil.which("gunicorn") or "gunicorn"


class Server:
    """``gunicorn -c gunicorn.conf.py app:app -b 127.0.0.1:<port>`` plus optional overrides."""

    def __init__(self, workers: int | None, worker_class: str | None, threads: int | None,
                 keepalive: int | None, log_dir: Path, app: str = "app:app", root: Path | None = None):
        self.root = root or SERVED["root"]  # the tree it serves (``--against``: another one)
        self.port = free_port()
        self.cmd = [gunicorn_bin(), "-c", "gunicorn.conf.py", app, "-b", f"127.0.0.1:{self.port}"]
        if workers:
            self.cmd += ["-w", str(workers)]
        if worker_class:
            self.cmd += ["-k", worker_class]
        if threads:
            self.cmd += ["--threads", str(threads)]
        if keepalive is not None:
            self.cmd += ["--keep-alive", str(keepalive)]
        self.log_path = log_dir / f"gunicorn-{self.port}.log"
        self.proc: subprocess.Popen | None = None
        self.ready_s = float("nan")

    def __enter__(self) -> "Server":
        if self.proc is None:
            self.start()
        return self

    def start(self) -> "Server":
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        log = open(self.log_path, "wb")  # noqa: SIM115 -- closed with the process
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(self.cmd, cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        log.close()
        deadline = t0 + 60
        while time.perf_counter() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as resp:
                    if resp.status == 200:
                        self.ready_s = time.perf_counter() - t0
                        return self
            except OSError:
                time.sleep(0.02)
        self.__exit__()
        raise RuntimeError(f"gunicorn did not answer /healthz within 60 s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 25) -> str:
        try:
            return "\n".join(self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # graceful shutdown of the master and its workers
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def errors_in_log(self) -> list[str]:
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return [ln for ln in text.splitlines() if "[ERROR]" in ln or "Traceback" in ln or "WORKER TIMEOUT" in ln]


# ----------------------------------------------------------------------------------------------
# Load generators

LUA_TEMPLATE = r"""
-- generated by bench/http_bench.py: cycle through pre-formatted requests
local bodies = {
%(bodies)s
}
local requests = {}
local counter = 0

init = function(args)
  for i, body in ipairs(bodies) do
    requests[i] = wrk.format("%(method)s", "%(path)s",
      {["Content-Type"] = "application/json", ["Accept"] = "application/json"}, body)
  end
  if #requests == 0 then requests[1] = wrk.format("%(method)s", "%(path)s") end
end

request = function()
  counter = counter %% #requests + 1
  return requests[counter]
end

done = function(summary, latency, requests)
  io.write(string.format("BENCH_JSON {\"requests\": %%d, \"duration_us\": %%d, \"p50_us\": %%d, \"p90_us\": %%d, " ..
    "\"p99_us\": %%d, \"max_us\": %%d, \"connect_errors\": %%d, \"read_errors\": %%d, \"write_errors\": %%d, " ..
    "\"status_errors\": %%d, \"timeouts\": %%d}\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status,
    summary.errors.timeout))
end
"""


def lua_string(raw: bytes) -> str:
    """A Lua long-bracket string literal that cannot be closed by the body's own text."""
    text = raw.decode("utf-8")
    level = 0
    while ("]" + "=" * level + "]") in text:
        level += 1
    eq = "=" * level
    return f"[{eq}[{text}]{eq}]"


def run_wrk(url: str, work: dict, connections: int, duration: float, threads: int, tmp: Path) -> dict:
    script = tmp / f"{work['path'].strip('/').replace('/', '_') or 'root'}.lua"
    script.write_text(LUA_TEMPLATE % {
        "bodies": ",\n".join(lua_string(b) for b in work["bodies"]),
        "method": work["method"], "path": work["path"]}, encoding="utf-8")
    cmd = ["wrk", "-t", str(min(threads, connections)), "-c", str(connections), "-d", f"{max(1, round(duration))}s",
           "--timeout", "10s", "-s", str(script), url]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=duration + 60, check=True).stdout
    match = re.search(r"^BENCH_JSON (.*)$", out, flags=re.M)
    if not match:
        raise RuntimeError(f"wrk printed no summary:\n{out}")
    data = json.loads(match.group(1))
    seconds = data["duration_us"] / 1e6
    errors = sum(data[k] for k in ("connect_errors", "read_errors", "write_errors", "timeouts"))
    return {"requests": data["requests"], "rps": data["requests"] / seconds, "p50_ms": data["p50_us"] / 1000,
            "p99_ms": data["p99_us"] / 1000, "max_ms": data["max_us"] / 1000,
            "non_2xx": data["status_errors"], "socket_errors": errors, "client": "wrk"}


def _py_worker(host: str, port: int, work: dict, threads: int, deadline: float, max_requests: int,
               out: mp.Queue) -> None:
    """One client process: ``threads`` keep-alive connections, each sending requests back to back."""
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    bodies = work["bodies"] or [None]
    latencies: list[list[float]] = [[] for _ in range(threads)]
    status_errors = [0] * threads
    socket_errors = [0] * threads
    statuses: list[dict[int, int]] = [{} for _ in range(threads)]

    def loop(i: int) -> None:
        conn = http.client.HTTPConnection(host, port, timeout=10)
        n = i
        while time.monotonic() < deadline and len(latencies[i]) < max_requests:
            body = bodies[n % len(bodies)]
            n += 1
            t0 = time.perf_counter()
            try:
                conn.request(work["method"], work["path"], body=body, headers=headers if body else {})
                resp = conn.getresponse()
                resp.read()
                if resp.will_close:  # e.g. the sync worker closes after each response
                    conn.close()
            except (OSError, http.client.HTTPException):
                socket_errors[i] += 1
                conn.close()
                continue
            latencies[i].append(time.perf_counter() - t0)
            if not 200 <= resp.status < 400:
                status_errors[i] += 1
                statuses[i][resp.status] = statuses[i].get(resp.status, 0) + 1
        conn.close()

    pool = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    said: dict[int, int] = {}
    for counts in statuses:
        for status, n in counts.items():
            said[status] = said.get(status, 0) + n
    out.put(([x for lat in latencies for x in lat], sum(status_errors), sum(socket_errors), said))


def run_python(url: str, work: dict, connections: int, duration: float, max_requests: int) -> dict:
    host, port = "127.0.0.1", int(url.rsplit(":", 1)[1])
    nprocs = max(1, min(os.cpu_count() or 1, connections))
    shares = [connections // nprocs + (1 if i < connections % nprocs else 0) for i in range(nprocs)]
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    start = time.monotonic()
    deadline = start + duration
    procs = [ctx.Process(target=_py_worker, args=(host, port, work, n, deadline, max_requests, out), daemon=True)
             for n in shares if n]
    for p in procs:
        p.start()
    results = [out.get(timeout=duration + 60) for _ in procs]
    for p in procs:
        p.join(timeout=10)
    elapsed = time.monotonic() - start
    lat = sorted(x for r in results for x in r[0])
    if not lat:
        raise RuntimeError("no request completed")

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000

    return {"requests": len(lat), "rps": len(lat) / elapsed, "p50_ms": pct(0.50), "p99_ms": pct(0.99),
            "max_ms": lat[-1] * 1000, "non_2xx": sum(r[1] for r in results),
            "socket_errors": sum(r[2] for r in results), "client": "python",
            "statuses": {k: sum(r[3].get(k, 0) for r in results) for r in results for k in r[3]}}


# ----------------------------------------------------------------------------------------------
# Start-up


def exported(ref: str) -> Path:
    """A git ref of this checkout exported to a temporary folder (``--against``)."""
    folder = Path(tempfile.mkdtemp(prefix="http_bench-against-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def compiled_copy(into: Path) -> Path:
    """A copy of this checkout in ``into`` with its engine compiled (``--engine compiled``)."""
    root = into / "app"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "compile-engine"), str(root), "--copy-from", str(ROOT)],
                   check=True)
    return root


def startup_times(runs: int, root: Path | None = None) -> list[float]:
    code = "import time; t = time.perf_counter(); import app; print(time.perf_counter() - t)"
    python = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
    times = []
    for _ in range(runs):
        for attempt in (1, 2):  # once more: on a crowded machine a start can fail for reasons of its own
            out = subprocess.run([python, "-c", code], cwd=root or SERVED["root"], capture_output=True, text=True,
                                 timeout=60, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
            if out.returncode == 0:
                times.append(float(out.stdout.strip().splitlines()[-1]))
                break
            if attempt == 2:
                raise RuntimeError(f"`import app` failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return times


# ----------------------------------------------------------------------------------------------
# Reporting


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"nproc {os.cpu_count()}, {model}, Linux {platform.release()}, Python {platform.python_version()}"


def _proc_cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # utime + stime, and cutime + cstime: the CPU of its children that have ended and been waited for (a
    # worker recycled by max_requests mid-round), which would otherwise vanish from the sum with its process
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds used so far by ``root`` and its descendants (the gunicorn master and workers), the ended
    workers' included through their parent's count of its waited-for children."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    tree, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        kids = [c for c, p in parents.items() if p == pid and c not in tree]
        tree.update(kids)
        frontier.extend(kids)
    return sum(_proc_cpu_seconds(pid) for pid in tree)


def system_busy_seconds() -> float:
    """CPU seconds all processes on the machine have been busy (from /proc/stat, every core)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError):
        return float("nan")
    user, nice, system, _idle, _iowait, irq, softirq, steal = (values + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def wait_for_quiet(max_wait: float, threshold: float) -> float:
    """Wait (at most ``max_wait`` s) until other programs use under ``threshold`` cores; returns their last load."""
    deadline = time.monotonic() + max_wait
    while True:
        b0, t0 = system_busy_seconds(), time.monotonic()
        time.sleep(0.5)
        load = (system_busy_seconds() - b0) / (time.monotonic() - t0)
        if load < threshold or time.monotonic() >= deadline:
            return load


def one_run(server: Server, args, work: dict, use_wrk: bool, tmp: Path, duration: float) -> dict:
    """One bounded load run, with the server's CPU per request and the CPU other programs took meanwhile."""
    if args.quiet_wait > 0:
        wait_for_quiet(args.quiet_wait, args.quiet_threshold)
    srv0, sys0, cli0, t0 = tree_cpu_seconds(server.proc.pid), system_busy_seconds(), children_cpu_seconds(), \
        time.monotonic()
    if use_wrk:
        res = run_wrk(server.url, work, args.connections, duration, args.wrk_threads, tmp)
    else:
        res = run_python(server.url, work, args.connections, duration, args.max_requests)
    elapsed = time.monotonic() - t0
    srv = tree_cpu_seconds(server.proc.pid) - srv0
    cli = children_cpu_seconds() - cli0
    # over the requests answered: a refusal's CPU (a heavy request shed under the crowd, issue 45) is charged to
    # the answers, so a refused request never makes the work look cheaper
    res["server_cpu_us"] = srv / max(res["requests"] - res["non_2xx"], 1) * 1e6
    res["client_cores"] = cli / elapsed
    res["foreign_cores"] = max(0.0, (system_busy_seconds() - sys0 - srv - cli) / elapsed)
    return res


def start_server(args, tmp: Path, attempts: int = 3, app: str = "app:app", root: Path | None = None) -> Server:
    """A started :class:`Server`; retried, since a start can fail while someone is editing the code."""
    for attempt in range(1, attempts + 1):
        server = Server(args.workers, args.worker_class, args.threads, args.keepalive, tmp, app, root)
        try:
            return server.start()
        except RuntimeError as error:
            if attempt == attempts:
                raise
            print(f"  server did not start (attempt {attempt}), retrying in 15 s:\n{error}", flush=True)
            time.sleep(15)
    raise AssertionError("unreachable")


def selected(workloads: dict, only: list[str] | None) -> list[str]:
    """The workloads ``--only`` names, with the floors, the machinery and ``/healthz`` always among them."""
    always = (FLOOR, BARE_GET, MACHINERY, "GET /healthz")
    return [n for n in workloads if not only or n in only or n in always]


def measure(args, workloads: dict, tmp: Path, label: str | None = None) -> dict:
    """Start the server and the floor once; run every endpoint ``args.repeat`` times, interleaved; medians."""
    use_wrk = bool(args.client == "wrk" or (args.client == "auto" and shutil.which("wrk")))
    names = selected(workloads, args.only)
    trees = getattr(args, "against_roots", None) or {}
    for name in [n for n in names if workloads[n].get("server") is None and n != "GET /healthz"]:
        for i, tree in enumerate(trees, 1):  # each endpoint served by every other tree too, in the same rounds
            workloads[f"{name} ({tree})"] = {**workloads[name], "server": f"against:{tree}", "twin_of": name}
            names.insert(names.index(name) + i, f"{name} ({tree})")
    runs: dict[str, list[dict]] = {n: [] for n in names}
    with contextlib.ExitStack() as servers:
        server = servers.enter_context(start_server(args, tmp))
        serving = {"floor": servers.enter_context(start_server(args, tmp, app="bench.http_bench:floor_app()")),
                   "machinery": servers.enter_context(start_server(args, tmp, app="bench.http_bench:machinery_app()"))}
        for tree, root in trees.items():
            serving[f"against:{tree}"] = servers.enter_context(start_server(args, tmp, root=root))
        for name in [n for n in names if workloads[n].get("twin_of")]:  # a tree of another day may refuse
            work = workloads[name]                                        # a body of today's: it is left out
            kept = answered_ok(serving[work["server"]], work)
            if len(kept) < len(work["bodies"]):
                print(f"  {name}: {len(kept)} of {len(work['bodies'])} bodies answered 200 there, only those run")
                work["bodies"] = kept
                work["mix"] = f"{len(kept)} of the bodies of `{work['twin_of']}`, those this tree answers 200"
            if not kept:
                names.remove(name)
                runs.pop(name)
        floor, machinery = serving["floor"], serving["machinery"]
        for name in names:  # warm-up: each worker imports the engine modules on its first request
            one_run(serving.get(workloads[name].get("server"), server), args, workloads[name], use_wrk, tmp,
                    min(2.0, args.duration))
        for rnd in range(args.repeat):
            order = _rotated(names, workloads, rnd)  # the trees take turns going first
            for name in order:
                res = one_run(serving.get(workloads[name].get("server"), server), args, workloads[name], use_wrk,
                              tmp, args.duration)
                runs[name].append(res)
                print(f"  {label or ''}[{rnd + 1}/{args.repeat}] {name:32s} {res['rps']:7.0f} req/s  "
                      f"p50 {res['p50_ms']:6.2f} ms  p99 {res['p99_ms']:6.2f} ms  "
                      f"server CPU {res['server_cpu_us']:6.0f} µs/req  other load {res['foreign_cores']:.2f} cores  "
                      f"errors {res['non_2xx'] + res['socket_errors']} {res.get('statuses') or ''}", flush=True)
        log_errors = [e for srv in (server, *serving.values()) for e in srv.errors_in_log()]
        ready, cmd, floor_cmd = server.ready_s, server.cmd, floor.cmd
    results = {}
    for name in names:
        rs = runs[name]
        results[name] = {
            "rps": statistics.median(r["rps"] for r in rs),
            "rps_min": min(r["rps"] for r in rs), "rps_max": max(r["rps"] for r in rs),
            "p50_ms": statistics.median(r["p50_ms"] for r in rs),
            "p99_ms": statistics.median(r["p99_ms"] for r in rs),
            # the floor ratio of each round (floor and endpoint measured minutes apart at most), then the median
            # (a GET against the bare GET, a POST against the POST floor)
            "floor_ratio": statistics.median(f["server_cpu_us"] / r["server_cpu_us"] for r, f in zip(
                rs, runs[BARE_GET if workloads[name]["method"] == "GET" else FLOOR]) if r["server_cpu_us"]),
            "server_cpu_us": statistics.median(r["server_cpu_us"] for r in rs),
            "server_cpu_us_min": min(r["server_cpu_us"] for r in rs),
            "server_cpu_us_max": max(r["server_cpu_us"] for r in rs),
            "foreign_cores": statistics.median(r["foreign_cores"] for r in rs),
            "client_cores": statistics.median(r["client_cores"] for r in rs),
            "non_2xx": sum(r["non_2xx"] for r in rs), "socket_errors": sum(r["socket_errors"] for r in rs),
            "requests": sum(r["requests"] for r in rs), "client": rs[0]["client"],
            "items": workloads[name].get("items", 1), "twin_of": workloads[name].get("twin_of"),
        }
    return {"results": results, "ready_s": ready, "log_errors": log_errors, "server_cmd": cmd,
            "floor_cmd": floor_cmd}


def _rotated(names: list[str], workloads: dict, rnd: int) -> list[str]:
    """``names`` with each endpoint and its ``--against`` twins rotated by ``rnd`` (round 0: as given)."""
    out: list[str] = []
    for name in names:
        if workloads[name].get("twin_of"):
            continue
        group = [name] + [n for n in names if workloads[n].get("twin_of") == name]
        shift = rnd % len(group)
        out += group[shift:] + group[:shift]
    return out


def answered_ok(server: "Server", work: dict) -> list[bytes]:
    """The bodies of ``work`` that ``server`` answers with a 200."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    kept = []
    try:
        for body in work["bodies"]:
            conn.request(work["method"], work["path"], body=body, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            if resp.status == 200:
                kept.append(body)
    finally:
        conn.close()
    return kept


def _verdict(name: str, res: dict) -> tuple[str, bool | None]:
    """The endpoint's targets in words and whether they are met (None: no target; the floor itself)."""
    if name in (FLOOR, BARE_GET):
        return "the floor", None
    if name == MACHINERY:
        return "what every request pays before any rule", None
    if res.get("items", 1) > 1:
        per = res["server_cpu_us"] / res["items"]
        return f"≤ {BATCH_CPU_TARGET_US:.0f} µs CPU per ruling ({per:,.0f})", per <= BATCH_CPU_TARGET_US
    target = TARGETS.get(res.get("twin_of") or name)
    ok = res["p99_ms"] < P99_TARGET_MS
    said = [f"p99 < {P99_TARGET_MS:.0f} ms"]
    if target:
        said.insert(0, f"floor ratio ≥ {target:.2f}")
        ok = ok and res["floor_ratio"] >= target
    return ", ".join(said), ok


def table(results: dict) -> str:
    lines = ["| endpoint | server CPU µs/req (min–max) | floor ratio | requests/s | p50 ms | p99 ms | target | met | "
             "errors |",
             "|---|---:|---:|---:|---:|---:|---|---|---:|"]
    for name, res in results.items():
        said, ok = _verdict(name, res)
        rps = f"{res['rps']:,.1f}" if res.get("items", 1) > 1 else f"{res['rps']:,.0f}"
        lines.append(f"| `{name}` | {res['server_cpu_us']:,.0f} ({res['server_cpu_us_min']:,.0f}–"
                     f"{res['server_cpu_us_max']:,.0f}) | {res['floor_ratio']:.2f} | {rps} | {res['p50_ms']:.2f} | "
                     f"{res['p99_ms']:.2f} | {said} | {'–' if ok is None else 'yes' if ok else '**no**'} | "
                     f"{res['non_2xx'] + res['socket_errors']} |")
    return "\n".join(lines)


def batch_lines(results: dict) -> list[str]:
    """Rulings per second and CPU per ruling through the batch endpoint."""
    out = []
    for name, res in results.items():
        if res.get("items", 1) > 1:
            out.append(f"`{name}`: {res['rps'] * res['items']:,.0f} rulings/s ({res['rps']:,.1f} requests/s × "
                       f"{res['items']} rulings); server CPU **{res['server_cpu_us'] / res['items']:,.0f} µs per "
                       f"ruling**, target ≤ {BATCH_CPU_TARGET_US:.0f} µs.")
    return out


def missed_targets(results: dict, startup_median: float) -> list[str]:
    missed = []
    for name, res in results.items():
        said, ok = _verdict(name, res)
        if ok is False and not res.get("twin_of"):  # (another tree's: beside, not this tree's)
            missed.append(f"{name}: floor ratio {res['floor_ratio']:.2f}, p99 {res['p99_ms']:.1f} ms, "
                          f"CPU {res['server_cpu_us']:,.0f} µs/request; target {said}")
    if startup_median >= STARTUP_TARGET_S:
        missed.append(f"start-up: median {startup_median:.3f} s, target < {STARTUP_TARGET_S} s")
    return missed


def write_section(path: Path, section: str, marker: str) -> None:
    """Replace the block between ``<!-- marker:begin/end -->`` in ``path`` (or append it) with ``section``."""
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    block = f"{begin}\n{section.rstrip()}\n{end}\n"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n\n"
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):].lstrip("\n")
    else:
        text = text.rstrip("\n") + "\n\n" + block
    path.write_text(text, encoding="utf-8")


# ----------------------------------------------------------------------------------------------
# Slow clients


def _slow_client(port: int, mode: str, index: int, stop: threading.Event) -> None:
    """One slow connection: ``trickle`` sends a request head (even ``index``) or a body (odd) a byte a
    second; ``headers-wait`` sends a POST's head, announcing a body, and then nothing."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        return
    try:
        post = (b"POST /v1/adjudicate HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                b"Content-Length: 4096\r\n\r\n")
        if mode == "headers-wait":
            sock.sendall(post)
            stop.wait()
            return
        head, tail = ((b"GET /healthz HTTP/1.1\r\nHost: bench\r\n", b"X-Slow: " + b"s" * 4096) if index % 2 == 0
                      else (post, b" " * 4096))
        sock.sendall(head)
        for byte in tail:
            if stop.wait(1.0):
                return
            sock.sendall(bytes([byte]))
    except OSError:
        pass  # the server gave up on us: that is allowed
    finally:
        sock.close()


def _timed_request(port: int, method: str, path: str, body: bytes | None, timeout: float) -> tuple[str, float]:
    t0 = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        resp = conn.getresponse()
        resp.read()
        conn.close()
        status = str(resp.status)
    except (OSError, http.client.HTTPException) as error:
        status = type(error).__name__
    return status, time.perf_counter() - t0


def slow_clients(args, workloads: dict, tmp: Path) -> str:
    """Hold ``args.slow_clients`` slow connections open and time ordinary requests meanwhile."""
    probes = [("GET", "/healthz", None), ("GET", "/v1/variants", None),
              ("POST", "/v1/adjudicate", workloads["POST /v1/adjudicate"]["bodies"][0])]
    stop = threading.Event()
    with start_server(args, tmp) as server:
        pool = [threading.Thread(target=_slow_client, args=(server.port, args.slow_mode, i, stop), daemon=True)
                for i in range(args.slow_clients)]
        try:
            for t in pool:
                t.start()
            time.sleep(2.0)  # every slow connection is open and has sent its first bytes
            results = [(f"{m} {p}",) + _timed_request(server.port, m, p, b, args.slow_timeout)
                       for _ in range(3) for m, p, b in probes]
        finally:
            stop.set()
            for t in pool:
                t.join(timeout=5)
        cmd = " ".join(server.cmd).replace(str(ROOT) + "/", "")
    times = sorted(seconds for _, _, seconds in results)
    statuses = sorted({status for _, status, _ in results})
    lines = [f"- Server: `{cmd}`",
             f"- {args.slow_clients} slow connections ({args.slow_mode}); then 3 rounds of "
             + ", ".join(f"`{m} {p}`" for m, p, _ in probes) + f" on fresh connections, {args.slow_timeout:.0f} s timeout",
             f"- statuses: {', '.join(statuses)}; answer time median {times[len(times) // 2] * 1000:.0f} ms, "
             f"worst {times[-1] * 1000:.0f} ms"]
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------

SWEEP = [  # (label, workers, worker class, threads, keepalive)
    ("sync, 2 workers", 2, "sync", None, None),
    ("sync, 4 workers (2×cores)", 4, "sync", None, None),
    ("sync, 5 workers (2×cores+1)", 5, "sync", None, None),
    ("gthread, 2 workers × 4 threads", 2, "gthread", 4, None),
    ("gthread, 2 workers × 8 threads", 2, "gthread", 8, None),
    ("gthread, 4 workers × 4 threads", 4, "gthread", 4, None),
]


def parse_settings(text: str) -> list[tuple]:
    """``"sync:2,gthread:2x4"`` -> SWEEP-style rows."""
    rows = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        klass, _, shape = item.partition(":")
        workers, _, threads = shape.partition("x")
        if klass not in ("sync", "gthread") or not workers.isdigit() or (threads and not threads.isdigit()):
            raise argparse.ArgumentTypeError(f"bad setting {item!r}; use sync:N or gthread:NxT")
        label = f"{klass}, {workers} workers" + (f" × {threads} threads" if threads else "")
        rows.append((label, int(workers), klass, int(threads) if threads else None, None))
    return rows


def sweep_table(rows: list[tuple[str, dict]]) -> str:
    names = list(rows[0][1])
    out = ["| setting | " + " | ".join(f"`{n}` req/s · p99 ms · CPU µs/req" for n in names) + " |",
           "|---|" + "---:|" * len(names)]
    for label, res in rows:
        out.append(f"| {label} | " + " | ".join(
            f"{res[n]['rps']:,.0f} · {res[n]['p99_ms']:.1f} · {res[n]['server_cpu_us']:,.0f}" for n in names) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per run (1 to 120)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per endpoint, interleaved; medians reported")
    parser.add_argument("--client", choices=("auto", "wrk", "python"), default="auto")
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--max-requests", type=int, default=200_000, help="per connection, Python client only")
    parser.add_argument("--workers", type=int, help="override WEB_CONCURRENCY / the config's workers")
    parser.add_argument("--worker-class", help="override the config's worker_class (sync, gthread)")
    parser.add_argument("--threads", type=int, help="override the config's threads (gthread)")
    parser.add_argument("--keepalive", type=int, help="override the config's keepalive (seconds)")
    parser.add_argument("--startup-runs", type=int, default=7)
    parser.add_argument("--engine", choices=("python", "compiled"), default="python",
                        help="serve the engine as Python sources (the README's serve command) or compiled by "
                             "scripts/compile-engine, in a copy of the checkout (the Docker image)")
    parser.add_argument("--quiet-wait", type=float, default=20.0,
                        help="before each run, wait up to this many seconds for other programs to go quiet")
    parser.add_argument("--quiet-threshold", type=float, default=0.25,
                        help="cores other programs may use for the machine to count as quiet")
    parser.add_argument("--only", action="append", help="endpoint label to run (repeatable); /healthz and the floor always run")
    parser.add_argument("--sweep", action="store_true", help="measure several gunicorn worker settings")
    parser.add_argument("--sweep-settings", type=parse_settings, default=SWEEP,
                        help="settings for --sweep, e.g. sync:2,sync:4,gthread:2x4 (default: a built-in list)")
    parser.add_argument("--against", metavar="[LABEL=]REF_OR_DIR", action="append",
                        help="serve another tree too (a git ref, exported, or a folder, e.g. a compiled copy; "
                             "repeatable): each endpoint is measured on every tree in the same rounds, the trees "
                             "taking turns going first, against the same floor")
    parser.add_argument("--in-process", action="store_true",
                        help="instead of the servers: CPU per request through the WSGI callables, floor and "
                             "service interleaved in one process (robust on a busy machine)")
    parser.add_argument("--slice", type=float, default=0.5, help="--in-process: seconds per endpoint and round")
    parser.add_argument("--write", type=Path, help="write the report into this markdown file (e.g. BENCHMARKS.md)")
    parser.add_argument("--slow-clients", type=int, default=0,
                        help="instead of the load test: hold this many slow connections open and time "
                             "ordinary requests meanwhile")
    parser.add_argument("--slow-mode", choices=("trickle", "headers-wait"), default="trickle",
                        help="trickle: half send a request head, half a body, a byte a second; "
                             "headers-wait: each sends a POST's head and then nothing")
    parser.add_argument("--slow-timeout", type=float, default=10.0, help="timeout of each timed request (s)")
    args = parser.parse_args(argv)
    args.duration = min(max(args.duration, 1.0), 120.0)
    args.connections = min(max(args.connections, 1), 256)
    args.repeat = min(max(args.repeat, 1), 10)
    if args.client == "wrk" and not shutil.which("wrk"):
        parser.error("wrk is not on PATH (apt-get install -y wrk)")

    workloads = build_workloads()
    client = "wrk" if args.client == "wrk" or (args.client == "auto" and shutil.which("wrk")) else "python"
    print(f"machine: {machine()}\nclient: {client}, {args.connections} connections, "
          f"{args.repeat} × {args.duration:.0f} s per endpoint")
    for name, work in workloads.items():
        print(f"  {name}: {work['mix']}")
    command = shlex.join(["python", "bench/http_bench.py", *(argv if argv is not None else sys.argv[1:])])
    when = f"{dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}"

    if args.in_process and args.engine != "python":
        parser.error("--in-process measures this checkout's engine as Python; --engine compiled serves a copy")
    if args.engine == "compiled":
        SERVED.update(root=compiled_copy(Path(tempfile.mkdtemp(prefix="http_bench-engine-"))), engine="compiled")
        print(f"engine: {ENGINE_WORDS['compiled']}, in {SERVED['root']}")
    if args.in_process:
        sys.path.insert(0, str(ROOT))
        chosen = {name: workloads[name] for name in selected(workloads, args.only)}
        results = in_process(chosen, args.slice, max(args.repeat, 3))
        text = "\n".join([
            f"## In process: floor and service interleaved in one process ({when})", "",
            f"- Command: `{command}`", f"- Machine: {machine()}",
            f"- Each endpoint's workload (as above) through the app's WSGI callable, {max(args.repeat, 3)} rounds "
            f"of {args.slice:g} s each, the bare Flask floor (`floor_app`) interleaved; CPU time of this one "
            "process (`time.process_time`) over the requests answered; medians (min–max). Floor ratio: the "
            "floor's CPU per request over the endpoint's, per round, median. No server: gevent's and "
            "gunicorn's own share per request (the same for every endpoint) is not in these figures, so "
            "every ratio here is a little below its HTTP value. *Alternated with the floor*: the same requests, "
            "each followed by one of the floor's, less the floor's own cost: what a request costs when other "
            "code ran in between, as in a server (its caches then hold less of this request's code and data).", "",
            in_process_table(results)])
        print("\n" + text)
        if args.write:
            write_section(args.write, text, "http_bench_in_process")
            print(f"\nwritten to {args.write}")
        return 0

    args.against_roots = {}
    for given in args.against or []:
        label, _, where = given.rpartition("=")
        label = label or where
        args.against_roots[label] = Path(where) if Path(where).is_dir() else exported(where)
        if not Path(where).is_dir():
            atexit.register(shutil.rmtree, args.against_roots[label], True)  # the export: removed when done
        print(f"against: {label}: {where} in {args.against_roots[label]}")
    with tempfile.TemporaryDirectory(prefix="http_bench-") as tmpdir:
        tmp = Path(tmpdir)
        if args.slow_clients > 0:
            print(f"\n## Slow clients ({when})\n\n- Command: `{command}`\n" + slow_clients(args, workloads, tmp))
            return 0
        if args.sweep:
            rows = []
            for label, workers, klass, threads, keepalive in args.sweep_settings:
                args.workers, args.worker_class, args.threads, args.keepalive = workers, klass, threads, keepalive
                rows.append((label, measure(args, workloads, tmp, label + " ")["results"]))
            text = "\n".join([
                f"## gunicorn settings sweep ({when})", "",
                f"- Command: `{command}`", f"- Machine: {machine()}",
                f"- Client: {client}, {args.connections} connections, median of {args.repeat} × "
                f"{args.duration:.0f} s runs per cell", "", sweep_table(rows)])
            print("\n" + text)
            if args.write:
                write_section(args.write, text, "http_bench_sweep")
                print(f"\nwritten to {args.write}")
            return 0
        run = measure(args, workloads, tmp)

    startup = startup_times(args.startup_runs)
    median = statistics.median(startup)
    startup_against = {label: startup_times(args.startup_runs, root) for label, root in args.against_roots.items()}
    results = run["results"]
    missed = missed_targets(results, median)
    server_cmd = " ".join(run["server_cmd"]).replace(str(ROOT) + "/", "")
    floor_cmd = " ".join(run["floor_cmd"]).replace(str(ROOT) + "/", "")
    if SERVED["root"] != ROOT:
        shutil.rmtree(SERVED["root"].parent, ignore_errors=True)  # the compiled copy: its runs are done
    foreign = statistics.median(r["foreign_cores"] for r in results.values())
    client_cores = statistics.median(r["client_cores"] for r in results.values())
    report = [
        f"## HTTP benchmark ({when})",
        "",
        f"- Command: `{command}`",
        f"- Server: `{server_cmd}` (everything else from `gunicorn.conf.py`; access log on, to a file); "
        f"the engine {ENGINE_WORDS[SERVED['engine']]}",
        f"- Floor, in the same run: `{floor_cmd}` -- bare Flask (`floor_app` in `bench/http_bench.py`), "
        "the same config and worker class; and the service's own machinery with a no-op view "
        f"(`{MACHINERY}`: `machinery_app`, served the same way)",
        f"- Machine: {machine()}",
        f"- Client: {client}, {args.connections} connections, {args.repeat} interleaved runs of "
        f"{args.duration:.0f} s per endpoint after a warm-up; medians. The client runs on the same machine "
        f"(median {client_cores:.2f} cores); other programs used a median {foreign:.2f} cores during the runs.",
        "- Bodies (each answered 200 in-process before the run): "
        + "; ".join(f"`{n}`: {w['mix']}" for n, w in workloads.items() if w["bodies"] and n in results),
        "- *Server CPU µs/req*: the gunicorn processes' user + system time (`/proc`) over the requests "
        "answered (a refused request's CPU charged to the answered ones); median of the rounds (min–max). *Floor ratio*: the floor's CPU per request over the "
        "endpoint's, per round, median -- the share of bare Flask's throughput a CPU-bound server keeps on "
        "this endpoint; little moved by other load on the machine, unlike requests/s and latency.",
        "",
        table(results),
        "",
        *batch_lines(results),
        "",
        f"Start-up (`import app`: imports + loading and verifying the four variants), median of {len(startup)} "
        f"runs: **{median:.3f} s** (min {min(startup):.3f}, max {max(startup):.3f}); target < {STARTUP_TARGET_S} s: "
        f"{'met' if median < STARTUP_TARGET_S else '**missed**'}. "
        f"gunicorn answered `/healthz` {run['ready_s']:.2f} s after launch.",
    ]
    for label, times in startup_against.items():
        report += ["", f"Start-up of `{label}` (`--against`), median of {len(times)} runs after this tree's: "
                       f"**{statistics.median(times):.3f} s** (min {min(times):.3f})."]
    if run["log_errors"]:
        report += ["", f"Server log errors ({len(run['log_errors'])}): " + "; ".join(run["log_errors"][:5])]
    report += ["", "Missed targets: " + ("none." if not missed else "")]
    report += [f"- {m}" for m in missed]
    text = "\n".join(report)
    print("\n" + text)
    if args.write:
        write_section(args.write, text, "http_bench")
        print(f"\nwritten to {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
