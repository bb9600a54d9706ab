"""Links that carry a question or a game from one phone to another: the format's one reader and writer.

A link is the page's address with a fragment ``#cr1.<data>`` (docs/links.md): ``1`` is the format's
version, ``<data>`` the document below as UTF-8 JSON, compressed with raw DEFLATE (RFC 1951: what the
browser's ``CompressionStream('deflate-raw')`` writes) and written in base64url without padding. The
fragment never reaches a server, so a question sent this way leaves nothing in a log. A file a person
keeps (the page's game export) is the same document as plain JSON.

The document carries the *question*, never the answer -- whoever opens it rules it again, with its own
engine::

    {"v": 1, "kind": "question", "ask": "ruling", "variant": "sv-classic",
     "situation": {...}, "action": {...}, "house_rules": {...}, "lang": "sv", "rules": {"sv-classic": "1a2b3c4d"}}
    {"v": 1, "kind": "game", "game": {"variant": ..., "players": 4, "teams": [...], "rounds": [...]}, ...}

``situation``, ``action`` and ``house_rules`` are those of the service's request bodies; ``rules`` names
the version of each variant's rules the sender had (:func:`rules_version`), so a reader with other rules
can say that its answer may differ. What this module checks is the envelope (version, kind, the members'
JSON types and sizes); the engine checks the play itself when the question is ruled.

Pure Python (zlib, base64, json, hashlib): no Flask, nothing of the engine but the variants it names.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from typing import Any, Final, Mapping

VERSION: Final = 1
PREFIX: Final = "cr"  # the fragment begins cr<version>.
MAX_LINK: Final = 8192  # characters of the fragment's data: far beyond a QR code's 2,953 bytes
MAX_DOCUMENT: Final = 256 * 1024  # bytes of JSON once inflated: a link may not unpack into more
MAX_ROUNDS: Final = 500
MAX_DISPUTES: Final = 200
ASKS: Final = ("ruling", "compare", "options")
KINDS: Final = ("question", "game")
LANGUAGES: Final = ("en", "sv", "nb", "da")
RULES_VERSION_LENGTH: Final = 8

_FRAGMENT = re.compile(r"cr(\d{1,6})\.([A-Za-z0-9_-]*)")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


class LinkError(ValueError):
    """A link or document this version cannot read. ``code``: ``not-a-link``, ``malformed``, ``truncated``,
    ``too-large`` or ``future-version``; the page says each in the reader's words."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


# ---- the bytes -------------------------------------------------------------------------------

def _deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    return packer.compress(data) + packer.flush()


def _inflate(data: bytes) -> bytes:
    unpacker = zlib.decompressobj(-15)
    try:
        out = unpacker.decompress(data, MAX_DOCUMENT + 1)
    except zlib.error as error:
        raise LinkError("malformed", f"the link's data is not compressed as a link's is ({error})") from None
    if len(out) > MAX_DOCUMENT or unpacker.unconsumed_tail:
        raise LinkError("too-large", f"the link unpacks into more than {MAX_DOCUMENT} bytes")
    if not unpacker.eof:
        raise LinkError("truncated", "the link is cut short: its data ends before the question does")
    if unpacker.unused_data:
        raise LinkError("malformed", "the link has data after its end")
    return out


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str) -> bytes:
    if not _BASE64URL.fullmatch(text):
        raise LinkError("malformed", "the link's data has characters no link has")
    if len(text) % 4 == 1:
        raise LinkError("truncated", "the link is cut short: its data ends in the middle of a character")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("malformed", "the link's data is not base64url") from None


def _dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# ---- links -----------------------------------------------------------------------------------

def encode(document: Mapping[str, Any]) -> str:
    """The fragment (without ``#``) that carries ``document``, after checking it is one this version writes."""
    checked = check(document)
    data = _b64encode(_deflate(_dumps(checked).encode("utf-8")))
    if len(data) > MAX_LINK:
        raise LinkError("too-large", f"the document makes a link of {len(data)} characters (at most {MAX_LINK})")
    return f"{PREFIX}{VERSION}.{data}"


def link(document: Mapping[str, Any], base: str = "") -> str:
    """The whole link: ``base`` (the page's address, e.g. ``https://referee.example/``) and the fragment."""
    return f"{base.split('#', 1)[0]}#{encode(document)}"


def fragment_of(text: str) -> str:
    """The ``cr<n>.<data>`` part of a link, a fragment (``#cr1....``) or the fragment itself."""
    text = text.strip()
    if "#" in text:
        text = text.split("#", 1)[1]
    return text


def is_link(text: str) -> bool:
    """Whether ``text`` looks like a link of this format (of any version), well formed or not."""
    return bool(re.match(r"cr\d", fragment_of(text)))


def decode(text: str) -> dict:
    """The document a link carries, checked (:func:`check`). Raises :class:`LinkError`."""
    found = _FRAGMENT.fullmatch(fragment_of(text))
    if not found:
        if is_link(text):
            raise LinkError("malformed", "the link's fragment is not cr<version>.<data>")
        raise LinkError("not-a-link", "this is not a Canasta Referee link")
    version, data = int(found.group(1)), found.group(2)
    if version > VERSION:
        raise LinkError("future-version", f"the link is of version {version}; this reader knows version {VERSION}")
    if version < 1:
        raise LinkError("malformed", "a link's version is 1 or more")
    if len(data) > MAX_LINK:
        raise LinkError("too-large", f"the link's data has {len(data)} characters (at most {MAX_LINK})")
    if not data:
        raise LinkError("truncated", "the link is cut short: it has no data")
    raw = _inflate(_b64decode(data))
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise LinkError("malformed", "the link's data is not a JSON document") from None
    if isinstance(document, dict) and document.get("v") != version:
        raise LinkError("malformed", "the link's version and its document's disagree")
    return check(document)


# ---- the document ----------------------------------------------------------------------------

def _object(where: str, value: Any, required: bool = True) -> None:
    if value is None and not required:
        return
    if not isinstance(value, dict):
        raise LinkError("malformed", f"{where} must be a JSON object")


def _text(where: str, value: Any, required: bool = True, most: int = 200) -> None:
    if value is None and not required:
        return
    if not isinstance(value, str) or len(value) > most:
        raise LinkError("malformed", f"{where} must be a text of at most {most} characters")


def _whole(where: str, value: Any, least: int, most: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise LinkError("malformed", f"{where} must be a whole number from {least} to {most}")


def _check_envelope(document: Mapping[str, Any]) -> None:
    lang = document.get("lang")
    if lang is not None and lang not in LANGUAGES:
        raise LinkError("malformed", f"lang must be one of {', '.join(LANGUAGES)}")
    rules = document.get("rules")
    _object("rules", rules, required=False)
    for variant, version in (rules or {}).items():
        _text(f"rules/{variant}", version, most=64)


def _check_question(document: Mapping[str, Any]) -> None:
    ask = document.get("ask")
    if ask not in ASKS:
        raise LinkError("malformed", f"ask must be one of {', '.join(ASKS)}")
    _text("variant", document.get("variant"), required=ask != "compare", most=100)
    _object("situation", document.get("situation"))
    if ask == "options":
        if "action" in document:
            raise LinkError("malformed", "a question of options has no action")
    else:
        _object("action", document.get("action"))
    _object("house_rules", document.get("house_rules"), required=False)


def _check_game(document: Mapping[str, Any]) -> None:
    game = document.get("game")
    _object("game", game)
    _text("game/variant", game.get("variant"), most=100)
    _whole("game/players", game.get("players"), 1, 12)
    for member in ("teams", "seats"):
        names = game.get(member, [])
        if not isinstance(names, list) or len(names) > 12:
            raise LinkError("malformed", f"game/{member} must be a list of names")
        for i, name in enumerate(names):
            _text(f"game/{member}/{i}", name, most=80)
    if "first_dealer" in game:
        _whole("game/first_dealer", game["first_dealer"], 0, 11)
    _object("game/house_rules", game.get("house_rules"), required=False)
    rounds = game.get("rounds", [])
    if not isinstance(rounds, list) or len(rounds) > MAX_ROUNDS:
        raise LinkError("malformed", f"game/rounds must be a list of at most {MAX_ROUNDS} rounds")
    for r, one in enumerate(rounds):
        _object(f"game/rounds/{r}", one)
        teams = one.get("teams")
        if not isinstance(teams, list) or not teams or len(teams) > 12:
            raise LinkError("malformed", f"game/rounds/{r}/teams must be a list of teams")
        for i, team in enumerate(teams):
            _object(f"game/rounds/{r}/teams/{i}", team)
    disputes = game.get("disputes", [])
    if not isinstance(disputes, list) or len(disputes) > MAX_DISPUTES:
        raise LinkError("malformed", f"game/disputes must be a list of at most {MAX_DISPUTES}")
    for d, dispute in enumerate(disputes):
        _object(f"game/disputes/{d}", dispute)
        _text(f"game/disputes/{d}/at", dispute.get("at"), most=40)
        question = dispute.get("question")
        _object(f"game/disputes/{d}/question", question)
        _check_question(question)


def check(document: Any) -> dict:
    """``document`` if it is one this version reads and writes (a copy, with ``v`` set), else LinkError."""
    if not isinstance(document, dict):
        raise LinkError("malformed", "a link's document is a JSON object")
    out = dict(document)
    out.setdefault("v", VERSION)
    if isinstance(out["v"], bool) or not isinstance(out["v"], int):
        raise LinkError("malformed", "v must be a whole number")
    if out["v"] > VERSION:
        raise LinkError("future-version", f"the document is of version {out['v']}; this reader knows version {VERSION}")
    if out["v"] != VERSION:
        raise LinkError("malformed", f"v must be {VERSION}")
    kind = out.get("kind")
    if kind not in KINDS:
        raise LinkError("malformed", f"kind must be one of {', '.join(KINDS)}")
    _check_envelope(out)
    if kind == "question":
        _check_question(out)
    else:
        _check_game(out)
    return out


# ---- what a question is ruled under ------------------------------------------------------------

def rules_version(variant: Any) -> str:
    """A short fingerprint of one variant's rules: its text and every parameter's value, status, readings
    and cited offsets. Two services (or a service and the phone's engine) with the same fingerprint rule a
    question alike; a different one means the answer may differ. Words (names, notes, translations) are
    left out: a better translation does not change a ruling."""
    params = {name: [e.value, e.status.value, list(e.readings), sorted([c.start, c.end, sorted(c.tags)] for c in e.citations)]
              for name, e in variant.params.items()}
    canon = json.dumps([variant.id, variant.text, params], sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                       default=str)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()[:RULES_VERSION_LENGTH]


def question(body: Mapping[str, Any], ask: str | None = None, lang: str | None = None,
             variants: Mapping[str, Any] | None = None) -> dict:
    """The question document of a request body of the service (``/v1/adjudicate``, ``/v1/options`` or
    ``/v1/compare``): ``ask`` is ``ruling`` when the body has an action and a variant, ``compare`` when it
    has an action and no variant, ``options`` when it has no action. With ``variants`` (the loaded rules),
    ``rules`` names the version of each variant the question is ruled under."""
    if ask is None:
        ask = "options" if "action" not in body else ("ruling" if "variant" in body else "compare")
    out: dict = {"v": VERSION, "kind": "question", "ask": ask}
    for member in ("variant", "situation", "action", "house_rules"):
        if member in body and not (member == "house_rules" and not body[member]):
            out[member] = body[member]
    if lang or body.get("lang"):
        out["lang"] = lang or body.get("lang")
    if variants:
        named = [out["variant"]] if ask != "compare" else list(variants)
        out["rules"] = {v: rules_version(variants[v]) for v in named if v in variants}
    return check(out)


def request_of(document: Mapping[str, Any]) -> tuple[str, dict]:
    """The service's endpoint kind and request body a question document stands for (for ``answer``)."""
    checked = check(document)
    if checked["kind"] != "question":
        raise LinkError("malformed", "this document is a game, not a question")
    body = {k: checked[k] for k in ("variant", "situation", "action", "house_rules") if k in checked}
    if checked["ask"] == "compare":
        body.pop("variant", None)
    return {"ruling": "adjudicate", "compare": "compare", "options": "options"}[checked["ask"]], body


def differing_rules(document: Mapping[str, Any], variants: Mapping[str, Any]) -> list[str]:
    """The variants whose rules here are another version than the sender's (the answer may differ)."""
    said = document.get("rules") or {}
    return sorted(v for v, version in said.items() if v in variants and rules_version(variants[v]) != version)


# ---- the command line ----------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    """``canasta-referee link FILE``: a JSON file becomes a link; a link (or a file holding one) its JSON.

    FILE is a question or game document, or a request body of the service (``/v1/adjudicate``,
    ``/v1/options``, ``/v1/compare``): it is printed as a link (``--base``: the page's address before the
    fragment). FILE may instead hold a link, or be the link itself: its document is printed as JSON.
    Exit status 0, or 2 when the file or the link cannot be read (the reason is printed as a problem).
    """
    import argparse
    import os
    import sys

    made = argparse.ArgumentParser(prog="canasta-referee link", description="Write a question or a game as a link "
                                   "(docs/links.md), or read a link back as JSON.")
    made.add_argument("file", help="a JSON file (a question, a game, or a request body), a file holding a link, "
                      "a link itself, or - for standard input")
    made.add_argument("--base", default=os.environ.get("CANASTA_PAGE_URL", ""),
                      help="the page's address the link starts with (default: CANASTA_PAGE_URL, else the "
                      "fragment alone)")
    made.add_argument("--lang", choices=LANGUAGES, help="the language the question is asked in")
    made.add_argument("--variants", metavar="DIR", help="a folder of variant files (default: the shipped rulebooks)")
    made.add_argument("--indent", type=int, default=2, help="indent the JSON read from a link (default: 2)")
    args = made.parse_args(argv)

    def fail(code: str, detail: str) -> int:
        problem = {"type": f"link-{code}", "title": "The link cannot be read" if code != "unreadable-file"
                   else "The file cannot be read", "detail": detail}
        sys.stdout.write(json.dumps(problem, ensure_ascii=False) + "\n")
        return 2

    if args.file == "-":
        text = sys.stdin.buffer.read().decode("utf-8", "replace")
    elif not os.path.exists(args.file) and is_link(args.file):
        text = args.file
    else:
        try:
            with open(args.file, "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except OSError as error:
            return fail("unreadable-file", error.strerror or str(error))
    try:
        if text.lstrip().startswith("{"):
            try:
                body = json.loads(text)
            except ValueError as error:
                return fail("malformed", f"the file is not JSON ({error})")
            if not isinstance(body, dict):
                return fail("malformed", "the file is not a JSON object")
            if "kind" in body:
                document = dict(body, lang=args.lang) if args.lang else body
            else:
                from .variants import load_all
                document = question(body, lang=args.lang, variants=load_all(args.variants))
            sys.stdout.write(link(document, args.base) + "\n")
            return 0
        document = decode(text)
    except LinkError as error:
        return fail(error.code, error.detail)
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=args.indent or None) + "\n")
    return 0
