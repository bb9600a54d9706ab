"""``POST /v1/adjudicate/batch`` and ``POST /v1/score/batch``: many requests in one body, one answer each.

For apps that check every move of their games: ``{"requests": [...], "lang"?}``
with up to :data:`adjudicator.input.shape.MAX_BATCH` items, each what the single endpoint takes. The
answer keeps their order: ``{"results": [{"ruling": ...} | {"score": ...} |
{"problem": ...}]}``. One bad item is that item's problem (its pointers are
into the item), never the whole batch's. A batch may be larger than a single
request (``CANASTA_BATCH_MAX_CONTENT_LENGTH``, default 4 MiB).

Bounded by design (issue 24): a batch can neither outlive its worker nor fill its memory.

* **A budget of work, checked before any is done.** Each item's cost is estimated by the engine's
  cost model (:mod:`adjudicator.cost`, the model every endpoint is priced by) from what makes
  rulings expensive: the cards laid in melds (each meld is checked card by card), the points its
  variant leaves open that the item can touch (a ruling that hangs on an open point is made again
  under each reading: up to 1 + 2 x 2 x 2 runs) and its house rules. A batch whose estimate is over
  ``BATCH_BUDGET`` units (env ``CANASTA_BATCH_BUDGET``, default :data:`DEFAULT_BATCH_BUDGET`,
  about 9 s of the heaviest work on a quiet 2-core machine: half the deadline, for a busy one)
  is refused with a 413 ``batch-over-budget`` problem that gives the estimate, the budget and
  ``max_items``: how many items like these fit in one batch. Split the list into batches of at most that many.
* **Its turn.** A batch is heavy work, admitted among the worker's other heavy work once its body is read
  (:mod:`web_api.admission`): it may wait its turn, or be shed with a 503 ``busy``.
* **A deadline for the work in progress.** Items are worked out until ``BATCH_DEADLINE``
  seconds after the batch's work began (its turn came; env ``CANASTA_BATCH_DEADLINE``, default
  :data:`DEFAULT_BATCH_DEADLINE`, below gunicorn's ``timeout`` of 30 s); every item after that
  is answered with a 503 ``batch-deadline`` problem in its place: the answer is still 200, the
  finished items are kept, and those items are to be sent again. At least one item is always
  worked out.
* **A streamed answer.** The results are written as they are worked out, in order, in pieces of
  about :data:`~web_api.streaming.PIECE` bytes (chunked), so a worker never holds a whole answer. When the client
  has gone, or stops reading (gunicorn's worker drops it: :mod:`web_api.workers`), writing
  fails and the rest of the work is not done. A streamed answer is not compressed.
* **Turns.** Every :data:`~web_api.budgets.TURN_SECONDS` of work the batch sleeps for a moment (at the
  engine's checkpoints, :mod:`adjudicator.turns`, and between items); under gunicorn's gevent worker
  that lets the worker's other connections and its heartbeat run, so a long batch neither starves
  them nor looks like a hung worker.

Integrations that want smaller items can ask the single endpoints' lean answer mode, where the
batch passes it on to :func:`_ruling` and :func:`_score` (issue 23).
"""

from __future__ import annotations

import math
from functools import partial
import time
from typing import Any, Callable, Iterator

from flask import Blueprint, Response, current_app, request

from adjudicator import turns
from adjudicator import answers  # the engine, loaded at the first answer (adjudicator/answers/__init__.py)
from adjudicator.answers import limits
from adjudicator.cost import ruling_cost, score_cost  # noqa: F401 -- their old home was here
from adjudicator.model.errors import AdjudicatorError
from adjudicator.model.messages import Message, msg
from adjudicator.words.render import render

from . import admission, jsonio
from .budgets import COST_KEY
from .compare_api import wants_words
from .language import current_language
from .problems import ApiProblem, body_bytes, parse_body, problem_type
from .streaming import pieces
from .variants_api import loaded_variants

DEFAULT_BATCH_MAX_CONTENT_LENGTH = limits.BATCH_BODY_BYTES  # as the command line (adjudicator.answers.limits)
DEFAULT_BATCH_BUDGET = 100_000  # cost units (below); about 9 s of the heaviest rulings on a quiet 2-core machine
DEFAULT_BATCH_DEADLINE = 20.0  # seconds after the request began; gunicorn's timeout is 30

bp = Blueprint("batch", __name__, url_prefix="/v1")


@bp.before_request
def _larger_bodies() -> None:
    request.max_content_length = current_app.config["BATCH_MAX_CONTENT_LENGTH"]


# ----------------------------------------------------------------------------------------------
# The cost of a batch, before any of it is worked out: each item priced by the engine's cost model


def _check_budget(items: list, cost: Callable[[Any, dict], int], variants: dict) -> None:
    budget = current_app.config["BATCH_BUDGET"]
    total = sum(cost(item, variants) for item in items)
    request.environ[COST_KEY] = total
    if total <= budget:
        return
    max_items = max(1, budget * len(items) // total)
    detail = msg("detail.batch_budget", items=max_items)
    raise ApiProblem(413, "Batch over budget", detail, type="batch-over-budget",
                     errors=[{"pointer": "/requests", "detail": detail}], cost=total, budget=budget,
                     max_items=max_items)


# ----------------------------------------------------------------------------------------------
# The answer, streamed


def _results(items: list, answer: Callable[[Any, dict, str], dict], variants: dict, lang: str, deadline: float,
             not_done: bytes, internal: bytes, logger) -> Iterator[bytes]:
    """``{"results": [...]}`` in pieces (:func:`~web_api.streaming.pieces`), each item worked out as it is
    reached: a client that has gone, or does not read, leaves the items not reached never worked out."""
    reached = [0]

    def stopped() -> None:
        logger.warning("batch stopped after item %d of %d: the client is gone or does not read", reached[0] + 1,
                       len(items))

    return pieces(_items_json(items, answer, variants, lang, deadline, not_done, internal, logger, reached), stopped)


def _items_json(items: list, answer: Callable[[Any, dict, str], dict], variants: dict, lang: str, deadline: float,
                not_done: bytes, internal: bytes, logger, reached: list[int]) -> Iterator[bytes]:
    """The results' JSON part by part; ``reached[0]`` the index of the item being worked out."""
    yield b'{"results":['
    late = False
    for index, item in enumerate(items):
        reached[0] = index
        if index and not late and time.monotonic() > deadline:
            late = True
        if late:
            result = not_done
        else:
            try:
                result = jsonio.dumps(answer(item, variants, lang))
            except AdjudicatorError as e:
                result = jsonio.dumps({"problem": answers.serialize.item_problem(e, lang, problem_type)})
            except Exception:  # noqa: BLE001 -- the answer has begun: a failed item is that item's 500
                logger.exception("batch item %d failed", index)
                result = internal
        if index:
            yield b","
        yield result
        turns.checkpoint()  # the worker's other connections and its heartbeat run meanwhile
    yield b"]}"


def _item_problem(slug: str, status: int, message: Message, lang: str) -> bytes:
    """An item's own problem, worded once for the whole batch."""
    detail = render(message, lang)
    return jsonio.dumps({"problem": {"type": problem_type(slug), "title": render(msg(f"title.{slug}"), lang),
                                     "status": status, "detail": detail,
                                     "errors": [{"pointer": "", "detail": detail}]}})


def _batch(answer: Callable[[Any, dict, str], dict], cost: Callable[[Any, dict], int]) -> Response:
    raw = body_bytes()
    admission.enter()  # heavy whatever it holds: reading a batch's JSON alone takes a while (web_api.admission)
    started = time.monotonic()  # the deadline counts the work, not the wait for its turn
    variants = loaded_variants()
    from adjudicator.input.shape import check  # the parser (marshmallow): loaded at the first answer, not at start-up
    items = check(parse_body(raw), "batch", variants)["requests"]
    _check_budget(items, cost, variants)
    lang = current_language()
    seconds = current_app.config["BATCH_DEADLINE"]
    late = _item_problem("batch-deadline", 503, msg("detail.batch_deadline", seconds=math.ceil(seconds)), lang)
    failed = _item_problem("internal-error", 500, msg("detail.internal"), lang)
    stream = _results(items, answer, variants, lang, started + seconds, late, failed, current_app.logger)
    return Response(stream, mimetype="application/json")


def _ruling(item: Any, variants: dict, lang: str, words: bool = True) -> dict:
    return answers.batch_item("adjudicate", item, lang, variants, words)  # the library's one answer to an item


def _score(item: Any, variants: dict, lang: str) -> dict:
    return answers.batch_item("score", item, lang, variants)


@bp.post("/adjudicate/batch")
def adjudicate_batch():
    # the answer is streamed after the request's context has gone: what the request asks is read now
    return _batch(partial(_ruling, words=wants_words()), ruling_cost)


@bp.post("/score/batch")
def score_batch():
    return _batch(_score, score_cost)
