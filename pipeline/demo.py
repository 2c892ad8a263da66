"""``make demo``: run the main job on a bundled sample."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def run_demo(out: TextIO) -> int:
    from pipeline.cli import _print_result
    from solver import parse_puzzle, solve
    from solver.errors import ExitCode

    sample = SAMPLES / "puzzle-xy-wing.txt"
    out.write(f"Solving {sample.name} by logic:\n\n")
    result = solve(parse_puzzle(sample.read_text(), source=sample.name))
    _print_result(result, out)
    return ExitCode.OK if result.status == "solved" else ExitCode.NOT_SOLVED
