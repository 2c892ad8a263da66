"""Locked candidates: pointing (box -> line) and claiming (line -> box)."""

from __future__ import annotations

from collections.abc import Iterator

from ..grid import BIT, BOX_OF, COL_OF, DIGITS, HOUSES, ROW_OF, Grid, house_name
from ..steps import Step, cells_text, eliminations_text
from .statecache import by_digit_pattern, digit_patterns


def _locked(grid: Grid, pointing: bool) -> Iterator[Step]:
    """Every instance, in the order of the base house and then the digit."""
    patterns = digit_patterns(grid)
    found: list[Step] = []
    for d in DIGITS:
        found += _locked_on_digit(grid, d, patterns[d], pointing)
    found.sort(key=lambda step: (step.houses[0], step.digits[0]))  # stable: targets in order
    return iter(found)


@by_digit_pattern
def _locked_on_digit(grid: Grid, d: int, bits: int, pointing: bool) -> list[Step]:
    cands = grid.candidates
    bit = BIT[d]
    found: list[Step] = []
    for h in range(18, 27) if pointing else range(18):
        cells = [c for c in HOUSES[h] if cands[c] & bit]
        if len(cells) < 2:
            continue
        if pointing:
            targets = []
            if len({ROW_OF[c] for c in cells}) == 1:
                targets.append(ROW_OF[cells[0]])
            if len({COL_OF[c] for c in cells}) == 1:
                targets.append(9 + COL_OF[cells[0]])
        else:
            targets = [18 + BOX_OF[cells[0]]] if len({BOX_OF[c] for c in cells}) == 1 else []
        for target in targets:
            elims = tuple((c, d) for c in HOUSES[target] if cands[c] & bit and c not in cells)
            if elims:
                found.append(
                    Step(
                        "locked-pointing" if pointing else "locked-claiming",
                        eliminations=elims,
                        cells=tuple(cells),
                        houses=(h, target),
                        digits=(d,),
                    )
                )
    return found


def find_pointing(grid: Grid) -> Iterator[Step]:
    """In a box, a digit confined to one row or column. Evidence: ``houses=(box, line)``."""
    return _locked(grid, pointing=True)


def find_claiming(grid: Grid) -> Iterator[Step]:
    """In a row or column, a digit confined to one box. Evidence: ``houses=(line, box)``."""
    return _locked(grid, pointing=False)


def describe_locked(step: Step) -> str:
    kind = "pointing" if step.technique == "locked-pointing" else "claiming"
    base, target = step.houses
    d = step.digits[0]
    return (
        f"Locked candidates ({kind}): in {house_name(base)}, {d} lies only in "
        f"{house_name(target)} ({cells_text(step.cells)}), "
        f"so {eliminations_text(step.eliminations)}"
    )
