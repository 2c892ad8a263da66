"""Share one expensive search among the techniques that read it on the same grid state.

The solve loop (and reglib) asks several finders in a row about one state; finders of
one family (finned and sashimi fish, the three loop types, the seven rectangle
finders, the ALS finders) derive their steps from one search. Its result is kept for
the last state seen, per argument tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import Final, TypeVar

from .grid import DIGITS_IN, Grid

T = TypeVar("T")


def state_key(grid: Grid) -> tuple[int, ...]:
    """A grid state's values and candidates, as a hashable key."""
    return (*grid.values, *grid.candidates)


def last_state(compute: Callable[..., T]) -> Callable[..., T]:
    """Decorate ``compute(grid, *args)``: repeated calls on an unchanged grid state (its
    values and candidates) with the same ``args`` return the first call's result."""
    last: dict[tuple[Hashable, ...], tuple[tuple[int, ...], T]] = {}

    @wraps(compute)
    def cached(grid: Grid, *args: Hashable) -> T:
        key = state_key(grid)
        hit = last.get(args)
        if hit is not None and hit[0] == key:
            return hit[1]
        result = compute(grid, *args)
        last[args] = (key, result)
        return result

    return cached


# Per digit (index 1..9) the 81-bit set of cells holding it as a candidate, for the last
# candidate state seen: one pass over the grid serves every single-digit finder of a step.
_patterns_of: list[tuple[tuple[int, ...], list[int]]] = []


def digit_patterns(grid: Grid) -> list[int]:
    """``patterns[d]``: the cells where digit ``d`` is still a candidate, as 81-bit sets
    (index 0 unused)."""
    key = tuple(grid.candidates)
    if _patterns_of and _patterns_of[0][0] == key:
        return _patterns_of[0][1]
    patterns = [0] * 10
    for cell, mask in enumerate(key):
        if mask:
            bit = 1 << cell
            for digit in DIGITS_IN[mask]:
                patterns[digit] |= bit
    _patterns_of[:] = [(key, patterns)]
    return patterns


# Bound on each per-digit memo; a solve visits a few hundred patterns per digit at most,
# so clearing when full costs nothing while keeping a long batch from growing memory.
MEMO_LIMIT: Final = 4096


def by_digit_pattern(compute: Callable[..., T]) -> Callable[..., T]:
    """Memoise ``compute(grid, digit, bits, *args)`` on ``(digit, bits, args)``, where
    ``bits`` is the digit's candidate cells (:func:`digit_patterns`).

    For the single-digit techniques (fish, strong-link patterns, colouring, X-Chains) the
    instances on a digit depend on nothing else, and a step usually changes a digit or
    two: the others' results are reused instead of searched again after every step.
    ``compute`` must read nothing of the grid but that digit's candidates.
    """
    memo: dict[tuple[Hashable, ...], T] = {}

    @wraps(compute)
    def cached(grid: Grid, digit: int, bits: int, *args: Hashable) -> T:
        key = (digit, bits, *args)
        hit = memo.get(key)
        if hit is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            hit = memo[key] = compute(grid, digit, bits, *args)
        return hit

    return cached
