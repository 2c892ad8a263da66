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
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

__all__ = ["find_font", "render_puzzle_photo"]

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


def _fill_rect(page: FloatArray, x0: float, y0: float, x1: float, y1: float, colour: float) -> None:
    """Paint the rectangle [x0, x1] x [y0, y1] with exact area coverage (anti-aliased).

    Pixel ``i`` covers ``[i - 0.5, i + 0.5]``, so a line centred at ``p`` really has its
    centre at ``p`` in the pixel-centre coordinates that OpenCV uses.
    """
    h, w = page.shape
    i0, i1 = max(0, int(np.floor(x0 + 0.5))), min(w, int(np.ceil(x1 + 0.5)))
    j0, j1 = max(0, int(np.floor(y0 + 0.5))), min(h, int(np.ceil(y1 + 0.5)))
    if i0 >= i1 or j0 >= j1:
        return
    xs = np.arange(i0, i1, dtype=np.float64)
    ys = np.arange(j0, j1, dtype=np.float64)
    cx = np.clip(np.minimum(x1, xs + 0.5) - np.maximum(x0, xs - 0.5), 0.0, 1.0)
    cy = np.clip(np.minimum(y1, ys + 0.5) - np.maximum(y0, ys - 0.5), 0.0, 1.0)
    alpha = cy[:, None] * cx[None, :]
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
