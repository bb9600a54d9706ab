"""The production server keeps its workers answerable and their memory given back (issue 36, items 5 and 6).

Each test starts ``gunicorn -c gunicorn.conf.py app:app`` (helpers of ``tests/test_hardening.py``) and
asserts on behaviour -- which worker answers, what status a probe gets -- never on times or sizes.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import time

import pytest

from test_hardening import (HEX32, assert_no_trace, assert_problem, exchange, read_response, start_server, stop_server,
                            worker_pids)

HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"


def _healthy(port: int) -> int:
    return exchange(port, HEALTHZ)[0]


def test_a_worker_past_its_memory_limit_is_replaced_after_its_request(tmp_path):
    """CANASTA_WORKER_MAX_RSS=1: every worker is past it after its first request, which is still answered."""
    srv = start_server(tmp_path / "out.log", "-w", "1", env={"CANASTA_WORKER_MAX_RSS": "1"})
    try:
        first = worker_pids(srv.proc.pid)
        assert len(first) == 1
        status, _, body = exchange(srv.port, b"GET /v1/variants HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        assert status == 200 and b"sv-classic" in body  # answered in full before the worker goes
        deadline = time.monotonic() + 120  # bounds on a hang, not speeds: a loaded machine starts a worker slowly
        while worker_pids(srv.proc.pid) in (first, set()) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert worker_pids(srv.proc.pid) - first, "the worker past its limit was not replaced"
        assert "over its limit of 1 MiB (CANASTA_WORKER_MAX_RSS)" in srv.log_text()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # the fresh worker serves
            try:
                if _healthy(srv.port) == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            pytest.fail("no worker answered after the replacement")
        assert_no_trace(srv)
    finally:
        stop_server(srv)


def test_a_worker_under_its_memory_limit_stays(tmp_path):
    srv = start_server(tmp_path / "out.log", "-w", "1", env={"CANASTA_WORKER_MAX_RSS": "100000"})
    try:
        first = worker_pids(srv.proc.pid)
        for _ in range(5):
            assert _healthy(srv.port) == 200
        assert worker_pids(srv.proc.pid) == first and "CANASTA_WORKER_MAX_RSS" not in srv.log_text()
    finally:
        stop_server(srv)


def test_a_bad_memory_limit_stops_the_start(monkeypatch):
    from web_api import workers

    with pytest.raises(ValueError, match="CANASTA_WORKER_MAX_RSS"):
        workers._max_rss("lots")
    with pytest.raises(ValueError):
        workers._max_rss("-5")
    assert workers._max_rss("") == 128 and workers._max_rss("0") == 0 and workers._max_rss(" 200 ") == 200


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    """One worker serving at most 8 connections at once (a body's deadline: 30 s)."""
    srv = start_server(tmp_path_factory.mktemp("gunicorn-capped") / "out.log", "-w", "1",
                       "--worker-connections", "8")
    yield srv
    stop_server(srv)


class _Full:
    """The cap filled by slow clients: each has sent a request's head announcing a body that does not come.

    Such a connection is held until the body's deadline (``timeout``, 30 s), not the head's (``keepalive``, 5 s):
    on a loaded machine the test's own steps may take longer than 5 s, and a client cut off meanwhile would leave a
    slot free that the test counts as taken. The server takes the connections as it gets to them, and frees an
    earlier test's as it sees them close: so each of these is checked to be held (not answered), and the cap to
    be full (a request that is not a liveness probe is refused), before the test goes on."""

    HEAD = (b"POST /v1/adjudicate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000\r\n\r\n")

    def __init__(self, port: int, count: int):
        self.port, self.count, self.socks = port, count, []

    def __enter__(self):
        deadline = time.monotonic() + 60
        while True:
            for sock in [s for s in self.socks if _answered(s)]:  # refused over the cap: not one of ours
                sock.close()
                self.socks.remove(sock)
            while len(self.socks) < self.count:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
                sock.sendall(self.HEAD + b"{")  # the body's first byte, and then nothing
                self.socks.append(sock)
            time.sleep(0.3)
            if not any(_answered(s) for s in self.socks):
                self.refused = exchange(self.port, b"GET /v1/variants HTTP/1.1\r\nHost: t\r\n\r\n")
                if self.refused[0] == 503 and not any(_answered(s) for s in self.socks):
                    return self
            assert time.monotonic() < deadline, "the cap could not be filled"

    def __exit__(self, *exc):
        for sock in self.socks:
            sock.close()


def _answered(sock: socket.socket) -> bool:
    """Whether the server has written to (or closed) a connection."""
    return bool(select.select([sock], [], [], 0)[0])


def test_connections_over_the_cap_get_a_503_at_once(capped):
    # the cap (--worker-connections 8) held by slow clients: one more is refused at once. Not /healthz: a liveness
    # probe is answered over the cap (below).
    with _Full(capped.port, 8) as full:
        status, headers, body = full.refused
        problem = assert_problem(status, headers, body, 503, "service-unavailable")
        assert headers["retry-after"] == ["1"] and headers["connection"] == ["close"]
        assert HEX32.fullmatch(problem["request_id"])
    deadline = time.monotonic() + 60
    while _healthy(capped.port) != 200 and time.monotonic() < deadline:  # the slots free as the slow ones close
        time.sleep(0.2)
    assert _healthy(capped.port) == 200
    assert_no_trace(capped)


def _sent_whole(srv, data: bytes):
    """``exchange``, with the request's bytes all there before the only worker looks at the connection: the worker
    is stopped (SIGSTOP) while the client connects and sends. Over the cap a connection has ``PROBE_PEEK`` (1 s) to
    show it is a liveness probe: a client kept off the CPU between its connect and its send by a loaded machine
    would be refused as not one, which says nothing of the server."""
    (worker,) = worker_pids(srv.proc.pid)
    os.kill(worker, signal.SIGSTOP)
    try:
        sock = socket.create_connection(("127.0.0.1", srv.port), timeout=60)
        sock.sendall(data)
    finally:
        os.kill(worker, signal.SIGCONT)
    with sock:
        return read_response(sock)


def test_a_liveness_probe_is_answered_while_slow_clients_fill_the_cap(capped):
    with _Full(capped.port, 8):
        for _ in range(5):
            status, headers, body = _sent_whole(capped, b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            assert status == 200 and b'"status":"ok"' in body
            assert headers["connection"] == ["close"]  # one answer, then its spare slot is free again
        head = _sent_whole(capped, b"HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        assert head[0] == 200
        # anything else over the cap is still refused at once
        status, headers, _ = exchange(capped.port, b"GET /v1/variants HTTP/1.1\r\nHost: t\r\n\r\n")
        assert status == 503 and headers["retry-after"] == ["1"]
    assert_no_trace(capped)


def test_a_slow_client_over_the_cap_cannot_pass_for_a_probe(capped):
    with _Full(capped.port, 8):
        with socket.create_connection(("127.0.0.1", capped.port), timeout=10) as sock:
            sock.sendall(b"GET /heal")  # a probe's start, and then nothing: refused after the peek's wait
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        assert data.startswith(b"HTTP/1.1 503")
    assert_no_trace(capped)


def test_healthz_on_the_same_worker_is_answered_while_a_long_request_works(tmp_path):
    """One worker, a budget large enough to admit a comparison of about a second: its work gives way every 20 ms,
    so /healthz is answered while the comparison is worked out -- before the first byte of its answer.

    Both requests are sent while the worker is stopped (SIGSTOP), so both wait in its backlog when it goes on: which
    is answered first is then the worker's doing alone, not how soon this client got to send the probe. (A probe sent
    50 ms after the comparison raced its work: a compiled engine does it in a fraction of a second, and a loaded
    machine may keep the test from sending for longer than that.)"""
    import json

    from test_budgets import ISSUE_COMPARE

    srv = start_server(tmp_path / "out.log", "-w", "1", env={"CANASTA_REQUEST_BUDGET": str(10**9)})
    try:
        (worker,) = worker_pids(srv.proc.pid)
        body = json.dumps(ISSUE_COMPARE).encode()
        head = (f"POST /v1/compare?limit=50&group=meld HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        os.kill(worker, signal.SIGSTOP)
        try:  # both wait in the backlog, the comparison first
            heavy = socket.create_connection(("127.0.0.1", srv.port), timeout=300)
            heavy.sendall(head + body)
            probe = socket.create_connection(("127.0.0.1", srv.port), timeout=300)
            probe.sendall(HEALTHZ)
        finally:
            os.kill(worker, signal.SIGCONT)
        with heavy, probe:
            status, _, answer = read_response(probe)
            assert status == 200 and b'"status":"ok"' in answer
            assert not _answered(heavy), "the probe waited for the comparison's work to finish"
            first = heavy.recv(65536)  # the answer's head: its work is done
            assert first.split(b" ", 2)[1] == b"200", first[:300]
            while heavy.recv(1 << 20):
                pass
        assert "WORKER TIMEOUT" not in srv.log_text()
        assert_no_trace(srv)
    finally:
        stop_server(srv)
