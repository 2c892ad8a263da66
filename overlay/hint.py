"""A graded hint drawn on the photo: where to look, then the evidence, then the result.

The houses (or cells) to look at are tinted yellow and outlined; from level 3 the cells
the step rests on are tinted blue; at level 4 the digit it places is written in green
and the cells it removes candidates from are tinted red. A caption strip below the
photo says the hint in words, so the picture never needs the terminal beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw

from scanner.geometry import GridGeometry
from solver.grid import HOUSES
from solver.hints import HintLevel, hint_text, hint_where
from solver.steps import Step

from .draw import _below, _blend_cell, _check_image, _tile_sizes, cell_tile, fit_geometry
from .legend import RGB, STRIP_PAPER, TEXT_COLOUR, bgr, load_font, wrap_words

UInt8Array = npt.NDArray[np.uint8]

WHERE_COLOUR: RGB = (255, 200, 0)  # amber: where to look
EVIDENCE_COLOUR: RGB = (60, 130, 255)  # blue: what the step rests on
REMOVED_COLOUR: RGB = (230, 40, 40)  # red: cells that lose candidates
PLACED_COLOUR: RGB = (0, 140, 40)  # green: the digit placed
TINT = 0.45  # how strongly a tinted cell takes the colour


def _tint(image: UInt8Array, geometry: GridGeometry, cells: set[int], colour: RGB) -> None:
    """Blend ``colour`` over the cells' quads, in the photo's perspective (in place)."""
    if not cells:
        return
    mask = np.zeros(image.shape[:2], np.uint8)
    for cell in cells:
        quad = geometry.cell_quad(*divmod(cell, 9))
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
    a = (mask.astype(np.float32) / 255.0 * TINT)[:, :, None]
    c = np.array(bgr(colour), np.float32)
    image[:] = np.clip(image * (1.0 - a) + c * a + 0.5, 0, 255).astype(np.uint8)


def _outline(image: UInt8Array, geometry: GridGeometry, cells: Sequence[int], colour: RGB) -> None:
    """A thick outline around a block of cells (a house, or one cell), through the
    lattice (it bends with the page)."""
    rows = sorted({c // 9 for c in cells})
    cols = sorted({c % 9 for c in cells})
    r0, r1, c0, c1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    lat = geometry.lattice
    ring = np.concatenate(
        [
            lat[r0, c0 : c1 + 1],
            lat[r0 : r1 + 1, c1],
            lat[r1, c0 : c1 + 1][::-1],
            lat[r0 : r1 + 1, c0][::-1],
        ]
    )
    side = float(np.median(_tile_sizes(geometry)))
    width = max(2, round(side / 12))
    cv2.polylines(image, [np.round(ring).astype(np.int32)], True, bgr(colour), width, cv2.LINE_AA)


def caption_strip(text: str, width: int, *, font_px: int = 18) -> UInt8Array:
    """A strip (h, ``width``, 3) BGR with ``text`` wrapped to the width."""
    px = max(12, font_px)
    margin = max(6, px // 2)
    lines = wrap_words(text, px, max(1, width - 2 * margin))
    line_h = math.ceil(1.35 * px)
    img = Image.new("RGB", (width, 2 * margin + line_h * max(1, len(lines))), STRIP_PAPER)
    draw = ImageDraw.Draw(img)
    font = load_font(px)
    for k, line in enumerate(lines):
        draw.text((margin, margin + k * line_h), line, font=font, fill=TEXT_COLOUR)
    return np.ascontiguousarray(np.asarray(img, np.uint8)[:, :, ::-1])


def draw_hint(
    image: UInt8Array, geometry: GridGeometry, step: Step, level: HintLevel
) -> UInt8Array:
    """The photo with ``step`` drawn at hint ``level`` and its words in a strip below.

    Parameters
    ----------
    image : (H, W, 3) uint8 array
        The upright photo, BGR. Not modified.
    geometry : GridGeometry
        The grid's lattice (rescaled when it was found on a smaller copy).
    step : Step
        The next step (:func:`solver.hint`, or ``PositionHint.step``).
    level : HintLevel
        How much to show: levels 1-3 never show what the step places or removes.

    Returns
    -------
    (H + h, W, 3) uint8 array
        A new image: the photo with the hint drawn, and the caption strip below it.
    """
    out = _check_image(image).copy()
    geo = fit_geometry(geometry, out.shape[1], out.shape[0])
    houses, cells = hint_where(step)
    where = {c for h in houses for c in HOUSES[h]} | set(cells)
    _tint(out, geo, where, WHERE_COLOUR)
    if level >= HintLevel.EVIDENCE:
        _tint(out, geo, set(step.cells) | set(step.all_marked()), EVIDENCE_COLOUR)
    if level >= HintLevel.ANSWER:
        _tint(out, geo, {c for c, _d in step.eliminations}, REMOVED_COLOUR)
        sizes = _tile_sizes(geo)
        for cell, digit in step.placements:
            tile = cell_tile(digit, int(sizes.flat[cell]))
            _blend_cell(out, geo, cell, tile, bgr(PLACED_COLOUR))
    for block in [HOUSES[h] for h in houses] + [(c,) for c in cells]:
        _outline(out, geo, block, WHERE_COLOUR)
    side = float(np.median(_tile_sizes(geo)))
    return _below(
        out, caption_strip(hint_text(step, level), out.shape[1], font_px=round(0.4 * side))
    )
