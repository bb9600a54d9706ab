"""The modules an adjudicate request passes through, in order: where it climbs between the serializer and the words.

    .venv/bin/python bench/request_path.py [ROOT] [--cold]

Runs ``POST /v1/adjudicate`` (the frozen-pile ruling of the README's example) through the app of the checkout at ROOT
(default: this one; a copy of another commit -- ``git archive REF | tar -x -C DIR`` -- shows that commit's path)
under ``sys.setprofile``, and prints the modules of ``adjudicator`` and ``web_api`` entered, in order, each run
of calls within one module written once, the engine's own part shortened to its count. Warm by default (the
same request answered once before, as in steady service); ``--cold`` traces the first request. The last line
counts the crossings between ``answers.serialize`` and ``words.render`` after the engine has ruled.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

BODY = {"variant": "no-pagat", "situation": {"discard_pile": ["3H", "7C", "JK", "9D"], "turn": {"drew": None},
        "team": {"score": 1600, "melds": [["KH", "KS", "KD"]], "red_threes": 1},
        "player": {"hand": ["9H", "JK", "5C"]}}, "action": {"type": "take_pile", "with": ["9H", "JK"]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--cold", action="store_true", help="trace the first request, not the second")
    args = parser.parse_args()
    sys.path[:0] = [args.root]
    from web_api import create_app  # noqa: PLC0415 -- from ROOT

    client = create_app({"TESTING": True}).test_client()
    if not args.cold:
        client.post("/v1/adjudicate", json=BODY)
    seq: list[str] = []

    def entered(frame, event, arg):
        if event == "call":
            name = frame.f_globals.get("__name__", "?")
            if name.startswith(("adjudicator", "web_api")):
                short = name.replace("adjudicator.", "")
                if not seq or seq[-1] != short:
                    seq.append(short)

    sys.setprofile(entered)
    client.post("/v1/adjudicate", json=BODY)
    sys.setprofile(None)
    start, stop = seq.index("rules.engine"), seq.index("answers.serialize")
    print(" -> ".join(seq[:start]), f"-> [the engine: {stop - start} modules entered] ->", " -> ".join(seq[stop:]))
    edge = [m for m in seq[stop:] if m in ("answers.serialize", "words.render")]
    print(f"\nserialize <-> words.render crossings after the ruling: {sum(a != b for a, b in zip(edge, edge[1:]))}")


if __name__ == "__main__":
    main()
