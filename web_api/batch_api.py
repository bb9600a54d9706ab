"""``POST /v1/adjudicate/batch`` and ``POST /v1/score/batch``: many requests in one body, one answer each.

For apps that check every move of their games: ``{"requests": [...], "lang"?}``
with up to :data:`adjudicator.input.shape.MAX_BATCH` items, each what the single endpoint takes. The
answer keeps their order: ``{"results": [{"ruling": ...} | {"score": ...} |
{"problem": ...}]}``. One bad item is that item's problem (its pointers are
into the item), never the whole batch's. A batch may be larger than a single
request (``CANASTA_BATCH_MAX_CONTENT_LENGTH``, default 4 MiB).

Bounded by design (issue 24): a batch can neither outlive its worker nor fill its memory.

* **A budget of work, checked before any is done.** Each item's cost is estimated from what
  makes rulings expensive: the cards laid in melds (each meld is checked card by card) and the
  points its variant leaves open that the item can touch (a ruling that hangs on an open point
  is made again under each reading: up to 1 + 2 x 2 x 2 runs). A batch whose estimate is over
  ``BATCH_BUDGET`` units (env ``CANASTA_BATCH_BUDGET``, default :data:`DEFAULT_BATCH_BUDGET`,
  about 9 s of the heaviest work on a quiet 2-core machine: half the deadline, for a busy one)
  is refused with a 413 ``batch-over-budget`` problem that gives the estimate, the budget and
  ``max_items``: how many items like these fit in one batch. Split the list into batches of at most that many.
* **A deadline for the work in progress.** Items are worked out until ``BATCH_DEADLINE``
  seconds after the request began (env ``CANASTA_BATCH_DEADLINE``, default
  :data:`DEFAULT_BATCH_DEADLINE`, below gunicorn's ``timeout`` of 30 s); every item after that
  is answered with a 503 ``batch-deadline`` problem in its place: the answer is still 200, the
  finished items are kept, and those items are to be sent again. At least one item is always
  worked out.
* **A streamed answer.** The results are written as they are worked out, in order, in pieces of
  about :data:`PIECE` bytes (chunked), so a worker never holds a whole answer. When the client
  has gone, or stops reading (gunicorn's worker drops it: :mod:`web_api.workers`), writing
  fails and the rest of the work is not done. A streamed answer is not compressed.
* **Turns.** Every :data:`TURN_SECONDS` of work the batch sleeps for a moment; under gunicorn's
  gevent worker that lets the worker's other connections and its heartbeat run, so a long batch
  neither starves them nor looks like a hung worker.

Integrations that want smaller items can ask the single endpoints' lean answer mode, where the
batch passes it on to :func:`_ruling` and :func:`_score` (issue 23).
"""

from __future__ import annotations

import math
from functools import partial
import time
from typing import Any, Callable, Iterator

from flask import Blueprint, Response, current_app, request

from adjudicator.answers import batch_item
from adjudicator.input.shape import check
from adjudicator.model.errors import AdjudicatorError
from adjudicator.model.messages import Message, msg
from adjudicator.rules.readings import MAX_POINTS as MAX_OPEN_POINTS  # the open points tried together
from adjudicator.rules.readings import readings_for
from adjudicator.words.render import render
from adjudicator.variants import Variant

from adjudicator.answers import serialize

from . import jsonio
from .compare_api import wants_words
from .language import current_language
from .problems import ApiProblem, json_body, problem_type
from .variants_api import loaded_variants

DEFAULT_BATCH_MAX_CONTENT_LENGTH = 4 * 1024 * 1024
DEFAULT_BATCH_BUDGET = 100_000  # cost units (below); about 9 s of the heaviest rulings on a quiet 2-core machine
DEFAULT_BATCH_DEADLINE = 20.0  # seconds after the request began; gunicorn's timeout is 30
PIECE = 64 * 1024  # bytes of results gathered before they are written
TURN_SECONDS = 0.02  # work between two turns of the worker's other connections
_TURN_PAUSE = 0.0005  # the turn: time.sleep, which gunicorn's gevent worker makes a cooperative yield

# The cost model, in units of about one meld checked under one reading (0.05-0.1 ms here; bench/budget_bench.py).
BASE_UNITS = 2  # reading the item, the checks every ruling makes, its words
CARDS_PER_UNIT = 3  # cards laid in melds (the table's and the action's)
HAND_CARDS_PER_UNIT = 12  # cards held
UNITS_PER_ROUND = 3  # a round of a game (score): its lines, citations and words, about 5 KB of answer

bp = Blueprint("batch", __name__, url_prefix="/v1")


@bp.before_request
def _larger_bodies() -> None:
    request.max_content_length = current_app.config["BATCH_MAX_CONTENT_LENGTH"]


# ----------------------------------------------------------------------------------------------
# The cost of a batch, before any of it is worked out


def _cards(value: Any) -> int:
    """Cards in a list of cards or a list of melds (anything else counts nothing)."""
    if not isinstance(value, list):
        return 0
    return sum(len(v) if isinstance(v, list) else 1 for v in value)


def _get(value: Any, *path: str) -> Any:
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


_NOTHING: dict = {}


def _dict(value: Any) -> dict:
    """``value`` when it is an object, else an empty one (a misshapen member costs nothing)."""
    return value if isinstance(value, dict) else _NOTHING


def _has_two(*values: Any) -> bool:
    """Whether a card code starting with ``2`` is among these lists of cards or of melds."""
    for value in values:
        if isinstance(value, list):
            for part in value:
                for card in (part if isinstance(part, list) else (part,)):
                    if isinstance(card, str) and card.startswith("2"):
                        return True
    return False


def _open_points(rules: Variant, item: dict, melded: bool) -> int:
    """How many of the variant's open points this item can hang on (its ruling is made under each reading).

    Its cards are looked through for a two only when the variant leaves the twos open."""
    situation, action = _dict(item.get("situation")), _dict(item.get("action"))
    settled = _dict(item.get("house_rules"))
    count = 0
    twos = None
    for name in _open_names(rules):
        if name in settled:
            continue  # the table's own house rule settles it: ruled once
        if name == "wild.twos":
            if twos is None:
                twos = _has_two(_dict(situation.get("player")).get("hand"), action.get("melds"), action.get("add"))
            if not twos:
                continue  # a point this item cannot reach
        elif (name.startswith("opening.") and melded) or (name.startswith("stock.")
                                                         and not situation.get("stock_count") == 0):
            continue  # a point this item cannot reach
        count += 1
    return min(count, MAX_OPEN_POINTS)


_OPEN: dict[str, tuple[Variant, tuple[str, ...]]] = {}  # variant id -> (the variant, its open points)


def _open_names(rules: Variant) -> tuple[str, ...]:
    """The points the variant's text leaves open (worked out once per loaded variant)."""
    hit = _OPEN.get(rules.id)
    if hit is None or hit[0] is not rules:
        hit = _OPEN[rules.id] = (rules, tuple(n for n in rules.params if readings_for(rules, n)))
    return hit[1]


def ruling_cost(item: Any, variants: dict[str, Variant]) -> int:
    """Estimated cost of one ``/v1/adjudicate`` item, in units (a misshapen item costs the base)."""
    variant_id = item.get("variant") if isinstance(item, dict) else None
    rules = variants.get(variant_id) if isinstance(variant_id, str) else None
    if rules is None:
        return BASE_UNITS
    situation, action = _dict(item.get("situation")), _dict(item.get("action"))
    team, player = _dict(situation.get("team")), _dict(situation.get("player"))
    melded = _cards(team.get("melds")) + _cards(_dict(situation.get("opponents")).get("melds")) \
        + _cards(action.get("melds")) + _cards(action.get("add"))
    held = _cards(player.get("hand"))
    opened = bool(team.get("melds") or player.get("has_melded"))
    points = _open_points(rules, item, opened)
    runs = 1 + 2 ** points if points else 1  # the first ruling, then one per combination of readings
    return runs * (BASE_UNITS + melded // CARDS_PER_UNIT + held // HAND_CARDS_PER_UNIT)


def score_cost(item: Any, variants: dict[str, Variant]) -> int:
    """Estimated cost of one ``/v1/score`` item: its rounds, and the cards its teams list."""
    if not isinstance(item, dict):
        return BASE_UNITS
    rounds = item.get("rounds") if isinstance(item.get("rounds"), list) else [item]
    cards = 0
    for one in rounds:
        for team in (_get(one, "teams") if isinstance(_get(one, "teams"), list) else []):
            cards += _cards(_get(team, "melds")) + _cards(_get(team, "hand"))
    return BASE_UNITS + len(rounds) * UNITS_PER_ROUND + cards // CARDS_PER_UNIT


def _check_budget(items: list, cost: Callable[[Any, dict], int], variants: dict) -> None:
    budget = current_app.config["BATCH_BUDGET"]
    total = sum(cost(item, variants) for item in items)
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
    """``{"results": [...]}`` in pieces of about :data:`PIECE` bytes, each item worked out as it is reached.

    The server closes the generator when a piece cannot be written (the client has gone, or does
    not read): the items not reached are then never worked out.
    """
    piece = [b'{"results":[']
    size = 0
    turn = time.monotonic() + TURN_SECONDS
    late = False
    index = 0
    try:
        for index, item in enumerate(items):
            if index and not late and time.monotonic() > deadline:
                late = True
            if late:
                result = not_done
            else:
                try:
                    result = jsonio.dumps(answer(item, variants, lang))
                except AdjudicatorError as e:
                    result = jsonio.dumps({"problem": serialize.item_problem(e, lang, problem_type)})
                except Exception:  # noqa: BLE001 -- the answer has begun: a failed item is that item's 500
                    logger.exception("batch item %d failed", index)
                    result = internal
            if index:
                piece.append(b",")
            piece.append(result)
            size += len(result)
            if size >= PIECE:
                yield b"".join(piece)
                piece, size = [], 0
            if not late and time.monotonic() >= turn:
                time.sleep(_TURN_PAUSE)  # the worker's other connections and its heartbeat run meanwhile
                turn = time.monotonic() + TURN_SECONDS
    except GeneratorExit:
        logger.warning("batch stopped after item %d of %d: the client is gone or does not read", index + 1,
                       len(items))
        raise
    piece.append(b"]}")
    yield b"".join(piece)


def _item_problem(slug: str, status: int, message: Message, lang: str) -> bytes:
    """An item's own problem, worded once for the whole batch."""
    detail = render(message, lang)
    return jsonio.dumps({"problem": {"type": problem_type(slug), "title": render(msg(f"title.{slug}"), lang),
                                     "status": status, "detail": detail,
                                     "errors": [{"pointer": "", "detail": detail}]}})


def _batch(answer: Callable[[Any, dict, str], dict], cost: Callable[[Any, dict], int]) -> Response:
    started = time.monotonic()
    variants = loaded_variants()
    items = check(json_body(), "batch", variants)["requests"]
    _check_budget(items, cost, variants)
    lang = current_language()
    seconds = current_app.config["BATCH_DEADLINE"]
    late = _item_problem("batch-deadline", 503, msg("detail.batch_deadline", seconds=math.ceil(seconds)), lang)
    failed = _item_problem("internal-error", 500, msg("detail.internal"), lang)
    stream = _results(items, answer, variants, lang, started + seconds, late, failed, current_app.logger)
    return Response(stream, mimetype="application/json")


def _ruling(item: Any, variants: dict, lang: str, words: bool = True) -> dict:
    return batch_item("adjudicate", item, lang, variants, words)  # the library's one answer to an item


def _score(item: Any, variants: dict, lang: str) -> dict:
    return batch_item("score", item, lang, variants)


@bp.post("/adjudicate/batch")
def adjudicate_batch():
    # the answer is streamed after the request's context has gone: what the request asks is read now
    return _batch(partial(_ruling, words=wants_words()), ruling_cost)


@bp.post("/score/batch")
def score_batch():
    return _batch(_score, score_cost)
