"""An action as the JSON ``/v1/adjudicate`` takes, so that a listed option can be sent back as it is.

The inverse of :func:`adjudicator.input.parse.action` for the actions the option search
builds: ``parse.action(action_body(a)) == a``.
"""

from __future__ import annotations

from ..model.actions import Action, Add
from ..model.enums import ActionType


def action_body(action: Action) -> dict:
    """``{"type": ..., ...}`` with only the members the action's type reads, and only those it uses."""
    body: dict = {"type": action.type}
    if action.type == ActionType.TAKE_PILE:
        body["with"] = list(action.with_cards)
    if action.melds:
        body["melds"] = [list(m) for m in action.melds]
    if action.adds:
        body["add"] = [_add(a) for a in action.adds]
    if action.type == ActionType.GO_OUT and action.discard:
        body["discard"] = action.discard
    if action.type == ActionType.DISCARD:
        body["card"] = action.discard
    return body


def _add(add: Add):
    return {"to": add.to, "cards": list(add.cards)} if add.to is not None else list(add.cards)

