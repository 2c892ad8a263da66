"""Digit reading: turn a grid's 81 cell crops into per-cell probabilities.

Engines
    ``cnn``
        A small CNN trained on rendered digits (see ``scanner.digits.train``), run in
        numpy from the bundled ``weights.npz``. The default: it measures best.
    ``tesseract``
        The Tesseract OCR program, given all non-empty cells of a grid in one call.

Every engine's ``classify(cells)`` takes (81, 64, 64) uint8 cells and returns (81, 10)
float probabilities, column 0 = EMPTY, column d = digit d. ``scanner.reading.revise``
turns them into givens, fixing misreads the puzzle's rules expose, and
``scanner.reading.orientation_score`` ranks the quarter turns of a grid (``turn_cells``
turns the cells; ``CnnEngine.classify_turns`` reads all four turns at once).
"""

from __future__ import annotations

from functools import cache

from solver.errors import BadArgsError

from .base import EMPTY, DigitEngine, DigitEngineError, turn_cells

ENGINES = ("cnn", "tesseract")
DEFAULT_ENGINE = "cnn"


@cache
def get_engine(name: str) -> DigitEngine:
    """The digit engine called ``name`` (created once, then shared).

    Raises
    ------
    BadArgsError
        For an unknown name.
    MissingDependencyError
        For ``tesseract`` when the Tesseract program is not installed.
    """
    if name == "cnn":
        from .cnn import CnnEngine

        return CnnEngine()
    if name == "tesseract":
        from .tesseract import TesseractEngine

        return TesseractEngine()
    raise BadArgsError(f"unknown digit engine {name!r}; choose one of {', '.join(ENGINES)}")


def available_engines() -> list[str]:
    """Names of the engines that can run here (Tesseract only when it is installed)."""
    from .cnn import WEIGHTS
    from .tesseract import tesseract_available

    names = []
    if WEIGHTS.is_file():
        names.append("cnn")
    if tesseract_available():
        names.append("tesseract")
    return names


__all__ = [
    "DEFAULT_ENGINE",
    "EMPTY",
    "ENGINES",
    "DigitEngine",
    "DigitEngineError",
    "available_engines",
    "get_engine",
    "turn_cells",
]
