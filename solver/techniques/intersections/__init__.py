"""Intersections: a digit locked into where a box meets a row or column (locked candidates).

The family's rows: finder, text, rating and codes together (see solver.registry).
"""

from __future__ import annotations

from ...registry import SE, Family, Level, SerEntry, Technique
from .finders import describe_locked, find_claiming, find_pointing

ROWS: tuple[Technique, ...] = (
    Technique(
        id="locked-pointing",
        name="Locked Candidates (Pointing)",
        code="LP",
        family=Family.INTERSECTIONS,
        level=Level.MEDIUM,
        weight=50,
        ser=SerEntry(2.6, False, SE),
        hodoku=("0100",),
        find=find_pointing,
        describe=describe_locked,
    ),
    Technique(
        id="locked-claiming",
        name="Locked Candidates (Claiming)",
        code="LC",
        family=Family.INTERSECTIONS,
        level=Level.MEDIUM,
        weight=50,
        ser=SerEntry(2.8, False, SE),
        hodoku=("0101",),
        find=find_claiming,
        describe=describe_locked,
    ),
)
