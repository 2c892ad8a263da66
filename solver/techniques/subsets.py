"""Naked and hidden subsets (pairs, triples, quads) and locked pairs/triples."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..grid import BIT, DIGITS_IN, HOUSES, HOUSES_OF, POPCOUNT, Grid, house_name
from ..steps import Finder, Step, cells_text, digits_text, eliminations_text

_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}
NAKED_IDS = {2: "naked-pair", 3: "naked-triple", 4: "naked-quad"}
HIDDEN_IDS = {2: "hidden-pair", 3: "hidden-triple", 4: "hidden-quad"}
LOCKED_IDS = {2: "locked-pair", 3: "locked-triple"}


def _shared_houses(cells: tuple[int, ...]) -> list[int]:
    shared = set(HOUSES_OF[cells[0]])
    for c in cells[1:]:
        shared &= set(HOUSES_OF[c])
    return sorted(shared)


def _naked(grid: Grid, size: int, *, locked: bool) -> Iterator[Step]:
    values, cands = grid.values, grid.candidates
    houses = range(18, 27) if locked else range(27)
    for h in houses:
        house = HOUSES[h]
        pool = [c for c in house if not values[c] and 2 <= POPCOUNT[cands[c]] <= size]
        if len(pool) < size:
            continue
        for cells in combinations(pool, size):
            union = 0
            for c in cells:
                union |= cands[c]
            if POPCOUNT[union] != size:
                continue
            shared = _shared_houses(cells)
            if locked and len(shared) < 2:
                continue
            targets = shared if locked else [h]
            elims: list[tuple[int, int]] = []
            seen: set[int] = set()
            for t in targets:
                for c in HOUSES[t]:
                    if c in cells or c in seen or values[c]:
                        continue
                    seen.add(c)
                    for d in DIGITS_IN[cands[c] & union]:
                        elims.append((c, d))
            if elims:
                yield Step(
                    LOCKED_IDS[size] if locked else NAKED_IDS[size],
                    eliminations=tuple(sorted(elims)),
                    cells=cells,
                    houses=tuple(targets),
                    digits=DIGITS_IN[union],
                )


def find_naked(size: int) -> Finder:
    """Finder of naked subsets of ``size`` cells holding ``size`` digits in one house.

    Evidence: ``cells`` the subset, ``houses=(house,)``, ``digits`` its digits.
    """

    def find(grid: Grid) -> Iterator[Step]:
        return _naked(grid, size, locked=False)

    return find


def find_locked_subset(size: int) -> Finder:
    """Finder of naked pairs/triples inside one box and one line: they clear both houses.

    Evidence: ``cells`` the subset, ``houses=(line, box)``, ``digits`` its digits.
    """

    def find(grid: Grid) -> Iterator[Step]:
        return _naked(grid, size, locked=True)

    return find


def describe_naked(step: Step) -> str:
    size = len(step.cells)
    kind = "Locked" if step.technique.startswith("locked") else "Naked"
    return (
        f"{kind} {_SIZE_NAMES[size]}: in {' and '.join(house_name(h) for h in step.houses)}, "
        f"{cells_text(step.cells)} hold only {digits_text(step.digits)}, "
        f"so {eliminations_text(step.eliminations)}"
    )


def _hidden(grid: Grid, size: int) -> Iterator[Step]:
    values, cands = grid.values, grid.candidates
    for h, house in enumerate(HOUSES):
        placed = 0
        positions = [0] * 10  # per digit, the 9-bit mask of its places in the house
        for i, c in enumerate(house):
            placed |= BIT[values[c]]
            for d in DIGITS_IN[cands[c]]:
                positions[d] |= 1 << i
        if POPCOUNT[0x1FF & ~placed] <= size:
            continue
        where: list[tuple[int, int]] = []  # (digit, 9-bit mask of positions in the house)
        for d in DIGITS_IN[0x1FF & ~placed]:
            pos = positions[d]
            if 2 <= POPCOUNT[pos] <= size:
                where.append((d, pos))
        if len(where) < size:
            continue
        for combo in combinations(where, size):
            union = 0
            keep = 0
            for d, pos in combo:
                union |= pos
                keep |= BIT[d]
            if POPCOUNT[union] != size:
                continue
            cells = tuple(house[i] for i in range(9) if union >> i & 1)
            elims = tuple((c, d) for c in cells for d in DIGITS_IN[cands[c] & ~keep])
            if elims:
                yield Step(
                    HIDDEN_IDS[size],
                    eliminations=elims,
                    cells=cells,
                    houses=(h,),
                    digits=DIGITS_IN[keep],
                )


def find_hidden(size: int) -> Finder:
    """Finder of ``size`` digits confined to ``size`` cells of one house.

    Evidence: ``cells`` the subset, ``houses=(house,)``, ``digits`` the hidden digits.
    """

    def find(grid: Grid) -> Iterator[Step]:
        return _hidden(grid, size)

    return find


def describe_hidden(step: Step) -> str:
    size = len(step.cells)
    return (
        f"Hidden {_SIZE_NAMES[size]}: in {house_name(step.houses[0])}, "
        f"{digits_text(step.digits)} fit only in {cells_text(step.cells)}, "
        f"so {eliminations_text(step.eliminations)}"
    )
