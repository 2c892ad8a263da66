"""The failures of the pipeline layer; the vocabulary they share is in
:mod:`solver.errors` (its table lists every error class and where it lives)."""

from __future__ import annotations

from solver.errors import ExitCode, SudokuScanError


class OutputError(SudokuScanError):
    """A result (image, report, sheet, results file) that could not be written."""

    exit_code = ExitCode.OUTPUT_ERROR
