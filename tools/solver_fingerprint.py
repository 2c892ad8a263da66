"""Fingerprint the solver's behaviour, to prove a refactoring changed nothing.

Usage::

    python tools/solver_fingerprint.py --out before.json      # before the change
    python tools/solver_fingerprint.py --compare before.json  # after: exit 1 on a difference

It records, from ``../shared/data/puzzles``:

* the whole solve path (every step's technique, placements, eliminations, evidence and
  text) of the seed puzzles, Norvig's top95 and the first 100 QQWing expert puzzles;
* every instance each technique of the registry (default order and off by default)
  finds, in order, on recorded states: the pencil-mark state before each step that is
  not a single on the first 12 top95 paths (at most 40 instances a finder and state);
  the three slowest finders (Mutant Jellyfish, Finned Mutant Squirmbag and Whale, off
  by default: 90% of the time) on the first such state of each of those paths only;
* the difficulty and SER of each puzzle.

Run it compiled and plain (``SUDOKU_SCAN_PURE=1``): both must match the same file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import parse_puzzle, solve, solver_mode  # noqa: E402
from solver.parse import read_puzzle_file  # noqa: E402
from solver.steps import Step  # noqa: E402
from solver.techniques import ALL_TECHNIQUES  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "puzzles"
PATH_SETS = (("seed/*.txt", None), ("norvig/sudoku-top95.txt", None),
             ("sets/qqwing_expert.sdm", 100))  # fmt: skip
STATE_PUZZLES = 12
INSTANCES = 40
SINGLES = ("full-house", "hidden-single", "naked-single")
SLOW = ("mutant-jellyfish", "finned-mutant-squirmbag", "finned-mutant-whale")


def flat_evidence(step: Step) -> list[int]:
    """The secondary evidence as one list of ints, as the former ``Step.extra`` held it.

    Steps carried their secondary evidence in one positional ``extra`` tuple until it was
    split into role-tagged ``marked`` cells and named fields. Producers store the groups in
    the order they used to concatenate them, so this flattening (the marked cells in stored
    order, then ``branch_lengths``, ``refuted`` as ``cell * 9 + digit - 1``,
    ``inner_sizes`` and a trial's ``guesses``) equals the old ``extra``, and fingerprints
    recorded before the split still compare. A trial always recorded ``(guesses,)``, 0
    included, so it is kept by technique, not by value.
    """
    out = [c for _role, cells in step.marked for c in cells]
    out += step.branch_lengths
    out += [cell * 9 + digit - 1 for cell, digit in step.refuted]
    out += step.inner_sizes
    if step.technique == "trial":
        out.append(step.guesses)
    return out


def step_record(step: Step) -> list[object]:
    return [step.technique, sorted(step.placements), sorted(step.eliminations),
            list(step.cells), list(step.houses), list(step.digits), flat_evidence(step),
            [[list(cells), digit, on] for cells, digit, on in step.chain],
            step.text]  # fmt: skip


def puzzles() -> list[tuple[str, str]]:
    out = []
    for pattern, limit in PATH_SETS:
        texts = [(f"{f.name}:{n}", t) for f in sorted(DATA.glob(pattern))
                 for n, t in read_puzzle_file(f)]  # fmt: skip
        out.extend(texts[:limit] if limit else texts)
    return out


def fingerprint() -> dict[str, object]:
    paths: dict[str, object] = {}
    states: dict[str, object] = {}
    top95 = 0
    for name, text in puzzles():
        start = parse_puzzle(text)
        result = solve(start)
        d = result.difficulty
        paths[name] = {
            "status": str(result.status),
            "difficulty": [d.hardest, d.score, d.level, d.ser],
            "steps": [step_record(s) for s in result.steps],
        }
        if not name.startswith("sudoku-top95") or top95 >= STATE_PUZZLES:
            continue
        top95 += 1
        grid = start.copy()
        first = True
        for index, step in enumerate(result.steps):
            if step.technique not in SINGLES:
                found = {}
                for tech in ALL_TECHNIQUES:
                    if tech.id in SLOW and not first:
                        continue
                    steps = islice(tech.find(grid.copy()), INSTANCES)
                    found[tech.id] = [step_record(s) for s in steps]
                states[f"{name}@{index}"] = found
                first = False
            step.apply(grid)
    return {"paths": paths, "states": states}


def digest(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", type=Path)
    group.add_argument("--compare", type=Path)
    args = ap.parse_args()
    print(f"solver {solver_mode()}", file=sys.stderr)
    now = fingerprint()
    if args.out:
        args.out.write_text(json.dumps(now))
        paths, states = now["paths"], now["states"]
        print(f"{len(paths)} paths, {len(states)} states: {digest(now)}")  # type: ignore[arg-type]
        return 0
    before = json.loads(args.compare.read_text())
    bad = 0
    for part in ("paths", "states"):
        for key, value in before[part].items():
            if json.loads(json.dumps(now[part].get(key))) != value:  # type: ignore[attr-defined]
                bad += 1
                if bad <= 10:
                    print(f"differs: {part} {key}")
    total = len(before["paths"]) + len(before["states"])
    print(f"{total - bad} of {total} identical ({len(before['paths'])} paths, "
          f"{len(before['states'])} states)")  # fmt: skip
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
