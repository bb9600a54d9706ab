"""The Docker image beside the README's serve command, on this machine, in one run.

    docker build -t canasta-referee .          # or, without the registry (docs/image.md):
    docker build --build-arg PYTHON_IMAGE="$(bash scripts/local-base-image)" -t canasta-referee .
    .venv/bin/python bench/image_bench.py [--image canasta-referee] [--rounds 5] [--seconds 5] [--startup-runs 7]

Reports:

1. the image's size (``docker image inspect``: every layer, the base's included);
2. start-up: from ``docker run -d`` to the first ``200`` from ``/healthz`` (container made, gunicorn and its
   workers started, the variants loaded), the median of ``--startup-runs`` containers; beside it the
   README's serve command (``gunicorn -c gunicorn.conf.py app:app`` from this checkout) to its first
   ``/healthz``, as ``bench/http_bench.py`` times it;
3. server CPU per request: the rule-matrix rulings of ``bench/http_bench.py`` (and its score rounds) sent by its
   client (``wrk`` when it is on PATH, else its keep-alive Python client) to the container (its port published on loopback) and to the README's server,
   alternately, ``--rounds`` times for ``--seconds`` each; the CPU of each server's processes (the gunicorn
   master and workers; the container's are seen from the host's /proc) over the requests answered, the
   median of the rounds. Both run two workers (the image's WEB_CONCURRENCY and the config's default).
   ``--with-compiled`` adds a third side: this checkout's engine compiled (``scripts/compile-engine``) and served
   outside the container, to tell the compiled engine's share from the container's.

The load average is printed before and after: CPU per request moves little with other load on the machine;
requests/s and latency move a lot, so only CPU is compared. The container's access log goes through dockerd
(its json-file log driver), whose CPU is not counted. Containers and servers are stopped on exit.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import http_bench as hb  # noqa: E402 -- the same workloads, client and CPU accounting as the HTTP benchmark

LABELS = ("POST /v1/adjudicate", "POST /v1/score")


def docker(*args: str, timeout: float = 120) -> str:
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout, check=True).stdout


class Container:
    """``docker run -d -p 127.0.0.1:<free port>:8000 IMAGE``, timed to its first ``/healthz``."""

    def __init__(self, image: str):
        self.image = image
        self.port = hb.free_port()
        self.name = f"canasta-referee-bench-{os.getpid()}-{self.port}"
        self.ready_s = float("nan")
        self.pid = 0

    def __enter__(self) -> "Container":
        t0 = time.perf_counter()
        docker("run", "-d", "--name", self.name, "-p", f"127.0.0.1:{self.port}:8000", self.image)
        deadline = t0 + 60
        while time.perf_counter() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        self.ready_s = time.perf_counter() - t0
                        break
            except OSError:
                time.sleep(0.01)
        else:
            self.__exit__()
            raise RuntimeError(f"{self.image} did not answer /healthz within 60 s")
        self.pid = int(docker("inspect", "--format", "{{.State.Pid}}", self.name).strip())  # gunicorn's master
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc) -> None:
        subprocess.run(["docker", "rm", "-f", self.name], capture_output=True, timeout=120)


def one_run(url: str, pid: int, work: dict, seconds: float, connections: int, tmp: Path) -> dict:
    cpu0 = hb.tree_cpu_seconds(pid)
    if shutil.which("wrk"):
        res = hb.run_wrk(url, work, connections, seconds, 2, tmp)
    else:
        res = hb.run_python(url, work, connections, seconds, 200_000)
    res["server_cpu_us"] = (hb.tree_cpu_seconds(pid) - cpu0) / max(res["requests"], 1) * 1e6
    return res


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--image", default="canasta-referee")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--startup-runs", type=int, default=7)
    parser.add_argument("--with-compiled", action="store_true",
                        help="also serve this checkout's engine compiled, outside the container")
    args = parser.parse_args(argv)

    size = int(docker("image", "inspect", "--format", "{{.Size}}", args.image).strip())
    python = docker("run", "--rm", args.image, "python", "-c", "import platform; print(platform.python_version())")
    print(f"# {args.image}: {size / 1e6:,.0f} MB, Python {python.strip()} inside; {hb.machine()}")
    print(f"load average before: {os.getloadavg()}", flush=True)

    workloads = hb.build_workloads()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        sides = {"image": None, "README serve command": ROOT}
        if args.with_compiled:
            sides["compiled, outside"] = hb.compiled_copy(tmp)

        starts: dict[str, list[float]] = {side: [] for side in sides}
        for _ in range(args.startup_runs):  # alternately, one start of each
            with Container(args.image) as container:
                starts["image"].append(container.ready_s)
            for side, root in sides.items():
                if root is not None:
                    hb.SERVED["root"] = root
                    with hb.Server(None, None, None, None, tmp) as server:
                        starts[side].append(server.ready_s)
        print("start-up to the first /healthz, median (min-max) of", args.startup_runs)
        for side, times in starts.items():
            print(f"  {side:22s} {statistics.median(times):.2f} s ({min(times):.2f}-{max(times):.2f})")

        cpu: dict[tuple[str, str], list[float]] = {}
        servers = {}
        try:
            servers["image"] = Container(args.image).__enter__()
            for side, root in sides.items():
                if root is not None:
                    hb.SERVED["root"] = root
                    servers[side] = hb.Server(None, None, None, None, tmp).start()
            targets = {side: (s.url, s.pid if side == "image" else s.proc.pid) for side, s in servers.items()}
            for label in LABELS:  # warm-up: each worker imports the engine on its first requests
                for url, pid in targets.values():
                    one_run(url, pid, workloads[label], 2.0, args.connections, tmp)
            for rnd in range(args.rounds):
                order = list(targets) if rnd % 2 == 0 else list(reversed(targets))
                for label in LABELS:
                    for side in order:
                        res = one_run(*targets[side], workloads[label], args.seconds, args.connections, tmp)
                        errors = res["non_2xx"] + res["socket_errors"]
                        if errors:
                            raise RuntimeError(f"{side} {label}: {errors} errors")
                        cpu.setdefault((label, side), []).append(res["server_cpu_us"])
                        print(f"  [{rnd + 1}/{args.rounds}] {label:22s} {side:22s} "
                              f"{res['server_cpu_us']:6.0f} µs CPU/req  {res['rps']:6.0f} req/s", flush=True)
        finally:
            for side, server in servers.items():
                server.__exit__()
    print(f"load average after: {os.getloadavg()}")
    print("\n| endpoint | " + " | ".join(f"{side} µs CPU/req (min-max)" for side in sides) + " | image / README |")
    print("|---|" + "---:|" * (len(sides) + 1))
    for label in LABELS:
        cells = []
        for side in sides:
            values = cpu[(label, side)]
            cells.append(f"{statistics.median(values):,.0f} ({min(values):,.0f}-{max(values):,.0f})")
        ratio = statistics.median(cpu[(label, "image")]) / statistics.median(cpu[(label, "README serve command")])
        print(f"| `{label}` | " + " | ".join(cells) + f" | {ratio:.2f} |")
    print(json.dumps({"size_bytes": size, "startup_s": {k: statistics.median(v) for k, v in starts.items()},
                      "cpu_us": {f"{label} | {side}": statistics.median(v) for (label, side), v in cpu.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
