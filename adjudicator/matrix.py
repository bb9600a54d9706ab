"""The rule matrix: every catalogue parameter side by side across variants.

:func:`matrix` answers::

    {"variants": [ids, in the order given],
     "rows": [{"parameter": name, "description": ..., "type": "bool" | "int" | ...,
               "accepts": "true or false" | ...,
               "differs": bool,
               "values": {id: {"value", "status", "note", "citations"}}}]}

with one row per parameter in catalogue order (:data:`adjudicator.parameters.PARAMETERS`).
A row ``differs`` when its value or its status is not the same in every
variant; ``differs=True`` keeps only those rows. Values are as JSON has them
(a by-players mapping has string keys).

:func:`matrix_csv` is the same table as CSV (RFC 4180: the csv module's
quoting, CRLF line ends; the caller encodes it as UTF-8): a header row
``parameter, description`` then ``<id> value``, ``<id> status``, ``<id> quote``
per variant, and one row per parameter. A value is JSON-encoded when it is not
a scalar (lists, mappings); ``true``/``false`` are written as in JSON and an
absent value (a not_stated parameter) as an empty cell. The quote is the
first citation's words, or the note when the entry has no citation.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .parameters import PARAMETERS
from .variants import jsonable


def _cell(entry) -> dict:
    out = entry.as_dict()
    return {"value": jsonable(out["value"]), "status": out["status"], "note": out["note"],
            "citations": out["citations"]}


def matrix(variants: dict, differs: bool = False) -> dict:
    """Every parameter of every variant in ``variants`` (a dict id -> Variant, in the order to show)."""
    ids = list(variants)
    rows = []
    for param in PARAMETERS:
        values = {vid: _cell(variants[vid].entry(param.name)) for vid in ids}
        seen = {(json.dumps(v["value"], sort_keys=True), v["status"]) for v in values.values()}
        row = {"parameter": param.name, "description": param.description, "type": param.type,
               "accepts": param.describe_type(), "differs": len(seen) > 1, "values": values}
        if row["differs"] or not differs:
            rows.append(row)
    return {"variants": ids, "rows": rows}


def csv_value(value: Any) -> str:
    """A parameter value for one CSV cell."""
    if value is None:
        return ""
    if isinstance(value, (bool, dict, list, tuple)):
        return json.dumps(jsonable(value), ensure_ascii=False)
    return str(value)


def matrix_csv(variants: dict, differs: bool = False) -> str:
    """The matrix as CSV text (one header row, one row per parameter kept)."""
    table = matrix(variants, differs)
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")  # QUOTE_MINIMAL: RFC 4180 quoting
    header = ["parameter", "description"]
    for vid in table["variants"]:
        header += [f"{vid} value", f"{vid} status", f"{vid} quote"]
    writer.writerow(header)
    for row in table["rows"]:
        cells = [row["parameter"], row["description"]]
        for vid in table["variants"]:
            v = row["values"][vid]
            quote = v["citations"][0]["quote"] if v["citations"] else (v["note"] or "")
            cells += [csv_value(v["value"]), v["status"], quote]
        writer.writerow(cells)
    return buf.getvalue()
