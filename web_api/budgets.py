"""Budgets of single requests, and turns: what keeps one request from holding a worker (issue 36).

* **A budget of work, checked before the work.** Every request that makes the engine work -- a
  ruling, a score, the options of a situation, a comparison, a replay -- is priced by the engine's
  cost model (:mod:`adjudicator.cost`) from the body as sent, before it is parsed; the options
  and a comparison of options are priced again from the real sizes of their groups once the walk
  has found them, before any option of the page is made. A request over ``REQUEST_BUDGET`` units
  (env ``CANASTA_REQUEST_BUDGET``, default :data:`DEFAULT_REQUEST_BUDGET`: a few seconds of the
  heaviest work, well inside gunicorn's ``timeout`` and below 5 s of CPU) is answered with a 413
  ``over-budget`` problem that says, in words and as data, what to send instead: ``max_limit``
  (fewer options a group: ``?limit=``), ``max_variants`` (a comparison of fewer variants),
  ``max_moves`` (a shorter log), with ``cost`` and ``budget``. Batches keep their own budget (a
  batch of many requests, :mod:`web_api.batch_api`), in the same units.
* **Turns.** The engine calls :func:`adjudicator.turns.checkpoint` between small units of work; for
  every request this module sets the hook that, every :data:`TURN_SECONDS` of work, sleeps for a
  moment: under gunicorn's gevent worker that lets the worker's other connections (its liveness
  probe among them) and its heartbeat run, so a long request never holds them.

A streamed answer (:mod:`web_api.streaming`) takes its turns as it is written.
"""

from __future__ import annotations

import time

from flask import Flask, Response, current_app, request

from adjudicator import cost, turns
from adjudicator.cost import OverBudget
from adjudicator.model.messages import msg

from .problems import problem_response

DEFAULT_REQUEST_BUDGET = 80_000  # cost units: calibrated in bench/budget_bench.py --calibrate (BENCHMARKS.md)
TURN_SECONDS = 0.02  # work between two turns of the worker's other connections
TURN_PAUSE = 0.0005  # the turn: time.sleep, which gunicorn's gevent worker makes a cooperative yield
_TOKEN_KEY = "canasta.turns"


def give_way() -> None:
    time.sleep(TURN_PAUSE)  # under gevent: the event loop runs the other greenlets, then this one again


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
    """Refuse a ruling (``adjudicate``), a ``score`` or a ``replay`` over the budget, before any work; for a log,
    with the most moves of it that fit."""
    price = {"adjudicate": cost.ruling_cost, "score": cost.score_cost, "replay": cost.replay_cost}[kind]
    units = price(body, variants)
    if over(units):
        moves = cost.largest_log(body, variants, budget()) if kind == "replay" else None
        raise OverBudget(kind, units, budget(), moves=moves or None)


def _take_turns() -> None:
    request.environ[_TOKEN_KEY] = turns.set_hook(new_turns())


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
