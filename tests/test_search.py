from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from solver import MULTIPLE, NO_SOLUTION, SOLVED, parse_values, solve, validate
from solver.generate import generate
from solver.grid import Grid, find_duplicates
from solver.search import count_solutions, solutions
from solver.steps import Step


def _is_complete_and_valid(values: list[int]) -> bool:
    return 0 not in values and not find_duplicates(values)


def test_generated_puzzles_have_exactly_one_solution() -> None:
    for seed in range(5):
        puzzle = generate(seed)
        (sol,) = solutions(puzzle, limit=5)
        assert _is_complete_and_valid(sol)
        assert all(p in (0, s) for p, s in zip(puzzle, sol, strict=True))


def test_empty_grid_has_many() -> None:
    two = solutions([0] * 81, limit=2)
    assert len(two) == 2 and two[0] != two[1]
    status, sols, message = validate(Grid([0] * 81))
    assert status == MULTIPLE and "more than one solution" in message and len(sols) == 2


def test_clashing_givens_have_none() -> None:
    values = [0] * 81
    values[0] = values[1] = 7
    assert count_solutions(values) == 0
    assert solve(values).status == NO_SOLUTION


@pytest.mark.slow
def test_validity_cases(puzzles_dir: Path) -> None:
    """tdoku's validity cases: 0, 1 and many solutions, decided exactly."""
    lines = (puzzles_dir / "sets" / "validity-cases.txt").read_text().splitlines()
    cases = [line.split(":") for line in lines if line and not line.startswith("#")]
    assert len(cases) >= 40
    for fields in cases:
        puzzle, count = fields[0], int(fields[1])
        try:
            values = parse_values(puzzle)
        except Exception as exc:
            pytest.fail(f"cannot parse {puzzle}: {exc}")
        found = solutions(values, limit=2)
        assert len(found) == min(count, 2), puzzle
        if count == 1 and len(fields) > 2:
            assert "".join(map(str, found[0])) == fields[2]
        status = solve(values).status if not find_duplicates(values) else NO_SOLUTION
        expected = {0: NO_SOLUTION, 1: SOLVED}.get(count, MULTIPLE)
        if count == 1:
            assert status in (SOLVED, "stuck")
        else:
            assert status == expected


def test_solve_pauses_the_garbage_collector_and_restores_it() -> None:
    """The cyclic collector is off during a solve and back as it was after, also when a
    technique fails; a caller who turned it off keeps it off."""
    import dataclasses
    import gc

    from solver.techniques import ORDER

    seen: list[bool] = []

    def crash(grid: Grid) -> Iterator[Step]:
        seen.append(gc.isenabled())
        raise RuntimeError("injected")
        yield  # a generator, as finders are

    crashing = [dataclasses.replace(ORDER[0], find=crash)]
    puzzle = generate(seed=11)
    assert gc.isenabled()
    try:
        assert solve(puzzle).status == SOLVED
        assert gc.isenabled()
        with pytest.raises(RuntimeError, match="injected"):
            solve(puzzle, techniques=crashing)
        assert seen == [False] and gc.isenabled()
        gc.disable()
        assert solve(puzzle).status == SOLVED
        assert not gc.isenabled()
    finally:
        gc.enable()
