"""What the option search proposes before the engine rules on it: slots of candidate actions.

A :class:`Slot` is one option the listing may show ("meld your nines", "take the
pile with a natural pair"); its ``candidates`` are ways to do it, best first. The
search (:mod:`adjudicator.options.listing`) rules them in order and shows the first the
engine finds legal (or else the first it finds undetermined). Generators build
slots from counts, under one reading of the rules; slots of the same key from
several readings are merged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.actions import Action
from ..model.messages import Message


@dataclass(frozen=True)
class Candidate:
    """One concrete action for a slot, with what the listing says about it."""

    action: Action
    way: str  # how: natural_pair, all_naturals, cheapest, with_discard ...
    message: Message
    points: int | None = None  # the opening value it counts (openings, takes that open)


@dataclass
class Slot:
    """One option the listing may show: a stable ``key``, its kind, and candidate actions."""

    key: str
    kind: str  # draw | take_pile | meld | add | opening | go_out | discard
    rank: str | None = None
    candidates: list[Candidate] = field(default_factory=list)


def merge(into: dict[str, Slot], slots: list[Slot]) -> None:
    """Add ``slots`` to ``into`` by key, keeping the candidates of each in order and without repeats."""
    for slot in slots:
        held = into.get(slot.key)
        if held is None:
            into[slot.key] = Slot(slot.key, slot.kind, slot.rank, list(slot.candidates))
            continue
        seen = {c.action for c in held.candidates}
        held.candidates += [c for c in slot.candidates if c.action not in seen]
