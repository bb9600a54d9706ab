"""The real server under abuse: slow clients, malformed framing, errors gunicorn answers itself.

Every test here starts the production server (``gunicorn -c gunicorn.conf.py app:app``, the
configured worker class: :mod:`web_api.workers`) on a free loopback port and talks to it with
raw sockets, because what is tested happens below the app: how the server schedules
connections, how it parses request heads and chunked bodies, what it writes when it refuses
a request. The app-level parts (no redirect built from ``Host``, ``no-store`` on every error)
are tested with Flask's test client too.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from adjudicator.answers.phrases import register_phrases
from adjudicator.words.render import words
from flask import Blueprint

from web_api import create_app
from web_api.problems import PROBLEM_BASE
from web_api.security import API_CSP

register_phrases()  # the web layer's texts are part of the catalogue, as in the app

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = "application/problem+json"
HEX32 = re.compile(r"[0-9a-f]{32}")
ADJUDICATE = {"variant": "sv-classic", "situation": {"player": {"hand": ["9H", "9S"]}}, "action": {"type": "draw"}}
POST_PATHS = ["/v1/adjudicate", "/v1/score", "/v1/compare"]
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "content-security-policy": API_CSP,
    "cache-control": "no-store",
}


# ----------------------------------------------------------------------------------------------
# The server and a raw HTTP/1.1 client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, port: int, log: Path, proc: subprocess.Popen):
        self.port, self.log, self.proc = port, log, proc

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def start_server(log: Path, *extra: str, env: dict | None = None) -> Server:
    """``gunicorn -c gunicorn.conf.py app:app`` on 127.0.0.1:<free port>, ready to answer."""
    port = free_port()
    full_env = {**os.environ, "PORT": str(port), **(env or {})}
    for name in ("PYTHONPATH", "WEB_CONCURRENCY", "CORS_ALLOWED_ORIGINS", "CANASTA_MAX_CONTENT_LENGTH"):
        if name not in (env or {}):
            full_env.pop(name, None)
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "-b", f"127.0.0.1:{port}",
                                 *extra, "app:app"], cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT)
    server = Server(port, log, proc)
    deadline = time.monotonic() + 120  # a loaded machine starts it slowly: a bound on a failed start, not a speed
    while True:
        try:
            status, _, _ = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", timeout=2)
            if status == 200:
                return server
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_server(server)
            pytest.fail("gunicorn did not start:\n" + log.read_text(errors="replace"), pytrace=False)
        time.sleep(0.2)


def stop_server(server: Server) -> None:
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGTERM)
        try:
            server.proc.wait(timeout=25)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The production configuration (two workers, the configured worker class)."""
    srv = start_server(tmp_path_factory.mktemp("gunicorn") / "out.log")
    yield srv
    stop_server(srv)


@pytest.fixture(scope="module")
def patient_server(tmp_path_factory):
    """The same with ``--timeout 120``: request bodies have 120 s to arrive (heads still ``keepalive``, 5 s)."""
    srv = start_server(tmp_path_factory.mktemp("gunicorn-patient") / "out.log", "--timeout", "120")
    yield srv
    stop_server(srv)


@pytest.fixture(scope="module")
def short_timeout_server(tmp_path_factory):
    """The same with ``--timeout 3``: request bodies must arrive within 3 s."""
    srv = start_server(tmp_path_factory.mktemp("gunicorn-short") / "out.log", "--timeout", "3")
    yield srv
    stop_server(srv)


def read_head(sock: socket.socket) -> tuple[int, dict[str, list[str]], bytes]:
    """A response's head from ``sock``: (status, {lower-case name: [values]}, the bytes read past it)."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"connection closed before a whole response head: {buf[:200]!r}")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, list[str]] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return int(lines[0].split()[1]), headers, rest


def read_response(sock: socket.socket) -> tuple[int, dict[str, list[str]], bytes]:
    """One HTTP/1.1 response from ``sock``: (status, {lower-case name: [values]}, body), read as fast as it comes
    (pieces gathered in a list: a client that copies its whole answer at each piece falls behind a large one)."""
    status, headers, rest = read_head(sock)
    pieces = [rest]
    length = int(headers["content-length"][0]) if "content-length" in headers else None
    got = len(rest)
    while length is None or got < length:  # without a length: to the end
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        pieces.append(chunk)
        got += len(chunk)
    body = b"".join(pieces)
    return status, headers, body if length is None else body[:length]


CLIENT_TIMEOUT = 60.0  # seconds a test's client waits for an answer: a bound on a hang, never a measure of speed


def exchange(port: int, data: bytes, *, shut_wr: bool = False, timeout: float = CLIENT_TIMEOUT):
    """Send raw bytes on a fresh connection and read one response."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        if shut_wr:
            sock.shutdown(socket.SHUT_WR)
        return read_response(sock)


def post_head(path: str, extra: str = "", content_type: str = "application/json") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: {content_type}\r\n{extra}").encode()


def assert_problem(status: int, headers: dict, body: bytes, expected: int, slug: str) -> dict:
    assert status == expected, (status, body[:300])
    assert headers["content-type"] == [PROBLEM], headers
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == [value], (name, headers.get(name))
    problem = json.loads(body)
    assert problem["type"] == PROBLEM_BASE + slug, problem
    assert problem["status"] == expected and problem["title"] and problem["detail"]
    assert headers["x-request-id"] == [problem["request_id"]]
    return problem


def assert_no_trace(server: Server) -> None:
    text = server.log_text()
    assert "Traceback" not in text, text[-3000:]
    assert "[ERROR]" not in text, text[-3000:]


def log_with(server: Server, *needles: str, timeout: float = 60) -> str:
    """The server's log once every one of ``needles`` is in it (a line may follow its answer: waited for, up to
    ``timeout`` s, a bound on a hang, not a speed)."""
    deadline = time.monotonic() + timeout
    while not all(n in (text := server.log_text()) for n in needles) and time.monotonic() < deadline:
        time.sleep(0.1)
    return text


def timed_get(port: int, path: str) -> tuple[int, float]:
    t0 = time.monotonic()
    status, _, _ = exchange(port, f"GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode())
    return status, time.monotonic() - t0


def timed_post(port: int, path: str, payload: dict) -> tuple[int, float]:
    body = json.dumps(payload).encode()
    t0 = time.monotonic()
    status, _, _ = exchange(port, post_head(path, f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n") + body)
    return status, time.monotonic() - t0


# ==============================================================================================
# 1. Slow clients


class Trickler(threading.Thread):
    """A client that sends ``head`` then ``tail`` one byte every ``interval`` s, and notes when the server hangs up."""

    def __init__(self, port: int, head: bytes, tail: bytes, interval: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=CLIENT_TIMEOUT)
        self.head, self.tail, self.interval, self.stop = head, tail, interval, stop
        self.sent = 0
        self.closed_after: float | None = None  # seconds after the start when the server closed the connection
        self.answer = b""
        self.started = time.monotonic()

    def run(self) -> None:
        try:
            self.sock.sendall(self.head)
            for byte in self.tail:
                if self.stop.wait(self.interval):
                    return
                readable, _, _ = select.select([self.sock], [], [], 0)
                if readable:
                    data = self.sock.recv(65536)
                    self.answer += data
                    if not data or b"\r\n\r\n" in self.answer:
                        self.closed_after = time.monotonic() - self.started
                        return
                self.sock.sendall(bytes([byte]))
                self.sent += 1
        except OSError:
            self.closed_after = time.monotonic() - self.started
        finally:
            if self.closed_after is None and not self.stop.is_set():
                self.closed_after = time.monotonic() - self.started

    def still_open(self) -> bool:
        """The server has neither answered nor closed this connection."""
        if self.closed_after is not None:
            return False
        readable, _, _ = select.select([self.sock], [], [], 0)
        return not readable

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def test_fifty_slow_clients_do_not_block_a_normal_request(patient_server):
    """25 clients trickle their request head, 25 their body, a byte every 0.5 s; others are still served meanwhile.

    Read as a real client would, whatever the machine's load: each normal request waits as long as a client
    waits (not a fixed 5 s), and what is asserted is the order of events -- every normal request answered while
    the body tricklers still held their connections, no head trickler cut before its own deadline (`keepalive`,
    5 s) -- not how long anything took. The bodies' deadline is 120 s here (30 s in production): the test's own
    steps on a loaded machine must never outlast it, or a body trickler cut at its deadline would count as one
    the server let go early."""
    server = patient_server
    stop = threading.Event()
    heads = [Trickler(server.port, b"GET /healthz HTTP/1.1\r\nHost: t\r\n", b"X-Slow: " + b"a" * 200, 0.5, stop)
             for _ in range(25)]
    bodies = [Trickler(server.port, post_head("/v1/adjudicate", "Content-Length: 200\r\n\r\n"), b" " * 200, 0.5, stop)
              for _ in range(25)]
    slow = heads + bodies
    try:
        for t in slow:
            t.start()
        deadline = time.monotonic() + 60
        while not all(t.sent >= 2 for t in slow) and time.monotonic() < deadline:  # accepted, a few bytes each
            time.sleep(0.1)
        assert all(t.sent >= 2 for t in slow), [t.sent for t in slow]
        timings = []
        for _ in range(3):
            timings.append(("GET /healthz",) + timed_get(server.port, "/healthz"))
            timings.append(("GET /v1/variants",) + timed_get(server.port, "/v1/variants"))
            timings.append(("POST /v1/adjudicate",) + timed_post(server.port, "/v1/adjudicate", ADJUDICATE))
        assert all(status == 200 for _, status, _ in timings), timings
        # ... while the server still held every body trickler's connection open, and cut no head trickler early
        assert sum(t.still_open() for t in bodies) == 25, [(t.sent, t.closed_after) for t in bodies]
        assert all(t.still_open() or (t.closed_after or 0) > 4.5 for t in heads), [t.closed_after for t in heads]

        # A request head has `keepalive` (5) s to arrive: the head tricklers are cut off; bodies have `timeout` (120) s.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(t.closed_after is None for t in heads):
            time.sleep(0.2)
        assert all(t.closed_after is not None for t in heads), [t.closed_after for t in heads]
        assert sum(t.still_open() for t in bodies) == 25
        status, _ = timed_get(server.port, "/healthz")
        assert status == 200
    finally:
        stop.set()
        for t in slow:
            t.close()
        for t in slow:
            t.join(timeout=5)
    assert_no_trace(server)


def test_a_body_that_does_not_arrive_in_time_is_a_408(short_timeout_server):
    """Headers then nothing, or a trickled body: the answer is a 408 problem once `timeout` (3 s here) runs out."""
    srv = short_timeout_server
    results: dict[str, tuple] = {}

    def waiter():
        t0 = time.monotonic()
        results["silent"] = exchange(srv.port, post_head("/v1/score", "Content-Length: 100\r\n\r\n")) + (
            time.monotonic() - t0,)

    def trickler():
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", srv.port), timeout=CLIENT_TIMEOUT) as sock:
            sock.sendall(post_head("/v1/adjudicate", "Transfer-Encoding: chunked\r\n\r\n"))
            try:
                for _ in range(20):
                    sock.sendall(b"1\r\n \r\n")
                    readable, _, _ = select.select([sock], [], [], 0.5)
                    if readable:
                        break
            except OSError:
                pass
            results["trickle"] = read_response(sock) + (time.monotonic() - t0,)

    threads = [threading.Thread(target=waiter), threading.Thread(target=trickler)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=2 * CLIENT_TIMEOUT)
    for name in ("silent", "trickle"):
        status, headers, body, seconds = results[name]
        problem = assert_problem(status, headers, body, 408, "request-timeout")
        assert seconds > 2.5, (name, seconds)  # not before the timeout (the client's read timeout bounds a hang)
        assert headers["connection"] == ["close"]
        late = words("detail.body_late", "en")
        assert problem["errors"] == [{"pointer": "", "detail": late}] and problem["detail"] == late
    assert_no_trace(srv)


# ==============================================================================================
# 2. Malformed chunked framing: a 400 problem, never a 500 with a traceback

FRAMINGS = {
    "chunk size not hex": b"zz\r\n{}\r\n0\r\n\r\n",
    "chunk size with junk": b"2x\r\n{}\r\n0\r\n\r\n",
    "negative chunk size": b"-2\r\n{}\r\n0\r\n\r\n",
    "chunk size line without end": b"1" * 10000,  # longer than limit_request_field_size (8190), no CRLF
    "chunk without its CRLF": b"2\r\n{}XX0\r\n\r\n",
    "bad chunk extension": b"2;\x01\r\n{}\r\n0\r\n\r\n",
    "chunk size with a space": b"2 0\r\n{}\r\n0\r\n\r\n",
    "malformed trailer": b"2\r\n{}\r\n0\r\nnot a trailer\r\n\r\n",
}


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("framing", list(FRAMINGS))
def test_malformed_chunked_body_is_a_400_problem(server, path, framing):
    head = post_head(path, "Transfer-Encoding: chunked\r\nX-Request-ID: chunk-test\r\n\r\n")
    status, headers, body = exchange(server.port, head + FRAMINGS[framing])
    problem = assert_problem(status, headers, body, 400, "malformed-request")
    assert problem["request_id"] == "chunk-test" and problem["instance"] == path
    assert problem["errors"][0]["pointer"] == ""
    assert headers["connection"] == ["close"]  # where a next request would start is unknown
    assert_no_trace(server)


@pytest.mark.parametrize("path", POST_PATHS)
def test_chunked_body_cut_short_is_a_400_problem(server, path):
    head = post_head(path, "Transfer-Encoding: chunked\r\n\r\n")
    status, headers, body = exchange(server.port, head + b"10\r\n{\"variant\":", shut_wr=True)
    assert_problem(status, headers, body, 400, "malformed-request")
    status, headers, body = exchange(server.port, post_head(path, "Content-Length: 50\r\n\r\n") + b"{}", shut_wr=True)
    assert_problem(status, headers, body, 400, "malformed-request")
    assert_no_trace(server)


def test_well_formed_chunked_body_is_still_read(server):
    payload = json.dumps(ADJUDICATE).encode()
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (payload[:10], payload[10:])) + b"0\r\n\r\n"
    status, _, body = exchange(server.port, post_head("/v1/adjudicate", "Transfer-Encoding: chunked\r\n\r\n") + chunks)
    assert status == 200, body[:300]
    assert json.loads(body)["variant"] == "sv-classic"


def test_malformed_body_the_app_did_not_read_gets_no_second_answer(server):
    """A 415 does not read the body; the server then finds the framing bad: it closes, without answering twice."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(post_head("/v1/score", "Transfer-Encoding: chunked\r\n\r\n", content_type="text/plain")
                     + FRAMINGS["chunk size not hex"])
        status, headers, body = read_response(sock)
        assert_problem(status, headers, body, 415, "unsupported-media-type")
        rest = b""
        while chunk := sock.recv(65536):
            rest += chunk
        assert rest == b""  # closed, no unsolicited response
    assert_no_trace(server)


# ==============================================================================================
# 3. Requests gunicorn refuses before the app: problems too

REFUSED = {
    "request line too long": (b"GET /v1/variants?q=" + b"a" * 5000 + b" HTTP/1.1\r\nHost: t\r\n\r\n",
                              414, "uri-too-long"),
    "too many header fields": (b"GET /healthz HTTP/1.1\r\nHost: t\r\n"
                               + b"".join(b"X-H%d: v\r\n" % i for i in range(120)) + b"\r\n",
                               431, "request-header-fields-too-large"),
    "header field too large": (b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n",
                               431, "request-header-fields-too-large"),
    "garbage request line": (b"GARBAGE\r\n\r\n", 400, "malformed-request"),
    "bad HTTP version": (b"GET /healthz HTTP/9.9\r\nHost: t\r\n\r\n", 400, "malformed-request"),
    "bad method": (b"G(T /healthz HTTP/1.1\r\nHost: t\r\n\r\n", 400, "malformed-request"),
    "bad header name": (b"GET /healthz HTTP/1.1\r\nHost: t\r\nBad Header: v\r\n\r\n", 400, "malformed-request"),
    "Content-Length and Transfer-Encoding": (
        b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        400, "malformed-request"),
    "Content-Length not a number": (b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n{}",
                                    400, "malformed-request"),
    "two different Content-Lengths": (
        b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        400, "malformed-request"),
    "unsupported transfer coding": (
        b"POST /v1/score HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: x-unheard-of, chunked\r\n\r\n0\r\n\r\n",
        501, "not-implemented"),
    "chunked is not the last transfer coding": (
        b"POST /v1/score HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n",
        400, "malformed-request"),
    "chunked twice": (
        b"POST /v1/score HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
        400, "malformed-request"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_requests_gunicorn_refuses_are_problems_with_the_security_headers(server, case):
    raw, status_code, slug = REFUSED[case]
    status, headers, body = exchange(server.port, raw)
    problem = assert_problem(status, headers, body, status_code, slug)
    assert HEX32.fullmatch(problem["request_id"])
    assert headers["connection"] == ["close"]
    assert int(headers["content-length"][0]) == len(body)
    text = body.decode()
    assert "<html" not in text.lower()
    for echoed in ("GARBAGE", "aaaaaaaa", "bbbbbbbb", "Bad Header", "G(T"):  # nothing of the request comes back
        assert echoed not in text, echoed
    log = server.log_text()
    assert f"rid={problem['request_id']}" in log  # the warning names the id the client got
    assert_no_trace(server)


def test_gunicorn_refusal_log_lines_do_not_quote_the_request(server):
    _, refused, _ = exchange(server.port, b"GET /x?secret-token-QQQ HTTP/9.9\r\nHost: t\r\n\r\n")
    _, chunked, _ = exchange(server.port, post_head("/v1/score", "Transfer-Encoding: chunked\r\n\r\n")
                             + b"SECRET-CHUNK\r\n")
    # both requests' lines are in the log (not a fixed 0.3 s later: the access line may follow the answer)
    log = log_with(server, *(f"rid={h['x-request-id'][0]}" for h in (refused, chunked)))
    assert "secret-token-QQQ" not in log and "SECRET-CHUNK" not in log
    assert "InvalidHTTPVersion" in log


# ==============================================================================================
# 4. No redirect is ever built from the Host header


@pytest.mark.parametrize("path", ["/web//x", "/web//app.js", "/v1//variants", "/v1/variants//sv-classic"])
def test_double_slashes_are_not_redirected_to_the_host_header(client, path):
    resp = client.get(path, headers={"Host": "evil.example"})
    assert not 300 <= resp.status_code < 400, (resp.status_code, resp.headers.get("Location"))
    assert "Location" not in resp.headers
    assert resp.status_code == 404 and resp.mimetype == PROBLEM
    assert resp.headers["Cache-Control"] == "no-store"


def test_a_redirect_made_by_routing_is_a_path_not_a_url_on_the_host_header():
    """A route with a trailing slash makes werkzeug redirect /x to /x/ with an absolute URL; it leaves as a path."""
    app = create_app({"TESTING": True})
    bp = Blueprint("slash", __name__)

    @bp.get("/v1/_slashy/")
    def slashy():
        return {"ok": True}

    app.register_blueprint(bp)
    resp = app.test_client().get("/v1/_slashy?a=1", headers={"Host": "evil.example"})
    assert resp.status_code == 308
    assert resp.headers["Location"] == "/v1/_slashy/?a=1"
    assert "evil" not in str(resp.headers)


def test_real_server_does_not_redirect_to_the_host_header(server):
    for path in (b"/web//x", b"/v1//variants", b"//healthz", b"//evil.example/web/x", b"/web/../web//x"):
        status, headers, _ = exchange(server.port, b"GET " + path + b" HTTP/1.1\r\nHost: evil.example\r\n"
                                      b"Connection: close\r\n\r\n")
        assert not 300 <= status < 400 and "location" not in headers, (path, status, headers.get("location"))


# ==============================================================================================
# 5. Every error is no-store, a refused CORS preflight included


def test_refused_preflight_is_no_store():
    client = create_app({"TESTING": True, "CORS_ALLOWED_ORIGINS": "https://referee.example.org"}).test_client()
    resp = client.options("/v1/score", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert resp.status_code == 403 and resp.mimetype == PROBLEM
    assert resp.headers["Cache-Control"] == "no-store"
    allowed = client.options("/v1/score", headers={"Origin": "https://referee.example.org",
                                                   "Access-Control-Request-Method": "POST"})
    assert allowed.status_code == 204 and "Cache-Control" not in allowed.headers  # Access-Control-Max-Age's job


def test_every_error_status_is_no_store():
    app = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 100})
    bp = Blueprint("errs", __name__)

    @bp.get("/v1/_teapot")
    def teapot():
        return {"short": "and stout"}, 418, {"Cache-Control": "public, max-age=60"}

    @bp.get("/_page_error")
    def page_error():
        return "gone", 410, {"Cache-Control": "no-cache"}

    @bp.get("/v1/_boom")
    def boom():
        raise RuntimeError("boom")

    app.register_blueprint(bp)
    client = app.test_client()
    responses = [
        client.get("/v1/_teapot"), client.get("/_page_error"), client.get("/v1/_boom"),
        client.get("/nope"), client.delete("/v1/variants"), client.get("/v1/variants/nope"),
        client.get("/v1/matrix?format=xml"), client.post("/v1/score", data=b"{", content_type="application/json"),
        client.post("/v1/score", data=b"x" * 200, content_type="application/json"),
        client.post("/v1/score", data=b"{}", content_type="text/plain"),
    ]
    assert [r.status_code for r in responses] == [418, 410, 500, 404, 405, 404, 400, 400, 413, 415]
    for resp in responses:
        assert resp.headers.getlist("Cache-Control") == ["no-store"], (resp.status_code, resp.headers)


# ==============================================================================================
# Compression over the wire: the bytes and Content-Length gunicorn sends


def test_gzip_over_the_real_server(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /openapi.yaml HTTP/1.1\r\nHost: t\r\n\r\n")
        plain_status, plain_headers, plain = read_response(sock)
        sock.sendall(b"GET /openapi.yaml HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\n\r\n")  # same connection
        status, headers, body = read_response(sock)
    assert plain_status == status == 200
    assert "content-encoding" not in plain_headers and headers["content-encoding"] == ["gzip"]
    assert int(headers["content-length"][0]) == len(body) < len(plain) / 3
    assert gzip.decompress(body) == plain == (ROOT / "openapi.yaml").read_bytes()
    assert "Accept-Encoding" in headers["vary"][0]


# ==============================================================================================
# Error amplification: a body full of faults gets a small, fast answer and leaves no memory behind

AMPLIFIERS = {
    # the issue's own: one list of 130,000 numbers where additions go (254 KiB)
    "a list far over its cap": {"variant": "sv-classic", "situation": {},
                                "action": {"type": "meld", "add": [1] * 130_000}},
    # every list within its cap, every card wrong: 48,400 faults the shape check finds
    "cards that are not strings": {"variant": "sv-classic",
                                   "situation": {"team": {"melds": [[1] * 110] * 110},
                                                 "opponents": {"melds": [[1] * 110] * 110}},
                                   "action": {"type": "meld", "melds": [[1] * 110] * 110, "add": [[1] * 110] * 110}},
    # strings that name no card: 36,300 faults the parser finds
    "codes that name no card": {"variant": "sv-classic",
                                "situation": {"team": {"melds": [["ZZ"] * 110] * 110},
                                              "opponents": {"melds": [["ZZ"] * 110] * 110}},
                                "action": {"type": "meld", "melds": [["ZZ"] * 110] * 110}},
}


def worker_pids(master: int) -> set[int]:
    """The worker processes of a gunicorn master, from /proc."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                out.add(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return out


@pytest.mark.parametrize("name", list(AMPLIFIERS))
def test_a_body_full_of_faults_is_answered_small(server, name):
    """At most 50 faults are worded, with the whole count; how fast, and the memory it leaves, is bench/budget_bench.py's."""
    body = json.dumps(AMPLIFIERS[name], separators=(",", ":")).encode()
    assert 20 * 1024 < len(body) <= 256 * 1024
    head = post_head("/v1/adjudicate", f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    status, headers, answer = exchange(server.port, head + body)
    problem = assert_problem(status, headers, answer, 422, "validation-failed" if name != "codes that name no card"
                             else "impossible-input")
    assert len(problem["errors"]) <= 50 and len(answer) < 16 * 1024
    if len(problem["errors"]) == 50:
        assert problem["error_count"] > 1000  # the whole count, though only 50 are listed


# ==============================================================================================
# A clean stop: SIGTERM ends every worker without a traceback (app.py freezes its objects out of
# the collector's reach; gunicorn.conf.py hands them back before a worker's interpreter ends)


def test_a_stopped_server_leaves_no_traceback_in_its_log(tmp_path):
    srv = start_server(tmp_path / "out.log")
    body = b'{"variant": "sv-classic", "situation": {}, "action": {"type": "draw"}}'
    head = post_head("/v1/adjudicate", f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    status, _, _ = exchange(srv.port, head + body)
    assert status == 200
    stop_server(srv)
    log = srv.log_text()
    assert "Worker exiting" in log and "Shutting down: Master" in log
    assert "Traceback" not in log and "Exception ignored" not in log, log


# ==============================================================================================
# Budgets (issue 24): no valid request takes a worker down; slow readers and crowds are bounded;
# a stop serves what waits in the backlog. Figures (latency, answer size, RSS) are bench/budget_bench.py's.


def post_raw(path: str, payload: dict, extra: str = "") -> bytes:
    body = json.dumps(payload, separators=(",", ":")).encode()
    return post_head(path, f"Content-Length: {len(body)}\r\n{extra}\r\n") + body


def read_chunked(sock: socket.socket, headers: dict, rest: bytes) -> bytes:
    """The body of a chunked answer whose head :func:`read_head` read (``rest`` is what followed it), read as fast
    as it comes: a client that falls behind is dropped by the server's write deadline, as a real one would be."""
    assert headers.get("transfer-encoding") == ["chunked"], headers
    pieces = [rest]
    tail = rest[-5:]
    while not tail.endswith(b"0\r\n\r\n"):
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        pieces.append(chunk)
        tail = (tail + chunk)[-5:]
    return unchunked(b"".join(pieces))


def unchunked(data: bytes) -> bytes:
    """The payload of a chunked body's bytes."""
    out, at = [], 0
    while True:
        end = data.index(b"\r\n", at)
        size = int(data[at:end], 16)
        if size == 0:
            return b"".join(out)
        out.append(data[end + 2:end + 2 + size])
        at = end + 2 + size + 2


@pytest.fixture(scope="module")
def one_worker_server(tmp_path_factory):
    """One worker, `timeout` 5 s, batches with a 6 s deadline and a budget for far more work than that, answers to
    be taken within 10 s (the service's own write deadline), 8 connections.

    The deadline is past the worker timeout on purpose: only the batch's turns keep the worker's
    heartbeat going. (It was 3 s and 4 s, and answers were to be taken within 1 s: a worker kept off the CPU for
    3 s by a loaded machine is killed by its master, and a test client kept off it for a second or two is dropped,
    neither of which says anything of the server. 1000 heavy items are about 17 s of work for a compiled engine on
    a quiet machine: the 6 s deadline leaves most of them late.)
    """
    srv = start_server(tmp_path_factory.mktemp("gunicorn-one") / "out.log", "-w", "1", "--timeout", "5",
                       "--worker-connections", "8",
                       env={"CANASTA_BATCH_DEADLINE": "6", "CANASTA_ANSWER_WRITE_TIMEOUT": "10",
                            "CANASTA_BATCH_BUDGET": str(10**7)})
    yield srv
    stop_server(srv)


def test_the_issues_heavy_batch_gets_a_problem_and_the_workers_live(server):
    from test_http_batch import heavy_item
    workers = worker_pids(server.proc.pid)
    payload = {"requests": [heavy_item()] * 1000}  # 1.2 MB: about a minute of work, 160 MB of answer
    status, headers, body = exchange(server.port, post_raw("/v1/adjudicate/batch", payload, "Connection: close\r\n"),
                                     timeout=60)
    problem = assert_problem(status, headers, body, 413, "batch-over-budget")
    assert 1 <= problem["max_items"] < 1000
    assert worker_pids(server.proc.pid) == workers
    assert "WORKER TIMEOUT" not in server.log_text()


def test_a_batch_past_its_deadline_is_answered_in_parts_while_the_worker_serves_others(one_worker_server):
    """The batch's client reads its answer all the time, as a real one does (in a thread of its own), while another
    connection asks /healthz: the server's write deadline (10 s a piece here) is never the client's doing."""
    from test_http_batch import heavy_item
    srv = one_worker_server
    workers = worker_pids(srv.proc.pid)
    payload = {"requests": [heavy_item()] * 1000}  # within this server's budget, far more than 6 s of work anywhere
    finished: dict[str, float] = {}
    answer: dict = {}
    with socket.create_connection(("127.0.0.1", srv.port), timeout=CLIENT_TIMEOUT) as sock:
        sock.sendall(post_raw("/v1/adjudicate/batch", payload, "Connection: close\r\n"))
        began = threading.Event()

        def read() -> None:
            answer["status"], answer["headers"], rest = read_head(sock)  # with the first piece of results
            began.set()
            answer["body"] = read_chunked(sock, answer["headers"], rest)
            finished["batch"] = time.monotonic()

        reader = threading.Thread(target=read)
        reader.start()
        assert began.wait(CLIENT_TIMEOUT)
        # the only worker is busy with the batch, yet another connection is served meanwhile
        assert timed_get(srv.port, "/healthz")[0] == 200
        finished["healthz"] = time.monotonic()
        reader.join(CLIENT_TIMEOUT)
    status, body = answer["status"], answer["body"]
    assert status == 200
    assert finished["healthz"] < finished["batch"]
    results = json.loads(body)["results"]
    assert len(results) == 1000
    done = [r for r in results if "ruling" in r]
    late = [r for r in results if "problem" in r]
    assert done and late and results[:len(done)] == done  # the finished ones first, in order
    assert all(r["problem"]["status"] == 503 and r["problem"]["type"] == PROBLEM_BASE + "batch-deadline" for r in late)
    assert worker_pids(srv.proc.pid) == workers
    assert "WORKER TIMEOUT" not in srv.log_text()
    assert_no_trace(srv)


def test_a_client_that_does_not_read_its_answer_is_dropped(one_worker_server):
    from test_http_batch import GOOD
    srv = one_worker_server
    request = post_raw("/v1/adjudicate/batch", {"requests": [GOOD] * 1000})  # an answer of about 6 MB
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(60)
        sock.connect(("127.0.0.1", srv.port))
        sock.sendall(request * 3)  # pipelined, and nothing read
        deadline = time.monotonic() + 120  # the 10 s write deadline, and a bound on a hang
        while "Dropped a client" not in srv.log_text() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert "Dropped a client that took none of its answer for 10 s" in srv.log_text()
        received = b""
        try:
            while chunk := sock.recv(1 << 20):
                received += chunk
        except ConnectionResetError:
            pass
    assert received.count(b"HTTP/1.1 200") <= 1 and len(received) < 3 * 6_000_000  # cut off, not served
    assert timed_get(srv.port, "/healthz")[0] == 200
    assert_no_trace(srv)


def test_a_stop_serves_the_connections_waiting_in_the_backlog(tmp_path):
    """The only worker is frozen while requests queue in the backlog; then SIGTERM: every one is answered."""
    srv = start_server(tmp_path / "out.log", "-w", "1")
    (worker,) = worker_pids(srv.proc.pid)
    socks = []
    try:
        os.kill(worker, signal.SIGSTOP)
        for _ in range(5):
            sock = socket.create_connection(("127.0.0.1", srv.port), timeout=CLIENT_TIMEOUT)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            socks.append(sock)
        srv.proc.send_signal(signal.SIGTERM)
        time.sleep(1.5)  # the master has closed its listening socket and told the worker to stop; the
        # worker's once-a-second check of whether to stop is due by the time it runs again
        os.kill(worker, signal.SIGCONT)
        statuses = [read_response(sock)[0] for sock in socks]
    finally:
        try:
            os.kill(worker, signal.SIGCONT)
        except ProcessLookupError:
            pass
        for sock in socks:
            sock.close()
        stop_server(srv)
    assert statuses == [200] * 5


# ==============================================================================================
# I-JSON and the language of every problem


def test_a_duplicate_member_name_is_a_400_pointing_at_it(client):
    body = (b'{"variant": "sv-classic", "situation": {"player": {"hand": ["9H"], "hand": ["KS"]}}, '
            b'"action": {"type": "draw"}}')
    resp = client.post("/v1/adjudicate", data=body, content_type="application/json")
    assert resp.status_code == 400 and resp.mimetype == PROBLEM
    problem = resp.get_json()
    assert problem["type"] == PROBLEM_BASE + "malformed-json"
    assert problem["errors"][0]["pointer"] == "/situation/player/hand"
    assert "/situation" not in problem["detail"]  # words for people; the pointer is for programs
    # a colon inside a string is not a member; names that differ are not duplicates
    ok = b'{"variant": "sv-classic", "situation": {"player": {"hand": ["9H"]}}, "action": {"type": "draw"}, "x:y": 1}'
    assert client.post("/v1/adjudicate", data=ok, content_type="application/json").status_code != 400
    nested = b'{"requests": [{"variant": "sv-classic", "variant": "no-pagat"}]}'
    resp = client.post("/v1/adjudicate/batch", data=nested, content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["errors"][0]["pointer"] == "/requests/0/variant"


@pytest.mark.parametrize("method,path", [("GET", "/nope"), ("GET", "/web/nope.js"), ("DELETE", "/"),
                                         ("POST", "/web/app.js"), ("GET", "/v1/nope")])
def test_every_translated_problem_says_its_language(client, method, path):
    resp = client.open(path, method=method, headers={"Accept-Language": "nb"})
    assert resp.status_code in (404, 405) and resp.mimetype == PROBLEM
    assert resp.headers["Content-Language"] == "nb"
    assert "Accept-Language" in resp.headers["Vary"]
    english = client.open(path, method=method)
    assert english.headers["Content-Language"] == "en" and english.get_json()["detail"] != resp.get_json()["detail"]


def test_work_for_a_client_that_has_gone_stops(one_worker_server):
    """The client sends a long batch and hangs up: the worker stops at its next write, not at the deadline."""
    from test_http_batch import heavy_item
    srv = one_worker_server
    before = srv.log_text().count('"POST /v1/adjudicate/batch')
    with socket.create_connection(("127.0.0.1", srv.port), timeout=CLIENT_TIMEOUT) as sock:
        sock.sendall(post_raw("/v1/adjudicate/batch", {"requests": [heavy_item()] * 300}))
        sock.recv(1)  # the first piece of the answer is on its way: the work has begun
    deadline = time.monotonic() + 60
    while srv.log_text().count('"POST /v1/adjudicate/batch') == before and time.monotonic() < deadline:
        time.sleep(0.2)
    stopped = re.findall(r"batch stopped after item (\d+) of 300", srv.log_text())
    assert stopped and int(stopped[-1]) < 50, stopped  # within a few pieces of the answer (about 160 KB an item)
    assert timed_get(srv.port, "/healthz")[0] == 200
    assert_no_trace(srv)


# ==============================================================================================
# Caches keyed by what requests choose are bounded


def test_the_meld_fits_of_a_stream_of_house_rules_go_with_their_requests(client):
    """Distinct house-rule meld settings: each request's variant copy works out its own meld fits, nothing of them
    stays with the loaded variant, and the answers stay right when asked again."""
    from adjudicator.options.hand import meld_fits
    from adjudicator.variants import load_all

    loaded = load_all()["sv-classic"]
    situation = {"players": 4, "first_round": False, "stock_count": 30, "discard_pile": ["6C", "8D", "9D"],
                 "team": {"score": 0, "melds": [], "red_threes": 0},
                 "opponents": {"score": 0, "melds": [], "red_threes": 0},
                 "player": {"hand": ["AH", "AS", "AD", "KC", "KH", "KS", "QH", "QS", "2C", "JK", "JK", "5H"],
                            "has_melded": False},
                 "turn": {"drew": "stock"}}
    fits_kept = sum(1 for (make, _) in loaded._worked_out if make is meld_fits)
    answers = {}
    for i in range(30):
        rules = {"meld.min_cards": 2 + i % 3, "meld.max_wilds": i // 3}
        resp = client.post("/v1/options", json={"variant": "sv-classic", "situation": situation, "house_rules": rules})
        assert resp.status_code == 200
        answers[i] = resp.get_json()
    assert sum(1 for (make, _) in loaded._worked_out if make is meld_fits) == fits_kept
    for i in (0, 7, 29):  # asked again: the same answers
        rules = {"meld.min_cards": 2 + i % 3, "meld.max_wilds": i // 3}
        again = client.post("/v1/options", json={"variant": "sv-classic", "situation": situation, "house_rules": rules})
        assert again.get_json() == answers[i]


# ==============================================================================================
# Issue 45, the smaller findings: a chunk longer than the body limit, invalid UTF-8, Content-Language once,
# ?words= on the options, a variants folder that cannot be loaded


@pytest.mark.parametrize("path,size,limit", [("/v1/adjudicate", 256 * 1024 + 1, 256 * 1024),
                                             ("/v1/adjudicate/batch", 4 * 1024 * 1024 + 1, 4 * 1024 * 1024),
                                             ("/v1/score", 2**40, 256 * 1024)])
def test_a_chunk_announcing_more_than_the_limit_is_refused_at_once(server, path, size, limit):
    """The chunk's size line alone says the body is too long: a 413 at once, not a 408 after the body's 30 s deadline
    (this client gives up after 20 s), the connection closed (where the next request would start is unknown)."""
    head = post_head(path, "Transfer-Encoding: chunked\r\n\r\n")
    status, headers, body = exchange(server.port, head + b"%x\r\n{" % size)  # a 408 would come at 30 s
    problem = assert_problem(status, headers, body, 413, "request-entity-too-large")
    assert headers["connection"] == ["close"] and f"{limit:,}" in problem["detail"]
    assert_no_trace(server)


def test_a_batch_may_come_in_chunks_longer_than_a_single_body(server):
    """A batch's limit is its own (4 MiB): one chunk longer than a single body's limit is read whole."""
    from test_http_batch import GOOD

    payload = json.dumps({"requests": [GOOD] * 700}).encode()
    assert 256 * 1024 < len(payload) < 4 * 1024 * 1024
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(payload), payload)
    status, _, body = exchange(server.port, post_head("/v1/adjudicate/batch", "Transfer-Encoding: chunked\r\n"
                                                      "Connection: close\r\n\r\n") + chunked, timeout=120)
    assert status == 200
    assert len(json.loads(read_chunked_body(body))["results"]) == 700


def read_chunked_body(data: bytes) -> bytes:
    out = b""
    while True:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            return out
        out, data = out + data[:size], data[size + 2:]


@pytest.mark.parametrize("lang", ["en", "sv", "nb", "da"])
def test_bytes_that_are_not_utf8_are_named_by_their_offset(client, lang):
    body = '{"variant": "sv-classic", "situation": {"note": "bl\u00e5b\u00e6r"}}'.encode("latin-1")
    resp = client.post(f"/v1/adjudicate?lang={lang}", data=body, content_type="application/json")
    assert resp.status_code == 400 and resp.mimetype == PROBLEM
    problem = resp.get_json()
    assert problem["type"] == PROBLEM_BASE + "malformed-json"
    assert f" {body.index(0xE5)} " in problem["detail"] and problem["errors"][0]["detail"] == problem["detail"]
    assert problem["detail"] != words("detail.surrogate", lang)
    # a lone surrogate escape is still worded as one: it is valid UTF-8, not a character
    escaped = client.post(f"/v1/adjudicate?lang={lang}", data=b'{"variant": "\\ud800"}', content_type="application/json")
    assert escaped.get_json()["detail"] == words("detail.surrogate", lang)


@pytest.mark.parametrize("method,path,body", [
    ("GET", "/nope", None), ("DELETE", "/v1/score", None), ("POST", "/v1/adjudicate", b"{"),
    ("POST", "/v1/adjudicate", b'{"variant": "nope", "situation": {}, "action": {"type": "draw"}}'),
    ("POST", "/v1/score", b" " * (256 * 1024 + 1)), ("GET", "/v1/matrix?format=xml", None),
    ("POST", "/v1/options?words=bogus", b"{}"),
])
def test_every_problem_says_its_language_once(client, method, path, body):
    resp = client.open(path, method=method, data=body, headers={"Accept-Language": "da", "Content-Type": "application/json"})
    assert resp.status_code >= 400 and resp.mimetype == PROBLEM
    assert resp.headers.getlist("Content-Language") == ["da"], resp.headers


def test_the_servers_own_problems_say_their_language_once(server):
    for raw, _, _ in (REFUSED["header field too large"], REFUSED["garbage request line"]):
        status, headers, _ = exchange(server.port, raw)
        assert status >= 400 and headers["content-language"] == ["en"]  # the worker's own words are English
    status, headers, _ = exchange(server.port, post_head("/v1/score", "Transfer-Encoding: chunked\r\n"
                                                        "Accept-Language: sv\r\n\r\n") + FRAMINGS["chunk size not hex"])
    assert status == 400 and headers["content-language"] == ["sv"]


def test_options_read_words_as_the_other_rulings_do(client):
    body = {"variant": "sv-classic", "situation": {"players": 4, "discard_pile": ["9D"], "turn": {"drew": None},
                                                   "player": {"hand": ["9H", "9S", "JK", "5C"]}}}
    resp = client.post("/v1/options?words=bogus", json=body)
    assert resp.status_code == 400 and resp.get_json()["parameter"] == "words"
    assert resp.get_json()["allowed"] == ["full", "none"]
    full = client.post("/v1/options", json=body).get_json()
    lean = client.post("/v1/options?words=none", json=body).get_json()
    rulings = [o["ruling"] for g in lean["groups"] for o in g["options"]]
    assert rulings and all("summary" not in r for r in rulings)
    assert [o["key"] for g in lean["groups"] for o in g["options"]] == \
        [o["key"] for g in full["groups"] for o in g["options"]]
    minimal = client.post("/v1/options", json=body, headers={"Prefer": "return=minimal"})
    assert minimal.headers["Preference-Applied"] == "return=minimal" and minimal.get_json() == lean


@pytest.mark.parametrize("what", ["missing", "fifo inside"])
def test_a_variants_folder_that_cannot_be_loaded_stops_the_start_in_one_line(tmp_path, what):
    """Not a traceback and not a hang (a FIFO named like a variant file is refused unopened): gunicorn's one line."""
    folder = tmp_path / "rules"
    if what == "fifo inside":
        folder.mkdir()
        os.mkfifo(folder / "x.yaml")
    env = {**os.environ, "CANASTA_VARIANTS_DIR": str(folder), "PORT": str(free_port())}
    env.pop("PYTHONPATH", None)
    ran = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:app"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode != 0
    assert "Traceback" not in ran.stderr and "Error: " in ran.stderr, ran.stderr
    assert str(folder) in ran.stderr
