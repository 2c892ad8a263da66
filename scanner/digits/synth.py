"""Synthetic Sudoku cells: printed digits made to look like phone-photo crops.

Training data for the CNN and fixtures for the tests; not used by the product at run
time. A cell is drawn at high resolution with its grid lines and bits of its neighbours,
then goes through what a phone and the cell warp do to it: a crop that is shifted,
scaled, turned and skewed, a low resolution (the old photos have cells ~40 px wide),
lens blur, uneven light, sensor noise, JPEG, and the upsampling to 64 x 64.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

CELL = 64
_S = 96  # drawing scale: pixels per cell on the canvas
_CANVAS = 2 * _S  # the cell plus half a cell all around: lines and neighbours show there
EMPTY = 0
ROTATED = 10  # training-only class: a digit turned on its side or upside down

FloatArray = npt.NDArray[np.float32]
UInt8Array = npt.NDArray[np.uint8]

# Fonts that have no usable digits (symbols, dingbats, maths), only script ones, or only
# outlines (femkeklaver draws hollow digits).
_SKIP_FONT = re.compile(
    r"Symbol|D050000L|MathTeX|Z003|Dingbat|Emoji|Music|femkeklaver", re.IGNORECASE
)
_NOTO_LATIN = re.compile(r"Noto(Sans|Serif)(Display|Mono)?-", re.IGNORECASE)


# The folders (under /usr/share/fonts/*/) of the font families held out of training, so
# that the stress benchmark (benchmarks/bench_stress.py) measures the digit network on
# type it never saw: they are the Makefile's STRESS_FONT_PACKAGES (tests check the two
# lists agree).
HELD_OUT_FONT_DIRS = frozenset(
    {
        "cantarell", "comfortaa", "firacode", "hack", "inconsolata", "lato",
        "league-spartan", "linux-libertine", "oxygen", "quicksand", "charis",
    }
)  # fmt: skip


# Handwriting fonts (folders under /usr/share/fonts/*/): the network learns the person's
# hand from these, never print. The Makefile's HAND_FONT_PACKAGES install them; the
# HELD_OUT ones (among the Makefile's STRESS_FONT_PACKAGES) are only measured on.
HAND_FONT_DIRS = frozenset(
    {
        "fifthhorseman", "breip", "bwht", "humor-sans", "rufscript", "comic-neue",
        "dancingscript", "klee",
    }
)  # fmt: skip
HELD_OUT_HAND_FONT_DIRS = frozenset({"sjfonts", "kiloji", "seto", "yusei-magic"})


def _fonts_in(roots: Iterable[Path], keep: Callable[[set[str]], bool]) -> list[Path]:
    """Font files under ``roots`` whose folder names (a set) pass ``keep``, sorted."""
    found: list[Path] = []
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() not in {".ttf", ".otf"} or _SKIP_FONT.search(path.name):
                continue
            if keep(set(path.relative_to(root).parts[:-1])):
                found.append(path)
    return found


def hand_fonts(
    roots: Iterable[Path] = (Path("/usr/share/fonts"),), *, held_out: bool = False
) -> list[Path]:
    """Handwriting fonts under ``roots``: the training ones, or with ``held_out`` the
    families kept for measuring."""
    dirs = HELD_OUT_HAND_FONT_DIRS if held_out else HAND_FONT_DIRS
    return _fonts_in(roots, lambda parts: bool(dirs & parts))


def system_fonts(roots: Iterable[Path] = (Path("/usr/share/fonts"),)) -> list[Path]:
    """TrueType / OpenType fonts under ``roots`` that can print Latin digits, sorted.

    Fonts in a held-out family's folder (``HELD_OUT_FONT_DIRS``) and handwriting fonts
    (``HAND_FONT_DIRS``, ``HELD_OUT_HAND_FONT_DIRS``) are never returned.
    """
    found: list[Path] = []
    not_print = HELD_OUT_FONT_DIRS | HAND_FONT_DIRS | HELD_OUT_HAND_FONT_DIRS
    for path in _fonts_in(roots, lambda parts: not (not_print & parts)):
        # Noto ships one font per script, all with the same Latin digits.
        if path.name.startswith("Noto") and not _NOTO_LATIN.match(path.name):
            continue
        found.append(path)
    return found


def _crop_to_ink(mask: FloatArray) -> FloatArray | None:
    ys, xs = np.nonzero(mask > 0.05)
    if len(ys) == 0:
        return None
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def font_glyphs(path: Path, *, size: int = 120) -> list[FloatArray] | None:
    """Ink masks (h, w) in [0, 1] of digits 1..9 in one font, cropped to the ink.

    None when the font cannot be read or lacks distinct digits (it draws boxes).
    """
    try:
        font = ImageFont.truetype(str(path), size=size)
    except OSError:
        return None
    glyphs: list[FloatArray] = []
    for d in range(1, 10):
        img = Image.new("L", (2 * size, 2 * size), 0)
        ImageDraw.Draw(img).text((size // 2, size // 4), str(d), fill=255, font=font)
        g = _crop_to_ink(np.asarray(img, dtype=np.float32) / 255.0)
        if g is None or g.shape[0] < size // 4:
            return None
        glyphs.append(g)
    # A font without digits draws the same missing-glyph box nine times.
    if len({g.tobytes() for g in glyphs}) < 9:
        return None
    return glyphs


def open_four(glyph: FloatArray, *, cut: float = 0.33) -> FloatArray:
    """A "4" with an open top (stem and diagonal not joined) made from a closed one.

    Several newspaper faces print the 4 that way and the installed fonts have none. The
    stem is the most inked column of the lower half; above ``cut`` of the height,
    everything from just left of the stem to the right edge is erased.
    """
    h = glyph.shape[0]
    stem = int(np.argmax(glyph[h // 2 :].sum(axis=0)))
    left = stem
    while left > 0 and glyph[h // 2 :, left - 1].sum() > 0.5 * glyph[h // 2 :, stem].sum():
        left -= 1
    out = glyph.copy()
    out[: int(cut * h), max(left - 1, 0) :] = 0.0
    return out


def flat_top_three(three: FloatArray, seven: FloatArray, *, join: float = 0.45) -> FloatArray:
    """A "3" with a flat top bar and a diagonal (the Futura / DIN-like form).

    The fonts here draw only the round-topped 3; this keeps the font's lower bowl
    (below ``join`` of the height) and draws a bar and a diagonal above it, as thick as
    the bar of the font's "7".
    """
    h, w = three.shape
    rows = np.flatnonzero(seven.max(axis=1) > 0.5)
    # The 7's bar: the rows from its top while the row is mostly ink.
    bar = 1
    while bar < len(rows) and (seven[bar] > 0.5).mean() > 0.5:
        bar += 1
    thick = max(2, bar)
    out = three.copy()
    cut = int(join * h)
    out[:cut] = 0.0
    canvas = np.zeros_like(out)
    # Where the bowl starts at the join: the left end of its top stroke.
    cols = np.flatnonzero(three[cut] > 0.5)
    mid_x = int(cols[0]) if len(cols) else w // 3
    x0, x1 = int(0.08 * w), w - 1 - thick // 2
    y0 = thick // 2
    cv2.line(canvas, (x0, y0), (x1, y0), 1.0, thick, cv2.LINE_AA)
    cv2.line(canvas, (x1, y0), (mid_x, cut + thick // 2), 1.0, thick, cv2.LINE_AA)
    return np.maximum(out, canvas)


def hershey_glyphs(face: int, *, thickness: int = 6) -> list[FloatArray]:
    """Ink masks of digits 1..9 in one of OpenCV's built-in Hershey stroke fonts.

    These fonts ship inside OpenCV and are never used for training, which makes them
    an honest test of fonts the classifier has not seen.
    """
    glyphs = []
    for d in range(1, 10):
        img = np.zeros((200, 200), dtype=np.uint8)
        cv2.putText(img, str(d), (40, 150), face, 4.0, 255, thickness, cv2.LINE_AA)
        g = _crop_to_ink(img.astype(np.float32) / 255.0)
        assert g is not None
        glyphs.append(g)
    return glyphs


@dataclass(frozen=True)
class Style:
    """How one synthetic cell looks; ``Style.random`` draws a realistic mix."""

    digit_height: float  # ink height as a fraction of the cell
    aspect: float  # extra horizontal stretch of the glyph
    stroke: int  # dilation (+) or erosion (-) of the glyph at drawing scale, pixels
    offset: tuple[float, float]  # glyph centre offset within the cell, fractions
    shift: tuple[float, float]  # crop window offset (lattice error), fractions of a cell
    zoom: float  # crop window size / cell size
    angle: float  # degrees
    corner_jitter: float  # perspective error of each crop corner, fraction of a cell
    resolution: int  # the cell's size in photo pixels
    blur: float  # lens blur sigma in photo pixels
    paper: float  # grey level of the paper, 0..255
    contrast: float  # how dark the digits are relative to the paper, 0..1
    line_contrast: float
    line_width: tuple[float, float, float, float]  # top, bottom, left, right; drawing px
    light_gradient: tuple[float, float]  # relative change of light across the cell
    shadow: float  # strength of a soft shadow edge, 0 = none
    noise: float  # sensor noise sigma, grey levels
    jpeg: int  # JPEG quality, 0 = none
    shade: float  # background tint of a shaded cell, 0 = white cell
    neighbour_p: float  # chance that each neighbouring cell holds a digit

    @classmethod
    def random(cls, rng: np.random.Generator) -> Style:
        def u(a: float, b: float) -> float:
            return float(rng.uniform(a, b))

        box = rng.random(4) < 0.3  # thick box lines on some sides
        widths = np.where(box, rng.uniform(3, 9, 4), rng.uniform(1, 5, 4))
        widths[rng.random(4) < 0.05] = 0  # a line that did not print or is off the crop
        shift_sd = 0.06 if rng.random() < 0.8 else 0.12
        return cls(
            digit_height=u(0.32, 0.72),
            aspect=u(0.8, 1.2),
            stroke=int(rng.choice([-3, -2, -1, 0, 0, 0, 1, 2, 3, 4])),
            offset=(float(rng.normal(0, 0.04)), float(rng.normal(0, 0.04))),
            shift=(
                float(np.clip(rng.normal(0, shift_sd), -0.25, 0.25)),
                float(np.clip(rng.normal(0, shift_sd), -0.25, 0.25)),
            ),
            zoom=u(0.9, 1.12),
            angle=float(np.clip(rng.normal(0, 2.0), -6, 6)),
            corner_jitter=u(0, 0.05),
            resolution=(int(rng.integers(20, 40)), int(rng.integers(35, 70)), 90)[
                int(rng.integers(3))
            ],
            blur=u(0.2, 1.6) if rng.random() < 0.85 else u(1.5, 2.5),
            paper=u(90, 250),
            contrast=u(0.25, 0.9),
            line_contrast=u(0.15, 0.9),
            line_width=tuple(float(w) for w in widths),  # type: ignore[arg-type]
            light_gradient=(u(-0.35, 0.35), u(-0.35, 0.35)),
            shadow=u(0.1, 0.5) if rng.random() < 0.15 else 0.0,
            noise=u(0, 8),
            jpeg=int(rng.integers(25, 95)) if rng.random() < 0.8 else 0,
            shade=u(0.05, 0.35) if rng.random() < 0.1 else 0.0,
            neighbour_p=u(0.1, 0.6),
        )

    def for_cell(self, rng: np.random.Generator) -> Style:
        """This grid style with what varies from cell to cell redrawn."""

        def u(a: float, b: float) -> float:
            return float(rng.uniform(a, b))

        fresh = Style.random(rng)
        return replace(
            self,
            digit_height=float(np.clip(self.digit_height * u(0.93, 1.07), 0.25, 0.8)),
            offset=fresh.offset,
            shift=(
                float(np.clip(self.shift[0] + rng.normal(0, 0.04), -0.25, 0.25)),
                float(np.clip(self.shift[1] + rng.normal(0, 0.04), -0.25, 0.25)),
            ),
            angle=self.angle + float(rng.normal(0, 0.7)),
            contrast=float(np.clip(self.contrast * u(0.85, 1.1), 0.15, 0.95)),
            line_width=fresh.line_width,
            light_gradient=fresh.light_gradient,
            shadow=fresh.shadow,
            paper=float(np.clip(self.paper * u(0.85, 1.1), 40, 255)),
            shade=fresh.shade,
            neighbour_p=fresh.neighbour_p,
        )


def _place(
    canvas: FloatArray,
    glyph: FloatArray,
    cx: float,
    cy: float,
    height: float,
    aspect: float,
    strength: float,
) -> None:
    """Draw ``glyph`` into ``canvas`` (darkness, max-combined) centred at ``(cx, cy)``."""
    gh, gw = glyph.shape
    h = max(2, round(height))
    w = max(2, round(gw * h / gh * aspect))
    g = cv2.resize(glyph, (w, h), interpolation=cv2.INTER_AREA) * strength
    x0, y0 = round(cx - w / 2), round(cy - h / 2)
    x1, y1 = x0 + w, y0 + h
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if cx0 >= cx1 or cy0 >= cy1:
        return
    sub = g[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
    np.maximum(canvas[cy0:cy1, cx0:cx1], sub, out=canvas[cy0:cy1, cx0:cx1])


def _stroke(glyph: FloatArray, amount: int) -> FloatArray:
    if amount == 0:
        return glyph
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(amount) + 1,) * 2)
    pad = cv2.copyMakeBorder(glyph, 8, 8, 8, 8, cv2.BORDER_CONSTANT, value=0)
    out = cv2.dilate(pad, k) if amount > 0 else cv2.erode(pad, k)
    cropped = _crop_to_ink(np.asarray(out, dtype=np.float32))
    return glyph if cropped is None else cropped


def render_cell(
    glyph: FloatArray | None,
    style: Style,
    rng: np.random.Generator,
    *,
    neighbours: Sequence[FloatArray] = (),
    rotate: int = 0,
) -> UInt8Array:
    """One synthetic cell (64, 64) uint8: dark print on light paper, as the warp gives it.

    Parameters
    ----------
    glyph : (h, w) float array or None
        Ink mask of the digit, None for an empty cell.
    style : Style
        Sizes, distortions and lighting.
    rng : numpy.random.Generator
        Source of the remaining small randomness (neighbours, specks, noise).
    neighbours : sequence of (h, w) float arrays
        Glyphs to draw, at random, in the eight neighbouring cells.
    rotate : int
        Quarter turns (counter-clockwise) of the digit, for the ROTATED class.
    """
    s = _S
    canvas = np.zeros((_CANVAS, _CANVAS), dtype=np.float32)
    lo, hi = s / 2, s / 2 + s  # the cell's borders on the canvas
    if style.shade:
        canvas[:, :] = style.shade * (0.6 + 0.4 * rng.random())
        canvas[int(lo) : int(hi), int(lo) : int(hi)] = style.shade
    height = style.digit_height * s
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if (dx or dy) and neighbours and rng.random() < style.neighbour_p:
                g = neighbours[int(rng.integers(len(neighbours)))]
                h = height * rng.uniform(0.9, 1.1)
                _place(canvas, g, s + dx * s, s + dy * s, h, style.aspect, 1.0)
    if glyph is not None:
        g = _stroke(glyph, style.stroke)
        if rotate:
            g = np.ascontiguousarray(np.rot90(g, rotate))
        gh = height if rotate % 2 == 0 else height * g.shape[0] / max(g.shape[1], 1)
        _place(canvas, g, s + style.offset[0] * s, s + style.offset[1] * s, gh, style.aspect, 1.0)
    elif rng.random() < 0.25:
        # Specks, dirt and stray marks that must still read as empty.
        for _ in range(int(rng.integers(1, 4))):
            x, y = rng.uniform(lo, hi, 2)
            r = float(rng.uniform(1, 5))
            cv2.circle(canvas, (round(x), round(y)), round(r), float(rng.uniform(0.3, 1)), -1)
    lines = np.zeros_like(canvas)
    for k, w in enumerate(style.line_width):
        if w <= 0:
            continue
        pos = (lo, hi)[k % 2]
        tilt = rng.normal(0, 1.5)
        a = (pos - tilt, pos + tilt)
        # Sub-pixel line positions and widths through cv2's fixed-point drawing.
        p0, p1 = ((0, a[0]), (_CANVAS, a[1])) if k < 2 else ((a[0], 0), (a[1], _CANVAS))
        sh = 4
        cv2.line(
            lines,
            tuple(round(v * 16) for v in p0),
            tuple(round(v * 16) for v in p1),
            1.0,
            max(1, round(w)),
            cv2.LINE_AA,
            sh,
        )
    # Digits and lines print at their own strengths; where they cross, the darker wins.
    dark = np.maximum(canvas * style.contrast, lines * style.line_contrast)

    # The crop the lattice would make: shifted, zoomed, turned and skewed.
    r = style.resolution
    half = style.zoom * s / 2
    t = np.deg2rad(style.angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64)
    quad = unit * half @ rot.T + s + np.array(style.shift) * s
    quad += rng.normal(0, style.corner_jitter * s, (4, 2))
    dst = np.array([[0, 0], [r, 0], [r, r], [0, r]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    pre = 0.5 * s / r  # anti-aliasing before shrinking to the photo's resolution
    src = cv2.GaussianBlur(dark, (0, 0), pre) if pre > 0.6 else dark
    small = cv2.warpPerspective(
        src, m, (r, r), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    if style.blur > 0.3:
        small = cv2.GaussianBlur(small, (0, 0), style.blur)

    # Light: paper level, a gradient, maybe a shadow edge; ink multiplies it down.
    yy, xx = np.mgrid[0:r, 0:r].astype(np.float32) / r - 0.5
    light = 1.0 + style.light_gradient[0] * xx + style.light_gradient[1] * yy
    if style.shadow:
        theta = rng.uniform(0, np.pi)
        edge = np.cos(theta) * xx + np.sin(theta) * yy - rng.uniform(-0.4, 0.4)
        light *= 1.0 - style.shadow * (1 / (1 + np.exp(-edge * rng.uniform(8, 40))))
    img = style.paper * light * (1.0 - small)
    img += rng.normal(0, style.noise, img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if style.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, style.jpeg])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    interp = [cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_AREA][int(rng.integers(3))]
    return cv2.resize(out, (CELL, CELL), interpolation=interp)


def to_png_bytes(cells: UInt8Array) -> bytes:
    """A strip of cells (N, 64, 64) as PNG bytes, for looking at samples."""
    buf = io.BytesIO()
    Image.fromarray(np.hstack(list(cells))).save(buf, format="PNG")
    return buf.getvalue()


def hand_glyph(glyph: FloatArray, rng: np.random.Generator) -> FloatArray:
    """A handwriting font's digit made to look written by a person, this once.

    Pen strokes are even: on most digits the glyph is thinned to its skeleton and drawn
    again with a round nib of a random width. Then the whole digit is slanted, turned,
    stretched and bent a little by a smooth random displacement, so that no two cells
    of one hand are the same shape.

    Parameters
    ----------
    glyph : (h, w) float array in [0, 1]
        Ink mask from :func:`font_glyphs` of a handwriting font.
    rng : numpy.random.Generator

    Returns
    -------
    (h', w') float array in [0, 1], cropped to the ink
    """
    from skimage.morphology import skeletonize

    pad = 40
    g = cv2.copyMakeBorder(glyph, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    h = glyph.shape[0]
    if rng.random() < 0.6:
        nib = max(1, round(h * float(rng.uniform(0.03, 0.1))))
        bones = skeletonize(g > 0.5).astype(np.uint8)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * nib + 1,) * 2)
        g = cv2.GaussianBlur(cv2.dilate(bones, disc).astype(np.float32), (0, 0), 0.8)
    gh, gw = g.shape
    slant = float(rng.uniform(-0.35, 0.2))
    turn = np.deg2rad(float(rng.normal(0, 6)))
    sx, sy = float(rng.uniform(0.8, 1.15)), float(rng.uniform(0.9, 1.1))
    c, s_ = np.cos(turn), np.sin(turn)
    a = np.array([[c, -s_], [s_, c]]) @ np.array([[sx, slant], [0, sy]])
    centre = np.array([gw / 2, gh / 2])
    m = np.hstack([a, (centre - a @ centre)[:, None]]).astype(np.float32)
    g = cv2.warpAffine(g, m, (gw, gh), flags=cv2.INTER_LINEAR)
    # Smooth wobble: a coarse random field, blown up, moves each pixel a few percent.
    amp = h * float(rng.uniform(0.0, 0.06))
    if amp > 0.5:
        field = rng.normal(0, 1, (2, 4, 4)).astype(np.float32)
        dx, dy = (cv2.resize(f, (gw, gh), interpolation=cv2.INTER_CUBIC) * amp for f in field)
        yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
        g = cv2.remap(g, xx + dx, yy + dy, cv2.INTER_LINEAR)
    out = _crop_to_ink(np.clip(g, 0.0, 1.0).astype(np.float32))
    return glyph if out is None else out


def hand_style(style: Style, rng: np.random.Generator) -> Style:
    """``style`` (a grid's print, redrawn per cell) for a digit the person wrote there.

    Written digits sit less centred and vary more in size than print, and the pen is
    darker or lighter than the print; the photo (resolution, blur, light) is the same.
    """
    return replace(
        style,
        digit_height=float(rng.uniform(0.4, 0.85)),
        aspect=float(rng.uniform(0.85, 1.15)),
        stroke=0,
        offset=(float(rng.normal(0, 0.08)), float(rng.normal(0, 0.07))),
        contrast=float(rng.uniform(0.25, 0.95)),
    )
