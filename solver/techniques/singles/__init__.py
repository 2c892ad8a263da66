"""Singles: the last empty cell of a house, a digit with one place in a house, a cell
with one candidate.

The family's rows: finder, text, rating and codes together (see solver.registry).
"""

from __future__ import annotations

from ...registry import SE, SK, Family, Level, SerEntry, Technique
from .finders import (
    describe_full_house,
    describe_hidden_single,
    describe_naked_single,
    find_full_house,
    find_hidden_single,
    find_naked_single,
)

ROWS: tuple[Technique, ...] = (
    Technique(
        id="full-house",
        name="Full House",
        code="FH",
        family=Family.SINGLES,
        level=Level.EASY,
        weight=4,
        ser=SerEntry(1.0, False, SK),
        hodoku=("0000",),
        find=find_full_house,
        describe=describe_full_house,
    ),
    Technique(
        id="hidden-single",
        name="Hidden Single",
        code="HS",
        family=Family.SINGLES,
        level=Level.EASY,
        weight=14,
        ser=SerEntry(1.2, False, SE + " (1.5 outside a box)"),
        hodoku=("0002",),
        find=find_hidden_single,
        describe=describe_hidden_single,
    ),
    Technique(
        id="naked-single",
        name="Naked Single",
        code="NS",
        family=Family.SINGLES,
        level=Level.EASY,
        weight=4,
        ser=SerEntry(2.3, False, SE),
        hodoku=("0003",),
        find=find_naked_single,
        describe=describe_naked_single,
    ),
)
