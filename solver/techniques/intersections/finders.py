"""Locked candidates: pointing (box -> line) and claiming (line -> box)."""

from __future__ import annotations

from collections.abc import Iterator

from ...grid import BOX_OF, COL_OF, DIGITS, HOUSE_BITS, ROW_OF, Grid, cells_of_bits, house_name
from ...statecache import by_digit_pattern, digit_patterns
from ...steps import Step, cells_text, eliminations_text


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
    """A digit's locked candidates, from its cell set ``bits``: per base house, the cells
    there must lie inside one crossing house, which loses the digit elsewhere."""
    found: list[Step] = []
    for h in range(18, 27) if pointing else range(18):
        inside = bits & HOUSE_BITS[h]
        if not inside & (inside - 1):
            continue  # fewer than two places
        first = (inside & -inside).bit_length() - 1
        # the crossing houses: a box's row, then its column; a line's box
        crossing = (ROW_OF[first], 9 + COL_OF[first]) if pointing else (18 + BOX_OF[first],)
        for target in crossing:
            if inside & ~HOUSE_BITS[target]:
                continue  # the base's places are not all in it
            elims = bits & HOUSE_BITS[target] & ~inside
            if elims:
                found.append(
                    Step(
                        "locked-pointing" if pointing else "locked-claiming",
                        eliminations=tuple((c, d) for c in cells_of_bits(elims)),
                        cells=tuple(cells_of_bits(inside)),
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
