"""The two ends of a turn: drawing from the stock, and the discard that ends it.

A draw is one action; what it brings (how many cards, an empty stock ending the
round or forcing the pile) is in its ruling. Each distinct card in hand is a
discard candidate; the ruling's consequences say what it does to the pile (a
wild card freezes it, a black three blocks the next player).
"""

from __future__ import annotations

from ..model.actions import Action
from ..model.enums import ActionType
from ..model.cards import RANKS, JOKER, rank
from ..model.messages import Card, msg
from .hand import HandView, players_figure
from .slots import Candidate, Slot
from ..model.situation import Situation


def draw_slots(view: HandView, situation: Situation) -> list[Slot]:
    count = players_figure(view.rules, situation, "draw.cards")
    if situation.stock_count == 0:
        message = msg("options.draw.empty_stock")
    elif count is None:
        message = msg("options.draw.stock_unknown")
    else:
        message = msg("options.draw.stock", count=count)
    return [Slot("draw", "draw", None, [Candidate(Action(ActionType.DRAW), "stock", message)])]


def discard_slots(view: HandView, situation: Situation) -> list[Slot]:
    order = {r: i for i, r in enumerate(RANKS)}
    cards = sorted(set(view.hand), key=lambda c: (order.get(rank(c), len(RANKS)) if c != JOKER else -1, c))
    return [Slot(f"discard:{c}", "discard", None if c == JOKER else rank(c),
                 [Candidate(Action(ActionType.DISCARD, discard=c), "card", msg("options.discard.card", card=Card(c)))])
            for c in cards]
