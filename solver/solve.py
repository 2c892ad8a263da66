"""The solve loop: validate, then always take the simplest step available."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import Status
from .grid import Grid, cell_name, find_duplicates, house_name
from .rating import puzzle_ser
from .registry import LEVELS, Family, Technique
from .search import solutions, solutions_from_candidates
from .steps import Step
from .techniques import ALL_TECHNIQUES, ORDER, TECHNIQUES

SOLVED = Status.SOLVED
STUCK = Status.STUCK
NO_SOLUTION = Status.NO_SOLUTION
MULTIPLE = Status.MULTIPLE
UNIQUENESS = Family.UNIQUENESS  # the family of techniques that assume a unique solution
_ORDER_INDEX = {t.id: i for i, t in enumerate(ALL_TECHNIQUES)}
# HoDoKu's score ceilings per level: a path scoring more than its hardest technique's
# level allows is moved up (many medium steps make a hard puzzle).
LEVEL_MAX_SCORE = {"easy": 800, "medium": 1000, "hard": 1600, "unfair": 1800}


@dataclass(frozen=True)
class Difficulty:
    """The hardest technique used, the score (sum of step weights), a level, and an
    SER-like number on Sudoku Explainer's 1.0-11+ scale (see :mod:`solver.rating`; for a
    stuck solve it rates only the steps found, a lower bound)."""

    hardest: str | None
    score: int
    level: str
    ser: float = 0.0

    def to_dict(self) -> dict[str, object]:
        name = TECHNIQUES[self.hardest].name if self.hardest else None
        return {
            "hardest": self.hardest,
            "name": name,
            "score": self.score,
            "level": str(self.level),
            "ser": self.ser,
        }


@dataclass(frozen=True)
class Placement:
    """One digit the solve placed, and the rule it is credited to.

    The attribution rule, the one definition the photo, the legend, the sheet, the
    report and the JSON all use: a digit placed by step ``step`` is credited to the
    hardest technique (registry order) among that step and the steps just before it
    that placed nothing, back to the previous step that placed a digit (``needed``, in
    solve order): the eliminations that unlocked it. A hidden single after an X-Wing is
    the X-Wing's digit; the hidden single still names the house that placed it.

    Attributes
    ----------
    cell, digit : int
        The cell (0..80, row by row) and the digit written there.
    technique : str
        The id of the technique the digit is credited to.
    step : int
        Index in ``SolveResult.steps`` of the step that placed the digit.
    needed : tuple of int
        Indexes of the steps it needed since the previous placement (may be empty).
    """

    cell: int
    digit: int
    technique: str
    step: int
    needed: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "cell": cell_name(self.cell),
            "digit": self.digit,
            "technique": self.technique,
            "step": self.step,
            "needed": list(self.needed),
        }


def _needed_steps(steps: Sequence[Step], index: int) -> tuple[int, ...]:
    """The steps without placements just before ``steps[index]``, in solve order."""
    i = index - 1
    while i >= 0 and not steps[i].placements:
        i -= 1
    return tuple(range(i + 1, index))


def _credited(steps: Sequence[Step], index: int, needed: Sequence[int]) -> str:
    """The hardest technique (registry order) of ``steps[index]`` and ``needed``."""
    best = steps[index].technique
    for i in needed:
        if _ORDER_INDEX[steps[i].technique] > _ORDER_INDEX[best]:
            best = steps[i].technique
    return best


@dataclass
class SolveResult:
    """What a solve produced.

    ``placed_by[c]`` is the index in ``steps`` of the step that placed cell ``c`` (None for
    givens and cells left empty). ``solutions`` holds the unique solution, or two that
    differ when there are several.
    """

    status: str
    givens: list[int]
    grid: Grid
    steps: list[Step] = field(default_factory=list)
    placed_by: list[int | None] = field(default_factory=lambda: [None] * 81)
    solutions: list[list[int]] = field(default_factory=list)
    message: str = ""

    @property
    def solution(self) -> list[int] | None:
        return self.solutions[0] if len(self.solutions) == 1 else None

    @property
    def difficulty(self) -> Difficulty:
        return rate(self.steps, stuck=self.status == STUCK)

    def credited_technique(self, cell: int) -> str | None:
        """The rule a placed digit is credited to (see :class:`Placement`); None for
        givens and cells not placed."""
        index = self.placed_by[cell]
        if index is None:
            return None
        return _credited(self.steps, index, _needed_steps(self.steps, index))

    def placements(self) -> list[Placement]:
        """Every digit the solve placed with its attribution, in solve order (by step,
        then cell): one per cell filled."""
        out: list[Placement] = []
        for index, step in enumerate(self.steps):
            if not step.placements:
                continue
            needed = _needed_steps(self.steps, index)
            credited = _credited(self.steps, index, needed)
            for cell, digit in sorted(step.placements):
                if self.placed_by[cell] == index:
                    out.append(Placement(cell, digit, credited, index, needed))
        return out

    def remaining_cells(self) -> list[int]:
        return [c for c in range(81) if not self.grid.values[c]]

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "status": self.status,
            "givens": "".join(str(v) for v in self.givens),
            "solution": "".join(str(v) for v in self.solution) if self.solution else None,
            "steps": [s.to_dict() for s in self.steps],
            "difficulty": (self.difficulty.to_dict() if self.status in (SOLVED, STUCK) else None),
        }
        if self.status in (SOLVED, STUCK):
            out["placed"] = [p.to_dict() for p in self.placements()]
        if self.status == STUCK:
            out["grid"] = self.grid.to_string("0")
            out["remaining"] = [cell_name(c) for c in self.remaining_cells()]
        if self.status == MULTIPLE:
            out["solutions"] = ["".join(map(str, s)) for s in self.solutions]
        if self.message:
            out["message"] = self.message
        return out


def rate(steps: Sequence[Step], *, stuck: bool = False) -> Difficulty:
    """Difficulty of a solve path: hardest technique (by registry order), score, level, SER.

    The level is the hardest technique's, moved up while the score exceeds that level's
    ceiling (as HoDoKu does); a stuck solve is extreme.
    """
    hardest = max((s.technique for s in steps), key=_ORDER_INDEX.__getitem__, default=None)
    score = sum(TECHNIQUES[s.technique].weight for s in steps)
    if stuck:
        level = LEVELS[-1]
    else:
        level = LEVELS[0] if hardest is None else TECHNIQUES[hardest].level
        while level in LEVEL_MAX_SCORE and score > LEVEL_MAX_SCORE[level]:
            level = LEVELS[LEVELS.index(level) + 1]
    return Difficulty(hardest, score, level, puzzle_ser(steps))


def next_step(grid: Grid, techniques: Sequence[Technique] = ORDER) -> Step | None:
    """The simplest step available in ``grid`` (the first instance of the first technique)."""
    for tech in techniques:
        step = next(tech.find(grid), None)
        if step is not None:
            return step
    return None


def _without_uniqueness(techniques: Sequence[Technique]) -> tuple[Technique, ...]:
    return tuple(t for t in techniques if t.family != UNIQUENESS)


def _uniqueness_safe(grid: Grid) -> bool:
    """Whether the givens alone have one solution (uniqueness arguments swap digits in
    cells that are not givens, so they need that, not only a unique pencil-mark state).
    A plain puzzle was settled by :func:`validate`; only a state costs a search."""
    givens = [v if g else 0 for v, g in zip(grid.values, grid.givens, strict=True)]
    if givens == grid.values and Grid(givens).candidates == grid.candidates:
        return True
    return len(solutions(givens, limit=2)) == 1


def validate(grid: Grid) -> tuple[str, list[list[int]], str]:
    """Decide solvability with the exact search: (status, solutions, message)."""
    dups = find_duplicates(grid.values)
    if dups:
        a, b, h = dups[0]
        msg = f"duplicate {grid.values[a]} in {house_name(h)}: {cell_name(a)} and {cell_name(b)}"
        return NO_SOLUTION, [], msg
    sols = solutions_from_candidates(grid.values, grid.candidates, limit=2)
    if not sols:
        return NO_SOLUTION, [], "the puzzle has no solution"
    if len(sols) > 1:
        diff = [cell_name(c) for c in range(81) if sols[0][c] != sols[1][c]]
        shown = ", ".join(diff[:6]) + (", ..." if len(diff) > 6 else "")
        return MULTIPLE, sols, f"the puzzle has more than one solution (they differ at {shown})"
    return SOLVED, sols, ""


def solve(
    puzzle: Grid | Sequence[int],
    *,
    techniques: Sequence[Technique] = ORDER,
    uniqueness: bool = True,
    max_steps: int = 2000,
) -> SolveResult:
    """Solve by logic alone, recording every step.

    Parameters
    ----------
    puzzle : Grid or sequence of 81 ints
        Givens (0 = empty) or a pencil-mark state; it is not modified.
    techniques : sequence of Technique, keyword-only
        The techniques allowed, simplest first.
    uniqueness : bool, keyword-only
        Allow the techniques that assume the puzzle has one solution (family
        ``"uniqueness"``). They are dropped anyway for a pencil-mark state whose givens
        alone have several solutions.
    """
    # The cyclic garbage collector is paused for the solve: the searches allocate many
    # short-lived containers, and its passes over them cost 5-8% of a hard solve. The little
    # cyclic garbage a solve leaves goes in the first pass after it is back on.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _solve(puzzle, techniques, uniqueness, max_steps)
    finally:
        if paused:
            gc.enable()


def _solve(
    puzzle: Grid | Sequence[int],
    techniques: Sequence[Technique],
    uniqueness: bool,
    max_steps: int,
) -> SolveResult:
    grid = puzzle.copy() if isinstance(puzzle, Grid) else Grid(list(puzzle))
    givens = [v if g else 0 for v, g in zip(grid.values, grid.givens, strict=True)]
    status, sols, message = validate(grid)
    result = SolveResult(status, givens, grid, solutions=sols, message=message)
    if status != SOLVED:
        return result
    if not uniqueness or not _uniqueness_safe(grid):
        techniques = _without_uniqueness(techniques)
    steps = result.steps
    for _ in range(max_steps):
        if grid.is_solved():
            return result
        step = next_step(grid, techniques)
        if step is None:
            break
        for cell, _digit in step.placements:
            result.placed_by[cell] = len(steps)
        steps.append(step)
        step.apply(grid)
    result.status = STUCK
    left = len(result.remaining_cells())
    result.message = f"logic alone got stuck with {left} cells left"
    return result


# How many instances of one technique :func:`hint` looks through for one that places no
# digit in the cells to avoid (the searches yield their simplest instances first).
AVOID_TRIES = 50


def hint(
    puzzle: Grid | Sequence[int],
    *,
    techniques: Sequence[Technique] = ORDER,
    uniqueness: bool = True,
    avoid: Sequence[int] = (),
) -> Step | None:
    """The next step only (None when solved or stuck). Invalid puzzles raise nothing here;
    call :func:`validate` first: uniqueness techniques (left out with
    ``uniqueness=False``) assume it found one solution.

    ``avoid``: cells the step must place no digit in (a person's wrong entries, whose
    right digit a hint must not give away); the first instance of the simplest technique
    that places none there is taken.
    """
    grid = puzzle.copy() if isinstance(puzzle, Grid) else Grid(list(puzzle))
    if not uniqueness or not _uniqueness_safe(grid):
        techniques = _without_uniqueness(techniques)
    if not avoid:
        return next_step(grid, techniques)
    hidden = set(avoid)
    for tech in techniques:
        for tries, step in enumerate(tech.find(grid), start=1):
            if not any(cell in hidden for cell, _digit in step.placements):
                return step
            if tries >= AVOID_TRIES:
                break
    return None
