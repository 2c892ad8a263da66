"""Find the Sudoku grid in a photo and every one of its line intersections.

1. **Candidates** (on a copy with its long side at most 1024 px). An adaptive threshold
   (robust to shadows) gives the ink. The grid's lines are all connected, so whatever
   the rotation of the page the grid is one large blob of ink. Each large blob gives
   two kinds of candidate quadrilateral: the smallest one enclosing the blob, and one
   fitted to the blob's *cells* (its similar-sized squarish holes, assigned integer
   coordinates on a perspective lattice). The second stays right when text, a label
   box or the page edge touches the grid and spoils the first.
2. **Lattice.** A candidate is unwarped to a square where line ``k`` should lie at a
   fixed position. A line-enhanced image (black-hat, then morphological openings with
   long thin kernels: lines stay, digits and text go) is summed into profiles across
   the lines in nine bands along them. The first pass fits an evenly spaced comb of 10
   lines (is this a 9x9 grid, and where exactly?) and gives a flat lattice; then each
   line is found in each band, a RANSAC over bands drops detections off the line (an
   edge beside the grid), smooth curves are fitted and intersected. Re-measuring
   through the curved lattice a few times unbends even a strongly bowed page. If a
   full line shows just beyond one outer line while the opposite one is missing, the
   comb was off by a cell and is moved. The share of lines found scores the candidate:
   the best, and among near-best the largest (the puzzle, not the smaller solution
   grid beside it) wins. If the curved lattice is not confident, the flat one is used.
3. **Full resolution.** When the grid's cells were small in the reduced copy, the
   lattice is measured once more on a crop of the input.

All positions are in pixel-centre coordinates (pixel ``(0, 0)`` covers
``[-0.5, 0.5]^2``), as OpenCV uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from scanner.geometry import GridGeometry, median_cell
from scanner.load import MIN_SIDE, to_gray

from .errors import NoGridError
from .robust import robust_sd, row_percentiles

__all__ = [
    "MIN_CELL_PX",
    "LocateDebug",
    "descreen",
    "descreen_sigma",
    "fine_texture",
    "locate_grid",
    "locate_grids",
    "order_corners",
    "rotated_lattice",
]

FloatArray = npt.NDArray[np.float64]
UInt8Array = npt.NDArray[np.uint8]

#: Smallest cell side, in pixels of the given image, that digits can be read from.
MIN_CELL_PX = 12.0

_WORK_SIDE = 1024  # long side of the copy used to find candidates
# Blur (working pixels) that wipes out a texture of a few pixels' period (sub-pixel moire,
# halftone dots) while a line of the smallest readable grid (MIN_CELL_PX) stays a line.
_DESCREEN_SIGMA = 1.5
_FINE_CELL = 32.0  # cell size (px) worth measuring at; finer only costs time
_MAX_BLOBS = 5  # largest ink blobs considered
_ALL_LINES = np.arange(10)
_BOX_LINES = np.array([0, 3, 6, 9])  # the lines around the 3x3 boxes
_SCAN_BLOBS = 40  # blobs (by bounding box) looked through for a lattice of cells
# A frame's hole fills at least this share of its hull: even a border a cell wide (1/9
# of the side) leaves 60% (a bold printed frame, 1/8 of a cell, leaves 94%); the holes
# of a text block or a photo are far smaller.
_FRAME_FILL = 0.6
# A bent comb's bend (``_comb_fit``): at most this share of a cell, times k^2 - 9k, so
# that the last cell is up to a tenth wider than the first.
_COMB_BEND = 0.006
_COMB_MIN_SCORE = 0.45  # first-pass share of (line, band) detections worth refining
_ACCEPT_SCORE = 0.6  # final share needed to call it a 9x9 grid (real grids: > 0.8)
_GOOD_SCORE = 0.9  # a candidate this good ends the search
# Of two near-best lattices of one grid, the other is taken where its lines lie on
# this much more ink (``_chosen_fit``).
_SAME_GRID_GAIN = 1.05
# A lattice moved a cell over that still asks to move on, with more ink on its lines, is
# moved again, this many moves at most (``_fit_grid``): a steep tilt's comb may start two
# cells off.
_MAX_MOVES = 2
# Score a fallback measurement (dotted-line maps, box lines only) needs: those maps
# also see lines in a halftone's texture or a table's rules, so they must be convincing
# (real dotted grids score 0.8-1.0 with them; real box lines are bold, found nearly
# everywhere).
_FALLBACK_MIN_SCORE = 0.8
_REFINE_MIN_SCORE = 0.6  # share needed to trust the curved (per-line) lattice
_MAX_ROUNDS = 4  # re-measuring rounds for a bent page
_DEG_X = 4  # degree of a line's curve along its length (a bow is not a parabola)
_WAVE = 0.25  # a line seen this close (in cells) to its smooth curve sets its own place
_WAVY = 0.04  # ... on a page where a tenth of the crossings move that much (cells) ...
_WAVE_GAIN = 1.02  # ... and that puts 2% more ink under the lattice's lines
# Not followed at all where the lattice's own measurement saw its crossings lie off its
# smooth curves by less than this (cells, 90th percentile): through the lattice they
# then moved at most 0.0203 (160 reference photos, stress seeds 0-19), half _WAVY.
_MAYBE_WAVY = 0.5 * _WAVY
_UNSEEN_WEIGHT = 0.25  # pull of a straight line where a box line was not seen ...
_PRIOR_DEG = 1  # ... (_fit_lines: its degree along the line)
# Dotted and dashed cell lines: the gaps between dots or dashes are at most this share
# of a cell (printed dotted lines: a dot every 1/15 to 1/10 of a cell; dashes 1/6 long).
_DASH_GAP = 0.25
# Every third line from the lattice's first or second standing out this many times
# the rest (medians) is the grid's box lines: the lattice is a cell off.
_BOX_SHIFT = 2.0


class _Mode(NamedTuple):
    """How a candidate's lines are measured."""

    #: Line maps that keep dotted and dashed lines (see :func:`_line_maps`).
    broken: bool = False
    #: Only the box lines (0, 3, 6, 9) are measured; the cell lines are interpolated.
    boxes: bool = False
    #: The first pass's comb bends with a tilt's perspective (see :func:`_comb_fit`).
    bent: bool = False


_PLAIN = _Mode()


@dataclass
class LocateDebug:
    """What :func:`locate_grid` saw, for debugging and benchmarks.

    Attributes
    ----------
    candidates : list of (4, 2) float arrays
        Candidate quadrilaterals in the working copy's pixels, largest first.
    scores : list of float
        Comb score of each candidate tried (share of lines found), same order.
    chosen : int
        Index of the chosen candidate, -1 when none.
    refined : bool
        Whether the curved lattice was used (False: flat 4-corner fallback).
    scale : float
        Working-copy pixels per input pixel.
    descreened : float
        The Gaussian sigma (input pixels) of the blur the grid was found through, 0 when
        it was found in the image as given (see :data:`_DESCREEN_SIGMA`). Its cells read
        best through the same blur.
    """

    candidates: list[FloatArray]
    scores: list[float]
    chosen: int = -1
    refined: bool = False
    scale: float = 1.0
    descreened: float = 0.0


# --------------------------------------------------------------------------------------
# Public helpers
# --------------------------------------------------------------------------------------


def order_corners(quad: npt.ArrayLike) -> FloatArray:
    """Order 4 corners (4, 2) of a convex quadrilateral as TL, TR, BR, BL of the image.

    Clockwise on screen, starting at the corner whose outgoing edge points most nearly
    along +x: for a page within 45 degrees of upright that is its top-left corner.
    """
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    # Sort by angle around the centroid: increasing atan2 with y down is clockwise.
    centre = q.mean(axis=0)
    q = q[np.argsort(np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0]))]
    edges = np.roll(q, -1, axis=0) - q
    start = int(np.argmax(edges[:, 0] / (np.linalg.norm(edges, axis=1) + 1e-12)))
    return np.roll(q, -start, axis=0)


def rotated_lattice(geometry: GridGeometry, k: int) -> GridGeometry:
    """The same grid with its lattice re-ordered for a page turned by ``k`` quarter turns.

    Parameters
    ----------
    geometry : GridGeometry
        A lattice in image order (as :func:`locate_grid` returns it: row 0 along the
        image's top).
    k : int
        Quarter turns, counter-clockwise, of the page in the upright image: 1 = the
        puzzle's top edge lies on the image's left (text reads bottom to top), 2 = upside
        down, 3 = top edge on the right. Taken modulo 4.

    Returns
    -------
    GridGeometry
        Lattice with ``lattice[0, 0]`` at the puzzle's real top-left corner and row 0
        along its real top edge.
    """
    # np.rot90(a, 1)[i, j] == a[j, 9 - i]: the order for a page turned clockwise.
    lat = np.rot90(geometry.lattice, -(k % 4), axes=(0, 1))
    return GridGeometry(np.ascontiguousarray(lat), geometry.image_size)


def locate_grid(
    gray: npt.ArrayLike,
    *,
    name: str = "image",
    debug: LocateDebug | None = None,
    bent: bool = False,
) -> GridGeometry:
    """Find the Sudoku grid and its 10 x 10 line intersections.

    Parameters
    ----------
    gray : (H, W) uint8 array
        The upright photo (a BGR (H, W, 3) array is converted). Any resolution: the
        search runs on a copy with its long side at most 1024 px, and the lattice is
        mapped back to this image's pixels.
    name : str
        How to name the photo in error messages.
    debug : LocateDebug, optional
        Filled in with the candidates and scores when given.
    bent : bool
        Let the first pass's comb of lines bend with a tilt's perspective
        (``_comb_fit``): for looking again where the lattice found missed a line
        (:func:`scanner.quality.lines_through`), not on every photo.

    Returns
    -------
    GridGeometry
        Lattice in this image's pixels, in image order: ``lattice[0, 0]`` is the corner
        nearest the image's top-left (for a page within 45 degrees of upright, the
        puzzle's top-left). For a page turned sideways or upside down use
        :func:`rotated_lattice`.

    Raises
    ------
    NoGridError
        No 9x9 grid found, or the image or the grid is too small to read.
    """
    img, small, scale = _prepare(gray, name)
    dbg = debug if debug is not None else LocateDebug([], [])
    dbg.candidates, dbg.scores, dbg.scale, dbg.descreened = [], [], scale, 0.0
    # Largest candidate first; a near-perfect 9x9 structure ends the search. Otherwise
    # the best score wins, and among near-best ones the largest (the puzzle, not the
    # solution grid beside it).
    fits = _collect_fits(img, small, dbg, max_blobs=_MAX_BLOBS, stop_when_good=True, bent=bent)
    if not fits:
        # A fine texture over the lines (a photographed screen's sub-pixel moire, a
        # halftone screen) breaks every line into dashes; blurred, the lines come back.
        sigma = descreen_sigma(img.shape)
        img, small = descreen(img, sigma), descreen(small, _DESCREEN_SIGMA)
        dbg.candidates, dbg.scores, dbg.descreened = [], [], sigma
        fits = _collect_fits(img, small, dbg, max_blobs=_MAX_BLOBS, stop_when_good=True, bent=bent)
    if not fits:
        raise NoGridError(f"no Sudoku grid found in {name}")
    chosen = _chosen_fit(fits, small)
    dbg.chosen, dbg.refined = chosen.index, chosen.refined
    geometry = _full_resolution(img, chosen, scale)
    cell = _mean_cell(geometry)
    if cell < MIN_CELL_PX:
        raise NoGridError(
            f"{name}: the Sudoku grid is too small to read ({cell:.0f} px per cell; "
            f"need at least {MIN_CELL_PX:.0f})"
        )
    return geometry


def locate_grids(
    gray: npt.ArrayLike,
    *,
    name: str = "image",
    max_grids: int = 12,
    min_side_ratio: float = 0.6,
) -> list[GridGeometry]:
    """Find every full-size Sudoku grid on a page (a puzzle-book page holds 2 to 6).

    Parameters
    ----------
    gray : (H, W) uint8 array
        The upright page (BGR is converted).
    name : str, keyword-only
        How to name the page in error messages.
    max_grids : int, keyword-only
        At most this many grids are looked for.
    min_side_ratio : float, keyword-only
        A grid counts as full-size when its side is at least this share of the largest
        grid's: the small solution grid a newspaper prints beside the puzzle is left out.

    Returns
    -------
    list of GridGeometry
        In reading order (top to bottom, then left to right), each lattice in this
        image's pixels and image order, as :func:`locate_grid` returns it.

    Raises
    ------
    NoGridError
        No readable 9x9 grid on the page.
    """
    if max_grids < 1 or not 0.0 < min_side_ratio <= 1.0:
        raise ValueError("max_grids must be >= 1 and min_side_ratio in (0, 1]")
    img, small, scale = _prepare(gray, name)
    dbg = LocateDebug([], [])
    fits = _collect_fits(img, small, dbg, max_blobs=2 * max_grids, stop_when_good=False)
    # One fit per grid: a fit whose centre lies inside a kept one (or the reverse) is the
    # same grid, a box of it or a grid around it; the larger of near-equal scores wins.
    kept: list[_Fit] = []
    for fit in sorted(fits, key=lambda f: (-round(f.score, 1), -f.area)):
        if not any(_same_grid(fit, k) for k in kept):
            kept.append(fit)
    if not kept:
        raise NoGridError(f"no Sudoku grid found in {name}")
    largest = max(k.side for k in kept)
    kept = [k for k in kept if k.side >= min_side_ratio * largest][:max_grids]
    geometries = [_full_resolution(img, k, scale) for k in kept]
    geometries = [g for g in geometries if _mean_cell(g) >= MIN_CELL_PX]
    if not geometries:
        raise NoGridError(f"{name}: the Sudoku grids are too small to read")
    # A grid cut by the page edge (the puzzle above, half out of the photo) is not one to
    # solve; but a page's only grid is read as the single-photo API would.
    whole = [g for g in geometries if _inside(g)]
    return _reading_order(whole or geometries[:1])


@dataclass(frozen=True)
class _Fit:
    """A candidate that fitted a 9x9 lattice, in the working copy's pixels."""

    score: float
    area: float
    index: int
    lattice: FloatArray
    refined: bool
    fine: bool = False  # measured on the input at a fine cell size already
    mode: _Mode = _PLAIN  # how it was measured
    inside: bool = True  # the whole lattice lies in the image (see ``_lattice_inside``)
    wavy: bool = False  # its crossings follow its lines' waves (``_refine``)

    @property
    def corners(self) -> FloatArray:
        lat = self.lattice
        return np.array([lat[0, 0], lat[0, 9], lat[9, 9], lat[9, 0]])

    @property
    def side(self) -> float:
        return float(np.sqrt(self.area))


def _prepare(gray: npt.ArrayLike, name: str) -> tuple[UInt8Array, UInt8Array, float]:
    """The gray image, its reduced working copy and the copy's scale."""
    img = to_gray(np.asarray(gray))
    h, w = img.shape
    if min(h, w) < MIN_SIDE:
        raise NoGridError(
            f"{name}: image too small ({w}x{h} px); a readable Sudoku photo needs at "
            f"least {MIN_SIDE} px on its short side"
        )
    scale = min(1.0, _WORK_SIDE / max(h, w))
    small = img
    if scale < 1.0:
        small = np.asarray(
            cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.uint8
        )
    return img, small, scale


def descreen(gray: UInt8Array, sigma: float) -> UInt8Array:
    """A gray image (H, W) blurred by a Gaussian of ``sigma`` pixels (its fine texture gone).

    ``sigma`` is :attr:`LocateDebug.descreened` of a grid found only so: its cells are read
    through the same blur.
    """
    return np.asarray(cv2.GaussianBlur(gray, (0, 0), sigma), np.uint8)


def descreen_sigma(shape: tuple[int, ...]) -> float:
    """The blur (pixels of an image of this shape) that :func:`locate_grid` descreens by."""
    return _DESCREEN_SIGMA / min(1.0, _WORK_SIDE / max(shape[:2]))


def fine_texture(gray: UInt8Array, geometry: GridGeometry) -> float:
    """How strongly a texture finer than the descreening blur covers the grid's paper.

    The median absolute difference between the gray image (H, W) and its blur by
    :func:`descreen_sigma`, over the paper of the grid's bounding box away from its
    lines and digits, as a share of the paper's contrast with the ink. Clean print and
    camera noise measure under 0.025 on the reference photos and under 0.035 on every
    rendered style but a photographed screen; photographed screens 0.01 to 0.18 (a
    light screen's sub-pixel moire 0.1 and more), a stripe pattern at half the paper's
    brightness about 0.5.
    """
    h, w = gray.shape[:2]
    pts = geometry.lattice.reshape(-1, 2)
    x0, y0 = np.clip(np.floor(pts.min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(pts.max(axis=0)).astype(int), 1, [w, h])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return 0.0
    area = np.ascontiguousarray(gray[y0:y1, x0:x1])
    sigma = descreen_sigma(gray.shape)
    low = np.asarray(cv2.GaussianBlur(area, (0, 0), sigma), np.uint8)
    # Every other pixel each way is plenty for the statistics (and 4x cheaper); 8-bit
    # levels give their percentiles from one histogram (numpy's, to the bit).
    paper, dark = row_percentiles(low[::2, ::2].reshape(1, -1), (90, 2))[:, 0]
    contrast = max(float(paper - dark), 1.0)
    # Paper away from the lines and digits: the blur's halo around their edges is no
    # texture (it covers much of a small grid's cells).
    reach = 2 * int(np.ceil(2 * sigma)) + 1
    inked = (low <= paper - 0.25 * contrast).astype(np.uint8)
    near = cv2.dilate(inked, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    clear = near[::2, ::2] == 0
    if clear.sum() < 0.05 * clear.size:
        return 0.0
    diff = cv2.absdiff(area, low)[::2, ::2]
    return float(row_percentiles(diff[clear][None], (50,))[0, 0]) / contrast


def _collect_fits(
    img: UInt8Array,
    small: UInt8Array,
    dbg: LocateDebug,
    *,
    max_blobs: int,
    stop_when_good: bool,
    bent: bool = False,
) -> list[_Fit]:
    """Every candidate that fits a 9x9 lattice well enough.

    If nothing is convincing, look again with a threshold sensitive enough for faint,
    blurred lines, and if nothing fits at all, at the long strokes alone (a grid joined
    to the text around it by shadows). If still nothing fits, the last resort measures
    only the box lines:
    a grid whose cell lines are too faint, too broken or too crumpled to follow (a
    phone screen's hairlines under moire, newsprint) still has its bold box lines.
    Never before: a 3x3 box of a grid, or any table of evenly spaced lines, passes it.
    """
    fits: list[_Fit] = []
    for sensitive, lines_only in ((False, False), (True, False), (False, True)):
        if fits and max(f.score for f in fits) >= _GOOD_SCORE:
            break
        if lines_only and fits:
            break  # the last resort below is for grids no outline showed
        for quad in _candidates(
            small, sensitive=sensitive, lines_only=lines_only, max_blobs=max_blobs
        ):
            tol = 0.02 * float(np.linalg.norm(quad[2] - quad[0]))
            if any(np.max(np.linalg.norm(quad - q, axis=1)) <= tol for q in dbg.candidates):
                continue  # tried already
            dbg.candidates.append(quad)
            dbg.scores.append(0.0)
            fit = _fit_candidate(img, small, dbg.scale, quad, bent=bent)
            kept = _keep_fit(fits, fit, dbg, len(dbg.candidates) - 1, small.shape)
            if kept and stop_when_good and _good(fits[-1]):
                break
    if not fits:
        for idx, quad in enumerate(list(dbg.candidates)):
            fit = _fit_candidate(img, small, dbg.scale, quad, boxes=True, bent=bent)
            kept = _keep_fit(fits, fit, dbg, idx, small.shape)
            if kept and stop_when_good and _good(fits[-1]):
                break
    return fits


def _keep_fit(
    fits: list[_Fit],
    fit: _Measured | None,
    dbg: LocateDebug,
    idx: int,
    shape: tuple[int, ...],
    *,
    min_score: float = _ACCEPT_SCORE,
) -> bool:
    """Record the score of candidate ``idx`` and add its fit to ``fits`` when accepted
    (``shape``: the working copy's, in whose pixels the fit is)."""
    if fit is None:
        return False
    dbg.scores[idx] = max(dbg.scores[idx], fit.score)
    if fit.score < min_score:
        return False
    lat = fit.lattice
    corners = np.array([lat[0, 0], lat[0, 9], lat[9, 9], lat[9, 0]])
    area = 0.5 * abs(float(np.sum(_cross(corners, np.roll(corners, -1, axis=0)))))
    inside = _lattice_inside(lat, shape)
    fits.append(_Fit(fit.score, area, idx, lat, fit.refined, fit.fine, fit.mode, inside, fit.wavy))
    return True


def _chosen_fit(fits: list[_Fit], small: UInt8Array) -> _Fit:
    """The grid among ``fits`` (measured in ``small``): of the near-best scores, one
    inside the photo before one past its edge (see ``_good``), then the largest (the
    puzzle, not the small solution grid printed beside it); and of the near-best
    lattices of that same grid, the one whose lines lie on clearly the most ink
    (``_SAME_GRID_GAIN``).

    Two outlines of one grid can both fit: on crinkled newsprint an outline cut into
    the text beside the grid bent its lattice's first column a cell and a half out into
    the text (stress newsprint-crinkled 5441, share 0.67, its lines' ink 98) while the
    grid's own outline fitted the frame (0.73, ink 112); the larger had won, and the
    digits of the first columns were read a column over. Lattices of one grid that
    differ by a few pixels differ by a few percent in ink (39 pairs on 930 stress pages
    of every style, seeds 5010-5039: at most 4.1%), and the larger keeps its place.
    """
    best = max(f.score for f in fits)
    near = [f for f in fits if f.score >= best - 0.1]
    chosen = max(near, key=lambda f: (f.inside, f.area))
    same = [f for f in near if f.inside == chosen.inside and _same_grid(f, chosen)]
    if len(same) < 2:
        return chosen
    inks = [_ink_on_lines(small, f.lattice) for f in same]
    most = int(np.argmax(inks))
    gain = inks[most] / max(inks[same.index(chosen)], 1e-9)
    return same[most] if gain > _SAME_GRID_GAIN else chosen


def _good(fit: _Fit) -> bool:
    """Whether a fit ends the search: near-perfect, and all of it in the image. A
    lattice a row or two past the photo's edge can match all the lines inside it (a
    page whose first row lies in shadow was fitted with its lattice two rows down)."""
    return fit.score >= _GOOD_SCORE and fit.inside


def _same_grid(a: _Fit, b: _Fit) -> bool:
    """Whether either fit's centre lies inside the other's outline."""
    for inner, outer in ((a, b), (b, a)):
        centre = inner.corners.mean(axis=0)
        poly = outer.corners.astype(np.float32).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(poly, (float(centre[0]), float(centre[1])), False) >= 0:
            return True
    return False


def _full_resolution(img: UInt8Array, fit: _Fit, scale: float) -> GridGeometry:
    """The fit's lattice in the input's pixels (re-measured there when that helps)."""
    h, w = img.shape
    lattice = (fit.lattice + 0.5) / scale - 0.5
    if fit.refined and not fit.fine and scale < 1.0:
        lattice = _refine_full(img, lattice, scale, mode=fit.mode)
    if fit.refined:  # (a flat fallback is four corners and a homography: left as fitted)
        cell = median_cell(lattice)
        # On a wavy page (crumpled paper) the frame's crossings are put onto the frame
        # first (the corners' search starts from them) and then slid along it to where
        # their lines meet it; a flat page's smooth curves are left as measured.
        if fit.wavy:
            lattice = _onto_frame(img, lattice, cell)
        lattice = _settle_corners(img, lattice, cell)
        if fit.wavy:
            lattice = _settle_frame_crossings(img, lattice, cell)
    return GridGeometry(lattice, (w, h))


def _inside(geometry: GridGeometry) -> bool:
    """Whether the whole lattice lies in the image (give or take half a cell)."""
    w, h = geometry.image_size
    return _lattice_inside(geometry.lattice, (h, w))


def _lattice_inside(lattice: FloatArray, shape: tuple[int, ...]) -> bool:
    """Whether a lattice (10, 10, 2) lies in an image of ``shape`` (H, W, ...), give or
    take half its median cell."""
    h, w = shape[:2]
    slack = 0.5 * median_cell(lattice)
    pts = lattice.reshape(-1, 2)
    return bool(
        (pts[:, 0] >= -slack).all() and (pts[:, 0] <= w - 1 + slack).all()
        and (pts[:, 1] >= -slack).all() and (pts[:, 1] <= h - 1 + slack).all()
    )  # fmt: skip


def _mean_cell(geometry: GridGeometry) -> float:
    return float(np.mean([geometry.cell_size(r, c) for r in (0, 4, 8) for c in (0, 4, 8)]))


def _reading_order(geometries: list[GridGeometry]) -> list[GridGeometry]:
    """Top to bottom; grids whose tops are within half a grid of each other form a row,
    read left to right."""
    boxes = [(g.corners().min(axis=0), g.corners().max(axis=0)) for g in geometries]
    order = sorted(range(len(geometries)), key=lambda i: boxes[i][0][1])
    rows: list[list[int]] = []
    for i in order:
        top, height = boxes[i][0][1], boxes[i][1][1] - boxes[i][0][1]
        if rows and top - boxes[rows[-1][0]][0][1] < 0.5 * height:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [geometries[i] for row in rows for i in sorted(row, key=lambda i: boxes[i][0][0])]


def _refine_full(
    img: UInt8Array, lattice: FloatArray, scale: float, *, mode: _Mode = _PLAIN
) -> FloatArray:
    """Re-measure a lattice (10, 10, 2) on the full-resolution image when it helps.

    A grid that is small in a big photo has small cells in the reduced working copy;
    measuring again on a crop of the input, reduced only to ~32 px cells, restores the
    precision. Returns the lattice unchanged when that is not needed or not confident.
    """
    h, w = img.shape
    cell = median_cell(lattice)
    if cell * scale >= 0.9 * _FINE_CELL:
        return lattice  # the working copy (``scale`` of the input) was fine enough
    f = min(1.0, _FINE_CELL / cell)
    x0, y0 = np.floor(lattice.reshape(-1, 2).min(axis=0) - 1.5 * cell).astype(int)
    x1, y1 = np.ceil(lattice.reshape(-1, 2).max(axis=0) + 1.5 * cell).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    crop = img[y0:y1, x0:x1]
    if f < 1.0:
        crop = np.asarray(
            cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), np.uint8
        )
    start = (lattice - np.array([x0, y0]) + 0.5) * f - 0.5
    c = int(np.clip(round(cell * f), 24, 40))
    lat, share, _, _ = _refine(crop, start, c, cell * f, mode=mode)
    if (
        share < _REFINE_MIN_SCORE
        or float(np.max(np.linalg.norm(lat - start, axis=2))) > 0.5 * cell * f
    ):
        return lattice
    return np.asarray((lat + 0.5) / f - 0.5 + np.array([x0, y0]), dtype=np.float64)


# --------------------------------------------------------------------------------------
# Stage 1: candidate quadrilaterals
# --------------------------------------------------------------------------------------


def odd_kernel(n: float) -> int:
    """The odd kernel size nearest ``n`` (rounded, then up to odd), at least 3."""
    k = max(3, round(n))
    return k if k % 2 else k + 1


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    return np.asarray(a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0], dtype=np.float64)


def _enclosing_quad(hull: FloatArray) -> FloatArray | None:
    """Small quadrilateral (4, 2) enclosing a convex polygon (n, 2), clockwise on screen.

    Greedy: repeatedly drop the edge whose removal (extending its two neighbours until
    they meet) adds the least area. Rounded or clipped grid corners come out sharp.
    """
    poly = np.asarray(hull, dtype=np.float64)
    area = 0.5 * float(np.sum(_cross(poly, np.roll(poly, -1, axis=0))))
    if area < 0:
        poly = poly[::-1]
    while len(poly) > 4:
        a = np.roll(poly, 1, axis=0)
        b = poly
        c = np.roll(poly, -1, axis=0)
        d = np.roll(poly, -2, axis=0)
        u, v, bc = b - a, c - d, c - b
        den = _cross(u, v)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = _cross(bc, v) / den
            s = _cross(bc, u) / den
        ok = (np.abs(den) > 1e-9) & (t > 0) & (s > 0)
        t = np.where(ok, t, 0.0)
        p = b + t[:, None] * u
        added = np.where(ok, 0.5 * np.abs(_cross(p - b, bc)), np.inf)
        i = int(np.argmin(added))
        if not np.isfinite(added[i]):
            return None
        j = (i + 1) % len(poly)
        poly = poly.copy()
        poly[i] = p[i]
        poly = np.delete(poly, j, axis=0)
    return poly if len(poly) == 4 else None


def _quad_of_points(pts: npt.NDArray[np.generic]) -> FloatArray | None:
    """Ordered enclosing quadrilateral (4, 2) of a point set (N, 2), or None."""
    hull = cv2.convexHull(np.asarray(pts, dtype=np.float32).reshape(-1, 1, 2))
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.004 * peri, True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 4:
        return None
    quad = _enclosing_quad(poly)
    return None if quad is None else order_corners(quad)


def _cell_holes(mask: UInt8Array, min_cell: float) -> tuple[FloatArray, float] | None:
    """Centres (N, 2) and typical side of the cell-like holes of one ink blob, or None.

    Cells are the blob's holes that are convex-ish, squarish and of the most common
    size; they mark the grid even when text or a page edge touches its border.
    """
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return None
    areas, centres = [], []
    for cnt, (_, _, _, parent) in zip(contours, hier[0], strict=True):
        if parent < 0:
            continue
        mom = cv2.moments(cnt)
        area = mom["m00"]
        if area < min_cell * min_cell:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
        hull_area = cv2.contourArea(cv2.convexHull(cnt))
        if hull_area <= 0 or area / hull_area < 0.7 or max(rw, rh) > 2.0 * max(min(rw, rh), 1):
            continue
        areas.append(area)
        centres.append((mom["m10"] / area, mom["m01"] / area))
    if len(areas) < 7:
        return None
    log_a = np.log(np.array(areas))
    close = np.abs(log_a[:, None] - log_a[None, :]) < np.log(1.7)
    members = np.nonzero(close[int(np.argmax(close.sum(axis=1)))])[0]
    if len(members) < 7:
        return None
    return np.array(centres)[members], float(np.sqrt(np.median(np.exp(log_a[members]))))


def _is_frame(mask: UInt8Array, hull_area: float) -> bool:
    """Whether an ink blob is a frame: one squarish convex hole fills most of its hull."""
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return False
    holes = [cnt for cnt, h in zip(contours, hier[0], strict=True) if h[3] >= 0]
    if not holes:
        return False
    hole = max(holes, key=cv2.contourArea)
    area = cv2.contourArea(hole)
    (_, _), (rw, rh), _ = cv2.minAreaRect(hole)
    return bool(
        area >= _FRAME_FILL * hull_area
        and area >= 0.9 * cv2.contourArea(cv2.convexHull(hole))
        and max(rw, rh) <= 1.5 * min(rw, rh)
    )


def _fit_cell_lattice(centres: FloatArray, size: float) -> list[FloatArray]:
    """Grid quads (4, 2) implied by cell centres lying on a (perspective) lattice.

    Integer cell coordinates are assigned from the central cell outwards, refitting a
    homography as the assigned region grows (so perspective does not accumulate
    rounding errors); holes off the lattice (a box in the text, a stray blob) drop out.
    Returns the quad of the 9 x 9 window holding most cells, or of each window when a
    row or column of cells was not seen (the line profiles decide between them).
    """
    ref = int(np.argmin(np.linalg.norm(centres - np.median(centres, axis=0), axis=1)))
    d = centres - centres[ref]
    dist = np.linalg.norm(d, axis=1)
    nb = d[(dist > 0.5 * size) & (dist < 1.7 * size)]
    if len(nb) == 0:
        return []
    e1 = nb[int(np.argmin(np.linalg.norm(nb, axis=1)))]
    cos = np.abs(nb @ e1) / (np.linalg.norm(nb, axis=1) * np.linalg.norm(e1))
    perp = nb[cos < 0.5]
    e2 = (
        perp[int(np.argmin(np.linalg.norm(perp, axis=1)))]
        if len(perp)
        else np.array([-e1[1], e1[0]])
    )
    # Affine start: image = centre_ref + [e1 e2] @ g.
    hom = np.array([[e1[0], e2[0], centres[ref, 0]], [e1[1], e2[1], centres[ref, 1]], [0, 0, 1.0]])
    gi = np.zeros_like(centres)
    inl = np.zeros(len(centres), dtype=bool)
    for radius in (1.5, 3.5, 6.5, 12.0):
        try:
            inverse = np.linalg.inv(hom)
        except np.linalg.LinAlgError:
            return []  # a degenerate fit (the cells seen on one line): no lattice
        g = cv2.perspectiveTransform(centres[None], inverse)[0]
        gi = np.rint(g)
        inl = (np.linalg.norm(g - gi, axis=1) < 0.3) & (np.abs(gi).max(axis=1) <= radius)
        if inl.sum() < 4:
            return []
        if len(np.unique(gi[inl, 0])) < 2 or len(np.unique(gi[inl, 1])) < 2:
            continue  # collinear so far: keep the affine start
        new, _ = cv2.findHomography(gi[inl], centres[inl], 0)
        if new is None:
            return []
        hom = new
    if inl.sum() < 7:
        return []
    gi = gi[inl].astype(int)
    lo, hi = gi.min(axis=0), gi.max(axis=0)
    # With faint cell lines lost in the threshold, the holes are the nine 3x3 boxes.
    n = 3 if max(hi - lo) < 3 and len(gi) <= 9 else 9
    starts = []
    for axis in (0, 1):
        span = hi[axis] - lo[axis] + 1
        if span >= n:
            # Too wide (neighbouring boxes on the same lattice): the window with most cells.
            counts = [
                np.sum((gi[:, axis] >= a) & (gi[:, axis] < a + n))
                for a in range(lo[axis], hi[axis] - n + 2)
            ]
            starts.append([lo[axis] + int(np.argmax(counts))])
        else:
            # Unseen rows/columns: every window that holds all the seen ones (up to 3).
            opts = list(range(hi[axis] - n + 1, lo[axis] + 1))
            mid = len(opts) // 2
            starts.append(opts[max(0, mid - 1) : mid + 2] if len(opts) > 3 else opts)
    quads = []
    for ax in starts[0]:
        for ay in starts[1]:
            # Cell (0, 0)'s centre is at g = (ax, ay); its outer corner half a cell out.
            box = np.array([[ax, ay], [ax + n, ay], [ax + n, ay + n], [ax, ay + n]], float) - 0.5
            quads.append(order_corners(cv2.perspectiveTransform(box[None], hom)[0]))
    return quads


def _candidates(
    small: UInt8Array,
    *,
    sensitive: bool = False,
    lines_only: bool = False,
    max_blobs: int = _MAX_BLOBS,
) -> list[FloatArray]:
    """Candidate grid quadrilaterals (4, 2), TL TR BR BL, largest first.

    Two kinds per large ink blob: the quad around the blob, and quads fitted to its
    cells. ``sensitive`` thresholds a smoothed copy at a lower contrast, for faint lines.
    ``lines_only`` keeps only the ink of long horizontal or vertical strokes: on crinkled
    newsprint the shadows of the folds join the grid to the text around it, and the
    outline of that blob is not the grid's.
    """
    h, w = small.shape
    block = odd_kernel(min(h, w) / 20)
    src = cv2.GaussianBlur(small, (0, 0), 1.0) if sensitive else small
    ink = cv2.adaptiveThreshold(
        src, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 3 if sensitive else 7
    )
    min_side = max(9 * 6.0, 0.1 * min(h, w))
    if lines_only:
        # Half the smallest grid side: a box line is longer, a letter or a fold's shadow
        # across a line shorter.
        n = round(min_side / 2)
        across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, n), np.uint8))
        down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((n, 1), np.uint8))
        ink = cv2.bitwise_or(across, down)
    # Close hairline gaps so a grid with faint thin lines stays one blob.
    ink = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    bw_all, bh_all = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    big = np.nonzero(np.maximum(bw_all, bh_all) >= min_side)[0]
    big = big[big != 0]
    # Rank by the area of the blob's convex hull, not of its bounding box: a line of
    # text on a page turned 45 degrees has a big box but a thin hull.
    big = big[np.argsort(-(bw_all[big] * bh_all[big]))][: max(3 * max_blobs, _SCAN_BLOBS)]
    blobs: list[tuple[float, int, UInt8Array, npt.NDArray[np.int32]]] = []
    for lab in big:
        x, y, bw, bh = (int(v) for v in stats[lab, :4])
        mask = (labels[y : y + bh, x : x + bw] == lab).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        pts = np.concatenate(contours).reshape(-1, 2)
        blobs.append((float(cv2.contourArea(cv2.convexHull(pts))), int(lab), mask, pts))
    blobs.sort(key=lambda b: -b[0])
    quads: list[tuple[float, FloatArray]] = []
    extra = 0
    for rank, (hull, lab, mask, pts) in enumerate(blobs):
        x, y = int(stats[lab, 0]), int(stats[lab, 1])
        cells = _cell_holes(mask, max(4.0, min_side / 12))
        if rank >= max_blobs:
            # A small grid on a page of text is smaller than many paragraphs: beyond the
            # largest blobs, those with a lattice of cells are candidates too, and so
            # are frames (a bold border whose hairline inner lines the threshold lost).
            if (cells is None and not _is_frame(mask, hull)) or extra >= max_blobs:
                continue
            extra += 1
        found = [_quad_of_points(pts)]
        if cells is not None:
            found.extend(_fit_cell_lattice(*cells))
        for quad in found:
            if quad is None:
                continue
            quad = quad + np.array([x, y], dtype=np.float64)
            sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
            if sides.min() < min_side * 0.5 or sides.max() > 4 * sides.min():
                continue
            q_area = 0.5 * abs(float(np.sum(_cross(quad, np.roll(quad, -1, axis=0)))))
            quads.append((q_area, quad))
    quads.sort(key=lambda t: -t[0])
    # Drop near-duplicates (a clean grid gives the same quad both ways).
    kept: list[FloatArray] = []
    for _, quad in quads:
        tol = 0.02 * float(np.linalg.norm(quad[2] - quad[0]))
        if all(np.max(np.linalg.norm(quad - k, axis=1)) > tol for k in kept):
            kept.append(quad)
    return kept


# --------------------------------------------------------------------------------------
# Stage 2: the lattice inside a candidate
# --------------------------------------------------------------------------------------


def _line_maps(sq: UInt8Array, c: int, *, broken: bool) -> tuple[UInt8Array, UInt8Array]:
    """Horizontal- and vertical-line strength images (uint8) of a warped grid square.

    Black-hat keeps dark strokes thinner than a third of a cell (lines, digits, text);
    an opening with a 0.6-cell line then keeps only strokes that long: grid lines.

    With ``broken``, dotted or dashed lines are kept too: the black-hat is first averaged
    along the line direction over ``_DASH_GAP`` of a cell, which fills the gaps between
    dots, and the opening is lengthened by as much, so that a digit stroke stretched by
    the averaging is still shorter than it. (Text rows and sideways digits can survive
    this, so it is only the fallback for grids the plain maps do not find.)
    """
    k = odd_kernel(c / 3)
    dark = cv2.morphologyEx(
        sq, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    length = max(5, round(0.6 * c))
    gap = odd_kernel(_DASH_GAP * c) if broken else 1
    maps = []
    for along in ((1, 0), (0, 1)):  # (x, y) unit step along horizontal, vertical lines
        if gap > 1:
            dark_along = cv2.blur(dark, (1 + (gap - 1) * along[0], 1 + (gap - 1) * along[1]))
        else:
            dark_along = dark
        n = length + gap - 1
        kernel = cv2.getStructuringElement(
            cv2.MORPH_RECT, (1 + (n - 1) * along[0], 1 + (n - 1) * along[1])
        )
        maps.append(np.asarray(cv2.morphologyEx(dark_along, cv2.MORPH_OPEN, kernel), np.uint8))
    return maps[0], maps[1]


def _band_profiles(lines: UInt8Array, c: int, m: int, *, vertical: bool) -> FloatArray:
    """Profiles (N, 11) across the lines, one per band of one cell along the lines.

    ``lines`` holds horizontal lines (bands split its columns) or, with ``vertical``,
    vertical ones (bands split its rows). Band 0 is the cell just before the grid,
    bands 1-9 its cells, band 10 the cell just after it.
    """
    # Band b covers m + (b - 1) * c to m + b * c; integer sums (exact in any order).
    if vertical:
        bands = lines[m - c : m + 10 * c].reshape(11, c, -1).sum(axis=1, dtype=np.int32).T
    else:
        bands = lines[:, m - c : m + 10 * c].reshape(len(lines), 11, c).sum(axis=2, dtype=np.int32)
    prof = bands.astype(np.float64)
    # Light smoothing across the line stabilises the sub-pixel peak.
    return np.asarray(cv2.GaussianBlur(prof, (1, 3), 0), dtype=np.float64)


def _comb_fit(
    profile: FloatArray,
    c: int,
    m: int,
    *,
    teeth: npt.NDArray[np.intp] = _ALL_LINES,
    bent: bool = False,
) -> tuple[float, float, float]:
    """Offset, spacing and bend of the 10-line comb that best fits ``profile`` (N,):
    line ``k`` at ``offset + spacing * k + bend * (k**2 - 9 * k)``.

    Only the lines ``teeth`` of the comb are looked at (the box lines: 0, 3, 6, 9). The
    comb is evenly spaced (bend 0) unless ``bent``: then the cells may widen across it
    with a tilt's perspective, the last up to a tenth wider than the first
    (``_COMB_BEND``). On a tilted phone whose grid has hairlines inside a thin frame, an
    even comb met two of the four bold box lines squarely, and one stretched onto the
    phone's dark edge beside the frame met three (screen-photo 3816). Not on every
    page: the freedom fits other structures (a crumpled frame a cell off, another part
    of a screen), so only where the lattice an even comb gave missed a line.
    """
    n = len(profile)
    # Whole-pixel offsets and ~1% spacing steps: the per-band peaks refine it anyway.
    offs = np.arange(m - 0.6 * c, m + 0.6 * c, 1.0)
    gaps = np.linspace(0.85 * c, 1.15 * c, 24)
    bends = np.linspace(-_COMB_BEND, _COMB_BEND, 5) * c if bent else np.zeros(1)
    k = teeth.astype(np.float64)
    pos = (
        offs[:, None, None, None]
        + gaps[None, :, None, None] * k
        + bends[None, None, :, None] * (k * k - 9.0 * k)
    )
    # Square roots: each line counts, however bold. Otherwise a comb that puts two of its
    # teeth on a bold frame and a third on a text row beyond it outscores the right one
    # on a grid whose inner lines are hairlines.
    root = np.sqrt(np.maximum(profile, 0.0))
    vals = np.interp(pos, np.arange(n), root, left=0.0, right=0.0)
    score = vals.sum(axis=3)
    i, j, b = np.unravel_index(int(np.argmax(score)), score.shape)
    return float(offs[i]), float(gaps[j]), float(bends[b])


def _peaks(
    prof: FloatArray, expected: FloatArray, half: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The peak of each band profile that best matches each expected line position.

    Of the local maxima within ``half`` of the expected position that reach half the
    window's maximum, the nearest wins: a strong edge just outside the grid (a label
    box, a column rule) must not pull the grid's own border line away.

    Parameters
    ----------
    prof : (N, B) array
        Band profiles.
    expected : (L, B) array
        Expected position of each line in each band.
    half : float
        Half-width of the search window.

    Returns
    -------
    pos, strength : (L, B) arrays
        Sub-pixel peak position and its height.
    rise : (L, B, 2) array
        Its height over the profile's level ``2 * half`` before and after it.
    """
    n, nb = prof.shape
    r = int(np.ceil(half))
    offs = np.arange(-r, r + 1)
    idx = np.clip(np.rint(expected)[:, :, None].astype(int) + offs, 1, n - 2)  # (L, B, W)
    cols = np.broadcast_to(np.arange(nb)[None, :, None], idx.shape)
    win = prof[idx, cols]
    is_max = (win >= prof[idx - 1, cols]) & (win >= prof[idx + 1, cols])
    is_max &= win >= 0.5 * win.max(axis=2, keepdims=True)
    dist = np.where(is_max, np.abs(idx - expected[:, :, None]), np.inf)
    best = np.where(np.isfinite(dist).any(axis=2), np.argmin(dist, axis=2), np.argmax(win, axis=2))
    p = np.take_along_axis(idx, best[:, :, None], axis=2)[:, :, 0]
    bcol = np.broadcast_to(np.arange(nb)[None, :], p.shape)
    y0, y1, y2 = prof[p - 1, bcol], prof[p, bcol], prof[p + 1, bcol]
    den = y0 - 2 * y1 + y2
    with np.errstate(divide="ignore", invalid="ignore"):
        sub = np.where(den < 0, 0.5 * (y0 - y2) / den, 0.0)
    pos = p + np.clip(sub, -0.5, 0.5)
    side = round(2 * half)
    lo = prof[np.clip(p - side, 0, n - 1), bcol]
    hi = prof[np.clip(p + side, 0, n - 1), bcol]
    return pos, y1, np.stack([y1 - lo, y1 - hi], axis=-1)


def _triple_weights() -> tuple[npt.NDArray[np.intp], FloatArray]:
    """All band triples (T, 3) and Lagrange weights (T, 9, 3) of their parabola at 0..8."""
    from itertools import combinations

    triples = np.array(list(combinations(range(9), 3)), dtype=np.intp)
    x = np.arange(9.0)
    w = np.empty((len(triples), 9, 3))
    for t, (i, j, k) in enumerate(triples):
        w[t, :, 0] = (x - j) * (x - k) / ((i - j) * (i - k))
        w[t, :, 1] = (x - i) * (x - k) / ((j - i) * (j - k))
        w[t, :, 2] = (x - i) * (x - j) / ((k - i) * (k - j))
    return triples, w


_TRIPLES, _TRIPLE_W = _triple_weights()


def _consistent(pos: FloatArray, ok: npt.NDArray[np.bool_], tol: float) -> npt.NDArray[np.bool_]:
    """Per line (RANSAC over band triples): the detections (L, 9) on one smooth curve.

    A line is a gentle parabola along its bands; detections off the best one (a box
    edge beside the grid, a digit stroke) are dropped. Lines with fewer than 4
    consistent bands are dropped whole.
    """
    yt = pos[:, _TRIPLES]  # (L, T, 3)
    pred = np.einsum("txq,ktq->ktx", _TRIPLE_W, yt)  # (L, T, 9)
    res = np.abs(pred - pos[:, None, :])
    inl = (res < tol) & ok[:, None, :]
    valid = ok[:, _TRIPLES].all(axis=2)  # (L, T)
    score = inl.sum(axis=2) - 0.1 * np.where(inl, (res / tol) ** 2, 0).sum(axis=2)
    score = np.where(valid, score, -1.0)
    best = np.argmax(score, axis=1)
    keep = inl[np.arange(len(pos)), best]
    keep[keep.sum(axis=1) < 4] = False
    return np.asarray(keep, dtype=bool)


def _poly_basis(k: FloatArray, x: FloatArray, deg_k: int, deg_x: int) -> FloatArray:
    """Design matrix (n, (deg_k + 1) * (deg_x + 1)) of the bivariate polynomial in line
    index ``k`` (n,) and position ``x`` (n,): column ``a * (deg_x + 1) + b`` is
    ``k**a * x**b``."""
    k_pow = np.stack([k**a for a in range(deg_k + 1)], axis=-1)
    x_pow = np.stack([x**b for b in range(deg_x + 1)], axis=-1)
    return (k_pow[:, :, None] * x_pow[:, None, :]).reshape(len(k), -1)


def _fit_lines(
    pos: FloatArray,
    ok: npt.NDArray[np.bool_],
    centres: FloatArray,
    c: int,
    m: int,
    *,
    deg_x: int,
    min_lines: int = 6,
    hold_unseen: bool = False,
) -> tuple[FloatArray, float] | None:
    """Smooth model of the 10 lines of one direction from per-band detections.

    Returns coefficients of ``pos = P(k, x)`` (line index k, position x along the
    line, both normalised) and the RMS residual in square pixels, or None when fewer
    than ``min_lines`` lines were seen (the model is cubic in k: at least 4).

    With ``hold_unseen`` (the box lines alone, ``_Mode.boxes``: four lines and a cubic
    in k, so each line's curve is its own) the lattice bends only where it was seen:
    each unseen (line, band), the inner lines' all along, holds the model at weight
    ``_UNSEEN_WEIGHT`` to the straight lines (degree ``_PRIOR_DEG`` along x) fitted to
    the same detections. On crinkled newsprint whose dotted lines show nowhere, the
    unseen top of a box line swung 25 pixels (0.6 of a cell) at the frame, and each
    re-measuring round, seeing through it, swung it further. (With all ten lines
    measured the neighbours hold an unseen stretch, and a curled page's lines are not
    straight at their ends: there the model is left free.)
    """
    kk, bb = np.nonzero(ok)
    if len(kk) < 20 or len(np.unique(kk)) < min_lines:
        return None
    kn = kk / 9.0
    xn = (centres[bb] - m) / (9 * c)
    y = pos[kk, bb]
    a = _poly_basis(kn, xn, 3, deg_x)
    prior: tuple[FloatArray, FloatArray] | None = None
    if hold_unseen and deg_x > _PRIOR_DEG:
        straight, _ = _robust_poly(_poly_basis(kn, xn, 3, _PRIOR_DEG), y, c)
        uk, ub = np.nonzero(~ok)
        if len(uk):
            ukn, uxn = uk / 9.0, (centres[ub] - m) / (9 * c)
            weight = np.sqrt(_UNSEEN_WEIGHT)  # rows scaled by its root: squares weighted
            prior = (
                _poly_basis(ukn, uxn, 3, deg_x) * weight,
                _poly_basis(ukn, uxn, 3, _PRIOR_DEG) @ straight * weight,
            )
    coef, keep = _robust_poly(a, y, c, prior=prior)
    rms = float(np.sqrt(np.mean((a[keep] @ coef - y[keep]) ** 2)))
    return coef, rms


def _robust_poly(
    a: FloatArray,
    y: FloatArray,
    c: int,
    *,
    prior: tuple[FloatArray, FloatArray] | None = None,
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Least-squares coefficients of ``a @ coef = y`` (n, p), refitted without outliers,
    and which of the n rows were kept. ``prior`` (rows (u, p), values (u,), weighted
    already) joins every fit and is never dropped."""
    keep = np.ones(len(y), dtype=bool)
    coef: FloatArray = np.zeros(a.shape[1])
    extra_a, extra_y = prior if prior is not None else (np.zeros((0, a.shape[1])), np.zeros(0))
    for _ in range(3):  # refit without outliers (a digit remnant, a stray line)
        coef = np.asarray(
            np.linalg.lstsq(
                np.concatenate([a[keep], extra_a]), np.concatenate([y[keep], extra_y]), rcond=None
            )[0],
            dtype=np.float64,
        )
        res = np.abs(a @ coef - y)
        thr = max(0.06 * c, 3.0 * robust_sd(res[keep]))
        new_keep = res < thr
        if new_keep.sum() < 20 or np.array_equal(new_keep, keep):
            break
        keep = new_keep
    return coef, keep


def _eval_lines(
    coef: FloatArray, k: FloatArray, x: FloatArray, c: int, m: int, deg_x: int
) -> FloatArray:
    xn = (x - m) / (9 * c)
    return np.asarray(_poly_basis(k / 9.0, xn, 3, deg_x) @ coef, dtype=np.float64)


def _hat_weights(t: FloatArray) -> FloatArray:
    """Weights (n, 10) of lattice lines 0..9 for piecewise-linear interpolation at ``t`` (n,).

    Outside [0, 9] the first/last cell is extended linearly.
    """
    j0 = np.clip(np.floor(t), 0, 8).astype(np.intp)
    f = t - j0
    w = np.zeros((len(t), 10))
    rows = np.arange(len(t))
    w[rows, j0] = 1.0 - f
    w[rows, j0 + 1] = f
    return w


def lattice_at(lattice: FloatArray, u: FloatArray, v: FloatArray) -> FloatArray:
    """Image points (n, 2) at grid coordinates ``(u, v)`` (n,), bilinear within each cell.

    Cell edges map to the straight segments between lattice points, so grid lines stay
    where the lattice puts them.
    """
    # The hat weights' two nonzero ones per axis, gathered (the dense (n, 10, 10)
    # product spent most of its time on zeros).
    i = np.clip(np.floor(v), 0, 8).astype(np.intp)
    j = np.clip(np.floor(u), 0, 8).astype(np.intp)
    fv, fu = (v - i)[:, None], (u - j)[:, None]
    lat = np.asarray(lattice, dtype=np.float64)
    top = lat[i, j] * (1.0 - fu) + lat[i, j + 1] * fu
    bottom = lat[i + 1, j] * (1.0 - fu) + lat[i + 1, j + 1] * fu
    return np.asarray(top * (1.0 - fv) + bottom * fv, dtype=np.float64)


def _square_maps(lattice: FloatArray, c: int, m: int, size: int) -> npt.NDArray[np.float32]:
    """Dense map (size, size, 2) from the square (line k at m + k*c) into the image.

    Piecewise bilinear in the lattice, which is separable: map = W @ lattice @ W.T with
    hat-function weights W (size, 10). (einsum, not BLAS: a threaded BLAS can stall for
    milliseconds on such tiny products on a busy machine.)
    """
    w = _hat_weights((np.arange(size, dtype=np.float64) - m) / c).astype(np.float32)
    half_map = np.einsum("ijd,bj->ibd", lattice.astype(np.float32), w)  # (10, size, 2)
    return np.asarray(np.einsum("ai,ibd->abd", w, half_map), dtype=np.float32)


class _Measurement(NamedTuple):
    """What :func:`_measure` saw through a lattice."""

    lattice: FloatArray  # (10, 10, 2), re-measured, in the image's pixels
    share: float  # of (line, band) detections that fit (the lesser of the two directions)
    shift: tuple[int, int]  # whole cells (rows, columns) the lattice should move
    # How far the lines' crossings lie off the smooth model (cells, 90th percentile over
    # the crossings; 0 on a first pass and at the box lines alone): what following the
    # waves would move them.
    waviness: float


def _measure(
    small: UInt8Array,
    lattice: FloatArray,
    c: int,
    *,
    first_pass: bool,
    mode: _Mode = _PLAIN,
    follow_waves: bool = False,
) -> _Measurement | None:
    """Unwarp the grid through ``lattice`` (10, 10, 2) to a square and re-measure it.

    The square has line ``k`` at ``m + k * c`` when the lattice is right; the measured
    deviations become the new lattice. With ``follow_waves`` each crossing moves on to
    where its two lines were seen beside it, off their smooth curves (crumpled paper);
    that is a last step, never iterated (a corner with little to see would drift).

    Returns
    -------
    _Measurement or None
        The re-measured lattice in ``small``'s pixels, its share, its shift and its
        waviness; None where too few lines were seen. A shift is the whole cells the
        lattice should move: a full line just beyond one outer line while the opposite
        outer line is missing means the comb is off by one (it matched 9 grid lines and
        a blank).
    """
    m = round(1.5 * c)  # room to look at the lines just outside the grid
    size = 9 * c + 2 * m
    maps = _square_maps(lattice, c, m, size)
    sq = np.asarray(
        cv2.remap(
            small, maps[:, :, 0], maps[:, :, 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        ),
        np.uint8,
    )
    h, w = small.shape
    if maps.min() < 0 or maps[:, :, 0].max() > w - 1 or maps[:, :, 1].max() > h - 1:
        # Outside the photo there is nothing to see: no line may be found there.
        inside = cv2.inRange(maps, (-0.5, -0.5), (w - 0.5, h - 0.5)) > 0
    else:
        inside = None
    hor, ver = _line_maps(sq, c, broken=mode.broken)
    if inside is not None:
        hor[~inside] = 0
        ver[~inside] = 0
    prof_h = _band_profiles(hor, c, m, vertical=False)  # (N, 11): bands along x
    prof_v = _band_profiles(ver, c, m, vertical=True)  # (N, 11): bands along y
    centres = np.asarray(m + c * (np.arange(-1, 10) + 0.5), dtype=np.float64)
    coefs: list[FloatArray] = []
    shares: list[float] = []
    shift = [0, 0]
    by_boxes = [0, 0]  # the same, told by the box lines' weights
    held = [False, False]  # the box lines' weights say the lattice is where it should be
    wave: list[FloatArray | None] = [None, None]  # per axis: (line, band) off the model
    deg = 2 if first_pass else _DEG_X  # a bowed page is not straight even at first
    lines = np.arange(-1.0, 11.0)  # the grid's 10 lines and one beyond each side
    for axis, prof in enumerate((prof_h, prof_v)):
        if first_pass:
            # Where is an evenly spaced 10-line comb? This absorbs a quad that is off by
            # a fraction of a cell (text or a shadow touching the grid).
            teeth = _BOX_LINES if mode.boxes else _ALL_LINES
            off, gap, bend = _comb_fit(prof[:, 1:10].sum(axis=1), c, m, teeth=teeth, bent=mode.bent)
            comb = off + gap * lines + bend * (lines * lines - 9.0 * lines)
            expected = np.broadcast_to(comb[:, None], (12, 11))
            half = 0.3 * gap
        else:
            expected = np.broadcast_to((m + c * lines)[:, None], (12, 11))
            half = 0.3 * c
        pos, strength, rise = _peaks(prof, np.asarray(expected, dtype=np.float64), half)
        # A line stands out of the profile on both sides; the grid's frame need only
        # stand out inwards (a phone's bezel or a box's edge may lie just outside).
        contrast = rise.min(axis=2)
        contrast[1], contrast[10] = rise[1, :, 1], rise[10, :, 0]
        # A line is found where its peak stands out of the profile around it and is not
        # much weaker than the typical line (thin grey lines are weaker than the border).
        counted = 1 + (_BOX_LINES if mode.boxes else _ALL_LINES)  # rows of the grid's lines
        typical = float(np.median(strength[counted, 1:10]))
        det = (contrast > 0.35 * strength) & (strength > 0.15 * typical) & (strength > 3.0 * c)
        ok = _consistent(pos[1:11, 1:10], det[1:11, 1:10], (0.1 if first_pass else 0.07) * c)
        if mode.boxes:
            ok[np.setdiff1d(np.arange(10), _BOX_LINES)] = False  # interpolated, not seen
        fit = _fit_lines(
            pos[1:11, 1:10],
            ok,
            centres[1:10],
            c,
            m,
            deg_x=deg,
            min_lines=4 if mode.boxes else 6,
            hold_unseen=mode.boxes,
        )
        if fit is None:
            return None
        shares.append(float(ok[counted - 1].mean()) if fit[1] <= 0.12 * c else 0.0)
        coefs.append(fit[0])
        if mode.boxes:
            continue  # a box off by a cell would be the comb's error, not a shifted grid
        # Off by a cell, told by the lines' weights: where a grid's box lines stand out,
        # they are the lattice's 0, 3, 6 and 9; every third line from another one
        # standing out as much means the comb is a cell off (dotted inner lines past
        # the outer line may be too faint for the test below to see them carry on).
        # Not on the first pass: its comb is still finding the lines, and its shift is
        # taken without the refined lattice's check of the ink on its lines.
        if not first_pass:
            seen_lines = np.median(np.where(det, strength, 0.0)[1:11, 1:10], axis=1)
            thirds = [float(np.median(seen_lines[k::3])) for k in range(3)]
            if thirds[2] > _BOX_SHIFT * max(thirds[0], thirds[1]):
                by_boxes[axis] = -1
            elif thirds[1] > _BOX_SHIFT * max(thirds[0], thirds[2]):
                by_boxes[axis] = 1
            held[axis] = thirds[0] > _BOX_SHIFT * max(thirds[1], thirds[2])
        # Off by a cell? The perpendicular lines end at the grid's border: if these
        # lines carry on through the cell beyond one end while the cell at the other
        # end has none, the lattice must move over (the "lines" of a text column beside
        # the grid rarely line up with the grid's own lines).
        kk, xx = np.meshgrid(np.arange(10.0), centres, indexing="ij")
        model = _eval_lines(fit[0], kk.ravel(), xx.ravel(), c, m, deg).reshape(10, 11)
        if not first_pass:
            # What the smooth model misses, line by line: crumpled paper waves faster
            # than any low-degree curve. Detections near the model are kept as offsets.
            offset = pos[1:11] - model
            near = det[1:11] & (np.abs(offset) < _WAVE * c)
            near[:, [0, 10]] = False  # beyond the grid the "line" is text or a shadow
            wave[axis] = np.where(near, offset, np.nan)
        cover = (det[1:11] & (np.abs(pos[1:11] - model) < 0.12 * c)).sum(axis=0)
        other = 1 - axis  # horizontal lines across column bands tell the column shift
        if cover[10] >= 7 and cover[10] - cover[1] >= 4:
            shift[other] = 1
        elif cover[0] >= 7 and cover[0] - cover[9] >= 4:
            shift[other] = -1
    coef_h, coef_v = coefs
    # Bold box lines where the lattice's 0, 3, 6 and 9 lie hold it there: the text beside
    # a crinkled grid can line up with its lines for a while (stress newsprint-crinkled
    # 5533: the lattice moved a column into the text, and asked to move back).
    shift = [
        by_box if by_box or keep else way
        for way, by_box, keep in zip(shift, by_boxes, held, strict=True)
    ]
    ii, jj = np.meshgrid(np.arange(10.0), np.arange(10.0), indexing="ij")
    waviness = 0.0
    if wave[0] is not None and wave[1] is not None:
        # Line j runs between cells j-1 and j: the offsets seen in the bands either side.
        across = _crossing_offsets(wave[1]).T.ravel() / c  # vertical lines: along x
        down = _crossing_offsets(wave[0]).ravel() / c
        waviness = float(np.percentile(np.hypot(across, down), 90))
        if follow_waves:
            # Added to the lattice as it came (this measurement's smooth model may differ
            # from the one it converged to, most at a corner with little to see).
            moved = lattice_at(lattice, jj.ravel() + across, ii.ravel() + down)
            return _Measurement(
                moved.reshape(10, 10, 2), min(shares), (shift[0], shift[1]), waviness
            )
    # Intersections: y on horizontal line i at x, x on vertical line j at y; iterate.
    xs = m + c * jj.ravel()
    ys = m + c * ii.ravel()
    for _ in range(4):
        # Clamped to the square so a wild fit cannot diverge (the drift test rejects it).
        ys = np.clip(_eval_lines(coef_h, ii.ravel(), xs, c, m, deg), 0, size)
        xs = np.clip(_eval_lines(coef_v, jj.ravel(), ys, c, m, deg), 0, size)
    drift = np.maximum(np.abs(xs - m - c * jj.ravel()), np.abs(ys - m - c * ii.ravel()))
    if not np.all(np.isfinite(drift)) or drift.max() > 1.5 * c:
        return None  # a wild fit (too few lines seen): not a measurement
    pts = lattice_at(lattice, (xs - m) / c, (ys - m) / c)
    return _Measurement(pts.reshape(10, 10, 2), min(shares), (shift[0], shift[1]), waviness)


def _ink_on_lines(gray: UInt8Array, lattice: FloatArray) -> float:
    """Mean darkness (0..255) along the lattice's 180 cell edges, 8 samples each."""
    t = (np.arange(8) + 0.5) / 8
    rows = lattice[:, :-1, None] + t[:, None] * (lattice[:, 1:, None] - lattice[:, :-1, None])
    cols = lattice[:-1, :, None] + t[:, None] * (lattice[1:, :, None] - lattice[:-1, :, None])
    pts = np.concatenate([rows.reshape(-1, 2), cols.reshape(-1, 2)]).astype(np.float32)
    values = cv2.remap(gray, pts[:, 0:1], pts[:, 1:2], cv2.INTER_LINEAR, borderValue=255)
    return 255.0 - float(np.mean(values))


def _crossing_offsets(wave: FloatArray) -> FloatArray:
    """Offsets (10, 10) of lines 0..9 where they cross the other direction's lines 0..9.

    ``wave`` (10, 11) holds each line's measured offset from its smooth model in the
    bands around the grid (band b is cell b-1; NaN: not seen); a crossing takes the mean
    of the two bands beside it, 0 where neither saw the line.
    """
    pair = np.stack([wave[:, :10], wave[:, 1:]], axis=-1)
    seen = np.isfinite(pair)
    total = np.where(seen, pair, 0.0).sum(axis=-1)
    count = seen.sum(axis=-1)
    return np.asarray(np.where(count > 0, total / np.maximum(count, 1), 0.0), dtype=np.float64)


def shifted_lattice(lattice: FloatArray, rows: int, cols: int) -> FloatArray:
    """The lattice (10, 10, 2) moved by whole cells, extrapolating beyond its edge."""
    jj, ii = np.meshgrid(np.arange(10.0) + cols, np.arange(10.0) + rows)
    return lattice_at(lattice, jj.ravel(), ii.ravel()).reshape(10, 10, 2)


def _flat_lattice(points: FloatArray) -> FloatArray | None:
    """The flat (single homography) lattice (10, 10, 2) closest to ``points`` (10, 10, 2)."""
    grid = np.stack(np.meshgrid(np.arange(10.0), np.arange(10.0)), axis=-1).reshape(-1, 2)
    hom, _ = cv2.findHomography(grid, points.reshape(-1, 2), 0)
    if hom is None:
        return None
    return np.asarray(cv2.perspectiveTransform(grid[None], hom)[0], dtype=np.float64).reshape(
        10, 10, 2
    )


def _refine(
    small: UInt8Array, flat: FloatArray, c: int, cell: float, *, mode: _Mode = _PLAIN
) -> tuple[FloatArray, float, tuple[int, int], bool]:
    """Re-measure through the current lattice until it stops moving.

    Each round unbends the page a little more, so lines too curved to see at first
    become straight. Returns the lattice, its share, the last suggested shift and
    whether its crossings were moved on to follow the lines' waves (crumpled paper).
    """
    lat, share, shift = flat, 0.0, (0, 0)
    rounds: list[tuple[float, _Measurement]] = []
    for _ in range(_MAX_ROUNDS):
        nxt = _measure(small, lat, c, first_pass=False, mode=mode)
        if nxt is None or nxt.share < _REFINE_MIN_SCORE:
            break
        moved = float(np.max(np.linalg.norm(nxt.lattice - lat, axis=2)))
        lat, share, shift = nxt.lattice, nxt.share, nxt.shift
        rounds.append((_ink_on_lines(small, lat), nxt))
        if moved < 0.03 * cell:
            break
    waviness = 0.0
    if rounds:
        # Re-measuring through its own lattice can drift at an edge, a little more each
        # round (on crumpled paper a digit's stroke beside the frame is taken for the
        # wavy line): of the rounds, the lattice whose lines lie on the most ink.
        chosen = max(rounds, key=lambda r: r[0])[1]
        lat, share, shift, waviness = chosen
    if share >= _REFINE_MIN_SCORE and not mode.boxes and waviness >= _MAYBE_WAVY:
        # Kept only on a wavy page (a tenth of the crossings move by _WAVY or more; a
        # flat one keeps its smooth lattice) and where its lines lie on more ink: on a
        # screen's moire or faint thin lines the offsets are noise.
        waved = _measure(small, lat, c, first_pass=False, mode=mode, follow_waves=True)
        if (
            waved is not None
            and waved.share >= _REFINE_MIN_SCORE
            and np.percentile(np.linalg.norm(waved.lattice - lat, axis=2), 90) >= _WAVY * cell
            and _ink_on_lines(small, waved.lattice) > _WAVE_GAIN * _ink_on_lines(small, lat)
        ):
            return waved.lattice, share, shift, True
    return lat, share, shift, False


# The grid's corners: (row, column) of the crossing and the steps into the grid.
_CORNERS = ((0, 0, 1, 1), (0, 9, 1, -1), (9, 0, -1, 1), (9, 9, -1, -1))
_CORNER_REACH = 0.3  # cells a corner may move from the parallelogram of its neighbours
_CORNER_GAIN = 1.25  # how much more ink its two frame edges must find there
_CORNER_WALKS = 3  # windows a corner found at the edge of its window may walk on through


def _frame_ink(gray: UInt8Array, corner: FloatArray, ends: FloatArray) -> FloatArray:
    """Mean darkness (K,) along the two edges from each of ``corner`` (K, 2) to
    ``ends`` (2, 2), 8 samples an edge (outside the image counts as paper)."""
    t = (np.arange(8) + 0.5) / 8
    span = ends[None] - corner[:, None]  # (K, 2 edges, 2)
    pts = corner[:, None, None] + t[None, None, :, None] * span[:, :, None]
    flat = pts.reshape(-1, 2).astype(np.float32)
    values = cv2.remap(gray, flat[:, 0:1], flat[:, 1:2], cv2.INTER_LINEAR, borderValue=255)
    return np.asarray(255.0 - values.reshape(len(corner), -1).mean(axis=1), dtype=np.float64)


def _settle_corners(gray: UInt8Array, lattice: FloatArray, cell: float) -> FloatArray:
    """The lattice (10, 10, 2) with each of the grid's four corner crossings moved to
    where its two frame edges lie on the most ink, when that is clearly more
    (``_CORNER_GAIN``); ``gray`` is the image it is in, ``cell`` its cell size there.

    On crumpled paper the frame bends hardest at the corners, where the lines' smooth
    curves are extrapolated and no wave is seen beyond: a corner came out up to 0.7 of
    a cell off, in the paper outside the frame, and its cell read the frame as a digit.
    The corner is looked for within ``_CORNER_REACH`` of the parallelogram its three
    neighbours make (each edge from it to its neighbour along the frame should be
    frame). Done once, on every refined lattice as it is final (a corner already on its
    frame finds no more ink elsewhere and stays): settled inside the re-measuring, a
    corner changed how the lines beside it were seen, and two pages read right before
    were refused.

    A corner found at the edge of its window walks on, a window at a time (at most
    ``_CORNER_WALKS``), while the next window finds more ink: where crumpled paper
    curls the frame's last cell inwards, the smooth lines put the corner a cell out in
    the text beside the grid, and one window brought it only part of the way back (the
    frame then ran through the corner cell, read as a 1). Not a corner the lattice puts
    outside the image: its frame is not in the photo, and the walk would go on to the
    next line in (a grid whose top row the photo cuts through lost its corner cell).
    """
    out = lattice.copy()
    steps = np.linspace(-_CORNER_REACH, _CORNER_REACH, 13) * cell
    dx, dy = np.meshgrid(steps, steps)
    offsets = np.stack([dx.ravel(), dy.ravel()], axis=1)
    rim = np.max(np.abs(offsets), axis=1) >= _CORNER_REACH * cell - 1e-9
    h, w = gray.shape[:2]
    for i, j, di, dj in _CORNERS:
        ends = np.stack([lattice[i, j + dj], lattice[i + di, j]])
        centre = ends[0] + ends[1] - lattice[i + di, j + dj]
        ink = _frame_ink(gray, np.vstack([lattice[i, j], centre + offsets]), ends)
        # As it is first; then each window must beat the last one's best.
        need = _CORNER_GAIN * ink[0]
        x, y = lattice[i, j]
        walks = _CORNER_WALKS if 0 <= x <= w - 1 and 0 <= y <= h - 1 else 1
        for _ in range(walks):
            best = int(np.argmax(ink[1:]))
            if float(ink[1 + best]) <= need:
                break
            centre = centre + offsets[best]
            out[i, j], need = centre, float(ink[1 + best])
            if not rim[best]:
                break
            ink = _frame_ink(gray, np.vstack([centre, centre + offsets]), ends)
    return out


# The frame's inner crossings (32, 4): row and column of each, and the step (rows,
# columns) to its inner neighbour.
_FRAME_CROSSINGS = np.array(
    [(0, k, 1, 0) for k in range(1, 9)]
    + [(9, k, -1, 0) for k in range(1, 9)]
    + [(k, 0, 0, 1) for k in range(1, 9)]
    + [(k, 9, 0, -1) for k in range(1, 9)],
    dtype=np.intp,
)
_FRAME_REACH = 0.5  # cells a crossing may move onto or along the frame
# A crossing is looked at only where its line runs less surely than this share of the
# median crossing's, or than _FRAME_RIDGE (``_edge_ridge``) ...
_FRAME_SUSPECT = 0.8
_FRAME_GAIN = 1.25  # ... and moves where a line runs this much more surely ...
_FRAME_RIDGE = 30.0  # ... and at least this much darker than the paper beside it (grey levels)


def _unit(v: FloatArray) -> FloatArray:
    """Unit vectors (..., 2) along ``v`` (..., 2)."""
    return np.asarray(v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-9))


def _edge_ridge(gray: UInt8Array, starts: FloatArray, ends: FloatArray, cell: float) -> FloatArray:
    """How surely a line runs along each segment from ``starts`` (..., 2) to ``ends``
    (..., 2), shape (...): the lower quartile, over 12 points along it, of the darkness
    there less the darker of the two points a fifth of a cell to either side (outside
    the image counts as paper). A line is darker than the paper beside it all along; a
    digit's stroke crosses the segment at a few points, and a crease's shadow is as
    dark beside it."""
    shape = np.broadcast_shapes(starts.shape, ends.shape)[:-1]
    starts = np.broadcast_to(starts, (*shape, 2)).reshape(-1, 2)
    span = np.broadcast_to(ends, (*shape, 2)).reshape(-1, 2) - starts
    normal = 0.2 * cell * _unit(np.stack([-span[:, 1], span[:, 0]], axis=1))
    t = (np.arange(12) + 0.5) / 12
    on = starts[:, None] + t[None, :, None] * span[:, None]  # (K, 12, 2)
    pts = np.stack([on, on + normal[:, None], on - normal[:, None]])  # (3, K, 12, 2)
    flat = pts.reshape(-1, 2).astype(np.float32)
    values = cv2.remap(gray, flat[:, 0:1], flat[:, 1:2], cv2.INTER_LINEAR, borderValue=255)
    dark = 255.0 - values.reshape(3, len(starts), 12).astype(np.float64)
    ridge = dark[0] - np.maximum(dark[1], dark[2])
    # The 3rd and 4th lowest of 12 (numpy's linear quartile: index 2.75).
    low = np.partition(ridge, 3, axis=1)
    return np.asarray(0.25 * low[:, 2] + 0.75 * low[:, 3], dtype=np.float64).reshape(shape)


def _frame_directions(lattice: FloatArray) -> FloatArray:
    """Unit vectors (32, 2) along the frame at its inner crossings (``_FRAME_CROSSINGS``),
    each from the two nearest other crossings on its side but the corners (whose curves
    swing the most)."""
    out = np.empty((len(_FRAME_CROSSINGS), 2))
    for n, (i, j, di, _) in enumerate(_FRAME_CROSSINGS):
        k = j if di else i
        a, b = (2, 3) if k == 1 else (6, 7) if k == 8 else (k - 1, k + 1)
        out[n] = lattice[i, b] - lattice[i, a] if di else lattice[b, j] - lattice[a, j]
    return _unit(out)


def _suspects(ridge: FloatArray) -> npt.NDArray[np.intp]:
    """Which crossings (of ``ridge`` (32,), how surely each one's line runs as the
    lattice has it) are worth a search: those clearly less sure than the median."""
    return np.flatnonzero(ridge < max(_FRAME_SUSPECT * float(np.median(ridge)), _FRAME_RIDGE))


def _onto_frame(gray: UInt8Array, lattice: FloatArray, cell: float) -> FloatArray:
    """The lattice (10, 10, 2) with a crossing of an inner line with the frame moved
    along that line onto the frame, where the frame runs through it clearly more surely
    (``_edge_ridge`` of a stretch of frame 0.7 of a cell long through it, turned up to
    15 degrees either way), within ``_FRAME_REACH``.

    The frame's curves are extrapolated past its last measured band, and at a corner a
    line's curve can swing: on a crumpled page the left frame's crossings near the top
    came out a fifth of a cell inside the frame, the corner two thirds of a cell off
    along the top, and the corner's search (``_settle_corners``), which asks the frame
    to run from it to those two crossings, found no frame there.
    """
    i, j, di, dj = _FRAME_CROSSINGS.T
    at, along = lattice[i, j], _frame_directions(lattice)
    half = 0.35 * cell * along
    suspects = _suspects(_edge_ridge(gray, at - half, at + half, cell))
    if not len(suspects):
        return lattice
    out = lattice.copy()
    steps = np.linspace(-_FRAME_REACH, _FRAME_REACH, 17) * cell
    turns = np.radians(np.linspace(-15.0, 15.0, 5))
    cos, sin = np.cos(turns)[:, None], np.sin(turns)[:, None]
    for n in suspects:
        inner = _unit(lattice[i[n] + di[n], j[n] + dj[n]] - at[n])
        ux, uy = half[n]
        turned = np.concatenate([ux * cos - uy * sin, ux * sin + uy * cos], axis=1)  # (5, 2)
        places = np.vstack([at[n], at[n] + steps[:, None] * inner])  # (18, 2)
        ridge = _edge_ridge(gray, places[:, None] - turned, places[:, None] + turned, cell)
        best = ridge[1:].max(axis=1)
        pick = int(np.argmax(best))
        # As it is: along the frame as the lattice has it (no turn).
        if best[pick] > max(_FRAME_GAIN * ridge[0, len(turns) // 2], _FRAME_RIDGE):
            out[i[n], j[n]] = places[1 + pick]
    return out


def _settle_frame_crossings(gray: UInt8Array, lattice: FloatArray, cell: float) -> FloatArray:
    """The lattice (10, 10, 2) with a crossing of an inner line with the frame slid
    along the frame to where its line runs into the grid clearly more surely
    (``_edge_ridge``), within ``_FRAME_REACH``.

    The lines' curves are measured in bands at the cells' middles; on crumpled paper a
    line can bend hard in the half cell before it meets the frame, and the crossing
    there is extrapolated: a box line came out a third of a cell off at the frame, ran
    through the first cell it bounds, and was read as a 1. The line is looked for as
    two strokes, from each place along the frame to each place beside the cell edge's
    midpoint (within half the reach), and on from there to each place beside the
    edge's inner crossing (within a third of it, which may be a little off too), the
    lesser of the two counting: its slant near the frame is not the lattice's, and a
    digit's stroke beside the line, however bold, does not run on to the next crossing.
    """
    i, j, di, dj = _FRAME_CROSSINGS.T
    at, inner = lattice[i, j], lattice[i + di, j + dj]
    middle = 0.5 * (at + inner)
    now = np.minimum(_edge_ridge(gray, at, middle, cell), _edge_ridge(gray, middle, inner, cell))
    suspects = _suspects(now)
    if not len(suspects):
        return lattice
    out = lattice.copy()
    along = _frame_directions(lattice)
    reach = _FRAME_REACH * cell
    slide = np.linspace(-reach, reach, 17)[:, None, None, None]
    swing = np.linspace(-0.5 * reach, 0.5 * reach, 9)[None, :, None, None]
    give = np.linspace(-0.3 * reach, 0.3 * reach, 5)[None, None, :, None]
    for n in suspects:
        starts = at[n] + slide * along[n]
        middles = middle[n] + swing * along[n]
        ends = inner[n] + give * along[n]
        ridge = np.minimum(
            _edge_ridge(gray, starts, middles, cell), _edge_ridge(gray, middles, ends, cell)
        )
        best = np.unravel_index(int(np.argmax(ridge)), ridge.shape)
        if ridge[best] > max(_FRAME_GAIN * now[n], _FRAME_RIDGE):
            out[i[n], j[n]] = starts[best[0], 0, 0]
    return out


class _Measured(NamedTuple):
    """A candidate's lattice as :func:`_fit_candidate` measured it."""

    lattice: FloatArray  # (10, 10, 2), in the working copy's pixels
    refined: bool  # the curved lattice (False: the flat 4-corner fallback)
    score: float
    fine: bool  # measured on a crop of the input at ~_FINE_CELL px cells
    mode: _Mode
    wavy: bool  # its crossings follow its lines' waves (``_refine``)


def _fit_candidate(
    img: UInt8Array,
    small: UInt8Array,
    scale: float,
    quad: FloatArray,
    *,
    boxes: bool = False,
    bent: bool = False,
) -> _Measured | None:
    """:func:`_fit_grid` on the best copy for the candidate ``quad`` (in ``small``'s pixels).

    A grid that is small in the working copy (a page photographed whole, a phone
    screen in a room) has cells of a dozen pixels there: hairline or faint lines are
    averaged away and bold digits look like line fragments. Such a candidate is
    measured on a crop of the input reduced only to ~``_FINE_CELL`` px cells.

    A grid that does not fit well with the plain line maps is measured again with the
    ones that keep dotted lines; the better score wins. With ``boxes`` only the box
    lines are measured (see :func:`_collect_fits`). A fallback's fit counts only when
    it scores at least ``_FALLBACK_MIN_SCORE``. With ``bent`` the first pass's comb may
    bend (``_comb_fit``).
    """
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    cell = side / 9
    fine = scale < 1.0 and cell < 0.9 * _FINE_CELL
    src, q, f, origin = small, quad, 1.0, np.zeros(2)
    if fine:
        full = (quad + 0.5) / scale - 0.5
        f = min(1.0, _FINE_CELL * scale / cell)
        # Room for the comb to slide and for the lines looked at beyond the grid.
        margin = 3.0 * cell / scale
        h, w = img.shape
        x0, y0 = (max(0, int(v)) for v in np.floor(full.min(axis=0) - margin))
        x1, y1 = np.ceil(full.max(axis=0) + margin)
        src = img[y0 : min(int(y1), h), x0 : min(int(x1), w)]
        if f < 1.0:
            src = np.asarray(
                cv2.resize(src, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), np.uint8
            )
        origin = np.array([x0, y0], dtype=np.float64)
        q = (full - origin + 0.5) * f - 0.5
    best: _Measured | None = None
    modes = (
        (_Mode(boxes=True, bent=bent),)
        if boxes
        else (_Mode(bent=bent), _Mode(broken=True, bent=bent))
    )
    for mode in modes:
        if best is not None and best.score >= _GOOD_SCORE:
            break
        fit = _fit_grid(src, q, mode=mode)
        if fit is None or (best is not None and fit[2] <= best.score):
            continue
        if (mode.broken or mode.boxes) and fit[2] < _FALLBACK_MIN_SCORE:
            continue
        lat = fit[0]
        if fine:
            lat = ((lat + 0.5) / f - 0.5 + origin + 0.5) * scale - 0.5
        best = _Measured(lat, fit[1], fit[2], fine, mode, fit[3])
    return best


def _fit_grid(
    small: UInt8Array, quad: FloatArray, *, mode: _Mode = _PLAIN
) -> tuple[FloatArray, bool, float, bool] | None:
    """Lattice (10, 10, 2) of the grid in ``quad``, whether refined, its score and whether
    its crossings follow its lines' waves (``_refine``); or None."""
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    cell = side / 9
    c = int(np.clip(round(cell), 24, 40))
    try:
        start = GridGeometry.from_corners(quad, (small.shape[1], small.shape[0])).lattice
    except ValueError:
        return None  # a candidate outline flattened to a line (stress newsprint-crinkled 4655)
    first = _measure(small, start, c, first_pass=True, mode=mode)
    if first is None or first.share < _COMB_MIN_SCORE:
        return None
    flat = _flat_lattice(first.lattice)
    if flat is None:
        return None
    if first.shift != (0, 0):
        moved = _flat_lattice(shifted_lattice(flat, *first.shift))
        flat = flat if moved is None else moved
    lat, share, shift, wavy = _refine(small, flat, c, cell, mode=mode)
    ink = _ink_on_lines(small, lat) if shift != (0, 0) else 0.0
    for _ in range(_MAX_MOVES):
        if shift == (0, 0):
            break
        # Off by one cell: try the lattice moved over, keep it if it fits at least as well.
        moved_flat = _flat_lattice(shifted_lattice(lat, *shift))
        if moved_flat is None:
            break
        lat2, share2, shift, wavy2 = _refine(small, moved_flat, c, cell, mode=mode)
        # The one whose lines lie on more ink: a comb off by a cell puts a line on
        # the blank (or the text) beyond the frame.
        ink2 = _ink_on_lines(small, lat2)
        if ink2 <= ink:
            break
        flat, lat, share, wavy, ink = moved_flat, lat2, share2, wavy2, ink2
    # Sanity: a bent page may move lines from the flat lattice, but not by a cell.
    if share < _REFINE_MIN_SCORE or float(np.max(np.linalg.norm(lat - flat, axis=2))) > cell:
        return flat, False, 0.8 * max(first.share, share), False
    return lat, True, share, wavy
