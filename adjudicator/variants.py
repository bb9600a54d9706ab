"""Load the variant files and their source texts, verifying every citation.

A variant is data: ``variants/<id>.yaml`` gives every parameter of
:mod:`adjudicator.parameters` a value, a status and the words of the source
document it rests on. Loading refuses a variant whose citation is not an exact
substring of its source at the stated offsets, or whose section is not the
heading the quote stands under: a rules authority must fail loudly rather
than cite words the document does not contain.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .parameters import BY_NAME, PARAMETERS, ParamValueError, check_value

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "variants"
STATUSES = ("stated", "interpreted", "not_stated")


class VariantError(Exception):
    """A variant file is wrong; the message names the file, parameter and citation."""


@dataclass(frozen=True)
class Citation:
    variant: str
    language: str
    section: str
    quote: str
    start: int
    end: int

    def as_dict(self) -> dict:
        return {"variant": self.variant, "language": self.language, "section": self.section,
                "quote": self.quote, "start": self.start, "end": self.end}


def jsonable(value: Any) -> Any:
    """A parameter value as JSON has it: mapping keys become strings (``{2: 5000}`` -> ``{"2": 5000}``)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def cited(variant: "Variant", names) -> tuple[list[dict], list[dict]]:
    """The document citations behind ``names`` (deduplicated, in order) and the house rules among them.

    A house-ruled parameter cites the players' agreement, not the document.
    """
    citations, house, seen = [], [], set()
    for name in names:
        entry = variant.entry(name)
        if entry.house_rule:
            house.append({"parameter": name, "value": entry.value})
            continue
        for c in entry.citations:
            if (c.start, c.end) not in seen:
                seen.add((c.start, c.end))
                citations.append(c.as_dict())
    return citations, house


@dataclass(frozen=True)
class Entry:
    """One parameter of one variant: value, status, note and citations."""

    name: str
    value: Any
    status: str
    note: str | None
    citations: tuple[Citation, ...]
    house_rule: bool = False

    def as_dict(self) -> dict:
        out = {"name": self.name, "value": self.value, "status": self.status, "note": self.note,
               "citations": [c.as_dict() for c in self.citations]}
        if self.house_rule:
            out["status"] = "house_rule"
        return out


@dataclass
class Variant:
    id: str
    name: str
    language: str
    source_file: str
    seed_file: str
    description: str
    text: str
    headings: tuple[str, ...]
    params: dict[str, Entry] = field(default_factory=dict)
    # rule citations computed once per set of parameters (rulings ask for the same sets again and again)
    cite_cache: dict = field(default_factory=dict, repr=False, compare=False)

    def entry(self, name: str) -> Entry:
        return self.params[name]

    def value(self, name: str) -> Any:
        return self.params[name].value

    @property
    def players_supported(self) -> list[int]:
        return list(self.value("players.supported"))

    def summary(self) -> dict:
        return {"id": self.id, "name": self.name, "language": self.language, "source_file": self.seed_file,
                "description": self.description, "players_supported": self.players_supported,
                "target_score": {str(k): v for k, v in sorted((self.value("game.target") or {}).items())}}


def _heading_positions(variant_id: str, text: str, headings: list[str]) -> list[tuple[int, str]]:
    """Find each heading as a whole line of the text, in document order."""
    positions, cursor = [], 0
    for heading in headings:
        idx = _find_line(text, heading, cursor)
        if idx < 0:
            raise VariantError(f"{variant_id}: heading {heading!r} is not a line of the source text "
                               f"(after offset {cursor})")
        positions.append((idx, heading))
        cursor = idx + len(heading)
    return positions


def _find_line(text: str, line: str, start: int) -> int:
    idx = text.find(line, start)
    while idx >= 0:
        before_ok = idx == 0 or text[idx - 1] == "\n"
        after = idx + len(line)
        if before_ok and (after == len(text) or text[after] == "\n"):
            return idx
        idx = text.find(line, idx + 1)
    return -1


def section_at(positions: list[tuple[int, str]], offset: int) -> str:
    """The heading a character offset stands under ('' before the first heading)."""
    current = ""
    for pos, heading in positions:
        if pos <= offset:
            current = heading
        else:
            break
    return current


def _load_citation(variant_id: str, language: str, text: str, positions, where: str, raw: Any) -> Citation:
    if not isinstance(raw, dict) or not {"quote", "start", "end"} <= set(raw):
        raise VariantError(f"{variant_id}: {where}: a citation needs quote, start and end, got {raw!r}")
    quote, start, end = raw["quote"], raw["start"], raw["end"]
    if not isinstance(quote, str) or not quote.strip() or not isinstance(start, int) or not isinstance(end, int):
        raise VariantError(f"{variant_id}: {where}: citation {raw!r} has a bad quote or offsets")
    if text[start:end] != quote:
        found = text.find(quote)
        hint = f"; the quote stands at {found}:{found + len(quote)}" if found >= 0 else \
            "; the quote is not in the source text at all"
        raise VariantError(f"{variant_id}: {where}: citation {quote!r} does not match the source at "
                           f"{start}:{end} (the source has {text[start:end]!r}){hint}")
    section = section_at(positions, start)
    if raw.get("section", section) != section:
        raise VariantError(f"{variant_id}: {where}: citation {quote!r} stands under {section!r}, "
                           f"not {raw.get('section')!r}")
    return Citation(variant_id, language, section, quote, start, end)


def load_variant(path: Path) -> Variant:
    """Load and verify one variant file; raise :class:`VariantError` on any fault."""
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise VariantError(f"{path.name}: not a mapping")
    try:
        vid, language, source = data["id"], data["language"], data["source"]
    except KeyError as e:
        raise VariantError(f"{path.name}: missing key {e.args[0]!r}") from None
    source_path = path.parent / source
    try:
        text = source_path.read_bytes().decode("utf-8")
    except OSError as e:
        raise VariantError(f"{vid}: cannot read source text {source_path}: {e}") from None
    headings = list(data.get("headings") or [])
    positions = _heading_positions(vid, text, headings)
    variant = Variant(id=vid, name=data.get("name", vid), language=language, source_file=source,
                      seed_file=data.get("seed_file", source), description=data.get("description", ""),
                      text=text, headings=tuple(headings))
    raw_params = data.get("parameters")
    if not isinstance(raw_params, dict):
        raise VariantError(f"{vid}: 'parameters' must be a mapping")
    unknown = sorted(set(raw_params) - set(BY_NAME))
    if unknown:
        raise VariantError(f"{vid}: unknown parameters {unknown}")
    missing = [p.name for p in PARAMETERS if p.name not in raw_params]
    if missing:
        raise VariantError(f"{vid}: parameters without an entry: {missing}")
    for param in PARAMETERS:
        variant.params[param.name] = _load_entry(variant, positions, param, raw_params[param.name])
    return variant


def _load_entry(variant: Variant, positions, param, raw: Any) -> Entry:
    vid, where = variant.id, f"parameter {param.name}"
    if not isinstance(raw, dict):
        raise VariantError(f"{vid}: {where}: must be a mapping with value, status, note, cite")
    status, note = raw.get("status"), raw.get("note")
    if status not in STATUSES:
        raise VariantError(f"{vid}: {where}: status must be one of {STATUSES}, got {status!r}")
    citations = tuple(_load_citation(vid, variant.language, variant.text, positions, where, c)
                      for c in raw.get("cite") or [])
    if status == "stated" and not citations:
        raise VariantError(f"{vid}: {where}: a stated parameter needs at least one citation")
    if status != "stated" and not (isinstance(note, str) and note.strip()):
        raise VariantError(f"{vid}: {where}: an {status} parameter needs a note saying why")
    if status == "not_stated":
        if raw.get("value") is not None:
            raise VariantError(f"{vid}: {where}: a not_stated parameter has no value (use null)")
        value = None
    else:
        try:
            value = check_value(param, raw.get("value"))
        except ParamValueError as e:
            raise VariantError(f"{vid}: {where}: value {raw.get('value')!r} {e}") from None
    return Entry(param.name, value, status, note, citations)


@lru_cache(maxsize=4)
def load_all(directory: str | None = None) -> dict[str, Variant]:
    """Load every ``*.yaml`` in the variants folder, keyed by id, in file-name order."""
    folder = Path(directory or os.environ.get("CANASTA_VARIANTS_DIR") or DEFAULT_DIR)
    variants: dict[str, Variant] = {}
    for path in sorted(folder.glob("*.yaml")):
        v = load_variant(path)
        if v.id in variants:
            raise VariantError(f"{path.name}: duplicate variant id {v.id!r}")
        variants[v.id] = v
    if not variants:
        raise VariantError(f"no variant files in {folder}")
    return variants
