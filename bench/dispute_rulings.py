"""The CPU of the rulings the page asks first in the common disputes, nothing said but the cards (issue 42): this
checkout against another tree, side by side, rounds alternated (the workers of ``bench/pair_bench.py``).

    .venv/bin/python bench/dispute_rulings.py --against ec8da9e --rounds 9

These are the rulings that hang on the most facts (the draw, whether the team has melded, the round, the cards
left, a meld of nines, the canastas), so they are where asking what a ruling hangs on costs most; a ruling with
its facts given asks nothing (``bench/pair_bench.py`` measures those). Prints per body the median CPU per ruling of
each tree, and the change (median of the rounds' pairs).
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.pair_bench import ROOT, Worker, tree  # noqa: E402

K7 = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
FIVES = ["5H", "5S", "5D"]
DISPUTES = {  # as the page sends them: the cards and what the family tapped, nothing else
    "frozen pile (sv-classic)": {"variant": "sv-classic", "situation": {"discard_pile": ["9D"], "pile_unnamed": {"wild": True}},
                                 "action": {"type": "take_pile", "with": ["9C", "JK"]}},
    "opening at 6,200 (da-ludo)": {"variant": "da-ludo", "situation": {"team": {"score": 6200, "melds": []}},
                                   "action": {"type": "meld", "melds": [K7]}},
    "going out, no canasta (sv-classic)": {"variant": "sv-classic", "situation": {"player": {"hand": FIVES}},
                                           "action": {"type": "go_out", "melds": [FIVES]}},
    "twos, house rule (da-ludo)": {"variant": "da-ludo", "house_rules": {"wild.twos": True}, "situation": {},
                                   "action": {"type": "meld", "melds": [["9H", "9S", "2C"]]}},
    "nines (sv-gamerules)": {"variant": "sv-gamerules", "situation": {},
                             "action": {"type": "meld", "melds": [["9H", "9S", "9D"]]}},
    "six new melds, nothing said (da-ludo)": {"variant": "da-ludo", "situation": {}, "action": {
        "type": "meld", "melds": [["9H", "9S", "9D"], ["5H", "5S", "5D", "2C"], ["6H", "6S", "JK"], ["7H", "7S", "7D"],
                                  ["8H", "8S", "8D", "2D"], ["QH", "QS", "QD"]]}},
    "three new melds, nothing said (sv-classic)": {"variant": "sv-classic", "situation": {}, "action": {
        "type": "meld", "melds": [["9H", "9S", "9D"], ["5H", "5S", "5D", "2C"], ["6H", "6S", "JK"]]}},
    "what may I do? (sv-classic, 9 9; options)": {"variant": "sv-classic", "situation": {"player": {"hand": ["9H", "9S"]}}},
}
KIND = {name: "options" if "options" in name else "adjudicate" for name in DISPUTES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", required=True, help="a git ref or a folder holding another tree")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    names = list(DISPUTES)
    sides = {}
    try:
        for side, root in (("here", ROOT), (args.against, tree(args.against))):
            sides[side] = [Worker(root, pickle.dumps({KIND[n]: [DISPUTES[n]] * 5})) for n in names]
        times = {side: [[] for _ in names] for side in sides}
        for side in sides:  # warm-up
            for w, n in zip(sides[side], names):
                w.round(KIND[n])
        load = [os.getloadavg()[0]]
        for i in range(args.rounds):
            for j in range(len(names)):
                for side in (list(sides) if i % 2 == 0 else list(sides)[::-1]):
                    times[side][j].append(sides[side][j].round(KIND[names[j]]))
            load.append(os.getloadavg()[0])
    finally:
        for workers in sides.values():
            for w in workers:
                w.close()
    print(f"CPU µs per ruling (per listing: options), {args.rounds} alternated rounds, load average {min(load):.1f}-{max(load):.1f}")
    print(f"| dispute, first request | {args.against} median | here median | change, median of pairs |")
    print("|---|---:|---:|---:|")
    there, here = times[args.against], times["here"]
    for j, name in enumerate(names):
        change = statistics.median(h / t for h, t in zip(here[j], there[j])) - 1
        print(f"| {name} | {statistics.median(there[j]):,.0f} | {statistics.median(here[j]):,.0f} | {change:+.0%} |")


if __name__ == "__main__":
    main()
