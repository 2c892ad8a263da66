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
    (``lines_through``): the lattice took something else for that line; or through one
    cell the reader doubts (``line_lengths``), where a crumpled page bent the lines off
    the lattice's smooth curve.
box lines off
    Bold box lines where the lattice has thin ones (``box_lines_off``): the lattice lies
    a cell off the grid, and every digit was cut from its neighbour's cell.
grid covered
    A finger or a pen over the grid (``covered_cells``): a dark patch wider than any
    stroke, reaching in from the grid's edge, under which the grid lines do not go on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from .geometry import GridGeometry, median_cell
from .locate import lattice_at, odd_kernel
from .robust import row_percentiles

__all__ = [
    "BENT_CAUSE",
    "BLUR_CELL_SHARE",
    "BOX_LINES_CAUSE",
    "COVERED_CAUSE",
    "SMALL_CELL_PX",
    "box_lines_off",
    "box_lines_shift",
    "covered_cells",
    "crossed_cells",
    "cut_off_cells",
    "diagnose",
    "folded_cells",
    "frame_lines_hold",
    "frame_missed",
    "glare_faded",
    "line_lengths",
    "lines_through",
    "washed_out",
]

SMALL_CELL_PX = 20.0
# What is wrong where something lies over the grid (the problem and the hint begin so).
COVERED_CAUSE = "something covers part of the grid"
# ... and where a crumpled or curled page bends the grid's lines away from its cells.
BENT_CAUSE = "the page bends the grid's lines off its cells"
# Why a lattice is refused whose box lines are not the grid's bold ones (the hint's cause).
BOX_LINES_CAUSE = "the grid's bold lines lie a cell off the lines found"
# The middle of a cell that its digit fills (a print's digit is 0.5-0.7 of the cell,
# a person's up to about as much): where any of it lies outside the photo, the digit
# was not seen whole.
SEEN_MIDDLE = 0.7
BLUR_CELL_SHARE = 0.04
_LOST_LINES = 0.35  # grid lines this faint next to the grid's typical ones are washed out
# In glare's halo the lines have faded less (under this share of the faintest typical) ...
_HALO_LINES = 0.7
# ... and ink darker than the cell's paper by this share of its own lines' contrast is a
# digit faded with them (empty cells there: 99% under 0.13; see ``glare_faded``).
_HALO_INK = 0.15
_SHADOW_SHARE = 0.55  # paper under this share of the grid's typical paper is shaded
# A grid line never runs through the middle of a cell (``lines_through``): between these
# shares of its width from the lattice's lines, ...
_ASTRAY_SPAN = (0.2, 0.8)
_ASTRAY_RIDGE = 15.0  # ... a line this much darker (grey levels) than the paper beside it
# ... in this many cells of one row or column at one place. A column holds each digit
# once, so at most three long upright strokes (1, 4, 7), and not at one place in each
# cell; on 684 photos and rendered pages read, no row or column had more than two.
_ASTRAY_CELLS = 6
# A line through one cell (``line_lengths``) runs on through this share of its length
# or more, wavering a pixel a row at most, as dark against the paper beside it as
# _RIDGE_SHARE of the cells' typical contrast (their 90th brightness percentile less
# their 1st, where the lattice's own lines lie). A digit's strokes stand 0.5-0.7 of a
# cell and bend; a halftone's dots or a screen's moire make paths of faint ink. On 285
# stress pages read right (seeds 5010-5019, every style) no cell read in doubt
# measured over 0.76 (a screen photo's moire), on Wicht's 319 photos and mixed photos
# 0.41; the lattice half a cell off a crumpled page's bent lines (crumpled 5337) 0.95.
_CROSSED_LENGTH = 0.85
_RIDGE_SHARE = 0.3
# A grid line runs alone: a row of pixels across it meets at most this many ridges at
# the median (the line, a digit's stroke beside it); across a screen's moire, whose
# parallel stripes lie every few pixels, four or five (stress screen-photo 2917).
_LINE_ALONE = 2
# The grid's frame (``frame_missed``) lies within this share of a cell of the lattice's
# outer line (a crumpled page's frame waves up to about 0.15 off the lattice's smooth
# curve between crossings); a frame the lattice left lies farther out, up to
# ``_FRAME_BEYOND``: a whole cell, so that a lattice a column off, its outer line on a
# faint inner one, sees the frame beyond it (stress frame-only 5483: a blurred page
# whose thin grey lines the blur took, read a column to the left with every cell but
# one sure; since 2026-12-01, before it 0.75). On Wicht's 319 photos and 310 stress
# pages of every style (seeds 5050-5059) the one cell named that 0.75 did not name
# lies on a page refused already (handheld 5055).
_FRAME_REACH = 0.25
_FRAME_BEYOND = 1.0
# Where along an outer edge (shares of it from a crossing) the frame is looked for:
# beside the crossing, clear of the crossing line's ink.
_FRAME_ENDS = (0.12, 0.32)
# An edge's end is off the frame where the frame stands out under ``_FRAME_NEAR`` of its
# median strength (over the 72 ends) within reach, while a line at least ``_FRAME_FAR``
# as strong lies beyond. On 336 stress pages read right (seeds 5050-5061, every legible
# style), of the ends with such a line beyond, none measured under 0.63 of the median
# within reach; a lattice half a cell off the frame (newsprint-crinkled 5065), 0.06; a
# corner pulled in a third of a cell over empty paper (crumpled-12mp 5093), 0.13, which
# ``_ink_cut_off`` lets stand. A frame in deep shade is weak within reach but has no
# line beyond it. Where the line beyond stands out more than the median (up to
# _FRAME_STRONG times it), the frame within reach is measured against that line: a
# crinkled newsprint's ringing weakens its frame's median (newsprint-crinkled 5391: a
# median of 108, the frame beyond a corner pulled in 171, 35 within reach); a phone's
# bezel beyond an app's frame stands out five to eight times the frame's median, which
# the cap leaves out. (On 339 stress pages of every style, seeds 5380-5389 and to 5409
# for the crinkled, crumpled and curled, no end but 5391's was off so and not before.)
_FRAME_NEAR = 0.25
_FRAME_FAR = 0.5
_FRAME_STRONG = 2.0
# Ink between an edge pulled in and the frame beyond it is a digit's the cell lost
# unless it lies within this share of a cell of the frame's darkest point (its width).
_FRAME_CLEAR = 0.15
# Where the frame's median stands out less than this (grey levels), there is no frame
# to go by (an app's grid drawn without one).
_FRAME_SEEN = 20.0
# A lattice's edge under this share of the next one along its line is a fold of the
# lattice (``folded_cells``): on 186 stress pages of the crumpled, crinkled, curled,
# perspective and small-grid styles (seeds 6200-6259) the least share read right was
# 0.44 (newsprint-crinkled 6258); crumpled 6364's lattice slid a frame crossing along
# the frame to a box line beside it, 0.21, and its squeezed cell's printed 8 read empty.
_FOLD_SHARE = 1.0 / 3.0
# Something over the grid (``covered_cells``): a patch darker than this share of the
# paper around it (its cells' brightest tenth, the median of 5 x 5 cells: light falls off
# across a page smoothly, a fingertip covers a cell or four) ...
_COVER_DARK = 0.8
# ... or, in a colour photo, of a colour this far (Lab a*b*) from the paper's (its
# brightest pixels' median over the grid): a light fingertip over a page in shade is no
# darker than the shaded paper beside it, but skin is orange (a* 10-20, b* 15-25) and
# paper neutral or cream (stress finger 4281: skin 21 off a shaded page's paper at
# 0.85-0.95 of its brightness, read as another puzzle). A tinted box or an app's
# highlight is coloured too, but keeps its lines ...
_COVER_HUE = 12.0
# ... this wide (a share of a cell: a finger or a pen is one to two cells across; a
# crease's or a curl's shadow, a bold stroke, a third at most) ...
_COVER_WIDTH = 0.6
# ... reaching in from the grid's edge (nothing else on a page does: a finger or a pen
# comes from outside the photo; tinted boxes and shadows lie inside or keep their lines),
# under whose inside (its rim of _COVER_RIM of a cell taken off, where its edge and its
# shadow draw strokes of their own) the grid's cell borders show strokes at under this
# share of the rate the same lines show outside any patch. A stroke is darker
# than the paper a third of a cell around by _COVER_STROKE of the grid's typical line,
# or by _COVER_STROKE_MIN levels on a grid of faint lines.
_COVER_LINES = 0.3
_COVER_RIM = 0.15
_COVER_STROKE = 0.3
_COVER_STROKE_MIN = 8.0
# A stroke in shade is measured against the paper beside it, its depth scaled up by at
# most this (a shade that keeps a line at half its contrast; deeper, a dark finger's
# noise would be blown up into lines): crinkled newsprint's shaded bands reach in from
# the grid's edge as a finger does, and faint dotted lines fade in them below the
# threshold (stress newsprint-crinkled 5451, four cells "covered"). On 500 stress pages
# of fingers and shaded pages (seeds 5000-5099) no other reading changed.
_COVER_SHADE = 2.0
# A patch is looked at when its inside holds at least two cell borders' worth of border
# pixels or its lines would show a cell's worth of strokes there (since 2026-12-01: a
# pen's tip 0.6 of a cell in over bold lines, stress finger 5484, 62 border pixels, 60
# strokes expected, none seen; the pen was read as the player's blue 3), and where
# patches cover under this share of the grid (beyond it the grid's paper itself is what
# the paper level missed); a cell is covered when a tenth of its middle (where its digit
# is) lies under a covering patch.
_COVER_MAX_SHARE = 0.4
_COVER_MIDDLE = 0.1
# A finger or a pen reaching in from the grid's edge hides the grid's frame where it
# crosses it; a shade that falls over the edge darkens the bold frame but keeps it. A
# patch whose inside holds half a cell's worth of frame pixels or more, and shows
# strokes on them at this share or more of the frame's rate outside any patch, is no
# cover (stress newsprint-crinkled 5859 and 5872, fresh pages: a shaded band over the
# edge where the dotted lines faded, "2 cells hidden" and "1 cell hidden"; their frames
# showed at 0.40 and 0.32 of their rate outside; on 30 pages of stress's finger style,
# 53 covering patches, the frame under each at most 0.11).
_COVER_FRAME = 0.2
# A patch whose edges inside the grid lie within this share of a cell of a line, this
# share of them or more, ends along the grid's lines: a tinted box, no finger.
_ALONG_LINE = 0.125
_ALONG_SHARE = 0.8
# A grid's box lines (its 0, 3, 6 and 9) are its boldest where any are bold: the lines
# every third from another one half again as dark (``box_lines_off``; more than
# _OFF_LINES grey levels against the paper beside them) mean the lattice is a cell off.
# Measured (2026-12-02): on the lattices read on the 160 reference photos the other
# lines stood at most 0.90 times as dark as the box lines (median 0.64); on the true
# lattices of 620 rendered pages (31 stress styles, 20 seeds) at most 0.54 where the
# box lines are bold, 1.19 where the grid has none (all its lines alike); moved a cell,
# the lattices of grids with bold box lines measured 1.53 to 9.8. Where only the frame
# is bold (``_box_shift``), the same factor over the lines inside and the outer line
# beside: on the true lattices of 186 rendered pages (31 styles, 6 seeds, ink as the
# reader sees it) a line 1 or 8 stood at most 1.01 times over them (no-box-lines, all
# lines alike); moved a cell, frame-only grids' frame lines 8.4 to 20.9.
_OFF_BOX_LINES = 1.5
_OFF_LINES = 10.0
# Where a line's ink is gathered across it (cells): a box line is bolder, not darker
# (both black in print), and a lattice on a crinkled page may lie a pixel or two off.
_LINE_ACROSS = np.linspace(-0.12, 0.12, 9)
_PAPER_ACROSS = 0.3  # and the paper beside it, on either side
# A lattice moved onto the bold lines holds the grid where its outer lines weigh half
# its box lines' median or more (``frame_lines_hold``): a frame is a box line.
_FRAME_SHARE = 0.5

UInt8Array = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]


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


def folded_cells(geometry: GridGeometry) -> npt.NDArray[np.bool_]:
    """Which cells (81,) lie beside a fold of the lattice: along one of its lines, an
    edge under ``_FOLD_SHARE`` of the edge next to it, both edges' cells named.

    Printed cells are equal, and a page's perspective, curl or crumple changes their
    size smoothly from one to the next; a cell a third as wide as the one beside it was
    cut where the lattice lost the lines, its neighbour's digit shared between the two.

    Parameters
    ----------
    geometry : GridGeometry
        The grid's lattice in the image it was found in (cells row by row, as cut).
    """
    lat = np.asarray(geometry.lattice, dtype=np.float64)
    across = np.linalg.norm(np.diff(lat, axis=1), axis=2)  # (10, 9): line i's edge j
    down = np.linalg.norm(np.diff(lat, axis=0), axis=2).T  # (10, 9): line j's edge i
    out = np.zeros((9, 9), dtype=bool)
    for edges, on_rows in ((across, True), (down, False)):
        shorter = np.minimum(edges[:, 1:], edges[:, :-1])
        with np.errstate(divide="ignore", invalid="ignore"):
            folds = shorter < _FOLD_SHARE * np.maximum(edges[:, 1:], edges[:, :-1])
        for line, first in zip(*np.nonzero(folds), strict=True):
            # Edge k of line i bounds the cells k of the rows (or columns) i-1 and i.
            for k in (first, first + 1):
                for side in (line - 1, line):
                    if 0 <= side <= 8:
                        out[(side, k) if on_rows else (k, side)] = True
    return out.ravel()


def _ridges(
    rows: npt.NDArray[np.int16], ridge: float, places: slice = slice(None)
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The ridge pixels at ``places`` of rows of pixels (N, R, S) across a line's way,
    and the same give or take a pixel.

    A line's pixel is darker by more than ``ridge`` than the paper a twentieth of a
    cell (``S // 20`` pixels) to either side of it; give or take a pixel, as the line
    need not run straight along the cell as cut.
    """
    step = max(1, rows.shape[2] // 20)
    beside = np.minimum(np.roll(rows, step, axis=2), np.roll(rows, -step, axis=2))
    dark = (beside - rows > ridge)[..., places]
    near = dark.copy()
    near[..., 1:] |= dark[..., :-1]
    near[..., :-1] |= dark[..., 1:]
    return dark, near


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
    grey = cells.astype(np.int16)
    out = np.zeros((9, 9), dtype=bool)
    for across in (False, True):
        upright = grey[:, rows, :] if not across else grey.transpose(0, 2, 1)[:, rows, :]
        _, near = _ridges(upright, _ASTRAY_RIDGE)
        # A ridge in three rows of four all along the cell: a digit's stroke is not
        # that long.
        line = (near.sum(axis=1) >= 0.75 * near.shape[1]).reshape(9, 9, s)
        # At each place, the cells of a column (upright lines) or of a row (across).
        count = line[..., lo:hi].sum(axis=1 if across else 0)  # (9 rows or columns, places)
        astray = count.max(axis=1) >= _ASTRAY_CELLS
        if across:
            out[astray, :] = True
        else:
            out[:, astray] = True
    return out.ravel()


def line_lengths(cells: UInt8Array, among: npt.NDArray[np.bool_] | None = None) -> FloatArray:
    """How long a line (N,) runs through the middle of each cell, a share of its length.

    The longest path of dark ridge pixels (darker than the paper a twentieth of a cell
    to either side, by ``_RIDGE_SHARE`` of the cells' typical contrast or
    ``_ASTRAY_RIDGE`` levels) from one side of the cell to the other, moving a pixel
    at most from one row of pixels to the next, within ``_ASTRAY_SPAN`` of its width
    (upright or across, whichever is longer), where the median row of pixels across
    that way meets ``_LINE_ALONE`` ridges at most (0 elsewhere: a screen's moire).
    Where a line runs through most of a cell (``_CROSSED_LENGTH``), the lattice left
    the grid's lines there: a crumpled
    page bends them off its smooth curve, in a cell or two that no whole row or column
    shows (:func:`lines_through`; stress crumpled 5337: the lattice half a cell above
    the lines by the frame, a printed 5 cut in two read 6 at 0.51, and revision wrote
    the 4 the cut 1 below it was likeliest into, for a puzzle with one solution).

    Parameters
    ----------
    cells : (81, S, S) uint8 array
        The grid's cells as cut (row by row), dark ink on light paper.
    among : (81,) bool array, optional
        Only these cells are measured (N of them; all 81 by default). The contrast is
        the whole grid's.
    """
    dim, bright = row_percentiles(cells.reshape(len(cells), -1), (1, 90))
    ridge = max(_ASTRAY_RIDGE, _RIDGE_SHARE * float(np.median(bright - dim)))
    if among is not None:
        cells = cells[among]
    n, s = cells.shape[:2]
    if n == 0:
        return np.zeros(0)
    lo, hi = (int(share * s) for share in _ASTRAY_SPAN)
    grey = cells.astype(np.int16)
    ridges, met = [], []
    for across in (False, True):
        # Rows of pixels along the line's way, a twentieth of the cell off each end.
        rows = (grey.transpose(0, 2, 1) if across else grey)[:, s // 20 : s - s // 20]
        dark, near = _ridges(rows, ridge, slice(lo, hi))
        ridges.append(near)
        # How many ridges a row of pixels meets (the median row's).
        met.append(np.median((dark[..., 1:] & ~dark[..., :-1]).sum(axis=2) + dark[..., 0], axis=1))
    ridge_rows = np.concatenate(ridges).astype(np.float32)  # (2n, rows, places)
    # run[k, x]: the most ridge rows on a path ending at place x of this row, the path
    # moving a place at most from row to row (a max over three places: a dilation).
    run = ridge_rows[:, 0]
    step_wide = np.ones((1, 3), dtype=np.uint8)
    for row in range(1, ridge_rows.shape[1]):
        run = cv2.dilate(run, step_wide) + ridge_rows[:, row]
    longest = run.max(axis=1) / ridge_rows.shape[1]
    longest[np.concatenate(met) > _LINE_ALONE] = 0.0
    return longest.reshape(2, n).max(axis=0)


def crossed_cells(cells: UInt8Array, among: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Which cells (81,) of ``among`` a line runs through most of (``_CROSSED_LENGTH``
    of :func:`line_lengths`). The caller asks of the cells it reads in doubt: a digit
    read surely was seen whole wherever the lattice lies (Wicht's image1087: the
    lattice pulled out to a newspaper's column rule beside r5c1, whose 7 it holds)."""
    out = np.zeros(len(cells), dtype=bool)
    out[among] = line_lengths(cells, among) >= _CROSSED_LENGTH
    return out


def frame_missed(ink: UInt8Array, geometry: GridGeometry) -> npt.NDArray[np.bool_]:
    """Which cells (81,) beside a crossing of the lattice's outer line pulled in off the
    grid's frame lost ink to the frame's side.

    Each outer edge is looked across near each of its ends (at five places between
    ``_FRAME_ENDS`` of the way from the crossing, clear of the crossing line), from
    ``_FRAME_REACH`` of a cell inside to ``_FRAME_BEYOND`` outside (a cell being the
    side's typical one: a crossing pulled in shortens the cells beside it): how far the
    darkest point within reach of the lattice's line, and the darkest beyond it, lie
    below the brightest (medians over the places). A grid's frame is dark all round:
    where nothing stands out within reach while a line does beyond, and the frame's
    median stands out well, the frame lies beyond the lattice. A crossing whose every
    end on that side is so was pulled in off the frame, and a cell beside it with ink
    between its edge and the frame (``_ink_cut_off``) was cut off part of a digit
    (stress newsprint-crinkled 5065: the lattice followed a crumpled corner half a cell
    in, the printed 5 of r9c1 left below its bottom line, read "empty", and the puzzle
    without it has the page's one solution). Between crossings a crinkled page's frame
    may bulge out of reach (newsprint-crinkled 5078, a third of a cell) where the
    lattice's straight edge still holds the cells; a corner pulled in a third of a cell
    over empty paper (crumpled-12mp 5093) loses nothing. Ends whose look across runs
    off the photo are not judged (the frame may lie beyond its edge).

    Parameters
    ----------
    ink : (H, W) uint8 array
        The photo the lattice refers to, gray, dark ink on light paper.
    geometry : GridGeometry
        The grid's lattice in that image.
    """
    lat = np.asarray(geometry.lattice, dtype=np.float64)
    near_start = np.linspace(_FRAME_ENDS[0], _FRAME_ENDS[1], 5)
    along = np.concatenate([near_start, 1.0 - near_start])  # (10,): the start's, the end's
    outward = _frame_places(-_FRAME_REACH)
    near, far = outward <= _FRAME_REACH, outward > _FRAME_REACH
    # Per side: the outer line's crossings (start, end of each edge) and the next line
    # in, whose offset from the outer one is "one cell inward" at each place.
    sides = (
        (lat[0, :-1], lat[0, 1:], lat[1, :-1], lat[1, 1:]),  # top
        (lat[9, :-1], lat[9, 1:], lat[8, :-1], lat[8, 1:]),  # bottom
        (lat[:-1, 0], lat[1:, 0], lat[:-1, 1], lat[1:, 1]),  # left
        (lat[:-1, 9], lat[1:, 9], lat[:-1, 8], lat[1:, 8]),  # right
    )
    # (side, edge, end): the frame's strength within reach and beyond (NaN: off the photo)
    within = np.full((4, 9, 2), np.nan)
    beyond = np.full((4, 9, 2), np.nan)
    cells = np.zeros(4)  # each side's typical cell, in pixels
    for k, (start, end, inner_start, inner_end) in enumerate(sides):
        # One cell inward, its length the side's typical one: a crossing pulled in
        # shortens the cells beside it, and the look would fall short of the frame.
        inward = inner_start - start + 0.5 * (inner_end - end - inner_start + start)
        cells[k] = float(np.median(np.linalg.norm(inward, axis=-1)))
        values, on_photo = _look_across(ink, sides[k], along, outward, cells[k])
        values = values.reshape(9, 2, len(near_start), len(outward))
        off = ~on_photo.reshape(9, 2, -1).all(axis=2)
        paper = values.max(axis=3)
        within[k] = np.median(paper - values[..., near].min(axis=3), axis=2)
        beyond[k] = np.median(paper - values[..., far].min(axis=3), axis=2)
        within[k][off] = beyond[k][off] = np.nan
    out = np.zeros((9, 9), dtype=bool)
    if np.isnan(within).all():
        return out.ravel()
    frame = float(np.nanmedian(within))
    if frame < _FRAME_SEEN:
        return out.ravel()
    with np.errstate(invalid="ignore"):
        near_line = np.clip(beyond, frame, _FRAME_STRONG * frame)
        left = (within < _FRAME_NEAR * near_line) & (beyond >= _FRAME_FAR * frame)
    judged = ~np.isnan(within)
    for k in range(4):
        for crossing in range(10):
            # The ends at this crossing: edge crossing-1's far end, edge crossing's start.
            ends = [(e, j) for e, j in ((crossing - 1, 1), (crossing, 0)) if 0 <= e <= 8]
            ends = [(e, j) for e, j in ends if judged[k, e, j]]
            if not ends or not all(left[k, e, j] for e, j in ends):
                continue
            for e, _ in ends:
                if _ink_cut_off(ink, [side[e] for side in sides[k]], cells[k], frame):
                    row, col = {0: (0, e), 1: (8, e), 2: (e, 0), 3: (e, 8)}[k]
                    out[row, col] = True
    return out.ravel()


def box_lines_off(ink: UInt8Array, geometry: GridGeometry) -> bool:
    """Whether the grid's bold lines lie off the lattice's box lines (its 0, 3, 6, 9):
    :func:`box_lines_shift` is not ``(0, 0)``."""
    return box_lines_shift(ink, geometry) != (0, 0)


def box_lines_shift(ink: UInt8Array, geometry: GridGeometry) -> tuple[int, int]:
    """The whole cells (rows, columns: -1, 0 or 1 each) to move the lattice by so that
    the grid's bold lines lie on its box lines (its 0, 3, 6, 9); ``(0, 0)`` where they
    do, or where the grid has no bold lines.

    Each of the lattice's lines (both ways) is looked along, between its crossings:
    its weight is the median over places of its ink across it (within ``_LINE_ACROSS``:
    the mean of how far each point lies below the paper beside it, the lighter side
    ``_PAPER_ACROSS`` of a cell away), which grows with a line's width. Where the
    lines every third from line 1 or from line 2 stand out over the lattice's box
    lines (``_OFF_BOX_LINES``), the lattice is a cell off the grid (stress
    newsprint-crinkled 5533: moved a column into the text beside the grid, every digit
    read a column over, nearly all surely): moved by 1 (its line 1 becomes line 0) or
    by -1 (its line 8 becomes line 9) the bold lines are its box lines. A grid whose
    only bold lines are its frame is judged by its frame (``_box_shift``). ``ink`` and
    ``geometry`` are as for :func:`frame_missed`. (The locator weighs the box lines
    too, on its reduced copy while it fits, ``_BOX_SHIFT``: this looks again at the
    lattice as read, in the photo read.)
    """
    rows, cols = _line_weights(ink, geometry)
    return _box_shift(rows), _box_shift(cols)


def frame_lines_hold(ink: UInt8Array, geometry: GridGeometry) -> bool:
    """Whether the lattice's outer lines (0 and 9, both ways) lie on lines at least
    ``_FRAME_SHARE`` as heavy as its box lines' median: a lattice moved onto the bold
    lines (:func:`box_lines_shift`) is on the grid only where its frame is there too.
    Each line is measured here against the darker side beside it: a page's edge over
    a dark table is no line (a lattice three cells off, on a test's page)."""
    for weights in _line_weights(ink, geometry, paper_side=np.min):
        box = float(np.median(weights[::3]))
        if min(weights[0], weights[9]) < _FRAME_SHARE * box:
            return False
    return True


def _box_shift(weights: FloatArray) -> int:
    """:func:`box_lines_shift` one way, from its lines' weights (10,).

    Where no lines every third stand out, a grid whose only bold lines are its frame
    may still show the lattice a cell off: its line 1 (or 8) stands out over the lines
    inside it and over its own outer line beside it, the one it should be (stress
    frame-only 5838: a lattice a column into the text beside a frame-only grid, its
    line 8 weighing 99 against 18.5 for its line 9 and 4.8 for the thin lines inside).
    """
    thirds = [float(np.median(weights[k::3])) for k in range(3)]
    k = 1 if thirds[1] >= thirds[2] else 2
    if thirds[k] > _OFF_LINES and thirds[k] > _OFF_BOX_LINES * thirds[0]:  # (weights >= 0)
        return 1 if k == 1 else -1
    inside = float(np.median(weights[2:8]))
    frame_at = [
        shift
        for line, outer, shift in ((1, 0, 1), (8, 9, -1))
        if weights[line] > _OFF_LINES
        and weights[line] > _OFF_BOX_LINES * max(inside, float(weights[outer]))
    ]
    return frame_at[0] if len(frame_at) == 1 else 0


def _line_weights(
    ink: UInt8Array,
    geometry: GridGeometry,
    *,
    paper_side: Callable[..., FloatArray] = np.max,
) -> FloatArray:
    """The weight of each of the lattice's lines (2, 10): its lines along the rows (0
    at the top), then along the columns (0 at the left); see :func:`box_lines_shift`.
    ``paper_side`` picks the paper beside a line from its two sides (``np.max``, the
    lighter: a tinted box on one side does not make the line weigh less)."""
    lat = np.asarray(geometry.lattice, dtype=np.float64)
    along = np.arange(9)[:, None] + np.linspace(0.15, 0.85, 6)[None, :]
    along = along.ravel()  # (54,): between the crossings, where only this line runs
    offsets = np.concatenate([_LINE_ACROSS, [-_PAPER_ACROSS, _PAPER_ACROSS]])
    across = np.arange(10.0)[:, None] + offsets  # (10 lines, 7 offsets)
    a = np.broadcast_to(across[:, :, None], (*across.shape, along.size))
    b = np.broadcast_to(along[None, None, :], a.shape)
    out = np.empty((2, 10))
    for way, (rows, cols) in enumerate(((a, b), (b, a))):
        values = _sample_lattice(ink, lat, rows, cols)  # (10, 7, 54)
        n = len(_LINE_ACROSS)
        paper = paper_side(values[:, n:], axis=1)
        below = np.clip(paper[:, None] - values[:, :n], 0.0, None).mean(axis=1)
        out[way] = np.median(below, axis=1)
    return out


def _sample_lattice(
    ink: UInt8Array, lat: FloatArray, rows: FloatArray, cols: FloatArray
) -> FloatArray:
    """The ink at lattice coordinates (``rows``, ``cols`` of any shape, in cells from
    the top left crossing; see :func:`scanner.locate.lattice_at`)."""
    points = lattice_at(lat, cols.ravel(), rows.ravel()).astype(np.float32)
    values = cv2.remap(
        ink, points[:, 0:1], points[:, 1:2], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return values.reshape(rows.shape).astype(np.float64)


def _look_across(
    ink: UInt8Array,
    edge: tuple[FloatArray, ...] | list[FloatArray],
    along: FloatArray,
    outward: FloatArray,
    cell: float,
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """The ink (..., A, O) across outer edges, and where that lies in the photo.

    ``edge`` holds the edges' start and end crossings on the outer line and the next
    line's two crossings in (each (..., 2)); ``along`` (A,) are the places along each
    edge (shares of it from its start), ``outward`` (O,) the offsets across it, in cells
    of ``cell`` pixels, positive away from the grid.
    """
    start, end, inner_start, inner_end = (np.asarray(p, dtype=np.float64) for p in edge)
    at = along[:, None]
    on_line = start[..., None, :] + at * (end - start)[..., None, :]  # (..., A, 2)
    inward = inner_start[..., None, :] + at * (inner_end - inner_start)[..., None, :]
    inward -= on_line
    inward *= cell / np.maximum(np.linalg.norm(inward, axis=-1, keepdims=True), 1e-9)
    points = on_line[..., None, :] - outward[:, None] * inward[..., None, :]  # (..., A, O, 2)
    h, w = ink.shape[:2]
    x, y = points[..., 0], points[..., 1]
    on_photo = (x >= 0) & (y >= 0) & (x <= w - 1) & (y <= h - 1)
    flat = points.reshape(-1, 2).astype(np.float32)
    values = cv2.remap(ink, flat[:, 0:1], flat[:, 1:2], cv2.INTER_LINEAR)
    return values.reshape(points.shape[:-1]).astype(np.float64), on_photo


def _frame_places(start: float) -> FloatArray:
    """Places (shares of a cell, outward) from ``start`` to ``_FRAME_BEYOND`` where an
    outer edge is looked across, every twentieth of a cell."""
    count = round((_FRAME_BEYOND - start) * 20) + 1
    return np.linspace(start, start + (count - 1) / 20, count)


def _ink_cut_off(ink: UInt8Array, edge: list[FloatArray], cell: float, frame: float) -> bool:
    """Whether ink lies between an outer edge of the lattice and the frame beyond it.

    ``edge`` holds the edge's two crossings and the next line's two crossings in (each
    (2,)), which give the way inward; ``cell`` is the side's typical cell (pixels) and
    ``frame`` the frame's median strength. The edge is looked across at 17
    places along it, from the line outward to ``_FRAME_BEYOND``: where the darkest
    point (the frame) stands out at least ``_FRAME_FAR`` of ``frame``, ink half as dark
    between the line and the frame (clear of the frame's own width) at two places or
    more is a digit's, which the cell as cut lost.
    """
    along = np.linspace(0.1, 0.9, 17)
    outward = _frame_places(0.0)
    values, on_photo = _look_across(ink, edge, along, outward, cell)
    values = np.where(on_photo, values, 255.0)  # beyond the photo: nothing dark
    paper = values.max(axis=1)
    at = values.argmin(axis=1)
    depth = paper - values[np.arange(len(along)), at]
    clear = outward[None, :] <= outward[at][:, None] - _FRAME_CLEAR
    inked = (values < (paper - 0.5 * depth)[:, None]) & clear & (outward[None, :] > 0.0)
    return int((inked.any(axis=1) & (depth >= _FRAME_FAR * frame)).sum()) >= 2


def covered_cells(cells: UInt8Array, *, colours: UInt8Array | None = None) -> npt.NDArray[np.bool_]:
    """Which cells (81,) something lies over: a finger or a pen on the page.

    What the reader sees under a finger is skin: a cell read as empty there, or a
    digit half hidden read as another, leaves a puzzle with the page's solution, and no
    rule of the reader's would expose it. A patch covers cells when it is darker than
    the paper around it (``_COVER_DARK``) or, with ``colours``, of another colour
    (``_COVER_HUE``), wider than any stroke (``_COVER_WIDTH``),
    reaches in from the grid's edge, and the grid's lines do not go on under it: its
    inside shows strokes on the cells' borders at under ``_COVER_LINES`` of what the
    same lines show where no patch lies, nor its frame (``_COVER_FRAME``). A tinted
    box, a shadow or a curl's shade keeps its lines; the shade of crinkled newsprint
    lies inside the grid in patches, and where it reaches over the edge it keeps the
    bold frame, however faint the lines inside fade under it. (No
    patch was taken for a finger on 1,500 rendered pages of every stress style nor on
    Wicht's 324 photos; of 160 rendered pages with a fingertip over the grid's edge,
    146 were found, among them all 16 read as another puzzle without this test.)

    Parameters
    ----------
    cells : (81, S, S) uint8 array
        The grid's cells as cut (row by row), dark ink on light paper; their borders
        show half of the grid lines around them.
    colours : (81, C, C, 3) uint8 array, optional, keyword-only
        The same cells in colour (BGR; ``kinds.colour_cells_of``), from a colour photo.
    """
    n = len(cells)
    out = np.zeros(n, dtype=bool)
    if n != 81:
        return out
    # At half the cells' size (a patch is a cell across; the lines stay a pixel or two).
    s = cells.shape[1] // 2
    cells = cells[:, : 2 * s, : 2 * s]
    halved = cells.reshape(9, 9, 2 * s, 2 * s).transpose(0, 2, 1, 3).reshape(18 * s, 18 * s)
    grid = cv2.resize(halved, (9 * s, 9 * s), interpolation=cv2.INTER_AREA)
    paper = row_percentiles(cells.reshape(n, -1), (90,))[0].reshape(9, 9).astype(np.uint8)
    around = cv2.resize(
        cv2.medianBlur(paper, 5).astype(np.float32), (9 * s, 9 * s), interpolation=cv2.INTER_LINEAR
    )
    # Strokes: darker than the paper around by a part of the grid's typical line.
    third = odd_kernel(s / 3)
    kernel = np.ones((third, third), np.uint8)
    strokes = np.asarray(cv2.morphologyEx(grid, cv2.MORPH_BLACKHAT, kernel), np.uint8)
    # A shade darkens a line with its paper: each stroke at the depth it would have on
    # the paper around (its closing's level against ``around``, up to _COVER_SHADE).
    closed = grid.astype(np.float32) + strokes
    gain = np.clip(around / np.maximum(closed, 1.0), 1.0, _COVER_SHADE)
    strokes = np.minimum(strokes * gain, 255.0).astype(np.uint8)
    place = np.arange(9 * s) % s
    on_border = (place < 2) | (place >= s - 2)
    border = on_border[:, None] | on_border[None, :]
    by_cell = strokes.reshape(9, s, 9, s).transpose(0, 2, 1, 3).reshape(n, s, s)
    typical = float(np.median(row_percentiles(by_cell[:, border[:s, :s]], (90,))[0]))
    lines = _BorderLines(
        strokes > max(_COVER_STROKE_MIN, _COVER_STROKE * typical),
        border,
        np.where(on_border, np.arange(9 * s) // s + (place >= s - 2), -1),
    )
    # A darker patch (a finger, a pen), and apart from it one of another colour (a light
    # fingertip in shade, whose own shadow beside it keeps the lines): each on its own.
    candidates = [grid < _COVER_DARK * around]
    if colours is not None and colours.shape[0] == n and colours.ndim == 4:
        candidates.append(_off_paper_colour(colours, s))
    covering = np.zeros((9 * s, 9 * s), dtype=bool)
    for candidate in candidates:
        covering |= _covering(candidate, lines, s)
    if not covering.any():
        return out
    middle = np.zeros((s, s), dtype=bool)
    lo = round(s * (1 - SEEN_MIDDLE) / 2)
    middle[lo : s - lo, lo : s - lo] = True
    under = covering.reshape(9, s, 9, s).transpose(0, 2, 1, 3).reshape(n, s, s)
    out = under[:, middle].mean(axis=1) >= _COVER_MIDDLE
    return np.asarray(out, dtype=bool)


@dataclass(frozen=True)
class _BorderLines:
    """What :func:`covered_cells` knows of the grid's lines, at half the cells' size.

    ``stroke`` (9 s, 9 s): strokes; ``border`` (9 s, 9 s): the cells' border pixels;
    ``line`` (9 s,): each row's (and column's) line, 0-9 (-1 off the lines).
    """

    stroke: npt.NDArray[np.bool_]
    border: npt.NDArray[np.bool_]
    line: npt.NDArray[np.int64]


def _covering(
    candidate: npt.NDArray[np.bool_], lines: _BorderLines, s: int
) -> npt.NDArray[np.bool_]:
    """The covering patches (9 s, 9 s) among the ``candidate`` pixels: wider than
    ``_COVER_WIDTH`` of a cell (``s`` pixels), reaching in from the grid's edge, under
    whose inside the lines show strokes at under ``_COVER_LINES`` of their rate outside
    any patch (see :func:`covered_cells`)."""
    none = np.zeros(candidate.shape, dtype=bool)
    wide = odd_kernel(_COVER_WIDTH * s)
    patches = cv2.morphologyEx(
        candidate.astype(np.uint8), cv2.MORPH_OPEN, np.ones((wide, wide), np.uint8)
    )
    if not patches.any() or patches.mean() > _COVER_MAX_SHARE:
        return none
    count, labels = cv2.connectedComponents(patches, connectivity=8)
    edges = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    from_edge = np.zeros(count, dtype=bool)
    from_edge[edges] = True
    from_edge[0] = False
    if not from_edge.any():
        return none
    # Each border pixel's line (0-9 across, 10-19 upright): what a patch hides is
    # measured against the same lines where no patch lies (a faint dotted line shows
    # few strokes anywhere, a bold one many).
    stroke, border = lines.stroke, lines.border
    across = np.broadcast_to(lines.line[:, None], border.shape)
    upright = np.broadcast_to(np.where(lines.line >= 0, lines.line + 10, -1)[None, :], border.shape)
    free = patches == 0
    rates = np.zeros(20)
    for line in (across, upright):
        band = line >= 0
        total = np.bincount(line[band & free], minlength=20)
        shown = np.bincount(line[band & free & stroke], minlength=20)
        rates = np.maximum(rates, shown / np.maximum(total, 1))
    rim = odd_kernel(2 * _COVER_RIM * s)
    inside = cv2.erode(patches, np.ones((rim, rim), np.uint8)) > 0
    # What the inside's border pixels would show at their lines' rates (a crossing's
    # pixel at the likelier of its two lines), and what they show.
    expected_here = np.maximum(
        np.where(across >= 0, rates[np.maximum(across, 0)], 0.0),
        np.where(upright >= 0, rates[np.maximum(upright, 0)], 0.0),
    )
    looked = inside & border
    seen = np.bincount(labels[looked], minlength=count)
    expected = np.bincount(labels[looked], weights=expected_here[looked], minlength=count)
    lined = np.bincount(labels[looked & stroke], minlength=count)
    judged = (seen >= 2 * s) | (expected >= s)
    covering = from_edge & judged & (lined < _COVER_LINES * expected)
    # The frame's own pixels (its lines 0 and 9 both ways), inside each patch and
    # outside them all: a cover hides the frame, a shade keeps it.
    frame = border & (np.isin(across, (0, 9)) | np.isin(upright, (10, 19)))
    frame_free = int(np.count_nonzero(frame & free))
    frame_rate = int(np.count_nonzero(frame & free & stroke)) / max(frame_free, 1)
    framed = np.bincount(labels[inside & frame], minlength=count)
    framed_lined = np.bincount(labels[inside & frame & stroke], minlength=count)
    frame_kept = (framed >= s / 2) & (framed_lined >= _COVER_FRAME * frame_rate * framed)
    covering &= ~frame_kept
    for k in np.flatnonzero(covering):
        covering[k] = not _along_lines(np.asarray(labels) == k, s)
    return np.asarray(covering[labels])


def _along_lines(patch: npt.NDArray[np.bool_], s: int) -> bool:
    """Whether a patch (9 s, 9 s) ends along the grid's lines.

    A tinted box or an app's highlighted cells end where the grid's lines run, a finger
    anywhere: a patch whose outline inside the grid (its notches and holes closed up
    to a cell across: the digits printed on a tint are not of its colour) lies within
    ``_ALONG_LINE`` of a cell (``s`` pixels) of a line along it, ``_ALONG_SHARE`` of
    it or more, is no finger (stress pastel-dotted-low-res 5268: a pale yellow box at
    the grid's edge, whose dotted lines faded under the tint, was taken for one). On
    60 pages of stress's finger style no patch's outline lay along lines over 0.71 of
    it.
    """
    place = np.arange(patch.shape[0]) % s
    # An edge between pixels i and i + 1 lies at i + 1 in the cell's s pixels.
    on_line = np.minimum((place + 1) % s, s - (place + 1) % s) <= _ALONG_LINE * s
    close = np.ones((odd_kernel(s), odd_kernel(s)), np.uint8)
    closed = cv2.morphologyEx(patch.astype(np.uint8), cv2.MORPH_CLOSE, close) > 0
    ends_down = closed[:-1] != closed[1:]  # its edges across the rows
    ends_right = closed[:, :-1] != closed[:, 1:]  # ... and across the columns
    edges = int(ends_down.sum() + ends_right.sum())
    along = int((ends_down & on_line[:-1, None]).sum() + (ends_right & on_line[None, :-1]).sum())
    return edges > 0 and along >= _ALONG_SHARE * edges


def _off_paper_colour(colours: UInt8Array, s: int) -> npt.NDArray[np.bool_]:
    """Where the colour cells (81, C, C, 3) BGR, tiled into the grid, lie ``_COVER_HUE``
    or more (a*b*) from the paper's colour (the median of the grid's brightest quarter:
    the paper, not ink), as a (9 s, 9 s) map. Measured at a quarter of a cell's ``2 s``
    pixels (a patch is over half a cell across), in 8-bit Lab."""
    c = colours.shape[1]
    q = max(2, s // 2)
    tiled = colours.reshape(9, 9, c, c, 3).transpose(0, 2, 1, 3, 4).reshape(9 * c, 9 * c, 3)
    small = cv2.resize(tiled, (9 * q, 9 * q), interpolation=cv2.INTER_AREA)
    lab = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2Lab), np.uint8)
    light, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    bright = light >= row_percentiles(light.reshape(1, -1), (75,))[0, 0]
    paper_a, paper_b = row_percentiles(np.stack([a[bright], b[bright]]), (50,))[0]
    da = a.astype(np.int32) - int(paper_a)
    db = b.astype(np.int32) - int(paper_b)
    off = (da * da + db * db >= _COVER_HUE**2).astype(np.uint8)
    return np.asarray(cv2.resize(off, (9 * s, 9 * s), interpolation=cv2.INTER_NEAREST) > 0)


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
    glare = _GlareMeasures.of(cells)
    return np.asarray(glare.brighter & (glare.lines < _LOST_LINES * glare.faintest))


def glare_faded(cells: UInt8Array) -> npt.NDArray[np.bool_]:
    """Which cells (N,) lie in glare's halo, not washed out, with a faded digit's ink.

    Around a reflection the ink fades with the lines: a printed digit there can stand
    under the reader's blank test, measured against the grid's digits, and be read
    "empty" at full confidence, and a given lost so leaves the same solution (stress
    glare-burnt 6667, a 7 read as another puzzle). A cell counts where its paper is
    brighter than the grid's typical, its lines have faded (under ``_HALO_LINES`` of
    the typical of the grid's faintest, but not under ``_LOST_LINES``: that is
    :func:`washed_out`) and the middle of the cell holds ink darker than its paper by
    ``_HALO_INK`` of its own lines' contrast, and another cell whose lines have faded so
    (of the halo or its washed-out core, with ink or without) lies beside it: a
    reflection is a patch. Stress glare-burnt 4478, 5122, 5945, 6359 and 6667, each a
    confident reading of another puzzle before, are refused so. On 60 rendered pages each
    of the glare
    and glare-burnt styles (seeds 6360-6419), no cell of the glare style lay in such a
    halo; of glare-burnt's, 242 empty ones showed ink at 0.02 (median) to 0.29 of
    their lines (99% under 0.13), and 27 printed digits read empty there 0.09-0.76.

    Parameters
    ----------
    cells : (N, S, S) uint8 array
        The grid's cells, dark ink on light paper.
    """
    glare = _GlareMeasures.of(cells)
    s = cells.shape[-1]
    lo = s // 5
    inner = cells[:, lo : s - lo, lo : s - lo].reshape(len(cells), -1)
    darkest = row_percentiles(inner, (2,))[0] if inner.size else glare.middle
    ink = glare.middle.astype(np.float64) - darkest
    faded = (glare.lines < _HALO_LINES * glare.faintest) & (
        glare.lines >= _LOST_LINES * glare.faintest
    )
    out = glare.brighter & faded & (ink >= _HALO_INK * np.maximum(glare.lines, 1.0))
    if len(cells) != 81:
        return np.asarray(out)
    # A reflection is a patch: a cell of its halo has another (of its halo or its
    # washed-out core, with ink or without) beside it. One such cell alone is the
    # paper's own (a crinkle's highlight, a screen's bright pixel row): on stress seeds
    # 6660-6689, four pages read right were refused for one such cell each
    # (screen-photo, newsprint-crinkled, handheld).
    patch = (glare.brighter & (glare.lines < _HALO_LINES * glare.faintest)).astype(np.float32)
    around = cv2.filter2D(
        patch.reshape(9, 9), -1, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT
    )
    return np.asarray(out & (around.ravel() - patch > 0))


@dataclass(frozen=True)
class _GlareMeasures:
    """What tells glare, per cell (N,): paper brighter than the grid's typical
    (``brighter``), the median level (``middle``), the contrast of the lines at the
    cell's border (``lines``), and the typical of the grid's faintest lines
    (``faintest``)."""

    brighter: npt.NDArray[np.bool_]
    middle: npt.NDArray[np.float64]
    lines: npt.NDArray[np.float64]
    faintest: float

    @classmethod
    def of(cls, cells: UInt8Array) -> _GlareMeasures:
        n = len(cells)
        bright, middle = row_percentiles(cells.reshape(n, -1), (90, 50))
        typical = float(np.median(bright))
        band = np.ones(cells.shape[1:], dtype=bool)
        edge = max(1, cells.shape[-1] // 8)
        band[edge:-edge, edge:-edge] = False
        top, bottom = row_percentiles(cells[:, band], (95, 3))
        lines = (top - bottom).astype(np.float64)
        # The typical of the faintest lines: a cell's place in its box decides which of
        # its borders can be bold (a box's middle cell touches neither box lines nor the
        # frame), so each of the nine places has its typical, and the faintest place's is
        # the yardstick. Glare covers a patch: a few of the nine cells of any one place.
        place = np.arange(n) // 9 % 3 * 3 + np.arange(n) % 3 if n == 81 else np.zeros(n, int)
        faintest = min(float(np.median(lines[place == k])) for k in set(place.tolist()))
        middle = middle.astype(np.float64)
        return cls(np.asarray(middle > typical), middle, lines, faintest)


def diagnose(
    geometry: GridGeometry,
    cells: UInt8Array,
    doubtful_cells: list[int],
    *,
    washed: npt.NDArray[np.bool_] | None = None,
    covered: npt.NDArray[np.bool_] | None = None,
    off_frame: npt.NDArray[np.bool_] | None = None,
    lattice_off: bool = False,
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
    covered : (81,) bool array, optional, keyword-only
        :func:`covered_cells` of ``cells``, when the caller has it already.
    off_frame : (81,) bool array, optional, keyword-only
        The cells the lattice left the grid's lines beside: :func:`frame_missed` of the
        photo, where the caller looked, or :func:`crossed_cells`.
    lattice_off : bool, optional, keyword-only
        Whether the lattice lies a cell off the grid (:func:`box_lines_off`).

    Returns
    -------
    str
        One sentence, e.g. ``"the photo is blurred: hold the phone still and let it
        focus"``.
    """
    cell = median_cell(np.asarray(geometry.lattice, dtype=np.float64))
    if cut_off_cells(geometry).any():
        return "the grid is cut off: take the photo again with the whole grid in view"
    covered = covered_cells(cells) if covered is None else covered
    if covered[doubtful_cells].any():
        return f"{COVERED_CAUSE}: take the photo again with nothing over the grid"
    if off_frame is not None and off_frame[doubtful_cells].any():
        return f"{BENT_CAUSE}: flatten the page and take the photo straight on"
    if lattice_off:
        return f"{BOX_LINES_CAUSE}: take the photo again closer, the grid filling the photo"
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
