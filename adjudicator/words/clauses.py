"""A reading or a parameter's value as a clause: a message whose key the catalogue has.

"if twos are wild", "twos are not wild": the rulings' readings and the comparisons
both say a value this way, and the renderer words it.
"""

from __future__ import annotations

from typing import Any

from ..model.messages import Items, Message, Param, ParamValue, msg
from .catalogue_params import PARAMS


def reading_message(values: tuple) -> Message:
    """One reading in words: "if twos are wild", "if a team may not take the pile before it has opened"."""
    return msg("reading.if", points=Items(tuple(statement(p, v) for p, v in values), " & "))


def statement(name: str, value: Any) -> Message:
    """What a parameter's value says, as a clause ("twos are not wild")."""
    words_of = PARAMS.get(name, {})
    if isinstance(value, bool) and ("yes" if value else "no") in words_of:
        return msg(f"param.{name}.{'yes' if value else 'no'}")
    if isinstance(value, str) and value in words_of.get("choices", {}):
        return msg(f"param.{name}.{value}")
    if "reading" in words_of:  # a figure said as the clause a person would use ("the first meld ... needs 50")
        return msg(f"param.{name}.reading", value=ParamValue(name, value))
    return msg("reading.number", parameter=Param(name), value=ParamValue(name, value))
