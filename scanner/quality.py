"""Why a grid could not be read: one plain hint for the person holding the camera.

When the reader is unsure it names the doubtful cells; this module adds what to do
about it. Each test is a plain measurement with a reason for its limit:

grid cut off
    A cell whose middle (``SEEN_MIDDLE`` of it, where its digit is) reaches outside the
    photo: part of the grid was never seen (``cut_off_cells``).
small grid
    Cells under ``SMALL_CELL_PX`` pixels: print strokes are then 1-2 px wide.
blur
    The edge spread of the strokes, estimated as ink contrast over the steepest
    gradient (for a Gaussian-blurred step, ``contrast / max_gradient = sigma *
    sqrt(2 pi)``). Printed strokes are about a tenth of a cell wide; a blur sigma over
    ``BLUR_CELL_SHARE`` of a cell (40% of a stroke) smears them into each other. (The
    sharpest reference photos measure 0.010, the blurriest 0.037.)
glare / shadow
    Doubtful cells whose paper is blown out to white, or much darker than the grid's
    typical paper.
grid misplaced
    A grid line running through the middle of most cells of a row or column
    (``lines_through``): the lattice took something else for that line.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .geometry import GridGeometry, median_cell
from .robust import row_percentiles

__all__ = [
    "BLUR_CELL_SHARE",
    "SMALL_CELL_PX",
    "cut_off_cells",
    "diagnose",
    "lines_through",
    "washed_out",
]

SMALL_CELL_PX = 20.0
# The middle of a cell that its digit fills (a print's digit is 0.5-0.7 of the cell,
# a person's up to about as much): where any of it lies outside the photo, the digit
# was not seen whole.
SEEN_MIDDLE = 0.7
BLUR_CELL_SHARE = 0.04
_LOST_LINES = 0.35  # grid lines this faint next to the grid's typical ones are washed out
_SHADOW_SHARE = 0.55  # paper under this share of the grid's typical paper is shaded
# A grid line never runs through the middle of a cell (``lines_through``): between these
# shares of its width from the lattice's lines, ...
_ASTRAY_SPAN = (0.2, 0.8)
_ASTRAY_RIDGE = 15.0  # ... a line this much darker (grey levels) than the paper beside it
# ... in this many cells of one row or column at one place. A column holds each digit
# once, so at most three long upright strokes (1, 4, 7), and not at one place in each
# cell; on 684 photos and rendered pages read, no row or column had more than two.
_ASTRAY_CELLS = 6

UInt8Array = npt.NDArray[np.uint8]


def _edge_spread(cells: UInt8Array) -> npt.NDArray[np.float64]:
    """Per cell (N,): the blur sigma of its strokes, in cell widths (NaN without ink)."""
    f = cells.astype(np.float64)
    gy, gx = np.gradient(f, axis=(1, 2))
    grad = np.hypot(gx, gy)[:, 8:-8, 8:-8]  # the middle, away from the grid lines
    flat = f[:, 8:-8, 8:-8].reshape(len(f), -1)
    contrast = np.percentile(flat, 95, axis=1) - np.percentile(flat, 2, axis=1)
    steepest = np.percentile(grad.reshape(len(f), -1), 99.5, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma = contrast / (steepest * np.sqrt(2 * np.pi)) / cells.shape[-1]
    sigma[contrast < 40] = np.nan  # an empty cell has no edge to measure
    return np.asarray(sigma, dtype=np.float64)


def cut_off_cells(geometry: GridGeometry) -> npt.NDArray[np.bool_]:
    """Which cells (81,) the photo did not hold whole: a corner of the cell's middle
    (``SEEN_MIDDLE`` of it about its centre) lies outside the image.

    What the reader sees there is the photo's edge repeated: a digit cut off reads as
    empty or as another digit, and a puzzle without a given may still have one solution.

    Parameters
    ----------
    geometry : GridGeometry
        The grid's lattice in the image it was found in (cells row by row, as cut).
    """
    w, h = geometry.image_size
    lat = np.asarray(geometry.lattice, dtype=np.float64)
    corners = np.stack([lat[:-1, :-1], lat[:-1, 1:], lat[1:, 1:], lat[1:, :-1]], axis=2)
    centres = corners.mean(axis=2, keepdims=True)
    middle = centres + SEEN_MIDDLE * (corners - centres)  # (9, 9, 4, 2)
    x, y = middle[..., 0], middle[..., 1]
    out = ((x < 0) | (y < 0) | (x > w - 1) | (y > h - 1)).any(axis=2)
    return np.asarray(out.ravel(), dtype=bool)


def lines_through(cells: UInt8Array) -> npt.NDArray[np.bool_]:
    """Which cells (81,) a grid line runs through: every cell of a column (row) where
    in ``_ASTRAY_CELLS`` of its nine cells a line runs from top to bottom (side to
    side) at one place in their middle (``_ASTRAY_SPAN``).

    The cells span the lattice's lines, so the grid's own lines lie at their borders. A
    line through their middle is one the lattice missed: it took something else for it
    (screen-photo 3392: the phone's dark edge beside the app's thin right frame, so the
    last columns came out a third of a cell wide of theirs, and the phone's edge in the
    cell of a blue entry made it read as print).

    Parameters
    ----------
    cells : (81, S, S) uint8 array
        The grid's cells as cut (row by row), dark ink on light paper.
    """
    s = cells.shape[1]
    # Every other row of the cells' middle: a line runs on through all of them.
    rows = slice(s // 10, s - s // 10, 2)
    lo, hi = (int(share * s) for share in _ASTRAY_SPAN)
    step = max(1, s // 20)  # beside a line: a twentieth of a cell either way
    grey = cells.astype(np.int16)
    out = np.zeros((9, 9), dtype=bool)
    for across in (False, True):
        upright = grey[:, rows, :] if not across else grey.transpose(0, 2, 1)[:, rows, :]
        # A line's pixel is darker than the paper a little way to either side of it ...
        beside = np.minimum(np.roll(upright, step, axis=2), np.roll(upright, -step, axis=2))
        dark = beside - upright > _ASTRAY_RIDGE
        # ... give or take a pixel (the line need not be upright in the cell as cut) ...
        near = dark.copy()
        near[..., 1:] |= dark[..., :-1]
        near[..., :-1] |= dark[..., 1:]
        # ... in three rows of four all along the cell: a digit's stroke is not that long.
        line = (near.sum(axis=1) >= 0.75 * near.shape[1]).reshape(9, 9, s)
        # At each place, the cells of a column (upright lines) or of a row (across).
        count = line[..., lo:hi].sum(axis=1 if across else 0)  # (9 rows or columns, places)
        astray = count.max(axis=1) >= _ASTRAY_CELLS
        if across:
            out[astray, :] = True
        else:
            out[:, astray] = True
    return out.ravel()


def washed_out(cells: UInt8Array) -> npt.NDArray[np.bool_]:
    """Which cells (N,) lie in glare: washed out towards white, lines and all.

    A reflection drives the sensor to its ceiling and wipes the ink out with it, so
    what the digit reader sees there (often "empty") is no reading at all. A cell counts
    when the grid lines at its border, which every cell has, have lost most of their
    contrast (under ``_LOST_LINES`` of the typical of the grid's faintest lines) while
    its paper is brighter than the grid's typical paper. White paper in a box left
    untinted keeps its lines; a shadow fades lines too, but darkens the paper.

    Parameters
    ----------
    cells : (N, S, S) uint8 array
        The grid's cells, dark ink on light paper.
    """
    n = len(cells)
    bright, middle = row_percentiles(cells.reshape(n, -1), (90, 50))
    typical = float(np.median(bright))
    band = np.ones(cells.shape[1:], dtype=bool)
    edge = max(1, cells.shape[-1] // 8)
    band[edge:-edge, edge:-edge] = False
    top, bottom = row_percentiles(cells[:, band], (95, 3))
    lines = top - bottom
    # The typical of the faintest lines: a cell's place in its box decides which of its
    # borders can be bold (a box's middle cell touches neither box lines nor the frame),
    # so each of the nine places has its typical, and the faintest place's is the yard-
    # stick. Glare covers a patch: a few of the nine cells of any one place.
    place = np.arange(n) // 9 % 3 * 3 + np.arange(n) % 3 if n == 81 else np.zeros(n, int)
    faintest = min(float(np.median(lines[place == k])) for k in set(place.tolist()))
    faded = lines < _LOST_LINES * faintest
    return np.asarray((middle > typical) & faded)


def diagnose(
    geometry: GridGeometry,
    cells: UInt8Array,
    doubtful_cells: list[int],
    *,
    washed: npt.NDArray[np.bool_] | None = None,
) -> str:
    """A plain hint on why a grid's digits could not be read, or ``""`` for none.

    Parameters
    ----------
    geometry : GridGeometry
        The grid's lattice in the image it was found in.
    cells : (81, S, S) uint8 array
        The grid's cells as cut for reading, gray, dark ink on light paper.
    doubtful_cells : list of int
        The cells the reader is unsure of (0..80).
    washed : (81,) bool array, optional, keyword-only
        :func:`washed_out` of ``cells``, when the caller has it already.

    Returns
    -------
    str
        One sentence, e.g. ``"the photo is blurred: hold the phone still and let it
        focus"``.
    """
    cell = median_cell(np.asarray(geometry.lattice, dtype=np.float64))
    if cut_off_cells(geometry).any():
        return "the grid is cut off: take the photo again with the whole grid in view"
    if cell < SMALL_CELL_PX:
        return (
            f"the grid is small in the photo ({cell:.0f} px a cell): move closer or use a "
            "higher resolution"
        )
    spread = _edge_spread(cells)
    if np.isfinite(spread).any() and float(np.nanmedian(spread)) > BLUR_CELL_SHARE:
        return "the photo is blurred: hold the phone still and let it focus"
    if doubtful_cells:
        washed = washed_out(cells) if washed is None else washed
        if np.mean(washed[doubtful_cells]) >= 0.5:
            return "glare washes out part of the grid: tilt the page or move away from the light"
        paper = np.percentile(cells.reshape(len(cells), -1), 90, axis=1)
        if np.mean(paper[doubtful_cells] < _SHADOW_SHARE * float(np.median(paper))) >= 0.5:
            return "a shadow darkens part of the grid: take the photo in even light"
    return "check the doubtful cells, or take a sharper photo straight on in even light"


def advice_beyond(problem: str, hint: str) -> str:
    """The hint (``cause: advice``, from :func:`diagnose`) without its cause where the
    problem says it already: "the grid is cut off: 9 cells not in the photo" needs only
    "take the photo again with the whole grid in view" after it, not the cause twice."""
    cause, colon, advice = hint.partition(": ")
    return advice if colon and cause and cause in problem else hint
