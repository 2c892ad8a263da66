"""Colouring: the two colours of a digit's chains of strong links (simple and multi-colours).

The family's rows: finder, text, rating and codes together (see solver.registry).
"""

from __future__ import annotations

from ...registry import EST, Family, Level, SerEntry, Technique
from ..single_digit.links import (
    describe_multi_colours,
    describe_simple_colours,
    find_multi_colours_1,
    find_multi_colours_2,
    find_simple_colours_trap,
    find_simple_colours_wrap,
)

ROWS: tuple[Technique, ...] = (
    Technique(
        id="simple-colours-trap",
        name="Simple Colours (Trap)",
        code="SCt",
        family=Family.COLOURING,
        level=Level.HARD,
        weight=150,
        ser=SerEntry(6.6, False, EST + ": Forcing X-Chain"),
        hodoku=("0500",),
        find=find_simple_colours_trap,
        describe=describe_simple_colours,
    ),
    Technique(
        id="simple-colours-wrap",
        name="Simple Colours (Wrap)",
        code="SCw",
        family=Family.COLOURING,
        level=Level.HARD,
        weight=150,
        ser=SerEntry(6.6, False, EST + ": Forcing X-Chain"),
        hodoku=("0501",),
        find=find_simple_colours_wrap,
        describe=describe_simple_colours,
    ),
    Technique(
        id="multi-colours-1",
        name="Multi-Colours 1",
        code="MC1",
        family=Family.COLOURING,
        level=Level.HARD,
        weight=200,
        ser=SerEntry(6.7, False, EST + ": Forcing X-Chain + 0.1"),
        hodoku=("0502",),
        find=find_multi_colours_1,
        describe=describe_multi_colours,
    ),
    Technique(
        id="multi-colours-2",
        name="Multi-Colours 2",
        code="MC2",
        family=Family.COLOURING,
        level=Level.HARD,
        weight=200,
        ser=SerEntry(6.7, False, EST + ": Forcing X-Chain + 0.1"),
        hodoku=("0503",),
        find=find_multi_colours_2,
        describe=describe_multi_colours,
    ),
)
