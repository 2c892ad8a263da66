"""Exact search: count solutions (up to a limit) with bitmask propagation and MRV branching.

This is the uniqueness oracle behind validation and the property tests; it is never
shown to users as a solving method.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .grid import ALL_DIGITS, BIT, CELLS, HOUSES, HOUSES_OF, PEERS, POPCOUNT, SINGLE


def _propagate(values: list[int], cands: list[int], changed: int = -1) -> bool:
    """Place naked and hidden singles until none is left; False on a contradiction.

    Naked singles go through a stack (a placement pushes the peers it leaves with one
    candidate) instead of rescanning the grid; hidden singles are looked for once the
    stack is empty, in the houses where a cell changed since they were last looked at.
    The result (the closure under singles) does not depend on the order.

    ``changed``: the one cell, now left one candidate, by which ``cands`` differs from a
    state closed under singles (a branch of the search); only it needs looking at.
    """
    stack: list[int] = []
    dirty = 0  # houses to look at for hidden singles, as 27 bits
    if changed >= 0:
        stack.append(changed)
    else:
        for c in CELLS:
            if not values[c]:
                m = cands[c]
                if not m:
                    return False
                if SINGLE[m]:
                    stack.append(c)
        dirty = _ALL_HOUSES
    while True:
        while stack:
            c = stack.pop()
            if values[c]:
                continue
            m = cands[c]
            d = SINGLE[m]
            if not d:
                return False  # its last candidate went to a peer placed since it was pushed
            values[c] = d
            cands[c] = 0
            dirty |= _HOUSE_BITS_OF[c]
            clear = ~m
            for p in PEERS[c]:
                if values[p] == d:
                    return False
                pm = cands[p]
                if pm & m:
                    pm &= clear
                    cands[p] = pm
                    if not pm:
                        return False
                    dirty |= _HOUSE_BITS_OF[p]
                    if SINGLE[pm]:
                        stack.append(p)
        while dirty and not stack:
            h = (dirty & -dirty).bit_length() - 1
            dirty &= dirty - 1
            house = HOUSES[h]
            once = twice = placed = 0
            for c in house:
                m = cands[c]
                twice |= once & m
                once |= m
                placed |= BIT[values[c]]
            if (once | placed) != ALL_DIGITS:
                return False
            hidden = once & ~twice
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                for c in house:
                    if cands[c] & bit:
                        if cands[c] != bit:
                            cands[c] = bit
                            dirty |= _HOUSE_BITS_OF[c]
                        stack.append(c)
                        break
        if not stack:
            return True


_ALL_HOUSES: Final = (1 << 27) - 1
# per cell, its three houses as bits of a 27-bit set
_HOUSE_BITS_OF: Final[tuple[int, ...]] = tuple(1 << r | 1 << k | 1 << b for r, k, b in HOUSES_OF)


def branch_cell(values: list[int], cands: list[int]) -> int:
    """The empty cell with fewest candidates (the first bivalue one), -1 when full."""
    best, best_count = -1, 10
    for c in CELLS:
        if not values[c]:
            n = POPCOUNT[cands[c]]
            if n < best_count:
                best, best_count = c, n
                if n == 2:
                    break
    return best


def _search(
    values: list[int], cands: list[int], limit: int, out: list[list[int]], changed: int = -1
) -> None:
    if not _propagate(values, cands, changed):
        return
    best = branch_cell(values, cands)
    if best < 0:
        out.append(values)
        return
    m = cands[best]
    while m and len(out) < limit:
        bit = m & -m
        m ^= bit
        v2, c2 = values[:], cands[:]
        c2[best] = bit
        _search(v2, c2, limit, out, best)


def solutions(values: Sequence[int], limit: int = 2) -> list[list[int]]:
    """Up to ``limit`` solutions of the puzzle ``values`` (81 ints, 0 empty).

    A puzzle whose givens already clash has no solution.
    """
    return solutions_from_candidates(values, [ALL_DIGITS] * 81, limit)


def solutions_from_candidates(
    values: Sequence[int], candidates: Sequence[int], limit: int = 2
) -> list[list[int]]:
    """Solutions of a pencil-mark state: placed values plus candidate masks of empty cells."""
    # Placed cells enter as single candidates: propagation places them, clears their
    # peers and finds any clash between them.
    cands = [BIT[v] if v else m for v, m in zip(values, candidates, strict=True)]
    out: list[list[int]] = []
    _search([0] * 81, cands, limit, out)
    return out


def count_solutions(values: Sequence[int], limit: int = 2) -> int:
    """How many solutions the puzzle has, counting at most ``limit``."""
    return len(solutions(values, limit))
