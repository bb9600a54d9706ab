"""Authoring aid: fill in the offsets and section of citations in a variant file.

Write a citation as ``- {quote: "exact words"}`` (optionally with
``occurrence: 2`` when the words stand more than once) and run::

    python -m adjudicator.citefill variants/sv-classic.yaml

Each such line is rewritten in place as
``- {quote: "…", start: N, end: M, section: "…"}``. Lines that already carry
offsets are left alone; the loader verifies them all at start-up either way.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

from .variants import _heading_positions, section_at

LINE = re.compile(r"^(?P<indent>\s*)- \{quote: (?P<rest>.*)\}\s*$")


def fill(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    data = yaml.safe_load("".join(lines))
    text = (path.parent / data["source"]).read_bytes().decode("utf-8")
    positions = _heading_positions(data["id"], text, list(data.get("headings") or []))
    changed = 0
    for i, line in enumerate(lines):
        m = LINE.match(line)
        if not m:
            continue
        item = yaml.safe_load("{quote: " + m.group("rest") + "}")
        if "start" in item:
            continue
        quote, occurrence = item["quote"], int(item.get("occurrence", 1))
        idx = -1
        for _ in range(occurrence):
            idx = text.find(quote, idx + 1)
            if idx < 0:
                sys.exit(f"{path}:{i + 1}: quote not found (occurrence {occurrence}): {quote!r}")
        section = section_at(positions, idx)
        lines[i] = (f"{m.group('indent')}- {{quote: {json.dumps(quote, ensure_ascii=False)}, start: {idx}, "
                    f"end: {idx + len(quote)}, section: {json.dumps(section, ensure_ascii=False)}}}\n")
        changed += 1
    path.write_text("".join(lines), encoding="utf-8")
    return changed


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(f"{arg}: {fill(Path(arg))} citations filled")
