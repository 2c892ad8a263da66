"""Rating benchmark: our SER-like number and score against Sudoku Explainer's own ratings.

Usage: ``python benchmarks/bench_rating.py [--data ../shared/data/puzzles] [--limit N]
[--qqwing N] [--jobs N]``.

Rates the SE-rated puzzles of ``sets/hardest-database-110626-ser.csv`` (column ``ER``, 269
of its rows) and prints markdown tables: how many our logic solves, and Spearman's rank
correlation (ties averaged, computed by hand) between SE's ER and our SER-like number and
score, over all rated puzzles and over the fully solved ones. A stuck solve's SER rates
only the steps found (a lower bound). Those puzzles all rate 9.7-11.9 in SE, a narrow
band, so a second table checks the whole scale: QQWing's four labelled levels (``--qqwing``
puzzles each) against our SER and score, with Spearman against the level's rank.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import SOLVED, parse_puzzle, solve  # noqa: E402
from solver.parse import read_puzzle_file  # noqa: E402
from solver.rating import spearman  # noqa: E402

SE_CSV = "sets/hardest-database-110626-ser.csv"
QQWING = ["simple", "easy", "intermediate", "expert"]


def load_se_rated(path: Path, limit: int | None = None) -> list[tuple[str, float]]:
    """(puzzle, ER) for each row of the hardest-database CSV that carries an SE rating."""
    out: list[tuple[str, float]] = []
    for line in path.read_text().splitlines():
        fields = line.strip().split(",")
        if len(fields) < 6 or len(fields[0]) != 81 or not fields[5]:
            continue  # title, header, comments, unrated rows
        out.append((fields[0], float(fields[5])))
        if limit and len(out) >= limit:
            break
    return out


def rate_one(text: str) -> dict[str, float]:
    """Solve one puzzle: our SER, score, whether solved (with or without trial), the time."""
    start = time.perf_counter()
    result = solve(parse_puzzle(text))
    elapsed = time.perf_counter() - start
    d = result.difficulty
    return {
        "ser": d.ser,
        "score": float(d.score),
        "solved": float(result.status == SOLVED),
        "trial": float(any(s.technique == "trial" for s in result.steps)),
        "seconds": elapsed,
    }


def rate_all(puzzles: list[str], jobs: int = 1) -> list[dict[str, float]]:
    """:func:`rate_one` for each puzzle, in order, on ``jobs`` processes."""
    if jobs <= 1:
        return [rate_one(text) for text in puzzles]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return list(pool.imap(rate_one, puzzles, chunksize=1))


def _fmt(r: float) -> str:
    return "n/a" if r != r else f"{r:+.3f}"  # NaN when a side is constant


def se_table(data: Path, limit: int | None, jobs: int) -> None:
    rated = load_se_rated(data / SE_CSV, limit)
    rows = rate_all([p for p, _ in rated], jobs)
    er = [e for _, e in rated]
    solved = [i for i, r in enumerate(rows) if r["solved"]]
    print(f"SE-rated puzzles: {len(rated)} ({SE_CSV}), ER {min(er):.1f}-{max(er):.1f}\n")
    print("| puzzles | n | mean ER | mean our SER | Spearman(SER, ER) | Spearman(score, ER) |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, idx in (("all rated", range(len(rows))), ("fully solved", solved)):
        idx = list(idx)
        if not idx:
            print(f"| {label} | 0 | | | n/a | n/a |")
            continue
        e = [er[i] for i in idx]
        s = [rows[i]["ser"] for i in idx]
        sc = [rows[i]["score"] for i in idx]
        print(
            f"| {label} | {len(idx)} | {statistics.fmean(e):.2f} | {statistics.fmean(s):.2f} | "
            f"{_fmt(spearman(s, e))} | {_fmt(spearman(sc, e))} |"
        )
    times = [r["seconds"] for r in rows]
    no_trial = sum(1 for i in solved if not rows[i]["trial"])
    print(
        f"\nSolved: {len(solved)}/{len(rows)}, {no_trial} without trial; time per puzzle: median "
        f"{statistics.median(times) * 1e3:.0f} ms, mean {statistics.fmean(times) * 1e3:.0f} ms\n"
    )


def qqwing_table(data: Path, n: int, jobs: int) -> None:
    levels: list[float] = []
    sers: list[float] = []
    scores: list[float] = []
    print("| QQWing level | n | solved | median SER | mean SER | max SER | mean score |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for rank, name in enumerate(QQWING):
        texts = [t for _, t in read_puzzle_file(data / f"sets/qqwing_{name}.sdm")][:n]
        rows = rate_all(texts, jobs)
        s = [r["ser"] for r in rows]
        levels += [float(rank)] * len(rows)
        sers += s
        scores += [r["score"] for r in rows]
        print(
            f"| {name} | {len(rows)} | {sum(int(r['solved']) for r in rows)} | "
            f"{statistics.median(s):.1f} | {statistics.fmean(s):.2f} | {max(s):.1f} | "
            f"{statistics.fmean(r['score'] for r in rows):.0f} |"
        )
    print(
        f"\nSpearman against QQWing's level: SER {_fmt(spearman(sers, levels))}, "
        f"score {_fmt(spearman(scores, levels))}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "puzzles")
    ap.add_argument("--limit", type=int, default=None, help="at most N SE-rated puzzles")
    ap.add_argument("--qqwing", type=int, default=50, help="puzzles per QQWing level (0: skip)")
    ap.add_argument("--jobs", type=int, default=1, help="solve on N processes (default 1)")
    args = ap.parse_args()
    print(f"Rating benchmark ({time.strftime('%Y-%m-%d')}, Python {sys.version.split()[0]})\n")
    se_table(args.data, args.limit, args.jobs)
    if args.qqwing:
        qqwing_table(args.data, args.qqwing, args.jobs)


if __name__ == "__main__":
    main()
