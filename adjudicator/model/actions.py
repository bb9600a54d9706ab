"""The action a ruling is asked about: draw, take the pile, meld, go out, or discard."""

from __future__ import annotations

from dataclasses import dataclass, field

ACTION_TYPES = ("draw", "take_pile", "meld", "go_out", "discard")


@dataclass(frozen=True, slots=True)
class Add:
    """Cards added to the team's meld of ``to`` (a rank), or of the cards' own rank when ``to`` is None."""

    cards: tuple[str, ...]
    to: str | None = None
    # where the addition stands in the request, to point at its cards; not part of what the addition is
    pointer: str = field(default="", compare=False)


@dataclass(frozen=True)
class Action:
    """One action. ``with_cards`` are the hand cards shown with the pile's top card (take_pile)."""

    type: str
    with_cards: tuple[str, ...] = ()
    melds: tuple[tuple[str, ...], ...] = ()
    adds: tuple[Add, ...] = ()
    discard: str | None = None

    def hand_cards(self) -> list[str]:
        """Every card the action takes from the hand (for take_pile: only ``with``)."""
        if self.type == "take_pile":
            return list(self.with_cards)
        out = self.laid_cards()
        return out + [self.discard] if self.discard else out

    def laid_cards(self) -> list[str]:
        """Every card the action lays on the table (new melds and additions)."""
        out = [c for m in self.melds for c in m]
        for add in self.adds:
            out += add.cards
        return out
