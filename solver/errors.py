"""The shared vocabulary: statuses, exit codes, the base exception class and the
failures of the solver layer (one class per failure kind).

Statuses and exit codes live in the lowest package so that every layer (solver, scanner,
overlay, pipeline, the web app) says "status" with the same words;
``pipeline/sudoku-scan.schema.json`` lists them. Each error class lives next to the
layer that raises it and carries its own ``exit_code`` and ``status``:

============================  ===================  ===================================
class                         module               raised when
============================  ===================  ===================================
``BadArgsError``              ``solver.errors``    an option out of range (any layer)
``InputFileError``            ``solver.errors``    a file missing, unreadable, wrong format
``PuzzleFormatError``         ``solver.errors``    text that is not a puzzle
``InvalidPuzzleError``        ``solver.errors``    clashing givens, no or several solutions
``ImageTooLargeError``        ``scanner.errors``   an image over the decompression limit
``NoGridError``               ``scanner.errors``   no Sudoku grid in the image
``UnreadableGridError``       ``scanner.errors``   a grid whose digits cannot be trusted
``MissingDependencyError``    ``scanner.errors``   Tesseract is not installed
``OutputError``               ``pipeline.errors``  a result that could not be written
============================  ===================  ===================================
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Status(StrEnum):
    """The ``"status"`` of every JSON object the tool prints or serves."""

    SOLVED = "solved"  # solved by logic
    STUCK = "stuck"  # a valid puzzle where logic alone got stuck (or no hint step found)
    NO_SOLUTION = "no_solution"  # the givens clash or have no solution
    MULTIPLE = "multiple_solutions"  # the givens have several solutions
    READ = "read"  # read: a trusted reading (read does not solve)
    HINT = "hint"  # --hint: the next step is given
    UNREADABLE = "unreadable"  # a grid whose digits cannot be read with confidence
    NO_GRID = "no_grid"  # no Sudoku grid in the image
    ERROR = "error"  # any other failure; "error" says why


class ExitCode(IntEnum):
    """Process exit codes of ``sudoku-scan`` (documented in the README)."""

    OK = 0
    OTHER_ERROR = 1
    BAD_ARGS = 2
    INPUT_FILE = 3  # missing, unreadable, truncated or not the expected format
    INVALID_PUZZLE = 4  # clashing givens, no solution or several solutions
    NOT_SOLVED = 5  # valid puzzle, but logic alone got stuck
    NO_GRID = 6  # no readable Sudoku grid in the image
    MISSING_DEPENDENCY = 7  # an external program (Tesseract) is not installed
    OUTPUT_ERROR = 8  # the result could not be written
    UNREADABLE = 9  # a grid was found but its digits could not be read consistently
    PARTIAL_FAILURE = 10  # a batch or multi-puzzle run where some inputs failed
    CTRL_C = 130


class SudokuScanError(Exception):
    """Base of every expected failure; ``exit_code`` says how the CLI exits."""

    exit_code: ExitCode = ExitCode.OTHER_ERROR
    status: Status = Status.ERROR  # the JSON status of a page that failed this way


class BadArgsError(SudokuScanError):
    exit_code = ExitCode.BAD_ARGS


class InputFileError(SudokuScanError):
    exit_code = ExitCode.INPUT_FILE


class PuzzleFormatError(InputFileError):
    """Text that is not a puzzle: wrong length or characters."""


class InvalidPuzzleError(SudokuScanError):
    """A puzzle that cannot be solved uniquely: clashing givens, none or several solutions.

    ``details`` carries what a JSON report adds (e.g. ``"solutions"``: two that differ).
    """

    exit_code = ExitCode.INVALID_PUZZLE

    def __init__(self, message: str, *, details: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.details: dict[str, object] = details or {}
        found = self.details.get("status")
        self.status = Status.MULTIPLE if found == Status.MULTIPLE else Status.NO_SOLUTION


def short_name(name: str, limit: int = 120) -> str:
    """A file name fit for a one-line message: a long one keeps its start and end."""
    return name if len(name) <= limit else f"{name[: limit // 2]}...{name[-limit // 3 :]}"


def describe_os_error(exc: OSError, name: str | None = None) -> str:
    """``NAME: reason`` for an OS error (``File name too long``, ``Permission denied``)."""
    label = name if name is not None else exc.filename
    reason = exc.strerror or str(exc)
    return f"{short_name(str(label))}: {reason}" if label is not None else reason
