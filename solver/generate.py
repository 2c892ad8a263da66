"""Make puzzles: a random full grid, then givens removed while the solution stays unique.

Used for the bundled samples and by the tests' synthetic photos, so nothing depends on
someone else's puzzle collection.
"""

from __future__ import annotations

import random

from .grid import ALL_DIGITS, BIT, DIGITS_IN, PEERS
from .search import count_solutions


def random_solution(rng: random.Random) -> list[int]:
    """A uniformly shuffled complete grid (random digit order in a backtracking fill)."""
    values = [0] * 81

    def fill(cell: int) -> bool:
        if cell == 81:
            return True
        used = 0
        for p in PEERS[cell]:
            used |= BIT[values[p]]
        digits = list(DIGITS_IN[ALL_DIGITS & ~used])
        rng.shuffle(digits)
        for d in digits:
            values[cell] = d
            if fill(cell + 1):
                return True
        values[cell] = 0
        return False

    fill(0)
    return values


def generate(seed: int, *, min_givens: int = 22, symmetric: bool = True) -> list[int]:
    """A puzzle (81 ints, 0 = empty) with exactly one solution, reproducible from ``seed``."""
    rng = random.Random(seed)
    puzzle = random_solution(rng)
    order = list(range(41 if symmetric else 81))  # symmetric: cell c pairs with 80 - c
    rng.shuffle(order)
    givens = 81
    for c in order:
        pair = {c, 80 - c} if symmetric else {c}
        if givens - len(pair) < min_givens:
            continue
        saved = {p: puzzle[p] for p in pair}
        for p in pair:
            puzzle[p] = 0
        if count_solutions(puzzle, 2) != 1:
            for p, v in saved.items():
                puzzle[p] = v
        else:
            givens -= len(pair)
    return puzzle
