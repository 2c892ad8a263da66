"""Naked and hidden subsets (pairs, triples, quads) and locked pairs/triples."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ...grid import BIT, DIGITS_IN, HOUSES, HOUSES_OF, POPCOUNT, Grid, house_name
from ...registry import Finder
from ...statecache import last_state
from ...steps import Step, cells_text, digits_text, eliminations_text

_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}
NAKED_IDS = {2: "naked-pair", 3: "naked-triple", 4: "naked-quad"}
HIDDEN_IDS = {2: "hidden-pair", 3: "hidden-triple", 4: "hidden-quad"}
LOCKED_IDS = {2: "locked-pair", 3: "locked-triple"}


def _shared_houses(cells: tuple[int, ...]) -> list[int]:
    shared = set(HOUSES_OF[cells[0]])
    for c in cells[1:]:
        shared &= set(HOUSES_OF[c])
    return sorted(shared)


def _locked(grid: Grid, size: int) -> Iterator[Step]:
    values, cands = grid.values, grid.candidates
    for h in range(18, 27):
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
            targets = _shared_houses(cells)
            if len(targets) < 2:
                continue
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
                    LOCKED_IDS[size],
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
        return iter(_naked_subsets(grid)[size])

    return find


@last_state
def _naked_subsets(grid: Grid) -> list[list[Step]]:
    """The naked pairs, triples and quads of a state (by size), house by house, each
    house's in the lexicographic order of their cells: one search per state serves the
    three finders, which run in a row on it."""
    values, cands = grid.values, grid.candidates
    found: list[list[Step]] = [[], [], [], [], []]
    for h in range(27):
        house = HOUSES[h]
        # cells with 2-4 candidates: a subset's cells, in house order (a size's subsets
        # come in the order of ``combinations`` over its own pool, a subsequence)
        pool = [c for c in house if not values[c] and 2 <= POPCOUNT[cands[c]] <= 4]
        if len(pool) < 2:
            continue
        masks = [cands[c] for c in pool]
        subsets: list[list[tuple[int, ...]]] = [[], [], [], [], []]
        _extend_naked(masks, 0, 0, [], subsets)
        for size in (2, 3, 4):
            for picked in subsets[size]:
                cells = tuple(pool[i] for i in picked)
                union = 0
                for c in cells:
                    union |= cands[c]
                elims = tuple(
                    (c, d)
                    for c in house
                    if c not in cells and not values[c]
                    for d in DIGITS_IN[cands[c] & union]
                )
                if elims:
                    found[size].append(_house_step(NAKED_IDS[size], elims, cells, h, union))
    return found


def _house_step(
    technique: str,
    elims: tuple[tuple[int, int], ...],
    cells: tuple[int, ...],
    house: int,
    digits: int,
) -> Step:
    """A naked or hidden subset's step: its cells and digits (a mask) in one house."""
    return Step(
        technique, eliminations=elims, cells=cells, houses=(house,), digits=DIGITS_IN[digits]
    )


def _extend_naked(
    masks: list[int], start: int, union: int, picked: list[int], out: list[list[tuple[int, ...]]]
) -> None:
    """Depth first in lexicographic order: the index sets of 2-4 cells whose candidates
    number as many as the cells (a union past 4 digits is pruned: it only grows)."""
    for i in range(start, len(masks)):
        grown = union | masks[i]
        count = POPCOUNT[grown]
        if count > 4:
            continue
        picked.append(i)
        if count == len(picked):
            out[count].append(tuple(picked))
        if len(picked) < 4:
            _extend_naked(masks, i + 1, grown, picked, out)
        picked.pop()


def find_locked_subset(size: int) -> Finder:
    """Finder of naked pairs/triples inside one box and one line: they clear both houses.

    Evidence: ``cells`` the subset, ``houses=(line, box)``, ``digits`` its digits.
    """

    def find(grid: Grid) -> Iterator[Step]:
        return _locked(grid, size)

    return find


def describe_naked(step: Step) -> str:
    size = len(step.cells)
    kind = "Locked" if step.technique.startswith("locked") else "Naked"
    return (
        f"{kind} {_SIZE_NAMES[size]}: in {' and '.join(house_name(h) for h in step.houses)}, "
        f"{cells_text(step.cells)} hold only {digits_text(step.digits)}, "
        f"so {eliminations_text(step.eliminations)}"
    )


def find_hidden(size: int) -> Finder:
    """Finder of ``size`` digits confined to ``size`` cells of one house.

    Evidence: ``cells`` the subset, ``houses=(house,)``, ``digits`` the hidden digits.
    """

    def find(grid: Grid) -> Iterator[Step]:
        return iter(_hidden_subsets(grid)[size])

    return find


@last_state
def _hidden_subsets(grid: Grid) -> list[list[Step]]:
    """The hidden pairs, triples and quads of a state (by size), house by house, each
    house's in the lexicographic order of their digits (one search for three finders)."""
    values, cands = grid.values, grid.candidates
    found: list[list[Step]] = [[], [], [], [], []]
    for h, house in enumerate(HOUSES):
        placed = 0
        positions = [0] * 10  # per digit, the 9-bit mask of its places in the house
        for i, c in enumerate(house):
            placed |= BIT[values[c]]
            for d in DIGITS_IN[cands[c]]:
                positions[d] |= 1 << i
        free = POPCOUNT[0x1FF & ~placed]
        if free <= 2:
            continue
        # digits with 2-4 places, in digit order (a size's combinations come in the order
        # of ``combinations`` over its own list, a subsequence)
        where = [(d, positions[d]) for d in DIGITS_IN[0x1FF & ~placed]]
        where = [(d, pos) for d, pos in where if 2 <= POPCOUNT[pos] <= 4]
        if len(where) < 2:
            continue
        subsets: list[list[tuple[int, ...]]] = [[], [], [], [], []]
        _extend_naked([pos for _, pos in where], 0, 0, [], subsets)
        for size in (2, 3, 4):
            if free <= size:
                continue  # the house's free digits are all in the subset
            for picked in subsets[size]:
                union = keep = 0
                for i in picked:
                    d, pos = where[i]
                    union |= pos
                    keep |= BIT[d]
                cells = tuple(house[i] for i in range(9) if union >> i & 1)
                elims = tuple((c, d) for c in cells for d in DIGITS_IN[cands[c] & ~keep])
                if elims:
                    found[size].append(_house_step(HIDDEN_IDS[size], elims, cells, h, keep))
    return found


def describe_hidden(step: Step) -> str:
    size = len(step.cells)
    return (
        f"Hidden {_SIZE_NAMES[size]}: in {house_name(step.houses[0])}, "
        f"{digits_text(step.digits)} fit only in {cells_text(step.cells)}, "
        f"so {eliminations_text(step.eliminations)}"
    )
