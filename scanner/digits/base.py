"""What every digit engine provides, and the errors they raise."""

from __future__ import annotations

from typing import Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from solver.errors import SudokuScanError

EMPTY = 0  # column 0 of a probability row: the cell holds no digit
N_COLUMNS = 10  # EMPTY, then the digits 1..9

FloatArray = npt.NDArray[np.float32]
ScalarT = TypeVar("ScalarT", bound=np.generic)


def turn_cells(cells: npt.NDArray[ScalarT], k: int) -> npt.NDArray[ScalarT]:
    """A grid's cells (81, S, S) after turning the whole grid ``k`` quarter turns.

    Counter-clockwise, as ``numpy.rot90``: both the 9 x 9 layout and each cell turn, and
    the result is row by row in the turned grid, exactly as the cells of the turned
    photo would come out.
    """
    grid = cells.reshape(9, 9, *cells.shape[1:])
    turned = np.rot90(np.rot90(grid, k, axes=(0, 1)), k, axes=(2, 3))
    return np.ascontiguousarray(turned).reshape(cells.shape)


class DigitEngineError(SudokuScanError):
    """A digit engine failed while reading cells (e.g. the OCR process crashed)."""


@runtime_checkable
class DigitEngine(Protocol):
    """Reads the cells of one grid.

    Attributes
    ----------
    name : str
        The engine's name, as given to ``get_engine``.
    """

    name: str

    def classify(self, cells: npt.ArrayLike) -> FloatArray:
        """Probabilities (N, 10) for cells (N, 64, 64) uint8: EMPTY, then digits 1..9.

        ``cells`` are one grid's cells (N = 81, row by row), each warped from grid line
        to grid line, dark ink on light paper. Each row of the result sums to 1.
        """
        ...
