"""Cell normalisation shared by every engine, and the ink test that finds empty cells.

Cells arrive as (N, 64, 64) uint8 crops, dark ink on light paper, with whatever light
the photo had, bits of grid lines at the borders and possibly a shift of 10-15% of a
cell. Normalising turns each into an *ink map*: 0 = paper, 1 = full-strength ink, with
the light divided out and grid-line remnants erased, so the classifiers see the same
thing under any lighting.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

CELL = 64
NET_SIZE = 32  # side of the CNN input
# The hand reader's inputs (``hand_inputs``): strokes are ink over _HAND_STROKE, scaled
# to a box whose longer side is _HAND_SIDE pixels (MNIST's 20 of 28, a little more).
_HAND_STROKE = 0.35
_HAND_SIDE = 22.0
_HAND_EDGE = 3
_DISC = np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15)), dtype=np.uint8)
_BG_KERNEL = _DISC | _DISC.T  # OpenCV's disc is not quite square-symmetric
# Ink weaker than this share of the grid's digits is noise (paper grain, JPEG, show-through
# from the back of the page), never a faint digit worth a second look.
FAINT_FLOOR = 0.25
# Fewer reference cells than this make no typical stroke to measure others against.
MIN_REFERENCE = 5
# A stroke from a cell's edge at least this long (share of the cell) and this many times
# longer than wide is a grid line's remnant (see _erase_line_remnants); its ink is what
# reaches this share of the cell's darkest.
_REMNANT_LENGTH = 0.45
_REMNANT_THIN = 5.0
_REMNANT_INK = 0.35
_REMNANT_SIDE = 0.3  # ... and lies in the outer 30% of the cell across its direction
# A bent remnant has this share of its ink in that outer band at least (wavy sides and
# the corners of crumpled lines: 0.99-1; a crossed 7 written against the side: 0.78).
_REMNANT_OUTER = 0.9
_REMNANT_GROW = np.ones((3, 3), dtype=np.uint8)
_INNER = slice(12, 52)  # the central part of a cell, where the digit's strokes are
# Grid lines run across the outer bands of a cell, or end in them at the grid's outer
# corners; a digit's stroke there (a cell cut more than ~18% off) is rarely this long.
# Odd, so that the result does not depend on which way the grid is turned.
_H_LINE = np.ones((1, 41), dtype=np.uint8)
_V_LINE = np.ones((41, 1), dtype=np.uint8)
_ACROSS_H = np.ones((5, 1), dtype=np.uint8)
_ACROSS_V = np.ones((1, 5), dtype=np.uint8)
_OUTER_ROWS = np.ones((CELL, 1), dtype=np.float32)
_OUTER_ROWS[20:44] = 0.0  # the middle band, where only digits are
# Cells filtered at once as the channels of one image: OpenCV 5 takes up to 128.
CV_MAX_CHANNELS = 128

FloatArray = npt.NDArray[np.float32]
UInt8Array = npt.NDArray[np.uint8]


def check_cells(cells: npt.ArrayLike) -> UInt8Array:
    """Validate ``cells`` as an (N, 64, 64) uint8 array and return it as such."""
    arr = np.asarray(cells)
    if arr.ndim != 3 or arr.shape[1:] != (CELL, CELL):
        raise ValueError(f"cells must have shape (N, {CELL}, {CELL}), got {arr.shape}")
    if arr.dtype != np.uint8:
        raise ValueError(f"cells must be uint8, got {arr.dtype}")
    return arr


def ink_maps_and_gains(
    cells: npt.ArrayLike, *, remnants: bool = False
) -> tuple[FloatArray, FloatArray]:
    """Light-independent ink maps of cells, and how much fainter than the grid each is:
    the first two arrays of :func:`ink_maps_gains_peaks`."""
    ink, gains, _ = ink_maps_gains_peaks(cells, remnants=remnants)
    return ink, gains


def ink_maps_gains_peaks(
    cells: npt.ArrayLike, *, remnants: bool = False
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Light-independent ink maps of cells, how much fainter than the grid each is, and
    how strong each cell's strokes are.

    Parameters
    ----------
    cells : (N, 64, 64) uint8 array
        Grayscale cells, dark ink on light paper.
    remnants : bool
        Erase long thin strokes running in from a cell's edge: grid lines cut across
        by a lattice a little off (crumpled paper).

    Returns
    -------
    ink : (N, 64, 64) float32 array
        Ink strength in [0, 1]: darkness relative to the local paper, scaled so that
        the strokes of the grid's digits reach about 1; rows and columns where a grid
        line crosses the cell are 0.
    gains : (N,) float32 array
        For each cell, the factor that would scale its own strongest strokes to 1
        (1 for a cell as dark as the grid's digits; more for fainter ink, which
        ``ink`` keeps faint so that noise is never blown up into a digit), counting
        strokes fainter than ``FAINT_FLOOR`` of the grid's as that.
    peaks : (N,) float32 array
        Each cell's strongest strokes (relative darkness): the grid's typical digit
        strokes are their 90th percentile. :func:`against_reference` scales the maps
        against some of the cells instead.
    """
    dark = _darkness(check_cells(cells), remnants=remnants)
    n = len(dark)
    if n == 0:
        return dark, np.ones(0, dtype=np.float32), np.zeros(0, dtype=np.float32)
    peaks = np.percentile(dark[:, _INNER, _INNER].reshape(n, -1), 99.0, axis=1)
    peaks = peaks.astype(np.float32)
    ink, gains = _scaled(dark, peaks, float(np.percentile(peaks, 90.0)))
    return ink, gains, peaks


def _darkness(arr: npt.NDArray[np.uint8], *, remnants: bool) -> FloatArray:
    """Each cell's darkness relative to its paper, its grid lines taken out: (N, 64, 64)
    float32 from cells (N, 64, 64) uint8 (see :func:`ink_maps_gains_peaks`)."""
    n = len(arr)
    dark = np.empty((n, CELL, CELL), dtype=np.float32)
    # The cells as the channels of one image (64, 64, k): OpenCV filters each channel
    # on its own with the same border as a lone cell, so one call per step does what
    # a call per cell did, bit for bit, in three quarters of the time.
    for start in range(0, n, CV_MAX_CHANNELS):
        stack = np.ascontiguousarray(arr[start : start + CV_MAX_CHANNELS].transpose(1, 2, 0))
        k = stack.shape[2]
        img = stack.astype(np.float32) + 1.0
        # A closing wider than any stroke leaves the paper; the blur smooths its blocks.
        # (Closed in 8 bits, which is faster and, min and max commuting with the + 1,
        # the same numbers.) OpenCV drops a single channel's axis: reshaped back.
        closed = cv2.morphologyEx(stack, cv2.MORPH_CLOSE, _BG_KERNEL).reshape(img.shape)
        paper = cv2.GaussianBlur(closed.astype(np.float32) + 1.0, (0, 0), 3).reshape(img.shape)
        np.maximum(paper, img, out=paper)
        d = 1.0 - img / paper
        # Grid lines are long straight strokes near the border: an opening along a long
        # horizontal or vertical kernel keeps just them, and subtracting it erases them
        # (a top-hat), however grey the lines are. Lines lie in the outer bands of a
        # cell even when the lattice is off; a long run through the middle is a digit
        # stroke (a 1) that may even continue into a line or into print beyond the cell.
        # The opening keeps only the part of a slightly tilted line common to all its
        # rows; widening it by two pixels across takes the line's edges too.
        h_lines = cv2.dilate(cv2.morphologyEx(d, cv2.MORPH_OPEN, _H_LINE), _ACROSS_H)
        v_lines = cv2.dilate(cv2.morphologyEx(d, cv2.MORPH_OPEN, _V_LINE), _ACROSS_V)
        lines = np.maximum(
            h_lines.reshape(img.shape) * _OUTER_ROWS[:, :, None],
            v_lines.reshape(img.shape) * _OUTER_ROWS.T[:, :, None],
        )
        dark[start : start + k] = np.maximum(d - lines, 0.0).transpose(2, 0, 1)
    if remnants:
        _erase_line_remnants(dark)
    return dark


def _scales(peaks: FloatArray, grid_peak: float) -> FloatArray:
    """What each cell's relative darkness is divided by to make its ink map.

    Relative darkness still depends on the ink (grey or coloured print, blur): each cell
    is scaled by its own strokes, but never by less than half the grid's typical
    strokes, so the faint noise of an empty cell is not blown up into a digit.
    """
    return np.maximum(np.maximum(peaks, 0.5 * grid_peak), 0.06).astype(np.float32)


def _scaled(dark: FloatArray, peaks: FloatArray, grid_peak: float) -> tuple[FloatArray, FloatArray]:
    """Ink maps and gains (see :func:`ink_maps_gains_peaks`) of relative darkness maps."""
    scale = _scales(peaks, grid_peak)
    ink = np.clip(dark / scale[:, None, None], 0.0, 1.0).astype(np.float32)
    own = np.maximum(np.maximum(peaks, FAINT_FLOOR * grid_peak), 1e-6)
    return ink, (scale / own).astype(np.float32)


def against_reference(
    ink: FloatArray, peaks: FloatArray, reference: npt.NDArray[np.bool_]
) -> tuple[FloatArray, FloatArray] | None:
    """Ink maps and gains measured against the ``reference`` cells' digits.

    ``ink`` and ``peaks`` are from :func:`ink_maps_gains_peaks`, ``reference`` (N,) the
    cells whose typical strokes (90th percentile) should count as the grid's: the print
    of a page written on in pen that is darker than the print (pasted or sharper
    handwriting beside a blurred print would leave the print as faint, even blank).
    None when that changes nothing: fewer than ``MIN_REFERENCE`` reference cells, or theirs are no
    weaker than the grid's. The maps change only where the old scale exceeded the cell's
    own strokes, so nothing was clipped there and the darkness is recovered exactly.
    """
    if int(reference.sum()) < MIN_REFERENCE:
        return None
    grid_peak = float(np.percentile(peaks, 90.0))
    level = float(np.percentile(peaks[reference], 90.0))
    if level >= grid_peak:
        return None
    dark = ink * _scales(peaks, grid_peak)[:, None, None]
    return _scaled(dark, peaks, level)


def _erase_line_remnants(dark: FloatArray) -> None:
    """Erase, in place, strokes that are a grid line's remnant rather than a digit, in
    darkness maps ``dark`` (N, 64, 64).

    A lattice a little off on crumpled paper cuts cells across their wavy or slanted
    lines, which the straight openings above cannot take. Such a remnant is a long thin
    stroke near the cell's side that it runs along, or one running from edge to opposite
    edge; a printed digit, even a 1 in a cell cut 15% off, keeps to the middle and inside
    the cell, and a digit merged with a remnant is no thin stroke.

    A stroke is ink over ``_REMNANT_INK`` of its cell's strongest (a cell under 0.05 has
    none). The cells are stacked one above the other with a blank row between them, so
    that one labelling finds every cell's strokes and none runs into the next cell.
    """
    n = len(dark)
    if n == 0:
        return
    top = dark.reshape(n, -1).max(axis=1)
    # The bar as a lone cell's was: the product in double precision, then compared in
    # single (so the strokes are the same pixels, bit for bit).
    bar = (_REMNANT_INK * top.astype(np.float64)).astype(np.float32)
    ink = (dark > bar[:, None, None]) & (top >= 0.05)[:, None, None]
    edge = CELL // 8
    # A stroke with no pixel in the outer band is clear of the edges: only cells with
    # ink there are labelled.
    band = np.ones((CELL, CELL), dtype=bool)
    band[edge:-edge, edge:-edge] = False
    cells = np.flatnonzero((ink & band).any(axis=(1, 2)))
    if not len(cells):
        return
    rows = CELL + 1
    tall = np.zeros((len(cells), rows, CELL), dtype=np.uint8)
    tall[:, :CELL] = ink[cells]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        tall.reshape(len(cells) * rows, CELL), connectivity=8
    )
    cell_of = stats[1:count, 1] // rows
    low, high = _REMNANT_SIDE * CELL, (1.0 - _REMNANT_SIDE) * CELL
    lefts, widths, heights = stats[1:count, 0], stats[1:count, 2], stats[1:count, 3]
    tops = stats[1:count, 1] - cell_of * rows
    # Too short to be a line's remnant, or clear of the edges: no remnant (a cell holds
    # a dozen strokes, most of them so; the rest are looked at one by one).
    long = np.maximum(widths, heights) >= _REMNANT_LENGTH * CELL
    clear = (lefts >= edge) & (tops >= edge)
    clear &= (lefts + widths <= CELL - edge) & (tops + heights <= CELL - edge)
    labels = labels.reshape(len(cells), rows, CELL)[:, :CELL]
    for k in np.flatnonzero(long & ~clear):
        i = int(cells[cell_of[k]])
        x, y, w, h = int(lefts[k]), int(tops[k]), int(widths[k]), int(heights[k])
        stroke = labels[cell_of[k]] == k + 1
        ys, xs = np.nonzero(stroke)
        pts = np.stack([xs, ys]).astype(np.float64)
        small, big = np.linalg.eigvalsh(np.cov(pts))
        if 4.0 * np.sqrt(big) < _REMNANT_LENGTH * CELL:
            continue  # not a long stroke
        # Along which side: a stroke steeper than 45 degrees runs along the left or right.
        across = pts[0] if h > w else pts[1]
        along_side = not low < float(across.mean()) < high
        # From one edge to the opposite one, it is a line however central: the lattice
        # cut the cell across the (wavy) frame, and no digit spans its cell.
        start, extent = (y, h) if h > w else (x, w)
        through = start < edge and start + extent > CELL - edge
        # Thin: straight, _REMNANT_THIN times longer than wide; or, along a side, bent
        # with no more ink than such a bar (a crumpled page's wavy line spreads sideways;
        # a central one so bent is a written digit's stroke, a 1 with its long flag).
        straight = big >= _REMNANT_THIN**2 * max(small, 0.25)
        # A line's bent remnant lies in the cell's outer band (``_REMNANT_SIDE`` of it
        # from some edge: a wavy side, or the corner where two lines meet) all along; a
        # digit written near the side (a crossed 7 in thin pen against the left line)
        # crosses the inner part with a good share of its ink.
        from_edge = np.minimum(np.minimum(xs, ys), np.minimum(CELL - 1 - xs, CELL - 1 - ys))
        outer = float(np.mean(from_edge < _REMNANT_SIDE * CELL)) >= _REMNANT_OUTER
        bent = along_side and outer and len(xs) * _REMNANT_THIN <= max(w, h) ** 2
        if not (straight or bent):
            continue  # not a thin stroke
        if not (along_side or through):
            continue  # in the middle: a digit's stroke
        dark[i][cv2.dilate(stroke.astype(np.uint8), _REMNANT_GROW) > 0] = 0.0


def ink_maps(cells: npt.ArrayLike) -> FloatArray:
    """Light-independent ink maps (N, 64, 64) of cells (N, 64, 64): see
    :func:`ink_maps_and_gains`."""
    return ink_maps_and_gains(cells)[0]


@dataclass(frozen=True)
class InkBlob:
    """The most digit-like connected stroke of a cell.

    Attributes
    ----------
    height, width : int
        Bounding box size in cell pixels (of a 64 x 64 cell).
    area : int
        Ink pixels.
    cx, cy : float
        Bounding box centre in cell pixels.
    """

    height: int
    width: int
    area: int
    cx: float
    cy: float


def ink_strokes(ink: FloatArray, *, threshold: float = 0.35) -> list[tuple[int, ...]]:
    """The connected strokes of one ink map (64, 64): ``(x, y, w, h, area)`` each.

    The map's outer two pixels are cut first, so that line remnants left at the border
    do not join up.
    """
    binary = (ink > threshold).astype(np.uint8)
    binary[:2] = binary[-2:] = 0
    binary[:, :2] = binary[:, -2:] = 0
    n, _, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    return [tuple(row) for row in stats[1:n].tolist()]


def ink_strokes_of(ink: FloatArray, *, threshold: float = 0.35) -> list[list[tuple[int, ...]]]:
    """:func:`ink_strokes` of each of many ink maps (N, S, S), in one labelling.

    The maps, their outer two pixels cut, are stacked into one tall image: no stroke
    crosses the blank rows between two, and the raster order of each map's strokes is
    its own, so each map's strokes are those of ``ink_strokes``, in the same order.
    """
    n, size = ink.shape[:2]
    binary = (ink > threshold).astype(np.uint8)
    binary[:, :2] = binary[:, -2:] = 0
    binary[:, :, :2] = binary[:, :, -2:] = 0
    count, _, stats, _ = cv2.connectedComponentsWithStats(
        binary.reshape(n * size, -1), connectivity=8
    )
    out: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
    for x, y, w, h, area in stats[1:count].tolist():
        cell, top = divmod(y, size)
        out[cell].append((x, top, w, h, area))
    return out


def main_blob(ink: FloatArray, *, threshold: float = 0.35) -> InkBlob | None:
    """The tallest ink component of one ink map (64, 64) whose centre is not at the border."""
    best: InkBlob | None = None
    for x, y, w, h, area in ink_strokes(ink, threshold=threshold):
        cx, cy = x + w / 2.0, y + h / 2.0
        # Bits of the neighbouring digits sit near the border.
        if not (0.15 * CELL <= cx <= 0.85 * CELL and 0.15 * CELL <= cy <= 0.85 * CELL):
            continue
        # Nothing this long is a digit: a line remnant the line test missed.
        if max(w, h) > 0.85 * CELL:
            continue
        if best is None or h > best.height:
            best = InkBlob(h, w, area, cx, cy)
    return best


def blank(ink: FloatArray) -> npt.NDArray[np.bool_]:
    """Which ink maps (N, 64, 64) are plainly empty: almost no strong ink near the middle.

    On the reference photos the emptiest digit cell has 32 such pixels and 99% of the
    empty cells have under 10; this test only spares the classifier the easy cells.
    """
    middle = ink[:, 10:54, 10:54] > 0.5
    out: npt.NDArray[np.bool_] = middle.sum(axis=(1, 2)) < 8  # also for no cells at all
    return out


def faint_ink(ink: FloatArray, gains: FloatArray) -> npt.NDArray[np.bool_]:
    """Which cells (N,) hold faint ink: not blank, but their strokes under half as strong
    as the grid's digits (a gain over 1; ink maps and gains of :func:`ink_maps_gains_peaks`
    or :func:`against_reference`)."""
    return np.asarray((gains > 1.0) & ~blank(ink))


def has_ink(ink: FloatArray) -> bool:
    """Whether an ink map (64, 64) holds a digit-sized stroke away from the border.

    The empty test of engines without an EMPTY class of their own (Tesseract). On the
    reference photos it misses one digit cell in 4,600 (a lattice a third of a cell
    off, with a grid line through the digit) and flags 2% of the empty ones (shading,
    dirt), which Tesseract then mostly reads as nothing.
    """
    blob = main_blob(ink)
    return blob is not None and blob.height >= 0.14 * CELL and blob.area >= 12


def centred(ink: FloatArray) -> FloatArray:
    """The ink map (64, 64) moved so that its digit's bounding box is centred.

    The lattice can be off by a fair part of a cell on bent pages; centring takes that
    shift off the classifier. Only a blob tall enough to be a digit moves the cell, and by
    at most a quarter of it.
    """
    blob = main_blob(ink)
    if blob is None or blob.height < 0.2 * CELL:
        return ink
    limit = 0.25 * CELL
    dx = float(np.clip(CELL / 2 - blob.cx, -limit, limit))
    dy = float(np.clip(CELL / 2 - blob.cy, -limit, limit))
    m = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float64)
    return np.asarray(cv2.warpAffine(ink, m, (CELL, CELL), flags=cv2.INTER_LINEAR), np.float32)


def net_inputs(ink: FloatArray) -> FloatArray:
    """CNN inputs (N, 1, 32, 32) from ink maps (N, 64, 64): centred, then halved."""
    out = np.empty((len(ink), 1, NET_SIZE, NET_SIZE), dtype=np.float32)
    for i in range(len(ink)):
        out[i, 0] = cv2.resize(centred(ink[i]), (NET_SIZE, NET_SIZE), interpolation=cv2.INTER_AREA)
    return out


def hand_inputs(x: FloatArray) -> FloatArray:
    """Hand reader inputs (N, 1, 32, 32) from CNN inputs (N, 1, 32, 32): size-normalised.

    People write digits of every size; print has one per page. As for MNIST, the ink
    (strokes over ``_HAND_STROKE`` whose centre is not in the outer ``_HAND_EDGE``
    pixels, where neighbours' bits lie) is scaled so that its bounding box's longer side is
    ``_HAND_SIDE`` pixels, centred. An input with no such stroke is passed as it is.
    """
    out = np.array(x, dtype=np.float32, copy=True)
    lo, hi = _HAND_EDGE, NET_SIZE - _HAND_EDGE
    for i in range(len(x)):
        binary = (x[i, 0] > _HAND_STROKE).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
        boxes = [
            (sx, sy, sx + sw, sy + sh)
            for sx, sy, sw, sh, area in stats[1:n]
            if area >= 2 and lo <= sx + sw / 2 <= hi and lo <= sy + sh / 2 <= hi
        ]
        if not boxes:
            continue
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        scale = _HAND_SIDE / max(x1 - x0, y1 - y0)
        half = NET_SIZE / 2
        m = np.array(
            [
                [scale, 0.0, half - scale * (x0 + x1) / 2],
                [0.0, scale, half - scale * (y0 + y1) / 2],
            ],
            dtype=np.float32,
        )
        out[i, 0] = cv2.warpAffine(x[i, 0], m, (NET_SIZE, NET_SIZE), flags=cv2.INTER_LINEAR)
    return out
