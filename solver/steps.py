"""A step is data: technique, placements, eliminations and evidence; its text derives from it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .grid import cell_name, house_name
from .registry import technique

if TYPE_CHECKING:
    from .grid import Grid

Candidate = tuple[int, int]  # (cell, digit)
# One node of an implication chain: (cells, digit, on). ``cells`` is one cell, or several
# for a grouped node (the digit is in one of them); ``on`` says the node is true there.
ChainNode = tuple[tuple[int, ...], int, bool]


def placement_string(cell: int, digit: int) -> str:
    """``r2c9=8``."""
    return f"{cell_name(cell)}={digit}"


def elimination_string(cell: int, digit: int) -> str:
    """``r3c6<>4``."""
    return f"{cell_name(cell)}<>{digit}"


@dataclass(frozen=True, slots=True)
class Step:
    """One logical deduction.

    ``cells``, ``houses`` and ``digits`` are the evidence; their roles depend on the
    technique (documented on each technique's finder). ``extra`` holds secondary cells
    (fins, pincers, the cells a digit is locked into).
    """

    technique: str
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    cells: tuple[int, ...] = ()
    houses: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    chain: tuple[ChainNode, ...] = ()  # chain techniques: the nodes in order of inference

    @property
    def text(self) -> str:
        """One line of plain English explaining the step."""
        return technique(self.technique).describe(self)

    def apply(self, grid: Grid) -> None:
        for cell, digit in self.placements:
            grid.place(cell, digit)
        for cell, digit in self.eliminations:
            grid.eliminate(cell, digit)

    def placement_strings(self) -> list[str]:
        return [placement_string(c, d) for c, d in self.placements]

    def elimination_strings(self) -> list[str]:
        return [elimination_string(c, d) for c, d in self.eliminations]

    def to_dict(self) -> dict[str, object]:
        from .techniques import TECHNIQUES

        tech = TECHNIQUES[self.technique]
        # The evidence too, by name, so any front end can draw the step.
        return {
            "technique": tech.id,
            "name": tech.name,
            "code": tech.code,
            "placements": self.placement_strings(),
            "eliminations": self.elimination_strings(),
            "text": self.text,
            "cells": [cell_name(c) for c in self.cells],
            "houses": [house_name(h) for h in self.houses],
            "digits": list(self.digits),
            "extra": [cell_name(c) for c in self.extra],
            "chain": [
                {"cells": [cell_name(c) for c in cells], "digit": digit, "on": on}
                for cells, digit, on in self.chain
            ],
        }


def cells_text(cells: Iterable[int]) -> str:
    return ", ".join(cell_name(c) for c in cells)


def digits_text(digits: Iterable[int]) -> str:
    ds = [str(d) for d in digits]
    if len(ds) <= 1:
        return "".join(ds)
    return ", ".join(ds[:-1]) + " and " + ds[-1]


def houses_text(houses: Iterable[int]) -> str:
    return ", ".join(house_name(h) for h in houses)


def eliminations_text(eliminations: Iterable[Candidate]) -> str:
    """``r4c1, r4c2 <> 7; r5c1 <> 3, 8``: cells grouped by the digits they lose."""
    by_cell: dict[int, list[int]] = {}
    for cell, digit in eliminations:
        by_cell.setdefault(cell, []).append(digit)
    by_digits: dict[tuple[int, ...], list[int]] = {}
    for cell in sorted(by_cell):
        by_digits.setdefault(tuple(sorted(by_cell[cell])), []).append(cell)
    parts = [
        f"{cells_text(cells)} <> {', '.join(map(str, digits))}"
        for digits, cells in sorted(by_digits.items(), key=lambda kv: kv[1][0])
    ]
    return "; ".join(parts)
