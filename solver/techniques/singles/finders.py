"""Full house, naked single, hidden single."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ...grid import (
    ALL_DIGITS,
    BIT,
    DIGITS_IN,
    HOUSES,
    HOUSES_OF,
    SINGLE,
    Grid,
    cell_name,
    house_name,
)
from ...steps import Role, Step, and_text, mark

# People scan boxes first for hidden singles, then rows, then columns.
_HIDDEN_ORDER: Final = tuple(range(18, 27)) + tuple(range(18))


def find_full_house(grid: Grid) -> Iterator[Step]:
    """The last empty cell of a house. Evidence: ``cells=(cell,)``, ``houses=(house,)``."""
    values, cands = grid.values, grid.candidates
    for h, house in enumerate(HOUSES):
        empty = -1
        for c in house:
            if not values[c]:
                if empty >= 0:
                    break
                empty = c
        else:
            if empty >= 0:
                placed = 0
                for c in house:
                    placed |= BIT[values[c]]
                digit = SINGLE[ALL_DIGITS & ~placed]
                if digit and cands[empty] & BIT[digit]:
                    yield Step(
                        "full-house",
                        placements=((empty, digit),),
                        cells=(empty,),
                        houses=(h,),
                        digits=(digit,),
                    )


def describe_full_house(step: Step) -> str:
    (cell, digit), house = step.placements[0], step.houses[0]
    return (
        f"Full house: {cell_name(cell)} is the last empty cell in {house_name(house)}, "
        f"so {cell_name(cell)} = {digit}"
    )


def find_naked_single(grid: Grid) -> Iterator[Step]:
    """A cell with one candidate left. Evidence: ``cells=(cell,)``; ``Role.WITNESS``: for
    each other digit a cell of the cell's row, column or box holding it (row first), and
    ``houses``: those cells' houses among the three; fewer than eight witnesses when steps
    before ruled some digits out."""
    values, cands = grid.values, grid.candidates
    for c in range(81):
        if not values[c]:
            d = SINGLE[cands[c]]
            if d:
                seen: dict[int, int] = {}  # digit -> the first cell showing it
                houses: list[int] = []
                for h in HOUSES_OF[c]:
                    for p in HOUSES[h]:
                        v = values[p]
                        if v and v != d and v not in seen:
                            seen[v] = p
                            if h not in houses:
                                houses.append(h)
                yield Step(
                    "naked-single",
                    placements=((c, d),),
                    cells=(c,),
                    digits=(d,),
                    houses=tuple(houses),
                    marked=mark((Role.WITNESS, [seen[v] for v in sorted(seen)])),
                )


def describe_naked_single(step: Step) -> str:
    cell, digit = step.placements[0]
    where = and_text(house_name(h) for h in step.houses)
    witnesses = step.marked_cells(Role.WITNESS)
    if len(witnesses) == 8:
        return (
            f"Naked single: {where} already hold every digit but {digit}, "
            f"so {cell_name(cell)} = {digit}"
        )
    if not witnesses:
        return f"Naked single: {digit} is the only candidate left in {cell_name(cell)}"
    return (
        f"Naked single: {digit} is the only candidate left in {cell_name(cell)} "
        f"({where} hold {len(witnesses)} of the other digits; the steps before ruled "
        "out the rest)"
    )


def find_hidden_single(grid: Grid) -> Iterator[Step]:
    """A digit with one place left in a house. Evidence: ``houses=(house,)``."""
    cands = grid.candidates
    seen: set[tuple[int, int]] = set()
    for h in _HIDDEN_ORDER:
        house = HOUSES[h]
        once = twice = 0
        for c in house:
            m = cands[c]
            twice |= once & m
            once |= m
        hidden = once & ~twice
        if not hidden:
            continue
        for d in DIGITS_IN[hidden]:
            bit = BIT[d]
            for c in house:
                if cands[c] & bit:
                    if (c, d) not in seen:
                        seen.add((c, d))
                        yield Step(
                            "hidden-single",
                            placements=((c, d),),
                            cells=(c,),
                            houses=(h,),
                            digits=(d,),
                        )
                    break


def describe_hidden_single(step: Step) -> str:
    (cell, digit), house = step.placements[0], step.houses[0]
    return (
        f"Hidden single: in {house_name(house)}, {digit} fits only in {cell_name(cell)}, "
        f"so {cell_name(cell)} = {digit}"
    )
