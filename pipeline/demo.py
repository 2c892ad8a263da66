"""``make demo``: read, solve and annotate the bundled sample photos."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
OUT = ROOT / "out"


def run_demo(out: TextIO) -> int:
    from pipeline.stages import solve_photo
    from scanner.digits import DEFAULT_ENGINE
    from solver.errors import ExitCode

    OUT.mkdir(exist_ok=True)
    worst = ExitCode.OK
    for name in ("newspaper-photo.jpg", "synthetic-photo.jpg"):
        photo = SAMPLES / name
        target = OUT / (photo.stem + ".solved.png")
        solved = solve_photo(str(photo), engine=DEFAULT_ENGINE, out=str(target))
        d = solved.result.difficulty.to_dict()
        out.write(
            f"{photo.relative_to(ROOT)}: {solved.result.status} in {len(solved.result.steps)} "
            f"steps (hardest: {d['name']}); wrote {target.relative_to(ROOT)} "
            f"in {solved.seconds * 1e3:.0f} ms\n"
        )
        first = solved.result.steps[0] if solved.result.steps else None
        if first is not None:
            out.write(f"  first step: {first.text}\n")
        if solved.result.status != "solved":
            worst = ExitCode.NOT_SOLVED
    return worst
