"""The ``tesseract`` engine: Tesseract OCR on all digit cells of a grid at once.

Starting Tesseract costs ~80 ms, so the non-empty cells (found by the ink test of
``preprocess``) are normalised, stacked on one sheet one per text line and read in
a single call; each recognised character goes back to the cell its box lies in.
Tesseract gives one confidence per character and no alternatives, so the rest of the
probability is spread evenly: ``revise`` can still try other digits, but uninformed
alternatives often fit several ways, and it then reports the grid unreadable rather
than guess.
"""

from __future__ import annotations

import shutil
from functools import cache

import numpy as np
import numpy.typing as npt

from ..errors import MissingDependencyError
from .base import N_COLUMNS, DigitEngineError
from .preprocess import CELL, centred, has_ink, ink_maps

FloatArray = npt.NDArray[np.float32]

INSTALL_HINT = (
    "the tesseract digit engine needs the Tesseract OCR program: "
    "install it with `sudo apt-get install tesseract-ocr` (or use the cnn engine)"
)
_TILE = 48  # the central part of a centred cell that goes on the sheet
_GAP = 24  # white space between tiles
# One tile per text line: on rows of spaced digits Tesseract's line model merges and
# invents digits (on a quarter of the photos: 0.82 of the given digits right in rows of
# nine, 0.94-0.95 one per line).
_PER_ROW = 1
# Tesseract's psm 6: one uniform block of text; digits only.
_CONFIG = "--psm 6 -c tessedit_char_whitelist=123456789"
_TIMEOUT_S = 20


@cache
def tesseract_available() -> bool:
    """Whether the Tesseract program can be found (probed once per process)."""
    import pytesseract

    cmd = pytesseract.pytesseract.tesseract_cmd
    return shutil.which(cmd) is not None


def sheet(
    tiles: list[npt.NDArray[np.uint8]],
) -> tuple[npt.NDArray[np.uint8], list[tuple[int, int]]]:
    """Lay tiles (48, 48) out on white paper, ``_PER_ROW`` to a row.

    Returns
    -------
    image : (H, W) uint8 array
        The sheet.
    origins : list of (x, y)
        Top-left corner of each tile on the sheet.
    """
    step = _TILE + _GAP
    rows = (len(tiles) + _PER_ROW - 1) // _PER_ROW
    cols = min(len(tiles), _PER_ROW)
    img = np.full((_GAP + rows * step, _GAP + cols * step), 255, dtype=np.uint8)
    origins = []
    for k, tile in enumerate(tiles):
        x = _GAP + (k % _PER_ROW) * step
        y = _GAP + (k // _PER_ROW) * step
        img[y : y + _TILE, x : x + _TILE] = tile
        origins.append((x, y))
    return img, origins


class TesseractEngine:
    """Digit reader backed by the Tesseract OCR program.

    Raises
    ------
    MissingDependencyError
        When the ``tesseract`` program is not installed.
    """

    name = "tesseract"

    def __init__(self) -> None:
        if not tesseract_available():
            raise MissingDependencyError(INSTALL_HINT)

    def classify(self, cells: npt.ArrayLike) -> FloatArray:
        """Probabilities (N, 10) over EMPTY and the digits 1..9 for cells (N, 64, 64).

        Parameters
        ----------
        cells : (N, 64, 64) uint8 array
            One grid's cells (N = 81, row by row).

        Returns
        -------
        (N, 10) float32 array
            Rows sum to 1; column 0 is EMPTY, column d is digit d.

        Raises
        ------
        DigitEngineError
            When the Tesseract process fails.
        MissingDependencyError
            When the program has disappeared since the engine was made.
        """
        ink = ink_maps(cells)
        n = len(ink)
        probs = np.zeros((n, N_COLUMNS), dtype=np.float32)
        # Plain paper: empty, with a little doubt left for the digits.
        probs[:, 0] = 0.99
        probs[:, 1:] = 0.01 / 9
        busy = [i for i in range(n) if has_ink(ink[i])]
        if not busy:
            return probs
        m = (CELL - _TILE) // 2
        tiles = [
            (255.0 * (1.0 - centred(ink[i])[m : m + _TILE, m : m + _TILE])).astype(np.uint8)
            for i in busy
        ]
        image, origins = sheet(tiles)
        reads = self._read(image)
        for i in busy:
            # Ink but no character: probably a speck, but a digit is quite possible.
            probs[i, 0] = 0.5
            probs[i, 1:] = 0.5 / 9
        for digit, conf, cx, cy in reads:
            for k, (x, y) in enumerate(origins):
                if (
                    x - _GAP / 2 <= cx < x + _TILE + _GAP / 2
                    and y - _GAP / 2 <= cy < y + _TILE + _GAP / 2
                ):
                    p = float(np.clip(conf, 0.3, 0.99))
                    row = probs[busy[k]]
                    row[:] = (1.0 - p) / 9
                    row[digit] = p
                    break
        return probs

    @staticmethod
    def _read(image: npt.NDArray[np.uint8]) -> list[tuple[int, float, float, float]]:
        """Characters on the sheet: (digit, confidence 0..1, centre x, centre y)."""
        import pytesseract
        from PIL import Image

        try:
            data = pytesseract.image_to_data(
                Image.fromarray(image),
                config=_CONFIG,
                output_type=pytesseract.Output.DICT,
                timeout=_TIMEOUT_S,
            )
        except pytesseract.TesseractNotFoundError:
            raise MissingDependencyError(INSTALL_HINT) from None
        except (pytesseract.TesseractError, OSError, RuntimeError) as exc:
            raise DigitEngineError(f"Tesseract failed while reading the digits: {exc}") from exc
        reads = []
        for text, conf, left, top, width, height in zip(
            data["text"],
            data["conf"],
            data["left"],
            data["top"],
            data["width"],
            data["height"],
            strict=True,
        ):
            text = str(text).strip()
            if not text.isdigit() or "0" in text:
                continue
            # Rarely two tiles' digits come back as one word: split its box evenly.
            w = float(width) / len(text)
            for j, ch in enumerate(text):
                reads.append(
                    (
                        int(ch),
                        float(conf) / 100.0,
                        float(left) + (j + 0.5) * w,
                        float(top) + float(height) / 2,
                    )
                )
        return reads
