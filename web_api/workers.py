"""The gunicorn worker class of the service: ``worker_class`` in gunicorn.conf.py.

:class:`ProblemGeventWorker` is gunicorn's gevent worker (one process per core; inside a
process every connection is a greenlet, so a slow client costs a greenlet and a socket, not
the process) with these additions:

* **Problems for the errors gunicorn answers itself.** A request gunicorn refuses before the
  app sees it -- a request line or header section that is malformed or too long (400, 414,
  431), framing headers it cannot honour (400, 501), an ``Expect`` it does not support (417)
  -- gets an RFC 9457 ``application/problem+json`` answer with the same security headers,
  ``Cache-Control: no-store`` and ``X-Request-ID`` as every answer of the app, instead of
  gunicorn's HTML page. The log line names the exception class, not the request's bytes.
* **A deadline for the request body.** gunicorn's gevent worker gives a request head
  ``keepalive`` seconds to arrive; nothing bounds the body. Here the whole body must arrive
  within ``timeout`` seconds (gunicorn.conf.py) of the head: each read waits at most for the
  time that is left, and the app answers a late body with a 408 problem
  (:func:`web_api.problems.json_body`). A client that trickles its body holds a greenlet for
  that long at most.
* **A body longer than the app reads, refused at once.** A chunked body whose chunk sizes announce more than
  the app's limit for the path (:func:`web_api.problems.body_limits`) is a 413 as soon as the chunk's size
  line is read, not after the body's deadline has waited for bytes that would be refused anyway.
* **Connection: close after a bad body.** When reading the body fails (malformed chunked
  framing, a timeout, a disconnect), where the next request on the connection would start is
  unknown: the answer says ``Connection: close`` and the connection is closed.
* **Turns.** After each request the greenlet waits until the event loop is idle, so the other
  connections of the worker whose requests have arrived go first. The work is CPU-bound and
  never waits on I/O, so without this a keep-alive client that sends its next request at once
  is served again and again while the others wait (p99 of seconds under load).
* **A deadline for writing the answer.** Each piece of an answer (:data:`WRITE_PIECE` bytes)
  must be taken by the client within :data:`ANSWER_WRITE_TIMEOUT` seconds: a client that stops
  reading is dropped once the socket buffers are full and that time has passed, and the
  greenlet, its answer and (for a streamed batch) its remaining work go with it. Between two
  pieces the worker's other connections take a turn.
* **A cap on connections.** A worker serves at most ``worker_connections`` connections at once
  (gunicorn.conf.py); one more gets a 503 problem with ``Retry-After`` and is closed, instead
  of waiting unseen in the listen backlog while slow clients hold every slot. :data:`SPARE_SLOTS`
  further greenlets are kept for writing those refusals.
* **Liveness probes over the cap.** A connection over the cap whose first bytes are ``GET /healthz``
  (or ``HEAD``) is served on one of the spare greenlets, once, and closed: a full cap of slow
  clients cannot make a liveness probe fail (Kubernetes would restart a healthy pod). The bytes are
  peeked at, not read, for at most :data:`PROBE_PEEK` seconds; any other request is refused at the
  first byte that differs.
* **Memory given back.** After each request, a worker whose resident memory has passed
  :data:`MAX_RSS` (env ``CANASTA_WORKER_MAX_RSS``, MiB; 0: never) stops accepting, finishes what
  it serves and exits; the master forks a fresh one from the preloaded app (as after
  ``max_requests``). A request is never cut short for it.
* **A stop that drains the backlog.** On SIGTERM the worker accepts what is already waiting in
  the listen backlog before it closes its listening socket, and serves it within
  ``graceful_timeout``: closing first would reset those connections.

Only gunicorn imports this module (through ``worker_class``); the app does not need it.
"""

from __future__ import annotations

import http
import os
import socket
import sys
import time
from datetime import datetime
from types import SimpleNamespace

import gevent
from gevent.server import StreamServer
from gunicorn import util
from gunicorn.http import errors as gerrors
from gunicorn.http.wsgi import default_environ
from gunicorn.workers import ggevent
from gunicorn.workers.ggevent import GeventWorker

from . import jsonio
from .problems import PROBLEM_MIMETYPE, BodyTooLarge, body_limits, problem_type
from .request_id import HEADER as REQUEST_ID_HEADER
from .request_id import new_request_id
from .security import NO_STORE, security_headers

# (exception classes, status, title, problem type slug, detail); the first match wins. The details
# never quote the request: what was wrong is named, not echoed.
_CLIENT_ERRORS: list[tuple[tuple[type[BaseException], ...], int, str, str, str]] = [
    ((gerrors.LimitRequestLine,), 414, "URI Too Long", "uri-too-long",
     "the request line is longer than this service accepts"),
    ((gerrors.LimitRequestHeaders,), 431, "Request Header Fields Too Large", "request-header-fields-too-large",
     "the request has too many header fields, or one of them is too large"),
    ((gerrors.UnsupportedTransferCoding,), 501, "Not Implemented", "not-implemented",
     "the request's Transfer-Encoding is not supported; send the body with Content-Length or chunked"),
    ((gerrors.ExpectationFailed,), 417, "Expectation Failed", "expectation-failed",
     "the request's Expect header asks for something this service does not do"),
    ((gerrors.ForbiddenProxyRequest,), 403, "Forbidden", "forbidden",
     "this peer may not send a PROXY protocol header"),
    ((gerrors.InvalidChunkSize, gerrors.ChunkMissingTerminator, gerrors.InvalidChunkExtension), 400,
     "Malformed request", "malformed-request", "the request body's chunked framing is malformed"),
    ((gerrors.InvalidRequestLine,), 400, "Malformed request", "malformed-request",
     "the request line is malformed"),
    ((gerrors.InvalidRequestMethod,), 400, "Malformed request", "malformed-request",
     "the request method is malformed"),
    ((gerrors.InvalidHTTPVersion,), 400, "Malformed request", "malformed-request",
     "the request's HTTP version is malformed or not supported"),
    ((gerrors.InvalidHeader, gerrors.InvalidHeaderName, gerrors.ObsoleteFolding), 400,
     "Malformed request", "malformed-request",
     "a request header is malformed, or the headers that frame the body contradict each other"),
    ((gerrors.InvalidProxyLine, gerrors.InvalidSchemeHeaders, gerrors.InvalidH2CPreface), 400,
     "Malformed request", "malformed-request", "the request is malformed"),
]
# The app tried to send a header gunicorn refuses: the app's fault, a 500 with a traceback in the log.
_SERVER_ERRORS = (gerrors.InvalidResponseHeader, gerrors.InvalidResponseHeaderName)
# Raised while draining the body of a request that was already answered (keep-alive): nobody asked.
_BODY_ERRORS = (gerrors.InvalidChunkSize, gerrors.ChunkMissingTerminator, gerrors.InvalidChunkExtension,
                gerrors.NoMoreData, TimeoutError, BodyTooLarge)

WRITE_TIMEOUT = 5.0  # seconds to hand an error answer to the socket
# Seconds a client may leave a piece of its answer untaken before it is dropped (env CANASTA_ANSWER_WRITE_TIMEOUT).
ANSWER_WRITE_TIMEOUT = float(os.environ.get("CANASTA_ANSWER_WRITE_TIMEOUT") or 10.0)
WRITE_PIECE = 64 * 1024  # the answer is written in pieces of this size, each with ANSWER_WRITE_TIMEOUT
SPARE_SLOTS = 64  # greenlets beyond worker_connections, for the 503s of connections over the cap
RETRY_AFTER = "1"  # seconds, on the 503 of a connection over the cap
REFUSAL_LINGER = 0.5  # seconds a refused connection is read and dropped before it is closed
PROBE_PEEK = 1.0  # seconds a connection over the cap has to show it is a liveness probe
PROBES = (b"GET /healthz ", b"GET /healthz?", b"HEAD /healthz ", b"HEAD /healthz?")  # served over the cap
# Resident memory, in MiB, past which a worker is replaced after the request it serves (0: never). Two
# workers idle at 40-80 MiB (about 30 of them shared with the master); a worker past this has kept what a
# large answer made it take. Set it so that the workers at this size and the master fit the pod's limit.
def _max_rss(raw: str | None) -> float:
    text = (raw or "").strip()
    if not text:
        return 128.0
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise ValueError(f"CANASTA_WORKER_MAX_RSS must be a number of MiB (0: never), not {raw!r}")
    return value


MAX_RSS = _max_rss(os.environ.get("CANASTA_WORKER_MAX_RSS"))
RSS_CHECK_SECONDS = 1.0  # once past the limit at its peak, the current RSS is read at most this often


def classify(exc: BaseException) -> tuple[int, str, str, str, bool]:
    """``(status, title, slug, detail, is_client_error)`` for an exception gunicorn's worker caught."""
    if not isinstance(exc, _SERVER_ERRORS):
        for classes, status, title, slug, detail in _CLIENT_ERRORS:
            if isinstance(exc, classes):
                return status, title, slug, detail, True
    return (500, "Internal Server Error", "internal-error",
            "the server failed to handle this request; the error has been logged", False)


def problem_answer(status: int, title: str, slug: str, detail: str, request_id: str,
                   instance: str | None = None) -> tuple[list[tuple[str, str]], bytes]:
    """The headers and body of a problem answer written by the worker itself (not by the app)."""
    body: dict = {"type": problem_type(slug), "title": title, "status": status, "detail": detail}
    if instance is not None:
        body["instance"] = instance
    body["request_id"] = request_id
    payload = jsonio.dumps(body)
    headers = [("Date", util.http_date()), ("Connection", "close"), ("Content-Type", PROBLEM_MIMETYPE),
               ("Content-Language", "en"),  # the worker's own words are English (the app's speak four languages)
               ("Content-Length", str(len(payload))), (REQUEST_ID_HEADER, request_id),
               *security_headers(page=False).items(), ("Cache-Control", NO_STORE)]
    return headers, payload


class _BodyReader:
    """Wraps gunicorn's body reader: a failed read marks the request ``Connection: close``."""

    __slots__ = ("_reader", "_req", "failed")

    def __init__(self, reader, req):
        self._reader, self._req = reader, req
        self.failed = False

    def read(self, size):
        try:
            return self._reader.read(size)
        except BaseException:
            self.failed = True
            self._req.must_close = True  # the answer says "Connection: close"
            raise


def _capped(parse_chunk_size, limit: int):
    """gunicorn's ``ChunkedReader.parse_chunk_size``, raising :class:`~web_api.problems.BodyTooLarge` once the
    chunks announced add up to more than ``limit`` bytes (before any byte of that chunk is waited for)."""
    announced = [0]

    def parse(*args, **kwargs):
        size, rest = parse_chunk_size(*args, **kwargs)
        announced[0] += size
        if announced[0] > limit:
            raise BodyTooLarge(f"the chunks announce more than {limit} bytes")
        return size, rest

    return parse


def _with_deadline(chunk, sock, deadline: float):
    """``unreader.chunk`` (one ``recv``) that waits at most until ``deadline`` (``time.monotonic()``).

    Bounding each read would not do: a client that sends a byte now and then would never
    let one time out. Every read waits only for the time that is left of the whole body's.
    """

    def read_chunk(*args, **kwargs):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the request body did not arrive in time")
        prior = sock.gettimeout()
        sock.settimeout(remaining)
        try:
            return chunk(*args, **kwargs)
        finally:
            sock.settimeout(prior)

    return read_chunk


class _WriteDeadline:
    """The connection as gunicorn's response writer sees it: each piece of the answer has a deadline.

    gunicorn writes an answer with ``sock.sendall`` and no timeout, so a client that never reads
    held its greenlet and its answer for ever. Here every :data:`WRITE_PIECE` bytes must leave
    within :data:`ANSWER_WRITE_TIMEOUT` seconds (gevent's ``sendall`` bounds the whole call), so a
    slow but reading client still gets a large answer, and one that stopped reading is dropped.
    Everything else is the socket's own.
    """

    __slots__ = ("_sock", "timed_out")

    def __init__(self, sock):
        self._sock = sock
        self.timed_out = False

    def sendall(self, data, flags=0):
        view = memoryview(data)
        prior = self._sock.gettimeout()
        self._sock.settimeout(ANSWER_WRITE_TIMEOUT)
        try:
            for start in range(0, len(view), WRITE_PIECE):
                if start:
                    # a client that reads fast never makes a send wait, so a long answer would be written without a
                    # turn of the event loop: the worker's other connections (its /healthz) go between pieces
                    gevent.sleep(0)
                self._sock.sendall(view[start:start + WRITE_PIECE], flags)
        except TimeoutError:
            self.timed_out = True
            raise
        finally:
            self._sock.settimeout(prior)

    def __getattr__(self, name):
        return getattr(self._sock, name)


class _DrainingServer(StreamServer):
    """gevent's server; closing it first accepts the connections already waiting in the listen backlog.

    The kernel completes connections into the backlog whether or not a worker accepts them; when
    the last process holding the listening socket closes it, those connections are reset, their
    requests lost although nothing told the client to go elsewhere. Accepted here, they are served
    like any other within ``graceful_timeout``.
    """

    def close(self):
        if not self.closed:
            try:
                while not self.full():
                    accepted = self.do_read()  # None when the backlog is empty (the socket does not block)
                    if not accepted:
                        break
                    self.do_handle(*accepted)
            except OSError:
                pass
        super().close()


class _Listener:
    """A listening socket whose address outlives it: connections drained at a stop are served after it closed."""

    __slots__ = ("_sock", "_name")

    def __init__(self, sock, name):
        self._sock, self._name = sock, name

    def getsockname(self):
        return self._name

    def __getattr__(self, name):
        return getattr(self._sock, name)


def _refuse(client, request_id: str) -> None:
    """Write a 503 problem to a connection over the cap and close it: a second at most."""
    detail = "this server is serving as many connections as it can; try again in a moment"
    headers, payload = problem_answer(503, "Service Unavailable", "service-unavailable", detail, request_id)
    headers.append(("Retry-After", RETRY_AFTER))
    head = "HTTP/1.1 503 Service Unavailable\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    try:
        client.settimeout(WRITE_TIMEOUT)
        client.sendall(head.encode("latin-1") + payload)
    except OSError:
        util.close(client)
        return
    # What the client sends meanwhile, unread, would make the close a reset that can destroy the
    # answer in flight: FIN first, then read and drop briefly (RFC 9112 section 9.6).
    util.close_graceful(client, timeout=REFUSAL_LINGER)


def asks_for_health(client, wait: float = PROBE_PEEK) -> bool:
    """Whether the connection's first bytes are a liveness probe's request line (peeked at, left unread).

    Decided at the first byte that differs from every probe, or when the longest needed has arrived;
    a client that sends nothing (or trickles) for ``wait`` seconds is not a probe."""
    deadline = time.monotonic() + wait
    prior = client.gettimeout()
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                client.settimeout(remaining)
                seen = client.recv(16, socket.MSG_PEEK)
            except OSError:
                return False
            if not seen:
                return False  # closed
            if any(seen.startswith(p) for p in PROBES):
                return True
            if not any(p.startswith(seen) for p in PROBES):
                return False
            gevent.sleep(0.01)  # a prefix of a probe: wait for more of it
    finally:
        try:
            client.settimeout(prior)
        except OSError:
            pass


def rss_mib() -> float:
    """This process's resident memory now, in MiB (its peak where /proc is missing)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return peak_rss_mib()


def peak_rss_mib() -> float:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB elsewhere


class ProblemGeventWorker(GeventWorker):
    """gunicorn's gevent worker; its own errors are problems; bodies and answers have deadlines; connections a cap."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_connections = self.worker_connections  # served at once; one more gets a 503
        self.worker_connections += SPARE_SLOTS  # gevent's pool: room to write those 503s
        self.open_connections = 0
        self.probes: set[int] = set()  # ids of the connections over the cap served as liveness probes
        self.max_rss = MAX_RSS
        self.next_rss_check = 0.0

    def body_limit(self, path: str) -> int | None:
        """The longest body the app reads on ``path`` (None: no limit known, the app is not the service's)."""
        limits = getattr(self, "_body_limits", None)
        if limits is None:
            app = self.wsgi
            limits = self._body_limits = body_limits(app) if hasattr(app, "url_map") else (None, {})
        default, own = limits
        return own.get(path, default)

    def run(self):
        self.listener_names = {id(s): s.getsockname() for s in self.sockets}
        ggevent.StreamServer = _DrainingServer  # the server GeventWorker.run builds (this process only)
        super().run()

    def handle(self, listener, client, addr):
        probe = False
        if self.open_connections >= self.max_connections:
            if not asks_for_health(client):
                self.log.warning("Refused a connection from ip=%s: %d connections open (503)",
                                 (addr or ("",))[0], self.open_connections)
                _refuse(client, new_request_id())
                return
            probe = True  # a liveness probe: answered on a spare greenlet, then closed
            self.probes.add(id(client))
        self.open_connections += 1
        try:
            super().handle(_Listener(listener, self.listener_names[id(listener)]), client, addr)
        finally:
            self.open_connections -= 1
            if probe:
                self.probes.discard(id(client))

    def check_memory(self) -> None:
        """After a request: past :data:`MAX_RSS`, stop accepting and exit once the requests in progress are
        answered (gunicorn's run loop sees ``alive`` within a second); the master starts a fresh worker."""
        if not self.max_rss or not self.alive or peak_rss_mib() < self.max_rss:
            return  # the peak (one system call) says the current size cannot be over
        now = time.monotonic()
        if now < self.next_rss_check:
            return
        self.next_rss_check = now + RSS_CHECK_SECONDS
        rss = rss_mib()
        if rss > self.max_rss:
            self.log.warning("Worker %s holds %.0f MiB, over its limit of %.0f MiB (CANASTA_WORKER_MAX_RSS): "
                             "replacing it once its requests are answered", self.pid, rss, self.max_rss)
            self.alive = False

    def handle_request(self, listener_name, req, sock, addr):
        body = getattr(req, "body", None)
        reader = None
        if body is not None and hasattr(body, "reader") and not isinstance(body.reader, _BodyReader):
            limit = self.body_limit(req.path) if hasattr(body.reader, "parse_chunk_size") else None
            if limit is not None:  # chunked: the chunks may not announce more than the app reads
                body.reader.parse_chunk_size = _capped(body.reader.parse_chunk_size, limit)
            reader = body.reader = _BodyReader(body.reader, req)
        unreader = getattr(req, "unreader", None)  # the connection's: shared with the requests that follow
        bounded = bool(self.cfg.timeout) and hasattr(unreader, "chunk") and hasattr(unreader, "sock")
        if bounded:
            unreader.chunk = _with_deadline(unreader.chunk, unreader.sock, time.monotonic() + self.cfg.timeout)
        writer = _WriteDeadline(sock)
        if id(sock) in self.probes:
            req.must_close = True  # a probe over the cap gets one answer, and its slot back
        try:
            return super().handle_request(listener_name, req, writer, addr)
        except TimeoutError:
            if not writer.timed_out:
                raise
            self.log.warning("Dropped a client that took none of its answer for %.0f s: ip=%s %s %s",
                             ANSWER_WRITE_TIMEOUT, (addr or ("",))[0], req.method, req.path)
            util.close(sock)
            raise StopIteration() from None
        except StopIteration:
            if reader is not None and reader.failed:
                # The client may still be sending the body we gave up on: close the way RFC 9112
                # section 9.6 says (FIN, then read and drop for a moment), so that the kernel does
                # not answer its next bytes with a reset that could destroy our answer in flight.
                util.close_graceful(sock, timeout=1.0)
            raise
        finally:
            if bounded:
                del unreader.chunk  # back to the class's method for the next request on the connection
            self.check_memory()
            # Fairness. The work is CPU-bound and a request never waits on I/O once its body is in,
            # so without this a greenlet whose client sends its next request at once (keep-alive)
            # would serve that client again and again while the other connections of this worker
            # wait: with 16 busy keep-alive connections the p99 went to 1-3 s. Waiting until the
            # event loop is idle lets every connection whose request has arrived go first, so the
            # connections of a worker are served in turn (gevent.sleep(0), which only lets queued
            # callbacks run, left a p99 of 67 ms on /v1/compare where this gives 20 ms: notes/infra.md).
            gevent.idle()

    def handle_error(self, req, client, addr, exc):
        addr = addr or ("", -1)  # unix socket
        if req is None and isinstance(exc, _BODY_ERRORS):
            # Draining the unread body of a request that was already answered failed: there is
            # no request to answer, so the connection just closes.
            self.log.debug("Closing the connection: the previous request's body is malformed (%s)",
                           type(exc).__name__)
            return
        started = datetime.now()
        request_id = new_request_id()
        status, title, slug, detail, client_error = classify(exc)
        if client_error:
            self.log.warning("Invalid request from ip=%s: %s (%d) rid=%s", addr[0], type(exc).__name__, status,
                             request_id)
        else:
            self.log.exception("Error handling request (rid=%s)", request_id)
        if req is None and hasattr(exc, "req"):
            req = exc.req  # InvalidHeader carries the request whose head it broke, for the access log
        instance = getattr(req, "path", None) if req is not None else None
        headers, payload = problem_answer(status, title, slug, detail, request_id, instance)
        reason = http.HTTPStatus(status).phrase
        if req is not None and getattr(req, "method", None) and getattr(req, "version", None):
            environ = default_environ(req, client, self.cfg)
            environ["REMOTE_ADDR"] = addr[0]
            environ["REMOTE_PORT"] = str(addr[1])
            resp = SimpleNamespace(status=f"{status} {reason}", headers=headers, sent=len(payload))
            try:
                self.log.access(resp, req, environ, datetime.now() - started)
            except Exception:  # noqa: BLE001 -- the log line is not worth failing the answer for
                self.log.debug("Failed to write the access log line for an error answer")
        head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
        try:
            client.settimeout(WRITE_TIMEOUT)
            client.sendall(head.encode("latin-1") + payload)
        except Exception:  # noqa: BLE001 -- the client is gone or not reading
            self.log.debug("Failed to send error message.")
            return
        # Unread request bytes (the rest of an over-long head, say) would make the kernel answer
        # with a reset that can destroy the answer in flight: FIN first, then read and drop briefly.
        util.close_graceful(client, timeout=1.0)
