"""What each use of a framework's private internals saves, in process: kept only where this shows a gain.

    .venv/bin/python bench/internals_bench.py [--rounds 15] [--seconds 0.5]

The service reaches past Flask's and werkzeug's public interface in three places, each to skip work whose
answer cannot change (issue 33 asks that each earn its place with a figure, and that a test pin the framework
behaviour it relies on: ``tests/test_framework_pins.py``):

* ``response`` -- :class:`web_api.response.ServiceResponse` hands werkzeug's header list (``Headers._list``)
  to the server as it is, instead of werkzeug's last copy of every header;
* ``security`` -- :func:`web_api.security._append` appends the four security headers, checked once, to
  ``Headers._list`` instead of through ``Headers.extend`` (which checks each again);
* ``body`` -- :func:`web_api.problems._plain_body` reads a plain request body straight from the server's
  stream and keeps it as werkzeug keeps a body it has read (``request._cached_data``).

Each is timed against the public way (the same request with that one shortcut replaced) over the
``POST /v1/adjudicate`` bodies of ``bench/http_bench.py``, through the app's WSGI callable, by CPU time
(``time.process_time``), alternating the two in short slices so both meet the same load: the median and
the best of ``--rounds`` slices of each, and the difference in µs per request.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests")]

from flask import Response  # noqa: E402
from werkzeug.test import EnvironBuilder  # noqa: E402

import http_bench  # noqa: E402
from web_api import create_app, problems, security  # noqa: E402


def public_append(headers, pairs) -> None:
    headers.extend(pairs)


def no_plain_body():
    return None


SHORTCUTS = {  # name -> (what to set, attribute, the public way)
    "response": ("app", "response_class", Response),
    "security": (security, "_append", public_append),
    "body": (problems, "_plain_body", no_plain_body),
}


def environs(bodies: list[bytes]) -> list[tuple[dict, bytes]]:
    out = []
    for body in bodies:
        environ = EnvironBuilder(path="/v1/adjudicate", method="POST", data=body, content_type="application/json",
                                 headers={"Accept": "application/json", "Host": "127.0.0.1"}).get_environ()
        out.append((environ, body))
    return out


def call(app, environ: dict, body: bytes) -> str:
    environ = dict(environ)
    environ["wsgi.input"] = io.BytesIO(body)
    status: list[str] = []
    result = app(environ, lambda s, h, exc=None: status.append(s))
    for _ in result:
        pass
    if hasattr(result, "close"):
        result.close()
    return status[0]


def slice_cpu(app, envs, seconds: float) -> float:
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for environ, body in envs:
            call(app, environ, body)
            done += 1
    return (time.process_time() - start) / done * 1e6


def micro(app, envs, repeat: int) -> dict[str, tuple[float, float]]:
    """Each shortcut's own step, timed alone against the public way (best of ``repeat`` runs, µs a call)."""
    import timeit  # noqa: PLC0415
    from werkzeug.datastructures import Headers  # noqa: PLC0415

    environ, body = envs[0]
    environ = dict(environ)
    with app.test_request_context(environ_overrides={**environ, "wsgi.input": io.BytesIO(body)}):
        sample = app.full_dispatch_request()  # a real answer: its status and its dozen headers
    fast_class, slow_class = app.response_class, Response
    data, headers, status = sample.get_data(), list(sample.headers.items()), sample.status_code

    def answer(cls):
        made = cls(data, status=status)
        made.headers = Headers(headers)
        return made

    made_fast, made_slow = answer(fast_class), answer(slow_class)
    pairs = security._API_NO_STORE

    def fresh_headers():
        return Headers([("Content-Type", "application/json"), ("Content-Length", "512")])

    def read(shortcut: bool) -> float:
        def once():
            with app.test_request_context(environ_overrides={**environ, "wsgi.input": io.BytesIO(body)}):
                if not shortcut:
                    problems._plain_body, kept = no_plain_body, problems._plain_body
                    try:
                        problems.json_body()
                    finally:
                        problems._plain_body = kept
                else:
                    problems.json_body()
        return once

    steps = {
        "response": (lambda: fast_class.get_wsgi_response(made_fast, environ),
                     lambda: slow_class.get_wsgi_response(made_slow, environ)),
        "security": (lambda: security._append(fresh_headers(), pairs), lambda: public_append(fresh_headers(), pairs)),
        "body": (read(True), read(False)),
    }
    out = {}
    for name, (fast, slow) in steps.items():
        f = min(min(timeit.repeat(fast, number=2000, repeat=3)) for _ in range(repeat)) / 2000 * 1e6
        s = min(min(timeit.repeat(slow, number=2000, repeat=3)) for _ in range(repeat)) / 2000 * 1e6
        out[name] = (f, s)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per slice")
    args = parser.parse_args()
    app = create_app()
    envs = environs(http_bench.build_workloads()["POST /v1/adjudicate"]["bodies"])
    for environ, body in envs:  # warm, and every answer a 200
        assert call(app, environ, body).startswith("200")
    gc.freeze()
    print(f"Each step alone, µs a call, best of {args.rounds} (load average {os.getloadavg()[0]:.1f}):")
    for name, (fast, slow) in micro(app, envs, args.rounds).items():
        print(f"{name:>9}: shortcut {fast:6.2f} | public way {slow:6.2f} | saves {slow - fast:+5.2f} µs")
    print(f"POST /v1/adjudicate, {len(envs)} bodies, CPU µs per request, {args.rounds} alternating slices of "
          f"{args.seconds} s each (load average {os.getloadavg()[0]:.1f}):")
    for name, (owner, attribute, public) in SHORTCUTS.items():
        target = app if owner == "app" else owner
        kept = getattr(target, attribute)
        with_it, without = [], []
        for _ in range(args.rounds):
            with_it.append(slice_cpu(app, envs, args.seconds))
            setattr(target, attribute, public)
            try:
                without.append(slice_cpu(app, envs, args.seconds))
            finally:
                setattr(target, attribute, kept)
        a, b = statistics.median(with_it), statistics.median(without)
        print(f"{name:>9}: shortcut median {a:7.1f} best {min(with_it):7.1f} | public way median {b:7.1f} best "
              f"{min(without):7.1f} | saves {b - a:+5.1f} µs median, {min(without) - min(with_it):+5.1f} best")


if __name__ == "__main__":
    main()
