"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle, Simple Colours.

All of them are built from strong links: a digit with exactly two places in a house
(one of the two must hold it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ...grid import (
    BIT,
    BOX_OF,
    BOXES,
    COL_OF,
    HOUSE_BITS,
    HOUSES,
    PEER_BITS,
    ROW_OF,
    SEES,
    Grid,
    cell_name,
    cells_of_bits,
    house_name,
)
from ...statecache import by_digit_pattern, digit_patterns
from ...steps import Role, Step, eliminations_text, mark

StrongLink = tuple[int, int, int]  # (cell_a, cell_b, house)


def strong_links(grid: Grid, digit: int) -> list[StrongLink]:
    """Conjugate pairs of ``digit``: houses where it has exactly two places."""
    bits = digit_patterns(grid)[digit]
    links = []
    for h in range(27):
        places = HOUSE_BITS[h] & bits
        low = places & -places
        high = places ^ low
        if high and not high & (high - 1):  # exactly two places
            links.append((low.bit_length() - 1, high.bit_length() - 1, h))
    return links


def _sees(a: int, b: int) -> bool:
    return bool(PEER_BITS[a] >> b & 1)


def _two_link_patterns(grid: Grid, kind: str) -> Iterator[Step]:
    """Two strong links joined by a weak link between one end of each.

    ``kind`` picks which pattern to report: ``skyscraper`` (two parallel lines whose
    bases share a line), ``kite`` (a row and a column joined in a box), ``turbot`` (any).
    """
    patterns = digit_patterns(grid)
    k = _KINDS.index(kind)
    tech = _KIND_IDS[k]
    for digit in range(1, 10):
        for targets, tip1, base1, base2, tip2, h1, h2 in _two_links_on_digit(
            grid, digit, patterns[digit]
        )[k]:
            yield Step(
                tech,
                eliminations=tuple((c, digit) for c in cells_of_bits(targets)),
                cells=(tip1, base1, base2, tip2),
                houses=(h1, h2),
                digits=(digit,),
            )


_KINDS: Final = ("skyscraper", "kite", "turbot")
_KIND_IDS: Final = ("skyscraper", "two-string-kite", "turbot-fish")
# One instance: eliminations (cell set), tip1, base1, base2, tip2, the two link houses.
_TwoLinks = tuple[int, int, int, int, int, int, int]


@by_digit_pattern
def _two_links_on_digit(grid: Grid, digit: int, digit_bits: int) -> list[list[_TwoLinks]]:
    """The three kinds' instances on one digit (see :data:`_KINDS`), from one pass over
    its pairs of strong links: the three finders run in a row on the same candidates.
    Steps are built only for the instances a finder yields."""
    found: list[list[_TwoLinks]] = [[], [], []]
    links = strong_links(grid, digit)
    # per kind, (the lower tip, eliminations) already found: one instance per result
    seen: list[set[tuple[int, int]]] = [set(), set(), set()]  # (targets, lower tip) done
    for i, (a1, b1, h1) in enumerate(links):
        for a2, b2, h2 in links[i + 1 :]:
            if h1 == h2:
                continue
            parallel = (h1 < 9 and h2 < 9) or (9 <= h1 < 18 and 9 <= h2 < 18)
            crossing = (h1 < 9 and 9 <= h2 < 18) or (9 <= h1 < 18 and h2 < 9)
            for base1, tip1 in ((a1, b1), (b1, a1)):
                for base2, tip2 in ((a2, b2), (b2, a2)):
                    if base1 in (base2, tip2) or tip1 in (base2, tip2):
                        continue  # the two links share a cell
                    if not SEES[base1 * 81 + base2]:
                        continue
                    targets = PEER_BITS[tip1] & PEER_BITS[tip2] & digit_bits
                    targets &= ~((1 << base1) | (1 << base2))
                    if not targets:
                        continue
                    # bases share a line crossing both parallel lines; tips don't
                    line = COL_OF if h1 < 9 else ROW_OF
                    sky = parallel and line[base1] == line[base2] and line[tip1] != line[tip2]
                    kite = (
                        crossing and BOX_OF[base1] == BOX_OF[base2] and BOX_OF[tip1] != BOX_OF[tip2]
                    )
                    key = (targets, min(tip1, tip2))
                    for k, accepted in enumerate((sky, kite, True)):
                        if not accepted or key in seen[k]:
                            continue
                        seen[k].add(key)
                        found[k].append((targets, tip1, base1, base2, tip2, h1, h2))
    return found


def find_skyscraper(grid: Grid) -> Iterator[Step]:
    """Two parallel strong links whose bases share a line. Evidence: ``cells=(tip1, base1,
    base2, tip2)``, ``houses`` the two strong-link lines."""
    return _two_link_patterns(grid, "skyscraper")


def find_two_string_kite(grid: Grid) -> Iterator[Step]:
    """A row and a column strong link whose bases share a box. Evidence as Skyscraper."""
    return _two_link_patterns(grid, "kite")


def find_turbot_fish(grid: Grid) -> Iterator[Step]:
    """Any two strong links joined by a weak link (the general form of both above)."""
    return _two_link_patterns(grid, "turbot")


def describe_two_links(step: Step) -> str:
    tip1, base1, base2, tip2 = step.cells
    d = step.digits[0]
    name = {"skyscraper": "Skyscraper", "two-string-kite": "2-String Kite"}.get(
        step.technique, "Turbot Fish"
    )
    h1, h2 = step.houses
    return (
        f"{name}: {d} is in {cell_name(tip1)} or {cell_name(base1)} ({house_name(h1)}) and in "
        f"{cell_name(base2)} or {cell_name(tip2)} ({house_name(h2)}); {cell_name(base1)} and "
        f"{cell_name(base2)} cannot both hold it, so {cell_name(tip1)} or {cell_name(tip2)} "
        f"is {d}: {eliminations_text(step.eliminations)}"
    )


def find_empty_rectangle(grid: Grid) -> Iterator[Step]:
    """A box whose ``d`` candidates lie on one row and one column (a cross), plus a strong
    link outside it: the cell where that link's far end meets the cross loses ``d``.

    Evidence: ``cells`` the box's candidates, ``houses=(box, link house)``,
    ``Role.END`` the link's near end then far end.
    """
    patterns = digit_patterns(grid)
    for digit in range(1, 10):
        yield from _empty_rectangle_on_digit(grid, digit, patterns[digit])


@by_digit_pattern
def _empty_rectangle_on_digit(grid: Grid, digit: int, bits: int) -> list[Step]:
    cands = grid.candidates
    found: list[Step] = []
    bit = BIT[digit]
    links = strong_links(grid, digit)
    for b in range(9):
        box_cells = [c for c in BOXES[b] if cands[c] & bit]
        if len(box_cells) < 2:
            continue
        rows = {ROW_OF[c] for c in box_cells}
        cols = {COL_OF[c] for c in box_cells}
        if len(rows) == 1 or len(cols) == 1:
            continue  # all on one line: locked candidates, not an empty rectangle
        box_rows = [ROW_OF[BOXES[b][0]] + i for i in range(3)]
        box_cols = [COL_OF[BOXES[b][0]] + i for i in range(3)]
        for r in box_rows:
            for c in box_cols:
                if not all(ROW_OF[x] == r or COL_OF[x] == c for x in box_cells):
                    continue
                for a, z, h in links:
                    if BOX_OF[a] == b or BOX_OF[z] == b or h >= 18:
                        continue
                    for near, far in ((a, z), (z, a)):
                        if 9 <= h < 18:  # column link: near end on the cross's row
                            if ROW_OF[near] != r or COL_OF[near] in box_cols:
                                continue
                            target = ROW_OF[far] * 9 + c
                        else:  # row link: near end on the cross's column
                            if COL_OF[near] != c or ROW_OF[near] in box_rows:
                                continue
                            target = r * 9 + COL_OF[far]
                        if BOX_OF[target] == b or not cands[target] & bit:
                            continue
                        found.append(
                            Step(
                                "empty-rectangle",
                                eliminations=((target, digit),),
                                cells=tuple(box_cells),
                                houses=(18 + b, h),
                                digits=(digit,),
                                marked=mark((Role.END, (near, far))),
                            )
                        )
    return found


def describe_empty_rectangle(step: Step) -> str:
    box, link = step.houses
    near, far = step.marked_cells(Role.END)
    d = step.digits[0]
    return (
        f"Empty rectangle: in {house_name(box)}, {d} lies on a cross of one row and one column; "
        f"with the strong link {cell_name(near)}-{cell_name(far)} in {house_name(link)}, "
        f"{eliminations_text(step.eliminations)}"
    )


def _clusters(grid: Grid, digit: int) -> list[tuple[int, int]]:
    """Colour the strong-link graph of ``digit``: per cluster the two colours' cell sets."""
    adjacency: dict[int, set[int]] = {}
    for a, b, _h in strong_links(grid, digit):
        adjacency.setdefault(a, set()).add(b)
        adjacency.setdefault(b, set()).add(a)
    colour: dict[int, int] = {}
    clusters = []
    for start in sorted(adjacency):
        if start in colour:
            continue
        colour[start] = 0
        sides = [0, 0]
        stack = [start]
        while stack:
            cell = stack.pop()
            sides[colour[cell]] |= 1 << cell
            for nxt in adjacency[cell]:
                if nxt not in colour:
                    colour[nxt] = 1 - colour[cell]
                    stack.append(nxt)
        clusters.append((sides[0], sides[1]))
    return clusters


@by_digit_pattern
def _clusters_on_digit(grid: Grid, digit: int, digit_bits: int) -> list[tuple[int, int]]:
    """:func:`_clusters`, once per candidate set of the digit (simple and multi colours)."""
    return _clusters(grid, digit)


def _seen_by_any(bits: int) -> int:
    seen = 0
    for c in cells_of_bits(bits):
        seen |= PEER_BITS[c]
    return seen


def _colour_wrap(side: int) -> bool:
    cells = cells_of_bits(side)
    return any(_sees(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :])


def find_simple_colours_trap(grid: Grid) -> Iterator[Step]:
    """Simple colours, trap: a cell seeing both colours loses the digit."""
    return (s for s in _simple_colours(grid) if s.technique == "simple-colours-trap")


def find_simple_colours_wrap(grid: Grid) -> Iterator[Step]:
    """Simple colours, wrap: a colour that sees itself is false everywhere."""
    return (s for s in _simple_colours(grid) if s.technique == "simple-colours-wrap")


def _simple_colours(grid: Grid) -> Iterator[Step]:
    """Two-colour a digit's chain of strong links. Trap: a cell seeing both colours loses
    the digit. Wrap: a colour that sees itself is false everywhere.

    Evidence: ``cells`` the colour-0 cells, ``Role.OTHER_COLOUR`` the colour-1 cells.
    """
    patterns = digit_patterns(grid)
    for digit in range(1, 10):
        yield from _simple_colours_on_digit(grid, digit, patterns[digit])


@by_digit_pattern
def _simple_colours_on_digit(grid: Grid, digit: int, digit_bits: int) -> list[Step]:
    found: list[Step] = []
    for side0, side1 in _clusters_on_digit(grid, digit, digit_bits):
        if side0.bit_count() + side1.bit_count() < 4:
            continue
        for false_side in (side0, side1):
            if _colour_wrap(false_side):
                found.append(
                    Step(
                        "simple-colours-wrap",
                        eliminations=tuple((c, digit) for c in cells_of_bits(false_side)),
                        cells=tuple(cells_of_bits(side0)),
                        digits=(digit,),
                        marked=mark((Role.OTHER_COLOUR, cells_of_bits(side1))),
                    )
                )
        trap = _seen_by_any(side0) & _seen_by_any(side1) & digit_bits & ~(side0 | side1)
        if trap:
            found.append(
                Step(
                    "simple-colours-trap",
                    eliminations=tuple((c, digit) for c in cells_of_bits(trap)),
                    cells=tuple(cells_of_bits(side0)),
                    digits=(digit,),
                    marked=mark((Role.OTHER_COLOUR, cells_of_bits(side1))),
                )
            )
    return found


def describe_simple_colours(step: Step) -> str:
    d = step.digits[0]
    a = ", ".join(cell_name(c) for c in step.cells)
    b = ", ".join(cell_name(c) for c in step.marked_cells(Role.OTHER_COLOUR))
    if step.technique == "simple-colours-wrap":
        return (
            f"Simple colours (wrap): colouring the strong links of {d} as {{{a}}} / {{{b}}}, "
            f"one colour sees itself and is false, so {eliminations_text(step.eliminations)}"
        )
    return (
        f"Simple colours (trap): colouring the strong links of {d} as {{{a}}} / {{{b}}}, "
        f"one colour holds {d}; cells seeing both lose it: {eliminations_text(step.eliminations)}"
    )


# --- Duals: two kites or two empty rectangles on the same box cells -----------------------


def _box_pairing(r0: int, r1: int, c0: int, c1: int) -> tuple[int, int, int, int] | None:
    """HoDoKu's choice of ends: the first of the four pairings putting one end of the row
    link and one of the column link in one box, as ``(row box end, row tip, column box end,
    column tip)``."""
    for a, x, b, y in ((r0, r1, c0, c1), (r0, r1, c1, c0), (r1, r0, c0, c1), (r1, r0, c1, c0)):
        if BOX_OF[a] == BOX_OF[b]:
            return a, x, b, y
    return None


Kite = tuple[int, int, int, int, int, int, int, int]


@by_digit_pattern
def _kites(grid: Grid, digit: int, bits: int) -> list[Kite]:
    """HoDoKu's 2-String Kites of ``digit``: ``(box_row_end, box_col_end, row_tip, col_tip,
    target, row_house, col_house, digit)``; the target is where the tips' lines cross."""
    bit = BIT[digit]
    cands = grid.candidates
    rows: list[tuple[int, int, int]] = []
    cols: list[tuple[int, int, int]] = []
    for a, b, h in strong_links(grid, digit):
        if h < 9:
            rows.append((a, b, h))
        elif h < 18:
            cols.append((a, b, h))
    kites = []
    for r0, r1, rh in rows:
        for c0, c1, ch in cols:
            ends = _box_pairing(r0, r1, c0, c1)
            if ends is None:
                continue
            a, x, b, y = ends
            if len({a, x, b, y}) < 4:
                continue
            target = ROW_OF[y] * 9 + COL_OF[x]
            if cands[target] & bit:
                kites.append((a, b, x, y, target, rh, ch, digit))
    return kites


def find_dual_two_string_kite(grid: Grid) -> Iterator[Step]:
    """Two 2-String Kites through the same two box cells with different eliminations: one
    step. Like HoDoKu, the two kites may be on different digits.

    Evidence: ``cells=(row_tip1, col_tip1, row_tip2, col_tip2)``, ``Role.END`` the two
    box cells (the links' ends in the box), ``houses`` the four strong-link lines,
    ``digits`` the two kites' digits.
    """
    patterns = digit_patterns(grid)
    kites = [k for digit in range(1, 10) for k in _kites(grid, digit, patterns[digit])]
    for i, k1 in enumerate(kites):
        for k2 in kites[i + 1 :]:
            if {k1[0], k1[1]} != {k2[0], k2[1]} or (k1[4], k1[7]) == (k2[4], k2[7]):
                continue
            yield Step(
                "dual-two-string-kite",
                eliminations=tuple(sorted({(k1[4], k1[7]), (k2[4], k2[7])})),
                cells=(k1[2], k1[3], k2[2], k2[3]),
                houses=(k1[5], k1[6], k2[5], k2[6]),
                digits=(k1[7], k2[7]),
                marked=mark((Role.END, (k1[0], k1[1]))),
            )


def describe_dual_two_string_kite(step: Step) -> str:
    x1, y1, x2, y2 = step.cells
    a, b = step.marked_cells(Role.END)
    d1, d2 = step.digits
    box = house_name(18 + BOX_OF[a])
    both = f"{d1}" if d1 == d2 else f"{d1} and {d2}"
    return (
        f"Dual 2-String Kite on {both}: two kites meet in {cell_name(a)} and {cell_name(b)} "
        f"({box}); {cell_name(x1)} or {cell_name(y1)} is {d1}, and {cell_name(x2)} or "
        f"{cell_name(y2)} is {d2}, so {eliminations_text(step.eliminations)}"
    )


@by_digit_pattern
def _empty_rectangles(grid: Grid, digit: int, bits: int) -> list[tuple[int, int, int, int, int]]:
    """HoDoKu's Empty Rectangles of ``digit`` (two-candidate boxes allowed): ``(box, near,
    far, link house, target)`` for each conjugate pair whose far end's line crosses the
    ER's other line at a candidate outside the box."""
    bit = BIT[digit]
    cands = grid.candidates
    found = []
    for b in range(9):
        box_cells = [c for c in BOXES[b] if cands[c] & bit]
        if not 2 <= len(box_cells) <= 5:
            continue
        top, left = ROW_OF[BOXES[b][0]], COL_OF[BOXES[b][0]]
        for r in range(top, top + 3):
            for c in range(left, left + 3):
                # every candidate on the cross, and each arm holds one off the crossing
                if not all(ROW_OF[x] == r or COL_OF[x] == c for x in box_cells):
                    continue
                if not any(ROW_OF[x] == r and COL_OF[x] != c for x in box_cells):
                    continue
                if not any(COL_OF[x] == c and ROW_OF[x] != r for x in box_cells):
                    continue
                # row arm: a conjugate pair in a column starting on row r outside the box
                for near in HOUSES[r]:
                    if BOX_OF[near] == b or not cands[near] & bit:
                        continue
                    col_cells = [x for x in HOUSES[9 + COL_OF[near]] if cands[x] & bit]
                    if len(col_cells) != 2:
                        continue
                    far = col_cells[0] if col_cells[1] == near else col_cells[1]
                    target = ROW_OF[far] * 9 + c
                    if BOX_OF[target] != b and cands[target] & bit:
                        found.append((b, near, far, 9 + COL_OF[near], target))
                # column arm: a conjugate pair in a row starting on column c outside the box
                for near in HOUSES[9 + c]:
                    if BOX_OF[near] == b or not cands[near] & bit:
                        continue
                    row_cells = [x for x in HOUSES[ROW_OF[near]] if cands[x] & bit]
                    if len(row_cells) != 2:
                        continue
                    far = row_cells[0] if row_cells[1] == near else row_cells[1]
                    target = r * 9 + COL_OF[far]
                    if BOX_OF[target] != b and cands[target] & bit:
                        found.append((b, near, far, ROW_OF[near], target))
    return found


def find_dual_empty_rectangle(grid: Grid) -> Iterator[Step]:
    """Two Empty Rectangles in the same box with different targets: one step.

    Evidence: ``cells`` the box's candidates, ``houses=(box, link1, link2)``,
    ``Role.END`` the links' ends ``(near1, far1, near2, far2)``.
    """
    bit_cells = grid.candidates
    patterns = digit_patterns(grid)
    for digit in range(1, 10):
        ers = _empty_rectangles(grid, digit, patterns[digit])
        for i, e1 in enumerate(ers):
            for e2 in ers[i + 1 :]:
                if e1[0] != e2[0] or e1[4] == e2[4]:
                    continue
                box = e1[0]
                yield Step(
                    "dual-empty-rectangle",
                    eliminations=tuple(sorted({(e1[4], digit), (e2[4], digit)})),
                    cells=tuple(c for c in BOXES[box] if bit_cells[c] & BIT[digit]),
                    houses=(18 + box, e1[3], e2[3]),
                    digits=(digit,),
                    marked=mark((Role.END, (e1[1], e1[2], e2[1], e2[2]))),
                )


def describe_dual_empty_rectangle(step: Step) -> str:
    box, h1, h2 = step.houses
    n1, f1, n2, f2 = step.marked_cells(Role.END)
    d = step.digits[0]
    return (
        f"Dual empty rectangle: in {house_name(box)}, {d} lies on a cross of one row and one "
        f"column; with the strong links {cell_name(n1)}-{cell_name(f1)} ({house_name(h1)}) "
        f"and {cell_name(n2)}-{cell_name(f2)} ({house_name(h2)}), "
        f"{eliminations_text(step.eliminations)}"
    )


# --- Multi-Colours: two clusters of colours that interact --------------------------------


def _multi_colours(grid: Grid) -> Iterator[Step]:
    """HoDoKu's Multi-Colours for every ordered pair of clusters of one digit.

    Type 1: a colour of one cluster sees a colour of the other, so one of the two opposite
    colours is true: cells seeing both opposite colours lose the digit. Type 2: a colour
    sees both colours of the other cluster, so it is false everywhere.
    Evidence: ``cells`` the first cluster's cells, ``Role.OTHER_CLUSTER`` the second's,
    ``chain`` the four colours as nodes ``(cells, digit, on)``: A (on), B (off), C (on), D (off).
    """
    patterns = digit_patterns(grid)
    for digit in range(1, 10):
        yield from _multi_colours_on_digit(grid, digit, patterns[digit])


@by_digit_pattern
def _multi_colours_on_digit(grid: Grid, digit: int, digit_bits: int) -> list[Step]:
    found: list[Step] = []
    clusters = _clusters_on_digit(grid, digit, digit_bits)
    # per cluster, the cells seeing each colour (read for every pair of clusters)
    seen = [(_seen_by_any(c1), _seen_by_any(c2)) for c1, c2 in clusters]
    for i, (a1, a2) in enumerate(clusters):
        sa1, sa2 = seen[i]
        for j, (b1, b2) in enumerate(clusters):
            if i == j:
                continue
            sb1, sb2 = seen[j]
            false_cells = 0
            for own, s_own in ((a1, sa1), (a2, sa2)):
                if s_own & b1 and s_own & b2:
                    false_cells |= own
            trap = 0
            for s_own, s_opp in ((sa1, sa2), (sa2, sa1)):
                for other, s_other_opp in ((b1, sb2), (b2, sb1)):
                    if s_own & other:
                        trap |= s_opp & s_other_opp & digit_bits
            for tech, bits in (("multi-colours-2", false_cells), ("multi-colours-1", trap)):
                if bits:
                    found.append(
                        Step(
                            tech,
                            eliminations=tuple((c, digit) for c in cells_of_bits(bits)),
                            cells=tuple(sorted(cells_of_bits(a1 | a2))),
                            digits=(digit,),
                            marked=mark((Role.OTHER_CLUSTER, sorted(cells_of_bits(b1 | b2)))),
                            chain=tuple(
                                (tuple(cells_of_bits(bits_)), digit, on)
                                for bits_, on in (
                                    (a1, True),
                                    (a2, False),
                                    (b1, True),
                                    (b2, False),
                                )
                            ),
                        )
                    )
    return found


def find_multi_colours_1(grid: Grid) -> Iterator[Step]:
    """Multi-Colours 1 (HoDoKu 0502): two colours of different clusters see each other."""
    return (s for s in _multi_colours(grid) if s.technique == "multi-colours-1")


def find_multi_colours_2(grid: Grid) -> Iterator[Step]:
    """Multi-Colours 2 (HoDoKu 0503): a colour sees both colours of another cluster."""
    return (s for s in _multi_colours(grid) if s.technique == "multi-colours-2")


def describe_multi_colours(step: Step) -> str:
    d = step.digits[0]
    a, b, c, e = ("{" + ", ".join(cell_name(x) for x in node[0]) + "}" for node in step.chain)
    head = f"colouring two chains of strong links of {d} as {a} / {b} and {c} / {e}"
    elims = eliminations_text(step.eliminations)
    if step.technique == "multi-colours-2":
        return (
            f"Multi-Colours 2: {head}, one colour sees both colours of the other chain, "
            f"one of which holds {d}, so it is false: {elims}"
        )
    return (
        f"Multi-Colours 1: {head}, a colour of one chain sees a colour of the other, so one "
        f"of their two opposite colours holds {d}; cells seeing both lose it: {elims}"
    )
