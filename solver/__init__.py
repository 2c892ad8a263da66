"""Logical Sudoku solver: grid model, techniques, step log, rating, uniqueness.

Pure Python; ``make`` also compiles its hot modules with mypyc, used only while they match
their sources (see :mod:`solver.native`). ``NATIVE`` says whether they are in use here and
``NATIVE_REASON`` why not.
"""

# First of all: decide whether the compiled modules may load (before any of them does).
from .native import select as _select_modules

NATIVE, NATIVE_REASON = _select_modules()


def solver_mode() -> str:
    """How the solver runs here, for benchmark headers and ``--version``-like reports."""
    return "compiled with mypyc" if NATIVE else f"in plain Python ({NATIVE_REASON})"


from .check import CheckStatus, EntryCheck, PositionHint, check_entries, position_hint
from .errors import ExitCode, InvalidPuzzleError, PuzzleFormatError, SudokuScanError
from .grid import Grid
from .parse import parse_pencilmarks, parse_puzzle, parse_state, parse_values, read_puzzle_file
from .registry import Family, Level, Technique
from .search import count_solutions, solutions
from .solve import (
    MULTIPLE,
    NO_SOLUTION,
    SOLVED,
    STUCK,
    UNIQUENESS,
    Difficulty,
    SolveResult,
    hint,
    next_step,
    rate,
    solve,
    validate,
)
from .steps import Step
from .techniques import ALL_TECHNIQUES, ORDER, TECHNIQUES

__all__ = [
    "ALL_TECHNIQUES",
    "MULTIPLE",
    "NATIVE",
    "NATIVE_REASON",
    "NO_SOLUTION",
    "ORDER",
    "SOLVED",
    "STUCK",
    "TECHNIQUES",
    "UNIQUENESS",
    "CheckStatus",
    "Difficulty",
    "EntryCheck",
    "ExitCode",
    "Family",
    "Grid",
    "InvalidPuzzleError",
    "Level",
    "PositionHint",
    "PuzzleFormatError",
    "SolveResult",
    "Step",
    "SudokuScanError",
    "Technique",
    "check_entries",
    "count_solutions",
    "hint",
    "next_step",
    "parse_pencilmarks",
    "parse_puzzle",
    "parse_state",
    "parse_values",
    "position_hint",
    "rate",
    "read_puzzle_file",
    "solutions",
    "solve",
    "solver_mode",
    "validate",
]
