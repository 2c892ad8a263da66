"""Share one expensive search among the techniques that read it on the same grid state.

The solve loop (and reglib) asks several finders in a row about one state; finders of
one family (finned and sashimi fish, the three loop types, the seven rectangle
finders, the ALS finders) derive their steps from one search. Its result is kept for
the last state seen, per argument tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import TypeVar

from ..grid import Grid

T = TypeVar("T")


def last_state(compute: Callable[..., T]) -> Callable[..., T]:
    """Decorate ``compute(grid, *args)``: repeated calls on an unchanged grid state (its
    values and candidates) with the same ``args`` return the first call's result."""
    last: dict[tuple[Hashable, ...], tuple[tuple[int, ...], T]] = {}

    @wraps(compute)
    def cached(grid: Grid, *args: Hashable) -> T:
        key = (*grid.values, *grid.candidates)
        hit = last.get(args)
        if hit is not None and hit[0] == key:
            return hit[1]
        result = compute(grid, *args)
        last[args] = (key, result)
        return result

    return cached
