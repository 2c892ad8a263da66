"""The failures of the scanner layer; the vocabulary they share is in
:mod:`solver.errors` (its table lists every error class and where it lives)."""

from __future__ import annotations

from solver.errors import ExitCode, InputFileError, Status, SudokuScanError


class ImageTooLargeError(InputFileError):
    """An image over the decompression-bomb limit: refused before it is decoded."""


class NoGridError(SudokuScanError):
    """No Sudoku grid in the image (or an image too small to hold one)."""

    exit_code = ExitCode.NO_GRID
    status = Status.NO_GRID


class UnreadableGridError(SudokuScanError):
    """A grid was found but its digits cannot be read with confidence."""

    exit_code = ExitCode.UNREADABLE
    status = Status.UNREADABLE


class MissingDependencyError(SudokuScanError):
    """An external program (Tesseract) is not installed; the message says how to."""

    exit_code = ExitCode.MISSING_DEPENDENCY
