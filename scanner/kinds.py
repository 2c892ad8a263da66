"""What kind of ink fills each cell: the puzzle's printed givens, or something else.

A photo of a puzzle in progress holds more than the givens: an app shows the player's
entries in a colour of its own (blue, red, purple); a person writes in coloured pen.
None of that is part of the puzzle, and reading it as givens gives a different puzzle.
The measurement is relative to the grid itself, so no constant depends on one source:
the ink colour of each digit cell (the chroma of its inkiest pixels, in CIE Lab). When
the digit cells fall into two colour groups far apart (``COLOUR_SPLIT``), the more
neutral group (black or white print) holds the givens and the other the entries. One
group (all givens, in black or in a colour print) changes nothing; two groups that are
both coloured cannot be told apart, and the reader says so.
"""

from __future__ import annotations

from enum import StrEnum

import cv2
import numpy as np
import numpy.typing as npt

from .cells import extract_cells
from .geometry import GridGeometry

__all__ = ["COLOUR_SPLIT", "CellKind", "cell_kinds"]

# Two ink colours this far apart (Lab a*b* distance; ~ΔE) are two kinds of ink: black
# and blue print are ~60 apart, JPEG-smeared blue strokes still ~30, while one ink
# varies by under 10 across a grid.
COLOUR_SPLIT = 22.0
# An ink whose a*b* chroma is under this is black, grey or white.
_NEUTRAL = 12.0


class CellKind(StrEnum):
    """What a cell holds."""

    EMPTY = "empty"
    GIVEN = "given"  # printed by the puzzle
    ENTRY = "entry"  # written by the player: another ink than the givens


FloatArray = npt.NDArray[np.float64]
UInt8Array = npt.NDArray[np.uint8]


def _ink_masks(cells: UInt8Array) -> npt.NDArray[np.bool_]:
    """Ink pixels (N, S, S) of gray cells (dark on light), the cell borders left out."""
    n, s, _ = cells.shape
    inner = cells[:, s // 10 : -s // 10, s // 10 : -s // 10].reshape(n, -1).astype(np.float64)
    paper = np.percentile(inner, 90, axis=1)
    darkest = np.percentile(inner, 1, axis=1)
    cut = (paper - 0.5 * (paper - darkest))[:, None, None]
    mask = cells.astype(np.float64) < cut
    border = s // 10
    mask[:, :border] = mask[:, -border:] = False
    mask[:, :, :border] = mask[:, :, -border:] = False
    # A cell with no real contrast has no ink, whatever the threshold says.
    mask[(paper - darkest) < 25] = False
    return np.asarray(mask)


def _ink_colours(
    colour_cells: UInt8Array, gray_cells: UInt8Array, masks: npt.NDArray[np.bool_]
) -> FloatArray:
    """Lab a*, b* (N, 2) of each cell's inkiest pixels (NaN where there is no ink)."""
    n = len(gray_cells)
    lab = cv2.cvtColor(colour_cells.reshape(n * 64, 64, 3), cv2.COLOR_BGR2Lab).reshape(n, 64, 64, 3)
    out = np.full((n, 2), np.nan)
    for i in range(n):
        values = gray_cells[i][masks[i]]
        if len(values) < 8:
            continue
        # The inkiest third: stroke edges are mixed with the paper's colour.
        core = masks[i] & (gray_cells[i] <= np.percentile(values, 33))
        ab = lab[i][core][:, 1:].astype(np.float64) - 128.0
        out[i] = np.median(ab, axis=0)
    return out


def _colourful(image: UInt8Array, geometry: GridGeometry) -> bool:
    """Whether the grid's area of a BGR image holds any coloured pixels at all.

    A cheap look before cutting colour cells: gray print on white paper (most photos)
    has no pixel whose channels differ by ``_NEUTRAL`` * 2 or more, beyond sensor noise.
    """
    h, w = image.shape[:2]
    lat = geometry.lattice
    x0, y0 = (max(int(v), 0) for v in lat.reshape(-1, 2).min(axis=0))
    x1, y1 = int(min(lat[..., 0].max(), w)), int(min(lat[..., 1].max(), h))
    step = max(1, (x1 - x0) // 300)
    area = image[y0:y1:step, x0:x1:step].astype(np.int16)
    if area.size == 0:
        return False
    spread = area.max(axis=2) - area.min(axis=2)
    return bool(np.percentile(spread, 99.5) >= 2 * _NEUTRAL)


def _split_two(points: FloatArray) -> npt.NDArray[np.intp] | None:
    """Labels 0/1 of a two-means split of points (N, 2), or None when they are one group."""
    if len(points) < 2:
        return None
    # Start from the two points farthest apart along the main spread.
    centred = points - points.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    proj = centred @ axis
    centres = np.array([points[np.argmin(proj)], points[np.argmax(proj)]])
    labels = np.zeros(len(points), dtype=np.intp)
    for _ in range(10):
        dist = np.linalg.norm(points[:, None, :] - centres[None], axis=2)
        labels = np.argmin(dist, axis=1)
        if labels.min() == labels.max():
            return None
        centres = np.array([points[labels == k].mean(axis=0) for k in (0, 1)])
    if np.linalg.norm(centres[0] - centres[1]) < COLOUR_SPLIT:
        return None
    return labels


def cell_kinds(
    image: npt.ArrayLike,
    geometry: GridGeometry,
    gray_cells: UInt8Array,
    digit: npt.NDArray[np.bool_],
) -> tuple[list[CellKind], list[int]]:
    """The kind of each of the 81 cells.

    Parameters
    ----------
    image : (H, W, 3) or (H, W) uint8 array
        The photo (BGR) the lattice refers to; a gray photo has no colour to tell.
    geometry : GridGeometry
        The grid's lattice in that image.
    gray_cells : (81, 64, 64) uint8 array
        The cells as cut for reading, dark ink on light paper.
    digit : (81,) bool array
        Which cells the digit reader saw a digit in.

    Returns
    -------
    kinds : list of CellKind
        Row by row, in the order of ``gray_cells``.
    undecided : list of int
        Cells whose kind cannot be told: digits in two colours, neither of them plain
        print (empty when every kind is clear).
    """
    kinds = [CellKind.GIVEN if d else CellKind.EMPTY for d in digit]
    idx = np.flatnonzero(digit)
    if len(idx) == 0:
        return kinds, []
    arr = np.asarray(image)
    if arr.ndim != 3 or arr.shape[2] != 3 or not _colourful(arr, geometry):
        return kinds, []
    colour_cells = np.stack([extract_cells(arr[:, :, ch], geometry) for ch in range(3)], axis=-1)
    colours = _ink_colours(colour_cells[idx], gray_cells[idx], _ink_masks(gray_cells[idx]))
    found = np.isfinite(colours[:, 0])
    printed = [int(i) for i in idx[found]]
    colours = colours[found]
    labels = _split_two(colours)
    if labels is None:
        return kinds, []
    chroma = [float(np.linalg.norm(colours[labels == k].mean(axis=0))) for k in (0, 1)]
    given_group = int(np.argmin(chroma))
    others = [int(i) for i, lab in zip(printed, labels, strict=True) if lab != given_group]
    if min(chroma) > _NEUTRAL:
        # Two colours, neither of them plain print: no telling which are the givens.
        return kinds, others
    for cell in others:
        kinds[cell] = CellKind.ENTRY
    return kinds, []
