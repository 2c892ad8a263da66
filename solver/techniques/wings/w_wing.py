"""W-Wing: two equal bivalue cells whose one digit is tied together by a strong link."""

from __future__ import annotations

from collections.abc import Iterator

from ...grid import BIT, DIGITS_IN, PEER_BITS, POPCOUNT, SEES, Grid, cell_name, cells_of_bits
from ...statecache import digit_patterns
from ...steps import Step, eliminations_text
from ..single_digit.links import strong_links


def find_w_wing(grid: Grid) -> Iterator[Step]:
    """Two equal bivalue cells {x,y} joined by a strong link on x: y leaves cells seeing both.

    Evidence: ``cells=(p, a, b, q)`` (wing, link end, link end, wing), ``digits=(x, y)``.
    """
    cands = grid.candidates
    digit_bits = digit_patterns(grid)
    bivalue = [c for c in range(81) if POPCOUNT[cands[c]] == 2]
    links_by_digit: dict[int, list[tuple[int, int, int]]] = {}  # filled when first needed
    for i, p in enumerate(bivalue):
        for q in bivalue[i + 1 :]:
            if cands[p] != cands[q] or SEES[p * 81 + q]:
                continue
            both = PEER_BITS[p] & PEER_BITS[q]  # the cells seeing both wings
            for x in DIGITS_IN[cands[p]]:
                y = DIGITS_IN[cands[p] & ~BIT[x]][0]
                targets = both & digit_bits[y]
                if not targets:
                    continue
                elims = tuple((c, y) for c in cells_of_bits(targets))
                links = links_by_digit.get(x)
                if links is None:
                    links = links_by_digit[x] = strong_links(grid, x)
                for a, b, _h in links:
                    for near, far in ((a, b), (b, a)):
                        if near in (p, q) or far in (p, q):
                            continue
                        if SEES[p * 81 + near] and SEES[q * 81 + far]:
                            yield Step(
                                "w-wing",
                                eliminations=elims,
                                cells=(p, near, far, q),
                                digits=(x, y),
                            )
                            break
                    else:
                        continue
                    break


def describe_w_wing(step: Step) -> str:
    p, a, b, q = step.cells
    x, y = step.digits
    return (
        f"W-Wing: {cell_name(p)} and {cell_name(q)} both hold {x}/{y}, and {x} must be in "
        f"{cell_name(a)} or {cell_name(b)}, so one of them is {y}: "
        f"{eliminations_text(step.eliminations)}"
    )
