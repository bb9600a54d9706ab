"""The rule matrix: every catalogue parameter side by side across variants.

One :class:`MatrixRow` per parameter, in catalogue order
(:data:`adjudicator.model.parameters.PARAMETERS`), with each variant's entry. A row
``differs`` when its value or its status is not the same in every variant.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.parameters import PARAMETERS, Param
from ..variants import Entry, Variant


@dataclass(frozen=True)
class MatrixRow:
    param: Param
    differs: bool
    entries: dict[str, Entry]  # variant id -> its entry, in the order asked for


def matrix(variants: dict[str, Variant], differs_only: bool = False) -> tuple[MatrixRow, ...]:
    """Every parameter of every variant in ``variants`` (id -> Variant, in the order to show)."""
    rows = []
    for param in PARAMETERS:
        entries = {vid: v.entry(param.name) for vid, v in variants.items()}
        seen = []
        for e in entries.values():
            if (e.value, e.status) not in seen:
                seen.append((e.value, e.status))
        row = MatrixRow(param, len(seen) > 1, entries)
        if row.differs or not differs_only:
            rows.append(row)
    return tuple(rows)
