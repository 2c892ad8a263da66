"""Property tests: no technique ever places a wrong digit or eliminates the solution.

Every instance every finder yields is checked, not only the steps the solve loop takes,
on generated puzzles, on random pencil-mark states consistent with the solution and on
the reference sets.
"""

from __future__ import annotations

import random
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import ORDER, SOLVED, STUCK, Grid, parse_values, solve
from solver.generate import generate
from solver.grid import BIT, DIGITS_IN
from solver.parse import read_puzzle_file
from solver.search import solutions

from .checks import assert_step_sound

INSTANCES_PER_TECHNIQUE = 30
# Forcing chains/nets and trial cost up to a second per instance on a dense state; their
# own tests (test_forcing.py) check them more deeply.
INSTANCES_OF_LAST_RESORT = 2


def _check_all_instances(grid: Grid, solution: list[int]) -> int:
    checked = 0
    for tech in ORDER:
        last_resort = tech.family == "last-resort"
        limit = INSTANCES_OF_LAST_RESORT if last_resort else INSTANCES_PER_TECHNIQUE
        for step in islice(tech.find(grid), limit):
            assert step.technique == tech.id
            assert_step_sound(step, grid, solution)
            assert step.text  # every step explains itself
            checked += 1
    return checked


def _solve_and_check(values: list[int], *, every_state: bool) -> str:
    (solution,) = solutions(values, limit=2)
    result = solve(values)
    grid = Grid(values)
    for step in result.steps:
        if every_state:
            _check_all_instances(grid, solution)
        assert_step_sound(step, grid, solution)
        step.apply(grid)
    if result.status == SOLVED:
        assert result.grid.values == solution
        placed = [c for c in range(81) if values[c] == 0]
        assert all(result.placed_by[c] is not None for c in placed)
        for c in placed:
            index = result.placed_by[c]
            assert index is not None
            assert (c, solution[c]) in result.steps[index].placements
    return result.status


@pytest.mark.slow
# Six new puzzles a run (about 6 s each, every instance at every state): each CI run
# draws other seeds, and the reference sets and hard puzzles below sweep the rest.
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**9), st.booleans())
def test_generated_puzzles_every_instance_sound(seed: int, symmetric: bool) -> None:
    puzzle = generate(seed, min_givens=20, symmetric=symmetric)
    assert _solve_and_check(puzzle, every_state=True) in (SOLVED, STUCK)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**9), st.floats(min_value=0.0, max_value=0.9))
def test_random_pencil_mark_states_sound(seed: int, thinning: float) -> None:
    """States with extra (true) eliminations exercise the finders beyond solve paths."""
    rng = random.Random(seed)
    puzzle = generate(seed % 1000, min_givens=20, symmetric=False)
    (solution,) = solutions(puzzle, limit=2)
    grid = Grid(puzzle)
    for c in range(81):
        for d in DIGITS_IN[grid.candidates[c]]:
            if d != solution[c] and rng.random() < thinning:
                grid.candidates[c] &= ~BIT[d]
    _check_all_instances(grid, solution)


def test_reference_sets_every_step_sound(puzzles_dir: Path) -> None:
    sets = {
        "norvig/sudoku-top95.txt": 12,
        "sets/qqwing_expert.sdm": 20,
        "norvig/sudokus_hard.txt": 3,
        "sets/top1465.txt": 10,
    }
    statuses: dict[str, int] = {}
    for name, count in sets.items():
        for _, text in islice(read_puzzle_file(puzzles_dir / name), count):
            status = _solve_and_check(parse_values(text), every_state=False)
            statuses[status] = statuses.get(status, 0) + 1
    assert statuses.get(SOLVED, 0) > 0 and set(statuses) <= {SOLVED, STUCK}


@pytest.mark.slow
def test_every_state_of_hard_puzzles_sound(puzzles_dir: Path) -> None:
    for _, text in islice(read_puzzle_file(puzzles_dir / "norvig/sudoku-top95.txt"), 3):
        _solve_and_check(parse_values(text), every_state=True)


def test_simplest_step_first() -> None:
    """The solve loop always takes the simplest technique available."""
    order = {t.id: i for i, t in enumerate(ORDER)}
    puzzle = generate(102)
    result = solve(puzzle)
    grid = Grid(puzzle)
    for step in result.steps:
        for tech in ORDER[: order[step.technique]]:
            assert next(tech.find(grid), None) is None, f"{tech.id} was available before {step}"
        step.apply(grid)
    assert result.status == SOLVED and result.difficulty.hardest == "xy-wing"
