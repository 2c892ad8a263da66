"""Wings: bivalue cells pincering a digit (XY-, XYZ- and W-Wing).

The family's rows: finder, text, rating and codes together (see solver.registry).
"""

from __future__ import annotations

from ...registry import SE, SK, Family, Level, SerEntry, Technique
from .finders import describe_xy_wing, describe_xyz_wing, find_xy_wing, find_xyz_wing
from .w_wing import describe_w_wing, find_w_wing

ROWS: tuple[Technique, ...] = (
    Technique(
        id="xy-wing",
        name="XY-Wing",
        code="XY",
        family=Family.WINGS,
        level=Level.HARD,
        weight=160,
        ser=SerEntry(4.2, False, SE),
        hodoku=("0800",),
        find=find_xy_wing,
        describe=describe_xy_wing,
    ),
    Technique(
        id="xyz-wing",
        name="XYZ-Wing",
        code="XYZ",
        family=Family.WINGS,
        level=Level.HARD,
        weight=180,
        ser=SerEntry(4.4, False, SE),
        hodoku=("0801",),
        find=find_xyz_wing,
        describe=describe_xyz_wing,
    ),
    Technique(
        id="w-wing",
        name="W-Wing",
        code="WW",
        family=Family.WINGS,
        level=Level.HARD,
        weight=150,
        ser=SerEntry(4.4, False, SK),
        hodoku=("0803",),
        find=find_w_wing,
        describe=describe_w_wing,
    ),
)
