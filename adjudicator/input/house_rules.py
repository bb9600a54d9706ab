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

from typing import Any, Final

from ..memo import Memo, size_of
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
    return with_house_rules(variant, tuple((name, repr(entry.value), entry.value) for name, entry in entries.items()))


# A variant with a table's house rules is kept, for the next request with the same rules (issue 44: a request with
# house rules cost twice one without, every variant table of its copy made again). The key is the variant's id and
# each rule's name, value and the value's repr (``True`` is not ``1``), in the order given; a copy is handed out only
# for the very variant object it was made from (another set of variants with the same ids makes its own). A copy
# is read-only like the variant (its values frozen by ``Entry``, its table by ``Variant.once``'s rules). A copy's
# own table is bounded by ``COPY_TABLE_BYTES`` (a ruling's citations under the few rules a table changes: some
# 10 KB) and each copy is counted at that bound, so the kept copies hold at most ``HOUSE_COPIES`` x
# ``COPY_TABLE_BYTES`` besides themselves (their entries are the variant's, but for the house rules).
HOUSE_COPIES: Final = 32
COPY_TABLE_BYTES: Final = 1024 * 1024
_COPIES: Final[Memo] = Memo("variants with house rules", HOUSE_COPIES * (COPY_TABLE_BYTES + 16 * 1024),
                            max_entries=HOUSE_COPIES)


def with_house_rules(variant: Variant, rules: tuple[tuple[str, str, Any], ...]) -> Variant:
    """``variant`` with each ``(name, repr, value)`` of ``rules`` as a house rule, made once and kept
    (:data:`_COPIES`) while the same variant object is asked with the same rules."""
    key = (variant.id, rules)
    hit = _COPIES.recent(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    copy = variant.with_entries({name: Entry(name, value, Status.STATED, None, (), source="house_rule")
                                 for name, _, value in rules}, table_bytes=COPY_TABLE_BYTES)
    _COPIES.put(key, (variant, copy), size_of(key) + COPY_TABLE_BYTES)
    return copy
