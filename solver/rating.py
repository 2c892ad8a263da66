"""An SER-like number: Sudoku Explainer's 1.0-11+ difficulty scale, per step and per puzzle.

Sudoku Explainer (SE, Nicolas Juillerat; its ``serate`` rater is the source of the "ER"
column of the hardest-puzzle lists) rates every hint with a number and a puzzle with the
highest hint it needed. We rate our own steps on the same scale: ``step_ser(step)`` takes
the technique's ``ser`` (a :class:`~solver.registry.SerEntry` in its row, beside its
finder in its family's folder), and the puzzle's SER is the maximum over its solve
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
rows' ``ser.source`` says ``estimate``.

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

from .registry import technique
from .steps import Step

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
        # SE's complexity of a nested chain adds its nested chains' (getNestedComplexity)
        return len(step.chain) + sum(step.inner_sizes)
    if step.chain:
        return len(step.chain)
    return len(step.cells) * _NODES_PER_CELL.get(step.technique, 1)


def step_ser(step: Step) -> float:
    """The SER-like rating of one step."""
    entry = technique(step.technique).ser
    base = entry.base
    if step.technique == "hidden-single" and step.houses and step.houses[0] < 18:
        base = 1.5  # SE: a hidden single in a row or column is harder to spot than in a box
    elif entry.one_digit is not None and len({node[1] for node in step.chain}) == 1:
        base = entry.one_digit
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
