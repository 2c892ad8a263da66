"""Pure-Python logical Sudoku solver: grid model, techniques, step log, rating, uniqueness."""

from .errors import ExitCode, InvalidPuzzleError, PuzzleFormatError, SudokuScanError
from .grid import Grid
from .parse import parse_pencilmarks, parse_puzzle, parse_state, parse_values, read_puzzle_file
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
from .steps import Step, Technique
from .techniques import ALL_TECHNIQUES, ORDER, TECHNIQUES

__all__ = [
    "ALL_TECHNIQUES",
    "MULTIPLE",
    "NO_SOLUTION",
    "ORDER",
    "SOLVED",
    "STUCK",
    "TECHNIQUES",
    "UNIQUENESS",
    "Difficulty",
    "ExitCode",
    "Grid",
    "InvalidPuzzleError",
    "PuzzleFormatError",
    "SolveResult",
    "Step",
    "SudokuScanError",
    "Technique",
    "count_solutions",
    "hint",
    "next_step",
    "parse_pencilmarks",
    "parse_puzzle",
    "parse_state",
    "parse_values",
    "rate",
    "read_puzzle_file",
    "solutions",
    "solve",
    "validate",
]
