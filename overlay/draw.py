"""Write the solved digits into the photo, in the photo's own perspective.

Each digit is rendered flat (Pillow, anti-aliased, shipped font) as an alpha tile that
stands for its cell in grid coordinates, then warped into the photo through that cell's
own homography (so a bent page bends the digits with it) on the cell's bounding-box ROI,
and blended in its technique family's colour, with the technique's code in a tab in the
cell's corner (a badge). Only one channel is warped per tile and glyphs are cached, so
a full photo takes a few milliseconds.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw

from scanner.geometry import GridGeometry
from solver.check import EntryCheck
from solver.solve import SolveResult

from .legend import (
    DASH_SHARE,
    DASHES,
    MISTAKE_COLOUR,
    STRIP_MIN_FONT_PX,
    UNCLEAR_COLOUR,
    Box,
    LegendEntry,
    bgr,
    draw_legend,
    legend_entries,
    legend_strip,
    load_font,
    solved_cells,
    technique_code,
    technique_colour,
)

UInt8Array = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]

DIGIT_HEIGHT = 0.68  # ink height of a digit, as a fraction of the cell
# With a technique badge (the default): a filled tab in the family colour in the
# cell's top-left corner, the code knocked out of it in white, the digit smaller below
# and right of it, and a white halo around both so they stay legible on a shadow.
BADGED_DIGIT_HEIGHT = 0.54
BADGE_TEXT_HEIGHT = 0.24  # cap height of the code: ~10 px in a 640x480 photo's cell
BADGE_PAD = 0.045  # the tab's margin around the code
BADGE_INSET = 0.08  # the tab's distance from the cell's edges: the halo stays inside
HALO = 0.04  # the halo's width
HALO_ALPHA = 0.8  # how opaque the halo is: the paper still shows through a little
BADGE_TEXT_COLOUR: tuple[int, int, int] = (255, 255, 255)
# The ring around a wrong entry: its middle line's radius and its width, as fractions of
# the cell (the outer edge stays 0.05 of a cell inside the cell, around a written digit).
RING_RADIUS = 0.405
RING_WIDTH = 0.09


class LegendPlace(StrEnum):
    """Where the legend went."""

    PHOTO = "photo"  # into free space of the photo, beside the grid
    STRIP = "strip"  # into a strip added below the photo (the grid fills the photo)
    NONE = "none"  # nowhere: nothing to list, or no room and the size was to be kept

    @property
    def text(self) -> str:
        """Where the legend went, for the output line."""
        return {
            LegendPlace.PHOTO: "in the photo, beside the grid",
            LegendPlace.STRIP: "in a strip added below the photo (the grid fills it)",
            LegendPlace.NONE: "not drawn",
        }[self]


@dataclass(frozen=True)
class Annotation:
    """What :func:`compose` drew.

    Attributes
    ----------
    image : (H, W, 3) uint8 array
        The annotated photo, BGR.
    cells : tuple of int
        The cells that received a digit.
    legend_box : Box or None
        The pixels of the photo the legend may have changed (None: not in the photo).
    rings : tuple of int
        The cells of wrong entries that were ringed.
    legend_place : LegendPlace
        Where the legend went; with ``STRIP`` the image is taller than the photo.
    """

    image: UInt8Array
    cells: tuple[int, ...]
    legend_box: Box | None
    rings: tuple[int, ...] = ()
    legend_place: LegendPlace = LegendPlace.NONE


@functools.lru_cache(maxsize=4096)
def _glyph(text: str, ink_px: int, bold: bool) -> UInt8Array:
    """Anti-aliased alpha (h, w) of ``text``, cropped to its ink, digits ``ink_px`` tall."""
    # Scale the font so that a digit's ink (cap height, ~0.73 em in DejaVu) is ink_px.
    ref = load_font(100, bold=bold)
    _, top, _, bottom = ref.getbbox("8", anchor="ls")
    em = max(1, round(ink_px * 100 / max(1, bottom - top)))
    font = load_font(em, bold=bold)
    bx0, by0, bx1, by1 = (round(v) for v in font.getbbox(text, anchor="ls"))
    pad = 2
    img = Image.new("L", (bx1 - bx0 + 2 * pad, by1 - by0 + 2 * pad), 0)
    ImageDraw.Draw(img).text((pad - bx0, pad - by0), text, font=font, fill=255, anchor="ls")
    arr = np.asarray(img, dtype=np.uint8)
    ys, xs = np.nonzero(arr)
    if not len(ys):
        return np.zeros((1, 1), np.uint8)
    return np.ascontiguousarray(arr[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _paste_max(tile: UInt8Array, glyph: UInt8Array, cx: float, cy: float) -> None:
    """Put ``glyph`` centred at ``(cx, cy)`` into ``tile`` (max of alphas), cropped."""
    gh, gw = glyph.shape
    x, y = round(cx - gw / 2), round(cy - gh / 2)
    th, tw = tile.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + gw, tw), min(y + gh, th)
    if x0 < x1 and y0 < y1:
        region = tile[y0:y1, x0:x1]
        np.maximum(region, glyph[y0 - y : y1 - y, x0 - x : x1 - x], out=region)


def _frame(tile: UInt8Array) -> UInt8Array:
    """Clear a tile's 1-px border and freeze it (tiles are cached and shared)."""
    # An empty frame: bilinear sampling then never drags ink across the cell edge.
    tile[[0, -1], :] = 0
    tile[:, [0, -1]] = 0
    tile.flags.writeable = False
    return tile


@functools.lru_cache(maxsize=2048)
def cell_tile(digit: int, size: int) -> UInt8Array:
    """The alpha tile (size, size) uint8 of one cell: the digit centred.

    The tile covers the whole cell, grid coordinates ``[0, 1]^2``, so the caller maps it
    with the cell's homography; ink keeps a margin from the edges so nothing leaks
    into neighbouring cells.
    """
    tile = np.zeros((size, size), np.uint8)
    glyph = _glyph(str(digit), max(1, round(DIGIT_HEIGHT * size)), True)
    _paste_max(tile, glyph, 0.5 * size, 0.5 * size)
    return _frame(tile)


@dataclass(frozen=True)
class BadgeTiles:
    """The three alpha tiles (size, size) of a cell with a technique badge, drawn in
    order: ``halo`` in white, ``ink`` (the tab and the digit) in the family colour,
    ``code`` (knocked out of the tab) in ``BADGE_TEXT_COLOUR``."""

    halo: UInt8Array
    ink: UInt8Array
    code: UInt8Array


@functools.lru_cache(maxsize=2048)
def badge_tiles(digit: int, size: int, code: str) -> BadgeTiles:
    """The tiles of a digit with its technique's code in a tab in the top-left corner.

    Like :func:`cell_tile` they cover the whole cell, so the cell's homography draws the
    tab in perspective; everything is sized from the cell, so the code is as legible on
    a 640x480 photo as the cell allows.
    """
    text = _glyph(code, max(1, round(BADGE_TEXT_HEIGHT * size)), True)
    pad, inset = BADGE_PAD * size, BADGE_INSET * size
    # A long code is squeezed to fit the tab within the cell.
    room = size - 2 * inset - 2 * pad
    if text.shape[1] > room:
        squeezed = (max(1, int(room)), text.shape[0])
        text = np.asarray(cv2.resize(text, squeezed, interpolation=cv2.INTER_AREA), np.uint8)
    tab_w, tab_h = text.shape[1] + 2 * pad, text.shape[0] + 2 * pad
    ink = np.zeros((size, size), np.uint8)
    x0, y0 = round(inset), round(inset)
    x1, y1 = round(inset + tab_w), round(inset + tab_h)
    cv2.rectangle(ink, (x0, y0), (x1 - 1, y1 - 1), 255, -1)
    code_tile = np.zeros((size, size), np.uint8)
    _paste_max(code_tile, text, (x0 + x1) / 2, (y0 + y1) / 2)
    # The digit fills the rest: below the tab, nudged right.
    glyph = _glyph(str(digit), max(1, round(BADGED_DIGIT_HEIGHT * size)), True)
    top = y1 + 0.02 * size
    cy = max(0.5 * size, top + glyph.shape[0] / 2)
    cy = min(cy, size - inset - glyph.shape[0] / 2)
    _paste_max(ink, glyph, 0.56 * size, cy)
    width = max(1, round(HALO * size))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1))
    halo = (cv2.dilate(ink, kernel).astype(np.float32) * HALO_ALPHA).astype(np.uint8)
    return BadgeTiles(_frame(halo), _frame(ink), _frame(code_tile))


@functools.lru_cache(maxsize=256)
def ring_tile(size: int, *, dashed: bool = False) -> UInt8Array:
    """The alpha tile (size, size) uint8 of a ring around the middle of a cell.

    Like :func:`cell_tile` it covers the whole cell, so the cell's homography draws it
    in perspective (an ellipse on a tilted page), and it keeps clear of the cell's edges.
    ``dashed``: ``DASHES`` arcs instead of a whole ring (an unclear entry's mark).
    """
    scale = 4  # drawn at 4x and reduced: an anti-aliased ring of any width
    big = np.zeros((size * scale, size * scale), np.uint8)
    centre = (size * scale // 2, size * scale // 2)
    radius = round(RING_RADIUS * size * scale)
    width = max(scale, round(RING_WIDTH * size * scale))
    cv2.circle(big, centre, radius, 255, width, cv2.LINE_8)
    if dashed:  # cut the gaps by angle: square ends (a thick arc's round caps fill them)
        yy, xx = np.mgrid[: big.shape[0], : big.shape[1]]
        turn = (np.arctan2(yy - centre[1], xx - centre[0]) / (2 * np.pi)) % 1.0
        big[(turn * DASHES) % 1.0 >= DASH_SHARE] = 0
    return _frame(np.asarray(cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA), np.uint8))


def _tile_sizes(geometry: GridGeometry) -> npt.NDArray[np.int64]:
    """Tile side per cell (9, 9): about the cell's longest side, on a ~10% size ladder.

    Sampling near 1:1 avoids aliasing; the ladder lets cells of similar size share
    cached tiles.
    """
    lat = geometry.lattice
    horiz = np.linalg.norm(np.diff(lat, axis=1), axis=2)  # (10, 9): top/bottom edges
    vert = np.linalg.norm(np.diff(lat, axis=0), axis=2)  # (9, 10): left/right edges
    side = np.maximum.reduce([horiz[:-1], horiz[1:], vert[:, :-1], vert[:, 1:]])
    steps = np.ceil(np.log(np.maximum(side, 8.0)) / np.log(1.1))
    return np.minimum(np.round(1.1**steps), 1024).astype(np.int64)


def fit_geometry(geometry: GridGeometry, width: int, height: int) -> GridGeometry:
    """The geometry rescaled to an image of ``width`` x ``height`` (itself if it matches)."""
    gw, gh = geometry.image_size
    if (gw, gh) == (width, height):
        return geometry
    scale = np.array([width / gw, height / gh])
    return GridGeometry(geometry.lattice * scale, (width, height))


def _blend_cell(
    out: UInt8Array, geometry: GridGeometry, cell: int, tile: UInt8Array, colour: tuple[int, ...]
) -> bool:
    """Warp a cell tile into ``out`` (in place) in ``colour`` (BGR); False if off-image."""
    return _blend_layers(out, geometry, cell, [(tile, colour)])


def _blend_layers(
    out: UInt8Array,
    geometry: GridGeometry,
    cell: int,
    layers: Sequence[tuple[UInt8Array, tuple[int, ...]]],
) -> bool:
    """Warp a cell's alpha tiles (same size, at most 4) into ``out`` in place, each in
    its colour (BGR), in order: one warp for all of them. False if the first draws
    nothing (off-image); then none is drawn."""
    row, col = divmod(cell, 9)
    quad = geometry.cell_quad(row, col)
    h, w = out.shape[:2]
    x0 = max(int(np.floor(quad[:, 0].min())), 0)
    y0 = max(int(np.floor(quad[:, 1].min())), 0)
    x1 = min(int(np.ceil(quad[:, 0].max())) + 1, w)
    y1 = min(int(np.ceil(quad[:, 1].max())) + 1, h)
    if x0 >= x1 or y0 >= y1:
        return False
    s = layers[0][0].shape[0]
    # tile pixel (x, y) -> grid (col + (x + .5)/s, row + (y + .5)/s) -> image -> ROI.
    to_grid = np.array([[1 / s, 0, col + 0.5 / s], [0, 1 / s, row + 0.5 / s], [0, 0, 1.0]])
    to_roi = np.array([[1.0, 0, -x0], [0, 1, -y0], [0, 0, 1]])
    m = to_roi @ geometry.cell_homography(row, col) @ to_grid
    tiles = np.dstack([tile for tile, _colour in layers])
    warped = cv2.warpPerspective(
        tiles, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    ).reshape(y1 - y0, x1 - x0, len(layers))
    for k, (_tile, colour) in enumerate(layers):
        alpha = np.ascontiguousarray(warped[:, :, k])
        bx, by, bw, bh = cv2.boundingRect(alpha)  # the ink: ~1/3 of the cell's box
        if bw == 0 or bh == 0:
            if k == 0:
                return False
            continue
        # Integer blend, exact at both ends: alpha 0 keeps the pixel, 255 is the colour.
        a = alpha[by : by + bh, bx : bx + bw].astype(np.uint16)[:, :, None]
        roi = out[y0 + by : y0 + by + bh, x0 + bx : x0 + bx + bw]
        c = np.array(colour, np.uint16)
        roi[:] = ((roi * (255 - a) + c * a + 127) // 255).astype(np.uint8)
    return True


def draw_digits(
    image: UInt8Array,
    geometry: GridGeometry,
    result: SolveResult,
    *,
    badges: bool = True,
    check: EntryCheck | None = None,
) -> tuple[int, ...]:
    """Draw the solved digits into ``image`` in place; return the cells drawn.

    Parameters
    ----------
    image : (H, W, 3) uint8 array
        BGR photo matching ``geometry.image_size``; modified in place.
    geometry : GridGeometry
        The lattice of the grid in this image.
    result : SolveResult
        Cells empty in ``result.givens`` with a value in ``result.grid`` are drawn.
    badges : bool, keyword-only
        Mark each digit with its technique's code in a tab in the cell's top-left
        corner (:func:`badge_tiles`); False draws the digits alone.
    check : EntryCheck, keyword-only
        The person's entries: their cells get no digit (they hold one already).
    """
    drawn = []
    sizes = _tile_sizes(geometry)
    for cell, digit, tech_id in solved_cells(result, check):
        colour = bgr(technique_colour(tech_id))
        size = int(sizes.flat[cell])
        if not badges or tech_id is None:
            if _blend_cell(image, geometry, cell, cell_tile(digit, size), colour):
                drawn.append(cell)
            continue
        tiles = badge_tiles(digit, size, technique_code(tech_id))
        layers = [
            (tiles.halo, (255, 255, 255)),
            (tiles.ink, colour),
            (tiles.code, bgr(BADGE_TEXT_COLOUR)),
        ]
        if _blend_layers(image, geometry, cell, layers):
            drawn.append(cell)
    return tuple(drawn)


def draw_rings(image: UInt8Array, geometry: GridGeometry, check: EntryCheck) -> tuple[int, ...]:
    """Ring the wrong entries in :data:`~overlay.legend.MISTAKE_COLOUR`, in place, and
    the unclear ones with a dashed ring in :data:`~overlay.legend.UNCLEAR_COLOUR`.

    Parameters
    ----------
    image : (H, W, 3) uint8 array
        BGR photo matching ``geometry.image_size``; modified in place.
    geometry : GridGeometry
        The lattice of the grid in this image.
    check : EntryCheck
        The entries checked; only its mistakes are ringed (right entries are left alone).

    Returns
    -------
    tuple of int
        The cells of wrong entries ringed (the unclear ones are not counted).
    """
    ringed = []
    sizes = _tile_sizes(geometry)
    unclear = bgr(UNCLEAR_COLOUR)
    for cell in check.unclear:
        tile = ring_tile(int(sizes.flat[cell]), dashed=True)
        _blend_cell(image, geometry, cell, tile, unclear)
    colour = bgr(MISTAKE_COLOUR)
    for cell in check.mistakes:
        if _blend_cell(image, geometry, cell, ring_tile(int(sizes.flat[cell])), colour):
            ringed.append(cell)
    return tuple(ringed)


def _check_image(image: npt.NDArray[np.generic]) -> UInt8Array:
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an (H, W, 3) uint8 BGR image, got {image.shape} {image.dtype}")
    return np.asarray(image, dtype=np.uint8)


def compose(
    image: UInt8Array,
    geometry: GridGeometry,
    result: SolveResult,
    *,
    badges: bool = True,
    legend: bool = True,
    extend: bool = True,
    check: EntryCheck | None = None,
) -> Annotation:
    """Annotate a copy of the photo and report what was drawn where.

    Parameters
    ----------
    image : (H, W, 3) uint8 array
        The upright photo, BGR (OpenCV order). Not modified.
    geometry : GridGeometry
        The grid's lattice; rescaled when ``geometry.image_size`` differs from the image
        (for a lattice found on a downscaled copy).
    result : SolveResult
        The solve; a partial (stuck) one draws the digits logic did place.
    badges : bool, keyword-only
        Mark each digit with its technique's code in a tab in a corner of its cell
        (the default); False draws the digits alone.
    legend : bool, keyword-only
        Draw the legend (colour, technique, count) in free space beside the grid.
    extend : bool, keyword-only
        Where the grid leaves no free space, add a strip below the photo for the legend
        (:func:`overlay.legend.legend_strip`); False keeps the photo's size and leaves
        the legend out (the sheet and the report still carry it).
    check : EntryCheck, keyword-only
        The person's entries checked against the solution: their cells get no digit,
        the wrong ones a ring, and the legend a line ``2 of 31 entries wrong``.

    Returns
    -------
    Annotation
        The new image (same shape and dtype), the cells drawn, the legend's box and the
        cells ringed.
    """
    out = _check_image(image).copy()
    geo = fit_geometry(geometry, out.shape[1], out.shape[0])
    # Legend first: where the photo has no free room, the digits stay on top of it.
    entries = legend_entries(result, check)
    box = draw_legend(out, geo, entries, codes=badges) if legend else None
    cells = draw_digits(out, geo, result, badges=badges, check=check)
    rings = draw_rings(out, geo, check) if check is not None else ()
    place = LegendPlace.PHOTO if box is not None else LegendPlace.NONE
    if legend and entries and box is None and extend:
        strip = legend_strip(entries, out.shape[1], codes=badges, font_px=_strip_px(geo))
        out = _below(out, strip)
        place = LegendPlace.STRIP
    return Annotation(out, cells, box, rings, place)


def _strip_px(geometry: GridGeometry) -> int:
    """The strip legend's text size: about a third of a cell, as in the photo."""
    return max(STRIP_MIN_FONT_PX, round(0.3 * float(np.median(_tile_sizes(geometry)))))


def _below(image: UInt8Array, strip: UInt8Array) -> UInt8Array:
    return np.ascontiguousarray(np.vstack([image, strip]))


def annotate(
    image: UInt8Array,
    geometry: GridGeometry,
    result: SolveResult,
    *,
    badges: bool = True,
    check: EntryCheck | None = None,
    extend: bool = True,
) -> UInt8Array:
    """The photo with the missing digits written into their cells, in perspective.

    Parameters
    ----------
    image : (H, W, 3) uint8 array
        The upright photo, BGR (OpenCV order). Not modified.
    geometry : GridGeometry
        The grid's lattice in this photo.
    result : SolveResult
        The solve of the grid read from the photo.
    badges : bool, keyword-only
        Mark each digit with its technique's code in a tab in a corner of its cell
        (the default); False draws the digits alone.
    check : EntryCheck, keyword-only
        The person's entries: left as written, the wrong ones ringed.
    extend : bool, keyword-only
        As in :func:`compose`: a strip below the photo for a legend with no free space.

    Returns
    -------
    (H, W, 3) uint8 array
        A new BGR image: solved digits in their technique family's colour, wrong entries
        ringed, and a legend in free space (or in a strip below: then taller); givens
        and everything else untouched.
    """
    return compose(image, geometry, result, badges=badges, check=check, extend=extend).image


def merge_entries(groups: Sequence[Sequence[LegendEntry]]) -> list[LegendEntry]:
    """One legend for several grids: the counts of each technique added up, in the order
    the techniques first appear."""
    merged: dict[str, LegendEntry] = {}
    for entries in groups:
        for e in entries:
            old = merged.get(e.technique)
            merged[e.technique] = (
                e if old is None else replace(old, count=old.count + e.count, of=old.of + e.of)
            )
    return list(merged.values())


def annotate_page(
    image: UInt8Array,
    grids: Sequence[tuple[GridGeometry, SolveResult]],
    *,
    badges: bool = True,
    checks: Sequence[EntryCheck | None] = (),
    extend: bool = True,
) -> UInt8Array:
    """A page with every solved grid drawn in and one legend clear of all of them.

    Parameters
    ----------
    image : (H, W, 3) uint8 array
        The upright page, BGR. Not modified.
    grids : sequence of (GridGeometry, SolveResult)
        Each grid's lattice in this image and its solve (stuck solves draw what was placed).
    badges : bool, keyword-only
        Mark each digit with its technique's code in a tab in a corner of its cell
        (the default); False draws the digits alone.
    checks : sequence of EntryCheck or None, keyword-only
        Each grid's entries checked (as in :func:`compose`), in the order of ``grids``;
        empty or None for grids without.
    extend : bool, keyword-only
        As in :func:`compose`: a strip below the page for a legend with no free space.

    Returns
    -------
    (H, W, 3) uint8 array
        A new image; with no grids, an unchanged copy.
    """
    out = _check_image(image).copy()
    if not grids:
        return out
    per_grid = list(checks) or [None] * len(grids)
    if len(per_grid) != len(grids):
        raise ValueError(f"{len(grids)} grids but {len(per_grid)} entry checks")
    geos = [fit_geometry(g, out.shape[1], out.shape[0]) for g, _ in grids]
    groups = [legend_entries(r, c) for (_, r), c in zip(grids, per_grid, strict=True)]
    entries = merge_entries(groups)
    box = draw_legend(out, geos[0], entries, codes=badges, others=geos[1:])
    for geo, (_, result), check in zip(geos, grids, per_grid, strict=True):
        draw_digits(out, geo, result, badges=badges, check=check)
        if check is not None:
            draw_rings(out, geo, check)
    if entries and box is None and extend:
        out = _below(
            out, legend_strip(entries, out.shape[1], codes=badges, font_px=_strip_px(geos[0]))
        )
    return out
