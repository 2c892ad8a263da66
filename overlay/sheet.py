"""A flat, print-ready solution sheet: clean grid, givens in black, solved digits in colour."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from solver.check import EntryCheck
from solver.grid import DIGITS_IN
from solver.solve import SOLVED, STUCK, SolveResult
from solver.techniques import TECHNIQUES

from .draw import RING_RADIUS
from .legend import (
    GIVEN_COLOUR,
    MISTAKE_COLOUR,
    TEXT_COLOUR,
    UNCLEAR_COLOUR,
    LegendEntry,
    blend_rgba,
    dashed_ring,
    difficulty_of,
    legend_entries,
    load_font,
    render_legend,
    solved_cells,
    technique_colour,
    wrap_words,
)

UInt8Array = npt.NDArray[np.uint8]

CANDIDATE_COLOUR = (150, 150, 150)
PROBLEM_COLOUR = (190, 20, 20)
ENTRY_COLOUR = (70, 70, 70)  # the person's own digits: theirs, neither print nor a rule's


def _ink_centred(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
) -> None:
    """Draw digits with their ink (not the font's line box) centred on ``xy``."""
    _x0, top, _x1, _bottom = font.getbbox("8", anchor="ls")  # digits share the cap height
    draw.text((xy[0], xy[1] - top / 2), text, font=font, fill=fill, anchor="ms")


def _title_lines(result: SolveResult) -> tuple[str, str, bool]:
    """(title, subtitle, subtitle is a problem)."""
    placed = len(solved_cells(result))
    if result.status not in (SOLVED, STUCK):
        return "Sudoku", result.message or result.status, True
    parts = []
    diff = difficulty_of(result)
    if diff is not None:
        parts += [f"Difficulty: {diff.level.capitalize()}", f"score {diff.score}"]
        if diff.hardest:
            tech = TECHNIQUES.get(diff.hardest)
            parts.append(f"hardest: {tech.name if tech else diff.hardest}")
    parts.append(f"{len(result.steps)} steps, {placed} digits")
    sub = "  \u00b7  ".join(parts)
    if result.status == STUCK:
        why = result.message[:1].upper() + result.message[1:]
        return "Sudoku \u2014 partial solution", f"{sub}. {why}.", True
    return "Sudoku \u2014 solution", sub, False


def _fit_legend(entries: list[LegendEntry], width: int, font_px: int) -> UInt8Array:
    """The legend in as few rows as fit ``width``, shrinking the text if one column won't."""
    px = font_px
    while True:
        for cols in range(min(len(entries), 4), 0, -1):
            tile = render_legend(entries, font_px=px, columns=cols)
            if tile.shape[1] <= width:
                return tile
        if px <= 8:
            return tile
        px = max(8, int(px * 0.85))


def render_sheet(
    result: SolveResult, *, size: int = 900, check: EntryCheck | None = None
) -> UInt8Array:
    """Render the solve as a clean sheet for printing.

    Parameters
    ----------
    result : SolveResult
        Any solve; a stuck one shows the remaining cells' candidates in grey, an invalid
        one its givens and the reason.
    size : int, keyword-only
        Width of the sheet in pixels (the grid is 90% of it).
    check : EntryCheck, keyword-only
        The person's entries: drawn as theirs (dark grey, upright), the wrong ones ringed
        in ``MISTAKE_COLOUR``, and counted in the legend's first line, as on the photo.

    Returns
    -------
    (H, size, 3) uint8 array
        BGR (OpenCV order). ``H`` fits the title, the grid and the legend below it.
    """
    if size < 180:
        raise ValueError(f"size must be at least 180 px, got {size}")
    margin = round(size * 0.05)
    cell = (size - 2 * margin) // 9
    side = 9 * cell
    x0 = (size - side) // 2
    title_px = round(size * 0.042)
    sub_px = round(size * 0.02)
    title, subtitle, problem = _title_lines(result)
    sub_font = load_font(sub_px)
    lines = wrap_words(subtitle, sub_px, size - 2 * margin)
    y_grid = margin + round(title_px * 1.3) + round(sub_px * 1.5) * len(lines) + round(sub_px)

    entries = legend_entries(result, check)
    legend = _fit_legend(entries, side, round(size * 0.02)) if entries else None
    height = y_grid + side + margin + (legend.shape[0] + margin // 2 if legend is not None else 0)

    img = Image.new("RGB", (size, height), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.text((x0, margin), title, font=load_font(title_px, bold=True), fill=TEXT_COLOUR)
    y = margin + round(title_px * 1.3)
    for line in lines:
        draw.text((x0, y), line, font=sub_font, fill=PROBLEM_COLOUR if problem else TEXT_COLOUR)
        y += round(sub_px * 1.5)

    # Digits first, lines over them: anti-aliased glyph edges never eat into a line.
    given_font = load_font(round(cell * 0.62), bold=True)
    solved_font = load_font(round(cell * 0.62))
    cand_font = load_font(max(6, round(cell * 0.22)))
    colour_of = {c: technique_colour(t) for c, _d, t in solved_cells(result, check)}
    values = result.grid.values
    written = check.entries if check is not None else (0,) * 81
    wrong = set(check.mistakes) if check is not None else set()
    unclear = set(check.unclear) if check is not None else set()
    ring = max(2, round(cell * 0.07))
    for c in range(81):
        r, k = divmod(c, 9)
        cx, cy = x0 + (k + 0.5) * cell, y_grid + (r + 0.5) * cell
        if result.givens[c]:
            _ink_centred(draw, (cx, cy), str(result.givens[c]), given_font, GIVEN_COLOUR)
        elif written[c]:
            _ink_centred(draw, (cx, cy), str(written[c]), solved_font, ENTRY_COLOUR)
            if c in wrong:
                rad = cell * RING_RADIUS
                box = (cx - rad, cy - rad, cx + rad, cy + rad)
                draw.ellipse(box, outline=MISTAKE_COLOUR, width=ring)
        elif c in unclear:  # the person wrote here; what, the reader could not tell
            _ink_centred(draw, (cx, cy), "?", solved_font, ENTRY_COLOUR)
            rad = cell * RING_RADIUS
            dashed_ring(draw, (cx - rad, cy - rad, cx + rad, cy + rad), UNCLEAR_COLOUR, ring)
        elif values[c]:
            _ink_centred(draw, (cx, cy), str(values[c]), solved_font, colour_of[c])
        elif result.status == STUCK:
            for d in DIGITS_IN[result.grid.candidates[c]]:
                dx, dy = ((d - 1) % 3 - 1) * cell * 0.3, ((d - 1) // 3 - 1) * cell * 0.3
                _ink_centred(draw, (cx + dx, cy + dy), str(d), cand_font, CANDIDATE_COLOUR)
    thin = max(1, round(size / 700))
    thick = max(2, round(size / 250))
    for i in range(10):
        w = thick if i % 3 == 0 else thin
        colour = (0, 0, 0) if i % 3 == 0 else (110, 110, 110)
        p = i * cell
        lo = -(thick // 2)
        hi = side + thick // 2
        a = p - w // 2  # line i covers pixels [a, a + w) across the grid
        draw.rectangle((x0 + a, y_grid + lo, x0 + a + w - 1, y_grid + hi), fill=colour)
        draw.rectangle((x0 + lo, y_grid + a, x0 + hi, y_grid + a + w - 1), fill=colour)

    arr = np.asarray(img, dtype=np.uint8)[:, :, ::-1].copy()  # RGB -> BGR
    if legend is not None:
        ly = y_grid + side + margin // 2 + thick
        blend_rgba(arr, legend, (size - legend.shape[1]) // 2, min(ly, height - legend.shape[0]))
    return arr
