"""Side-by-side speed against hodoku-py (HoDoKu 2.2 ported to Python) on the same puzzles.

Usage::

    python benchmarks/bench_vs_hodoku.py --setup [--wheel PATH]   # once: make the venv
    python benchmarks/bench_vs_hodoku.py [--limit N] [--data ../shared/data/puzzles]

hodoku-py is never a dependency of this project: ``--setup`` creates its own virtual
environment, ``benchmarks/.venv-hodoku`` (gitignored), and runs ``pip install hodoku-py``
there (or installs a local wheel with ``--wheel``; hodoku-py 0.2.1 ships CPython 3.11
wheels, so make the venv with a 3.11 interpreter). The benchmark then runs each solver on
a whole set in a fresh process of its own (hodoku-py in that venv, ours in this
interpreter), on the same puzzles: QQWing expert (default 100) and Norvig's top95 (95).
Each process first solves one untimed warm-up puzzle (QQWing intermediate's first), in
neither set. Ours runs once before and once after hodoku-py and its time per puzzle is
the mean of the two, so a steady drift in the machine's speed hits both solvers alike
(fresh processes, so the second run reuses nothing the first one cached; taking turns
puzzle by puzzle in one run would instead start every solve with the other solver's data
in the CPU caches, which costs a 2 ms solve far more than a 50 ms one).

Per puzzle it times ``hodoku.Solver().solve(puzzle)`` (HoDoKu's full technique set, brute
force as the last resort; no uniqueness check) and our ``solve(parse_puzzle(text))``
(parsing, the uniqueness check by exact search, and the logical solve). "Solved without
guessing" counts hodoku-py solves with no Brute Force step, and our solves that end
SOLVED with no ``trial`` step. The speed-up is the ratio of the means (and of the
medians) of the per-puzzle times; the "both solved" rows keep only the puzzles both solve
without guessing. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import solver_mode  # noqa: E402
from solver.parse import read_puzzle_file  # noqa: E402

VENV = ROOT / "benchmarks" / ".venv-hodoku"
SETS = [
    ("QQWing expert", "sets/qqwing_expert.sdm", 100),
    ("norvig top95", "norvig/sudoku-top95.txt", 95),
]

# A worker reads one puzzle per line on stdin and answers one JSON line per puzzle.
HODOKU_WORKER = r"""
import json, sys, time
from hodoku import Solver, SolutionType
solver = Solver()
for line in sys.stdin:
    text = line.strip()
    start = time.perf_counter()
    result = solver.solve(text)
    elapsed = time.perf_counter() - start
    guessed = any(s.type == SolutionType.BRUTE_FORCE for s in result.steps)
    print(json.dumps({"seconds": elapsed, "solved": bool(result.solved), "guessed": guessed,
                      "level": result.level.name, "score": result.score}), flush=True)
"""
OUR_WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from solver import SOLVED, parse_puzzle, solve
for line in sys.stdin:
    text = line.strip()
    start = time.perf_counter()
    result = solve(parse_puzzle(text))
    elapsed = time.perf_counter() - start
    guessed = any(s.technique == "trial" for s in result.steps)
    print(json.dumps({"seconds": elapsed, "solved": result.status == SOLVED,
                      "guessed": guessed}), flush=True)
"""
WARMUP = ("sets/qqwing_intermediate.sdm", 0)


def venv_python() -> Path:
    return VENV / "bin" / "python"


def setup(wheel: Path | None) -> None:
    """Create ``benchmarks/.venv-hodoku`` and install hodoku-py into it."""
    if not venv_python().exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = str(wheel) if wheel else "hodoku-py"
    subprocess.run([str(venv_python()), "-m", "pip", "install", "-q", target], check=True)
    check = "import hodoku; print('hodoku-py ready')"
    subprocess.run([str(venv_python()), "-c", check], check=True)


def run_worker(command: list[str], puzzles: list[str], warmup: str) -> list[dict[str, object]]:
    """Solve ``warmup`` (untimed) then ``puzzles`` in a fresh worker process; one result
    dict per puzzle."""
    proc = subprocess.run(
        command,
        input="".join(text + "\n" for text in [warmup, *puzzles]),
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if len(rows) != len(puzzles) + 1:
        raise RuntimeError(f"{command[0]} answered {len(rows) - 1} of {len(puzzles)} puzzles")
    return rows[1:]


def run_both(
    puzzles: list[str], warmup: str
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """hodoku-py's and our results on ``puzzles``: ours from a run before and one after
    hodoku-py's, per puzzle the mean of the two times."""
    our_command = [sys.executable, "-c", OUR_WORKER, str(ROOT)]
    before = run_worker(our_command, puzzles, warmup)
    hk_rows = run_worker([str(venv_python()), "-c", HODOKU_WORKER], puzzles, warmup)
    after = run_worker(our_command, puzzles, warmup)
    for row, again in zip(before, after, strict=True):
        row["seconds"] = (float(row["seconds"]) + float(again["seconds"])) / 2  # type: ignore[arg-type]
    return hk_rows, before


def summary(rows: list[dict[str, object]]) -> dict[str, float]:
    times = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
    return {
        "median_ms": statistics.median(times) * 1e3,
        "mean_ms": statistics.fmean(times) * 1e3,
        "max_ms": max(times) * 1e3,
        "clean": sum(1 for r in rows if _clean(r)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "puzzles")
    ap.add_argument("--limit", type=int, default=None, help="at most N puzzles per set")
    ap.add_argument("--setup", action="store_true", help="create the hodoku-py venv and exit")
    ap.add_argument("--wheel", type=Path, default=None, help="with --setup: a local wheel")
    args = ap.parse_args()
    if args.setup:
        setup(args.wheel)
        return
    if not venv_python().exists():
        sys.exit(f"no hodoku-py venv at {VENV}: run with --setup first")
    print(
        f"Speed vs hodoku-py ({time.strftime('%Y-%m-%d')}, Python {sys.version.split()[0]}, "
        f"1 core each, ours before and after hodoku-py; our solver {solver_mode()})\n"
    )
    warmup = [t for _, t in read_puzzle_file(args.data / WARMUP[0])][WARMUP[1]]
    print(
        "| set | puzzles | solver | solved without guessing | median ms | mean ms | max ms |"
        " speed-up (mean) |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for label, pattern, default_n in SETS:
        n = args.limit if args.limit is not None else default_n
        texts = [t for _, t in read_puzzle_file(args.data / pattern)][:n]
        if not texts:
            continue
        hk_rows, our_rows = run_both(texts, warmup)
        # The fair speed figure: puzzles both solve without guessing (our stuck solves end
        # early, which would flatter us).
        both = [i for i in range(len(texts)) if _clean(hk_rows[i]) and _clean(our_rows[i])]
        table = [
            (label, len(texts), "hodoku-py 0.2.1", summary(hk_rows), None),
            (label, len(texts), "sudoku-scan", summary(our_rows), summary(hk_rows)),
        ]
        if both:
            hk_both = summary([hk_rows[i] for i in both])
            table += [
                (f"{label}, both solved", len(both), "hodoku-py 0.2.1", hk_both, None),
                (
                    f"{label}, both solved",
                    len(both),
                    "sudoku-scan",
                    summary([our_rows[i] for i in both]),
                    hk_both,
                ),
            ]
        for name, count, solver_name, r, theirs in table:
            speed = ""
            if theirs is not None:
                speed = (
                    f"{theirs['mean_ms'] / r['mean_ms']:.1f}x "
                    f"(median {theirs['median_ms'] / r['median_ms']:.1f}x)"
                )
            print(
                f"| {name} | {count} | {solver_name} | {r['clean']:.0f}/{count} | "
                f"{r['median_ms']:.1f} | {r['mean_ms']:.1f} | {r['max_ms']:.0f} | {speed} |",
                flush=True,
            )


def _clean(row: dict[str, object]) -> bool:
    return bool(row["solved"]) and not row["guessed"]


if __name__ == "__main__":
    main()
