"""Finned/Sashimi fish, Siamese fish, Dual kites and rectangles, Multi-Colours (and the
generic Franken/Mutant fish): HoDoKu's library cases, exact steps and texts, soundness."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from solver import Grid, parse_values, solve
from solver.grid import BIT
from solver.parse import parse_candidate_list, parse_state, read_puzzle_file
from solver.reglib import run_case, run_file
from solver.search import solutions
from solver.steps import Role, Step, mark
from solver.techniques import BY_HODOKU, TECHNIQUES
from solver.techniques.fish.franken import describe_franken_fish, find_franken_fish

from .checks import assert_step_sound, matches_schema

OUR_CODES = {
    "0310": "finned-x-wing",
    "0311": "finned-swordfish",
    "03111": "finned-swordfish",
    "0312": "finned-jellyfish",
    "03121": "finned-jellyfish",
    "0320": "sashimi-x-wing",
    "0321": "sashimi-swordfish",
    "03211": "sashimi-swordfish",
    "0322": "sashimi-jellyfish",
    "03221": "sashimi-jellyfish",
    "0404": "dual-two-string-kite",
    "0405": "dual-empty-rectangle",
    "0502": "multi-colours-1",
    "0503": "multi-colours-2",
}


def only(digit: int, cells: str) -> Grid:
    """An empty grid where ``digit`` is a candidate only in ``cells`` (``r1c2 r5c8 ...``)."""
    grid = Grid([0] * 81)
    keep = {(int(n[1]) - 1) * 9 + int(n[3]) - 1 for n in cells.split()}
    for c in range(81):
        if c not in keep:
            grid.candidates[c] &= ~BIT[digit]
    return grid


def library_step(puzzles_dir: Path, line_no: int) -> tuple[str, Step]:
    """The instance matching a library line's expected eliminations, and the line's code."""
    lines = (puzzles_dir / "hodoku-reglib-dev.txt").read_text().splitlines()
    result = run_case(lines[line_no - 1], line_no)
    assert result.passed, result.summary_line()
    expected = sorted(result.expected_eliminations)
    step = next(s for s in result.instances if sorted(s.eliminations) == expected)
    return result.technique, step


def test_codes_registered() -> None:
    for code, tech in OUR_CODES.items():
        assert BY_HODOKU[code].id == tech


def test_library_cases_pass(puzzles_dir: Path) -> None:
    results = [
        r
        for r in run_file(puzzles_dir / "hodoku-reglib-dev.txt")
        if r.technique.split("-")[0] in OUR_CODES
    ]
    failed = [r.summary_line() for r in results if not r.passed]
    assert not failed, "\n".join(failed)
    seen = {r.technique.split("-")[0] for r in results}
    assert seen == set(OUR_CODES)
    assert len(results) >= 66


def test_finned_x_wing_hand_made() -> None:
    grid = only(1, "r1c2 r1c8 r1c9 r5c2 r5c8 r2c8 r2c4 r3c8 r3c5 r7c2 r7c6 r8c8 r8c1")
    (step,) = TECHNIQUES["finned-x-wing"].find(grid)
    assert step == Step(
        "finned-x-wing",
        eliminations=((16, 1), (25, 1)),
        cells=(1, 7, 37, 43),
        houses=(0, 4, 10, 16),
        digits=(1,),
        marked=mark((Role.FIN, (8,))),
    )
    assert step.text == (
        "Finned X-Wing on 1: in rows 1, 5 it lies only in columns 2, 8 apart from the fin "
        "r1c9 in box 3; either the X-Wing holds or a fin is 1, so the cover cells of box 3 "
        "lose it: r2c8, r3c8 <> 1"
    )


def test_finned_fish_json_names_its_fins() -> None:
    """The JSON carries the fins by role, and the schema accepts the step."""
    grid = only(1, "r1c2 r1c8 r1c9 r5c2 r5c8 r2c8 r2c4 r3c8 r3c5 r7c2 r7c6 r8c8 r8c1")
    (step,) = TECHNIQUES["finned-x-wing"].find(grid)
    data = step.to_dict()
    assert data["marked"] == {"fins": ["r1c9"]}
    assert data["cells"] == ["r1c2", "r1c8", "r5c2", "r5c8"]
    assert "extra" not in data and "branch_lengths" not in data and "guesses" not in data
    matches_schema(data, "step")
    assert step.all_marked() == (8,)


def test_sashimi_x_wing_hand_made() -> None:
    grid = only(1, "r1c1 r1c8 r5c2 r5c8 r2c2 r2c6 r8c2 r8c4 r9c8 r9c5")
    (step,) = TECHNIQUES["sashimi-x-wing"].find(grid)
    assert step.eliminations == ((10, 1),)
    assert step.marked_cells(Role.FIN) == (0,) and step.houses == (0, 4, 10, 16)
    assert step.text == (
        "Sashimi X-Wing on 1: in rows 1, 5 it lies only in columns 2, 8 apart from the fin "
        "r1c1 in box 1; either the X-Wing holds or a fin is 1, so the cover cells of box 1 "
        "lose it: r2c2 <> 1"
    )


def test_finned_swordfish_hand_made() -> None:
    grid = only(2, "r1c1 r1c5 r2c5 r2c9 r2c7 r6c1 r6c9 r3c9 r3c4 r8c1 r8c3")
    (step,) = TECHNIQUES["finned-swordfish"].find(grid)
    assert step.eliminations == ((26, 2),)
    assert step.houses == (0, 1, 5, 9, 13, 17) and step.marked_cells(Role.FIN) == (15,)
    assert step.text.startswith(
        "Finned Swordfish on 2: in rows 1, 2, 6 it lies only in columns 1, 5, 9 apart from "
        "the fin r2c7 in box 3;"
    )


@pytest.mark.parametrize(
    ("line_no", "code", "text"),
    [
        (
            368,
            "0312",
            "Finned Jellyfish on 8: in rows 1, 3, 5, 8 it lies only in columns 4, 6, 8, 9 "
            "apart from the fin r8c7 in box 9; either the Jellyfish holds or a fin is 8, so "
            "the cover cells of box 9 lose it: r7c9 <> 8",
        ),
        (
            384,
            "0321",
            "Sashimi Swordfish on 6: in rows 1, 6, 9 it lies only in columns 1, 5, 8 apart "
            "from the fin r1c9 in box 3; either the Swordfish holds or a fin is 6, so the "
            "cover cells of box 3 lose it: r3c8 <> 6",
        ),
        (
            396,
            "0322",
            "Sashimi Jellyfish on 6: in rows 1, 6, 8, 9 it lies only in columns 1, 5, 7, 8 "
            "apart from the fin r1c9 in box 3; either the Jellyfish holds or a fin is 6, so "
            "the cover cells of box 3 lose it: r3c7 <> 6",
        ),
        (
            366,
            "03111",
            "Siamese Finned Swordfish on 5: in rows 1, 4, 8 it lies in columns 1, 8, 9 or in "
            "columns 2, 8, 9 apart from the fins r1c2, r4c1; each fish holds unless its fin "
            "is 5, so cover cells seeing the fins lose it: r2c1, r3c1, r6c2 <> 5",
        ),
        (
            473,
            "0405",
            "Dual empty rectangle: in box 3, 1 lies on a cross of one row and one column; "
            "with the strong links r1c3-r4c3 (column 3) and r3c1-r6c1 (column 1), "
            "r4c9, r6c8 <> 1",
        ),
        (
            486,
            "0502",
            "Multi-Colours 1: colouring two chains of strong links of 8 as {r2c3, r3c5} / "
            "{r2c4, r3c2} and {r5c2} / {r5c4}, a colour of one chain sees a colour of the "
            "other, so one of their two opposite colours holds 8; cells seeing both lose it: "
            "r2c4, r3c2, r4c3, r4c5, r6c3, r6c5 <> 8",
        ),
        (
            488,
            "0503",
            "Multi-Colours 2: colouring two chains of strong links of 8 as {r2c3, r3c5} / "
            "{r2c4, r3c2} and {r5c2} / {r5c4}, one colour sees both colours of the other "
            "chain, one of which holds 8, so it is false: r2c4, r3c2 <> 8",
        ),
    ],
)
def test_library_examples_text(puzzles_dir: Path, line_no: int, code: str, text: str) -> None:
    found_code, step = library_step(puzzles_dir, line_no)
    assert found_code == code
    assert step.technique == OUR_CODES[code]
    assert step.text == text


def test_siamese_combines_two_fish(puzzles_dir: Path) -> None:
    _, step = library_step(puzzles_dir, 366)
    assert step.houses == (0, 3, 7, 9, 16, 17, 10, 16, 17)  # base, then both cover sets
    assert step.marked_cells(Role.FIN) == (1, 27)  # the fins of both fish


def test_dual_two_string_kite_hand_made() -> None:
    grid = only(3, "r1c2 r1c7 r2c1 r6c1 r5c2 r2c5 r6c7 r5c5")
    steps = list(TECHNIQUES["dual-two-string-kite"].find(grid))
    assert steps[0] == Step(
        "dual-two-string-kite",
        eliminations=((40, 3), (51, 3)),
        cells=(6, 45, 13, 37),
        houses=(0, 9, 1, 10),
        digits=(3, 3),
        marked=mark((Role.END, (1, 9))),
    )
    assert steps[0].text == (
        "Dual 2-String Kite on 3: two kites meet in r1c2 and r2c1 (box 1); r1c7 or r6c1 is 3, "
        "and r2c5 or r5c2 is 3, so r5c5, r6c7 <> 3"
    )


def test_dual_kite_on_two_digits_like_hodoku(puzzles_dir: Path) -> None:
    """HoDoKu pairs kites by their box cells only, so a dual may mix two digits."""
    _, step = library_step(puzzles_dir, 472)
    assert step.digits == (3, 7)
    assert "Dual 2-String Kite on 3 and 7" in step.text


def test_finders_quiet_on_an_empty_grid() -> None:
    grid = Grid([0] * 81)
    for tech in set(OUR_CODES.values()):
        assert next(TECHNIQUES[tech].find(grid), None) is None


@pytest.mark.slow
def test_every_instance_sound_on_hard_solve_paths(puzzles_dir: Path) -> None:
    """Every instance of our finders, on every state of solving hard puzzles."""
    ids = sorted(set(OUR_CODES.values()))
    checked = dict.fromkeys(ids, 0)
    for name, count in (("sets/top1465.txt", 12), ("norvig/sudokus_hard.txt", 8)):
        for _, text in islice(read_puzzle_file(puzzles_dir / name), count):
            values = parse_values(text)
            (solution,) = solutions(values, limit=2)
            grid = Grid(values)
            for step in solve(values).steps:
                for tech in ids:
                    for found in islice(TECHNIQUES[tech].find(grid), 40):
                        assert_step_sound(found, grid, solution)
                        assert found.text
                        checked[tech] += 1
                step.apply(grid)
    # the fish and colouring finders all fire somewhere on these paths (duals are rare)
    assert all(checked[t] > 0 for t in ids if not t.startswith("dual-")), checked


@pytest.mark.parametrize(("line_no", "size", "finned"), [(403, 3, False), (408, 2, True)])
def test_franken_engine_library_cases(
    puzzles_dir: Path, line_no: int, size: int, finned: bool
) -> None:
    """The Franken engine finds the library's step (sizes 3 and 4 are not registered:
    too slow for the solve loop); its text names base, cover and fins."""
    fields = (puzzles_dir / "hodoku-reglib-dev.txt").read_text().splitlines()[line_no - 1]
    parts = fields.split(":")
    grid = parse_state(parts[3], parts[4])
    expected = sorted(parse_candidate_list(parts[5]))
    (solution,) = solutions(grid.values, limit=2)
    found = list(find_franken_fish(size, finned)(grid))
    for step in found:
        assert_step_sound(step, grid, solution)
    steps = [s for s in found if sorted(s.eliminations) == expected]
    assert steps
    text = describe_franken_fish(steps[0])
    assert text.startswith(("Franken", "Finned Franken", "Siamese"))
    assert ("apart from the fin" in text) == finned
