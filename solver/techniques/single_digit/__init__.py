"""Single-digit patterns: two strong links of one digit joined (skyscraper, kite, turbot
fish, empty rectangle).

The family's rows: finder, text, rating and codes together (see solver.registry).
"""

from __future__ import annotations

from ...registry import SK, Family, Level, SerEntry, Technique
from .links import (
    describe_dual_empty_rectangle,
    describe_dual_two_string_kite,
    describe_empty_rectangle,
    describe_two_links,
    find_dual_empty_rectangle,
    find_dual_two_string_kite,
    find_empty_rectangle,
    find_skyscraper,
    find_turbot_fish,
    find_two_string_kite,
)

ROWS: tuple[Technique, ...] = (
    Technique(
        id="skyscraper",
        name="Skyscraper",
        code="Sky",
        family=Family.SINGLE_DIGIT,
        level=Level.HARD,
        weight=130,
        ser=SerEntry(4.0, False, SK),
        hodoku=("0400",),
        find=find_skyscraper,
        describe=describe_two_links,
    ),
    Technique(
        id="two-string-kite",
        name="2-String Kite",
        code="2SK",
        family=Family.SINGLE_DIGIT,
        level=Level.HARD,
        weight=150,
        ser=SerEntry(4.1, False, SK),
        hodoku=("0401",),
        find=find_two_string_kite,
        describe=describe_two_links,
    ),
    Technique(
        id="turbot-fish",
        name="Turbot Fish",
        code="TF",
        family=Family.SINGLE_DIGIT,
        level=Level.HARD,
        weight=120,
        ser=SerEntry(4.2, False, SK),
        hodoku=("0403",),
        find=find_turbot_fish,
        describe=describe_two_links,
    ),
    Technique(
        id="empty-rectangle",
        name="Empty Rectangle",
        code="ER",
        family=Family.SINGLE_DIGIT,
        level=Level.HARD,
        weight=120,
        ser=SerEntry(4.2, False, SK),
        hodoku=("0402",),
        find=find_empty_rectangle,
        describe=describe_empty_rectangle,
    ),
    Technique(
        id="dual-two-string-kite",
        name="Dual 2-String Kite",
        code="d2SK",
        family=Family.SINGLE_DIGIT,
        level=Level.HARD,
        weight=150,
        ser=SerEntry(4.1, False, SK + " (two kites at once)"),
        hodoku=("0404",),
        find=find_dual_two_string_kite,
        describe=describe_dual_two_string_kite,
    ),
    Technique(
        id="dual-empty-rectangle",
        name="Dual Empty Rectangle",
        code="dER",
        family=Family.SINGLE_DIGIT,
        level=Level.HARD,
        weight=120,
        ser=SerEntry(4.2, False, SK + " (two ERs at once)"),
        hodoku=("0405",),
        find=find_dual_empty_rectangle,
        describe=describe_dual_empty_rectangle,
    ),
)
