"""Basic fish: X-Wing, Swordfish, Jellyfish (rows or columns as base)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..grid import BIT, POPCOUNT, Grid
from ..steps import Finder, Step, eliminations_text

FISH_IDS = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}
FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def _fish(grid: Grid, size: int) -> Iterator[Step]:
    cands = grid.candidates
    for digit in range(1, 10):
        bit = BIT[digit]
        for by_rows in (True, False):
            lines: list[tuple[int, int]] = []  # (base line index, 9-bit cover positions)
            for line in range(9):
                pos = 0
                for i in range(9):
                    c = line * 9 + i if by_rows else i * 9 + line
                    if cands[c] & bit:
                        pos |= 1 << i
                if 2 <= POPCOUNT[pos] <= size:
                    lines.append((line, pos))
            if len(lines) < size:
                continue
            for combo in combinations(lines, size):
                union = 0
                for _, pos in combo:
                    union |= pos
                if POPCOUNT[union] != size:
                    continue
                base = {line for line, _ in combo}
                covers = [i for i in range(9) if union >> i & 1]
                elims = []
                for cover in covers:
                    for line in range(9):
                        if line in base:
                            continue
                        c = line * 9 + cover if by_rows else cover * 9 + line
                        if cands[c] & bit:
                            elims.append((c, digit))
                if not elims:
                    continue
                base_houses = [line if by_rows else 9 + line for line, _ in combo]
                cover_houses = [9 + i if by_rows else i for i in covers]
                cells = tuple(
                    sorted(
                        (line * 9 + i if by_rows else i * 9 + line)
                        for line, pos in combo
                        for i in range(9)
                        if pos >> i & 1
                    )
                )
                yield Step(
                    FISH_IDS[size],
                    eliminations=tuple(sorted(elims)),
                    cells=cells,
                    houses=tuple(base_houses + cover_houses),
                    digits=(digit,),
                )


def find_fish(size: int) -> Finder:
    """Finder of basic fish with ``size`` base lines. Evidence: ``cells`` the fish's cells,
    ``houses`` its ``size`` base lines then its ``size`` cover lines, ``digits=(digit,)``."""

    def find(grid: Grid) -> Iterator[Step]:
        return _fish(grid, size)

    return find


def _lines_text(houses: tuple[int, ...]) -> str:
    kind = "rows" if houses[0] < 9 else "columns"
    return f"{kind} " + ", ".join(str(h % 9 + 1) for h in houses)


def describe_fish(step: Step) -> str:
    size = len(step.houses) // 2
    base, cover = step.houses[:size], step.houses[size:]
    d = step.digits[0]
    name = FISH_NAMES[size]
    return (
        f"{name}: in {_lines_text(base)}, {d} lies only in {_lines_text(cover)}, "
        f"so {eliminations_text(step.eliminations)}"
    )
