"""Budgets of single requests, and turns: what keeps one request from holding a worker (issues 36 and 45).

* **A budget of work, checked before the work.** Every request that makes the engine work -- a
  ruling, a score, the options of a situation, a comparison, a replay -- is priced by the engine's
  cost model (:mod:`adjudicator.cost`) from the body as sent, before any search: the options and a
  comparison of options with their walks and their pages at most as long as the groups can be, so a
  refusal costs no walk (issue 45). A request over ``REQUEST_BUDGET`` units (env
  ``CANASTA_REQUEST_BUDGET``, default :data:`DEFAULT_REQUEST_BUDGET`: a few seconds of the heaviest work,
  well inside gunicorn's ``timeout`` and below 5 s of CPU) is answered with a 413 ``over-budget``
  problem that says, in words and as data, what to send instead: ``max_limit`` (fewer options a group:
  ``?limit=``; a request with it fits), ``max_variants`` (a comparison of fewer variants),
  ``max_moves`` (a shorter log), with ``cost`` and ``budget``. Once the walks are done, the pages'
  real cost is checked against their price (:func:`page_within`): never over it, or the model is
  wrong and says so in the log. Batches keep their own budget (a batch of many requests,
  :mod:`web_api.batch_api`), in the same units.
* **Turns.** The engine calls :func:`adjudicator.turns.checkpoint` between small units of work; for
  every request this module sets the hook that, every :data:`TURN_SECONDS` of work, sleeps for a
  moment: under gunicorn's gevent worker that lets the worker's other connections (its liveness
  probe among them) and its heartbeat run, so a long request never holds them. How many long requests
  a worker takes at once is :mod:`web_api.admission`'s.

A streamed answer (:mod:`web_api.streaming`) takes its turns as it is written.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from flask import Flask, Response, current_app, request

from adjudicator import cost, turns
from adjudicator.cost import OverBudget
from adjudicator.model.messages import msg
from adjudicator.options.paging import Page

from . import admission
from .problems import problem_response

DEFAULT_REQUEST_BUDGET = 80_000  # cost units: calibrated in bench/budget_bench.py --calibrate (BENCHMARKS.md)
TURN_SECONDS = 0.02  # work between two turns of the worker's other connections
TURN_PAUSE = 0.0005  # the turn: time.sleep, which gunicorn's gevent worker makes a cooperative yield
DEFAULT_HEAVY_AFTER_WORK = 2_000  # melds checked (adjudicator.rules.facts.ruling_work) past which a request priced
# light is heavy work: five times the page's costliest dispute (twos by house rule under da-ludo: 406, 32 ms), about
# 160 ms of CPU on the bench machine (60-100 us a unit): a count, so the same request is classed alike everywhere
_TOKEN_KEY = "canasta.turns"


def give_way() -> None:
    """The turn of long work: under gunicorn's gevent worker, wait until the event loop has nothing else to do --
    every connection with something to read or a request to answer (a liveness probe, a ruling) goes first, so
    long work never stands in front of short (issue 45); elsewhere (threads), a short sleep."""
    if _patched():
        import gevent

        gevent.idle()
    else:
        time.sleep(TURN_PAUSE)


def _patched() -> bool:
    """Whether this process runs under gevent's patches (gunicorn's gevent worker): ``time.sleep`` is gevent's."""
    return getattr(time.sleep, "__module__", "").startswith("gevent")


def new_turns() -> turns.Turns:
    return turns.Turns(TURN_SECONDS, give_way)


def budget() -> int:
    return current_app.config["REQUEST_BUDGET"]


COST_KEY = "canasta.cost"  # environ: the request's estimated cost in units, as last priced (for benchmarks, logs)


def over(cost: int) -> bool:
    """Whether ``cost`` (units: the whole request's, as far as it is priced yet) is over the request budget."""
    request.environ[COST_KEY] = cost
    return cost > current_app.config["REQUEST_BUDGET"]


def admit(kind: str, body, variants: dict) -> None:
    """Refuse a ruling (``adjudicate``), a ``score`` or a ``replay`` over the budget, before any work (for a log,
    with the most moves of it that fit); then admit its work among the worker's heavy work where it is heavy
    (:mod:`web_api.admission`: it may wait its turn, or be shed)."""
    price = {"adjudicate": cost.ruling_cost, "score": cost.score_cost, "replay": cost.replay_cost}[kind]
    units = price(body, variants)
    if over(units):
        moves = cost.largest_log(body, variants, budget()) if kind == "replay" else None
        raise OverBudget(kind, units, budget(), moves=moves or None)
    admission.enter(units)


def smaller_page(price: Callable[[Page], int], page: Page) -> dict:
    """What an options request or a comparison of options over the budget may send instead, priced by ``price``
    (the request's own price of a page): the largest ``limit`` that fits, else one group at a time."""
    fits = cost.largest_limit(price, page, budget())
    return {"limit": fits} if fits else {"group": page.group is None}


def page_within(kind: str, body, variants: dict, listed: list, page: Page) -> int:
    """The walks are done and nothing of the page made: its cost from the groups' real sizes (``listed``: each
    variant's id and listing), never more than it was priced at before the walks. Were it more, the cost model's
    bound on a group was wrong: the log says so, and the budget still holds."""
    real = cost.page_cost(body, variants, [(variants[vid], options) for vid, options in listed], page)
    priced = cost.pages_priced(body, variants, page, [vid for vid, _ in listed])
    if real > priced:
        current_app.logger.error("the cost model priced the page of %s at %d units; its groups' real sizes make %d",
                                 kind, priced, real)
        total = request.environ.get(COST_KEY, 0) - priced + real
        if over(total):
            raise OverBudget(kind, total, budget(), group=page.group is None)
    return real


class _ViewTurns:
    """The engine's checkpoints while a request's view works: every :data:`TURN_SECONDS` the worker's other
    connections go first (:func:`give_way`); and once the work done has reached ``heavy_after`` units (melds
    checked, as each checkpoint tells them: :func:`adjudicator.rules.facts.ruling_work`) it is heavy work, whatever
    it was priced at -- admitted among the worker's heavy work at that checkpoint (it may wait its turn), or shed
    with a 503 ``busy`` (nothing is written yet). A price is an estimate: a ruling priced light that asks what it
    hangs on under every value of many facts, or any request the cost model prices too low, still takes its turn
    among the heavy work, so forty of them cannot hold a worker's probes (issue 45). The work is counted, never
    timed: the same request is heavy or light on every machine, loaded or not, whatever its garbage collector does
    meanwhile (a mark in seconds of CPU shed the page's twos dispute on CI's loaded machine)."""

    __slots__ = ("turns", "heavy_after", "done")

    def __init__(self, heavy_after: int | None):
        self.turns = new_turns()
        self.heavy_after = heavy_after  # None: admitted as heavy already, or never to be
        self.done = 0

    def __call__(self, work: int = 1) -> None:
        self.done += work
        if self.heavy_after is not None and self.done > self.heavy_after:
            self.heavy_after = None
            admission.enter()  # heavy, whatever its price (at once if admitted already)
        self.turns()


def _take_turns() -> None:
    request.environ[_TOKEN_KEY] = turns.set_hook(_ViewTurns(current_app.config["HEAVY_AFTER_WORK"]))


def _stop_turns(_error=None) -> None:
    token = request.environ.pop(_TOKEN_KEY, None)
    if token is not None:
        try:
            turns.reset_hook(token)
        except ValueError:  # set in another context (a test client's thread): nothing to reset here
            pass


def over_budget(e: OverBudget) -> Response:
    """The 413 ``over-budget`` problem: what the request would cost, the budget, and what to send instead."""
    members: dict = {"cost": e.cost, "budget": e.budget}
    errors = []
    if e.variants is not None:
        detail = msg("detail.budget_variants", variants=e.variants)
        members["max_variants"] = e.variants
        errors.append({"pointer": "/variants", "detail": detail})
    elif e.limit:
        detail = msg("detail.budget_limit", limit=e.limit)
        members["max_limit"] = e.limit
        members["parameter"] = "limit"
    elif e.group:
        detail = msg("detail.budget_group")
        members["parameter"] = "group"
    elif e.moves is not None:
        detail = msg("detail.budget_moves", moves=e.moves)
        members["max_moves"] = e.moves
        errors.append({"pointer": "/moves", "detail": detail})
    else:
        detail = msg("detail.budget_request")
    return problem_response(413, "Over budget", detail, type="over-budget", errors=errors or None, **members)


def init_app(app: Flask) -> None:
    """Turns for every request, and the 413 for a request over budget."""
    app.before_request(_take_turns)
    app.teardown_request(_stop_turns)
    app.register_error_handler(OverBudget, over_budget)
