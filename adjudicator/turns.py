"""Checkpoints: where long work lets other work run, without the engine knowing whose it is.

The engine is CPU-bound and never waits; a server that runs many requests in one process
(gunicorn's gevent worker: one greenlet per connection) would let one long request -- the
options of a whole deck, a comparison, a long replay -- hold every other connection of the
process, its liveness probe included, until it is done. So the engine calls :func:`checkpoint`
between small units of its work (a ruling, a layout walked), saying how much work that was (a ruling: the melds it
checks, :func:`~adjudicator.rules.facts.ruling_work`; a count, the same on every machine), and a caller that needs
turns sets a hook for the work it starts (:func:`taking_turns`): the web layer lets the worker's other
connections run every 20 ms (``web_api/budgets.py``). Without a hook a checkpoint does nothing
(the library, the command line, the phone). The engine never learns who waits, or how.

A hook may raise: the web layer's turns a request that works more than it was priced for into heavy work, which
may be shed with a 503 (``web_api/budgets.py``). The engine lets such an exception pass, uncaught: its tables keep
a value only once it is made whole, so a request ended at a checkpoint leaves nothing half made.

The hook lives in a :class:`~contextvars.ContextVar`: each thread, task or greenlet that sets one
has its own, so one request's turns are not another's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Hook = Callable[[int], None]  # called with the work done since the last checkpoint (a count of units)
_HOOK: ContextVar[Hook | None] = ContextVar("adjudicator_checkpoint", default=None)


def checkpoint(work: int = 1) -> None:
    """A point where the work in progress may let other work run (a no-op unless a hook is set); ``work``: the
    units of work this step is (a ruling: the melds it checks)."""
    hook = _HOOK.get()
    if hook is not None:
        hook(work)


class Turns:
    """A hook that calls ``give_way`` once ``every`` seconds of work have passed since it last did."""

    __slots__ = ("every", "give_way", "due")

    def __init__(self, every: float, give_way: Callable[[], None]):
        self.every, self.give_way = every, give_way
        self.due = time.monotonic() + every

    def __call__(self, work: int = 1) -> None:
        if time.monotonic() >= self.due:
            self.give_way()
            self.due = time.monotonic() + self.every


def set_hook(hook: Hook | None):
    """Set the checkpoint hook of the current context; returns the token :func:`reset_hook` takes."""
    return _HOOK.set(hook)


def reset_hook(token) -> None:
    _HOOK.reset(token)


@contextmanager
def taking_turns(every: float, give_way: Callable[[], None]) -> Iterator[Turns]:
    """Within the block, every ``every`` seconds of work the engine calls ``give_way`` at its next checkpoint."""
    turns = Turns(every, give_way)
    token = _HOOK.set(turns)
    try:
        yield turns
    finally:
        _HOOK.reset(token)
