"""ALS-XZ: two almost locked sets joined by a restricted common (HoDoKu 0901)."""

from __future__ import annotations

from collections.abc import Iterator

from ...grid import DIGITS_IN, POPCOUNT, Grid, cells_of_bits
from ...steps import Step
from .evidence import als_step, new_result
from .sets import LINK_RC, LINK_SET_SHIFT, AlsIndex, als_index, common_elims


def find_als_xz(grid: Grid) -> Iterator[Step]:
    """Two ALS A and B with a restricted common x: one of them is locked, so a digit z
    common to both is in A or in B and leaves cells seeing all of its cells in both.
    Doubly linked (two RCs): both ALS are locked without the RCs, so their other digits
    leave every cell seeing all of them, and each RC leaves cells seeing it in both."""
    index = als_index(grid)
    reported: set[frozenset[tuple[int, int]]] = set()
    for i in range(len(index.alses)):
        yield from _xz_from(index, i, reported)


def _xz_from(index: AlsIndex, i: int, reported: set[frozenset[tuple[int, int]]]) -> list[Step]:
    """The ALS-XZ of set ``i`` with the sets after it (a plain function: C locals)."""
    alses = index.alses
    found: list[Step] = []
    a = alses[i]
    for link in index.links[i]:
        j = link >> LINK_SET_SHIFT
        if j < i:
            continue
        rc = link & LINK_RC
        b = alses[j]
        common = a.mask & b.mask
        if POPCOUNT[rc] != 2:
            sees = False
            for z in DIGITS_IN[common]:
                if rc & ~(1 << (z - 1)) and (a.blo[z] & b.blo[z] or a.bhi[z] & b.bhi[z]):
                    sees = True
                    break
            if not sees:
                continue  # no cell sees a common digit (but the RC) in both sets
        elims: set[tuple[int, int]] = set()
        for x in DIGITS_IN[rc]:
            elims |= common_elims(a, b, common & ~(1 << (x - 1)))
        if POPCOUNT[rc] == 2:
            for own, other in ((a, b), (b, a)):
                for d in DIGITS_IN[own.mask & ~rc]:
                    for c in cells_of_bits(own.buddies[d] & ~other.bits):
                        elims.add((c, d))
        if elims and new_result(reported, elims):
            found.append(als_step("als-xz", [a, b], [rc, 0], rc, elims))
    return found
