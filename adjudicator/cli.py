"""The command line: the service's answers for JSON files, without a server.

    canasta-referee rule FILE        (or: python -m adjudicator rule FILE)
    canasta-referee score FILE
    canasta-referee replay FILE
    canasta-referee options FILE
    canasta-referee compare FILE
    canasta-referee link FILE        (a question or game as a link, and a link back as JSON: adjudicator/link.py)

FILE holds the body the service's endpoint takes (``-``: read it from standard input): ``rule`` is
``POST /v1/adjudicate`` (a body of ``requests`` is ``/v1/adjudicate/batch``), ``score`` is ``/v1/score``
(or ``/v1/score/batch``), ``replay``, ``options`` and ``compare`` are theirs. The answer is printed as
the service sends it -- the same JSON document, made by the same function
(:func:`adjudicator.answers.answer`) -- in the language of ``--lang``, else of the body's ``lang``,
else English.

The exit status says what the answer is, for scripts:

* 0 -- answered: a ruling that is legal or undetermined, a score, options, a comparison, a replay
  with no illegal move;
* 1 -- an illegal move: a ruling whose verdict is ``illegal`` (in a batch: any), a replay whose
  ``first_illegal`` is not null;
* 2 -- bad input: the file cannot be read, is not JSON, or the engine refuses it; the problem
  document (RFC 9457, as the service answers it) is printed instead. A batch with a refused item
  counts as bad input too. Usage errors are 2 as well.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

COMMANDS = {"rule": "adjudicate", "score": "score", "replay": "replay", "options": "options", "compare": "compare"}
BATCHES = {"adjudicate": "batch", "score": "score_batch"}  # a body of ``requests`` is a batch of these
LANGUAGES = ("en", "sv", "nb", "da")
ANSWERED, ILLEGAL, BAD_INPUT = 0, 1, 2


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(
        prog="canasta-referee", description="Rule, score, replay, list and compare Canasta plays from JSON files, "
        "answering exactly as the Canasta Referee service does.",
        epilog="Exit status: 0 answered, 1 an illegal move (a ruling, a batch's ruling or a replay's "
               "first_illegal), 2 bad input (the problem is printed).")
    made.add_argument("command", choices=tuple(COMMANDS), help="what to do with the file")
    made.add_argument("file", help="a JSON file with the body the service's endpoint takes; - for standard input")
    made.add_argument("--lang", choices=LANGUAGES, help="the language of the answer's words (default: the body's "
                      "lang, else en); quotes stay in their document's language")
    made.add_argument("--words", choices=("full", "none"), default="full",
                      help="none: rulings without their sentences (keys, rule ids, verdicts, citations only)")
    made.add_argument("--limit", type=_count(1), default=20, help="options: at most this many options per group "
                      "(default: 20, as the service)")
    made.add_argument("--offset", type=_count(0), default=0, help="options: skip this many options of each group")
    made.add_argument("--group", choices=("draw", "take_pile", "meld", "go_out", "discard"),
                      help="options: this group only")
    made.add_argument("--citations", choices=("full", "refs"), default="full",
                      help="compare: refs gives each citation once, in a table, referenced where used")
    made.add_argument("--variants", metavar="DIR", help="a folder of variant files (default: the shipped rulebooks, "
                      "or CANASTA_VARIANTS_DIR)")
    made.add_argument("--indent", type=_count(0), help="indent the JSON by this many spaces (default: compact, "
                      "as the service sends it)")
    return made


def _count(least: int):
    def whole(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or int(text) < least:
            raise argparse.ArgumentTypeError(f"a whole number of at least {least}, not {text!r}")
        return int(text)
    return whole


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see the module's docstring)."""
    if (sys.argv[1:] if argv is None else list(argv))[:1] == ["link"]:  # its own options: adjudicator/link.py
        from .link import main as link_main
        return link_main((sys.argv[1:] if argv is None else list(argv))[1:])
    args = parser().parse_args(argv)
    from .answers.use_cases import answer, decode, MalformedJson, problem  # here: --help needs no engine
    from .model.messages import msg
    from .variants import load_all

    lang = args.lang
    try:
        raw = sys.stdin.buffer.read() if args.file == "-" else _read(args.file)
    except OSError as error:
        said = problem(400, "malformed-request", msg("detail.body_unreadable", reason=error.strerror or str(error)),
                       lang or "en")
        return _print(said.document, args.indent, BAD_INPUT)
    try:
        body = decode(raw)
    except MalformedJson as error:
        return _print(problem(400, "malformed-json", error.message, lang or "en", error.pointer).document,
                      args.indent, BAD_INPUT)
    if lang is None:
        asked = body.get("lang") if isinstance(body, dict) else None
        lang = asked if asked in LANGUAGES else "en"
    kind = COMMANDS[args.command]
    if isinstance(body, dict) and "requests" in body and kind in BATCHES:
        kind = BATCHES[kind]
    said = answer(kind, body, lang, variants=load_all(args.variants), words=args.words == "full", limit=args.limit,
                  offset=args.offset, group=args.group, citations=args.citations)
    return _print(said.document, args.indent, status(kind, said.status, said.document))


def status(kind: str, http_status: int, document: dict) -> int:
    """The exit status of an answer (see the module's docstring)."""
    if http_status != 200:
        return BAD_INPUT
    if kind == "adjudicate":
        return ILLEGAL if document["verdict"] == "illegal" else ANSWERED
    if kind == "replay":
        return ILLEGAL if document["first_illegal"] is not None else ANSWERED
    if kind in ("batch", "score_batch"):
        results = document["results"]
        if any("problem" in r for r in results):
            return BAD_INPUT
        return ILLEGAL if any(r["ruling"]["verdict"] == "illegal" for r in results if "ruling" in r) else ANSWERED
    return ANSWERED


def _read(name: str) -> bytes:
    with open(name, "rb") as f:
        return f.read()


def _print(document: dict, indent: int | None, code: int) -> int:
    import json
    text = json.dumps(document, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"))
    sys.stdout.buffer.write((text + "\n").encode("utf-8"))  # UTF-8 whatever the locale: the texts are Nordic
    sys.stdout.flush()
    return code


def run() -> None:
    """The console script's entry point."""
    sys.exit(main())
