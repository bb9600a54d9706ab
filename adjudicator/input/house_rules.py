"""House rules: a table's own settlement of points its document leaves open.

A house rule overrides one named parameter for one request. It is validated by
the parameter's own type, and the resulting entry is marked so that rulings
and scores cite the house rule instead of the document for that point.
"""

from __future__ import annotations

from typing import Any

from ..model.enums import Status
from ..model.errors import ImpossibleInput, issue, pointer
from ..model.messages import Param
from ..model.parameters import BY_NAME, ParamValueError, check_value
from ..variants import Entry, Variant


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
        try:
            entries[name] = Entry(name, check_value(param, value), Status.STATED, None, (), source="house_rule")
        except ParamValueError as e:
            issues.append(issue(at, "error.house_rules.value", parameter=Param(name), reason=e.message,
                                accepts=param.accepts()))
    if issues:
        raise ImpossibleInput(issues)
    return variant.with_entries(entries)
