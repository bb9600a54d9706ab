"""House rules: a table's own settlement of points its document leaves open.

A house rule overrides one named parameter for one request. It is validated by
the parameter's own type, and the resulting entry is marked so that rulings
and scores cite the house rule instead of the document for that point.

A house rule is as long as a table's agreement can be, and no longer (issue 36): a list
of opening bands at most :data:`MAX_BANDS` long, any other list or mapping at most
:data:`MAX_ITEMS`. A longer one is refused before any of it is read (422, pointing at the
rule), so that 130,000 bands -- 3 MiB that each ruling would show again -- cost nothing.
"""

from __future__ import annotations

from typing import Any

from ..model.enums import Status
from ..model.errors import ImpossibleInput, issue, pointer
from ..model.messages import Param, msg
from ..model.parameters import BY_NAME, ParamValueError, check_value
from ..variants import Entry, Variant

# The texts' own tables of opening bands have three (no-pagat, sv-classic, sv-gamerules) or four (da-ludo)
# bands; a table that splits its scores finer still has a few: three times the longest table is room enough.
MAX_BANDS = 12
# Any other list or mapping of a house rule: the choices of an enum list (at most four), player counts
# (five), counts of cards (twelve), with room for a repeat.
MAX_ITEMS = 16


def too_long(param_type: str, value: Any) -> int | None:
    """The most items a house rule of this type may hold, when ``value`` holds more (else None)."""
    if not isinstance(value, (list, dict)):
        return None
    most = MAX_BANDS if param_type == "bands" else MAX_ITEMS
    return most if len(value) > most else None


def apply(variant: Variant, house_rules: Any, base: str = "/house_rules") -> Variant:
    """Return ``variant`` with ``house_rules`` ({parameter: value}) applied, or raise :class:`ImpossibleInput`."""
    if not house_rules:
        return variant
    if not isinstance(house_rules, dict):
        raise ImpossibleInput([issue(base, "error.house_rules.not_object")])
    issues, entries = [], {}
    for name, value in house_rules.items():
        param = BY_NAME.get(name)
        at = base + pointer(name)
        if param is None:
            issues.append(issue(at, "error.house_rules.unknown", name=str(name)))
            continue
        most = too_long(param.type, value)
        if most is not None:  # refused before any of it is read
            issues.append(issue(at, "error.house_rules.value", parameter=Param(name),
                                reason=msg("value.too_many_items", maximum=most), accepts=param.accepts()))
            continue
        try:
            entries[name] = Entry(name, check_value(param, value), Status.STATED, None, (), source="house_rule")
        except ParamValueError as e:
            issues.append(issue(at, "error.house_rules.value", parameter=Param(name), reason=e.message,
                                accepts=param.accepts()))
    if issues:
        raise ImpossibleInput(issues)
    return variant.with_entries(entries)
