"""Solver benchmark: solve rate and time per puzzle on the reference sets.

Usage: ``python benchmarks/bench_solver.py [--data ../shared/data/puzzles] [--limit N]``.
Prints a markdown table (one core, one process). Times include parsing, the uniqueness
check by exact search, and the logical solve with every step recorded.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import SOLVED, parse_puzzle, solve, solver_mode  # noqa: E402
from solver.parse import read_puzzle_file  # noqa: E402
from solver.search import solutions  # noqa: E402

SETS = [
    ("seed (19 files)", "seed/*.txt"),
    ("norvig easy50", "norvig/sudoku-easy50.txt"),
    ("norvig top95", "norvig/sudoku-top95.txt"),
    ("norvig hardest", "norvig/sudoku-hardest.txt"),
    ("norvig hard 375", "norvig/sudokus_hard.txt"),
    ("QQWing simple", "sets/qqwing_simple.sdm"),
    ("QQWing easy", "sets/qqwing_easy.sdm"),
    ("QQWing intermediate", "sets/qqwing_intermediate.sdm"),
    ("QQWing expert", "sets/qqwing_expert.sdm"),
    ("top1465", "sets/top1465.txt"),
]


def load(data: Path, pattern: str, limit: int | None) -> list[str]:
    files = sorted(data.glob(pattern))
    texts = [text for f in files for _, text in read_puzzle_file(f)]
    return texts[:limit] if limit else texts


def bench(texts: list[str]) -> dict[str, float]:
    times, solved, wrong, trial = [], 0, 0, 0
    for text in texts:
        start = time.perf_counter()
        result = solve(parse_puzzle(text))
        times.append(time.perf_counter() - start)
        if result.status == SOLVED:
            solved += 1
            trial += any(step.technique == "trial" for step in result.steps)
        # Independent check of every placement against the exact search's solution.
        (truth,) = solutions(result.givens, limit=1) or [None]
        if truth is not None:
            values = result.grid.values
            wrong += sum(1 for c in range(81) if values[c] and values[c] != truth[c])
    times.sort()
    return {
        "n": len(texts),
        "solved": solved,
        "wrong": wrong,
        "trial": trial,
        "median_ms": statistics.median(times) * 1e3,
        "p95_ms": times[min(len(times) - 1, int(0.95 * len(times)))] * 1e3,
        "mean_ms": statistics.fmean(times) * 1e3,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "puzzles")
    ap.add_argument("--limit", type=int, default=None, help="at most N puzzles per set")
    args = ap.parse_args()
    print(
        f"Solver benchmark ({time.strftime('%Y-%m-%d')}, Python {sys.version.split()[0]}, 1 core, "
        f"solver {solver_mode()})\n"
    )
    print("| set | puzzles | solved | solved without trial | wrong cells | median ms | p95 ms "
          "| mean ms |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, pattern in SETS:
        texts = load(args.data, pattern, args.limit)
        if not texts:
            continue
        r = bench(list(islice(texts, None)))
        pct = 100 * r["solved"] / r["n"]
        clean = r["solved"] - r["trial"]
        print(
            f"| {label} | {r['n']:.0f} | {r['solved']:.0f} ({pct:.1f}%) | "
            f"{clean:.0f} ({100 * clean / r['n']:.1f}%) | {r['wrong']:.0f} | "
            f"{r['median_ms']:.2f} | {r['p95_ms']:.2f} | {r['mean_ms']:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
