"""Synthetic "phone photos" of a printed Sudoku, with exact ground truth.

:func:`render_puzzle_photo` draws a newspaper-like page (the puzzle, text around it,
optionally a small solution grid beside it), then photographs it: rotation,
perspective, a bent page, uneven light, blur and sensor noise. It returns the photo and
where the grid's line intersections really are in it, so tests of the scanner can
compare positions to the pixel. Everything is deterministic given ``seed``.

Shared by the tests of several packages; keep its signature stable.
"""

from __future__ import annotations

import functools
import glob
import os
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "HELD_OUT_FONT_FAMILIES",
    "STRESS_FONT_PACKAGES",
    "STRESS_STYLES",
    "TRAIN_FONT_FAMILIES",
    "BoxShade",
    "Degradation",
    "FontFamily",
    "FontSet",
    "LineStyle",
    "Medium",
    "StressPage",
    "StressStyle",
    "find_font",
    "font_families",
    "render_book_page",
    "render_puzzle_photo",
    "render_stress_page",
]

UInt8Array = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]
FontT = ImageFont.FreeTypeFont | ImageFont.ImageFont

_FONT_CANDIDATES = (
    # The font the product ships comes first, so every machine renders the same photos.
    os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        "overlay",
        "fonts",
        "DejaVuSans.ttf",
    ),
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:/Windows/Fonts/arial.ttf",
)

_WORDS = (
    "the", "puzzle", "grid", "each", "row", "column", "and", "box", "must", "contain",
    "digits", "one", "to", "nine", "once", "solution", "yesterday", "weather", "sport",
    "news", "city", "council", "market", "report", "page", "today", "difficulty", "easy",
    "medium", "hard", "expert", "tomorrow", "answers", "letters", "crossword",
)  # fmt: skip


def write_by_hand(
    image: npt.NDArray[np.uint8],
    lattice: npt.NDArray[np.float64],
    cells: dict[int, int],
    bgr: tuple[int, int, int],
) -> None:
    """Write digits by hand-ish (OpenCV's Hershey face, never trained on) into cells.

    ``cells`` maps a cell (0..80) to its digit; ``lattice`` is the (10, 10, 2) grid of
    line crossings :func:`render_puzzle_photo` returns; ``image`` is changed in place.
    """
    for idx, digit in cells.items():
        r, c = divmod(idx, 9)
        centre = lattice[r : r + 2, c : c + 2].reshape(-1, 2).mean(axis=0)
        side = float(np.linalg.norm(lattice[r, c + 1] - lattice[r, c]))
        origin = (int(centre[0] - 0.2 * side), int(centre[1] + 0.25 * side))
        thick = max(1, int(side / 20))
        cv2.putText(image, str(digit), origin, 0, side / 45, bgr, thick, cv2.LINE_AA)


@functools.lru_cache(maxsize=1)
def find_font() -> str | None:
    """Path of a TrueType sans font on this machine (DejaVu Sans preferred), or None."""
    for path in _FONT_CANDIDATES:
        if os.path.isfile(path):
            return path
    try:  # matplotlib ships DejaVu Sans
        import matplotlib  # type: ignore[import-not-found,unused-ignore]

        mpl = os.path.join(os.path.dirname(matplotlib.__file__), "mpl-data", "fonts", "ttf")
        path = os.path.join(mpl, "DejaVuSans.ttf")
        if os.path.isfile(path):
            return path
    except ImportError:
        pass
    hits = sorted(glob.glob("/usr/share/fonts/**/*.ttf", recursive=True))
    return hits[0] if hits else None


def _font(path: str | None, size: int) -> FontT:
    path = path or find_font()
    if path is not None:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    return ImageFont.load_default(size=size)  # Pillow >= 10.1: bundled scalable font


def _parse_givens(givens: str) -> list[int]:
    chars = [ch for ch in givens if not ch.isspace()]
    if len(chars) != 81 or any(ch not in "0123456789." for ch in chars):
        raise ValueError("givens must be 81 characters of 0-9 or '.'")
    return [0 if ch == "." else int(ch) for ch in chars]


def _coverage(
    shape: tuple[int, ...], x0: float, y0: float, x1: float, y1: float
) -> tuple[int, int, int, int, FloatArray] | None:
    """Rows ``j0:j1``, columns ``i0:i1`` and the (j1 - j0, i1 - i0) fraction of each pixel
    that the rectangle [x0, x1] x [y0, y1] covers; None when it covers no pixel."""
    h, w = shape
    i0, i1 = max(0, int(np.floor(x0 + 0.5))), min(w, int(np.ceil(x1 + 0.5)))
    j0, j1 = max(0, int(np.floor(y0 + 0.5))), min(h, int(np.ceil(y1 + 0.5)))
    if i0 >= i1 or j0 >= j1:
        return None
    xs = np.arange(i0, i1, dtype=np.float64)
    ys = np.arange(j0, j1, dtype=np.float64)
    cx = np.clip(np.minimum(x1, xs + 0.5) - np.maximum(x0, xs - 0.5), 0.0, 1.0)
    cy = np.clip(np.minimum(y1, ys + 0.5) - np.maximum(y0, ys - 0.5), 0.0, 1.0)
    return j0, j1, i0, i1, cy[:, None] * cx[None, :]


def _fill_rect(page: FloatArray, x0: float, y0: float, x1: float, y1: float, colour: float) -> None:
    """Paint the rectangle [x0, x1] x [y0, y1] with exact area coverage (anti-aliased).

    Pixel ``i`` covers ``[i - 0.5, i + 0.5]``, so a line centred at ``p`` really has its
    centre at ``p`` in the pixel-centre coordinates that OpenCV uses.
    """
    cover = _coverage(page.shape[:2], x0, y0, x1, y1)
    if cover is None:
        return
    j0, j1, i0, i1, alpha = cover
    region = page[j0:j1, i0:i1]
    # Darkest wins where lines cross, as with ink.
    page[j0:j1, i0:i1] = np.minimum(region, region * (1 - alpha) + colour * alpha)


def _draw_grid_lines(
    page: FloatArray,
    origin: tuple[float, float],
    cell: float,
    *,
    thin: float,
    thick: float,
    border: float,
    thin_colour: float,
    ink: float,
) -> None:
    """Draw the 10 + 10 lines of a grid whose line *centres* lie at ``origin + k * cell``."""
    x0, y0 = origin
    side = 9 * cell
    for k in range(10):
        width = border if k in (0, 9) else thick if k % 3 == 0 else thin
        colour = ink if k % 3 == 0 else thin_colour
        p = k * cell
        hw = width / 2
        _fill_rect(page, x0 - hw, y0 + p - hw, x0 + side + hw, y0 + p + hw, colour)
        _fill_rect(page, x0 + p - hw, y0 - hw, x0 + p + hw, y0 + side + hw, colour)


def _draw_digits(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    cell: float,
    digits: Sequence[int],
    font: FontT,
    ink: int,
) -> None:
    x0, y0 = origin
    for idx, d in enumerate(digits):
        if d:
            r, c = divmod(idx, 9)
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            draw.text((cx, cy), str(d), fill=ink, font=font, anchor="mm")


def _draw_text_block(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    font: FontT,
    line_h: int,
    rng: np.random.Generator,
) -> None:
    x0, y0, x1, y1 = box
    y = y0
    while y + line_h <= y1:
        x = x0 + int(rng.integers(0, line_h))
        while True:
            word = str(rng.choice(_WORDS))
            width = draw.textlength(word + " ", font=font)
            if x + width > x1:
                break
            draw.text((x, y), word, fill=int(rng.integers(0, 60)), font=font)
            x += int(width)
        y += line_h


def _render_page(
    digits: Sequence[int],
    rng: np.random.Generator,
    *,
    cell: int,
    font_path: str | None,
    thick_border: bool,
    grey_lines: bool,
    distractor_grid: bool,
) -> tuple[UInt8Array, tuple[float, float], tuple[float, float, float, float]]:
    """Draw the flat page; return it, the grid origin and the box that must stay in view."""
    side = 9 * cell
    pad = 3 * cell
    small = 0.4 * cell
    extra = int(9 * small + cell) if distractor_grid else 0
    page_w, page_h = side + 2 * pad + extra, side + 2 * pad
    page = Image.new("L", (page_w, page_h), 245)
    draw = ImageDraw.Draw(page)
    text_font = _font(font_path, max(8, int(cell * 0.28)))
    line_h = int(cell * 0.42)
    # Newspaper columns all around the grid.
    _draw_text_block(draw, (8, 8, page_w - 8, pad - cell // 2), text_font, line_h, rng)
    _draw_text_block(
        draw, (8, pad + side + cell // 2, page_w - 8, page_h - 8), text_font, line_h, rng
    )
    _draw_text_block(draw, (8, pad, pad - cell // 2, pad + side), text_font, line_h, rng)
    origin = (float(pad), float(pad))
    _draw_digits(draw, origin, cell, digits, _font(font_path, int(cell * 0.62)), 20)
    keep = (origin[0], origin[1], origin[0] + side, origin[1] + side)
    right = pad + side + cell // 2
    s_origin = (float(right + cell // 2), float(pad + side - 9 * small))
    if distractor_grid:
        # Yesterday's solution: a small complete grid right of the puzzle.
        sol = [int(v) for v in rng.integers(1, 10, size=81)]
        _draw_digits(draw, s_origin, small, sol, _font(font_path, max(6, int(small * 0.7))), 20)
        _draw_text_block(
            draw, (right, pad, page_w - 8, int(s_origin[1] - cell // 2)), text_font, line_h, rng
        )
        keep = (keep[0], keep[1], s_origin[0] + 9 * small, keep[3])
    else:
        _draw_text_block(draw, (right, pad, page_w - 8, pad + side), text_font, line_h, rng)
    arr = np.asarray(page, dtype=np.float64).copy()
    thin = cell / 30
    _draw_grid_lines(
        arr,
        origin,
        cell,
        thin=thin,
        thick=max(thin + 1.0, cell / 12) if thick_border else thin,
        border=max(thin + 2.0, cell / 9) if thick_border else thin,
        thin_colour=150.0 if grey_lines else 20.0,
        ink=20.0,
    )
    if distractor_grid:
        _draw_grid_lines(
            arr, s_origin, small, thin=1.0, thick=1.6, border=2.0, thin_colour=20.0, ink=20.0
        )
    return np.clip(arr + 0.5, 0, 255).astype(np.uint8), origin, keep


def _bend_inverse(
    pts: FloatArray, centre: tuple[float, float], side: float, amp: float
) -> FloatArray:
    """Flat-page position seen at bent-page position ``pts`` (N, 2).

    A smooth bow: lines shift by up to ``amp`` pixels in the middle of the grid and not
    at all at its centre lines' ends, like a page that does not lie flat.
    """
    u = (pts[:, 0] - centre[0]) / side  # about -0.5..0.5 over the grid
    v = (pts[:, 1] - centre[1]) / side
    dx = amp * 0.6 * np.cos(np.pi * v) * np.sin(np.pi * u)
    dy = amp * (np.cos(np.pi * u) - 0.5)
    return np.stack([pts[:, 0] - dx, pts[:, 1] - dy], axis=1)


def _bend_forward(
    pts: FloatArray, centre: tuple[float, float], side: float, amp: float
) -> FloatArray:
    """Inverse of :func:`_bend_inverse` by fixed-point iteration (the bend is gentle)."""
    q = pts.copy()
    for _ in range(50):
        q = q + (pts - _bend_inverse(q, centre, side, amp))
    return q


def render_puzzle_photo(
    givens: str,
    *,
    seed: int,
    rotation_deg: float = 0.0,
    perspective: float = 0.0,
    blur: float = 0.0,
    shadow: bool = False,
    noise: float = 0.0,
    size: tuple[int, int] = (800, 600),
    font: str | None = None,
    thick_border: bool = True,
    grey_lines: bool = False,
    distractor_grid: bool = False,
    bend: float = 0.0,
) -> tuple[UInt8Array, FloatArray, FloatArray]:
    """Render a synthetic phone photo of a printed Sudoku.

    Parameters
    ----------
    givens : str
        81 characters, row by row, ``0`` or ``.`` for an empty cell.
    seed : int
        Seeds every random choice (placement, text, noise): same seed, same photo.
    rotation_deg : float
        Rotation of the page in the photo, counter-clockwise, in degrees (90 = the
        puzzle's top edge on the left).
    perspective : float
        Strength of the camera tilt: 0 = straight on, 0.15 = strong.
    blur : float
        Gaussian blur sigma in photo pixels.
    shadow : bool
        Add a soft shadow across part of the page and uneven light.
    noise : float
        Standard deviation of the Gaussian sensor noise, in grey levels.
    size : (int, int)
        ``(width, height)`` of the photo.
    font : str, optional
        Path of the TrueType font for the digits and text (default: DejaVu Sans or
        Pillow's bundled font).
    thick_border : bool
        Draw the outer border and box lines thicker than the cell lines.
    grey_lines : bool
        Draw the thin cell lines in grey instead of black.
    distractor_grid : bool
        Add a small 9x9 solution grid beside the puzzle.
    bend : float
        Bow of the page: the lines' largest displacement, in cells (0.3 = visible).

    Returns
    -------
    image : (H, W, 3) uint8 array
        The photo, BGR.
    corners : (4, 2) float array
        Outer grid corners in photo pixels, TL, TR, BR, BL of the *puzzle* (so rotated
        with the page).
    lattice : (10, 10, 2) float array
        ``lattice[i, j]`` = ``(x, y)`` of the crossing of horizontal line ``i`` and
        vertical line ``j``, in the puzzle's own order (row 0 = its real top).
    """
    digits = _parse_givens(givens)
    rng = np.random.default_rng(seed)
    width, height = size
    cell = 48
    page, origin, keep = _render_page(
        digits,
        rng,
        cell=cell,
        font_path=font,
        thick_border=thick_border,
        grey_lines=grey_lines,
        distractor_grid=distractor_grid,
    )
    side = 9.0 * cell
    centre = (origin[0] + side / 2, origin[1] + side / 2)
    amp = bend * cell

    # Camera: rotate about the grid centre, tilt (random corner offsets), then scale and
    # shift so that the kept region fills 55-85% of the photo's short side.
    theta = np.deg2rad(rotation_deg)
    rot = np.array(
        [[np.cos(theta), np.sin(theta), 0.0], [-np.sin(theta), np.cos(theta), 0.0], [0, 0, 1]]
    )
    shift = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1.0]])
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64) * side / 2
    jitter = rng.uniform(-1, 1, size=(4, 2)) * perspective * side
    tilt = cv2.getPerspectiveTransform(sq.astype(np.float32), (sq + jitter).astype(np.float32))
    h = tilt @ rot @ shift
    kx0, ky0, kx1, ky1 = keep
    keep_pts = np.array([[kx0, ky0], [kx1, ky0], [kx1, ky1], [kx0, ky1]], dtype=np.float64)
    kp = cv2.perspectiveTransform(keep_pts[None], h)[0]
    span = kp.max(axis=0) - kp.min(axis=0)
    fill = rng.uniform(0.55, 0.85)
    scale = min(
        fill * min(width, height) / span.max(), 0.95 * width / span[0], 0.95 * height / span[1]
    )
    kp_s = kp * scale
    lo = kp_s.min(axis=0)
    room = np.array([width, height]) - (kp_s.max(axis=0) - lo)
    offset = rng.uniform(0.15, 0.85, size=2) * room - lo
    place = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1.0]])
    h = place @ h  # flat page -> photo (bend aside)

    # Sample: for each photo pixel, page position = bend^-1(H^-1(pixel)).
    gx, gy = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    pix = np.stack([gx.ravel(), gy.ravel()], axis=1)
    src = cv2.perspectiveTransform(pix[None], np.linalg.inv(h))[0]
    if amp:
        src = _bend_inverse(src, centre, side, amp)
    map_x = src[:, 0].reshape(height, width).astype(np.float32)
    map_y = src[:, 1].reshape(height, width).astype(np.float32)
    page_f = page
    if scale < 0.8:  # pre-blur so the downsampling warp does not alias thin lines
        page_f = np.asarray(cv2.GaussianBlur(page, (0, 0), 0.45 / scale), dtype=np.uint8)
    table = int(rng.integers(40, 110))
    photo = cv2.remap(
        page_f, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=table
    ).astype(np.float64)

    # Light: a gentle gradient always, plus a soft-edged shadow when asked.
    ax, ay = rng.uniform(-1, 1, size=2)
    light = 1.0 - 0.12 * (ax * (gx / width - 0.5) + ay * (gy / height - 0.5))
    if shadow:
        ang = rng.uniform(0, 2 * np.pi)
        d = np.cos(ang) * (gx - width / 2) + np.sin(ang) * (gy - height / 2)
        d0 = rng.uniform(-0.2, 0.2) * min(width, height)
        soft = 0.04 * min(width, height)
        light *= 1.0 - 0.5 / (1.0 + np.exp(-(d - d0) / soft))
    photo *= light
    if blur > 0:
        photo = np.asarray(cv2.GaussianBlur(photo, (0, 0), blur), dtype=np.float64)
    if noise > 0:
        photo += rng.normal(0.0, noise, size=photo.shape)
    gray = np.clip(photo + 0.5, 0, 255).astype(np.uint8)
    # Slightly warm paper tint, as under indoor light.
    tint = np.array([0.9, 0.97, 1.0])
    bgr = np.clip(gray[:, :, None] * tint + 0.5, 0, 255).astype(np.uint8)

    # Truth: lattice in page coordinates -> bend -> camera.
    jj, ii = np.meshgrid(np.arange(10.0), np.arange(10.0))
    flat = np.stack([origin[0] + jj.ravel() * cell, origin[1] + ii.ravel() * cell], axis=1)
    bent = _bend_forward(flat, centre, side, amp) if amp else flat
    lat = cv2.perspectiveTransform(bent[None], h)[0].reshape(10, 10, 2)
    corners = np.array([lat[0, 0], lat[0, 9], lat[9, 9], lat[9, 0]])
    return bgr, corners, lat


def render_book_page(
    puzzles: Sequence[str],
    *,
    columns: int = 2,
    size: tuple[int, int] = (1240, 1754),
    font: str | None = None,
    solution: str | None = None,
) -> UInt8Array:
    """Render a flat puzzle-book page (gray, like a scan) holding several puzzles.

    Parameters
    ----------
    puzzles : sequence of str
        Givens of each puzzle (81 characters), placed in reading order on a grid of
        ``columns`` columns.
    columns : int, keyword-only
        Puzzles per row.
    size : (int, int), keyword-only
        ``(width, height)`` of the page (the default is A4 at 150 dpi).
    solution : str, optional
        A filled grid printed small at the bottom right, as newspapers print yesterday's
        solution: not a puzzle to solve.

    Returns
    -------
    (H, W) uint8 array
    """
    width, height = size
    rows = -(-len(puzzles) // columns)
    margin = 0.08 * width
    slot_w = (width - 2 * margin) / columns
    slot_h = (height - 2 * margin) / max(rows, 1)
    cell = int(min(slot_w, slot_h) * 0.8 / 9)
    if solution is not None:
        # Room for the small grid below the puzzles, which it never overlaps (a line
        # of another grid through a puzzle's cells is no page a paper prints).
        slot_h = (height - 2 * margin - 9 * cell * 0.3) / max(rows, 1)
        cell = int(min(slot_w, slot_h) * 0.8 / 9)
    page = np.full((height, width), 250.0)
    origins = []
    for i in range(len(puzzles)):
        r, c = divmod(i, columns)
        ox = margin + c * slot_w + (slot_w - 9 * cell) / 2
        oy = margin + r * slot_h + (slot_h - 9 * cell) / 2
        origins.append((ox, oy))
        _draw_grid_lines(page, (ox, oy), cell, thin=max(1.0, cell / 30), thick=max(2.0, cell / 12),
                         border=max(2.5, cell / 10), thin_colour=90.0, ink=15.0)  # fmt: skip
    small_origin = (width - margin - 9 * cell * 0.3, height - margin * 0.9 - 9 * cell * 0.3)
    if solution is not None:
        _draw_grid_lines(page, small_origin, cell * 0.3, thin=1.0, thick=1.5, border=2.0,
                         thin_colour=90.0, ink=15.0)  # fmt: skip
    img = Image.fromarray(np.clip(page, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(img)
    digit_font = _font(font, int(cell * 0.62))
    for givens, origin in zip(puzzles, origins, strict=True):
        _draw_digits(draw, origin, cell, _parse_givens(givens), digit_font, 20)
    if solution is not None:
        small_font = _font(font, max(6, int(cell * 0.3 * 0.62)))
        _draw_digits(draw, small_origin, cell * 0.3, _parse_givens(solution), small_font, 20)
    return np.asarray(img, dtype=np.uint8)


# --------------------------------------------------------------------------------------
# Stress pages: prints, screens and damage unlike the photos the reader was tuned on.
#
# :func:`render_stress_page` draws one page in a :class:`StressStyle` (how the grid is
# printed or which app shows it, plus any number of degradations) and returns it with
# the exact lattice, the printed givens and the player's entries (which are not givens).
# The digits are drawn in a chosen :class:`FontFamily`; the families the digit network
# was trained on and the ones held out of training are listed below.


class Medium(Enum):
    """What the picture shows."""

    PRINT = "print"  # a printed page, photographed with a phone
    APP_LIGHT = "app-light"  # a screenshot of a Sudoku app, light theme
    APP_DARK = "app-dark"  # the same in dark mode: light lines and digits on near-black


class LineStyle(Enum):
    """How the 20 grid lines are printed."""

    CLASSIC = "classic"  # black; box lines and frame thicker
    THIN_GREY = "thin-grey"  # cell lines thin and grey, box lines black
    DOTTED = "dotted"  # cell lines dotted or dashed grey, box lines black
    COLOURED = "coloured"  # every line in blue, green or maroon
    FRAME_ONLY = "frame-only"  # only the frame black and bold; all inner lines light hairlines
    NO_BOX_LINES = "no-box-lines"  # all lines, frame included, equally thin


class BoxShade(Enum):
    """Shading of alternate 3x3 boxes (print only)."""

    NONE = "none"
    GREY = "grey"
    PASTEL = "pastel"  # pale yellow, blue or pink


class Degradation(Enum):
    """Damage to the picture; any number combine.

    On an app medium, any of them but HEAVY_JPEG means a photo of the screen, as
    SCREEN_PHOTO does.
    """

    WASHED_OUT = "washed-out"  # faint ink on grey paper, hazy exposure
    LOW_RES = "low-res"  # a 600x800 photo
    HIGH_RES = "high-res"  # a 12 MP photo (4032x3024)
    HALFTONE = "halftone"  # greys printed as dot screens (newsprint): moire in the photo
    CRUMPLED = "crumpled"  # crumpled paper: a smooth random displacement, creases shaded
    GLARE = "glare"  # a bright reflection over part of the grid, the digits still legible
    GLARE_BURNT = "glare-burnt"  # the reflection's core burnt out white, digits and all
    SMALL_GRID = "small-grid"  # a 4000x3000 photo of a whole page; the grid 20-25% wide
    SCREEN_PHOTO = "screen-photo"  # the app's screen photographed: sub-pixel moire, tilt
    HEAVY_JPEG = "heavy-jpeg"  # JPEG quality 6-12
    MOTION_BLUR = "motion-blur"  # camera shake: a 8-18 px line blur
    STRONG_PERSPECTIVE = "strong-perspective"  # a steep camera tilt and rotation
    CURLED = "curled"  # a page that does not lie flat (bend of 0.3-0.5 cells)
    FINGER = "finger"  # a fingertip or a pen over the grid's edge, hiding cells
    MIRRORED = "mirrored"  # the picture mirrored left to right: a webcam's, a front camera's
    COLOUR_CAST = "colour-cast"  # white balance off for the light: each channel 0.7-1.0


# Damage a screenshot can suffer without a camera (any other means a photo of the screen).
_SCREENSHOT_DAMAGE = frozenset({Degradation.HEAVY_JPEG})


@dataclass(frozen=True)
class StressStyle:
    """How a stress page looks: the medium, the grid's print and the damage.

    Attributes
    ----------
    medium : Medium
        A printed page or an app screenshot.
    lines : LineStyle
        The grid lines (print; the apps draw their own thin and box lines).
    boxes : BoxShade
        Shaded alternate boxes (print).
    colour_print : bool
        Digits (and lines, unless COLOURED) in one dark colour: navy, maroon or green.
    degradations : frozenset of Degradation
        Damage to the picture.
    beyond_reading : bool
        The damage wipes out digits a person could not read either (a burnt-out
        reflection; shake, glare, a steep tilt and heavy JPEG at once): the reader is
        right to refuse, and must never give another puzzle.
    """

    medium: Medium = Medium.PRINT
    lines: LineStyle = LineStyle.CLASSIC
    boxes: BoxShade = BoxShade.NONE
    colour_print: bool = False
    degradations: frozenset[Degradation] = frozenset()
    beyond_reading: bool = False

    @property
    def is_app(self) -> bool:
        return self.medium is not Medium.PRINT

    @property
    def photographed(self) -> bool:
        """Whether a camera took the picture (always for print; for apps, when damaged)."""
        return not self.is_app or bool(self.degradations - _SCREENSHOT_DAMAGE)

    def has(self, d: Degradation) -> bool:
        return d in self.degradations


def _style(*damage: Degradation, **kw: object) -> StressStyle:
    return StressStyle(degradations=frozenset(damage), **kw)  # type: ignore[arg-type]


D = Degradation
STRESS_STYLES: dict[str, StressStyle] = {
    # Control: the look the reader was tuned on (only the font and the camera vary).
    "classic": _style(),
    # Grid prints.
    "thin-grey": _style(lines=LineStyle.THIN_GREY),
    "dotted": _style(lines=LineStyle.DOTTED),
    "coloured-lines": _style(lines=LineStyle.COLOURED),
    "frame-only": _style(lines=LineStyle.FRAME_ONLY),
    "no-box-lines": _style(lines=LineStyle.NO_BOX_LINES),
    "tinted-grey": _style(boxes=BoxShade.GREY),
    "tinted-pastel": _style(boxes=BoxShade.PASTEL, lines=LineStyle.THIN_GREY),
    "colour-print": _style(colour_print=True),
    # Apps.
    "app-light": _style(medium=Medium.APP_LIGHT),
    "app-dark": _style(medium=Medium.APP_DARK),
    "screen-photo": _style(D.SCREEN_PHOTO, medium=Medium.APP_LIGHT),
    "screen-photo-dark": _style(D.SCREEN_PHOTO, medium=Medium.APP_DARK),
    # Damage to a classic print.
    "washed-out": _style(D.WASHED_OUT),
    "low-res": _style(D.LOW_RES),
    "halftone": _style(D.HALFTONE, lines=LineStyle.THIN_GREY),
    "crumpled": _style(D.CRUMPLED),
    "crumpled-12mp": _style(D.CRUMPLED, D.HIGH_RES),
    "glare": _style(D.GLARE),
    "glare-burnt": _style(D.GLARE_BURNT, beyond_reading=True),
    "small-grid": _style(D.SMALL_GRID),
    "heavy-jpeg": _style(D.HEAVY_JPEG),
    "motion-blur": _style(D.MOTION_BLUR),
    "perspective": _style(D.STRONG_PERSPECTIVE),
    "curled": _style(D.CURLED),
    # A laptop's webcam or a phone's front camera: a small picture, the page mirrored.
    "webcam-mirrored": _style(D.MIRRORED, D.LOW_RES),
    # A screen's white is not the room's: the camera balances for the room, and the
    # screen comes out tinted.
    "screen-photo-cast": _style(D.SCREEN_PHOTO, D.COLOUR_CAST, medium=Medium.APP_LIGHT),
    "screen-photo-dark-cast": _style(D.SCREEN_PHOTO, D.COLOUR_CAST, medium=Medium.APP_DARK),
    # Combinations seen in the reports.
    "pastel-dotted-low-res": _style(
        D.LOW_RES, boxes=BoxShade.PASTEL, lines=LineStyle.DOTTED, colour_print=True
    ),
    "washed-dotted": _style(D.WASHED_OUT, lines=LineStyle.DOTTED),
    "frame-only-small-grid": _style(D.SMALL_GRID, lines=LineStyle.FRAME_ONLY),
    "newsprint-crinkled": _style(D.HALFTONE, D.CRUMPLED, lines=LineStyle.THIN_GREY),
    "handheld": _style(
        D.MOTION_BLUR, D.GLARE, D.STRONG_PERSPECTIVE, D.HEAVY_JPEG, beyond_reading=True
    ),
    # A finger holding the page, or a pen lying on it, over the grid: the cells under it
    # were never seen, so a refusal is right (a reading too, where it hides no digit).
    "finger": _style(D.FINGER, beyond_reading=True),
}
del D


# Fonts. The digit network was trained on every font of the TRAIN packages (see
# scanner/digits/train.py); the HELD_OUT ones must never be used in training, so that
# reading them measures how the reader does on unseen type. OpenCV's Hershey faces are
# held out too. (EB Garamond is left out: its default figures are old-style.)


class FontSet(Enum):
    TRAIN = "train"
    HELD_OUT = "held-out"
    ALL = "all"


@dataclass(frozen=True)
class FontFamily:
    """A typeface for the digits: font files by name (regular first), or a Hershey face.

    Attributes
    ----------
    name : str
        Display name.
    package : str
        The Debian package that installs it ("" for OpenCV's Hershey faces).
    files : tuple of str
        File names looked up under /usr/share/fonts; the first found is the regular
        face, a second one (bold) is used on some pages.
    hershey : int or None
        An OpenCV ``cv2.FONT_HERSHEY_*`` face instead of files.
    """

    name: str
    package: str
    files: tuple[str, ...] = ()
    hershey: int | None = None

    def paths(self) -> list[str]:
        """The family's font files found on this machine, regular first."""
        index = _font_index()
        return [index[f] for f in self.files if f in index]

    @property
    def available(self) -> bool:
        return self.hershey is not None or bool(self.paths())


TRAIN_FONT_FAMILIES: tuple[FontFamily, ...] = (
    FontFamily("DejaVu Sans", "fonts-dejavu-core", ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")),
    FontFamily("DejaVu Serif", "fonts-dejavu-core", ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf")),
    FontFamily("Liberation Sans", "fonts-liberation",
               ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")),
    FontFamily("Liberation Serif", "fonts-liberation",
               ("LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf")),
    FontFamily("FreeSans", "fonts-freefont-ttf", ("FreeSans.ttf", "FreeSansBold.ttf")),
    FontFamily("FreeSerif", "fonts-freefont-ttf", ("FreeSerif.ttf", "FreeSerifBold.ttf")),
    FontFamily("Nimbus Sans", "fonts-urw-base35",
               ("NimbusSans-Regular.otf", "NimbusSans-Bold.otf")),
    FontFamily("Nimbus Roman", "fonts-urw-base35",
               ("NimbusRoman-Regular.otf", "NimbusRoman-Bold.otf")),
    FontFamily("Noto Sans", "fonts-noto-core", ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf")),
    FontFamily("Noto Serif", "fonts-noto-core", ("NotoSerif-Regular.ttf", "NotoSerif-Bold.ttf")),
    FontFamily("Arimo", "fonts-croscore", ("Arimo-Regular.ttf", "Arimo-Bold.ttf")),
    FontFamily("Tinos", "fonts-croscore", ("Tinos-Regular.ttf", "Tinos-Bold.ttf")),
    FontFamily("Carlito", "fonts-crosextra-carlito", ("Carlito-Regular.ttf", "Carlito-Bold.ttf")),
    FontFamily("Caladea", "fonts-crosextra-caladea", ("Caladea-Regular.ttf", "Caladea-Bold.ttf")),
    FontFamily("Open Sans", "fonts-open-sans", ("OpenSans-Regular.ttf", "OpenSans-Bold.ttf")),
    FontFamily("Roboto", "fonts-roboto-unhinted", ("Roboto-Regular.ttf", "Roboto-Bold.ttf")),
)  # fmt: skip

HELD_OUT_FONT_FAMILIES: tuple[FontFamily, ...] = (
    FontFamily("Lato", "fonts-lato", ("Lato-Regular.ttf", "Lato-Bold.ttf")),
    FontFamily("Cantarell", "fonts-cantarell", ("Cantarell-Regular.otf", "Cantarell-Bold.otf")),
    FontFamily("Inconsolata", "fonts-inconsolata", ("Inconsolata.otf",)),
    FontFamily("Linux Libertine", "fonts-linuxlibertine",
               ("LinLibertine_R.otf", "LinLibertine_RB.otf")),
    FontFamily("Linux Biolinum", "fonts-linuxlibertine",
               ("LinBiolinum_R.otf", "LinBiolinum_RB.otf")),
    FontFamily("Fira Code", "fonts-firacode", ("FiraCode-Regular.ttf", "FiraCode-Bold.ttf")),
    FontFamily("Comfortaa", "fonts-comfortaa", ("Comfortaa-Regular.ttf", "Comfortaa-Bold.ttf")),
    FontFamily("Hack", "fonts-hack", ("Hack-Regular.ttf", "Hack-Bold.ttf")),
    FontFamily("Quicksand", "fonts-quicksand", ("Quicksand-Regular.ttf", "Quicksand-Bold.ttf")),
    FontFamily("Oxygen Sans", "fonts-oxygen", ("Oxygen-Sans.ttf", "Oxygen-Sans-Bold.ttf")),
    FontFamily("League Spartan", "fonts-league-spartan",
               ("LeagueSpartan-Regular.otf", "LeagueSpartan-Bold.otf")),
    FontFamily("Charis SIL", "fonts-sil-charis", ("CharisSIL-Regular.ttf", "CharisSIL-Bold.ttf")),
    FontFamily("Hershey Simplex", "", hershey=cv2.FONT_HERSHEY_SIMPLEX),
    FontFamily("Hershey Duplex", "", hershey=cv2.FONT_HERSHEY_DUPLEX),
    FontFamily("Hershey Complex", "", hershey=cv2.FONT_HERSHEY_COMPLEX),
    FontFamily("Hershey Triplex", "", hershey=cv2.FONT_HERSHEY_TRIPLEX),
)  # fmt: skip

# The handwriting fonts the network trains on (the Makefile's HAND_FONT_PACKAGES; their
# folders are scanner.digits.synth.HAND_FONT_DIRS) and the one held out for benchmarks.
HAND_FONT_PACKAGES: tuple[str, ...] = (
    "fonts-breip",
    "fonts-bwht",
    "fonts-comic-neue",
    "fonts-dancingscript",
    "fonts-dkg-handwriting",
    "fonts-humor-sans",
    "fonts-klee",
    "fonts-rufscript",
)
HELD_OUT_HAND_FONT_PACKAGES: tuple[str, ...] = (
    "fonts-kiloji",
    "fonts-seto",
    "fonts-sjfonts",
    "fonts-yusei-magic",
)

# The Debian packages of the held-out families (the Makefile's STRESS_FONT_PACKAGES).
STRESS_FONT_PACKAGES: tuple[str, ...] = tuple(
    sorted({f.package for f in HELD_OUT_FONT_FAMILIES if f.package})
    + list(HELD_OUT_HAND_FONT_PACKAGES)
)


@functools.lru_cache(maxsize=1)
def _font_index() -> dict[str, str]:
    """Font file name -> path, for every font under /usr/share/fonts (first one wins)."""
    index: dict[str, str] = {}
    for path in sorted(glob.glob("/usr/share/fonts/**/*.[ot]tf", recursive=True)):
        index.setdefault(os.path.basename(path), path)
    return index


def font_families(which: FontSet) -> tuple[list[FontFamily], list[FontFamily]]:
    """The families of a set that this machine has, and those it lacks (to skip, noted)."""
    pool = {
        FontSet.TRAIN: TRAIN_FONT_FAMILIES,
        FontSet.HELD_OUT: HELD_OUT_FONT_FAMILIES,
        FontSet.ALL: TRAIN_FONT_FAMILIES + HELD_OUT_FONT_FAMILIES,
    }[which]
    return [f for f in pool if f.available], [f for f in pool if not f.available]


class _Pen:
    """Draws centred digits in one face (a font file, or a Hershey face, or the default)."""

    def __init__(self, family: FontFamily | None, rng: np.random.Generator) -> None:
        self.hershey = family.hershey if family is not None else None
        paths = family.paths() if family is not None else []
        # Newspapers and apps print givens bold about as often as regular.
        self.path = paths[int(rng.integers(len(paths)))] if paths else find_font()
        self.name = family.name if family is not None and family.available else "DejaVu Sans"
        self._fonts: dict[int, FontT] = {}

    def font(self, size: int) -> FontT:
        if size not in self._fonts:
            self._fonts[size] = _font(self.path, size)
        return self._fonts[size]

    def draw(
        self,
        canvas: FloatArray,
        items: Sequence[tuple[float, float, str, tuple[int, int, int]]],
        size: int,
    ) -> None:
        """Draw ``(cx, cy, text, rgb)`` items, text ``size`` px (em), onto the RGB canvas."""
        if not items:
            return
        img = np.clip(canvas + 0.5, 0, 255).astype(np.uint8)
        if self.hershey is None:
            pil = Image.fromarray(img)
            draw = ImageDraw.Draw(pil)
            for cx, cy, text, rgb in items:
                draw.text((cx, cy), text, fill=rgb, font=self.font(size), anchor="mm")
            img = np.asarray(pil)
        else:
            # Hershey "8" at scale 1 is 21 px tall; TrueType digits are about 0.72 em.
            scale = 0.72 * size / 21.0
            thick = max(1, round(size / 20))
            for cx, cy, text, rgb in items:
                (tw, th), _ = cv2.getTextSize(text, self.hershey, scale, thick)
                org = (round(cx - tw / 2), round(cy + th / 2))
                cv2.putText(img, text, org, self.hershey, scale, rgb, thick, cv2.LINE_AA)
        canvas[...] = img


def _paint(
    page: FloatArray,
    rect: tuple[float, float, float, float],
    rgb: Sequence[float],
    *,
    darken: bool = False,
) -> None:
    """Paint a rectangle (x0, y0, x1, y1) onto an (H, W, 3) page, anti-aliased.

    ``darken``: ink on paper (each channel keeps the darker of page and ink, as
    :func:`_fill_rect` does); otherwise paint over, as a screen draws.
    """
    cover = _coverage(page.shape[:2], *rect)
    if cover is None:
        return
    j0, j1, i0, i1, alpha = cover
    region = page[j0:j1, i0:i1]
    mixed = region * (1 - alpha[..., None]) + np.asarray(rgb, dtype=np.float64) * alpha[..., None]
    page[j0:j1, i0:i1] = np.minimum(region, mixed) if darken else mixed


def _stress_lines(
    page: FloatArray,
    xs: Sequence[float],
    ys: Sequence[float],
    widths: Sequence[float],
    colours: Sequence[Sequence[float]],
    *,
    dash: tuple[float, float] | None = None,
    darken: bool,
) -> None:
    """Draw vertical lines centred at ``xs`` and horizontal ones at ``ys`` (10 each).

    ``widths[k]``/``colours[k]`` belong to line k of both directions; ``dash`` (on, off)
    breaks the cell lines (k not a multiple of 3) into dots or dashes.
    """
    for k in range(10):
        hw = widths[k] / 2
        broken = dash is not None and k % 3 != 0
        for along, across, vertical in ((ys, xs[k], True), (xs, ys[k], False)):
            lo, hi = along[0] - hw, along[9] + hw
            segments = [(lo, hi)]
            if broken:
                assert dash is not None
                on, off = dash
                starts = np.arange(lo + off / 2, hi, on + off)
                segments = [(s, min(s + on, hi)) for s in starts]
            for a, b in segments:
                rect = (
                    (across - hw, a, across + hw, b)
                    if vertical
                    else (a, across - hw, b, across + hw)
                )
                _paint(page, rect, colours[k], darken=darken)


_PASTELS = ((255, 246, 196), (214, 232, 250), (252, 222, 232))
_DARK_INKS = ((25, 40, 115), (115, 22, 35), (15, 80, 45))
_LINE_COLOURS = ((40, 90, 200), (30, 140, 60), (128, 28, 40))


@dataclass(frozen=True)
class HandPen:
    """How the person wrote their entries on a printed page.

    Attributes
    ----------
    font : str
        A handwriting font file (``scanner.digits.synth.hand_fonts``), or
        :data:`HERSHEY_SCRIPT` for OpenCV's script face (on every machine, and never
        trained on); each digit is redrawn by ``synth.hand_glyph`` so that no two are
        the same.
    ink : (int, int, int)
        RGB of the pen: black, blue, red, or grey for pencil.
    strength : float
        How much of the ink covers the paper (pencil is light).
    """

    font: str
    ink: tuple[int, int, int] = (25, 25, 30)
    strength: float = 0.95


HERSHEY_SCRIPT = "hershey-script"

PEN_INKS: dict[str, tuple[tuple[int, int, int], float]] = {
    "black pen": ((25, 25, 30), 0.95),
    "blue pen": ((30, 50, 150), 0.9),
    "red pen": ((170, 30, 30), 0.9),
    "pencil": ((90, 90, 95), 0.6),
}


def _write_entries(
    page: FloatArray,
    entries: Sequence[int],
    hand: HandPen,
    origin: tuple[float, float],
    cell: float,
    rng: np.random.Generator,
) -> None:
    """Write the entries into ``page`` (H, W, 3) RGB in the person's hand, in place."""
    from scanner.digits import synth as digit_synth

    glyphs = _hand_glyphs(hand)
    for i, d in enumerate(entries):
        if not d:
            continue
        g = digit_synth.hand_glyph(glyphs[d - 1], rng)
        h = cell * rng.uniform(0.5, 0.75)
        cx = origin[0] + (i % 9 + 0.5 + rng.normal(0, 0.06)) * cell
        cy = origin[1] + (i // 9 + 0.5 + rng.normal(0, 0.05)) * cell
        _write_glyph(page, g, hand, (cx, cy), h)


def _write_candidates_flat(
    page: FloatArray,
    candidates: Mapping[int, Sequence[int]],
    hand: HandPen,
    origin: tuple[float, float],
    cell: float,
    rng: np.random.Generator,
) -> None:
    """Write the person's candidates into ``page`` (H, W, 3) RGB in their hand, in place:
    each value (0.2-0.28 of a cell tall) in the place of a 3 x 3 layout it names, on the
    paper itself, so that the camera bends and shrinks them with the cell."""
    from scanner.digits import synth as digit_synth

    glyphs = _hand_glyphs(hand)
    for i, values in candidates.items():
        r, c = divmod(int(i), 9)
        for v in values:
            k = int(v) - 1
            x = origin[0] + (c + (k % 3 + 0.5) / 3) * cell
            y = origin[1] + (r + (k // 3 + 0.5) / 3) * cell
            g = digit_synth.hand_glyph(glyphs[k], rng)
            _write_glyph(page, g, hand, (x, y), cell * rng.uniform(0.2, 0.28))


def _hand_glyphs(hand: HandPen) -> list[npt.NDArray[np.float32]]:
    """The nine digit glyphs (alpha maps) of ``hand``'s font."""
    from scanner.digits import synth as digit_synth

    if hand.font == HERSHEY_SCRIPT:
        glyphs: list[npt.NDArray[np.float32]] | None = digit_synth.hershey_glyphs(
            cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, thickness=5
        )
    else:
        glyphs = digit_synth.font_glyphs(Path(hand.font))
    if glyphs is None:
        raise ValueError(f"{hand.font}: no usable digits")
    return glyphs


def _write_glyph(
    page: FloatArray,
    glyph: npt.NDArray[np.float32],
    hand: HandPen,
    centre: tuple[float, float],
    height: float,
) -> None:
    """Write a digit ``glyph`` (an alpha map, as ``synth.hand_glyph`` redrew it) ``height``
    px tall, centred at ``centre``, into ``page`` (H, W, 3) RGB in ``hand``'s ink, in place."""
    w = max(2, round(glyph.shape[1] * height / glyph.shape[0]))
    alpha = cv2.resize(glyph, (w, max(2, round(height))), interpolation=cv2.INTER_AREA)
    x0, y0 = round(centre[0] - alpha.shape[1] / 2), round(centre[1] - alpha.shape[0] / 2)
    region = page[max(y0, 0) : y0 + alpha.shape[0], max(x0, 0) : x0 + alpha.shape[1]]
    a = (alpha[: region.shape[0], : region.shape[1], None] * hand.strength).astype(np.float64)
    ink = np.asarray(hand.ink, dtype=np.float64)
    region[...] = region * (1 - a) + np.minimum(region, ink) * a


def _print_page(
    digits: Sequence[int],
    entries: Sequence[int],
    style: StressStyle,
    pen: _Pen,
    rng: np.random.Generator,
    *,
    cell: int,
    hand: HandPen | None = None,
    candidates: tuple[Mapping[int, Sequence[int]], np.random.Generator] | None = None,
) -> tuple[FloatArray, FloatArray, tuple[float, float, float, float]]:
    """A flat printed page (H, W, 3) RGB, its lattice (10, 10, 2) and the box to keep in
    view (``candidates``: the person's, and the generator of their strokes, own so that
    the page's other random choices stay as they are)."""
    side = 9 * cell
    small_grid = style.has(Degradation.SMALL_GRID)
    if small_grid:
        # A whole newspaper page: the grid 20-25% of its width, somewhere on it.
        page_w = int(side / rng.uniform(0.2, 0.25))
        page_h = int(page_w * 0.75)
        ox = float(rng.integers(cell, page_w - side - cell))
        oy = float(rng.integers(2 * cell, page_h - side - cell))
    else:
        pad = 3 * cell
        page_w = page_h = side + 2 * pad
        ox = oy = float(pad)
    paper: tuple[float, float, float] = (245.0, 243.0, 238.0)
    if style.has(Degradation.HALFTONE):
        paper = (226.0, 222.0, 210.0)  # newsprint
    page = np.empty((page_h, page_w, 3))
    page[...] = paper
    ink: tuple[int, int, int] = (20, 20, 20)
    line_ink: tuple[float, float, float] = (20.0, 20.0, 20.0)
    if style.colour_print:
        ink = _DARK_INKS[int(rng.integers(len(_DARK_INKS)))]
        line_ink = tuple(float(v) for v in ink)  # type: ignore[assignment]
    xs = [ox + k * cell for k in range(10)]
    ys = [oy + k * cell for k in range(10)]
    if style.boxes is not BoxShade.NONE:
        shade = (222.0, 222.0, 222.0)
        if style.boxes is BoxShade.PASTEL:
            shade = tuple(float(v) for v in _PASTELS[int(rng.integers(len(_PASTELS)))])  # type: ignore[assignment]
        page[int(oy) : int(oy) + side, int(ox) : int(ox) + side] = 255.0
        for b in range(9):
            br, bc = divmod(b, 3)
            if (br + bc) % 2 == 1:
                _paint(page, (xs[3 * bc], ys[3 * br], xs[3 * bc + 3], ys[3 * br + 3]), shade)

    # Text around the grid (body in DejaVu: the page's own type, not the puzzle's).
    img = Image.fromarray(np.clip(page + 0.5, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(img)
    text_font = _font(None, max(8, int(cell * 0.28)))
    line_h = int(cell * 0.42)
    gap = cell // 2
    if small_grid:
        head = _font(None, int(cell * 0.9))
        draw.text(
            (cell, cell // 3),
            "THE DAILY " + str(rng.choice(_WORDS)).upper(),
            fill=(15, 15, 15),
            font=head,
        )
        col_w = (page_w - 2 * cell) // 4
        for c in range(4):
            x0 = cell + c * col_w
            x1 = x0 + col_w - gap
            top = int(1.6 * cell)
            # Each column's text stops above and resumes below the grid where they meet.
            if x1 > ox - gap and x0 < ox + side + gap:
                _draw_text_block(draw, (x0, top, x1, int(oy) - gap), text_font, line_h, rng)
                _draw_text_block(
                    draw, (x0, int(oy + side) + gap, x1, page_h - gap), text_font, line_h, rng
                )
            else:
                _draw_text_block(draw, (x0, top, x1, page_h - gap), text_font, line_h, rng)
    else:
        pad = int(ox)
        _draw_text_block(draw, (8, 8, page_w - 8, pad - gap), text_font, line_h, rng)
        _draw_text_block(
            draw, (8, pad + side + gap, page_w - 8, page_h - 8), text_font, line_h, rng
        )
        _draw_text_block(draw, (8, pad, pad - gap, pad + side), text_font, line_h, rng)
        _draw_text_block(
            draw, (pad + side + gap, pad, page_w - 8, pad + side), text_font, line_h, rng
        )
    page = np.asarray(img, dtype=np.float64).copy()
    items = [
        (ox + (i % 9 + 0.5) * cell, oy + (i // 9 + 0.5) * cell, str(d), ink)
        for i, d in enumerate(digits)
        if d
    ]
    pen.draw(page, items, int(cell * rng.uniform(0.58, 0.72)))

    thin = cell / 30
    widths = [
        max(thin + 2.0, cell / 9)
        if k in (0, 9)
        else max(thin + 1.0, cell / 12)
        if k % 3 == 0
        else thin
        for k in range(10)
    ]
    colours: list[Sequence[float]] = [line_ink] * 10
    dash = None
    if style.lines is LineStyle.THIN_GREY:
        grey = float(rng.uniform(130, 175))
        widths = [w if k % 3 == 0 else max(0.7, cell / 45) for k, w in enumerate(widths)]
        colours = [line_ink if k % 3 == 0 else (grey,) * 3 for k in range(10)]
    elif style.lines is LineStyle.DOTTED:
        grey = float(rng.uniform(110, 160))
        widths = [w if k % 3 == 0 else max(1.0, cell / 30) for k, w in enumerate(widths)]
        colours = [line_ink if k % 3 == 0 else (grey,) * 3 for k in range(10)]
        dot = float(widths[1])
        dash = (dot, dot * rng.uniform(1.0, 2.0)) if rng.random() < 0.5 else (cell / 6, cell / 10)
    elif style.lines is LineStyle.COLOURED:
        colours = [
            tuple(float(v) for v in _LINE_COLOURS[int(rng.integers(len(_LINE_COLOURS)))])
        ] * 10
    elif style.lines is LineStyle.FRAME_ONLY:
        hair = float(rng.uniform(175, 210))
        widths = [cell / 8 if k in (0, 9) else max(0.6, cell / 60) for k in range(10)]
        colours = [line_ink if k in (0, 9) else (hair,) * 3 for k in range(10)]
    elif style.lines is LineStyle.NO_BOX_LINES:
        widths = [max(1.0, cell / 30)] * 10
    _stress_lines(page, xs, ys, widths, colours, dash=dash, darken=True)

    jitter = rng.uniform(-0.1, 0.1, size=(81, 2)) * cell  # drawn even when not used
    if any(entries) and hand is not None:
        _write_entries(page, entries, hand, (ox, oy), cell, rng)
    elif any(entries):
        # A puzzle in progress on paper: the solver's entries in blue pen, script hand.
        pen_ink = (30, 50, 150)
        img8 = np.clip(page + 0.5, 0, 255).astype(np.uint8)
        scale = cell / 40
        for i, d in enumerate(entries):
            if d:
                (tw, th), _ = cv2.getTextSize(str(d), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, 2)
                cx = ox + (i % 9 + 0.5) * cell + jitter[i, 0]
                cy = oy + (i // 9 + 0.5) * cell + jitter[i, 1]
                org = (round(cx - tw / 2), round(cy + th / 2))
                cv2.putText(
                    img8,
                    str(d),
                    org,
                    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                    scale,
                    pen_ink,
                    max(1, round(cell / 24)),
                    cv2.LINE_AA,
                )
        page = img8.astype(np.float64)
    if candidates is not None and hand is not None:
        _write_candidates_flat(page, candidates[0], hand, (ox, oy), cell, candidates[1])
    lattice = np.stack(np.meshgrid(xs, ys), axis=-1).astype(np.float64)
    keep = (0.0, 0.0, float(page_w), float(page_h)) if small_grid else (xs[0], ys[0], xs[9], ys[9])
    return page, lattice, keep


# Phone and tablet screens: (width, height) in pixels.
APP_SCREENS: tuple[tuple[int, int], ...] = ((1170, 2532), (1080, 2400), (750, 1334), (2048, 1536))


@dataclass(frozen=True)
class _AppTheme:
    background: tuple[int, int, int]
    grid_bg: tuple[int, int, int]
    thin: tuple[int, int, int]
    box: tuple[int, int, int]
    given: tuple[int, int, int]
    entry: tuple[int, int, int]
    mistake: tuple[int, int, int]
    peers: tuple[int, int, int]  # the selected cell's row, column and box
    selected: tuple[int, int, int]
    same: tuple[int, int, int]  # cells holding the selected digit
    pencil: tuple[int, int, int]
    text: tuple[int, int, int]
    muted: tuple[int, int, int]
    accent: tuple[int, int, int]


def _app_theme(dark: bool, rng: np.random.Generator) -> _AppTheme:
    blue, purple = (40, 95, 210), (120, 60, 200)
    if dark:
        bg = ((0, 0, 0), (18, 18, 18), (28, 28, 30))[int(rng.integers(3))]
        return _AppTheme(
            background=bg, grid_bg=bg, thin=(62, 62, 68), box=(150, 150, 158),
            given=(228, 228, 232), entry=((100, 160, 255), (185, 135, 255))[int(rng.integers(2))],
            mistake=(255, 95, 95), peers=(34, 38, 48), selected=(45, 78, 130), same=(40, 60, 95),
            pencil=(150, 150, 156), text=(235, 235, 240), muted=(140, 140, 148),
            accent=(100, 160, 255),
        )  # fmt: skip
    return _AppTheme(
        background=((255, 255, 255), (246, 247, 250), (250, 248, 242))[int(rng.integers(3))],
        grid_bg=(255, 255, 255), thin=(int(rng.integers(185, 215)),) * 3,
        box=((52, 72, 97), (40, 40, 40), (80, 80, 80))[int(rng.integers(3))],
        given=((52, 72, 97), (30, 30, 30), (0, 0, 0))[int(rng.integers(3))],
        entry=(blue, purple)[int(rng.integers(2))], mistake=(225, 50, 50), peers=(226, 235, 243),
        selected=(187, 222, 251), same=(195, 215, 234), pencil=(110, 110, 110),
        text=(20, 20, 20), muted=(110, 115, 125), accent=blue,
    )  # fmt: skip


def _app_screen(
    digits: Sequence[int],
    entries: Sequence[int],
    dark: bool,
    pen: _Pen,
    rng: np.random.Generator,
) -> tuple[FloatArray, FloatArray]:
    """A Sudoku app's screenshot (H, W, 3) RGB, pixel-exact, and its lattice (10, 10, 2)."""
    width, height = APP_SCREENS[int(rng.integers(len(APP_SCREENS)))]
    theme = _app_theme(dark, rng)
    landscape = width > height
    u = (height / 768) if landscape else (width / 390)  # one layout point, in pixels
    screen = np.empty((height, width, 3))
    screen[...] = theme.background
    ui = _font(None, max(8, int(15 * u)))
    top = int(47 * u) if not landscape else int(24 * u)
    # The grid: near the top spanning the width minus margins (a phone), or at the left
    # spanning the height (a tablet held sideways). Lines sit on whole pixels, as apps draw.
    if landscape:
        cell = int((height - top - 110 * u) / 9)
        gx, gy = int(40 * u), top + int(80 * u)
    else:
        margin = int(rng.uniform(6, 16) * u)
        cell = (width - 2 * margin) // 9
        gx, gy = (width - 9 * cell) // 2, top + int(rng.uniform(85, 130) * u)
    thin_w = max(1, round(0.8 * u))
    box_w = max(2, round(rng.uniform(1.5, 2.5) * u))
    widths = [box_w if k % 3 == 0 else thin_w for k in range(10)]
    # A line of even width is centred between two pixels.
    xs = [gx + k * cell + (0.5 if w % 2 == 0 else 0.0) for k, w in enumerate(widths)]
    ys = [gy + k * cell + (0.5 if w % 2 == 0 else 0.0) for k, w in enumerate(widths)]
    _paint(screen, (xs[0], ys[0], xs[9], ys[9]), theme.grid_bg)

    # The selection: a cell, its row, column and box highlighted, and its digit's twins.
    values = [g or e for g, e in zip(digits, entries, strict=True)]
    sel = int(rng.integers(81))
    sr, sc = divmod(sel, 9)

    def cell_rect(i: int) -> tuple[float, float, float, float]:
        r, c = divmod(i, 9)
        return xs[c], ys[r], xs[c + 1], ys[r + 1]

    for i in range(81):
        r, c = divmod(i, 9)
        if i == sel:
            _paint(screen, cell_rect(i), theme.selected)
        elif r == sr or c == sc or (r // 3, c // 3) == (sr // 3, sc // 3):
            _paint(screen, cell_rect(i), theme.peers)
        elif values[sel] and values[i] == values[sel]:
            _paint(screen, cell_rect(i), theme.same)
    _stress_lines(
        screen,
        xs,
        ys,
        widths,
        [theme.box if k % 3 == 0 else theme.thin for k in range(10)],
        darken=False,
    )

    # Digits: givens, entries (one or two shown as mistakes), pencil marks in some empty cells.
    # Drawn for every cell, so that the page's other choices do not depend on the entries.
    slips = rng.random(81) < 0.15
    mistakes = {i for i, e in enumerate(entries) if e and slips[i]}
    items = []
    for i, v in enumerate(values):
        if v:
            x0, y0, x1, y1 = cell_rect(i)
            colour = theme.given if digits[i] else theme.mistake if i in mistakes else theme.entry
            items.append(((x0 + x1) / 2, (y0 + y1) / 2, str(v), colour))
    pen.draw(screen, items, int(cell * rng.uniform(0.55, 0.7)))
    marks = []
    for i, v in enumerate(values):
        if v or rng.random() > 0.3:
            continue
        x0, y0, _, _ = cell_rect(i)
        for d in sorted(rng.choice(np.arange(1, 10), size=int(rng.integers(1, 5)), replace=False)):
            mr, mc = divmod(int(d) - 1, 3)
            marks.append(
                (x0 + (mc + 0.5) * cell / 3, y0 + (mr + 0.5) * cell / 3, str(d), theme.pencil)
            )
    _Pen(None, rng).draw(screen, marks, max(6, int(cell * 0.26)))

    # Chrome: status bar, title, game info, tool buttons and the number pad.
    img = Image.fromarray(np.clip(screen + 0.5, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(img)
    bold = _font(None, max(8, int(17 * u)))
    draw.text((int(24 * u), top // 2), "9:41", fill=theme.text, font=bold, anchor="lm")
    bx = width - int(50 * u)
    draw.rounded_rectangle(
        (bx, top // 2 - int(6 * u), bx + int(25 * u), top // 2 + int(6 * u)),
        radius=int(3 * u),
        outline=theme.text,
        width=max(1, int(u)),
    )
    draw.rectangle(
        (bx + int(2 * u), top // 2 - int(4 * u), bx + int(18 * u), top // 2 + int(4 * u)),
        fill=theme.text,
    )
    for b in range(4):
        x = bx - int((30 - 5 * b) * u)
        draw.rectangle(
            (x, top // 2 + int((4 - 3 * b) * u), x + int(3 * u), top // 2 + int(6 * u)),
            fill=theme.text,
        )
    title_y = top + int(25 * u)
    draw.text(
        (width // 2, title_y),
        "Sudoku",
        fill=theme.text,
        font=_font(None, int(22 * u)),
        anchor="mm",
    )
    draw.text(
        (int(20 * u), title_y), "<", fill=theme.accent, font=_font(None, int(26 * u)), anchor="lm"
    )
    info_y = gy - int(18 * u)
    level = str(rng.choice(["Easy", "Medium", "Hard", "Expert"]))
    draw.text((gx, info_y), level, fill=theme.muted, font=ui, anchor="lm")
    draw.text(
        (gx + 9 * cell // 2, info_y),
        f"Mistakes: {len(mistakes)}/3",
        fill=theme.muted,
        font=ui,
        anchor="mm",
    )
    draw.text(
        (gx + 9 * cell, info_y),
        f"{int(rng.integers(1, 40)):02d}:{int(rng.integers(60)):02d}",
        fill=theme.muted,
        font=ui,
        anchor="rm",
    )
    if landscape:
        px0, py0 = gx + 9 * cell + int(60 * u), gy
        pad_w = width - px0 - int(40 * u)
        key = min(pad_w // 3, int(9 * cell / 4))
        tools_y = py0 + int(20 * u)
        pad_y = tools_y + int(60 * u)
        pad_font = (
            _font(pen.path, int(key * 0.55))
            if pen.hershey is None
            else _font(None, int(key * 0.55))
        )
        for d in range(1, 10):
            r, c = divmod(d - 1, 3)
            x0, y0 = px0 + c * key, pad_y + r * key
            draw.rounded_rectangle(
                (x0 + 4, y0 + 4, x0 + key - 4, y0 + key - 4), radius=int(8 * u), fill=theme.peers
            )
            draw.text(
                (x0 + key / 2, y0 + key / 2), str(d), fill=theme.accent, font=pad_font, anchor="mm"
            )
        tool_x0, tool_w = float(px0), 3 * key / 4
    else:
        tools_y = int(ys[9] + 45 * u)
        pad_y = tools_y + int(75 * u)
        key = width // 9
        pad_font = _font(pen.path, int(38 * u)) if pen.hershey is None else _font(None, int(38 * u))
        for d in range(1, 10):
            draw.text(
                ((d - 0.5) * key, pad_y), str(d), fill=theme.accent, font=pad_font, anchor="mm"
            )
        tool_x0, tool_w = 0.0, width / 4
    small = _font(None, max(7, int(12 * u)))
    for t, label in enumerate(("Undo", "Erase", "Notes", "Hint")):
        cx = tool_x0 + (t + 0.5) * tool_w
        rad = 13 * u
        draw.ellipse(
            (cx - rad, tools_y - rad, cx + rad, tools_y + rad),
            outline=theme.muted,
            width=max(1, int(1.5 * u)),
        )
        draw.text((cx, tools_y + rad + 8 * u), label, fill=theme.muted, font=small, anchor="mt")
    bar_w = int(134 * u)
    draw.rounded_rectangle(
        ((width - bar_w) // 2, height - int(13 * u), (width + bar_w) // 2, height - int(8 * u)),
        radius=int(3 * u),
        fill=theme.text,
    )
    screen = np.asarray(img, dtype=np.float64).copy()
    lattice = np.stack(np.meshgrid(xs, ys), axis=-1).astype(np.float64)
    return screen, lattice


class _Crumple:
    """A crumpled sheet: displacement D(q) = sum of random plane waves, some with creases.

    The page point seen at ``q`` is ``q - D(q)`` (see :meth:`inverse`).
    """

    def __init__(self, rng: np.random.Generator, cell: float) -> None:
        n = 7
        angles = rng.uniform(0, np.pi, n)
        wavelength = rng.uniform(1.2, 4.0, n) * cell
        self.k = (
            np.stack([np.cos(angles), np.sin(angles)], axis=1) * (2 * np.pi / wavelength)[:, None]
        )
        push = rng.uniform(0, 2 * np.pi, n)
        # Total slope about 0.5 at most, so the sheet never folds over itself.
        amp = rng.uniform(0.5, 1.0, n) * 0.08 * wavelength / n * 2
        self.a = np.stack([np.cos(push), np.sin(push)], axis=1) * amp[:, None]
        self.phase = rng.uniform(0, 2 * np.pi, n)
        self.crease = rng.random(n) < 0.5

    def displacement(self, q: FloatArray) -> FloatArray:
        out = np.zeros_like(q)
        for k, a, ph, crease in zip(self.k, self.a, self.phase, self.crease, strict=True):
            s = np.sin(q @ k + ph)
            # A crease: |sin|, softened so the displacement stays smooth enough to invert.
            w = np.sqrt(s * s + 0.02) - 0.64 if crease else s
            out += w[:, None] * a[None, :]
        return out

    def inverse(self, q: FloatArray) -> FloatArray:
        return q - self.displacement(q)


def _forward(inverse: Callable[[FloatArray], FloatArray], pts: FloatArray) -> FloatArray:
    """Solve ``inverse(q) = pts`` for q by damped fixed-point iteration (gentle warps)."""
    q = pts.copy()
    for _ in range(400):
        step = pts - inverse(q)
        q = q + 0.7 * step
        if np.abs(step).max() < 1e-4:
            break
    return q


def _halftone(page: FloatArray, rng: np.random.Generator, period: float) -> FloatArray:
    """Print each channel's ink coverage as dots on a screen (a different angle each)."""
    h, w, _ = page.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    paper = page.reshape(-1, 3).max(axis=0)
    out = np.empty_like(page)
    for ch, angle in enumerate(np.deg2rad([15.0, 75.0, 45.0]) + rng.uniform(0, np.pi / 2)):
        u = np.cos(angle) * xx + np.sin(angle) * yy
        v = -np.sin(angle) * xx + np.cos(angle) * yy
        screen = 0.5 + 0.25 * (np.cos(2 * np.pi * u / period) + np.cos(2 * np.pi * v / period))
        cover = np.clip(1.0 - page[:, :, ch] / paper[ch], 0.0, 1.0)
        # Solid ink stays solid; greys and tints become dots of the matching area.
        dot = np.clip((cover - screen) / 0.12 + 0.5, 0.0, 1.0)
        out[:, :, ch] = paper[ch] * (1.0 - 0.85 * dot)
    return out


def _camera(
    page: FloatArray,
    lattice: FloatArray,
    keep: tuple[float, float, float, float],
    rng: np.random.Generator,
    *,
    size: tuple[int, int],
    fill: float,
    rotation_deg: float,
    perspective: float,
    warp: Callable[[FloatArray], FloatArray] | None,
    prefilter: float,
    border: float,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Photograph a flat page (h, w, 3): the photo (H, W, 3) float32, its lattice, and the
    page position sampled at every photo pixel (map_x, map_y).

    ``warp`` maps a seen page point to the flat page point (bend, crumple); ``keep`` is
    the page box that fills ``fill`` of the photo's short side.
    """
    width, height = size
    kx0, ky0, kx1, ky1 = keep
    centre = ((kx0 + kx1) / 2, (ky0 + ky1) / 2)
    span0 = max(kx1 - kx0, ky1 - ky0)
    theta = np.deg2rad(rotation_deg)
    rot = np.array(
        [[np.cos(theta), np.sin(theta), 0.0], [-np.sin(theta), np.cos(theta), 0.0], [0, 0, 1]]
    )
    shift = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1.0]])
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64) * span0 / 2
    jitter = rng.uniform(-1, 1, size=(4, 2)) * perspective * span0
    tilt = cv2.getPerspectiveTransform(sq.astype(np.float32), (sq + jitter).astype(np.float32))
    h = tilt @ rot @ shift
    keep_pts = np.array([[kx0, ky0], [kx1, ky0], [kx1, ky1], [kx0, ky1]], dtype=np.float64)
    kp = cv2.perspectiveTransform(keep_pts[None], h)[0]
    span = kp.max(axis=0) - kp.min(axis=0)
    scale = min(
        fill * min(width, height) / span.max(), 0.98 * width / span[0], 0.98 * height / span[1]
    )
    kp_s = kp * scale
    lo = kp_s.min(axis=0)
    room = np.array([width, height]) - (kp_s.max(axis=0) - lo)
    offset = rng.uniform(0.1, 0.9, size=2) * room - lo
    h = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1.0]]) @ h

    # Page position of every photo pixel, computed every 2nd (4th on big photos) pixel, at
    # the centres of the 2x2 blocks so that an exact 2x resize lines up, and interpolated:
    # the mapping is smooth, and this halves a render's time.
    step = 4 if width * height > 4_000_000 else 2
    if width % step or height % step:
        step = 1
    cx = np.arange(width // step) * step + (step - 1) / 2
    cy = np.arange(height // step) * step + (step - 1) / 2
    gx, gy = np.meshgrid(cx, cy)
    pix = np.stack([gx.ravel(), gy.ravel()], axis=1)
    src = cv2.perspectiveTransform(pix[None], np.linalg.inv(h))[0]
    if warp is not None:
        src = warp(src)
    map_x = src[:, 0].reshape(gx.shape).astype(np.float32)
    map_y = src[:, 1].reshape(gx.shape).astype(np.float32)
    if step > 1:
        map_x = cv2.resize(map_x, (width, height), interpolation=cv2.INTER_LINEAR)
        map_y = cv2.resize(map_y, (width, height), interpolation=cv2.INTER_LINEAR)
    page32 = page.astype(np.float32)
    if scale < 0.8 and prefilter > 0:  # so the downsampling warp does not alias thin lines
        page32 = np.asarray(cv2.GaussianBlur(page32, (0, 0), prefilter / scale), np.float32)
    photo = cv2.remap(
        page32, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
        borderValue=(border, border, border),
    )  # fmt: skip
    flat = lattice.reshape(-1, 2)
    seen = _forward(warp, flat) if warp is not None else flat
    lat = cv2.perspectiveTransform(seen[None], h)[0].reshape(10, 10, 2)
    return np.asarray(photo, dtype=np.float32), lat, map_x, map_y


@dataclass(frozen=True)
class StressPage:
    """A rendered stress page and its truth.

    Attributes
    ----------
    image : (H, W, 3) uint8 array
        The picture, BGR.
    lattice : (10, 10, 2) float array
        ``lattice[i, j]`` = ``(x, y)`` of the crossing of horizontal line ``i`` and
        vertical line ``j`` in image pixels, puzzle order.
    givens : list of int, length 81
        The printed givens (0 = empty).
    entries : list of int, length 81
        The player's entries drawn in otherwise empty cells (0 elsewhere): not givens.
    style : StressStyle
    seed : int
    font : str
        The digits' font family as drawn (DejaVu Sans when the asked one is missing).
    """

    image: UInt8Array
    lattice: FloatArray
    givens: list[int]
    entries: list[int]
    style: StressStyle
    seed: int
    font: str


def style_key(style: StressStyle) -> str:
    """A stable text of the style (frozenset order varies between processes)."""
    damage = ",".join(sorted(d.value for d in style.degradations))
    look = f"{style.medium.value}|{style.lines.value}|{style.boxes.value}|{style.colour_print}"
    return f"{look}|{damage}"


def _default_entries(digits: Sequence[int], rng: np.random.Generator) -> list[int]:
    """A game in progress: 10-30% of the empty cells filled, about half with one slip."""
    from solver.search import solutions

    found = solutions(list(digits), limit=1)
    empty = [i for i, d in enumerate(digits) if not d]
    chosen = [int(i) for i in rng.permutation(empty)[: int(len(empty) * rng.uniform(0.1, 0.3))]]
    entries = [0] * 81
    for i in chosen:
        entries[i] = found[0][i] if found else int(rng.integers(1, 10))
    if chosen and rng.random() < 0.5:
        entries[chosen[0]] = entries[chosen[0]] % 9 + 1
    return entries


def render_stress_page(
    givens: str | Sequence[int],
    *,
    style: StressStyle,
    seed: int,
    entries: Sequence[int] | None = None,
    font: FontFamily | None = None,
    hand: HandPen | None = None,
    candidates: Mapping[int, Sequence[int]] | None = None,
) -> StressPage:
    """Render a Sudoku as printed, shown or damaged in ``style``; deterministic in ``seed``.

    Parameters
    ----------
    givens : str or sequence of int
        81 characters (``0`` or ``.`` empty) or 81 ints (0 empty), row by row.
    style : StressStyle, keyword-only
        The look (see :data:`STRESS_STYLES` for the named ones).
    seed : int, keyword-only
        Seeds every random choice (with the style): same seed and style, same pixels.
    entries : sequence of int, optional
        81 ints, the player's entries, nonzero only in empty cells. Default: none on
        print, a game in progress on an app (correct digits and sometimes one slip).
    font : FontFamily, optional
        The digits' typeface (default DejaVu Sans; a missing family falls back to it).
    hand : HandPen, optional
        On print, the entries written in this hand and ink (default: blue pen in
        OpenCV's script face).
    candidates : mapping of int to sequence of int, optional
        On print with ``hand``: the person's candidates, cell -> the values noted there,
        written small in that hand on the paper itself (the camera bends and shrinks
        them with their cell; ``write_candidates`` writes on a finished picture). The
        rest of the page is drawn as without them, pixel for pixel.

    Returns
    -------
    StressPage
    """
    digits = _parse_givens(givens) if isinstance(givens, str) else [int(v) for v in givens]
    if len(digits) != 81 or not all(0 <= v <= 9 for v in digits):
        raise ValueError("givens must be 81 digits 0-9")
    rng = np.random.default_rng([seed, zlib.crc32(style_key(style).encode())])
    if entries is None:
        entries = _default_entries(digits, rng) if style.is_app else [0] * 81
    entries = [int(v) for v in entries]
    if len(entries) != 81 or any(
        e and (d or not 1 <= e <= 9) for d, e in zip(digits, entries, strict=True)
    ):
        raise ValueError("entries must be 81 ints, 1-9 only in empty cells")
    if candidates and (style.is_app or hand is None):
        raise ValueError("candidates are written on print, in a hand")
    if candidates and any(
        not 0 <= i < 81 or digits[i] or entries[i] or not all(1 <= v <= 9 for v in values)
        for i, values in candidates.items()
    ):
        raise ValueError("candidates are 1-9, in cells without a given or an entry")
    pen = _Pen(font, rng)
    has = style.has
    D = Degradation

    screen_box = (0, 0, 0, 0)  # the lit screen inside the photographed page (apps)
    if style.is_app:
        page, lattice = _app_screen(digits, entries, style.medium is Medium.APP_DARK, pen, rng)
        if not style.photographed:
            image = np.clip(page + 0.5, 0, 255).astype(np.uint8)[:, :, ::-1]
            if has(D.HEAVY_JPEG):
                image = _jpeg(image, int(rng.integers(6, 13)))
            return StressPage(
                np.ascontiguousarray(image), lattice, digits, entries, style, seed, pen.name
            )
        # The phone in its black bezel; the camera keeps the whole phone in view.
        bezel = int(0.04 * page.shape[1])
        screen_box = (bezel, bezel, bezel + page.shape[1], bezel + page.shape[0])
        page = np.asarray(
            cv2.copyMakeBorder(
                page, bezel, bezel, bezel, bezel, cv2.BORDER_CONSTANT, value=(10, 10, 12)
            ),
            np.float64,
        )
        lattice = lattice + bezel
        keep = (0.0, 0.0, float(page.shape[1]), float(page.shape[0]))
    else:
        cell = 96 if has(D.HIGH_RES) else 64 if has(D.HALFTONE) or has(D.SMALL_GRID) else 48
        noted = (candidates, np.random.default_rng([seed, 2])) if candidates else None
        page, lattice, keep = _print_page(
            digits, entries, style, pen, rng, cell=cell, hand=hand, candidates=noted
        )
        if has(D.WASHED_OUT):
            # Faint ink on greyish paper.
            paper = 0.93 * page.reshape(-1, 3).max(axis=0)
            page = paper - (paper - 0.93 * page) * rng.uniform(0.25, 0.4)
        if has(D.HALFTONE):
            page = _halftone(page, rng, period=rng.uniform(2.6, 3.4))
            # The other side shows through the thin paper, mirrored and faint.
            # (shifted: the other side is another page, not this one's mirror image).
            back = np.roll(page[:, ::-1].mean(axis=2), (cell * 4 // 3, cell * 5 // 2), (0, 1))
            page = page - 0.035 * (page.max() - back)[:, :, None]

    # Camera.
    portrait = style.is_app and page.shape[0] > page.shape[1]
    if has(D.LOW_RES):
        size = (600, 800)
    elif has(D.HIGH_RES):
        size = (4032, 3024)
    elif has(D.SMALL_GRID):
        size = (4000, 3000)
    else:
        size = (1600, 1200)
    if portrait or (not style.is_app and not has(D.SMALL_GRID) and rng.random() < 0.5):
        size = (min(size), max(size))
    elif not portrait and style.is_app:
        size = (max(size), min(size))
    warps: list[Callable[[FloatArray], FloatArray]] = []
    side = float(lattice[9, 9, 0] - lattice[0, 0, 0])
    centre = (float(lattice[:, :, 0].mean()), float(lattice[:, :, 1].mean()))
    if has(D.CURLED):
        amp = rng.uniform(0.3, 0.5) * side / 9
        warps.append(lambda p: _bend_inverse(p, centre, side, amp))
    crumple = _Crumple(rng, side / 9) if has(D.CRUMPLED) else None
    if crumple is not None:
        warps.append(crumple.inverse)
        # Creases catch the light: shade by the local stretch of the sheet.
        hh, ww = page.shape[:2]
        yy, xx = np.mgrid[0:hh:4, 0:ww:4].astype(np.float64)
        disp = crumple.displacement(np.stack([xx.ravel(), yy.ravel()], axis=1))
        dx = disp[:, 0].reshape(xx.shape)
        stretch = (
            np.gradient(dx, axis=1) / 4 + np.gradient(disp[:, 1].reshape(xx.shape), axis=0) / 4
        )
        light = cv2.resize((1.0 + 0.9 * stretch).astype(np.float32), (ww, hh))
        page = page * np.clip(light, 0.6, 1.3)[:, :, None]

    def warp(p: FloatArray) -> FloatArray:
        for w in reversed(warps):
            p = w(p)
        return p

    if has(D.STRONG_PERSPECTIVE):
        rotation, perspective = rng.uniform(-25, 25), rng.uniform(0.18, 0.25)
    else:
        rotation, perspective = rng.uniform(-8, 8), rng.uniform(0.0, 0.06)
    if style.is_app:
        fill = rng.uniform(0.75, 0.95)
    elif has(D.SMALL_GRID):
        fill = 1.0
    elif has(D.LOW_RES):
        fill = rng.uniform(0.6, 0.85)
    else:
        fill = rng.uniform(0.55, 0.85)
    photo, lattice, map_x, map_y = _camera(
        page, lattice, keep, rng, size=size, fill=fill, rotation_deg=rotation,
        perspective=perspective, warp=warp if warps else None,
        prefilter=0.2 if has(D.HALFTONE) else 0.45, border=float(rng.integers(40, 110)),
    )  # fmt: skip
    width, height = size
    gx, gy = np.meshgrid(np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32))

    if style.is_app:
        # Sub-pixels: R, G, B stripes with dark gaps, sampled by the camera -> moire.
        fx, fy = map_x - np.floor(map_x), map_y - np.floor(map_y)
        x0, y0, x1, y1 = screen_box
        lit = (map_x >= x0) & (map_x < x1) & (map_y >= y0) & (map_y < y1)
        rows = (0.75 + 0.25 * np.cos(2 * np.pi * (fy - 0.5))) / 0.75
        for ch in range(3):
            stripe = np.maximum(0.0, np.cos(2 * np.pi * (fx - (ch + 0.5) / 3))) * np.pi
            photo[:, :, ch] *= np.where(lit, (0.3 + 0.7 * stripe) * rows, 1.0)
        photo = np.asarray(cv2.GaussianBlur(photo, (0, 0), 0.8), np.float32)
        # Room light reflected by the glass lifts the blacks unevenly.
        ax = rng.uniform(-1, 1)
        photo += (20 + 15 * ax * (gx / width - 0.5))[:, :, None]
    light = 1.0 - 0.12 * (
        rng.uniform(-1, 1) * (gx / width - 0.5) + rng.uniform(-1, 1) * (gy / height - 0.5)
    )
    if not style.is_app and rng.random() < 0.3:
        ang = rng.uniform(0, 2 * np.pi)
        d = np.cos(ang) * (gx - width / 2) + np.sin(ang) * (gy - height / 2)
        d0 = rng.uniform(-0.2, 0.2) * min(width, height)
        light *= 1.0 - 0.4 / (1.0 + np.exp(-(d - d0) / (0.04 * min(width, height))))
    photo *= light[:, :, None]
    if has(D.WASHED_OUT):
        photo = 0.6 * photo + 0.4 * 200  # haze: the exposure lifts the darks
    if has(D.GLARE) or has(D.GLARE_BURNT):
        # A specular blob over part of the grid, elliptical; its core keeps a fifth to
        # nearly half of the contrast, or is burnt out (nothing left to read there).
        sidep = float(np.linalg.norm(lattice[0, 9] - lattice[0, 0]))
        c = (
            lattice[int(rng.integers(2, 8)), int(rng.integers(2, 8))]
            + rng.uniform(-0.1, 0.1, 2) * sidep
        )
        sx, sy = rng.uniform(0.1, 0.22, 2) * sidep
        ang = rng.uniform(0, np.pi)
        u = np.cos(ang) * (gx - c[0]) + np.sin(ang) * (gy - c[1])
        v = -np.sin(ang) * (gx - c[0]) + np.cos(ang) * (gy - c[1])
        peak = rng.uniform(1.0, 1.4) if has(D.GLARE_BURNT) else rng.uniform(0.55, 0.8)
        blob = np.minimum(1.0, peak * np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2)))
        photo += (255.0 - photo) * blob[:, :, None]
    if has(D.FINGER):
        photo = _over_the_grid(photo, lattice, rng)
    if has(D.MOTION_BLUR):
        length = int(rng.uniform(8, 18) * min(width, height) / 1200)
        kernel = np.zeros((length + 1, length + 1), np.float32)
        ang = rng.uniform(0, np.pi)
        h2 = length / 2
        p0 = (round(h2 - h2 * np.cos(ang)), round(h2 - h2 * np.sin(ang)))
        p1 = (round(h2 + h2 * np.cos(ang)), round(h2 + h2 * np.sin(ang)))
        cv2.line(kernel, p0, p1, 1.0, 1, cv2.LINE_AA)
        photo = np.asarray(cv2.filter2D(photo, -1, kernel / kernel.sum()), np.float32)
    lens = rng.uniform(0.4, 0.9) * max(1.0, min(width, height) / 1500)
    photo = np.asarray(cv2.GaussianBlur(photo, (0, 0), lens), np.float32)
    photo += rng.uniform(1.5, 3.5) * rng.standard_normal(photo.shape, dtype=np.float32)
    tint = np.array([1.0, 0.97, 0.9], np.float32)  # warm indoor light (RGB)
    if has(D.COLOUR_CAST):
        tint = rng.uniform(0.7, 1.0, 3).astype(np.float32)
    image = np.clip(photo * tint + 0.5, 0, 255).astype(np.uint8)[:, :, ::-1]
    if has(D.MIRRORED):
        image = image[:, ::-1]
        lattice = lattice.copy()
        lattice[:, :, 0] = width - 1 - lattice[:, :, 0]  # (still in puzzle order)
    quality = int(rng.integers(6, 13)) if has(D.HEAVY_JPEG) else int(rng.integers(80, 93))
    image = _jpeg(np.ascontiguousarray(image), quality)
    return StressPage(image, lattice, digits, entries, style, seed, pen.name)


def _over_the_grid(photo: FloatArray, lattice: FloatArray, rng: np.random.Generator) -> FloatArray:
    """``photo`` (H, W, 3) RGB float with a fingertip (two times in three) or a pen over
    the grid: a rounded bar from beyond the photo's edge whose tip reaches 0.6-2.2 cells
    in across a random side of the frame, lit across its width, with a soft shadow."""
    h, w = photo.shape[:2]
    side = int(rng.integers(4))
    cell = float(np.median(np.diff(lattice[:, :, 0], axis=1)))
    depth, along = rng.uniform(0.6, 2.2) * cell, rng.uniform(1, 8) / 9
    # The frame's side (its two corners) and the way out of the grid across it.
    a, b, out = {
        0: (lattice[9, 0], lattice[9, 9], (0.0, 1.0)),
        1: (lattice[0, 9], lattice[9, 9], (1.0, 0.0)),
        2: (lattice[0, 0], lattice[0, 9], (0.0, -1.0)),
        3: (lattice[0, 0], lattice[9, 0], (-1.0, 0.0)),
    }[side]
    turn = np.radians(rng.uniform(-25, 25))
    ox, oy = out
    way = np.array([ox * np.cos(turn) - oy * np.sin(turn), ox * np.sin(turn) + oy * np.cos(turn)])
    tip = a + (b - a) * along - np.array(out) * depth
    if rng.random() < 2 / 3:
        width = rng.uniform(1.3, 2.0) * cell
        skins = [(205, 150, 120), (180, 125, 95), (140, 95, 70), (220, 170, 140)]
        colour = np.array(rng.choice(skins))
    else:
        width = rng.uniform(0.8, 1.1) * cell
        colour = np.array(rng.choice([(30, 35, 60), (25, 25, 28), (40, 60, 140)]))
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (gx - tip[0]) * way[0] + (gy - tip[1]) * way[1] - width / 2  # along, from the tip's centre
    v = -(gx - tip[0]) * way[1] + (gy - tip[1]) * way[0]  # across
    r = np.where(u >= 0, np.abs(v), np.hypot(u, v)) / (width / 2)
    body = np.clip((1 - r) * 12, 0, 1)[:, :, None]
    shadow = (np.clip((1.5 - r) * 2, 0, 1) * 0.35)[:, :, None]
    lit = (0.75 + 0.25 * np.clip(1 - np.abs(v) / (width / 2), 0, 1))[:, :, None]
    return np.asarray(photo * (1 - shadow) * (1 - body) + colour * lit * body, np.float32)


def _jpeg(image: UInt8Array, quality: int) -> UInt8Array:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)


def write_candidates(
    image: UInt8Array,
    lattice: FloatArray,
    cells: Sequence[int],
    rng: np.random.Generator,
    *,
    ink: tuple[int, int, int] = (90, 90, 95),
    hand: HandPen | None = None,
) -> UInt8Array:
    """A copy of ``image`` (H, W, 3) BGR with pencil candidates written into ``cells``
    (``ink`` RGB): two or three small digits each (a quarter of a cell, em), in the
    places of a 3 x 3 layout that their values name, as a person notes what a cell may
    still hold. With ``hand``, they are written in that hand and its ink instead (each
    0.2-0.28 of a cell tall), as the person who wrote the entries would."""
    marks = []
    for cell in cells:
        r, c = divmod(int(cell), 9)
        top_left, size = lattice[r, c], lattice[r + 1, c + 1] - lattice[r, c]
        for k in rng.choice(9, size=int(rng.integers(2, 4)), replace=False):
            x, y = top_left + size * np.array([(k % 3 + 0.5) / 3, (k // 3 + 0.5) / 3])
            marks.append((float(x), float(y), str(int(k) + 1), ink))
    canvas = image[:, :, ::-1].astype(np.float64)  # the pens draw on RGB
    if hand is not None:
        from scanner.digits import synth as digit_synth

        glyphs = _hand_glyphs(hand)
        side = float(np.median(np.diff(lattice[:, :, 0], axis=1)))
        for x, y, text, _ in marks:
            g = digit_synth.hand_glyph(glyphs[int(text) - 1], rng)
            _write_glyph(canvas, g, hand, (x, y), side * rng.uniform(0.2, 0.28))
        return np.ascontiguousarray(np.clip(canvas + 0.5, 0, 255).astype(np.uint8)[:, :, ::-1])
    em = max(6, int(0.26 * float(np.median(np.diff(lattice[:, :, 0], axis=1)))))
    _Pen(None, rng).draw(canvas, marks, em)
    return np.ascontiguousarray(np.clip(canvas + 0.5, 0, 255).astype(np.uint8)[:, :, ::-1])


def game(seed: int, share: float) -> tuple[list[int], list[int], list[int]]:
    """A generated puzzle, its solution, and right entries in ``share`` of its empty
    cells (chosen at random from ``seed``)."""
    from solver.generate import generate
    from solver.search import solutions

    puzzle = [int(v) for v in generate(6000 + seed)]
    solution = solutions(puzzle, limit=1)[0]
    rng = np.random.default_rng(seed)
    empty = [i for i, v in enumerate(puzzle) if not v]
    entries = [0] * 81
    for i in rng.permutation(empty)[: int(len(empty) * share)]:
        entries[int(i)] = solution[int(i)]
    return puzzle, solution, entries


@dataclass(frozen=True)
class PenPage:
    """A page started in pen: the puzzle, its solution, the entries (one wrong), the
    rendered image and its lattice (10, 10, 2)."""

    puzzle: list[int]
    solution: list[int]
    entries: list[int]
    wrong: int
    image: npt.NDArray[np.uint8]
    lattice: FloatArray


def page_in_pen(ink: str, seed: int = 1, *, font: str = HERSHEY_SCRIPT) -> PenPage:
    """A classic page with 60% of its empty cells written in ``font`` (OpenCV's script
    face, or a handwriting font's file) in ``ink`` (a key of :data:`PEN_INKS`), the
    first entry wrong."""
    puzzle, solution, entries = game(seed, 0.6)
    wrong = next(i for i, e in enumerate(entries) if e)
    entries[wrong] = solution[wrong] % 9 + 1
    page = render_stress_page(
        puzzle,
        style=STRESS_STYLES["classic"],
        seed=2,
        entries=entries,
        hand=HandPen(font, *PEN_INKS[ink]),
    )
    return PenPage(puzzle, solution, entries, wrong, page.image, page.lattice)


# The stress benchmark's page of seed s prints the puzzle generate(STRESS_PUZZLE_SEED + s).
STRESS_PUZZLE_SEED = 5000


def stress_benchmark_page(style: str, seed: int, family: str) -> StressPage:
    """The stress benchmark's page ``seed`` of ``style`` (``benchmarks/bench_stress.py``),
    its digits drawn in the held-out font family named ``family`` (as the benchmark's
    list of pages names it): a page it found a case on, for a test."""
    from solver.generate import generate

    font = next(f for f in font_families(FontSet.HELD_OUT)[0] if f.name == family)
    puzzle = generate(STRESS_PUZZLE_SEED + seed)
    return render_stress_page(puzzle, style=STRESS_STYLES[style], seed=seed, font=font)
