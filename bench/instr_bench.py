"""Instructions per answer, counted by valgrind's callgrind: the same figure whatever else the machine runs.

    .venv/bin/python bench/instr_bench.py --tree here --tree before=ec8da9e          # trees side by side
    .venv/bin/python bench/instr_bench.py --tree after=46cfaca --switch house-copies  # a device on and off
    .venv/bin/python bench/instr_bench.py --tree here --only compare --passes 3

On a machine others load, CPU time moves by a tenth from one minute to the next; the instructions a process runs do
not. Each tree (``here``: this checkout; ``NAME=REF``: a git ref exported, or a folder) answers the HTTP
benchmark's bodies (``bench/http_bench.py``, as ``bench/pair_bench.py`` sends them) through its own
:func:`adjudicator.answers.answer` under ``valgrind --tool=callgrind``: one process warms the workloads once, then
answers ``--passes`` more passes of one workload (the workloads warmed: those measured); a process that warms and
answers nothing is counted too, and the
difference, over the answers, is the figure (instructions per answer; a batch: per ruling). ``--switch`` adds a
side: the first tree with one of its devices switched off from the outside (:data:`SWITCHES`).
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench.pair_bench import WORKLOADS, bodies, tree  # noqa: E402

WORKER = r'''
import gc, pickle, sys
sys.path.insert(0, ".")
from adjudicator.answers import answer
from adjudicator.variants import load_all
kind, passes, switch, path, warm = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5].split(",")
exec(switch)
variants = load_all()
with open(path, "rb") as f:
    made = pickle.load(f)
for name in warm:  # warm-up: every module imported, every table filled
    for body in made[name]:
        answer(name, body, "en", variants=variants)
gc.collect()
for _ in range(passes):
    for body in made[kind]:
        answer(kind, body, "en", variants=variants)
'''

# What switches a device of this checkout off, from the outside (run in the worker before any answer).
SWITCHES = {
    "house-copies": "import adjudicator.input.house_rules as h; h._COPIES.put = lambda key, value, size=None: value",
}


def instructions(root: Path, kind: str, passes: int, switch: str, payload: Path, warm: list[str]) -> int:
    with tempfile.TemporaryDirectory() as out:
        target = Path(out) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={target}",
                        str(ROOT / ".venv" / "bin" / "python"), "-c", WORKER, kind, str(passes), switch,
                        str(payload), ",".join(warm)],
                       cwd=root, check=True, capture_output=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
                                                                       "PYTHONHASHSEED": "0"})
        summary = re.search(r"^summary:\s+(\d+)", target.read_text(), re.M)
        assert summary, "callgrind wrote no summary"
        return int(summary.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", default=[], help="here, or NAME=REF (a git ref or a folder)")
    parser.add_argument("--switch", action="append", default=[], choices=sorted(SWITCHES))
    parser.add_argument("--only", action="append", choices=WORKLOADS)
    parser.add_argument("--passes", type=int, default=2)
    args = parser.parse_args()
    kinds = args.only or list(WORKLOADS)
    made = bodies()
    sides: list[tuple[str, Path, str]] = []
    for spec in args.tree or ["here"]:
        name, _, ref = spec.partition("=")
        sides.append((name, ROOT if name == "here" and not ref else tree(ref), ""))
    sides += [(f"{sides[0][0]}, {s} off", sides[0][1], SWITCHES[s]) for s in args.switch]
    with tempfile.NamedTemporaryFile(suffix=".pickle") as payload:
        payload.write(pickle.dumps(made))
        payload.flush()
        counts = {}
        for name, root, switch in sides:
            none = instructions(root, kinds[0], 0, switch, Path(payload.name), kinds)
            for kind in kinds:
                answers = len(made[kind]) * args.passes * (100 if kind == "batch" else 1)
                counts[name, kind] = (instructions(root, kind, args.passes, switch, Path(payload.name), kinds)
                                      - none) / answers
                print(f"{name:>24} {kind:>10}: {counts[name, kind] / 1e6:8.3f} M instructions per answer", flush=True)
    first = sides[0][0]
    print(f"\n| workload | {' | '.join(n for n, _, _ in sides)} |")
    print("|---|" + "---:|" * len(sides))
    for kind in kinds:
        cells = [f"{counts[first, kind] / 1e6:.3f} M"] + [
            f"{counts[n, kind] / 1e6:.3f} M ({counts[n, kind] / counts[first, kind] - 1:+.1%})" for n, _, _ in sides[1:]]
        print(f"| {kind}{' (per ruling)' if kind == 'batch' else ''} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
