"""Trial: when no logical step is left, assume a candidate and search exhaustively."""

from __future__ import annotations

from collections.abc import Iterator

from ....grid import BIT, DIGITS_IN, POPCOUNT, Grid, cell_name
from ....search import solutions_from_candidates
from ....steps import NetEvidence, Step


def _refute(values: list[int], cands: list[int], budget: int) -> tuple[int, int] | None:
    """Exhaust the state: (guesses made, first cell guessed) when it has no solution,
    None when it has one or the budget of guesses runs out."""
    from ....search import _propagate, branch_cell

    count = 0
    first = -1
    stack = [(values, cands)]
    while stack:
        vals, cs = stack.pop()
        if not _propagate(vals, cs):
            continue
        best = branch_cell(vals, cs)
        if best < 0:
            return None
        if first < 0:
            first = best
        for d in DIGITS_IN[cs[best]]:
            count += 1
            if count > budget:
                return None
            v2, c2 = vals[:], cs[:]
            c2[best] = BIT[d]
            stack.append((v2, c2))
    return count, first


def find_trial(grid: Grid) -> Iterator[Step]:
    """Assume a candidate and search: if no solution follows, it goes.

    Evidence: ``cells=(cell, first cell guessed)`` (the cell alone when singles refute it
    without a guess), ``digits=(digit,)``,
    ``guesses``. Candidates of cells with fewest candidates come first.
    """
    values, cands = grid.values, grid.candidates
    sols = solutions_from_candidates(values, cands, limit=1)
    if not sols:
        return
    solution = sols[0]
    cells = sorted((c for c in range(81) if not values[c]), key=lambda c: POPCOUNT[cands[c]])
    for c in cells:
        for d in DIGITS_IN[cands[c] & ~BIT[solution[c]]]:
            start_cands = [BIT[v] if v else m for v, m in zip(values, cands, strict=True)]
            start_vals = [0] * 81
            start_cands[c] = BIT[d]
            refuted = _refute(start_vals, start_cands, budget=100_000)
            if refuted is None:
                continue
            guesses, first = refuted
            yield Step(
                "trial",
                eliminations=((c, d),),
                cells=(c, first) if first >= 0 else (c,),
                digits=(d,),
                net=NetEvidence(guesses=guesses),
            )


def describe_trial(step: Step) -> str:
    (cell, digit), guesses = step.eliminations[0], step.guesses
    if len(step.cells) < 2:
        how = "singles alone then run into a contradiction"
    else:
        how = (
            f"a search from there (guessing {cell_name(step.cells[1])} first, {guesses} guesses in "
            f"all) ends in a contradiction every time"
        )
    return (
        f"Trial: no logical step is left, so try {cell_name(cell)}={digit}: {how}, "
        f"so {cell_name(cell)} <> {digit}"
    )
