"""The ordered registry of techniques, simplest first; the solve loop takes the first step found."""

from __future__ import annotations

from ..steps import Technique
from .fish import describe_fish, find_fish
from .intersections import describe_locked, find_claiming, find_pointing
from .singles import (
    describe_full_house,
    describe_hidden_single,
    describe_naked_single,
    find_full_house,
    find_hidden_single,
    find_naked_single,
)
from .subsets import describe_hidden, describe_naked, find_hidden, find_locked_subset, find_naked
from .wings import describe_xy_wing, describe_xyz_wing, find_xy_wing, find_xyz_wing

# (id, name, short code, family, HoDoKu codes, weight, level, finder, describer)
_REGISTRY: list[Technique] = [
    Technique("full-house", "Full House", "FH", "singles", ("0000",), 4, "easy",
              find_full_house, describe_full_house),
    Technique("naked-single", "Naked Single", "NS", "singles", ("0003",), 4, "easy",
              find_naked_single, describe_naked_single),
    Technique("hidden-single", "Hidden Single", "HS", "singles", ("0002",), 14, "easy",
              find_hidden_single, describe_hidden_single),
    Technique("locked-pointing", "Locked Candidates (Pointing)", "LP", "intersections",
              ("0100",), 50, "medium", find_pointing, describe_locked),
    Technique("locked-claiming", "Locked Candidates (Claiming)", "LC", "intersections",
              ("0101",), 50, "medium", find_claiming, describe_locked),
    Technique("locked-pair", "Locked Pair", "LkP", "subsets", ("0110",), 40, "medium",
              find_locked_subset(2), describe_naked),
    Technique("locked-triple", "Locked Triple", "LkT", "subsets", ("0111",), 60, "medium",
              find_locked_subset(3), describe_naked),
    Technique("naked-pair", "Naked Pair", "NP", "subsets", ("0200",), 60, "medium",
              find_naked(2), describe_naked),
    Technique("hidden-pair", "Hidden Pair", "HP", "subsets", ("0210",), 70, "medium",
              find_hidden(2), describe_hidden),
    Technique("naked-triple", "Naked Triple", "NT", "subsets", ("0201",), 80, "medium",
              find_naked(3), describe_naked),
    Technique("hidden-triple", "Hidden Triple", "HT", "subsets", ("0211",), 100, "medium",
              find_hidden(3), describe_hidden),
    Technique("naked-quad", "Naked Quad", "NQ", "subsets", ("0202",), 120, "hard",
              find_naked(4), describe_naked),
    Technique("hidden-quad", "Hidden Quad", "HQ", "subsets", ("0212",), 150, "hard",
              find_hidden(4), describe_hidden),
    Technique("x-wing", "X-Wing", "XW", "fish", ("0300",), 140, "hard",
              find_fish(2), describe_fish),
    Technique("swordfish", "Swordfish", "SF", "fish", ("0301",), 150, "hard",
              find_fish(3), describe_fish),
    Technique("jellyfish", "Jellyfish", "JF", "fish", ("0302",), 160, "hard",
              find_fish(4), describe_fish),
    Technique("xy-wing", "XY-Wing", "XY", "wings", ("0800",), 160, "hard",
              find_xy_wing, describe_xy_wing),
    Technique("xyz-wing", "XYZ-Wing", "XYZ", "wings", ("0801",), 180, "hard",
              find_xyz_wing, describe_xyz_wing),
]  # fmt: skip

ORDER: tuple[Technique, ...] = tuple(_REGISTRY)
TECHNIQUES: dict[str, Technique] = {t.id: t for t in ORDER}
BY_HODOKU: dict[str, Technique] = {code: t for t in ORDER for code in t.hodoku}
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")

__all__ = ["BY_HODOKU", "LEVELS", "ORDER", "TECHNIQUES"]
