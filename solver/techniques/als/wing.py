"""ALS-XY-Wing: two almost locked sets each joined to a pivot set (HoDoKu 0902)."""

from __future__ import annotations

from collections.abc import Iterator

from ...grid import POPCOUNT, Grid
from ...steps import Step
from .evidence import als_step, new_result
from .sets import LINK_RC, LINK_SET_SHIFT, AlsIndex, als_index, common_elims, sees_common


def find_als_xy_wing(grid: Grid) -> Iterator[Step]:
    """ALS A and B each joined to a pivot ALS C by a restricted common (x with A, y with
    B, not both the same single digit): C holds x or y, so A or B is locked and a digit z
    common to A and B (not an RC) leaves cells seeing all of its cells in both."""
    index = als_index(grid)
    reported: set[frozenset[tuple[int, int]]] = set()
    for k in range(len(index.alses)):
        yield from _xy_wings(index, k, reported)


def _xy_wings(index: AlsIndex, k: int, reported: set[frozenset[tuple[int, int]]]) -> list[Step]:
    """The ALS-XY-Wings with pivot set ``k`` (a plain function: C locals)."""
    alses, seen_masks = index.alses, index.seen_masks
    links = index.overlap_links[k]
    c = alses[k]
    found: list[Step] = []
    # per link: the digits of its set, but the RC, with buddies: a wing's eliminations
    # are among the digits both ends have here
    sees = [seen_masks[link >> LINK_SET_SHIFT] & ~link & LINK_RC for link in links]
    for n in range(len(links)):
        sn = sees[n]
        if not sn:
            continue
        i = links[n] >> LINK_SET_SHIFT
        rc1 = links[n] & LINK_RC
        a = alses[i]
        for m in range(n + 1, len(links)):
            both = sn & sees[m]
            if not both:
                continue  # no eliminations
            j = links[m] >> LINK_SET_SHIFT
            rc2 = links[m] & LINK_RC
            if rc1 == rc2 and POPCOUNT[rc1] == 1:
                continue  # C may hold neither: it can miss the one digit
            b = alses[j]
            if not (b.lo & ~a.lo or b.hi & ~a.hi) or not (a.lo & ~b.lo or a.hi & ~b.hi):
                continue  # the sets may overlap, but neither may contain the other
            if not sees_common(a, b, both):
                continue  # no eliminations
            zs = a.mask & b.mask & ~rc1 & ~rc2
            elims = common_elims(a, b, zs)
            if elims and new_result(reported, elims):
                found.append(als_step("als-xy-wing", [a, c, b], [rc1, rc2, 0], rc1 | rc2, elims))
    return found
