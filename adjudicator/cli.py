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
  counts as bad input too. Usage errors are 2 as well, a folder of variant files that cannot be
  loaded among them (``--variants``, ``CANASTA_VARIANTS_DIR``): one line on standard error.

Input is read within the service's bounds (:mod:`adjudicator.answers.limits`): at most 256 KiB of a
file or of standard input (a batch: 4 MiB), a larger one is refused unread as the service refuses it
(413 ``request-entity-too-large``); only a regular file is opened, and without waiting -- a folder,
a pipe or a device (``/dev/zero``) is refused at once (400 ``malformed-request``); to pipe a body in,
give ``-``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

COMMANDS = {"rule": "adjudicate", "score": "score", "replay": "replay", "options": "options", "compare": "compare"}
BATCHES = {"adjudicate": "batch", "score": "score_batch"}  # a body of ``requests`` is a batch of these
LANGUAGES = ("en", "sv", "nb", "da")
ANSWERED, ILLEGAL, BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors are one line on standard error (exit 2), not the usage again."""

    def error(self, message: str):
        self.exit(BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    made = _Parser(
        prog="canasta-referee", description="Rule, score, replay, list and compare Canasta plays from JSON files, "
        "answering exactly as the Canasta Referee service does.",
        epilog="Exit status: 0 answered, 1 an illegal move (a ruling, a batch's ruling or a replay's "
               "first_illegal), 2 bad input (the problem is printed).")
    made.add_argument("command", choices=tuple(COMMANDS), help="what to do with the file")
    made.add_argument("file", help="a JSON file with the body the service's endpoint takes, read up to the service's "
                      "limit (256 KiB; a batch 4 MiB); - for standard input")
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
    from .answers.limits import BATCH_BODY_BYTES, BODY_BYTES  # here: --help needs no engine
    from .answers.use_cases import MalformedJson, answer, decode, problem
    from .model.messages import msg
    from .variants import FileRefused, VariantError, load_all

    try:
        variants = load_all(args.variants)
    except VariantError as error:  # a usage error: one line, exit 2
        parser().error(f"--variants {args.variants}: {error}" if args.variants else str(error))
    lang = args.lang
    kind = COMMANDS[args.command]
    try:  # as much as the service takes of a batch where the command takes one, of a single body otherwise
        raw = _read(args.file, BATCH_BODY_BYTES if kind in BATCHES else BODY_BYTES)
    except FileRefused as error:
        said = problem(413, "request-entity-too-large", msg("detail.too_large", limit=error.limit), lang or "en",
                       pointer=None) if error.limit is not None else \
            problem(400, "malformed-request", msg("detail.not_a_file"), lang or "en")
        return _print(said.document, args.indent, BAD_INPUT)
    except OSError as error:
        said = problem(400, "malformed-request", msg("detail.body_unreadable", reason=error.strerror or str(error)),
                       lang or "en")
        return _print(said.document, args.indent, BAD_INPUT)
    try:
        body, malformed = decode(raw), None
    except MalformedJson as error:
        body, malformed = None, error
    batch = kind in BATCHES and isinstance(body, dict) and "requests" in body
    if len(raw) > BODY_BYTES and not batch:  # more than the single endpoint takes: refused as the service does
        return _print(problem(413, "request-entity-too-large", msg("detail.too_large", limit=BODY_BYTES),
                              lang or "en", pointer=None).document, args.indent, BAD_INPUT)
    if malformed is not None:
        return _print(problem(400, "malformed-json", malformed.message, lang or "en", malformed.pointer).document,
                      args.indent, BAD_INPUT)
    if lang is None:
        asked = body.get("lang") if isinstance(body, dict) else None
        lang = asked if asked in LANGUAGES else "en"
    if batch:
        kind = BATCHES[kind]
    said = answer(kind, body, lang, variants=variants, words=args.words == "full", limit=args.limit,
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


def _read(name: str, limit: int) -> bytes:
    """At most ``limit`` bytes of standard input (``-``) or of the regular file ``name`` (refused unread where it
    is not one, or is longer: :func:`adjudicator.variants.read_regular`)."""
    from .variants import FileRefused, read_regular

    if name != "-":
        return read_regular(name, limit)
    raw = sys.stdin.buffer.read(limit + 1)
    if len(raw) > limit:
        raise FileRefused(f"standard input holds more than the {limit:,} bytes read", limit)
    return raw


def _print(document: dict, indent: int | None, code: int) -> int:
    import json
    text = json.dumps(document, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"))
    sys.stdout.buffer.write((text + "\n").encode("utf-8"))  # UTF-8 whatever the locale: the texts are Nordic
    sys.stdout.flush()
    return code


def run() -> None:
    """The console script's entry point: the exit status of :func:`main`; stopped with Ctrl-C, or by a reader that
    closed its end of the pipe (``| head``), it ends quietly with the shell's status for that."""
    try:
        code = main()
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        code = 141
    sys.exit(code)
