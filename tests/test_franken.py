"""Franken fish (HoDoKu 0330, 0331, 0340, 0341, 03411 registered; Jellyfish 0332, 0342,
03421 through the engine only): library cases, exact steps and texts, soundness on hard
solve paths, cost on stuck states."""

from __future__ import annotations

import time
from itertools import islice
from pathlib import Path

import pytest

from solver import Grid, parse_values, solve
from solver.grid import BIT
from solver.parse import parse_candidate_list, parse_state, read_puzzle_file
from solver.reglib import run_case
from solver.search import solutions
from solver.steps import Step
from solver.techniques import BY_HODOKU, ORDER, TECHNIQUES
from solver.techniques.frankenfish import describe_franken_fish, find_franken_fish

from .checks import assert_step_sound

REGISTERED = {
    "0330": "franken-x-wing",
    "0340": "finned-franken-x-wing",
    "0331": "franken-swordfish",
    "0341": "finned-franken-swordfish",
    "03411": "finned-franken-swordfish",
}
# Library lines of the Franken codes: (line, size, finned)
ENGINE_CASES = [
    (403, 3, False), (404, 3, False), (405, 4, False), (408, 2, True), (409, 2, True),
    (410, 2, True), (411, 3, True), (412, 3, True), (413, 3, True), (414, 3, True),
    (415, 3, True), (416, 3, True), (417, 4, True), (424, 4, True),
]  # fmt: skip


def only(digit: int, cells: str) -> Grid:
    """An empty grid where ``digit`` is a candidate only in ``cells`` (``r1c2 r5c8 ...``)."""
    grid = Grid([0] * 81)
    keep = {(int(n[1]) - 1) * 9 + int(n[3]) - 1 for n in cells.split()}
    for c in range(81):
        if c not in keep:
            grid.candidates[c] &= ~BIT[digit]
    return grid


def library_lines(puzzles_dir: Path) -> list[str]:
    return (puzzles_dir / "hodoku-reglib-dev.txt").read_text().splitlines()


def test_registered_after_als() -> None:
    for code, tech in REGISTERED.items():
        assert BY_HODOKU[code].id == tech
    ids = [t.id for t in ORDER]
    assert ids.index("death-blossom") < ids.index("franken-x-wing")
    assert ids.index("franken-x-wing") < ids.index("finned-franken-x-wing")
    assert ids.index("finned-franken-x-wing") < ids.index("franken-swordfish")
    assert ids.index("franken-swordfish") < ids.index("finned-franken-swordfish")


def test_registered_library_cases_pass(puzzles_dir: Path) -> None:
    lines = library_lines(puzzles_dir)
    cases = [
        (no, line)
        for no, line in enumerate(lines, 1)
        if line.startswith(":") and line.split(":")[1].split("-")[0] in REGISTERED
    ]
    assert len(cases) >= 11
    for no, line in cases:
        result = run_case(line, no)
        assert result.supported and result.passed, result.summary_line()


@pytest.mark.parametrize(("line_no", "size", "finned"), ENGINE_CASES)
def test_engine_finds_library_steps(
    puzzles_dir: Path, line_no: int, size: int, finned: bool
) -> None:
    """Every size through the engine, Siamese cases (03411, 03421) included."""
    parts = library_lines(puzzles_dir)[line_no - 1].split(":")
    grid = parse_state(parts[3], parts[4])
    expected = sorted(parse_candidate_list(parts[5]))
    (solution,) = solutions(grid.values, limit=2)
    found = list(find_franken_fish(size, finned)(grid))
    for step in found:
        assert_step_sound(step, grid, solution)
    assert any(sorted(s.eliminations) == expected for s in found)


def test_franken_x_wing_hand_made() -> None:
    """Row 1 and box 5 hold their 1 in columns 1 and 5, so each column has its 1 there."""
    grid = only(1, "r1c1 r1c5 r4c5 r6c5 r7c1 r8c5")
    steps = list(TECHNIQUES["franken-x-wing"].find(grid))
    step = next(s for s in steps if s.houses == (0, 22, 9, 13))
    assert step.eliminations == ((54, 1), (67, 1))
    assert step.cells == (0, 4, 31, 49)
    assert step.extra == ()
    assert step.text == (
        "Franken X-Wing on 1: every 1 of row 1, box 5 lies in column 1, column 5; each of "
        "those houses takes one of them, so r7c1, r8c5 <> 1"
    )
    # the same base also fits column 5 plus box 1: a Siamese pair with both eliminations
    siamese = [s for s in steps if s.houses == (0, 22, 9, 13, 13, 18)]
    assert siamese and siamese[0].text.startswith("Siamese Franken X-Wing on 1")
    assert not list(TECHNIQUES["finned-franken-x-wing"].find(only(1, "r1c1 r1c5")))


def test_finned_franken_x_wing_hand_made() -> None:
    """A fin r1c2 in box 1: either the fish holds or r1c2 is 1; r2c1 sees both ways."""
    grid = only(1, "r1c1 r1c2 r1c5 r4c5 r6c5 r2c1 r8c5 r7c1")
    steps = list(TECHNIQUES["finned-franken-x-wing"].find(grid))
    step = next(s for s in steps if s.houses == (0, 22, 9, 13))
    assert step.eliminations == ((9, 1),)
    assert step.extra == (1,)
    assert step.text == (
        "Finned Franken X-Wing on 1: every 1 of row 1, box 5 lies in column 1, column 5 "
        "apart from the fin r1c2; either the fish holds or r1c2 is 1, so cells that also "
        "see r1c2 lose it: r2c1 <> 1"
    )
    assert describe_franken_fish(step) == step.text


def library_step(puzzles_dir: Path, line_no: int, tech: str) -> Step:
    parts = library_lines(puzzles_dir)[line_no - 1].split(":")
    grid = parse_state(parts[3], parts[4])
    expected = sorted(parse_candidate_list(parts[5]))
    return next(s for s in TECHNIQUES[tech].find(grid) if sorted(s.eliminations) == expected)


def test_franken_swordfish_library_step_and_text(puzzles_dir: Path) -> None:
    step = library_step(puzzles_dir, 403, "franken-swordfish")
    assert step.houses == (9, 17, 19, 0, 2, 4)
    assert step.text == (
        "Franken Swordfish on 9: every 9 of column 1, column 9, box 2 lies in row 1, row 3, "
        "row 5; each of those houses takes one of them, so r1c3 <> 9"
    )


def test_finned_franken_swordfish_library_step_and_text(puzzles_dir: Path) -> None:
    step = library_step(puzzles_dir, 411, "finned-franken-swordfish")
    assert step.houses == (11, 16, 25, 1, 3, 8)
    assert step.extra == (67,)
    assert step.text == (
        "Finned Franken Swordfish on 5: every 5 of column 3, column 8, box 8 lies in row 2, "
        "row 4, row 9 apart from the fin r8c5; either the fish holds or r8c5 is 5, so cells "
        "that also see r8c5 lose it: r2c5, r4c5 <> 5"
    )
    two_fins = only(1, "r1c1 r1c2 r1c5 r4c5 r6c5 r2c1 r8c5 r7c1")
    step = next(s for s in TECHNIQUES["finned-franken-x-wing"].find(two_fins) if len(s.extra) == 2)
    assert "apart from the fins " in step.text and "one of the fins is 1" in step.text


def test_every_instance_sound_on_hard_solve_paths(puzzles_dir: Path) -> None:
    """Every registered instance on every state of solving hard puzzles, and the
    Jellyfish engine on one state a third of the way along each path."""
    checked = dict.fromkeys(sorted(set(REGISTERED.values())), 0)
    for name, count in (("sets/top1465.txt", 3), ("norvig/sudokus_hard.txt", 2)):
        for _, text in islice(read_puzzle_file(puzzles_dir / name), count):
            values = parse_values(text)
            (solution,) = solutions(values, limit=2)
            grid = Grid(values)
            steps = solve(values).steps
            for index, step in enumerate(steps):
                for tech in checked:
                    for found in TECHNIQUES[tech].find(grid):
                        assert_step_sound(found, grid, solution)
                        assert found.text
                        checked[tech] += 1
                if index == len(steps) // 3:
                    for finned in (False, True):
                        for found in find_franken_fish(4, finned)(grid):
                            assert_step_sound(found, grid, solution)
                step.apply(grid)
    assert checked["franken-x-wing"] > 0 and checked["finned-franken-swordfish"] > 0, checked


def test_cost_on_stuck_states(puzzles_dir: Path) -> None:
    """The registered sizes stay cheap where the solve loop reaches them."""
    techniques = [t for t in ORDER if not t.id.startswith(("franken", "finned-franken"))]
    worst = 0.0
    for _, text in islice(read_puzzle_file(puzzles_dir / "sets/top1465.txt"), 3):
        grid = solve(parse_values(text), techniques=techniques[:40]).grid
        start = time.process_time()
        list(TECHNIQUES["franken-x-wing"].find(grid))
        list(TECHNIQUES["franken-swordfish"].find(grid))
        worst = max(worst, time.process_time() - start)
    assert worst < 0.4  # about 30 ms on a quiet machine; generous for a shared one
