"""A step is data: technique, placements, eliminations and evidence; its text derives from it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from .grid import cell_name, house_name
from .registry import technique

if TYPE_CHECKING:
    from .grid import Grid

Candidate = tuple[int, int]  # (cell, digit)
# One node of an implication chain: (cells, digit, on). ``cells`` is one cell, or several
# for a grouped node (the digit is in one of them); ``on`` says the node is true there.
ChainNode = tuple[tuple[int, ...], int, bool]


class Role(StrEnum):
    """What a group of secondary cells of a step (``Step.marked``) is; the value is the
    JSON key (``"marked": {"fins": ["r1c2"]}``). One meaning per role, shared by the
    techniques whose evidence has it."""

    # fish (basic finned/sashimi, Franken, Mutant): the fins, endo fins included
    FIN = "fins"
    # naked single: for each other digit, a cell of the cell's row, column or box holding it
    WITNESS = "witnesses"
    # empty rectangle, dual empty rectangle, dual 2-String Kite: ends of the strong links
    # the step turns on (near then far end; the kites' two ends in their box)
    END = "ends"
    # simple colours: the cells of the second colour (``cells`` holds the first)
    OTHER_COLOUR = "other_colour"
    # multi-colours: the cells of the second cluster (``cells`` holds the first)
    OTHER_CLUSTER = "other_cluster"
    # unique, avoidable and hidden rectangles: the corners through which the deadly
    # pattern could be completed: those holding digits besides the pair (unique rectangle
    # types 1-6), the unsolved ones (avoidable rectangles), the far corner (hidden rectangle)
    CORNER = "corners"
    # hidden rectangle: the corner holding only the pair, opposite the far corner
    ANCHOR = "anchor"
    # unique rectangle type 3: the cells outside the rectangle that form the naked subset
    SUBSET = "subset"
    # death blossom: the stem cell
    STEM = "stem"
    # nice loops and AICs with ALS nodes: the almost locked sets' cells, set after set
    # (``houses`` holds each set's house)
    ALS = "als_cells"
    # Sue de Coq: the line set (in the line of ``houses``)
    LINE_SET = "line_set"
    # Sue de Coq: the box set (in the box of ``houses``)
    BOX_SET = "box_set"


Marked = tuple[tuple[Role, tuple[int, ...]], ...]


def mark(*groups: tuple[Role, Iterable[int]]) -> Marked:
    """``Step.marked`` from ``(role, cells)`` groups, in order; empty groups are left out."""
    out: list[tuple[Role, tuple[int, ...]]] = []
    for role, cells in groups:
        group = tuple(cells)
        if group:
            out.append((role, group))
    return tuple(out)


def placement_string(cell: int, digit: int) -> str:
    """``r2c9=8``."""
    return f"{cell_name(cell)}={digit}"


def elimination_string(cell: int, digit: int) -> str:
    """``r3c6<>4``."""
    return f"{cell_name(cell)}<>{digit}"


@dataclass(frozen=True, slots=True)
class NetEvidence:
    """The non-cell evidence of forcing chains, nets and trial (``Step.net``)."""

    # forcing chains and nets: the number of facts of each branch of ``chain``, in order
    branch_lengths: tuple[int, ...] = ()
    # nested forcing net: the candidates inner nets refuted, in order of inference
    refuted: tuple[Candidate, ...] = ()
    # nested forcing net: the number of facts of the inner net that refuted each of
    # ``refuted`` (SE counts nested chains in a chain's size)
    inner_sizes: tuple[int, ...] = ()
    # trial: the guesses the search from the assumed candidate made (0: singles sufficed)
    guesses: int = 0


NO_NET: Final = NetEvidence()


@dataclass(frozen=True, slots=True)
class Step:
    """One logical deduction.

    ``cells``, ``houses`` and ``digits`` are the primary evidence; their roles depend on
    the technique (documented on each technique's finder). ``marked`` holds secondary
    cells by role (:class:`Role`: fins, strong-link ends, the stem...); the non-cell
    evidence of forcing chains, nets and trial is in ``net`` (read through the properties
    ``branch_lengths``, ``refuted``, ``inner_sizes`` and ``guesses``). The rare fields sit
    in one object because each field of a frozen dataclass costs every step's
    construction a call, singles included.
    """

    technique: str
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    cells: tuple[int, ...] = ()
    houses: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    # secondary cells, role-tagged groups in the order the finder adds them (see ``mark``)
    marked: Marked = ()
    chain: tuple[ChainNode, ...] = ()  # chain techniques: the nodes in order of inference
    net: NetEvidence = NO_NET

    @property
    def branch_lengths(self) -> tuple[int, ...]:
        return self.net.branch_lengths

    @property
    def refuted(self) -> tuple[Candidate, ...]:
        return self.net.refuted

    @property
    def inner_sizes(self) -> tuple[int, ...]:
        return self.net.inner_sizes

    @property
    def guesses(self) -> int:
        return self.net.guesses

    @property
    def text(self) -> str:
        """One line of plain English explaining the step."""
        return technique(self.technique).describe(self)

    @property
    def words(self) -> str | None:
        """A chain's walk in plain words for a casual player (:mod:`solver.words`); None
        for the other techniques, whose text is already plain."""
        walk = technique(self.technique).words
        return walk(self) if walk is not None else None

    def marked_cells(self, role: Role) -> tuple[int, ...]:
        """The cells marked ``role``, in order (every group of that role)."""
        return tuple(c for r, cells in self.marked if r == role for c in cells)

    def all_marked(self) -> tuple[int, ...]:
        """Every marked cell, in order, each once."""
        return tuple(dict.fromkeys(c for _r, cells in self.marked for c in cells))

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
        marked: dict[str, list[str]] = {}
        for role, cells in self.marked:
            if cells:
                marked.setdefault(role.value, []).extend(cell_name(c) for c in cells)
        # The evidence too, by name, so any front end can draw the step.
        out: dict[str, object] = {
            "technique": tech.id,
            "name": tech.name,
            "code": tech.code,
            "placements": self.placement_strings(),
            "eliminations": self.elimination_strings(),
            "text": self.text,
            **({"words": words} if (words := self.words) is not None else {}),
            "cells": [cell_name(c) for c in self.cells],
            "houses": [house_name(h) for h in self.houses],
            "digits": list(self.digits),
            "marked": marked,
            "chain": [
                {"cells": [cell_name(c) for c in cells], "digit": digit, "on": on}
                for cells, digit, on in self.chain
            ],
        }
        # the non-cell evidence, only where the technique has it
        if self.branch_lengths:
            out["branch_lengths"] = list(self.branch_lengths)
        if self.refuted:
            out["refuted"] = [elimination_string(c, d) for c, d in self.refuted]
        if self.inner_sizes:
            out["inner_sizes"] = list(self.inner_sizes)
        if self.guesses:
            out["guesses"] = self.guesses
        return out


def cells_text(cells: Iterable[int]) -> str:
    return ", ".join(cell_name(c) for c in cells)


def and_text(parts: Iterable[str]) -> str:
    """``row 4, column 2 and box 4`` ("" for none)."""
    items = list(parts)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def digits_text(digits: Iterable[int]) -> str:
    return and_text(str(d) for d in digits)


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
