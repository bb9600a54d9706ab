"""Load the variant files and their source texts, verifying every citation.

A variant is data: ``variants/<id>.yaml`` gives every parameter of
:mod:`adjudicator.model.parameters` a value, a status and the words of the source
document it rests on. Loading refuses a variant whose citation is not an exact
substring of its source at the stated offsets, or whose section is not the
heading the quote stands under: a rules authority must fail loudly rather
than cite words the document does not contain.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import stat
from importlib.util import find_spec
from importlib import resources
from importlib.resources.abc import Traversable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, TypeVar

from .memo import Memo, size_of
from .model.citations import Citation
from .model.enums import Status
from .model.frozen import FrozenDict, immutable
from .model.messages import VariantRef
from .model.parameters import BY_NAME, FREEZERS, PARAMETERS, ParamValueError, check_value, readings_of
from .words.catalogue import plain_english

CHECKOUT_DIR = Path(__file__).resolve().parent.parent / "variants"
STATUSES = tuple(s.value for s in Status)  # as the files write them: stated, interpreted, not_stated


class VariantError(RuntimeError):
    """A variant file (or the folder of them) is wrong; the message names the file, parameter and citation.

    A ``RuntimeError``: gunicorn then stops a start with its one line, ``Error: <message>``, not a traceback."""


@dataclass(frozen=True)
class Entry:
    """One parameter of one variant: value, status, note and citations.

    ``source`` says where the value comes from: ``document`` (the variant's text),
    ``house_rule`` (the players' agreement for this request) or ``reading`` (one
    reading of a point the text leaves open, tried while deciding across readings).
    ``readings`` are the values a table could take where the text is silent or
    reads two ways (for a ``not_stated`` entry; empty means the type's own choices).
    """

    name: str
    value: Any
    status: Status
    note: str | None  # the author's note in English
    citations: tuple[Citation, ...]
    source: str = "document"
    readings: tuple = ()
    notes: tuple[tuple[str, str], ...] = ()  # the note in other languages: (language, text)
    # for a figure by player count that the document states for some counts and not others (interpreted as a
    # whole): the counts whose figure it states outright -- a table is refused on those only
    stated_for: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # the value a ruling hands out (an interpretation's, a house rule's): read-only all the way down, so a
        # caller that edited it could not edit the variant and every ruling after it
        object.__setattr__(self, "value", immutable(self.value))
        object.__setattr__(self, "readings", immutable(tuple(self.readings)))

    def as_reading(self, value: Any) -> "Entry":
        """This entry with ``value`` tried as one reading of a point the text leaves open."""
        return replace(self, value=value, source="reading")

    def note_in(self, lang: str) -> str | None:
        """The note in ``lang`` where the file gives it, else in English."""
        return translated(self.note, self.notes, lang)

    @property
    def house_rule(self) -> bool:
        return self.source == "house_rule"

    @property
    def shown_status(self) -> str:
        """The status a reader sees: a house rule replaces the document's."""
        return "house_rule" if self.source == "house_rule" else self.status

    @property
    def settled(self) -> bool:
        """Whether a value is known: stated or interpreted by the document, or set by the table."""
        return self.status != Status.NOT_STATED or self.source != "document"


@dataclass(frozen=True)
class Variant:
    """One variant's rules: its text, its parameters' entries, and the values derived from them.

    Everything derived from the entries is worked out when the variant is made (:meth:`__post_init__`),
    for the variant as loaded and for each copy with other entries (:meth:`with_entries`: house rules,
    readings), which is made through the same constructor: nothing derived can outlive the entries it
    came from. ``tests/test_variants_derived.py`` holds every derived value of a copy equal to a
    variant built afresh from the copy's entries, and refuses a value worked out later (a cached property).
    """

    id: str
    name: str
    language: str
    source_file: str
    seed_file: str
    description: str
    text: str
    headings: tuple[str, ...]
    params: dict[str, Entry] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # the variant's name per language, where given
    descriptions: dict[str, str] = field(default_factory=dict)  # ``description`` in other languages
    short_names: dict[str, str] = field(default_factory=dict)  # a short name per language, for tiles (optional)
    # the text's own words for the game's things where they differ from the service's words in its language (the
    # service's word -> the text's, each found in the text): said beside its quotes (sv-classic: "slängstapeln")
    own_words: tuple[tuple[str, str], ...] = ()
    # the most its table of what it works out once (:meth:`once`) may hold: a copy kept for a table's house rules
    # holds less (adjudicator/input/house_rules.py), so that the copies kept are bounded too
    table_bytes: int = field(default=0, repr=False, compare=False)
    # --- derived from the fields above when the variant is made (never passed in) ---
    # the variant as a message argument: its id, and its name in each language
    ref: VariantRef = field(init=False, repr=False, compare=False)
    # cards in the whole deck: the most any list of cards in one table can hold
    deck_size: int = field(init=False, repr=False, compare=False)
    red_threes_in_deck: int = field(init=False, repr=False, compare=False)
    # the points a table could settle either way, each with the values it can take (the readings the file names,
    # else the type's own choices): what a ruling that hangs on one is tried under
    point_values: dict[str, tuple] = field(init=False, repr=False, compare=False)
    # what the engine works out once per variant object (:meth:`once`); a copy starts with its own, empty
    _worked_out: Memo = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for name in ("params", "names", "descriptions", "short_names"):  # read-only: a variant is shared by all
            set_(self, name, FrozenDict(getattr(self, name)))
        params = self.params
        set_(self, "ref", VariantRef(self.id, tuple(sorted(self.names.items())) + (("", self.name),), self.language,
                                     self.own_words))
        decks, jokers = params["deck.decks"].value if params else 0, params["deck.jokers"].value if params else 0
        set_(self, "deck_size", 52 * decks + jokers)
        set_(self, "red_threes_in_deck", 2 * decks)
        set_(self, "point_values", FrozenDict({name: values for name, values in
                                               ((name, _point_values(e)) for name, e in params.items()) if values}))
        set_(self, "_worked_out", Memo(f"variant {self.id}: worked out", self.table_bytes or WORKED_OUT_BYTES))

    def once(self, make: Callable[..., _T], *args: Any) -> _T:
        """``make(self, *args)``, worked out once per variant object and arguments, and handed out again.

        The key is ``make`` and the arguments themselves -- what ``make`` is given is all it may read besides the
        variant, so the key cannot leave out what the answer depends on -- and what ``make`` returns must be
        immutable all the way down (tuples, frozen dataclasses, read-only mappings): every caller gets the same
        object (``tests/test_worked_out.py``). Bounded by bytes (:class:`~adjudicator.memo.Memo`); a copy of the
        variant (house rules, a reading) has its own."""
        key = (make, args)
        table = self._worked_out
        hit = table.get(key, _NOT_YET)
        if hit is _NOT_YET:
            hit = make(self, *args)
            table.put(key, hit, size_of(key, (hit,), shared=_THE_VARIANTS))
        return hit

    def description_in(self, lang: str) -> str:
        return self.descriptions.get(lang, self.description)

    def entry(self, name: str) -> Entry:
        return self.params[name]

    def value(self, name: str) -> Any:
        return self.params[name].value

    @property
    def players_supported(self) -> list[int]:
        return list(self.value("players.supported"))

    def under_readings(self, chosen: tuple[tuple[str, Any], ...]) -> "Variant":
        """This variant with each open point of ``chosen`` read as the value given.

        One copy per choice, kept: a ruling decided across readings asks for the same few
        again and again, and each copy's citation cache then serves them all.
        """
        return self.once(_read_as, tuple((name, repr(value), value) for name, value in chosen))

    def with_entries(self, entries: dict[str, Entry], table_bytes: int = 0) -> "Variant":
        """The same variant with some entries replaced (house rules, readings): made by the constructor, so
        every derived value is worked out from the new entries, with its own, empty caches (``table_bytes``: the
        bound of its table, where not this variant's)."""
        return replace(self, params={**self.params, **entries}, table_bytes=table_bytes or self.table_bytes)


def _read_as(rules: Variant, chosen: tuple[tuple[str, str, Any], ...]) -> Variant:
    """``rules`` with each point read as the value given (``(name, repr, value)``: ``True`` is not ``1``)."""
    return rules.with_entries({name: rules.params[name].as_reading(value) for name, _, value in chosen})


def _point_values(entry: Entry) -> tuple:
    """The values a point the text leaves open (or reads two ways) can take; empty where it is settled or cannot
    be tried one by one (a single choice is no choice: it would settle the point)."""
    if entry.source != "document":
        return ()
    values = entry.readings or (readings_of(BY_NAME[entry.name]) if entry.status == Status.NOT_STATED else ())
    return values if len(values) > 1 else ()


_T = TypeVar("_T")
_NOT_YET = object()
WORKED_OUT_BYTES = 6 * 1024 * 1024  # per variant object: citations per check (~0.5 MB), the options' parts (~4 MB)
# what a variant's table holds of the variant itself (a reading's copy, its citations): counted with the variant
_THE_VARIANTS = (Variant, Entry, Citation)


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
    return Citation(variant_id, language, section, quote, start, end, _tags(variant_id, where, quote, raw))


def _tags(variant_id: str, where: str, quote: str, raw: dict) -> frozenset:
    """A citation's case tags from ``players: [2]``, ``band: 6000``, ``freezer: [joker]`` and ``about: [flag]``."""
    unknown = set(raw) - {"quote", "start", "end", "section", "players", "band", "freezer", "about"}
    if unknown:
        raise VariantError(f"{variant_id}: {where}: citation {quote!r} has unknown keys {sorted(unknown)}")
    tags = set()
    players = raw.get("players") or []
    if not isinstance(players, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in players):
        raise VariantError(f"{variant_id}: {where}: citation {quote!r}: players must be a list of player counts")
    tags |= {f"players:{p}" for p in players}
    band = raw.get("band")
    if band is not None:
        if not isinstance(band, int) or isinstance(band, bool):
            raise VariantError(f"{variant_id}: {where}: citation {quote!r}: band must be a band's lower bound")
        tags.add(f"band:{band}")
    freezers = raw.get("freezer") or []
    if not isinstance(freezers, list) or any(f not in FREEZERS + ("not_opened",) for f in freezers):
        raise VariantError(f"{variant_id}: {where}: citation {quote!r}: freezer must list kinds from "
                           f"{FREEZERS + ('not_opened',)}")
    tags |= {f"freezer:{f}" for f in freezers}
    about = raw.get("about") or []
    if not isinstance(about, list) or not all(isinstance(a, str) and a and ":" not in a for a in about):
        raise VariantError(f"{variant_id}: {where}: citation {quote!r}: about must list plain flags")
    return frozenset(tags | set(about))


def default_dir() -> Traversable:
    """Where the shipped rulebooks are: inside the installed package, else in the checkout.

    ``pip install .`` puts the repository's ``variants/`` into the package as
    ``adjudicator/rulebooks`` (pyproject.toml), read through :mod:`importlib.resources` so it is
    found from any working directory; a checkout (the service, the tests) reads ``variants/``
    beside the package, the same files.
    """
    packaged = resources.files(__package__).joinpath("rulebooks")
    return packaged if packaged.is_dir() else CHECKOUT_DIR


def load_variant(path: Path | Traversable, folder: Path | Traversable | None = None) -> Variant:
    """Load and verify one variant file (its source text is in ``folder``, default: the file's own);
    raise :class:`VariantError` on any fault.

    The file's parse may come from the cache (:func:`kept_parse`); one that does not make a variant is not
    trusted to say why: the file itself is parsed and loaded instead, and its faults are the ones raised."""
    try:
        raw = read_regular(path) if isinstance(path, Path) else path.read_bytes()
    except OSError as e:
        raise VariantError(f"{path.name}: cannot be read: {e}") from None
    kept = kept_parse(raw)
    if kept is not None:
        try:
            return _variant_from(path, folder, kept)
        except Exception:  # noqa: BLE001 -- whatever a kept parse does, the file decides: parse it
            pass
    return _variant_from(path, folder, parsed_yaml(raw))


def _variant_from(path: Path | Traversable, folder: Path | Traversable | None, data: object) -> Variant:
    """The variant ``data`` (a variant file's parse) describes, verified against its source text."""
    if not isinstance(data, dict):
        raise VariantError(f"{path.name}: not a mapping")
    try:
        vid, language, source = data["id"], data["language"], data["source"]
    except KeyError as e:
        raise VariantError(f"{path.name}: missing key {e.args[0]!r}") from None
    source_path = (folder if folder is not None else path.parent).joinpath(source)
    try:
        text = (read_regular(source_path) if isinstance(source_path, Path) else source_path.read_bytes()).decode("utf-8")
    except OSError as e:
        raise VariantError(f"{vid}: cannot read source text {source_path}: {e}") from None
    headings = list(data.get("headings") or [])
    positions = _heading_positions(vid, text, headings)
    raw_params = data.get("parameters")
    if not isinstance(raw_params, dict):
        raise VariantError(f"{vid}: 'parameters' must be a mapping")
    unknown = sorted(set(raw_params) - set(BY_NAME))
    if unknown:
        raise VariantError(f"{vid}: unknown parameters {unknown}")
    missing = [p.name for p in PARAMETERS if p.name not in raw_params]
    if missing:
        raise VariantError(f"{vid}: parameters without an entry: {missing}")
    params = {param.name: _load_entry(vid, language, text, positions, param, raw_params[param.name])
              for param in PARAMETERS}
    return Variant(id=vid, name=data.get("name", vid), language=language, source_file=source,
                   seed_file=data.get("seed_file", source), description=data.get("description", ""),
                   text=text, headings=tuple(headings), params=params,
                   names=_by_language(vid, "names", data.get("names")),
                   descriptions=_by_language(vid, "descriptions", data.get("descriptions")),
                   short_names=_by_language(vid, "short_names", data.get("short_names")),
                   own_words=_own_words(vid, text, data.get("own_words")))


def _own_words(vid: str, text: str, raw: Any) -> tuple[tuple[str, str], ...]:
    """``own_words``: the service's word -> the text's own word for the same thing; each of the text's words is
    found in the text itself (a word is never put in its mouth)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not all(isinstance(k, str) and k.strip() and isinstance(v, str) and v.strip()
                                            for k, v in raw.items()):
        raise VariantError(f"{vid}: 'own_words' must map a word of the service's to the text's own word")
    for word in raw.values():
        if word.lower() not in text.lower():
            raise VariantError(f"{vid}: own_words: {word!r} is not a word of its text")
    return tuple((k.strip(), v.strip()) for k, v in raw.items())


# --- the parsed files, kept between starts -------------------------------------------------------
# Parsing a variant's YAML is most of loading it (PyYAML builds every object in Python: ~7 ms a file).
# The parsed data is kept as marshal (plain data only, never pickle) in a private folder, named by the
# sha256 of the file's bytes and of the YAML library installed, so a changed file or library is parsed
# again. Only the parse is kept: every load still checks every citation against the source text.
#
# The cache is trusted no further than its folder, and an entry no further than it proves (issue 36):
# * the folder must be a real folder (not a symlink), this user's or root's (a cache written when an
#   image was built), and writable by its owner alone; otherwise nothing is read from it or kept in it;
# * an entry is opened without following a symlink and without waiting (a FIFO does not hang the
#   start), and read only if it is a regular file with one link, this user's or root's, writable by
#   its owner alone, and at most MAX_ENTRY_BYTES long (a device such as /dev/zero is not read);
# * it must begin with CACHE_FORMAT, name the sha256 of the very bytes being loaded (an entry copied
#   under another file's name is not that file's), and carry the sha256 of its own body;
# * its body must be plain data (marshal of dicts, lists, strings, numbers; never code), and the data
#   must make a variant that passes every check of the loader (values by their parameters' types,
#   statuses, citations against the source); else the file is parsed instead (load_variant).
# Anything odd means parsing the file, never a failed start. Who can write this user's private folder
# can write the variant files too: the cache guards against other users, links and damage, not the owner.

CACHE_FORMAT = b"canasta-variant-yaml-2\0"
MAX_ENTRY_BYTES = 4 * 1024 * 1024  # a kept parse of a shipped variant is about 60 KB
_DIGEST = 32  # bytes of a sha256
_PLAIN = (dict, list, str, int, float, bool, type(None))
_UNSAFE = stat.S_IWGRP | stat.S_IWOTH


def parsed_yaml(raw: bytes) -> object:
    """``raw`` (a variant file's bytes) parsed by PyYAML's safe loader, and kept for the next start where a
    private cache folder can be had (:func:`kept_parse` reads it back)."""
    import yaml  # here, not at the top: a start-up that finds every file in the cache never loads PyYAML
    text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as a file read as text
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml: 10x faster
    folder, key = _cache_folder(), _cache_key(raw)
    if folder is not None and key is not None:
        _write_cache(folder, key, raw, data)
    return data


def kept_parse(raw: bytes) -> object:
    """The parse of ``raw`` kept by an earlier start, or None (no cache, no entry, or one not trusted)."""
    folder, key = _cache_folder(), _cache_key(raw)
    if folder is None or key is None:
        return None
    return _read_cache(folder / key, raw)


def _private(info: os.stat_result) -> bool:
    """Whether a file or folder is this user's or root's, and writable by its owner alone."""
    if not hasattr(os, "getuid"):
        return True  # no POSIX owners and modes to check
    return info.st_uid in (os.getuid(), 0) and not info.st_mode & _UNSAFE


def _cache_folder() -> Path | None:
    """``CANASTA_CACHE_DIR`` (empty: no cache), else ``$XDG_CACHE_HOME`` or ``~/.cache``, then
    ``canasta-referee``; None where it cannot be made, or is not a private folder (see above)."""
    chosen = os.environ.get("CANASTA_CACHE_DIR")
    if chosen == "":
        return None
    try:
        folder = Path(chosen) if chosen else \
            Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "canasta-referee"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except (OSError, RuntimeError):  # no home, a read-only disk: parse every time
        return None
    return folder if stat.S_ISDIR(info.st_mode) and _private(info) else None


@functools.lru_cache(maxsize=1)
def _library_stamp() -> bytes | None:
    """What identifies the installed PyYAML (its files' path, size and time) without importing it."""
    spec = find_spec("yaml")
    if spec is None or spec.origin is None:
        return None
    stamps = []
    for name in ("__init__.py", "constructor.py", "resolver.py"):
        try:
            info = (Path(spec.origin).parent / name).stat()
        except OSError:
            return None
        stamps.append(f"{name}:{info.st_size}:{info.st_mtime_ns}")
    return f"{spec.origin}|{'|'.join(stamps)}".encode()


def _cache_key(raw: bytes) -> str | None:
    stamp = _library_stamp()
    if stamp is None:
        return None
    return hashlib.sha256(CACHE_FORMAT + stamp + b"\0" + raw).hexdigest() + ".marshal"


def _open_flags() -> int:
    """Read only, never through a symlink, never waiting (a FIFO opens at once), not inherited."""
    return os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _read_at_most(fd: int, limit: int) -> bytes | None:
    """The bytes of the open file ``fd``, or None where it holds more than ``limit``: a file that grows
    meanwhile is read to one byte past the limit, no further."""
    pieces: list[bytes] = []
    size = 0
    while size <= limit:
        piece = os.read(fd, limit + 1 - size)
        if not piece:
            break
        pieces.append(piece)
        size += len(piece)
    return None if size > limit else b"".join(pieces)


def _entry_bytes(path: Path) -> bytes | None:
    """The bytes of the entry at ``path`` where it is a private regular file of a sane size, else None."""
    try:
        if path.is_symlink():  # where O_NOFOLLOW is missing
            return None
        fd = os.open(path, _open_flags())
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or not _private(info) \
                or info.st_size > MAX_ENTRY_BYTES:
            return None
        return _read_at_most(fd, MAX_ENTRY_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_cache(path: Path, raw: bytes) -> object:
    """The data kept at ``path`` for the file bytes ``raw``, or None: absent, not a private regular file,
    another file's, damaged (its own sha256 is checked), or not plain data."""
    blob = _entry_bytes(path)
    if blob is None or not blob.startswith(CACHE_FORMAT):
        return None
    head = len(CACHE_FORMAT)
    source, digest, body = blob[head:head + _DIGEST], blob[head + _DIGEST:head + 2 * _DIGEST], \
        blob[head + 2 * _DIGEST:]
    if source != hashlib.sha256(raw).digest() or hashlib.sha256(body).digest() != digest:
        return None
    try:
        data = marshal.loads(body)
    except Exception:  # noqa: BLE001 -- EOFError, ValueError, TypeError, and whatever else bad bytes raise
        return None
    return data if _plain(data) else None


def _plain(data: object) -> bool:
    """Whether ``data`` holds only what a YAML mapping of this project parses to (no code, no other types)."""
    stack = [data]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            stack.extend(item.keys())
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind not in _PLAIN:
            return False
    return True


def _write_cache(folder: Path, key: str, raw: bytes, data: object) -> None:
    """Keep ``data`` for the next start (written whole under a new temporary name this process creates, writable
    by its owner alone, then renamed); data that is not plain (a YAML date) is not kept."""
    if not _plain(data):
        return
    try:
        body = marshal.dumps(data)
        blob = CACHE_FORMAT + hashlib.sha256(raw).digest() + hashlib.sha256(body).digest() + body
        if len(blob) > MAX_ENTRY_BYTES:
            return
        temporary = folder / f".{key}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_CLOEXEC", 0), 0o644)  # writable by its owner alone; readable: the image
        # fills the cache as root at build time for the service's own (unprivileged) user to read
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(blob)
            os.replace(temporary, folder / key)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    except (OSError, ValueError):
        pass


def translated(english: str | None, translations: tuple[tuple[str, str], ...], lang: str) -> str | None:
    """``english`` in ``lang`` where a translation is given, else the English."""
    for code, text in translations:
        if code == lang:
            return text
    return english


def _by_language(vid: str, what: str, raw: Any) -> dict[str, str]:
    """A ``{language code: text}`` mapping of the file (names, descriptions, notes); empty when absent."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(k, str) and k and isinstance(v, str) and v.strip()
                                            for k, v in raw.items()):
        raise VariantError(f"{vid}: '{what}' must map a language code to a text in that language")
    return {k: v.strip() for k, v in raw.items()}


def _load_entry(vid: str, language: str, text: str, positions, param, raw: Any) -> Entry:
    where = f"parameter {param.name}"
    if not isinstance(raw, dict):
        raise VariantError(f"{vid}: {where}: must be a mapping with value, status, note, cite")
    written, note = raw.get("status"), raw.get("note")
    if written not in STATUSES:
        raise VariantError(f"{vid}: {where}: status must be one of {STATUSES}, got {written!r}")
    status = Status(written)
    citations = tuple(_load_citation(vid, language, text, positions, where, c)
                      for c in raw.get("cite") or [])
    if status == Status.STATED and not citations:
        raise VariantError(f"{vid}: {where}: a stated parameter needs at least one citation")
    if status != Status.STATED and not (isinstance(note, str) and note.strip()):
        raise VariantError(f"{vid}: {where}: an {written} parameter needs a note saying why")
    if status == Status.NOT_STATED:
        if raw.get("value") is not None:
            raise VariantError(f"{vid}: {where}: a not_stated parameter has no value (use null)")
        value = None
    else:
        try:
            value = check_value(param, raw.get("value"))
        except ParamValueError as e:
            raise VariantError(f"{vid}: {where}: value {raw.get('value')!r} {plain_english(e.message)}") from None
    readings = []
    for reading in raw.get("readings") or []:
        try:
            readings.append(check_value(param, reading))
        except ParamValueError as e:
            raise VariantError(f"{vid}: {where}: reading {reading!r} {plain_english(e.message)}") from None
    if readings and status == Status.STATED:
        raise VariantError(f"{vid}: {where}: a stated parameter has one reading; list readings only for "
                           "a point the text leaves open or reads two ways")
    notes = _by_language(vid, f"{where}: notes", raw.get("notes"))
    if notes and not note:
        raise VariantError(f"{vid}: {where}: notes translate the note; give the note in English first")
    stated_for = raw.get("stated_for") or []
    if stated_for and (param.type != "by_players" or status != Status.INTERPRETED or not isinstance(stated_for, list)
                       or any(not isinstance(p, int) or isinstance(p, bool) or p not in value for p in stated_for)):
        raise VariantError(f"{vid}: {where}: stated_for lists the player counts of an interpreted figure by "
                           "player count that the text states outright")
    return Entry(param.name, value, status, note, citations, readings=tuple(readings),
                 notes=tuple(sorted(notes.items())), stated_for=tuple(sorted(stated_for)))


@lru_cache(maxsize=4)
def load_all(directory: str | None = None) -> dict[str, Variant]:
    """Load every ``*.yaml`` in the variants folder, keyed by id, in file-name order.

    The folder is ``directory``, else ``CANASTA_VARIANTS_DIR``, else the shipped rulebooks
    (:func:`default_dir`).
    """
    chosen = directory or os.environ.get("CANASTA_VARIANTS_DIR")
    folder = Path(chosen) if chosen else default_dir()
    variants: dict[str, Variant] = {}
    try:
        if not folder.is_dir():  # a file, a pipe or a device is refused without being opened
            raise NotADirectoryError(f"{folder} is not a folder")
        paths = sorted((p for p in folder.iterdir() if p.name.endswith(".yaml")), key=lambda p: p.name)
    except OSError as e:
        raise VariantError(f"the variants folder cannot be read: {e}") from None
    for path in paths:
        v = load_variant(path, folder)
        if v.id in variants:
            raise VariantError(f"{path.name}: duplicate variant id {v.id!r}")
        variants[v.id] = v
    if not variants:
        raise VariantError(f"no variant files in {folder}")
    return variants


# --- files read whole: regular files only, opened without waiting, never more than they may hold (issue 45) --

MAX_FILE_BYTES = 4 * 1024 * 1024  # a variant file or its source text (the shipped ones are 50-100 KB)


class FileRefused(OSError):
    """A file not read: it is not a regular file (a folder, a pipe, a device), or ``limit`` is less than its
    size (``limit`` None: the former)."""

    def __init__(self, message: str, limit: int | None = None):
        super().__init__(message)
        self.limit = limit


def read_regular(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at ``path`` (a link to one is followed), at most ``limit`` of them.

    Opened without waiting, so a pipe with no writer does not hang the caller, and read only once it is known
    to be a regular file no longer than ``limit``: a device such as ``/dev/zero`` is refused unread.
    :class:`FileRefused` says why a file was not read; any other ``OSError`` is the system's (no such file ...).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused(f"{path} is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{path} is not a regular file (a pipe, a device or a socket)")
        if info.st_size > limit:
            raise FileRefused(f"{path} holds {info.st_size:,} bytes, more than the {limit:,} read", limit)
        data = _read_at_most(fd, limit)
        if data is None:
            raise FileRefused(f"{path} holds more than the {limit:,} bytes read", limit)
        return data
    finally:
        os.close(fd)

