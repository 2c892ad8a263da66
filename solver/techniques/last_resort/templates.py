"""Templates (HoDoKu's Template Set / Template Delete): whole-digit placement patterns.

A template of a digit is one way to place it nine times, once per row, column and box,
using only cells where it is placed or still a candidate. A cell in every template of a
digit must hold it; a candidate in no template can go. As in HoDoKu, templates are
refined: a template that covers a cell which every template of another digit needs is
impossible, and the refinement repeats until nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ...grid import ALL_CELLS, BIT, BOX_OF, COL_OF, DIGITS, ROWS, Grid, cells_of_bits
from ...steps import Step, cells_text, eliminations_text

# Enumerating is exponential on near-empty grids; past this many templates a digit is
# left out (it then neither sets nor deletes anything, which stays sound).
MAX_TEMPLATES: Final = 6000


def digit_templates(grid: Grid, digit: int, limit: int = MAX_TEMPLATES) -> list[int] | None:
    """Every template of ``digit`` as an 81-bit cell set; None past ``limit`` templates."""
    bit = BIT[digit]
    values, cands = grid.values, grid.candidates
    options: list[list[tuple[int, int, int]]] = []
    for row in ROWS:
        opts = [
            (1 << c, 1 << COL_OF[c], 1 << BOX_OF[c])
            for c in row
            if values[c] == digit or (not values[c] and cands[c] & bit)
        ]
        if not opts:
            return []
        options.append(opts)
    out: list[int] = []

    # Depth-first, row by row; columns and boxes used so far are 9-bit masks.
    def walk(row: int, cells: int, cols: int, boxes: int) -> bool:
        if row == 9:
            out.append(cells)
            return len(out) <= limit
        for cbit, colbit, boxbit in options[row]:
            if cols & colbit or boxes & boxbit:
                continue
            if not walk(row + 1, cells | cbit, cols | colbit, boxes | boxbit):
                return False
        return True

    if not walk(0, 0, 0, 0):
        return None
    return out


def refined_templates(grid: Grid) -> tuple[dict[int, int], dict[int, int]] | None:
    """Per digit, (cells in every template, cells in some template) after refinement.

    Digits with too many templates are absent from both maps; None when some digit has
    no template at all (the state is contradictory).
    """
    lists: dict[int, list[int]] = {}
    for d in DIGITS:
        found = digit_templates(grid, d)
        if found is None:
            continue
        if not found:
            return None
        lists[d] = found
    must: dict[int, int] = {}
    for d, temps in lists.items():
        m = ALL_CELLS
        for t in temps:
            m &= t
        must[d] = m
    changed = True
    while changed:
        changed = False
        for d, temps in lists.items():
            others = 0
            for k, m in must.items():
                if k != d:
                    others |= m
            kept = [t for t in temps if not t & others]
            if len(kept) != len(temps):
                if not kept:
                    return None
                changed = True
                lists[d] = kept
                m = ALL_CELLS
                for t in kept:
                    m &= t
                must[d] = m
    some: dict[int, int] = {}
    for d, temps in lists.items():
        u = 0
        for t in temps:
            u |= t
        some[d] = u
    return must, some


def _placed_bits(grid: Grid, digit: int) -> int:
    bits = 0
    for c, v in enumerate(grid.values):
        if v == digit:
            bits |= 1 << c
    return bits


def find_template_set(grid: Grid) -> Iterator[Step]:
    """Cells every (refined) template of a digit covers get it. Evidence: ``digits=(d,)``."""
    refined = refined_templates(grid)
    if refined is None:
        return
    must, _some = refined
    for d in sorted(must):
        new = must[d] & ~_placed_bits(grid, d)
        cells = cells_of_bits(new)
        if cells:
            yield Step(
                "template-set",
                placements=tuple((c, d) for c in cells),
                cells=tuple(cells),
                digits=(d,),
            )


def find_template_delete(grid: Grid) -> Iterator[Step]:
    """Candidates no (refined) template of their digit covers go. Evidence: ``digits``."""
    refined = refined_templates(grid)
    if refined is None:
        return
    _must, some = refined
    cands = grid.candidates
    for d in sorted(some):
        bit = BIT[d]
        elims = tuple((c, d) for c in range(81) if cands[c] & bit and not some[d] >> c & 1)
        if elims:
            yield Step(
                "template-delete",
                eliminations=elims,
                cells=tuple(c for c, _ in elims),
                digits=(d,),
            )


def describe_template_set(step: Step) -> str:
    d = step.digits[0]
    return (
        f"Template set: every way to place all nine {d}s in the grid (one per row, column "
        f"and box) uses {cells_text(step.cells)}, so {d} goes there"
    )


def describe_template_delete(step: Step) -> str:
    d = step.digits[0]
    return (
        f"Template delete: no way to place all nine {d}s in the grid (one per row, column "
        f"and box) uses these cells, so {eliminations_text(step.eliminations)}"
    )
