"""Uniqueness techniques: Unique Rectangles 1-6, Hidden Rectangle, Avoidable Rectangles, BUG+1.

All of them assume the puzzle has exactly one solution (the solve loop checks it first): a
*deadly pattern* (two digits filling the four corners of a rectangle spanning two boxes,
each on a diagonal) could have its digits swapped, giving a second solution, so the grid
must avoid it. A rectangle is stored as ``(tl, tr, bl, br)``; ``tl``/``br`` and ``tr``/``bl``
are its diagonals.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ...grid import (
    ALL_DIGITS,
    BIT,
    BOX_OF,
    COL_OF,
    DIGITS_IN,
    HOUSE_BITS,
    HOUSES,
    HOUSES_OF,
    PEER_BITS,
    POPCOUNT,
    ROW_OF,
    SINGLE,
    Grid,
    cell_name,
    cells_of_bits,
    house_name,
)
from ...statecache import digit_patterns, last_state
from ...steps import (
    Candidate,
    Marked,
    Role,
    Step,
    cells_text,
    digits_text,
    eliminations_text,
    mark,
)


def _build_rectangles() -> tuple[tuple[int, int, int, int], ...]:
    """The 486 rectangles whose corners lie in exactly two boxes."""
    rects = []
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for k1 in range(9):
                for k2 in range(k1 + 1, 9):
                    cells = (r1 * 9 + k1, r1 * 9 + k2, r2 * 9 + k1, r2 * 9 + k2)
                    if len({BOX_OF[c] for c in cells}) == 2:
                        rects.append(cells)
    return tuple(rects)


RECTANGLES: Final = _build_rectangles()


def _rects_of() -> tuple[tuple[tuple[tuple[int, int, int, int], int], ...], ...]:
    """Per cell, the rectangles through it with their index in RECTANGLES (in that
    order), to start a search from the cells that matter."""
    per_cell: list[list[tuple[tuple[int, int, int, int], int]]] = [[] for _ in range(81)]
    for index, rect in enumerate(RECTANGLES):
        for c in rect:
            per_cell[c].append((rect, index))
    return tuple(tuple(rects) for rects in per_cell)


_RECTS_OF: Final = _rects_of()
# The other corner on the same diagonal, by corner position in (tl, tr, bl, br).
_OPPOSITE = (3, 2, 1, 0)


def _rect_bits(rect: tuple[int, int, int, int]) -> int:
    return (1 << rect[0]) | (1 << rect[1]) | (1 << rect[2]) | (1 << rect[3])


def _allowed(grid: Grid) -> list[int]:
    """Per cell, the digits no placed peer forbids (eliminations by logic ignored)."""
    used = [0] * 27
    for c, v in enumerate(grid.values):
        if v:
            for h in HOUSES_OF[c]:
                used[h] |= BIT[v]
    return [
        0 if grid.values[c] else ALL_DIGITS & ~(used[r] | used[k] | used[b])
        for c, (r, k, b) in enumerate(HOUSES_OF)
    ]


# A unique-rectangle candidate: (rectangle, a, b, cells within {a, b}, cells with more).
_UR = tuple[tuple[int, int, int, int], int, int, tuple[int, ...], tuple[int, ...]]


@last_state
def _unique_rectangles(grid: Grid) -> list[_UR]:
    """Every rectangle of empty cells, one a bivalue {a, b} cell, all allowing a and b.

    As in HoDoKu, a corner may have lost a or b to earlier logic (it must only not see a
    placed a or b): the deadly-pattern argument needs only that the givens have one
    solution (:func:`solver.solve.solve` checks it), so missing candidates never make a
    deduction unsound.
    The seven rectangle finders run on the same grid in a row; the last result is kept.
    """
    cands = grid.candidates
    allowed: list[int] = []  # per cell, the digits no placed peer forbids (0: placed)
    seen: set[tuple[int, int]] = set()  # (rectangle index, digit pair) done
    found: list[_UR] = []
    for start in range(81):
        pair = cands[start]
        if POPCOUNT[pair] != 2:
            continue
        if not allowed:
            allowed = _allowed(grid)
        a, b = DIGITS_IN[pair]
        for rect, index in _RECTS_OF[start]:
            c0, c1, c2, c3 = rect
            if (
                allowed[c0] & pair != pair
                or allowed[c1] & pair != pair
                or allowed[c2] & pair != pair
                or allowed[c3] & pair != pair
            ):
                continue  # a corner is placed or sees a placed a or b
            if (index, pair) in seen:
                continue
            seen.add((index, pair))
            inside = tuple(c for c in rect if not cands[c] & ~pair)
            outside = tuple(c for c in rect if cands[c] & ~pair)
            found.append((rect, a, b, inside, outside))
    return found


def _aligned(c1: int, c2: int) -> bool:
    return ROW_OF[c1] == ROW_OF[c2] or COL_OF[c1] == COL_OF[c2]


def _ur_step(
    technique: str,
    ur: _UR,
    elims: list[Candidate],
    *,
    digits: tuple[int, ...] = (),
    houses: tuple[int, ...] = (),
    marked: Marked | None = None,
) -> Step:
    rect, a, b, _inside, outside = ur
    return Step(
        technique,
        eliminations=tuple(sorted(elims)),
        cells=rect,
        houses=houses,
        digits=digits or (a, b),
        marked=mark((Role.CORNER, outside)) if marked is None else marked,
    )


def find_ur_type1(grid: Grid) -> Iterator[Step]:
    """Three corners hold only a and b: the fourth cannot be a or b.

    Evidence: ``cells`` the rectangle, ``digits=(a, b)``, ``Role.CORNER`` the fourth
    corner.
    """
    cands = grid.candidates
    for ur in _unique_rectangles(grid):
        _rect, a, b, _inside, outside = ur
        if len(outside) != 1:
            continue
        cell = outside[0]
        elims = [(cell, d) for d in (a, b) if cands[cell] & BIT[d]]
        if elims:
            yield _ur_step("unique-rectangle-1", ur, elims)


def _find_ur_type2_5(grid: Grid, technique: str) -> Iterator[Step]:
    cands = grid.candidates
    for ur in _unique_rectangles(grid):
        _rect, a, b, inside, outside = ur
        if len(inside) not in (1, 2):
            continue
        pair = BIT[a] | BIT[b]
        more = 0
        for c in outside:
            more |= cands[c] & ~pair
        z = SINGLE[more]
        if not z:
            continue
        is_type2 = len(outside) == 2 and _aligned(*outside)
        if is_type2 != (technique == "unique-rectangle-2"):
            continue
        targets = (1 << 81) - 1
        for c in outside:
            targets &= PEER_BITS[c]
        elims = [(c, z) for c in cells_of_bits(targets) if cands[c] & more]
        if elims:
            yield _ur_step(technique, ur, elims, digits=(a, b, z))


def find_ur_type2(grid: Grid) -> Iterator[Step]:
    """Two corners in a line hold a, b and one extra digit z: one of them is z, so z
    leaves every cell seeing both.

    Evidence: ``cells`` the rectangle, ``digits=(a, b, z)``, ``Role.CORNER`` the corners
    with z.
    """
    return _find_ur_type2_5(grid, "unique-rectangle-2")


def find_ur_type5(grid: Grid) -> Iterator[Step]:
    """Two diagonal or three corners hold a, b and one extra digit z: z leaves every cell
    seeing all of them.

    Evidence: as for type 2.
    """
    return _find_ur_type2_5(grid, "unique-rectangle-5")


def _same_line(cells: list[int]) -> bool:
    return len({ROW_OF[c] for c in cells}) == 1 or len({COL_OF[c] for c in cells}) == 1


def find_ur_type3(grid: Grid) -> Iterator[Step]:
    """The two corners with extra digits act as one cell holding those extras; with k-1
    more cells of a house they share it forms a naked subset of k digits.

    Evidence: ``cells`` the rectangle, ``digits=(a, b, *subset digits)``, ``houses=(h,)``
    (plus the box when a line subset is also locked in it), ``Role.CORNER`` the corners
    with extra digits, then ``Role.SUBSET`` the other subset cells.
    """
    cands = grid.candidates
    for ur in _unique_rectangles(grid):
        rect, a, b, inside, outside = ur
        if len(inside) != 2:
            continue
        pair = BIT[a] | BIT[b]
        i1, i2 = outside
        extras = (cands[i1] | cands[i2]) & ~pair
        rect_bits = _rect_bits(rect)
        for h in set(HOUSES_OF[i1]) & set(HOUSES_OF[i2]):
            pool = [
                c for c in HOUSES[h] if cands[c] and not cands[c] & pair and not rect_bits >> c & 1
            ]
            # Every subset of the pool (at most 7 cells, so at most 127 subsets).
            for n in range(1, 1 << len(pool)):
                chosen = [pool[i] for i in range(len(pool)) if n >> i & 1]
                mask = extras
                for c in chosen:
                    mask |= cands[c]
                if POPCOUNT[mask] != len(chosen) + 1:
                    continue
                members = [i1, i2, *chosen]
                if h >= 18 and _same_line(members):
                    continue  # found from the line already
                member_bits = sum(1 << c for c in members)
                scope = HOUSE_BITS[h]
                houses: tuple[int, ...] = (h,)
                if h < 18 and len({BOX_OF[c] for c in members}) == 1:
                    box = 18 + BOX_OF[i1]
                    scope |= HOUSE_BITS[box]
                    houses = (h, box)
                elims = [
                    (c, d)
                    for c in cells_of_bits(scope & ~member_bits)
                    for d in DIGITS_IN[cands[c] & mask]
                ]
                if elims:
                    yield _ur_step(
                        "unique-rectangle-3",
                        ur,
                        elims,
                        digits=(a, b, *DIGITS_IN[mask]),
                        houses=houses,
                        marked=mark((Role.CORNER, (i1, i2)), (Role.SUBSET, chosen)),
                    )


def find_ur_type4(grid: Grid) -> Iterator[Step]:
    """Two corners in a line with extra digits; when one of a, b lies in no other cell
    their shared houses, one of them holds it, so the other digit leaves both.

    Evidence: ``cells`` the rectangle, ``digits=(kept, removed)``, ``houses`` the houses
    the two corners share, ``Role.CORNER`` the two corners.
    """
    cands = grid.candidates
    for ur in _unique_rectangles(grid):
        _rect, a, b, inside, outside = ur
        if len(inside) != 2 or not _aligned(*outside):
            continue
        i1, i2 = outside
        common = PEER_BITS[i1] & PEER_BITS[i2]
        for keep, drop in ((a, b), (b, a)):
            if any(cands[c] & BIT[keep] for c in cells_of_bits(common)):
                continue
            elims = [(c, drop) for c in outside if cands[c] & BIT[drop]]
            if elims:
                houses = tuple(sorted(set(HOUSES_OF[i1]) & set(HOUSES_OF[i2])))
                yield _ur_step("unique-rectangle-4", ur, elims, digits=(keep, drop), houses=houses)


def find_ur_type6(grid: Grid) -> Iterator[Step]:
    """Two diagonal corners with extra digits; when a digit of the pair lies in the
    rectangle's two rows and two columns only at its corners, it cannot sit on the
    diagonal with the extras (the other diagonal would complete a deadly pattern).

    Evidence: ``cells`` the rectangle, ``digits=(removed, other)``, ``houses`` the two
    rows and two columns, ``Role.CORNER`` the two diagonal corners.
    """
    cands = grid.candidates
    for ur in _unique_rectangles(grid):
        rect, a, b, inside, outside = ur
        if len(inside) != 2 or _aligned(*outside):
            continue
        houses = (ROW_OF[rect[0]], ROW_OF[rect[3]], 9 + COL_OF[rect[0]], 9 + COL_OF[rect[3]])
        lines = 0
        for h in houses:
            lines |= HOUSE_BITS[h]
        lines &= ~_rect_bits(rect)
        for d, other in ((a, b), (b, a)):
            if any(cands[c] & BIT[d] for c in cells_of_bits(lines)):
                continue
            elims = [(c, d) for c in outside if cands[c] & BIT[d]]
            if elims:
                yield _ur_step("unique-rectangle-6", ur, elims, digits=(d, other), houses=houses)


def find_hidden_rectangle(grid: Grid) -> Iterator[Step]:
    """A corner holding only a and b; if in the row and column of the opposite corner
    digit x appears only inside the rectangle, that corner cannot be the other digit.

    Evidence: ``cells`` the rectangle, ``digits=(x, removed)``, ``houses`` the row and
    column of the opposite corner, ``Role.ANCHOR`` the corner, then ``Role.CORNER`` the
    opposite one.
    """
    cands = grid.candidates
    x_cells = digit_patterns(grid)
    for ur in _unique_rectangles(grid):
        rect, a, b, inside, _outside = ur
        if len(inside) == 2 and _aligned(*inside):
            continue
        if len(inside) not in (1, 2):
            continue
        rect_bits = _rect_bits(rect)
        for corner in inside:
            far = rect[_OPPOSITE[rect.index(corner)]]
            row, col = ROW_OF[far], 9 + COL_OF[far]
            lines = (HOUSE_BITS[row] | HOUSE_BITS[col]) & ~rect_bits
            for x, y in ((a, b), (b, a)):
                if not cands[far] & BIT[y]:
                    continue
                if lines & x_cells[x]:
                    continue  # x is also outside the rectangle in the far corner's lines
                yield _ur_step(
                    "hidden-rectangle",
                    ur,
                    [(far, y)],
                    digits=(x, y),
                    houses=(row, col),
                    marked=mark((Role.ANCHOR, (corner,)), (Role.CORNER, (far,))),
                )


def find_avoidable_rectangles(grid: Grid) -> Iterator[Step]:
    """Rectangles whose corners were solved (not given) on both diagonals: what remains
    must not complete the pattern (both types; see the two public finders)."""
    values, givens, cands = grid.values, grid.givens, grid.candidates
    # per cell: 0 empty, 1 solved, 5 given (a corner sum of 5 or more holds a given)
    status = [5 if givens[c] else 1 if values[c] else 0 for c in range(81)]
    if 1 not in status:
        return
    for rect in RECTANGLES:
        n_solved = status[rect[0]] + status[rect[1]] + status[rect[2]] + status[rect[3]]
        if n_solved < 2 or n_solved >= 4:
            continue  # fewer than two corners solved, all four, or a given
        # The deadly pattern puts one digit on each diagonal.
        diag = [0, 0]  # digit of diagonal tl/br (0) and tr/bl (1)
        ok = True
        for i, c in enumerate(rect):
            v = values[c]
            side = 0 if i in (0, 3) else 1
            if v:
                if diag[side] and diag[side] != v:
                    ok = False
                    break
                diag[side] = v
        if not ok or not diag[0] or not diag[1]:
            continue
        empty = [(c, diag[0 if i in (0, 3) else 1]) for i, c in enumerate(rect) if not values[c]]
        if len(empty) == 1:
            cell, d = empty[0]
            if cands[cell] & BIT[d]:
                yield Step(
                    "avoidable-rectangle-1",
                    eliminations=((cell, d),),
                    cells=rect,
                    digits=(diag[0], diag[1]),
                    marked=mark((Role.CORNER, (cell,))),
                )
            continue
        (c1, d1), (c2, d2) = empty
        m1, m2 = cands[c1], cands[c2]
        if POPCOUNT[m1] != 2 or POPCOUNT[m2] != 2 or not m1 & BIT[d1] or not m2 & BIT[d2]:
            continue
        zbit = m1 & ~BIT[d1]
        if m2 & ~BIT[d2] != zbit:
            continue
        z = SINGLE[zbit]
        targets = PEER_BITS[c1] & PEER_BITS[c2]
        elims = tuple((c, z) for c in cells_of_bits(targets) if cands[c] & zbit)
        if elims:
            yield Step(
                "avoidable-rectangle-2",
                eliminations=elims,
                cells=rect,
                digits=(diag[0], diag[1], z),
                marked=mark((Role.CORNER, (c1, c2))),
            )


def find_ar_type1(grid: Grid) -> Iterator[Step]:
    """Three corners solved (not given) as a/b/b around the rectangle: the fourth
    cannot take the digit that would complete the pattern.

    Evidence: ``cells`` the rectangle, ``digits`` (diagonal tl/br digit, tr/bl digit),
    ``Role.CORNER`` the empty corner.
    """
    return (s for s in find_avoidable_rectangles(grid) if s.technique == "avoidable-rectangle-1")


def find_ar_type2(grid: Grid) -> Iterator[Step]:
    """Two corners solved (not given), one per diagonal; the other two hold their
    pattern digit and one common extra z: one of them is z, so z leaves cells seeing both.

    Evidence: ``cells`` the rectangle, ``digits=(tl/br digit, tr/bl digit, z)``,
    ``Role.CORNER`` the two empty corners.
    """
    return (s for s in find_avoidable_rectangles(grid) if s.technique == "avoidable-rectangle-2")


def find_bug_plus_1(grid: Grid) -> Iterator[Step]:
    """Bivalue Universal Grave + 1: every empty cell but one holds two candidates and
    every digit appears twice per house (or not at all), except one digit three times in
    the houses of the cell with three: that digit must go there, for without it the grid
    would be a BUG, which has no or several solutions.

    Evidence: ``cells=(cell,)``, ``digits=(digit,)``, ``houses`` the cell's houses.
    """
    cands = grid.candidates
    triple = -1
    for c in range(81):
        n = POPCOUNT[cands[c]]
        if n > 3:
            return
        if n == 3:
            if triple >= 0:
                return
            triple = c
    if triple < 0:
        return
    digit = 0
    threes: list[int] = []
    for h, house in enumerate(HOUSES):
        for d in DIGITS_IN[ALL_DIGITS]:
            bit = BIT[d]
            n = 0
            for c in house:
                if cands[c] & bit:
                    n += 1
            if n == 1 or n > 3:
                return  # a single breaks the two-per-house pattern the argument needs
            if n == 3:
                if digit and digit != d:
                    return
                digit = d
                threes.append(h)
    if not digit or tuple(threes) != HOUSES_OF[triple] or not cands[triple] & BIT[digit]:
        return
    elims = tuple((triple, d) for d in DIGITS_IN[cands[triple] & ~BIT[digit]])
    yield Step(
        "bug-plus-1",
        eliminations=elims,
        cells=(triple,),
        digits=(digit,),
        houses=HOUSES_OF[triple],
    )


# -- describers -------------------------------------------------------------------------


def _rect_text(step: Step) -> str:
    a, b = sorted(step.digits[:2])
    return f"{a}/{b} in {cells_text(step.cells)}"


def _houses_text(houses: tuple[int, ...]) -> str:
    names = [house_name(h) for h in houses]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


_DEADLY = "a deadly pattern (two solutions)"


def describe_ur_type1(step: Step) -> str:
    a, b = step.digits[:2]
    (cell,) = step.marked_cells(Role.CORNER)
    return (
        f"Unique Rectangle Type 1: {_rect_text(step)}; three corners hold only {a} and "
        f"{b}, so {cell_name(cell)} taking either would make {_DEADLY}: "
        f"{eliminations_text(step.eliminations)}"
    )


def describe_ur_type2_5(step: Step) -> str:
    z = step.digits[2]
    kind = "2" if step.technique == "unique-rectangle-2" else "5"
    corners = cells_text(step.marked_cells(Role.CORNER))
    return (
        f"Unique Rectangle Type {kind}: {_rect_text(step)}; to avoid {_DEADLY} one of "
        f"{corners} must be {z}, so every cell seeing them all loses it: "
        f"{eliminations_text(step.eliminations)}"
    )


def describe_ur_type3(step: Step) -> str:
    a, b = step.digits[:2]
    subset = step.digits[2:]
    i1, i2 = step.marked_cells(Role.CORNER)
    others = step.marked_cells(Role.SUBSET)
    return (
        f"Unique Rectangle Type 3: {_rect_text(step)}; to avoid {_DEADLY} "
        f"{cell_name(i1)} or {cell_name(i2)} holds a digit other than {a} and {b}; with "
        f"{cells_text(others)} they form a naked subset on {digits_text(subset)} in "
        f"{_houses_text(step.houses)}: {eliminations_text(step.eliminations)}"
    )


def describe_ur_type4(step: Step) -> str:
    keep, drop = step.digits
    i1, i2 = step.marked_cells(Role.CORNER)
    return (
        f"Unique Rectangle Type 4: {_rect_text(step)}; {keep} can only go in "
        f"{cell_name(i1)} or {cell_name(i2)} within {_houses_text(step.houses)}, so one of "
        f"them is {keep} and neither may be {drop}, which would make {_DEADLY}: "
        f"{eliminations_text(step.eliminations)}"
    )


def describe_ur_type6(step: Step) -> str:
    d, other = step.digits
    i1, i2 = step.marked_cells(Role.CORNER)
    r1, r2, k1, k2 = step.houses
    return (
        f"Unique Rectangle Type 6: {_rect_text(step)}; {d} lies in rows {r1 + 1}, {r2 + 1} "
        f"and columns {k1 - 8}, {k2 - 8} only on the corners (an X-Wing), so if "
        f"{cell_name(i1)} and {cell_name(i2)} were {d} the other two corners would be "
        f"{other}, {_DEADLY}: {eliminations_text(step.eliminations)}"
    )


def describe_hidden_rectangle(step: Step) -> str:
    x, y = step.digits
    (corner,) = step.marked_cells(Role.ANCHOR)
    (far,) = step.marked_cells(Role.CORNER)
    return (
        f"Hidden Rectangle: {_rect_text(step)}; {cell_name(corner)} holds only these, and "
        f"{x} appears in {_houses_text(step.houses)} only inside the rectangle, so "
        f"{cell_name(far)}={y} would force {_DEADLY}: {eliminations_text(step.eliminations)}"
    )


def describe_avoidable_rectangle(step: Step) -> str:
    a, b = step.digits[:2]
    pattern = [a if i in (0, 3) else b for i in range(4)]  # the digit each corner avoids
    empty = step.marked_cells(Role.CORNER)
    solved = ", ".join(
        f"{cell_name(c)}={d}" for c, d in zip(step.cells, pattern, strict=True) if c not in empty
    )
    head = f"{solved} were solved, not given"
    if step.technique == "avoidable-rectangle-1":
        (cell,) = empty
        d = pattern[step.cells.index(cell)]
        return (
            f"Avoidable Rectangle Type 1: {head}; {cell_name(cell)}={d} would complete a "
            f"rectangle of {min(a, b)} and {max(a, b)} that could be swapped (two "
            f"solutions): {eliminations_text(step.eliminations)}"
        )
    z = step.digits[2]
    c1, c2 = empty
    d1, d2 = (pattern[step.cells.index(c)] for c in (c1, c2))
    return (
        f"Avoidable Rectangle Type 2: {head}; {cell_name(c1)} ({d1}/{z}) and "
        f"{cell_name(c2)} ({d2}/{z}) would complete a swappable rectangle of "
        f"{min(a, b)} and {max(a, b)} unless one is {z}, so cells seeing both lose {z}: "
        f"{eliminations_text(step.eliminations)}"
    )


def describe_bug_plus_1(step: Step) -> str:
    (cell,) = step.cells
    (digit,) = step.digits
    return (
        f"BUG+1: every other empty cell has two candidates and every digit fits twice per "
        f"house, except {digit}, three times in the houses of {cell_name(cell)}; without it "
        f"the grid would have no or two solutions, so {cell_name(cell)} must be {digit}: "
        f"{eliminations_text(step.eliminations)}"
    )
