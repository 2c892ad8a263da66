"""Sue de Coq: two or three intersection cells of a line and a box with N + 2 or more
digits, completed by a set of cells in the line and a disjoint-digit set in the box.

Let C be cells of a line/box intersection holding the digits V, ``|V| >= |C| + 2``. Pick
cells S in the rest of the line and T in the rest of the box, each drawing on V, with no
V-digit of S in T, such that ``(|S| - extra(S)) + (|T| - extra(T)) == |V| - |C|`` (extra:
digits outside V). Every digit can then be placed at most once in the sets it may occupy,
and the cells need all of them: each V-digit of S is in C or S (so it leaves the rest of
the line), each V-digit of T leaves the rest of the box, V-digits in neither leave both,
and extra digits leave the house of their set (both houses when S and T share one).
This follows HoDoKu's ``MiscellaneousSolver`` eliminations.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Final

from ...grid import DIGITS_IN, HOUSES, POPCOUNT, Grid, house_name
from ...steps import Role, Step, cells_text, eliminations_text, mark

MAX_SET_CELLS: Final = 5  # cells in S or in T: larger sets make no lesson and cost time

# _ORDER[n]: the non-empty subsets of n pool cells (up to MAX_SET_CELLS of them) as index
# bitmasks, by size and then in ``combinations`` order
_ORDER: Final = tuple(
    tuple(
        sum(1 << i for i in combo)
        for k in range(1, min(n, MAX_SET_CELLS) + 1)
        for combo in combinations(range(n), k)
    )
    for n in range(10)
)
_LOW: Final = tuple((s & -s).bit_length() - 1 for s in range(512))
# The three boxes crossing each line (rows 0..8, columns 9..17), ascending.
_LINE_BOXES: Final = tuple(
    tuple(b for b in range(18, 27) if set(HOUSES[line]) & set(HOUSES[b])) for line in range(18)
)


def _subset_digits(pool: list[int], cands: list[int]) -> list[int]:
    """The digits of every subset of ``pool`` (index bitmask), lowest index first."""
    out = [0] * (1 << len(pool))
    low = _LOW
    for s in range(1, len(out)):
        out[s] = out[s & (s - 1)] | cands[pool[low[s]]]
    return out


def _cells(pool: list[int], s: int) -> list[int]:
    """The cells of ``pool`` in the index bitmask ``s``, in pool order."""
    cells: list[int] = []
    low = _LOW
    while s:
        cells.append(pool[low[s & -s]])
        s &= s - 1
    return cells


def find_sue_de_coq(grid: Grid) -> Iterator[Step]:
    """Evidence: ``cells`` the intersection cells C, ``Role.LINE_SET`` the line set S,
    ``Role.BOX_SET`` the box set T, ``houses=(line, box)``, ``digits`` V, ``chain`` one
    node per digit of each of C, S and T (``on`` False), as for the ALS techniques.
    """
    values, cands = grid.values, grid.candidates
    reported: set[frozenset[tuple[int, int]]] = set()
    box_empty = [[c for c in HOUSES[box] if not values[c]] for box in range(27)]
    for line in range(18):
        line_cells = [c for c in HOUSES[line] if not values[c]]
        for box in _LINE_BOXES[line]:  # (the other boxes share no cell with the line)
            box_cells = box_empty[box]
            inter = [c for c in line_cells if c in box_cells]
            if len(inter) < 2:
                continue
            for size in (2, 3):
                for core in combinations(inter, size):
                    v = 0
                    for c in core:
                        v |= cands[c]
                    n_plus = POPCOUNT[v] - size
                    if n_plus < 2:
                        continue
                    yield from _complete(
                        cands, line, box, line_cells, box_cells, core, v, n_plus, reported
                    )


def _complete(
    cands: list[int],
    line: int,
    box: int,
    line_cells: list[int],
    box_cells: list[int],
    core: tuple[int, ...],
    v: int,
    n_plus: int,
    reported: set[frozenset[tuple[int, int]]],
) -> list[Step]:
    """The Sue de Coq of one core, in order (a plain function: its locals are C locals,
    where a generator keeps them in its frame object)."""
    found: list[Step] = []
    line_pool = [c for c in line_cells if c not in core and cands[c] & v]
    line_digits_of = _subset_digits(line_pool, cands)
    # the box cells the box set may draw on, whatever the line set; per such cell its
    # candidates and the line pool index bit of the cell (0: not in the line pool)
    box_base = [c for c in box_cells if c not in core and cands[c] & v]
    base_cands = [cands[c] for c in box_base]
    in_line = [1 << line_pool.index(c) if c in line_pool else 0 for c in box_base]
    size = POPCOUNT
    for s in _ORDER[len(line_pool)]:
        s_mask = line_digits_of[s]
        s_extra = POPCOUNT[s_mask & ~v]
        taken = size[s] - s_extra  # V-digits the line set accounts for
        if taken < 1 or taken >= n_plus:
            continue
        forbidden = s_mask & v  # the box set may not hold the line set's V-digits
        need = n_plus - taken
        allowed = 0
        for i in range(len(box_base)):
            if not base_cands[i] & forbidden and not in_line[i] & s:
                allowed |= 1 << i
        if size[allowed] < need:
            continue  # too few cells for the box set (it takes need V-digits at least)
        s_cells = tuple(_cells(line_pool, s))
        box_pool = _cells(box_base, allowed)
        box_digits_of = _subset_digits(box_pool, cands)
        for t in _ORDER[len(box_pool)]:
            t_mask = box_digits_of[t]
            if size[t] - POPCOUNT[t_mask & ~v] != need:
                continue
            t_cells = tuple(_cells(box_pool, t))
            shared = t_mask & s_mask  # extra digits of both sets leave both houses
            box_digits = ((v | t_mask) & ~s_mask) | shared
            line_digits = ((v | s_mask) & ~t_mask) | shared
            elims: set[tuple[int, int]] = set()
            for c in box_cells:
                if c not in core and c not in t_cells:
                    elims.update((c, d) for d in DIGITS_IN[cands[c] & box_digits])
            for c in line_cells:
                if c not in core and c not in s_cells:
                    elims.update((c, d) for d in DIGITS_IN[cands[c] & line_digits])
            key = frozenset(elims)
            if not elims or key in reported:
                continue
            reported.add(key)
            step = Step(
                "sue-de-coq",
                eliminations=tuple(sorted(elims)),
                cells=core,
                houses=(line, box),
                digits=DIGITS_IN[v],
                marked=mark((Role.LINE_SET, s_cells), (Role.BOX_SET, t_cells)),
                chain=tuple(
                    (group, d, False)
                    for group, mask in ((core, v), (s_cells, s_mask), (t_cells, t_mask))
                    for d in DIGITS_IN[mask]
                ),
            )
            found.append(step)
    return found


def describe_sue_de_coq(step: Step) -> str:
    line, box = step.houses
    groups: list[tuple[tuple[int, ...], list[int]]] = []
    for cells, d, _ in step.chain:
        if not groups or groups[-1][0] != cells or d <= groups[-1][1][-1]:
            groups.append((cells, []))
        groups[-1][1].append(d)
    (core, v), (s_cells, s_digits), (t_cells, t_digits) = groups

    def text(cells: tuple[int, ...], digits: list[int]) -> str:
        return f"{cells_text(cells)} {{{''.join(map(str, digits))}}}"

    return (
        f"Sue de Coq: {text(core, v)} at the crossing of {house_name(line)} and "
        f"{house_name(box)}, with {text(s_cells, s_digits)} in {house_name(line)} and "
        f"{text(t_cells, t_digits)} in {house_name(box)}: together these cells need every "
        f"one of their digits, so each digit is confined to its set's house: "
        f"{eliminations_text(step.eliminations)}"
    )
