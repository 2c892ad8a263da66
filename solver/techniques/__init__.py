"""The techniques: one subpackage per family declares its rows (finder, text, rating and
codes together; :class:`solver.registry.Technique`); this module states the solve order.

To add a technique: write its finder and text in its family's folder, add its row to the
family's ``ROWS``, and put its id in :data:`SOLVE_ORDER` (see ARCHITECTURE.md).
"""

from __future__ import annotations

from ..registry import LEVELS, Technique, register
from . import (
    als,
    chains,
    colouring,
    fish,
    intersections,
    last_resort,
    single_digit,
    singles,
    subsets,
    uniqueness,
    wings,
)

FAMILIES = (singles, intersections, subsets, fish, single_digit, wings, colouring, uniqueness,
            chains, als, last_resort)  # fmt: skip

# The solve order, simplest first: the solve loop takes the first step found. Techniques
# off by default (Technique.default False) keep their place here for --with.
SOLVE_ORDER: tuple[str, ...] = (
    "full-house",
    "hidden-single",
    "naked-single",
    "locked-pointing",
    "locked-claiming",
    "locked-pair",
    "locked-triple",
    "naked-pair",
    "hidden-pair",
    "naked-triple",
    "hidden-triple",
    "naked-quad",
    "hidden-quad",
    "x-wing",
    "swordfish",
    "jellyfish",
    "xy-wing",
    "xyz-wing",
    "skyscraper",
    "two-string-kite",
    "turbot-fish",
    "empty-rectangle",
    "w-wing",
    "simple-colours-trap",
    "simple-colours-wrap",
    "finned-x-wing",
    "sashimi-x-wing",
    "finned-swordfish",
    "sashimi-swordfish",
    "finned-jellyfish",
    "sashimi-jellyfish",
    "dual-two-string-kite",
    "dual-empty-rectangle",
    "multi-colours-1",
    "multi-colours-2",
    "unique-rectangle-1",
    "unique-rectangle-2",
    "unique-rectangle-3",
    "unique-rectangle-4",
    "unique-rectangle-5",
    "unique-rectangle-6",
    "hidden-rectangle",
    "avoidable-rectangle-1",
    "avoidable-rectangle-2",
    "bug-plus-1",
    "remote-pair",
    "x-chain",
    "xy-chain",
    "continuous-nice-loop",
    "discontinuous-nice-loop",
    "aic",
    "grouped-discontinuous-nice-loop",
    "grouped-continuous-nice-loop",
    "grouped-aic",
    "sue-de-coq",
    "als-xz",
    "als-xy-wing",
    "als-chain",
    "death-blossom",
    "franken-x-wing",
    "finned-franken-x-wing",
    "franken-swordfish",
    "finned-franken-swordfish",
    "franken-jellyfish",
    "finned-franken-jellyfish",
    "mutant-x-wing",
    "mutant-swordfish",
    "mutant-jellyfish",
    "finned-mutant-x-wing",
    "finned-mutant-swordfish",
    "finned-mutant-jellyfish",
    "finned-mutant-squirmbag",
    "finned-mutant-whale",
    "forcing-chain-contradiction",
    "forcing-chain-verity",
    "forcing-net-contradiction",
    "forcing-net-verity",
    "forcing-net-nested",
    "template-set",
    "template-delete",
    "trial",
)


def _in_order() -> tuple[Technique, ...]:
    rows = {row.id: row for family in FAMILIES for row in family.ROWS}
    missing = sorted(set(rows) - set(SOLVE_ORDER))
    unknown = sorted(set(SOLVE_ORDER) - set(rows))
    if missing or unknown or len(set(SOLVE_ORDER)) != len(SOLVE_ORDER):
        raise ImportError(f"SOLVE_ORDER and the families' rows disagree: {missing} {unknown}")
    return tuple(rows[i] for i in SOLVE_ORDER)


# Every technique, simplest first; ORDER is the default solve order (``default`` only).
ALL_TECHNIQUES: tuple[Technique, ...] = _in_order()
register(ALL_TECHNIQUES)
ORDER: tuple[Technique, ...] = tuple(t for t in ALL_TECHNIQUES if t.default)
TECHNIQUES: dict[str, Technique] = {t.id: t for t in ALL_TECHNIQUES}
BY_HODOKU: dict[str, Technique] = {code: t for t in ALL_TECHNIQUES for code in t.hodoku}

__all__ = ["ALL_TECHNIQUES", "BY_HODOKU", "LEVELS", "ORDER", "SOLVE_ORDER", "TECHNIQUES"]
