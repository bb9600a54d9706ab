"""Admission of heavy work: a worker takes a few long requests at a time; the rest wait a little, or are shed.

A worker process runs one request's CPU at a time; the long ones (an options page, a comparison, a
replay, a batch) give way to its other connections every 20 ms (:mod:`web_api.budgets`). But forty of
them at once on one worker take turns of 20 ms each, so a liveness probe waited for all of them, round
after round: ``/healthz`` went unanswered for up to 18 s under a burst of forty (issue 45). So heavy work
is **admitted** per worker, at most ``HEAVY_SLOTS`` requests at once (env ``CANASTA_HEAVY_SLOTS``,
default :data:`DEFAULT_SLOTS`); ``/healthz``, the pages and the light requests -- a ruling, a score --
never wait here and take their turn between at most that many.

* **What is heavy.** A request priced (:mod:`adjudicator.cost`) at :data:`HEAVY_UNITS` units or more --
  tens of milliseconds of CPU: most options pages, comparisons and replays, a ruling only on a table of
  dozens of melds -- and every batch (a batch's body alone takes a while to read as JSON). A request is
  priced before it is admitted, so a refusal for its size (413) never waits here.
* **Waiting.** One over the bound waits its turn, in the order it came, for at most ``HEAVY_WAIT``
  seconds (env ``CANASTA_HEAVY_WAIT``, default :data:`DEFAULT_WAIT`); at most ``HEAVY_QUEUE`` wait at
  once (env ``CANASTA_HEAVY_QUEUE``, default :data:`DEFAULT_QUEUE`; 0: none waits).
* **Shedding.** One that finds the queue full, or that waited its time, gets a 503 ``busy`` problem with
  ``Retry-After`` (and ``retry_after`` in the body, in seconds): send it again then. Nothing was worked out.
* **The slot is held until the answer is written**, not until the view returns: a long page or a batch is
  worked out while it is written (:mod:`web_api.streaming`), so the slot goes when the server closes the
  answer (a client gone or not reading included).

The gate counts within one process (each gunicorn worker has its own, forked with the app), and waits by
sleeping: under gunicorn's gevent worker a sleep is a turn of the event loop, so a waiting request costs
its greenlet and a timer, nothing else. Under threads (a test client) the same code waits as threads do.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator

from flask import Flask, Response, current_app, request

from adjudicator.model.messages import msg

from .problems import ApiProblem

DEFAULT_SLOTS = 2  # heavy requests a worker works on at once
DEFAULT_QUEUE = 8  # heavy requests a worker keeps waiting at once
DEFAULT_WAIT = 10.0  # seconds a heavy request waits for its turn at most
HEAVY_UNITS = 200  # cost units from which a request is heavy (about 2-15 ms of CPU: bench/budget_bench.py)
RETRY_AFTER = 2  # seconds, on a 503 busy
POLL = 0.01  # seconds between two looks of a waiting request at the gate
GATE_KEY = "canasta.gate"  # app.extensions: this process's Gate
_TICKET_KEY = "canasta.admitted"  # environ: the admitted request's ticket


class Gate:
    """At most ``slots`` holders at once; up to ``queue`` more wait their turn (first come, first in) for up to
    ``wait`` seconds. Safe under threads and greenlets: the lock is never held across a wait."""

    def __init__(self, slots: int, queue: int, wait: float):
        if slots < 1 or queue < 0 or not 0 <= wait < math.inf:
            raise ValueError("a gate has at least one slot, a queue of 0 or more and a finite wait")
        self.slots, self.queue, self.wait = slots, queue, wait
        self.holding = 0
        self._waiting: deque[object] = deque()
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def enter(self) -> bool:
        """Take a slot, waiting for one if need be; False when the queue is full or the wait ran out."""
        with self._lock:
            if self.holding < self.slots and not self._waiting:
                self.holding += 1
                return True
            if len(self._waiting) >= self.queue:
                return False
            ticket = object()
            self._waiting.append(ticket)
        deadline = time.monotonic() + self.wait
        while True:
            time.sleep(POLL)
            with self._lock:
                if self._waiting[0] is ticket and self.holding < self.slots:
                    self._waiting.popleft()
                    self.holding += 1
                    return True
                if time.monotonic() >= deadline:
                    self._waiting.remove(ticket)
                    return False

    def leave(self) -> None:
        with self._lock:
            if self.holding <= 0:
                raise RuntimeError("left a gate nobody held")
            self.holding -= 1


class _Ticket:
    """A slot held for one request, given back once: when its answer is closed, or when the request ends without
    one."""

    __slots__ = ("gate", "handed", "_held")

    def __init__(self, gate: Gate):
        self.gate, self.handed, self._held = gate, False, True

    def leave(self) -> None:
        if self._held:
            self._held = False
            self.gate.leave()


def gate() -> Gate:
    return current_app.extensions[GATE_KEY]


def enter(units: int | None = None) -> None:
    """Admit the current request's work (``units``: its price; None: heavy whatever it costs) or raise the
    503 ``busy`` problem. Light work (under :data:`HEAVY_UNITS`) passes at once."""
    if units is not None and units < HEAVY_UNITS:
        return
    environ = request.environ
    if _TICKET_KEY in environ:
        return  # admitted already
    here = gate()
    if not here.enter():
        detail = msg("detail.busy", seconds=RETRY_AFTER)
        raise ApiProblem(503, "Busy", detail, type="busy", headers={"Retry-After": str(RETRY_AFTER)},
                         retry_after=RETRY_AFTER)
    environ[_TICKET_KEY] = _Ticket(here)


def _hand_over(response: Response) -> Response:
    """``after_request``: an answer made whole gives its slot back now (its work is done); one written as it is
    made (streamed) keeps it until the server has written it, or closed it (the client gone or not reading)."""
    ticket = request.environ.get(_TICKET_KEY)
    if ticket is not None and not ticket.handed:
        ticket.handed = True
        if response.is_streamed:
            response.response = _until_written(response.response, ticket)
        else:
            ticket.leave()
    return response


def _until_written(parts: Iterable[bytes], ticket: _Ticket) -> Iterator[bytes]:
    """The answer's parts; the slot is given back when they are all written, or the answer is closed (a generator
    closed, or let go, runs its ``finally``)."""
    try:
        yield from parts
    finally:
        close = getattr(parts, "close", None)
        try:
            if close is not None:
                close()  # the parts' own end (a batch logs where it stopped): before the slot is free again
        finally:
            ticket.leave()


def _give_back(_error=None) -> None:
    """``teardown_request``: a request that ended without an answer to close gives its slot back now."""
    ticket = request.environ.get(_TICKET_KEY)
    if ticket is not None and not ticket.handed:
        ticket.leave()


def init_app(app: Flask) -> None:
    """This process's gate, from ``HEAVY_SLOTS``, ``HEAVY_QUEUE`` and ``HEAVY_WAIT``; and the hooks that give
    its slots back."""
    config = app.config
    app.extensions[GATE_KEY] = Gate(config["HEAVY_SLOTS"], config["HEAVY_QUEUE"], config["HEAVY_WAIT"])
    app.after_request(_hand_over)
    app.teardown_request(_give_back)
