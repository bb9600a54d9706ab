"""House rules: a table's own settlement of points its document leaves open.

A house rule overrides one named parameter for one request. It is validated by
the parameter's own type, and the resulting entry is marked so that rulings
and scores cite the house rule instead of the document for that point.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import InputError, pointer
from .parameters import BY_NAME, ParamValueError, check_value
from .variants import Entry, Variant


def apply(variant: Variant, house_rules: Any, base: str = "/house_rules") -> Variant:
    """Return ``variant`` with ``house_rules`` ({parameter: value}) applied, or raise a 422."""
    if not house_rules:
        return variant
    if not isinstance(house_rules, dict):
        raise InputError([{"pointer": base, "detail": "house_rules must be an object of parameter: value"}])
    errors, entries = [], {}
    for name, value in house_rules.items():
        param = BY_NAME.get(name)
        if param is None:
            errors.append({"pointer": pointer(*_split(base), name),
                           "detail": f"unknown parameter {name!r}; GET /v1/variants/{{id}} lists them"})
            continue
        try:
            entries[name] = Entry(name, check_value(param, value), "stated",
                                  f"House rule: {name} = {value!r}, agreed by the players.", (), house_rule=True)
        except ParamValueError as e:
            errors.append({"pointer": pointer(*_split(base), name),
                           "detail": f"{name} {e} ({param.describe_type()})"})
    if errors:
        raise InputError(errors)
    changed = copy.copy(variant)
    changed.params = {**variant.params, **entries}
    changed.cite_cache = {}
    return changed


def _split(base: str) -> list[str]:
    return [p for p in base.split("/") if p]
