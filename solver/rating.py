"""An SER-like number: Sudoku Explainer's 1.0-11+ difficulty scale, per step and per puzzle.

Sudoku Explainer (SE, Nicolas Juillerat; its ``serate`` rater is the source of the "ER"
column of the hardest-puzzle lists) rates every hint with a number and a puzzle with the
highest hint it needed. We rate our own steps on the same scale: ``step_ser(step)`` looks
the technique up in :data:`SER_TABLE`, and the puzzle's SER is the maximum over its solve
path (:func:`puzzle_ser`). Our solve path is not SE's (SE always takes its lowest-rated
hint; we take the first technique in registry order), so the figure is an estimate on
SE's scale, not SE's rating.

Sources (SE 1.2.1 ``diuf.sudoku.solver.Rule``, its hint classes, and the maintained
fork Sukaku Explainer ``SudokuMonster/SukakuExplainer``):

====================  =====  ==============================================================
technique             SER    source / reasoning
====================  =====  ==============================================================
full house            1.0    SE fork: last empty cell of a house
hidden single         1.2    SE: 1.2 in a box, 1.5 in a row or column
naked single          2.3    SE
pointing / claiming   2.6    SE: pointing 2.6, claiming 2.8
naked pair            3.0    SE (a locked pair is a naked pair to SE: 3.0; locked triple 3.6)
X-Wing                3.2    SE
hidden pair           3.4    SE
naked triple          3.6    SE
swordfish             3.8    SE
hidden triple         4.0    SE
skyscraper            4.0    Sukaku Explainer TurbotFishHint (SE 1.2.1: Forcing X-Chain 6.6)
2-string kite         4.1    Sukaku Explainer (dual kite: same)
turbot fish / ER      4.2    Sukaku Explainer (an empty rectangle is a grouped turbot fish)
XY-Wing               4.2    SE
XYZ-Wing, W-Wing      4.4    SE; W-Wing from Sukaku Explainer WWingHint
unique rectangle      4.5    SE UniqueLoopHint: 4.5 (+0.1 per extra naked-set digit, type 3)
naked quad            5.0    SE
jellyfish             5.2    SE
hidden quad           5.4    SE
BUG+1                 5.6    SE Bug1Hint (types 2/4: 5.7, type 3: 5.8+)
X-cycle (nice loop)   6.5+   SE CycleHint, one digit; with several digits (XY-cycle) 7.0+
X-chain               6.6+   SE ForcingChainHint, one digit (Forcing X-Chain)
XY-chain, AIC         7.0+   SE ForcingChainHint with cell and house links (Forcing Chain)
Nishio / templates    7.5    SE Chaining: Nishio 7.5 (template delete is a one-digit Nishio)
multiple chains       8.0+   SE Chaining: cell/region forcing chains (forcing chain verity)
dynamic chains        8.5+   SE Chaining: contradiction chains
dynamic chains (+)    9.0+   SE Chaining level 1: forcing nets
nested chains         9.5+   SE Chaining level 2+; trial and error is put above them, 10.0
====================  =====  ==============================================================

Techniques SE has no rule for (finned fish, colouring, ALS, Sue de Coq, grouped chains) get
a documented estimate between the SE rules that would find the same eliminations; those
rows say ``estimate`` in :data:`SER_TABLE`.

``+`` marks SE's length increment (``ChainingHint.getLengthDifficulty``): with ``length``
the chain's size, 0.1 is added for each threshold it exceeds in 4, 6, 8, 12, 16, 24, 32,
48, ... (each threshold alternately x3/2 and x4/3 the previous). SE measures a chain by its
number of implications less 2; we use the number of nodes in ``Step.chain``, or, for chain
steps recorded without nodes, an estimate from the chain's cells. Like SE
(``getNestedComplexity``), a nested net's size adds the sizes of the inner nets it used.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .steps import Step


class SerEntry(NamedTuple):
    """One row of the table: SE base rating, whether SE's chain-length increment applies,
    and where the figure comes from."""

    base: float
    chain: bool
    source: str


_SE = "SE 1.2.1"
_SK = "Sukaku Explainer"
_EST = "estimate"

# Keyed by technique id; techniques being added by other areas have their rows already.
SER_TABLE: dict[str, SerEntry] = {
    # singles
    "full-house": SerEntry(1.0, False, _SK),
    "hidden-single": SerEntry(1.2, False, _SE + " (1.5 outside a box)"),
    "naked-single": SerEntry(2.3, False, _SE),
    # intersections and subsets
    "locked-pointing": SerEntry(2.6, False, _SE),
    "locked-claiming": SerEntry(2.8, False, _SE),
    "locked-pair": SerEntry(3.0, False, _SE + " naked pair"),
    "locked-triple": SerEntry(3.6, False, _SE + " naked triple"),
    "naked-pair": SerEntry(3.0, False, _SE),
    "hidden-pair": SerEntry(3.4, False, _SE),
    "naked-triple": SerEntry(3.6, False, _SE),
    "hidden-triple": SerEntry(4.0, False, _SE),
    "naked-quad": SerEntry(5.0, False, _SE),
    "hidden-quad": SerEntry(5.4, False, _SE),
    # fish: SE has basic fish only; a fin costs 0.2, a sashimi fin 0.3
    "x-wing": SerEntry(3.2, False, _SE),
    "swordfish": SerEntry(3.8, False, _SE),
    "jellyfish": SerEntry(5.2, False, _SE),
    "finned-x-wing": SerEntry(3.4, False, _EST + ": X-Wing + 0.2"),
    "finned-swordfish": SerEntry(4.0, False, _EST + ": swordfish + 0.2"),
    "finned-jellyfish": SerEntry(5.4, False, _EST + ": jellyfish + 0.2"),
    "sashimi-x-wing": SerEntry(3.5, False, _EST + ": X-Wing + 0.3"),
    "sashimi-swordfish": SerEntry(4.1, False, _EST + ": swordfish + 0.3"),
    "franken-x-wing": SerEntry(3.4, False, _EST + ": X-Wing + 0.2 (a box among its houses)"),
    "finned-franken-x-wing": SerEntry(3.6, False, _EST + ": Franken X-Wing + 0.2"),
    "franken-swordfish": SerEntry(4.0, False, _EST + ": swordfish + 0.2"),
    "finned-franken-swordfish": SerEntry(4.2, False, _EST + ": Franken swordfish + 0.2"),
    "franken-jellyfish": SerEntry(5.4, False, _EST + ": jellyfish + 0.2"),
    "finned-franken-jellyfish": SerEntry(5.6, False, _EST + ": Franken jellyfish + 0.2"),
    "mutant-x-wing": SerEntry(3.6, False, _EST + ": X-Wing + 0.4 (rows and columns mixed)"),
    "mutant-swordfish": SerEntry(4.2, False, _EST + ": swordfish + 0.4"),
    "mutant-jellyfish": SerEntry(5.6, False, _EST + ": jellyfish + 0.4"),
    "finned-mutant-x-wing": SerEntry(3.8, False, _EST + ": Mutant X-Wing + 0.2"),
    "finned-mutant-swordfish": SerEntry(4.4, False, _EST + ": Mutant swordfish + 0.2"),
    "finned-mutant-jellyfish": SerEntry(5.8, False, _EST + ": Mutant jellyfish + 0.2"),
    "finned-mutant-squirmbag": SerEntry(6.2, False, _EST + ": a size-5 fish, above jellyfish"),
    "finned-mutant-whale": SerEntry(6.4, False, _EST + ": a size-6 fish, above squirmbag"),
    "sashimi-jellyfish": SerEntry(5.5, False, _EST + ": jellyfish + 0.3"),
    # wings
    "xy-wing": SerEntry(4.2, False, _SE),
    "xyz-wing": SerEntry(4.4, False, _SE),
    "w-wing": SerEntry(4.4, False, _SK),
    # single-digit patterns
    "skyscraper": SerEntry(4.0, False, _SK),
    "two-string-kite": SerEntry(4.1, False, _SK),
    "dual-two-string-kite": SerEntry(4.1, False, _SK + " (two kites at once)"),
    "turbot-fish": SerEntry(4.2, False, _SK),
    "empty-rectangle": SerEntry(4.2, False, _SK),
    "dual-empty-rectangle": SerEntry(4.2, False, _SK + " (two ERs at once)"),
    # colouring: SE finds these as one-digit forcing chains (6.6); multi-colours a bit more
    "simple-colours-trap": SerEntry(6.6, False, _EST + ": Forcing X-Chain"),
    "simple-colours-wrap": SerEntry(6.6, False, _EST + ": Forcing X-Chain"),
    "multi-colours-1": SerEntry(6.7, False, _EST + ": Forcing X-Chain + 0.1"),
    "multi-colours-2": SerEntry(6.7, False, _EST + ": Forcing X-Chain + 0.1"),
    # uniqueness
    "unique-rectangle-1": SerEntry(4.5, False, _SE),
    "unique-rectangle-2": SerEntry(4.5, False, _SE),
    "unique-rectangle-3": SerEntry(4.6, False, _SE + " (naked pair; +0.1 per larger set)"),
    "unique-rectangle-4": SerEntry(4.5, False, _SE),
    "unique-rectangle-5": SerEntry(4.5, False, _SE + " type 2 with 3 extra cells"),
    "unique-rectangle-6": SerEntry(4.6, False, _EST + ": UR + 0.1"),
    "hidden-rectangle": SerEntry(4.6, False, _SE + " type 3 hidden"),
    "avoidable-rectangle-1": SerEntry(4.5, False, _EST + ": as UR type 1"),
    "avoidable-rectangle-2": SerEntry(4.5, False, _EST + ": as UR type 2"),
    "bug-plus-1": SerEntry(5.6, False, _SE),
    # chains and loops
    "remote-pair": SerEntry(7.0, True, _SE + " Forcing Chain"),
    "x-chain": SerEntry(6.6, True, _SE + " Forcing X-Chain"),
    "xy-chain": SerEntry(7.0, True, _SE + " Forcing Chain"),
    "continuous-nice-loop": SerEntry(7.0, True, _SE + " XY-Cycle (one digit: X-Cycle 6.5)"),
    "discontinuous-nice-loop": SerEntry(7.0, True, _SE + " Forcing Chain (one digit: 6.6)"),
    "aic": SerEntry(7.0, True, _SE + " Forcing Chain (one digit: 6.6)"),
    "grouped-continuous-nice-loop": SerEntry(7.3, True, _EST + ": nice loop + 0.3 for groups"),
    "grouped-discontinuous-nice-loop": SerEntry(7.3, True, _EST + ": nice loop + 0.3 for groups"),
    "grouped-aic": SerEntry(7.3, True, _EST + ": AIC + 0.3 for groups"),
    # almost locked sets
    "sue-de-coq": SerEntry(7.2, False, _EST + ": between forcing and multiple chains"),
    "als-xz": SerEntry(7.5, False, _EST + ": between forcing and multiple chains"),
    "als-xy-wing": SerEntry(7.8, False, _EST + ": between forcing and multiple chains"),
    "als-chain": SerEntry(7.8, True, _EST + ": ALS-XY-Wing base, chain length increment"),
    "death-blossom": SerEntry(8.0, False, _EST + ": SE cell forcing chain (multiple chains)"),
    # last resort
    "template-set": SerEntry(7.5, False, _SE + " Nishio"),
    "template-delete": SerEntry(7.5, False, _SE + " Nishio"),
    "forcing-chain-verity": SerEntry(8.0, True, _SE + " multiple chains"),
    "forcing-chain-contradiction": SerEntry(8.5, True, _SE + " dynamic chains"),
    "forcing-net-verity": SerEntry(9.0, True, _SE + " dynamic chains (+)"),
    "forcing-net-contradiction": SerEntry(9.0, True, _SE + " dynamic chains (+)"),
    "forcing-net-nested": SerEntry(9.5, True, _SE + " nested chains (Chaining level 2)"),
    "trial": SerEntry(10.0, False, _EST + ": above SE nested chains (9.5)"),
}

# Fallback for a technique id missing from the table (one added later): by its level.
LEVEL_SER = {"easy": 1.5, "medium": 3.0, "hard": 4.5, "unfair": 6.6, "extreme": 8.0}

# Chain techniques whose one-digit instances SE rates lower (X-cycles 6.5, X-chains 6.6).
_ONE_DIGIT_BASE = {
    "continuous-nice-loop": 6.5,
    "grouped-continuous-nice-loop": 6.8,
    "discontinuous-nice-loop": 6.6,
    "aic": 6.6,
    "grouped-discontinuous-nice-loop": 6.9,
    "grouped-aic": 6.9,
}
# Chains recorded without nodes: candidates per cell of ``Step.cells`` (an XY-chain uses
# both candidates of each bivalue cell, an X-chain one).
_NODES_PER_CELL = {"xy-chain": 2, "remote-pair": 2}


def length_bonus(length: int) -> float:
    """SE's chain length increment: 0.1 per threshold exceeded in 4, 6, 8, 12, 16, 24, ..."""
    added, ceil, odd = 0, 4, False
    while length > ceil:
        added += 1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return added / 10


def chain_length(step: Step) -> int:
    """The number of nodes of a chain step (estimated from its cells without ``chain``)."""
    if step.technique == "forcing-net-nested":
        from .techniques.forcing import nested_inner_nodes

        # SE's complexity of a nested chain adds its nested chains' (getNestedComplexity)
        return len(step.chain) + sum(nested_inner_nodes(step))
    if step.chain:
        return len(step.chain)
    return len(step.cells) * _NODES_PER_CELL.get(step.technique, 1)


def step_ser(step: Step) -> float:
    """The SER-like rating of one step."""
    entry = SER_TABLE.get(step.technique)
    if entry is None:
        from .techniques import TECHNIQUES

        tech = TECHNIQUES.get(step.technique)
        return LEVEL_SER.get(tech.level if tech else "extreme", 8.0)
    base = entry.base
    if step.technique == "hidden-single" and step.houses and step.houses[0] < 18:
        base = 1.5  # SE: a hidden single in a row or column is harder to spot than in a box
    elif step.technique in _ONE_DIGIT_BASE and len({node[1] for node in step.chain}) == 1:
        base = _ONE_DIGIT_BASE[step.technique]
    if entry.chain:
        base += length_bonus(chain_length(step))
    return round(base, 1)


def puzzle_ser(steps: Iterable[Step]) -> float:
    """The SER-like rating of a solve path: its hardest step (0.0 for no steps)."""
    return max((step_ser(s) for s in steps), default=0.0)


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks of ``values``; tied values share the mean of their ranks."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        mean = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = mean
        i = j + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's r of the tie-averaged ranks).

    NaN when fewer than two pairs, or when either side is constant.
    """
    if len(xs) != len(ys):
        raise ValueError("spearman: sequences differ in length")
    n = len(xs)
    if n < 2:
        return math.nan
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return math.nan
    return sxy / math.sqrt(sxx * syy)
