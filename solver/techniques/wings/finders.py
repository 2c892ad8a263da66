"""XY-Wing and XYZ-Wing."""

from __future__ import annotations

from collections.abc import Iterator

from ...grid import BIT, DIGITS_IN, PEER_BITS, PEERS, POPCOUNT, Grid, cell_name, cells_of_bits
from ...steps import Step, eliminations_text


def _pincers(grid: Grid, pivot: int) -> list[int]:
    cands = grid.candidates
    return [p for p in PEERS[pivot] if POPCOUNT[cands[p]] == 2]


def find_xy_wing(grid: Grid) -> Iterator[Step]:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: z leaves cells seeing both pincers.

    Evidence: ``cells=(pivot, pincer_a, pincer_b)``, ``digits=(x, y, z)``.
    """
    cands = grid.candidates
    for pivot in range(81):
        pm = cands[pivot]
        if POPCOUNT[pm] != 2:
            continue
        x, y = DIGITS_IN[pm]
        wings = _pincers(grid, pivot)
        for a in wings:
            am = cands[a]
            if not am & BIT[x] or am & BIT[y]:
                continue  # ``a`` must hold x and some z outside the pivot
            zbit = am & ~BIT[x]
            for b in wings:
                if cands[b] != BIT[y] | zbit:
                    continue
                targets = PEER_BITS[a] & PEER_BITS[b] & ~(1 << pivot)
                z = DIGITS_IN[zbit][0]
                elims = tuple((c, z) for c in cells_of_bits(targets) if cands[c] & zbit)
                if elims:
                    yield Step(
                        "xy-wing",
                        eliminations=elims,
                        cells=(pivot, a, b),
                        digits=(x, y, z),
                    )


def describe_xy_wing(step: Step) -> str:
    pivot, a, b = step.cells
    x, y, z = step.digits
    return (
        f"XY-Wing: pivot {cell_name(pivot)} ({x}/{y}) sees {cell_name(a)} ({x}/{z}) and "
        f"{cell_name(b)} ({y}/{z}); either pincer is {z}, so {eliminations_text(step.eliminations)}"
    )


def find_xyz_wing(grid: Grid) -> Iterator[Step]:
    """Pivot {x,y,z} seeing pincers {x,z} and {y,z}: z leaves cells seeing all three.

    Evidence: ``cells=(pivot, pincer_a, pincer_b)``, ``digits=(x, y, z)``.
    """
    cands = grid.candidates
    for pivot in range(81):
        pm = cands[pivot]
        if POPCOUNT[pm] != 3:
            continue
        wings = [p for p in _pincers(grid, pivot) if cands[p] & ~pm == 0]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                if cands[a] == cands[b]:
                    continue
                zbit = cands[a] & cands[b]
                z = DIGITS_IN[zbit][0]
                targets = PEER_BITS[pivot] & PEER_BITS[a] & PEER_BITS[b]
                elims = tuple((c, z) for c in cells_of_bits(targets) if cands[c] & zbit)
                if elims:
                    x = DIGITS_IN[cands[a] & ~zbit][0]
                    y = DIGITS_IN[cands[b] & ~zbit][0]
                    yield Step(
                        "xyz-wing",
                        eliminations=elims,
                        cells=(pivot, a, b),
                        digits=(x, y, z),
                    )


def describe_xyz_wing(step: Step) -> str:
    pivot, a, b = step.cells
    x, y, z = step.digits
    return (
        f"XYZ-Wing: pivot {cell_name(pivot)} ({x}/{y}/{z}) sees {cell_name(a)} ({x}/{z}) and "
        f"{cell_name(b)} ({y}/{z}); one of the three is {z}, "
        f"so {eliminations_text(step.eliminations)}"
    )
