"""A self-contained HTML report of a solve: the puzzle, the solution, then every step.

Made for a phone first: the annotated photo and the reading's corrections at the top,
contents with jumps to the hard steps, the solution behind a tap, the notation
explained once, and runs of singles folded. Each step shows its explanation beside a
small inline SVG of the pencil marks *before* the step: the step's houses and evidence
cells highlighted, eliminated candidates red and struck out, placements green and
circled. Every SVG draws its own grid lines, styled by attributes, and writes all
candidates of a kind as a single ``<text>`` with per-glyph ``x``/``y`` lists, so a step
costs a few kilobytes. Nothing is loaded from outside the file.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from solver.check import EntryCheck
from solver.grid import DIGITS_IN, HOUSES, Grid
from solver.registry import Family
from solver.solve import MULTIPLE, NO_SOLUTION, SOLVED, STUCK, SolveResult
from solver.steps import Step
from solver.techniques import TECHNIQUES

from .files import write_atomic
from .legend import (
    DASH_SHARE,
    DASHES,
    MISTAKE_COLOUR,
    RGB,
    UNCLEAR_COLOUR,
    difficulty_of,
    family_colour,
    solved_cells,
    technique_code,
    technique_colour,
    technique_family,
)

CELL = 20  # SVG units per cell
PAD = 2  # room for the outer border's stroke
SIDE = 9 * CELL + 2 * PAD
ENTRY_COLOUR: RGB = (70, 70, 70)  # the person's own digits

_CSS = """
*{box-sizing:border-box}
body{font:15px/1.45 "DejaVu Sans",Verdana,Arial,sans-serif;color:#222;margin:0;background:#f6f5f1}
main{max-width:980px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px;overflow-wrap:anywhere}
.meta{color:#444;margin:0 0 16px}
.problem{color:#b01515;font-weight:bold}
.grids{display:flex;flex-wrap:wrap;gap:20px;margin:8px 0 16px}
figure{margin:0}
figcaption{text-align:center;color:#555;font-size:13px}
.grids svg{width:300px;height:300px}
.grids img{max-height:300px;max-width:100%;border:1px solid #ccc}
table{border-collapse:collapse;margin:0 0 20px}
td,th{padding:2px 10px;text-align:left;border-bottom:1px solid #e3e1da}
td.n{text-align:right}
.chip{display:inline-block;min-width:2.6em;padding:0 5px;border-radius:4px;color:#fff;
font-size:12px;font-weight:bold;text-align:center;margin-right:6px}
ol.steps{list-style:none;padding:0;margin:0;counter-reset:s}
ol.steps>li{display:flex;gap:16px;align-items:flex-start;background:#fff;border:1px solid #e3e1da;
border-radius:6px;padding:10px 14px;margin:0 0 10px}
ol.steps>li .txt{flex:1}
ol.steps h3{font-size:15px;margin:0 0 4px}
ol.steps h3 .no{color:#888;font-weight:normal;margin-right:6px}
ol.steps p{margin:0 0 4px}
.chg{color:#555;font-size:13px}
.words{background:#f4f7fb;border-left:3px solid #8aa;padding:4px 8px}
ol.steps svg{width:220px;height:220px;flex:none}
svg.g{background:#fff}
svg .l{stroke:#aaa;stroke-width:.5;fill:none}
svg .b{stroke:#000;stroke-width:1.6;fill:none}
svg .hh{fill:#fff4c6}svg .hc{fill:#cfe2ff}svg .hx{fill:#ffe0b8}
svg .ht{fill:#ffd8d8}svg .hp{fill:#cff3cf}
svg text{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;text-anchor:middle}
svg .v{font-size:15px}svg .vg{font-weight:bold}
svg .k,svg .e,svg .x,svg .p{font-size:6px}
svg .k{fill:#8a8a8a}svg .e{fill:#1f5fd0;font-weight:bold}
svg .x{fill:#d21f1f;font-weight:bold}svg .p{fill:#0a8a0a;font-weight:bold}
svg .xs{stroke:#d21f1f;stroke-width:.8}
svg .pc{stroke:#0a8a0a;stroke-width:.8;fill:none}
h2{font-size:19px;margin:18px 0 8px}
nav ol{margin:0;padding-left:22px}nav li{margin:2px 0}
a{color:#1748a6}
details{background:#fff;border:1px solid #e3e1da;border-radius:6px;margin:0 0 10px;
padding:6px 12px}
summary{cursor:pointer;font-weight:bold;min-height:32px;line-height:32px}
details.run ol.steps>li{border:0;border-top:1px solid #e3e1da;border-radius:0}
figure.photo img{max-width:100%;height:auto;border:1px solid #ccc}
#corrections{background:#fff8e1;border:1px solid #e8d48a;border-radius:6px;padding:4px 14px}
@media (max-width:640px){main{padding:12px}ol.steps>li{flex-direction:column}
.grids svg{width:100%;height:auto;max-width:360px}ol.steps svg{width:100%;height:auto;
max-width:320px}}
"""


def _n(v: float) -> str:
    """Compact SVG number: at most one decimal, no trailing ``.0``."""
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _lines_path(every: int) -> str:
    """Path data for the grid lines at multiples of ``every`` cells."""
    parts = []
    for i in range(0, 10, every):
        p = _n(PAD + i * CELL)
        parts.append(f"M{PAD} {p}H{PAD + 9 * CELL}M{p} {PAD}V{PAD + 9 * CELL}")
    return "".join(parts)


def _grid_lines() -> str:
    """The grid lines of one SVG, styled by attributes: Chromium and WebKit do not apply
    page CSS classes to ``<use>`` copies, so shared ``<defs>`` lines went missing."""
    return (
        f'<path d="{_lines_path(1)}" stroke="#aaa" stroke-width=".5" fill="none"/>'
        f'<path d="{_lines_path(3)}" stroke="#000" stroke-width="1.6" fill="none"/>'
    )


_GRID_LINES = _grid_lines()


def _text(cls: str, items: Sequence[tuple[float, float, str]], style: str = "") -> str:
    """All glyphs of one kind as a single ``<text>`` with per-glyph positions."""
    if not items:
        return ""
    xs = " ".join(_n(x) for x, _y, _s in items)
    ys = " ".join(_n(y) for _x, y, _s in items)
    glyphs = "".join(s for _x, _y, s in items)
    st = f' style="{style}"' if style else ""
    return f'<text class="{cls}"{st} x="{xs}" y="{ys}">{glyphs}</text>'


def _cand_xy(cell: int, digit: int) -> tuple[float, float]:
    """Centre of a candidate's slot in the cell's 3x3 pencil-mark layout."""
    r, c = divmod(cell, 9)
    return (
        PAD + c * CELL + 4 + ((digit - 1) % 3) * 6,
        PAD + r * CELL + 4 + ((digit - 1) // 3) * 6,
    )


def _house_rect(house: int) -> tuple[int, int, int, int]:
    """(x, y, w, h) in SVG units of a house."""
    cells = HOUSES[house]
    rows = [c // 9 for c in cells]
    cols = [c % 9 for c in cells]
    r0, c0 = min(rows), min(cols)
    return (
        PAD + c0 * CELL,
        PAD + r0 * CELL,
        (max(cols) - c0 + 1) * CELL,
        (max(rows) - r0 + 1) * CELL,
    )


def _rects(cls: str, rects: Iterable[tuple[int, int, int, int]]) -> str:
    return "".join(
        f'<rect class="{cls}" x="{x}" y="{y}" width="{w}" height="{h}"/>' for x, y, w, h in rects
    )


def _cell_rects(cells: Iterable[int]) -> list[tuple[int, int, int, int]]:
    return [(PAD + (c % 9) * CELL, PAD + (c // 9) * CELL, CELL, CELL) for c in sorted(set(cells))]


def grid_svg(
    values: Sequence[int],
    givens: Sequence[int],
    candidates: Sequence[int] | None,
    *,
    colours: dict[int, str] | None = None,
    step: Step | None = None,
    label: str = "",
    rings: Iterable[int] = (),
    unclear: Iterable[int] = (),
) -> str:
    """One grid as inline SVG (no ``xmlns``: it lives inside HTML).

    Parameters
    ----------
    values, givens : sequence of 81 ints
        Current digits and the givens (0 = empty); givens are drawn bold black.
    candidates : sequence of 81 ints or None
        9-bit candidate masks of the empty cells; None draws no pencil marks.
    colours : dict, keyword-only
        CSS colour per non-given filled cell (default: dark grey).
    step : Step, keyword-only
        Highlight this step's houses, evidence, eliminations and placements.
    label : str, keyword-only
        Accessible description.
    rings : iterable of int, keyword-only
        Cells to ring in the mistake colour (a person's wrong entries).
    unclear : iterable of int, keyword-only
        Cells holding an entry that could not be read: a "?" in a dashed ring, as on
        the photo.
    """
    colours = colours or {}
    out = [
        f'<svg class="g" viewBox="0 0 {SIDE} {SIDE}" role="img" aria-label="{html.escape(label)}">'
    ]
    placements: dict[int, int] = {}
    elim: set[tuple[int, int]] = set()
    evidence: set[int] = set()
    ev_digits: set[int] = set()
    if step is not None:
        placements = dict(step.placements)
        elim = set(step.eliminations)
        marked = set(step.all_marked())
        evidence = set(step.cells) | marked
        ev_digits = set(step.digits)
        out.append(_rects("hh", (_house_rect(h) for h in step.houses if 0 <= h < 27)))
        targets = {c for c, _d in step.eliminations} - evidence
        out.append(_rects("ht", _cell_rects(targets)))
        out.append(_rects("hc", _cell_rects(step.cells)))
        out.append(_rects("hx", _cell_rects(marked - set(step.cells))))
        out.append(_rects("hp", _cell_rects(placements)))
    out.append(_GRID_LINES)

    given_items: list[tuple[float, float, str]] = []
    by_colour: dict[str, list[tuple[float, float, str]]] = {}
    kinds: dict[str, list[tuple[float, float, str]]] = {"k": [], "e": [], "x": [], "p": []}
    strikes: list[str] = []
    circles: list[str] = []
    for cell in range(81):
        r, c = divmod(cell, 9)
        v = values[cell]
        if v:
            xy = (PAD + c * CELL + CELL / 2, PAD + r * CELL + CELL / 2 + 5.5, str(v))
            if givens[cell]:
                given_items.append(xy)
            else:
                by_colour.setdefault(colours.get(cell, "#333"), []).append(xy)
            continue
        if candidates is None:
            continue
        for d in DIGITS_IN[candidates[cell]]:
            x, y = _cand_xy(cell, d)
            item = (x, y + 2.2, str(d))
            if placements.get(cell) == d:
                kinds["p"].append(item)
                circles.append(f'<circle class="pc" cx="{_n(x)}" cy="{_n(y)}" r="3.2"/>')
            elif (cell, d) in elim:
                kinds["x"].append(item)
                strikes.append(f"M{_n(x - 2.6)} {_n(y + 2.6)}l5.2-5.2")
            elif cell in evidence and d in ev_digits:
                kinds["e"].append(item)
            else:
                kinds["k"].append(item)
    out.append(_text("v vg", given_items))
    for colour, items in by_colour.items():
        out.append(_text("v", items, f"fill:{colour}"))
    for cls, items in kinds.items():
        out.append(_text(cls, items))
    if strikes:
        out.append(f'<path class="xs" d="{"".join(strikes)}"/>')
    out.extend(circles)
    out.extend(_ring(cell, MISTAKE_COLOUR, 1.6) for cell in rings)
    for cell in unclear:
        out.append(_ring(cell, UNCLEAR_COLOUR, 1.4, dashes=_UNCLEAR_DASHES))
        x, y = _cell_centre(cell)
        out.append(_text("v", [(x, y + 5.5, "?")], f"fill:{_hex(UNCLEAR_COLOUR)}"))
    out.append("</svg>")
    return "".join(out)


_RING = CELL * 0.42  # radius of the rings around a person's entries
_DASH = 2 * np.pi * _RING / DASHES  # one dash and its gap around it, as on the photo
_UNCLEAR_DASHES = f"{_n(_DASH * DASH_SHARE)} {_n(_DASH * (1 - DASH_SHARE))}"


def _cell_centre(cell: int) -> tuple[float, float]:
    r, c = divmod(cell, 9)
    return PAD + c * CELL + CELL / 2, PAD + r * CELL + CELL / 2


def _ring(cell: int, colour: RGB, width: float, *, dashes: str = "") -> str:
    """An SVG circle around ``cell`` (dashed with a ``stroke-dasharray`` when given)."""
    x, y = _cell_centre(cell)
    dashed = f' stroke-dasharray="{dashes}"' if dashes else ""
    return (
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(_RING)}" fill="none" '
        f'stroke="{_hex(colour)}" stroke-width="{_n(width)}"{dashed}/>'
    )


def _step_text(step: Step) -> str:
    try:
        return step.text
    except Exception:  # a describer bug must not lose the whole report
        changes = step.placement_strings() + step.elimination_strings()
        return f"{step.technique}: {', '.join(changes)}"


def _encode_photo(image: npt.NDArray[np.uint8], max_side: int = 1600) -> str:
    """BGR photo -> ``data:`` URI (JPEG; photos compress far better than as PNG)."""
    h, w = image.shape[:2]
    scale = max_side / max(h, w)
    small: npt.NDArray[np.integer[Any] | np.floating[Any]] = image
    if scale < 1:
        small = cv2.resize(
            image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA
        )
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 88])
    if not ok:
        raise ValueError("could not encode the photo")
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii")


def _summary_table(result: SolveResult, check: EntryCheck | None = None) -> str:
    """Steps and the digits credited (``SolveResult.placements``) per technique, simplest
    first: the counts of the photo's legend (``solved_cells``: the person's entries are
    theirs, not a technique's)."""
    steps: dict[str, int] = {}
    placed: dict[str, int] = {}
    for s in result.steps:
        steps[s.technique] = steps.get(s.technique, 0) + 1
    for _cell, _digit, credited in solved_cells(result, check):
        if credited is not None:
            placed[credited] = placed.get(credited, 0) + 1
    if not steps:
        return ""
    rows = []
    order = {tid: i for i, tid in enumerate(TECHNIQUES)}
    for tid in sorted(steps, key=lambda t: (order.get(t, len(order)), t)):
        tech = TECHNIQUES.get(tid)
        name = tech.name if tech else tid
        code = technique_code(tid)
        chip = f'<span class="chip" style="background:{_hex(technique_colour(tid))}">'
        rows.append(
            f"<tr><td>{chip}{html.escape(code)}</span>{html.escape(name)}</td>"
            f'<td class="n">{steps[tid]}</td><td class="n">{placed.get(tid, 0)}</td></tr>'
        )
    return (
        "<table><thead><tr><th>Technique</th><th>Steps</th><th>Digits placed</th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )


_NOTATION = (
    "<p><b>r4c1</b> is the cell in row 4, column 1; rows count from the top, columns from "
    "the left, and the boxes 1 to 9 row by row. <b>r4c1=5</b> places a 5 in r4c1; "
    "<b>r3c6&lt;&gt;4</b> removes the candidate 4 from r3c6. The small digits in a cell "
    "are its candidates: the digits that can still go there. In the grids, the houses the "
    "step looks at are yellow, its evidence cells blue, the candidates it removes red and "
    "struck out, and the digit it places green and circled.</p>"
    "<p>A chain reads from left to right: <b>(5)r1c2 = (5)r1c8</b> means if 5 is not in "
    "r1c2 it is in r1c8 (a strong link), <b>(5)r1c8 - (5)r7c8</b> means if 5 is in r1c8 it "
    "is not in r7c8 (a weak link); a chain whose two ends both rule a candidate out "
    "removes it.</p>"
)
SINGLES_FAMILY = Family.SINGLES
# Runs of this many singles in a row or more are folded: they are the easy part.
FOLD_SINGLES = 3


def _step_item(i: int, step: Step, svg: str) -> str:
    """One step's ``<li>``: number, code chip, name, explanation, changes, grid."""
    esc = html.escape
    tech = TECHNIQUES.get(step.technique)
    name = tech.name if tech else step.technique
    colour = _hex(family_colour(technique_family(step.technique)))
    changes = []
    if step.placements:
        changes.append("places " + ", ".join(step.placement_strings()))
    if step.eliminations:
        changes.append("removes " + ", ".join(step.elimination_strings()))
    words = step.words
    in_words = f'<p class="words"><b>In words:</b> {esc(words)}</p>' if words else ""
    return (
        f'<li id="step-{i}"><div class="txt"><h3><span class="no">{i}.</span>'
        f'<span class="chip" style="background:{colour}">{esc(technique_code(step.technique))}'
        f"</span>{esc(name)}</h3><p>{esc(_step_text(step))}</p>{in_words}"
        f'<p class="chg">{esc("; ".join(changes))}</p></div>{svg}</li>'
    )


def _runs(steps: Sequence[Step]) -> list[tuple[int, int, bool]]:
    """The steps cut into runs ``(first, end, folded)`` (0-based, end exclusive): runs of
    ``FOLD_SINGLES`` or more singles are folded, everything else stands open."""
    out: list[tuple[int, int, bool]] = []
    i = 0
    while i < len(steps):
        j = i
        while j < len(steps) and technique_family(steps[j].technique) == SINGLES_FAMILY:
            j += 1
        if j - i >= FOLD_SINGLES:
            out.append((i, j, True))
            i = j
            continue
        j = max(j, i + 1)
        if out and not out[-1][2]:
            out[-1] = (out[-1][0], j, False)
        else:
            out.append((i, j, False))
        i = j
    return out


def _steps_section(result: SolveResult) -> str:
    """The steps, replayed from the givens; runs of singles folded under one summary."""
    esc = html.escape
    givens = result.givens
    grid = Grid(list(givens))
    colours: dict[int, str] = {}
    items: list[str] = []
    for i, step in enumerate(result.steps, 1):
        tech = TECHNIQUES.get(step.technique)
        label = f"Step {i}: pencil marks before {tech.name if tech else step.technique}"
        svg = grid_svg(
            grid.values, givens, grid.candidates, colours=colours, step=step, label=label
        )
        items.append(_step_item(i, step, svg))
        step.apply(grid)
        colour = _hex(family_colour(technique_family(step.technique)))
        for cell, _d in step.placements:
            colours[cell] = colour
    parts = ['<h2 id="steps">Steps</h2>']
    for first, end, folded in _runs(result.steps):
        body = f'<ol class="steps" start="{first + 1}">{"".join(items[first:end])}</ol>'
        if not folded:
            parts.append(body)
            continue
        counts: dict[str, int] = {}
        for step in result.steps[first:end]:
            tech = TECHNIQUES.get(step.technique)
            name = tech.name if tech else step.technique
            counts[name] = counts.get(name, 0) + 1
        what = ", ".join(f"{name} \u00d7{n}" for name, n in counts.items())
        parts.append(
            f'<details class="run"><summary>Steps {first + 1}\u2013{end}: '
            f"{end - first} singles ({esc(what)})</summary>{body}</details>"
        )
    return "".join(parts)


def _contents(result: SolveResult, *, corrections: bool) -> str:
    """Links to the sections and to every step that is not a single (the hard ones)."""
    esc = html.escape
    links = ['<li><a href="#summary">Techniques used</a></li>']
    if corrections:
        links.insert(0, '<li><a href="#corrections">What the reader corrected</a></li>')
    links.append('<li><a href="#notation">How to read the steps</a></li>')
    if result.steps:
        hard = [
            f'<li><a href="#step-{i}">Step {i}: {esc(TECHNIQUES[s.technique].name)}</a></li>'
            for i, s in enumerate(result.steps, 1)
            if s.technique in TECHNIQUES and technique_family(s.technique) != SINGLES_FAMILY
        ]
        sub = f"<ol>{''.join(hard)}</ol>" if hard else ""
        links.append(f'<li><a href="#steps">Steps</a> ({len(result.steps)}){sub}</li>')
    return f'<nav aria-label="Contents"><h2>Contents</h2><ol>{"".join(links)}</ol></nav>'


def render_report(
    result: SolveResult,
    *,
    title: str = "Sudoku solution",
    image: npt.NDArray[np.uint8] | None = None,
    corrections: Sequence[str] = (),
    check: EntryCheck | None = None,
) -> str:
    """The report as an HTML string (see :func:`write_report`)."""
    esc = html.escape
    givens = result.givens
    placed_colour = {p.cell: _hex(technique_colour(p.technique)) for p in result.placements()}

    n_placed = sum(1 for c in range(81) if result.grid.values[c] and not givens[c])
    meta = [f"Status: {esc(result.status)}"]
    diff = difficulty_of(result)
    if diff is not None:
        hardest = TECHNIQUES.get(diff.hardest or "")
        worst = f", hardest: {esc(hardest.name)}" if hardest else ""
        meta.append(f"Difficulty: {esc(diff.level.capitalize())} (score {diff.score}{worst})")
    if result.status in (SOLVED, STUCK):
        meta.append(f"{len(result.steps)} steps, {n_placed} digits placed")
    givens_count = sum(1 for v in givens if v)
    meta.append(f"{givens_count} givens")

    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<main><header><h1>{esc(title)}</h1>",
        f'<p class="meta">{" &middot; ".join(meta)}</p>',
    ]
    if result.message:
        cls = "problem" if result.status in (NO_SOLUTION, MULTIPLE, STUCK) else "meta"
        parts.append(f'<p class="{cls}">{esc(result.message)}</p>')
    if image is not None:
        src = _encode_photo(image)
        parts.append(f'<figure class="photo"><img src="{src}" alt="The annotated photo">'
                     "<figcaption>The photo, solved</figcaption></figure>")  # fmt: skip
    if corrections:
        fixes = "".join(f"<li>{esc(c)}</li>" for c in corrections)
        parts.append(
            f'<section id="corrections"><h2>What the reader corrected</h2><ul>{fixes}</ul>'
            "<p>Check these cells on your paper: the reader was unsure of them.</p></section>"
        )
    parts.append("</header>")
    parts.append(_contents(result, corrections=bool(corrections)))

    figs = [("Puzzle", grid_svg(givens, givens, None, label="The puzzle's givens"))]
    if check is not None and check.checked:
        # The person's entries as written, the wrong ones ringed: nothing revealed.
        mine = [g or e for g, e in zip(givens, check.entries, strict=True)]
        written = {c: _hex(ENTRY_COLOUR) for c, e in enumerate(check.entries) if e}
        wrong = len(check.mistakes)
        caption = (
            f"Your entries: {wrong} of {check.checked} wrong"
            if wrong
            else (f"Your entries: all {check.checked} right")
        )
        if check.unclear:
            caption += f"; {check.unclear_text()}"
        svg = grid_svg(
            mine,
            givens,
            None,
            colours=written,
            rings=check.mistakes,
            unclear=check.unclear,
            label=caption,
        )
        figs.append((caption, svg))
    values = result.grid.values
    solution = ""
    if result.status == SOLVED:
        solution = grid_svg(values, givens, None, colours=placed_colour, label="The solution")
    elif result.status == STUCK:
        final = grid_svg(
            values, givens, result.grid.candidates, colours=placed_colour, label="Final grid"
        )
        figs.append(("Where logic got stuck", final))
    elif result.status == MULTIPLE:
        for k, sol in enumerate(result.solutions[:2], 1):
            figs.append((f"Solution {k} of several", grid_svg(sol, givens, None, label="")))
    parts.append('<div class="grids">')
    for cap, body in figs:
        parts.append(f"<figure>{body}<figcaption>{esc(cap)}</figcaption></figure>")
    if solution:
        # Behind a tap: the person may want the steps, not the answer.
        parts.append(
            '<details class="spoiler"><summary>Show the solution</summary>'
            f"<figure>{solution}<figcaption>Solution</figcaption></figure></details>"
        )
    parts.append("</div>")
    parts.append(
        f'<section id="summary"><h2>Techniques used</h2>{_summary_table(result, check)}</section>'
    )
    parts.append(
        f'<details id="notation"><summary>How to read the steps</summary>{_NOTATION}</details>'
    )
    if result.steps:
        parts.append(_steps_section(result))
    parts.append("</main></body></html>\n")
    return "\n".join(p for p in parts if p)


def write_report(
    result: SolveResult,
    path: str | os.PathLike[str],
    *,
    title: str = "Sudoku solution",
    image: npt.NDArray[np.uint8] | None = None,
    corrections: Sequence[str] = (),
    check: EntryCheck | None = None,
) -> Path:
    """Write a self-contained HTML report of a solve.

    Parameters
    ----------
    result : SolveResult
        The solve. Steps are replayed from ``result.givens`` to show the pencil marks
        before each one.
    path : str or path-like
        Output file; its folder must exist. Replaced atomically.
    title : str, keyword-only
        Page title and heading.
    image : (H, W, 3) uint8 array, keyword-only
        Optional BGR photo (e.g. the annotated one) embedded as a JPEG ``data:`` URI,
        at the top.
    corrections : sequence of str, keyword-only
        The reader's corrections, in words (``ScanResult.corrections``), listed at the top.
    check : EntryCheck, keyword-only
        The person's entries: a grid of them as written, the wrong ones ringed.

    Returns
    -------
    Path
        The written file.
    """
    out = Path(path)
    page = render_report(result, title=title, image=image, corrections=corrections, check=check)
    write_atomic(out, page.encode("utf-8"))
    return out


__all__ = ["grid_svg", "render_report", "write_report"]
