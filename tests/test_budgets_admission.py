"""Heavy work is admitted a few at a time per worker; the rest waits its turn briefly or is shed (issue 45).

:mod:`web_api.admission`: a request priced heavy (and every batch) takes one of the worker's ``HEAVY_SLOTS``
until its answer is written; one more waits in line (``HEAVY_QUEUE``, ``HEAVY_WAIT``) or gets a 503 ``busy``
problem with ``Retry-After``. ``/healthz`` and light requests never wait. These tests hold a slot with a request
that waits on an event (or a client that does not read), so what they assert is behaviour, never a time: how the
server fares under a real crowd is ``bench/crowd_bench.py``'s.
"""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
from flask import Blueprint, Response

from problems import assert_problem
from test_budgets import deck_hand, table
from test_hardening import exchange, post_raw, start_server, stop_server
from test_http_batch import GOOD

from adjudicator import adjudicate, cost, load_all, turns
from web_api import admission, budgets, create_app

HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
LIGHT = {"variant": "sv-classic", "situation": {"player": {"hand": ["9H", "9S"]}}, "action": {"type": "draw"}}


# ----------------------------------------------------------------------------------------------
# The gate itself


def test_a_gate_admits_its_slots_then_keeps_a_line_and_sheds_the_rest():
    gate = admission.Gate(slots=2, queue=1, wait=30.0)
    assert gate.enter() and gate.enter() and gate.holding == 2
    entered = threading.Event()
    waiter = threading.Thread(target=lambda: gate.enter() and entered.set())
    waiter.start()
    deadline = time.monotonic() + 30
    while gate.waiting != 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gate.waiting == 1 and not entered.is_set()  # in line: the slots are held
    assert not gate.enter()  # the line is full: shed at once
    gate.leave()
    waiter.join(30)
    assert entered.is_set() and gate.holding == 2 and gate.waiting == 0  # the one in line took the freed slot
    gate.leave()
    gate.leave()
    with pytest.raises(RuntimeError):
        gate.leave()


def test_one_that_waited_its_time_is_shed_and_leaves_the_line():
    gate = admission.Gate(slots=1, queue=4, wait=0.0)
    assert gate.enter()
    assert not gate.enter()  # waited its (no) time
    assert gate.waiting == 0 and gate.holding == 1
    gate.leave()
    assert gate.enter()  # free again: nobody is left in line


def test_first_come_first_in():
    gate = admission.Gate(slots=1, queue=3, wait=60.0)
    assert gate.enter()
    order: list[int] = []

    def wait(i: int) -> None:
        gate.enter()
        order.append(i)
        gate.leave()

    threads = []
    for i in range(3):
        threads.append(threading.Thread(target=wait, args=(i,)))
        threads[-1].start()
        deadline = time.monotonic() + 30
        while gate.waiting != i + 1 and time.monotonic() < deadline:  # each in line before the next comes
            time.sleep(0.01)
    gate.leave()
    for t in threads:
        t.join(60)
    assert order == [0, 1, 2]


def test_a_bad_setting_stops_the_start(monkeypatch):
    for name, value in (("CANASTA_HEAVY_SLOTS", "0"), ("CANASTA_HEAVY_QUEUE", "-1"), ("CANASTA_HEAVY_WAIT", "soon"),
                        ("CANASTA_HEAVY_WAIT", "inf"), ("CANASTA_HEAVY_AFTER_WORK", "0.2"),
                        ("CANASTA_HEAVY_AFTER_WORK", "-5")):
        monkeypatch.setenv(name, value)
        with pytest.raises(ValueError, match=name):
            create_app({"TESTING": True})
        monkeypatch.delenv(name)
    monkeypatch.setenv("CANASTA_HEAVY_QUEUE", "0")
    monkeypatch.setenv("CANASTA_HEAVY_WAIT", "2.5")
    monkeypatch.setenv("CANASTA_HEAVY_AFTER_WORK", "0")
    config = create_app({"TESTING": True}).config
    assert config["HEAVY_QUEUE"] == 0 and config["HEAVY_WAIT"] == 2.5 and config["HEAVY_SLOTS"] == 2
    assert config["HEAVY_AFTER_WORK"] == 0


# ----------------------------------------------------------------------------------------------
# The app: a slot held by a request that waits on an event


class Held:
    """An app with one heavy slot and no line, and a heavy route whose work waits until released."""

    def __init__(self, streamed: bool = False, heavy_after_work: int | None = None):
        config = {"TESTING": True, "HEAVY_SLOTS": 1, "HEAVY_QUEUE": 0, "HEAVY_WAIT": 0.0}
        if heavy_after_work is not None:
            config["HEAVY_AFTER_WORK"] = heavy_after_work
        self.app = create_app(config)
        self.working, self.release = threading.Event(), threading.Event()
        bp = Blueprint("held", __name__)

        @bp.post("/v1/_held")
        def held():
            admission.enter()  # heavy, whatever it costs
            if not streamed:
                self.working.set()
                self.release.wait(60)
                return {"done": True}

            def parts():  # its first part is written, the rest waits in the middle of the work
                self.working.set()
                yield b'{"done":'
                self.release.wait(60)
                yield b"true}"

            return Response(parts(), mimetype="application/json")

        self.app.register_blueprint(bp)
        self.answers: list = []

    def hold(self) -> threading.Thread:
        def run():
            resp = self.app.test_client().post("/v1/_held", json={})
            self.answers.append((resp.status_code, resp.get_data()))

        thread = threading.Thread(target=run)
        thread.start()
        assert self.working.wait(60)
        return thread


def test_a_heavy_request_over_the_bound_is_a_503_problem_with_retry_after_in_each_language():
    held = Held()
    holder = held.hold()
    client = held.app.test_client()
    details = set()
    try:
        for lang in ("en", "sv", "nb", "da"):
            resp = client.post(f"/v1/_held?lang={lang}", json={})
            problem = assert_problem(resp, 503, "busy")
            assert resp.headers["Retry-After"] == str(problem["retry_after"]) == str(admission.RETRY_AFTER)
            assert resp.headers["Content-Language"] == lang and resp.headers["Cache-Control"] == "no-store"
            details.add(problem["detail"])
        assert len(details) == 4
        # a liveness probe and a light request do not wait for heavy work
        assert client.get("/healthz").status_code == 200
        assert client.post("/v1/adjudicate", json=LIGHT).status_code == 200
    finally:
        held.release.set()
        holder.join(60)
    assert [status for status, _ in held.answers] == [200]  # the holder's own work was never disturbed
    assert client.post("/v1/_held", json={}).status_code == 200  # its slot is free again


def test_the_slot_is_given_back_once_the_work_is_done():
    held = Held()
    held.release.set()  # nothing to wait for
    client = held.app.test_client()
    for _ in range(3):  # one slot, no line: each is admitted only because the last gave its slot back
        assert client.post("/v1/_held", json={}).status_code == 200
    assert held.app.extensions[admission.GATE_KEY].holding == 0


def test_a_streamed_answer_holds_its_slot_until_it_is_written():
    held = Held(streamed=True)
    client = held.app.test_client()
    first = client.post("/v1/_held", json={})  # the answer has begun; its work waits in the middle
    assert first.status_code == 200 and held.working.is_set()
    assert client.post("/v1/_held", json={}).status_code == 503  # still being written: the slot is its
    held.release.set()
    assert first.get_data() == b'{"done":true}'  # written to the end ...
    first.close()
    assert held.app.extensions[admission.GATE_KEY].holding == 0  # ... and the slot given back
    held.release.set()
    assert client.post("/v1/_held", json={}).get_data() == b'{"done":true}'


def test_a_request_over_its_budget_is_refused_without_waiting_for_a_slot():
    held = Held()
    holder = held.hold()
    try:
        body = {"variant": "da-ludo", "situation": table(deck_hand(None))}
        resp = held.app.test_client().post("/v1/options?limit=1000", json=body)
        assert_problem(resp, 413, "over-budget")  # priced before the gate: never a 503 for its size
    finally:
        held.release.set()
        holder.join(60)


UNSAID = {"variant": "da-ludo", "situation": {},  # priced light; asks what it hangs on under every value of many facts
          "action": {"type": "meld", "melds": [["9H", "9S", "9D"], ["5H", "5S", "5D", "2C"], ["6H", "6S", "JK"]]}}


def test_a_request_priced_light_that_works_long_takes_its_turn_as_heavy_work():
    """Once a request priced light has done more than ``HEAVY_AFTER_WORK`` (melds checked), it is heavy work: with
    the one slot held and no line, it is a 503 busy. At 0, any request that reaches the engine's checkpoints is: the
    ruling below (priced light, and answered 200 on f7cd598 with the slot held), where /healthz, which has none, is
    not."""
    held = Held(heavy_after_work=0)
    client = held.app.test_client()
    assert cost.ruling_cost(UNSAID, load_all()) < admission.HEAVY_UNITS  # priced light
    holder = held.hold()
    try:
        assert_problem(client.post("/v1/adjudicate", json=UNSAID), 503, "busy")
        assert client.get("/healthz").status_code == 200
    finally:
        held.release.set()
        holder.join(60)
    assert client.post("/v1/adjudicate", json=UNSAID).status_code == 200  # a slot free: worked out as heavy work
    assert held.app.extensions[admission.GATE_KEY].holding == 0  # and its slot given back


TWOS = {"variant": "da-ludo", "house_rules": {"wild.twos": True}, "situation": {},
        "action": {"type": "meld", "melds": [["9H", "9S", "2C"]]}}


class _Counted:
    """A checkpoint hook that adds up the work the engine tells it."""

    def __init__(self):
        self.work = 0

    def __call__(self, work: int = 1) -> None:
        self.work += work


def work_of(body: dict) -> int:
    """The work a ruling tells its checkpoints, counted by the library alone (no app, no clock)."""
    counted = _Counted()
    token = turns.set_hook(counted)
    try:
        adjudicate(body, load_all())
    finally:
        turns.reset_hook(token)
    return counted.work


def test_the_work_of_a_ruling_is_a_count_the_same_on_every_run():
    """What makes light work heavy is counted, never timed (a mark of 200 ms of thread CPU shed the page's twos
    dispute on CI's loaded machine): the same ruling tells its checkpoints the same work every time, cold or warm,
    the page's costliest dispute well under the default mark, and a ruling lacking many facts over it."""
    twos = [work_of(TWOS) for _ in range(3)]
    assert twos[0] == twos[1] == twos[2] > 0
    assert 4 * twos[0] < budgets.DEFAULT_HEAVY_AFTER_WORK
    assert work_of(UNSAID) == work_of(UNSAID) > budgets.DEFAULT_HEAVY_AFTER_WORK


@pytest.mark.parametrize("body", [LIGHT, TWOS], ids=["a-draw", "the-pages-twos-dispute"])
def test_a_light_request_under_the_mark_never_waits(body):
    """At the default mark, an ordinary ruling and the page's costliest dispute (twos by house rule, nothing else
    said) pass beside a held slot, every time, on any machine: the mark is work counted, not time."""
    held = Held()
    assert held.app.config["HEAVY_AFTER_WORK"] == budgets.DEFAULT_HEAVY_AFTER_WORK
    holder = held.hold()
    try:
        for _ in range(5):
            assert held.app.test_client().post("/v1/adjudicate", json=body).status_code == 200
    finally:
        held.release.set()
        holder.join(60)


def test_the_mark_is_exact_a_ruling_that_does_just_the_marks_work_is_light_one_more_is_heavy():
    work = work_of(TWOS)
    for mark, status in ((work, 200), (work - 1, 503)):
        held = Held(heavy_after_work=mark)
        holder = held.hold()
        try:
            assert held.app.test_client().post("/v1/adjudicate", json=TWOS).status_code == status, mark
        finally:
            held.release.set()
            holder.join(60)


@pytest.mark.parametrize("path,body", [
    ("/v1/options?limit=20", {"variant": "da-ludo", "situation": table(deck_hand(30))}),
    ("/v1/compare", {"situation": table(deck_hand(15), drew="stock")}),
    ("/v1/adjudicate/batch", {"requests": [GOOD] * 3}),
])
def test_every_kind_of_heavy_work_takes_its_turn(path, body):
    held = Held()
    holder = held.hold()
    try:
        assert_problem(held.app.test_client().post(path, json=body), 503, "busy")
    finally:
        held.release.set()
        holder.join(60)
    assert held.app.test_client().post(path, json=body).status_code == 200


# ----------------------------------------------------------------------------------------------
# The real server: a slot held by a client that does not read its answer


def test_the_production_server_sheds_heavy_work_over_its_bound_and_answers_healthz(tmp_path):
    """One worker with one heavy slot and no line: a batch whose client does not read holds the slot (its answer
    waits to be written); another heavy request is a 503 with Retry-After; /healthz and a ruling are answered."""
    srv = start_server(tmp_path / "out.log", "-w", "1", env={"CANASTA_HEAVY_SLOTS": "1", "CANASTA_HEAVY_QUEUE": "0",
                                                             "CANASTA_ANSWER_WRITE_TIMEOUT": "120"})
    try:
        with socket.socket() as holder:
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            holder.settimeout(120)
            holder.connect(("127.0.0.1", srv.port))
            holder.sendall(post_raw("/v1/adjudicate/batch", {"requests": [GOOD] * 1000}))  # about 6 MB to write
            assert holder.recv(16).startswith(b"HTTP/1.1 200")  # admitted; then nothing more is read
            options = json.dumps({"variant": "sv-classic", "situation": table(deck_hand(20))}).encode()
            status, headers, body = exchange(srv.port, _head("/v1/options", options) + options, timeout=120)
            assert status == 503 and headers["retry-after"] == ["2"], body[:300]
            assert json.loads(body)["type"].endswith("/busy") and headers["content-language"] == ["en"]
            assert exchange(srv.port, HEALTHZ, timeout=120)[0] == 200
            light = json.dumps(LIGHT).encode()
            assert exchange(srv.port, _head("/v1/adjudicate", light) + light, timeout=120)[0] == 200
        # the holder has gone: the writing of its answer fails, and its slot comes back
        deadline = time.monotonic() + 120
        while (status := _post(srv.port, "/v1/options", options)) != 200 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert status == 200
    finally:
        stop_server(srv)


def _head(path: str, body: bytes) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n\r\n").encode()


def _post(port: int, path: str, body: bytes) -> int:
    return exchange(port, _head(path, body) + body, timeout=120)[0]
