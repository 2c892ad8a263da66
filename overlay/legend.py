"""Technique colours, the shipped fonts, and the legend: which rule placed how many digits.

Colours are kept as RGB tuples; the images this package reads and returns are BGR
(OpenCV order), so blending code flips them with :func:`bgr`. The legend goes into free
space of the photo: a sliding window over a downscaled copy finds the boxes that keep
clear of the grid's outline, and the least textured one nearest a corner wins.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from scanner.geometry import GridGeometry
from solver.check import EntryCheck
from solver.registry import Family
from solver.solve import SOLVED, STUCK, Difficulty, SolveResult
from solver.techniques import ALL_TECHNIQUES, TECHNIQUES

UInt8Array = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
RGB = tuple[int, int, int]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

# One colour per family (``solver.registry.Family``; a test checks every family of the
# registry has one). Eleven colours cannot all be vivid for a red-green colour-blind eye,
# so they were chosen by a max-min search over sRGB (L* 25-68, so they read on white
# paper) for the largest smallest CIE76 difference between any two of them, and to the
# givens' black and the mistake ring's magenta, seen normally and under simulated
# deuteranopia and protanopia (Machado et al. 2009): 25 or more in all three. The
# technique's code badge in the cell tells the technique apart within a family.
FAMILY_COLOURS: dict[Family, RGB] = {
    Family.SINGLES: (0, 0, 255),  # blue
    Family.INTERSECTIONS: (225, 150, 30),  # amber
    Family.SUBSETS: (135, 105, 0),  # mustard
    Family.FISH: (225, 120, 210),  # orchid
    Family.SINGLE_DIGIT: (120, 60, 165),  # purple
    Family.WINGS: (135, 60, 75),  # maroon
    Family.CHAINS: (75, 0, 180),  # indigo
    Family.COLOURING: (225, 135, 165),  # rose
    Family.UNIQUENESS: (75, 60, 0),  # dark olive
    Family.ALS: (105, 30, 90),  # plum
    Family.LAST_RESORT: (180, 165, 105),  # khaki
}
FALLBACK_COLOUR: RGB = (200, 70, 120)  # raspberry: for no family (an unknown technique id)
GIVEN_COLOUR: RGB = (0, 0, 0)
# The ring around a person's wrong entry: pure magenta, brighter than every family colour
# (CIE76 51 or more seen normally, 25 or more under simulated deuteranopia and
# protanopia) and drawn as a ring, never as a digit.
MISTAKE_COLOUR: RGB = (255, 0, 255)
# The dashed ring around an entry the reader could not make out (neither right nor
# wrong): a dark neutral grey, so it says "look here" without the mistake's magenta or
# any technique's colour.
UNCLEAR_COLOUR: RGB = (80, 80, 80)
DASHES = 8  # dashes around the unclear ring (and its legend swatch)
DASH_SHARE = 0.55  # of each dash's arc that is drawn
TEXT_COLOUR: RGB = (40, 40, 40)

# Entry for digits present in the final grid that no recorded step placed (a solve
# started from a pencil-mark state with non-given values).
EARLIER = "earlier"
# The legend line of the person's entries ("2 of 31 entries wrong"); no technique.
MISTAKES = "mistakes"
# The legend line of the entries that could not be read ("1 entry unclear").
UNCLEAR = "unclear"


class Swatch(Enum):
    """How a legend line's colour is shown."""

    FILL = "fill"  # a filled square: digits written in this colour
    RING = "ring"  # a ring: the ring drawn around wrong entries
    DASHED = "dashed"  # a dashed ring: the one drawn around unclear entries


def family_colour(family: Family | None) -> RGB:
    """RGB colour of a technique family (``FALLBACK_COLOUR`` for None)."""
    return FAMILY_COLOURS[family] if family is not None else FALLBACK_COLOUR


def technique_family(technique: str | None) -> Family | None:
    """Family of a technique id; None for None or ids the registry does not know."""
    tech = TECHNIQUES.get(technique or "")
    return tech.family if tech is not None else None


def technique_colour(technique: str | None) -> RGB:
    """RGB colour of the family of technique ``technique`` (an id such as ``hidden-single``)."""
    return family_colour(technique_family(technique))


def technique_code(technique: str | None) -> str:
    """Short code of a technique for cell labels (``?`` for ids the registry lacks)."""
    tech = TECHNIQUES.get(technique or "")
    return tech.code if tech is not None else "?"


def bgr(rgb: RGB) -> RGB:
    """The same colour in OpenCV channel order."""
    return (rgb[2], rgb[1], rgb[0])


def wrap_words(text: str, px: int, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` at ``px`` (a word too long stands alone)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", px) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


@functools.lru_cache(maxsize=128)
def load_font(px: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans (or Bold) at ``px`` pixels per em."""
    return ImageFont.truetype(str(FONT_BOLD if bold else FONT_REGULAR), max(1, int(px)))


@functools.lru_cache(maxsize=1024)
def text_width(text: str, px: int, *, bold: bool = False) -> float:
    """Advance width of ``text`` in pixels (cached: the legend search measures a lot)."""
    return float(load_font(px, bold=bold).getlength(text))


def solved_cells(
    result: SolveResult, check: EntryCheck | None = None
) -> list[tuple[int, int, str | None]]:
    """The digits the solve added: ``(cell, digit, technique id or None)``, by cell.

    A cell counts when it is empty in the givens and holds a value in ``result.grid``,
    so a partial (stuck) solve yields what logic did place. Cells holding one of the
    person's entries (``check``), right or wrong, are left out: the photo has a digit
    there already.
    """
    out: list[tuple[int, int, str | None]] = []
    values = result.grid.values
    written = check.written if check is not None else frozenset()
    # The one attribution (``Placement``): the rule that unlocked the digit, not only
    # the single that wrote it.
    credited = {p.cell: p.technique for p in result.placements()}
    for cell in range(81):
        digit = values[cell]
        if result.givens[cell] or not digit or cell in written:
            continue
        out.append((cell, digit, credited.get(cell)))
    return out


def difficulty_of(result: SolveResult) -> Difficulty | None:
    """The solve's rating, or None when it has none (invalid puzzle) or cannot be rated
    (a step of a technique this registry does not know)."""
    if result.status not in (SOLVED, STUCK):
        return None
    try:
        return result.difficulty
    except KeyError:
        return None


@dataclass(frozen=True)
class LegendEntry:
    """One legend line: a technique and how many digits it placed.

    The line of the person's entries (``technique == MISTAKES``, a ring swatch) counts
    the wrong entries in ``count`` and the entries checked in ``of``.
    """

    technique: str
    name: str
    code: str
    family: Family | None  # None: no technique (earlier digits, the entries)
    count: int
    swatch: Swatch = Swatch.FILL
    of: int = 0

    @property
    def colour(self) -> RGB:
        if self.technique == UNCLEAR:
            return UNCLEAR_COLOUR
        return MISTAKE_COLOUR if self.technique == MISTAKES else family_colour(self.family)

    @property
    def label(self) -> str:
        if self.technique == UNCLEAR:
            return f"{self.count} {'entry' if self.count == 1 else 'entries'} unclear, not checked"
        if self.technique == MISTAKES:
            noun = "entry" if self.of == 1 else "entries"
            if not self.count:
                return f"all {self.of} {noun} right" if self.of > 1 else f"{self.of} {noun}, right"
            return f"{self.count} of {self.of} {noun} wrong"
        return f"{self.name} \u00d7{self.count}"


def mistakes_entry(check: EntryCheck) -> LegendEntry | None:
    """The legend line ``2 of 31 entries wrong`` (ring swatch); None without checked
    entries."""
    if not check.checked:
        return None
    return LegendEntry(
        MISTAKES, "Entries", "", None, len(check.mistakes), swatch=Swatch.RING, of=check.checked
    )


def unclear_entry(check: EntryCheck) -> LegendEntry | None:
    """The legend line ``1 entry unclear, not checked`` (dashed ring swatch); None when
    every entry was read."""
    if not check.unclear:
        return None
    return LegendEntry(UNCLEAR, "Unclear", "", None, len(check.unclear), swatch=Swatch.DASHED)


def legend_entries(result: SolveResult, check: EntryCheck | None = None) -> list[LegendEntry]:
    """The person's entries checked and the unclear ones (first, when there are any),
    then the techniques that placed digits, simplest first (registry order), with
    counts."""
    entries = []
    for line in (mistakes_entry(check), unclear_entry(check)) if check is not None else ():
        if line is not None:
            entries.append(line)
    counts: dict[str, int] = {}
    for _cell, _digit, tech_id in solved_cells(result, check):
        key = tech_id if tech_id is not None else EARLIER
        counts[key] = counts.get(key, 0) + 1
    rank = {t.id: i for i, t in enumerate(ALL_TECHNIQUES)}
    for key in sorted(counts, key=lambda k: (rank.get(k, len(rank)), k)):
        tech = TECHNIQUES.get(key)
        if tech is not None:
            entries.append(LegendEntry(key, tech.name, tech.code, tech.family, counts[key]))
        elif key == EARLIER:
            entries.append(LegendEntry(key, "Placed before", "", None, counts[key]))
        else:  # a technique id from a newer solver than this registry
            entries.append(LegendEntry(key, key, technique_code(key), None, counts[key]))
    return entries


def dashed_ring(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    colour: tuple[int, ...],
    width: int,
) -> None:
    """Draw the unclear entry's dashed ring (``DASHES`` arcs) inside ``box`` with Pillow."""
    arc = 360 / DASHES
    for k in range(DASHES):
        draw.arc(box, k * arc, k * arc + DASH_SHARE * arc, fill=colour, width=width)


class Box(NamedTuple):
    """Axis-aligned pixel box ``[x0, x1) x [y0, y1)``."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class _Layout:
    font_px: int
    columns: int
    codes: bool
    size: tuple[int, int]  # (width, height)
    pad: int
    row_h: int
    swatch: int
    col_x: tuple[int, ...]
    code_w: int


def _layout(entries: Sequence[LegendEntry], font_px: int, columns: int, codes: bool) -> _Layout:
    """Measure a legend without drawing it (the placement search tries many sizes)."""
    pad = max(3, round(0.6 * font_px))
    row_h = max(font_px + 2, round(1.45 * font_px))
    swatch = max(4, round(0.85 * font_px))
    gap = max(2, round(0.45 * font_px))
    col_gap = max(4, round(1.1 * font_px))
    code_w = 0
    if codes:
        code_w = math.ceil(max(text_width(e.code, font_px, bold=True) for e in entries)) + gap
    rows = math.ceil(len(entries) / columns)
    col_x = []
    x = pad
    for c in range(columns):
        chunk = entries[c * rows : (c + 1) * rows]
        if not chunk:
            break
        col_x.append(x)
        text_w = max(math.ceil(text_width(e.label, font_px)) for e in chunk)
        x += swatch + gap + code_w + text_w + col_gap
    width = x - col_gap + pad
    height = 2 * pad + rows * row_h - (row_h - font_px) // 2
    size = (width, height)
    return _Layout(font_px, len(col_x), codes, size, pad, row_h, swatch, tuple(col_x), code_w)


def _draw_layout(entries: Sequence[LegendEntry], lay: _Layout) -> UInt8Array:
    """Render a measured legend: (h, w, 4) uint8 RGBA."""
    w, h = lay.size
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    # Near-opaque white card: readable over print, texture or a dark table alike.
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius=lay.pad,
        fill=(255, 255, 255, 232),
        outline=(150, 150, 150, 255),
    )
    font = load_font(lay.font_px)
    bold = load_font(lay.font_px, bold=True)
    rows = math.ceil(len(entries) / lay.columns)
    gap = max(2, round(0.45 * lay.font_px))
    for i, entry in enumerate(entries):
        col, row = divmod(i, rows)
        x = lay.col_x[col]
        cy = lay.pad + row * lay.row_h + lay.font_px // 2 + 1
        s = lay.swatch
        swatch_box = (x, cy - s // 2, x + s, cy - s // 2 + s)
        if entry.swatch == Swatch.RING:
            draw.ellipse(swatch_box, outline=(*entry.colour, 255), width=max(2, s // 5))
        elif entry.swatch == Swatch.DASHED:
            dashed_ring(draw, swatch_box, (*entry.colour, 255), max(2, s // 5))
        else:
            draw.rounded_rectangle(swatch_box, radius=max(1, s // 5), fill=(*entry.colour, 255))
        x += s + gap
        if lay.codes:
            draw.text((x, cy), entry.code, font=bold, fill=(*entry.colour, 255), anchor="lm")
            x += lay.code_w
        draw.text((x, cy), entry.label, font=font, fill=(*TEXT_COLOUR, 255), anchor="lm")
    return np.asarray(img, dtype=np.uint8)


def render_legend(
    entries: Sequence[LegendEntry], *, font_px: int = 16, columns: int = 1, codes: bool = False
) -> UInt8Array:
    """The legend as a tile: swatch, (code,) name and count per technique.

    Parameters
    ----------
    entries : sequence of LegendEntry
        From :func:`legend_entries`; must not be empty.
    font_px : int, keyword-only
        Text size in pixels per em.
    columns : int, keyword-only
        Entries are laid out column by column.
    codes : bool, keyword-only
        Also show each technique's short code (the labels drawn in the cells).

    Returns
    -------
    (h, w, 4) uint8 array
        RGBA, straight (not premultiplied) alpha.
    """
    if not entries:
        raise ValueError("no legend entries")
    columns = max(1, min(columns, len(entries)))
    return _draw_layout(entries, _layout(entries, font_px, columns, codes))


# ------------------------------------------------------------------------ placement


def grid_outline(geometry: GridGeometry) -> FloatArray:
    """The grid's outer boundary through every lattice point on it: (36, 2) image pixels.

    Following the outer lattice row/column (not just 4 corners) keeps a bent page's
    bulging edge inside the polygon.
    """
    lat = geometry.lattice
    return np.concatenate([lat[0, :9], lat[:9, 9], lat[9, :0:-1], lat[:0:-1, 0]])


def median_cell_px(geometry: GridGeometry) -> float:
    """Median cell side in image pixels."""
    lat = geometry.lattice
    dx = np.linalg.norm(np.diff(lat, axis=1), axis=2)
    dy = np.linalg.norm(np.diff(lat, axis=0), axis=2)
    sides = np.sort(np.concatenate([dx.ravel(), dy.ravel()]))
    return float(sides[len(sides) // 2])


@dataclass(frozen=True)
class _FreeSpace:
    """Integral images of the grid mask and of texture, on a downscaled copy."""

    factor: int
    grid_ii: FloatArray
    tex_ii: FloatArray
    tex_mean: float
    size: tuple[int, int]  # full-resolution (width, height)


def _free_space(image: UInt8Array, outlines: Sequence[FloatArray]) -> _FreeSpace:
    h, w = image.shape[:2]
    f = max(1, math.ceil(max(w, h) / 320))  # ~320 px is plenty to judge free space
    sw, sh = math.ceil(w / f), math.ceil(h / f)
    mask = np.zeros((sh, sw), np.uint8)
    for outline in outlines:
        poly = np.round(outline / f).astype(np.int32)
        cv2.fillPoly(mask, [poly], 1)
        cv2.polylines(mask, [poly], True, 1, 2)  # rounding must never shave the outline
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    tex = np.abs(cv2.Laplacian(small, cv2.CV_32F, ksize=3))
    grid_ii = np.asarray(cv2.integral(mask), dtype=np.float64)
    tex_ii = np.asarray(cv2.integral(tex, sdepth=cv2.CV_64F), dtype=np.float64)
    return _FreeSpace(f, grid_ii, tex_ii, float(tex.mean()), (w, h))


def _box_sums(ii: FloatArray, x0: IntArray, y0: IntArray, x1: IntArray, y1: IntArray) -> FloatArray:
    """Sums of the boxes ``[x0, x1) x [y0, y1)`` from an integral image (vectorised)."""
    return np.asarray(ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0], dtype=np.float64)


def _best_position(
    space: _FreeSpace, size: tuple[int, int], *, margin: int, gap: int
) -> tuple[float, Box] | None:
    """Cheapest box of ``size`` clear of the grid (by ``gap`` pixels), or None."""
    w, h = size
    width, height = space.size
    if w + 2 * margin > width or h + 2 * margin > height:
        return None
    f = space.factor
    step = max(2, f * 2)
    xs = np.arange(margin, width - w - margin + 1, step)
    ys = np.arange(margin, height - h - margin + 1, step)
    # Always try the flush-to-margin positions too: corners are the tidiest spots.
    if xs[-1] != width - w - margin:
        xs = np.append(xs, width - w - margin)
    if ys[-1] != height - h - margin:
        ys = np.append(ys, height - h - margin)
    gx, gy = np.meshgrid(xs, ys)
    sw = space.grid_ii.shape[1] - 1
    sh = space.grid_ii.shape[0] - 1

    def small(v: IntArray, hi: int, *, up: bool) -> IntArray:
        s = np.ceil(v / f) if up else np.floor(v / f)
        return np.clip(s.astype(np.intp), 0, hi)

    ox0, oy0 = small(gx - gap, sw, up=False), small(gy - gap, sh, up=False)
    ox1, oy1 = small(gx + w + gap, sw, up=True), small(gy + h + gap, sh, up=True)
    overlap = _box_sums(space.grid_ii, ox0, oy0, ox1, oy1)
    free = overlap == 0
    if not free.any():
        return None
    tx0, ty0 = small(gx, sw, up=False), small(gy, sh, up=False)
    tx1, ty1 = small(gx + w, sw, up=True), small(gy + h, sh, up=True)
    area = np.maximum((tx1 - tx0) * (ty1 - ty0), 1)
    tex = _box_sums(space.tex_ii, tx0, ty0, tx1, ty1) / area / (space.tex_mean + 1.0)
    # Distance to the nearest image corner (L1, normalised): prefer tidy corner spots.
    dx = np.minimum(gx - margin, width - margin - (gx + w))
    dy = np.minimum(gy - margin, height - margin - (gy + h))
    corner = (dx + dy) / (width + height)
    cost = np.where(free, tex + 1.5 * corner, np.inf)
    k = int(np.argmin(cost))
    x, y = int(gx.flat[k]), int(gy.flat[k])
    return float(cost.flat[k]), Box(x, y, x + w, y + h)


def _start_font_px(cell_px: float, image_size: tuple[int, int]) -> int:
    w, h = image_size
    px = round(0.3 * cell_px)
    return int(min(max(px, 11), max(11, round(0.035 * min(w, h)))))


def place_legend(
    image: UInt8Array,
    geometry: GridGeometry,
    entries: Sequence[LegendEntry],
    *,
    codes: bool = False,
    font_px: int | None = None,
    min_font_px: int = 8,
    others: Sequence[GridGeometry] = (),
) -> tuple[Box, int, int, bool]:
    """Choose where, how large and in how many columns the legend goes.

    Tries font sizes from ``font_px`` (default: ~30% of a cell) down to ``min_font_px``
    and, at each size, 1, 2, 3 columns or a single row; the first size with any box
    clear of the grid wins, and among its layouts the least textured box nearest an
    image corner. When nothing fits, the smallest single-column legend goes in the
    image corner farthest from the grid (``overlaps`` is then True: draw it faintly).

    Parameters
    ----------
    image : (H, W, 3) uint8 array
        The photo, BGR.
    geometry : GridGeometry
        Lattice in this image's pixels.
    entries : sequence of LegendEntry
        Not empty.
    others : sequence of GridGeometry, keyword-only
        Further grids on the same page that the legend must keep clear of as well.

    Returns
    -------
    box : Box
        Where the legend goes (inside the image).
    font_px, columns : int
        The layout to render with :func:`render_legend`.
    overlaps : bool
        True for the last-resort placement that may cover the grid.
    """
    h, w = image.shape[:2]
    outline = grid_outline(geometry)
    space = _free_space(image, [outline, *(grid_outline(g) for g in others)])
    margin = max(3, round(0.015 * min(w, h)))
    cell_px = median_cell_px(geometry)
    gap = max(4, round(0.2 * cell_px))
    n = len(entries)
    col_options = sorted({c for c in (1, 2, 3, n) if 1 <= c <= n})
    px = font_px or _start_font_px(cell_px, (w, h))
    sizes = [px]
    while sizes[-1] > min_font_px:
        sizes.append(max(min_font_px, int(sizes[-1] * 0.85)))
    for size_px in sizes:
        best: tuple[float, Box, int] | None = None
        for cols in col_options:
            lay = _layout(entries, size_px, cols, codes)
            found = _best_position(space, lay.size, margin=margin, gap=gap)
            if found is not None and (best is None or found[0] < best[0]):
                best = (found[0], found[1], lay.columns)
        if best is not None:
            return best[1], size_px, best[2], False
    # Last resort: the image corner farthest from the grid's centre.
    lay = _layout(entries, min_font_px, 1, codes)
    lw, lh = min(lay.size[0], w), min(lay.size[1], h)
    cx, cy = outline.mean(axis=0)
    x = margin if cx > w / 2 else w - lw - margin
    y = margin if cy > h / 2 else h - lh - margin
    x, y = min(max(x, 0), w - lw), min(max(y, 0), h - lh)
    return Box(x, y, x + lw, y + lh), min_font_px, 1, True


def blend_rgba(
    image: UInt8Array, tile: UInt8Array, x: int, y: int, *, opacity: float = 1.0
) -> None:
    """Alpha-blend an RGBA tile (h, w, 4) onto a BGR image in place, top-left at ``(x, y)``.

    The tile is cropped to the image.
    """
    h, w = image.shape[:2]
    th, tw = tile.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + tw, w), min(y + th, h)
    if x0 >= x1 or y0 >= y1:
        return
    t = tile[y0 - y : y1 - y, x0 - x : x1 - x]
    a = t[:, :, 3:4].astype(np.float32) * (opacity / 255.0)
    roi = image[y0:y1, x0:x1]
    src = t[:, :, 2::-1].astype(np.float32)  # RGB -> BGR
    roi[:] = np.clip(roi * (1.0 - a) + src * a + 0.5, 0, 255).astype(np.uint8)


def draw_legend(
    image: UInt8Array,
    geometry: GridGeometry,
    entries: Sequence[LegendEntry],
    *,
    codes: bool = False,
    font_px: int | None = None,
    others: Sequence[GridGeometry] = (),
) -> Box | None:
    """Draw the legend into free space of ``image`` (BGR, modified in place).

    Parameters
    ----------
    image : (H, W, 3) uint8 array
        The photo, BGR; modified in place.
    geometry : GridGeometry
        Lattice in this image's pixels.
    entries : sequence of LegendEntry
        From :func:`legend_entries`; nothing is drawn when empty.
    codes : bool, keyword-only
        Show technique codes (when the cells carry code labels).
    font_px : int, keyword-only
        Largest text size to try (default: ~30% of a cell).
    others : sequence of GridGeometry, keyword-only
        Further grids on the page that the legend must not cover either.

    Returns
    -------
    Box or None
        The pixels the legend may have changed; None when nothing was drawn.
    """
    if not entries:
        return None
    box, px, cols, overlaps = place_legend(
        image, geometry, entries, codes=codes, font_px=font_px, others=others
    )
    if overlaps or any(_box_meets_grid(image.shape[:2], box, g) for g in (geometry, *others)):
        # No free space beside the grid (it fills the photo): the legend is never drawn
        # over the grid; the sheet and the report still carry it.
        return None
    tile = render_legend(entries, font_px=px, columns=cols, codes=codes)
    blend_rgba(image, tile, box.x0, box.y0)
    return box


# The strip added below a photo whose grid leaves no free space for the legend.
STRIP_PAPER: RGB = (250, 250, 248)
STRIP_MIN_FONT_PX = 11


def legend_strip(
    entries: Sequence[LegendEntry], width: int, *, codes: bool = False, font_px: int = 16
) -> UInt8Array:
    """A strip (h, ``width``, 3) BGR holding the legend, to go below a photo.

    Where the grid fills the photo there is no free space for the legend, and a legend
    drawn over the grid would hide digits: the legend goes into a strip of its own
    instead. The text starts at ``font_px`` and shrinks (never under
    ``STRIP_MIN_FONT_PX``) until the most columns that fit the width hold it; what
    still does not fit is laid out in more rows.

    Parameters
    ----------
    entries : sequence of LegendEntry
        Not empty.
    width : int
        The photo's width in pixels.
    """
    if not entries:
        raise ValueError("no legend entries")
    margin = max(4, font_px // 2)
    room = max(1, width - 2 * margin)
    for px in range(max(font_px, STRIP_MIN_FONT_PX), STRIP_MIN_FONT_PX - 1, -1):
        fits = [
            c for c in range(len(entries), 0, -1) if _layout(entries, px, c, codes).size[0] <= room
        ]
        if fits:
            break
    cols = fits[0] if fits else 1
    tile = render_legend(entries, font_px=px, columns=cols, codes=codes)
    if tile.shape[1] > room:  # narrower than one entry: scale the legend down
        scale = room / tile.shape[1]
        size = (room, max(1, round(tile.shape[0] * scale)))
        tile = np.asarray(cv2.resize(tile, size, interpolation=cv2.INTER_AREA), np.uint8)
    strip = np.empty((tile.shape[0] + 2 * margin, width, 3), np.uint8)
    strip[:] = bgr(STRIP_PAPER)
    blend_rgba(strip, tile, (width - tile.shape[1]) // 2, margin)
    return strip


def _box_meets_grid(shape: tuple[int, ...], box: Box, geometry: GridGeometry) -> bool:
    """Exact full-resolution test of the legend box against the grid's curved outline."""
    mask = np.zeros((int(shape[0]), int(shape[1])), np.uint8)
    cv2.fillPoly(mask, [np.round(grid_outline(geometry)).astype(np.int32)], 1)
    return bool(mask[max(box.y0, 0) : box.y1, max(box.x0, 0) : box.x1].any())
