"""Franken fish (HoDoKu 0330, 0331, 0340, 0341, 03411 in the default order; Jellyfish
0332, 0342, 03421 off by default) and Mutant fish (0350-0352, 0360-0364, 03621, all off by
default): library cases, exact steps and texts, soundness on hard solve paths, cost on
stuck states, and ``logic --with`` to switch them on."""

from __future__ import annotations

import time
from itertools import islice
from pathlib import Path

import pytest

from pipeline.cli import _solve_order, main
from solver import Grid, parse_values, solve
from solver.errors import ExitCode
from solver.grid import BIT
from solver.parse import parse_candidate_list, parse_state, read_puzzle_file
from solver.reglib import run_case
from solver.search import solutions
from solver.solve import next_step
from solver.steps import Role, Step
from solver.techniques import ALL_TECHNIQUES, BY_HODOKU, ORDER, TECHNIQUES
from solver.techniques.fish.franken import describe_franken_fish, find_franken_fish
from solver.techniques.fish.mutant import describe_mutant_fish, find_mutant_fish

from .checks import assert_step_sound

REGISTERED = {
    "0330": "franken-x-wing",
    "0340": "finned-franken-x-wing",
    "0331": "franken-swordfish",
    "0341": "finned-franken-swordfish",
    "03411": "finned-franken-swordfish",
}
# Off by default (HoDoKu ships them switched off too): reglib still runs them.
OFF_BY_DEFAULT = {
    "0332": "franken-jellyfish",
    "0342": "finned-franken-jellyfish",
    "03421": "finned-franken-jellyfish",
    "0350": "mutant-x-wing",
    "0351": "mutant-swordfish",
    "0352": "mutant-jellyfish",
    "0360": "finned-mutant-x-wing",
    "0361": "finned-mutant-swordfish",
    "0362": "finned-mutant-jellyfish",
    "03621": "finned-mutant-jellyfish",
    "0363": "finned-mutant-squirmbag",
    "0364": "finned-mutant-whale",
}
MUTANTS = sorted({t for t in OFF_BY_DEFAULT.values() if "mutant" in t})
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


def alone(digit: int, cells: str) -> Grid:
    """As :func:`only`, with no other digit anywhere: the larger fish searches cost
    nothing on the other digits."""
    grid = only(digit, cells)
    for c in range(81):
        grid.candidates[c] &= BIT[digit]
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


def test_off_by_default_but_registered() -> None:
    order = {t.id for t in ORDER}
    position = {t.id: i for i, t in enumerate(ALL_TECHNIQUES)}
    for code, tech in OFF_BY_DEFAULT.items():
        assert BY_HODOKU[code].id == tech and not TECHNIQUES[tech].default
        assert tech not in order
        assert position["finned-franken-swordfish"] < position[tech]
        assert position[tech] < position["forcing-chain-contradiction"]


@pytest.mark.parametrize("codes", [REGISTERED, OFF_BY_DEFAULT], ids=["default", "off"])
def test_library_cases_pass(puzzles_dir: Path, codes: dict[str, str]) -> None:
    """Every library case of a claimed code passes (the Mutant ones are 0362, 03621, 0363
    and 0364: seven cases; Franken Jellyfish has twelve)."""
    lines = library_lines(puzzles_dir)
    cases = [
        (no, line)
        for no, line in enumerate(lines, 1)
        if line.startswith(":") and line.split(":")[1].split("-")[0] in codes
    ]
    assert len(cases) >= (11 if codes is REGISTERED else 19)
    for no, line in cases:
        result = run_case(line, no)
        assert result.supported and result.passed, result.summary_line()
        parts = line.split(":")
        grid = parse_state(parts[3], parts[4])
        (solution,) = solutions(grid.values, limit=2)
        for step in result.instances:
            assert_step_sound(step, grid, solution)


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
    assert step.marked == ()
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
    assert step.marked_cells(Role.FIN) == (1,)
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
    assert step.marked_cells(Role.FIN) == (67,)
    assert step.text == (
        "Finned Franken Swordfish on 5: every 5 of column 3, column 8, box 8 lies in row 2, "
        "row 4, row 9 apart from the fin r8c5; either the fish holds or r8c5 is 5, so cells "
        "that also see r8c5 lose it: r2c5, r4c5 <> 5"
    )
    two_fins = only(1, "r1c1 r1c2 r1c5 r4c5 r6c5 r2c1 r8c5 r7c1")
    step = next(
        s
        for s in TECHNIQUES["finned-franken-x-wing"].find(two_fins)
        if len(s.marked_cells(Role.FIN)) == 2
    )
    assert "apart from the fins " in step.text and "one of the fins is 1" in step.text


def test_mutant_x_wing_hand_made() -> None:
    """Row 1 keeps its 1 in box 1 and column 9 in box 6: a row and a column as base,
    two boxes as cover (HoDoKu calls any fish with rows and columns on one side Mutant)."""
    grid = alone(1, "r1c1 r1c2 r5c9 r6c9 r2c3 r4c8")
    (step,) = [s for s in TECHNIQUES["mutant-x-wing"].find(grid) if s.houses == (0, 17, 18, 23)]
    assert step.eliminations == ((11, 1), (34, 1))
    assert step.cells == (0, 1, 44, 53) and step.marked == ()
    assert step.text == (
        "Mutant X-Wing on 1: every 1 of row 1, column 9 lies in box 1, box 6; each of those "
        "houses takes one of them, so r2c3, r4c8 <> 1"
    )
    finned = TECHNIQUES["finned-mutant-x-wing"].find(grid)
    assert not [s for s in finned if s.houses == step.houses]


def test_finned_mutant_x_wing_hand_made() -> None:
    """A fin r2c9 in column 9: either the fish holds or r2c9 is 1; r2c3 sees both ways,
    r4c8 does not."""
    grid = alone(1, "r1c1 r1c2 r5c9 r6c9 r2c9 r2c3 r4c8")
    steps = list(TECHNIQUES["finned-mutant-x-wing"].find(grid))
    (step,) = [s for s in steps if s.houses == (0, 17, 18, 23)]
    assert step.eliminations == ((11, 1),)
    assert step.marked_cells(Role.FIN) == (17,)
    assert step.text == (
        "Finned Mutant X-Wing on 1: every 1 of row 1, column 9 lies in box 1, box 6 apart "
        "from the fin r2c9; either the fish holds or r2c9 is 1, so cells that also see r2c9 "
        "lose it: r2c3 <> 1"
    )
    assert describe_mutant_fish(step) == step.text
    assert not [s for s in TECHNIQUES["mutant-x-wing"].find(grid) if s.houses == step.houses]


def test_mutant_swordfish_and_jellyfish_hand_made() -> None:
    """The X-Wing's pattern with one more base and cover house per size."""
    grid = alone(1, "r1c1 r1c2 r5c9 r6c9 r8c4 r8c5 r2c3 r4c8 r9c6")
    (step,) = [
        s for s in find_mutant_fish(3, finned=False)(grid) if s.houses == (0, 7, 17, 18, 23, 25)
    ]
    assert step.eliminations == ((11, 1), (34, 1), (77, 1))
    assert step.text.startswith("Mutant Swordfish on 1: every 1 of row 1, row 8, column 9 ")
    grid = alone(1, "r1c1 r1c2 r5c9 r6c9 r8c4 r8c5 r4c4 r4c6 r2c3 r5c5 r6c7 r9c6")
    (step,) = [
        s
        for s in find_mutant_fish(4, finned=False)(grid)
        if s.houses == (0, 3, 7, 17, 18, 22, 23, 25)
    ]
    assert step.eliminations == ((11, 1), (40, 1), (51, 1), (77, 1))
    assert step.text.startswith("Mutant Jellyfish on 1: every 1 of row 1, row 4, row 8, column 9 ")


@pytest.mark.parametrize(
    ("line_no", "tech", "houses", "fins", "text"),
    [
        (405, "franken-jellyfish", (0, 1, 4, 24, 9, 10, 13, 15), (),
         "Franken Jellyfish on 8: every 8 of row 1, row 2, row 5, box 7 lies in column 1, "
         "column 2, column 5, column 7; each of those houses takes one of them, so r3c2, "
         "r3c5, r3c7, r4c1, r4c2, r6c2, r6c5, r6c7 <> 8"),
        (417, "finned-franken-jellyfish", (1, 5, 8, 18, 11, 13, 14, 16), (12, 19),
         "Finned Franken Jellyfish on 9: every 9 of row 2, row 6, row 9, box 1 lies in "
         "column 3, column 5, column 6, column 8 apart from the fins r2c4, r3c2; either the "
         "fish holds or one of the fins is 9, so cells seeing every fin lose it: r3c5 <> 9"),
        (426, "finned-mutant-jellyfish", (2, 5, 9, 13, 0, 7, 14, 21), (26,),
         "Finned Mutant Jellyfish on 4: every 4 of row 3, row 6, column 1, column 5 lies in "
         "row 1, row 8, column 6, box 4 apart from the fin r3c9; either the fish holds or "
         "r3c9 is 4, so cells that also see r3c9 lose it: r1c9 <> 4"),
        (431, "finned-mutant-squirmbag", (2, 4, 7, 9, 15, 0, 3, 10, 12, 20), (9, 18, 20, 65),
         "Finned Mutant Squirmbag on 9: every 9 of row 3, row 5, row 8, column 1, column 7 "
         "lies in row 1, row 4, column 2, column 4, box 3 apart from the fins r2c1, r3c1 (in "
         "two base houses), r3c3, r8c3; either the fish holds or one of the fins is 9, so "
         "cells seeing every fin lose it: r1c3 <> 9"),
        (432, "finned-mutant-whale", (2, 4, 6, 10, 16, 17, 5, 8, 12, 15, 18, 20), (54, 55),
         "Finned Mutant Whale on 4: every 4 of row 3, row 5, row 7, column 2, column 8, "
         "column 9 lies in row 6, row 9, column 4, column 7, box 1, box 3 apart from the fins "
         "r7c1, r7c2 (in two base houses); either the fish holds or one of the fins is 4, so "
         "cells seeing every fin lose it: r9c1 <> 4"),
    ],
)  # fmt: skip
def test_library_step_and_text(
    puzzles_dir: Path,
    line_no: int,
    tech: str,
    houses: tuple[int, ...],
    fins: tuple[int, ...],
    text: str,
) -> None:
    """HoDoKu's own fish (the same base, cover and fins), told in words."""
    step = library_step(puzzles_dir, line_no, tech)
    assert step.houses == houses and step.marked_cells(Role.FIN) == fins
    assert step.text == text


def _hard_paths(puzzles_dir: Path) -> list[tuple[list[Grid], list[int]]]:
    """States along the solve paths of hard puzzles (without the last-resort techniques,
    which cost most and add nothing here), with each puzzle's solution."""
    techniques = [t for t in ORDER if t.family != "last-resort"]
    paths = []
    for name, count in (("sets/top1465.txt", 3), ("norvig/sudokus_hard.txt", 2)):
        for _, text in islice(read_puzzle_file(puzzles_dir / name), count):
            values = parse_values(text)
            (solution,) = solutions(values, limit=2)
            grid = Grid(values)
            states = [grid.copy()]
            for step in solve(values, techniques=techniques).steps:
                step.apply(grid)
                states.append(grid.copy())
            paths.append((states, list(solution)))
    return paths


@pytest.mark.slow
def test_every_instance_sound_on_hard_solve_paths(puzzles_dir: Path) -> None:
    """Every instance of the sizes up to three on every state of hard solve paths; the
    Jellyfish half way and at the stuck end of each path, the Squirmbag and Whale at the
    stuck end of two top1465 paths (where they find the most)."""
    small = [*sorted(set(REGISTERED.values())), *(t for t in MUTANTS if "x-wing" in t or
             "swordfish" in t)]  # fmt: skip
    jellyfish = [t for t in sorted(set(OFF_BY_DEFAULT.values())) if "jellyfish" in t]
    largest = ["finned-mutant-squirmbag", "finned-mutant-whale"]
    checked = dict.fromkeys(small + jellyfish + largest, 0)
    for number, (states, solution) in enumerate(_hard_paths(puzzles_dir)):
        end = len(states) - 1
        for index, grid in enumerate(states):
            techs = small + (jellyfish if index in (end // 2, end) else [])
            techs += largest if index == end and number < 2 else []
            for tech in techs:
                for found in TECHNIQUES[tech].find(grid):
                    assert_step_sound(found, grid, solution)
                    assert found.text
                    checked[tech] += 1
    assert checked["franken-x-wing"] > 0 and checked["finned-franken-swordfish"] > 0, checked
    assert checked["finned-mutant-jellyfish"] > 0 and checked["finned-mutant-squirmbag"] > 0


def test_cost_on_stuck_states(puzzles_dir: Path) -> None:
    """The default sizes stay cheap where the solve loop reaches them; the Mutant
    Jellyfish (off by default) within a few times a Franken Jellyfish."""
    techniques = [t for t in ORDER if not t.id.startswith(("franken", "finned-franken"))]
    worst = worst_mutant = 0.0
    for _, text in islice(read_puzzle_file(puzzles_dir / "sets/top1465.txt"), 3):
        grid = solve(parse_values(text), techniques=techniques[:40]).grid
        start = time.process_time()
        list(TECHNIQUES["franken-x-wing"].find(grid))
        list(TECHNIQUES["franken-swordfish"].find(grid))
        worst = max(worst, time.process_time() - start)
        start = time.process_time()
        list(TECHNIQUES["mutant-jellyfish"].find(grid))
        worst_mutant = max(worst_mutant, time.process_time() - start)
    assert worst < 0.4  # about 30 ms on a quiet machine; generous for a shared one
    assert worst_mutant < 2.0  # about 0.1-0.3 s


def _stuck_state(puzzles_dir: Path, index: int) -> Grid:
    techniques = [t for t in ORDER if t.family != "last-resort"]
    _, text = next(islice(read_puzzle_file(puzzles_dir / "sets/top1465.txt"), index, None))
    return solve(parse_values(text), techniques=techniques).grid


def test_with_adds_techniques_in_registry_order(puzzles_dir: Path) -> None:
    order = _solve_order(["finned-mutant-jellyfish", "franken-jellyfish"])
    ids = [t.id for t in order]
    assert ids == [t.id for t in ALL_TECHNIQUES if t.default or t.id in ids]
    assert ids.index("franken-jellyfish") < ids.index("finned-mutant-jellyfish")
    assert len(ids) == len(ORDER) + 2
    assert _solve_order([]) == ORDER
    # top1465 #2 gets stuck before the last resort; the Mutant Jellyfish comes first then
    stuck = _stuck_state(puzzles_dir, 1)
    step = next_step(stuck, _solve_order(["finned-mutant-jellyfish"]))
    assert step is not None and step.technique == "finned-mutant-jellyfish"
    assert step.text.startswith("Finned Mutant Jellyfish on 2: every 2 of row 1, row 5, ")


def test_with_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    assert main(["logic", easy, "--with", "mutant-x-wing", "--with", "finned-mutant-whale"]) == 0
    assert "status: solved" in capsys.readouterr().out
    assert main(["logic", easy, "--with", "no-such-fish"]) == ExitCode.BAD_ARGS
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("sudoku-scan: error: --with: unknown technique")
    assert "'no-such-fish'" in err[0] and "finned-mutant-whale" in err[0]
