#!/usr/bin/env python3
"""Start-up, side by side: ``import app``, the first request after it, and the server's launch to its first answer.

    .venv/bin/python bench/startup_bench.py [--runs 9] [--against LABEL=REF|PATH ...] [--server] [--write BENCHMARKS.md]

Each run is a fresh interpreter at a tree's root that times ``import app`` (what ``bench/http_bench.py`` reports as
start-up: the variants loaded and every citation verified), then the first ``POST /v1/adjudicate`` (the README's
example, through the app's WSGI callable) and the second. Two ways, each tree's runs alternated with the others'
(``--against``: a git ref of this checkout, or a folder such as a compiled copy made by ``scripts/compile-engine``):

* *no bytecode*: ``PYTHONDONTWRITEBYTECODE=1`` in a tree without ``__pycache__``, as ``http_bench.py`` measures it:
  every module of the project compiled from its source at each start (a checkout's first start);
* *bytecode kept*: a private ``PYTHONPYCACHEPREFIX`` filled by one run first: every start after the first of the
  README's serve command, and the Docker image's (it compiles the bytecode at build time).

``--server`` also launches ``gunicorn -c gunicorn.conf.py app:app`` (the README's serve command) a few times per
tree and times the launch to the first ``/healthz`` answer and then the first ``POST /v1/adjudicate`` over HTTP: the
master loads the engine before it forks (``when_ready``), so what ``import app`` leaves to the first answer is paid
there. Figures are medians (min); CPU-bound and on a shared machine, so say the load (printed with them).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_bench import ROOT, Server, compiled_copy, exported, machine, write_section  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
EXAMPLE = {"variant": "no-pagat", "situation": {"discard_pile": ["3H", "7C", "JK", "9D"],
                                                "team": {"score": 1600, "melds": [["KH", "KS", "KD"]], "red_threes": 1},
                                                "player": {"hand": ["9H", "JK", "5C"]}},
           "action": {"type": "take_pile", "with": ["9H", "JK"]}}  # the README's example
RUN = f"""
import json, time
t = time.perf_counter()
import app
imported = time.perf_counter() - t
client = app.app.test_client()
body = {EXAMPLE!r}
times = []
for _ in range(2):
    t = time.perf_counter()
    status = client.post("/v1/adjudicate", json=body).status_code
    times.append(time.perf_counter() - t)
    assert status == 200, status
print(json.dumps([imported, times[0], times[1]]))
"""
MODES = ("no bytecode", "bytecode kept")


def one_run(root: Path, mode: str, cache: Path) -> list[float]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPYCACHEPREFIX", None)
    if mode == "bytecode kept":
        env.pop("PYTHONDONTWRITEBYTECODE")
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    out = subprocess.run([PYTHON, "-c", RUN], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"{root}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def server_run(root: Path, log_dir: Path) -> tuple[float, float]:
    """(seconds from launch to the first /healthz 200, ms of the first POST /v1/adjudicate after it)."""
    with Server(None, None, None, None, log_dir, root=root) as srv:
        request = urllib.request.Request(f"{srv.url}/v1/adjudicate", data=json.dumps(EXAMPLE).encode(),
                                         headers={"Content-Type": "application/json"})
        t = time.perf_counter()
        with urllib.request.urlopen(request, timeout=30) as resp:
            assert resp.status == 200
        return srv.ready_s, (time.perf_counter() - t) * 1e3


def trees(against: list[str], scratch: Path) -> dict[str, Path]:
    found = {"this tree": ROOT}
    for spec in against:
        label, _, where = spec.partition("=")
        path = Path(where)
        if where == "compiled":
            path = compiled_copy(scratch / label)
        elif not path.is_dir():
            path = exported(where)
            shutil.move(str(path), scratch / f"tree-{len(found)}")  # removed with the scratch folder
            path = scratch / f"tree-{len(found)}"
        found[label] = path
    for label, path in found.items():
        if any(path.glob("*/__pycache__")) or (path / "__pycache__").exists():
            print(f"note: {label} ({path}) has __pycache__: its 'no bytecode' runs read it", file=sys.stderr)
    return found


def median_min(values: list[float], scale: float, unit: str, digits: int) -> str:
    return f"{statistics.median(values) * scale:.{digits}f} {unit} (min {min(values) * scale:.{digits}f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--against", action="append", default=[],
                        help="LABEL=REF (a git ref), LABEL=PATH (a tree), or LABEL=compiled (this tree compiled)")
    parser.add_argument("--server", action="store_true", help="also launch gunicorn (3 times per tree)")
    parser.add_argument("--write", help="write the section into this Markdown file (BENCHMARKS.md)")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="startup_bench-"))
    try:
        roots = trees(args.against, scratch)
        load_before = os.getloadavg()
        results = {(label, mode): [] for label in roots for mode in MODES}
        caches = {label: scratch / f"pyc-{i}" for i, label in enumerate(roots)}
        for label, root in roots.items():
            one_run(root, "bytecode kept", caches[label])  # fills the bytecode cache, unmeasured
        for _ in range(args.runs):
            for mode in MODES:
                for label, root in roots.items():
                    results[label, mode].append(one_run(root, mode, caches[label]))
        served = {}
        if args.server:
            served = {label: [] for label in roots}
            for _ in range(3):
                for label, root in roots.items():
                    served[label].append(server_run(root, scratch))
        load_after = os.getloadavg()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    command = "python bench/startup_bench.py " + " ".join(sys.argv[1:])
    lines = [f"## Start-up ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})", "",
             f"- Command: `{command}`",
             f"- Machine: {machine()}; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after",
             f"- {args.runs} fresh interpreters per tree and way, alternated; medians (min). `import app`: the "
             "variants loaded and every citation verified; *first request*: `POST /v1/adjudicate` (the README's "
             "example) through the app's WSGI callable right after, in the same interpreter; *second*: the same again.",
             "", "| tree | bytecode | `import app` | first request | second request |", "|---|---|---:|---:|---:|"]
    for (label, mode), runs in results.items():
        lines.append(f"| {label} | {mode} | {median_min([r[0] for r in runs], 1, 's', 3)} | "
                     f"{median_min([r[1] for r in runs], 1e3, 'ms', 1)} | "
                     f"{median_min([r[2] for r in runs], 1e3, 'ms', 1)} |")
    if served:
        lines += ["", "The README's serve command (`gunicorn -c gunicorn.conf.py app:app`, no bytecode), 3 launches "
                      "per tree: launch to the first `/healthz` answer, then the first `POST /v1/adjudicate` over "
                      "HTTP.",
                  "",
                  "| tree | launch to `/healthz` | first request |", "|---|---:|---:|"]
        for label, runs in served.items():
            lines.append(f"| {label} | {median_min([r[0] for r in runs], 1, 's', 2)} | "
                         f"{median_min([r[1] / 1e3 for r in runs], 1e3, 'ms', 1)} |")
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_section(Path(args.write), text, "startup_bench")
        print(f"\nwritten to {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
