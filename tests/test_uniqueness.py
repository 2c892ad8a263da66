"""Uniqueness techniques: HoDoKu library cases, exact example steps, soundness, the switch."""

from __future__ import annotations

import json
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest

from pipeline.cli import main
from solver import ORDER, TECHNIQUES, Grid, hint, solve
from solver.generate import generate
from solver.parse import parse_state, read_puzzle_file
from solver.reglib import run_file
from solver.search import solutions
from solver.steps import Role, Step, mark

from .checks import assert_step_sound

CODES = ("0600", "0601", "0602", "0603", "0604", "0605", "0606", "0607", "0608", "0610")
UNIQUENESS = [t for t in ORDER if t.family == "uniqueness"]

# Puzzles of top1465 (0-based) whose logical solve uses uniqueness techniques.
TOP1465_USING = (0, 11, 12, 15, 20, 24, 33, 37, 38, 42, 70, 84)


def _library_state(line: str) -> Grid:
    fields = line.split(":")
    return parse_state(fields[3], fields[4], source="example")


def _values(text: str) -> list[int]:
    return [int(ch) if ch.isdigit() else 0 for ch in text.strip()[:81]]


def test_every_library_case_of_the_uniqueness_codes_passes(puzzles_dir: Path) -> None:
    results = [
        r
        for r in run_file(puzzles_dir / "hodoku-reglib-dev.txt")
        if r.technique.split("-")[0] in CODES
    ]
    assert all(r.supported for r in results)
    failed = [r.summary_line() for r in results if not r.passed]
    assert not failed, "\n".join(failed)
    per_code = Counter(r.technique.split("-")[0] for r in results)
    assert set(per_code) == set(CODES)  # 0609 has no case in the library
    assert len(results) >= 106
    assert any(r.technique.endswith("-x") for r in results)


# One library state per technique: the first instance found, exactly, and its text.
EXAMPLES = [
    (
        ":0600-1:23:+4+7.3..1.8+85.4...9.39.+86.+4.7+1342+8.+5.+9+2+8+5+1...+3+496+7+53+4..1+"
        "6+2871+3+9+45+5+1+3+9+42..+6+74+96+58.+1.::227 327::",
        Step(
            "unique-rectangle-1",
            eliminations=((15, 2), (15, 3)),
            cells=(15, 17, 78, 80),
            digits=(2, 3),
            marked=mark((Role.CORNER, (15,))),
        ),
        "Unique Rectangle Type 1: 2/3 in r2c7, r2c9, r9c7, r9c9; three corners hold only 2 "
        "and 3, so r2c7 taking either would make a deadly pattern (two solutions): "
        "r2c7 <> 2, 3",
    ),
    (
        ":0601-1:34:.9..+52+6+4.6..4+8..+53..5..628....8....4.1..+4......+4.27........341+8+1"
        "+865+743+92..9+21+8+576::711 713 722 723 734 739::",
        Step(
            "unique-rectangle-2",
            eliminations=((0, 7), (2, 7), (10, 7), (11, 7), (21, 7), (26, 7)),
            cells=(18, 19, 72, 73),
            digits=(3, 4, 7),
            marked=mark((Role.CORNER, (18, 19))),
        ),
        "Unique Rectangle Type 2: 3/4 in r3c1, r3c2, r9c1, r9c2; to avoid a deadly pattern "
        "(two solutions) one of r3c1, r3c2 must be 7, so every cell seeing them all loses "
        "it: r1c1, r1c3, r2c2, r2c3, r3c4, r3c9 <> 7",
    ),
    (
        ":0602-1:15:+7+1+3+4+5+862+9+4927+63..+8+8+6+51+9+2374+67158+9+4+3+2+9+5+42+3+7+8+612"
        "+386+4+1+7+9+5.8..+1.+24+71+47.+2.....+2..+74...::391::",
        Step(
            "unique-rectangle-3",
            eliminations=((72, 3),),
            cells=(15, 16, 78, 79),
            houses=(8,),
            digits=(1, 5, 3, 6, 8, 9),
            marked=mark((Role.CORNER, (78, 79)), (Role.SUBSET, (74, 75, 80))),
        ),
        "Unique Rectangle Type 3: 1/5 in r2c7, r2c8, r9c7, r9c8; to avoid a deadly pattern "
        "(two solutions) r9c7 or r9c8 holds a digit other than 1 and 5; with r9c3, r9c4, "
        "r9c9 they form a naked subset on 3, 6, 8 and 9 in row 9: r9c1 <> 3",
    ),
    (
        ":0603-1:48:+3+9+6+17+52+8481+4+29+63..5+27.+8.+1+6+9..+5+9.2..1+2.38.19..9.+16.+7..."
        "+1.+2+7+6.5+98..8.2+9+7137.9.1+8...:448 465 468 492 692 494:442 447::",
        Step(
            "unique-rectangle-4",
            eliminations=((28, 4), (33, 4)),
            cells=(28, 33, 46, 51),
            houses=(3,),
            digits=(8, 4),
            marked=mark((Role.CORNER, (28, 33))),
        ),
        "Unique Rectangle Type 4: 4/8 in r4c2, r4c7, r6c2, r6c7; 8 can only go in r4c2 or "
        "r4c7 within row 4, so one of them is 8 and neither may be 4, which would make a "
        "deadly pattern (two solutions): r4c2, r4c7 <> 4",
    ),
    (
        ":0604-1:26:+324+56+7+918..+9..+8.+3...+893+4.+5...+5+7.63.+9+9624+8+3+5+71.+37.5+9+8"
        "....+389+17..+7+96+34+2+185..1+6+7+5.+93:121 122 227 229 629 639 479:448::",
        Step(
            "unique-rectangle-5",
            eliminations=((34, 4),),
            cells=(52, 53, 61, 62),
            digits=(2, 6, 4),
            marked=mark((Role.CORNER, (52, 53, 61))),
        ),
        "Unique Rectangle Type 5: 2/6 in r6c8, r6c9, r7c8, r7c9; to avoid a deadly pattern "
        "(two solutions) one of r6c8, r6c9, r7c8 must be 4, so every cell seeing them all "
        "loses it: r4c8 <> 4",
    ),
    (
        ":0605-1:67:+173+2+8..+6+4+4..+13+6...+6.8...2+31+9+3+47+5+18+26+7..6284+932+8+6+3+94"
        "+15+75.9..+3...+34.......+8+6+75123+4+9::675 687::",
        Step(
            "unique-rectangle-6",
            eliminations=((58, 6), (69, 6)),
            cells=(58, 60, 67, 69),
            houses=(6, 7, 13, 15),
            digits=(6, 7),
            marked=mark((Role.CORNER, (58, 69))),
        ),
        "Unique Rectangle Type 6: 6/7 in r7c5, r7c7, r8c5, r8c7; 6 lies in rows 7, 8 and "
        "columns 5, 7 only on the corners (an X-Wing), so if r7c5 and r8c7 were 6 the other "
        "two corners would be 7, a deadly pattern (two solutions): r7c5, r8c7 <> 6",
    ),
    (
        ":0606-1:39:+39+4+6+821+5+7+6+1+873+5+42+952+7+4..+3+681+53.47..+6+4+7.+56+8.3+18+6.."
        "..+7+457+368.4..+29+4+5.....+3+2+81.....4::966::",
        Step(
            "hidden-rectangle",
            eliminations=((76, 9),),
            cells=(58, 60, 76, 78),
            houses=(8, 13),
            digits=(5, 9),
            marked=mark((Role.ANCHOR, (60,)), (Role.CORNER, (76,))),
        ),
        "Hidden Rectangle: 5/9 in r7c5, r7c7, r9c5, r9c7; r7c7 holds only these, and 5 "
        "appears in row 9 and column 5 only inside the rectangle, so r9c5=9 would force a "
        "deadly pattern (two solutions): r9c5 <> 9",
    ),
    (
        ":0607-1:25:..+8+9+3+1476+9+3+786+41+254+6+1+25+7.+8.3+1+2+4+7+9+5+6+87+4+5+38+6.1.+6"
        "+8912+5...+8.6+5+43.9+1.+9+371+86..+1.4+6+9+28..::257::",
        Step(
            "avoidable-rectangle-1",
            eliminations=((42, 2),),
            cells=(29, 33, 38, 42),
            digits=(2, 5),
            marked=mark((Role.CORNER, (42,))),
        ),
        "Avoidable Rectangle Type 1: r4c3=2, r4c7=5, r5c3=5 were solved, not given; r5c7=2 "
        "would complete a rectangle of 2 and 5 that could be swapped (two solutions): "
        "r5c7 <> 2",
    ),
    (
        ":0608-1:37:9+8....6+4+7..1..6+9387.6.8+9+5+1+2+1...+3.+476+3+741+6+2+8+5+9+65+8947+1"
        "2+32.....+3.5+8..25.+7.+4....9.+2.1:474 494:943 972 982::",
        Step(
            "avoidable-rectangle-2",
            eliminations=((29, 9), (55, 9), (64, 9)),
            cells=(56, 60, 65, 69),
            digits=(7, 3, 9),
            marked=mark((Role.CORNER, (56, 65))),
        ),
        "Avoidable Rectangle Type 2: r7c7=3, r8c7=7 were solved, not given; r7c3 (7/9) and "
        "r8c3 (3/9) would complete a swappable rectangle of 3 and 7 unless one is 9, so "
        "cells seeing both lose 9: r4c3, r7c2, r8c2 <> 9",
    ),
    (
        ":0610::.+9.+613.+8+4...2+5+7+1+393.184+92..968+5+7+1+42+3+4379+2+6+81+5+1..+3+84...."
        "..+1+9+2..8..9+435+67+1+51.+76+8..+2::373 673::",
        Step(
            "bug-plus-1",
            eliminations=((56, 3), (56, 6)),
            cells=(56,),
            houses=(6, 11, 24),
            digits=(4,),
        ),
        "BUG+1: every other empty cell has two candidates and every digit fits twice per "
        "house, except 4, three times in the houses of r7c3; without it the grid would have "
        "no or two solutions, so r7c3 must be 4: r7c3 <> 3, 6",
    ),
]


@pytest.mark.parametrize(("line", "expected", "text"), EXAMPLES, ids=lambda v: "")
def test_example_step_and_text(line: str, expected: Step, text: str) -> None:
    grid = _library_state(line)
    before = (grid.values[:], grid.candidates[:])
    tech = TECHNIQUES[expected.technique]
    step = next(tech.find(grid))
    assert step == expected
    assert step.text == text
    assert (grid.values, grid.candidates) == before  # finders never modify the grid
    assert tech.family == "uniqueness" and tech.level == "hard"


def _check_every_state(values: list[int]) -> Counter[str]:
    """All instances of every uniqueness finder on every state of the solve path."""
    (solution,) = solutions(values, limit=2)
    found: Counter[str] = Counter()
    grid = Grid(values)
    for step in solve(values).steps:
        for tech in UNIQUENESS:
            for s in tech.find(grid):
                assert s.technique == tech.id
                assert_step_sound(s, grid, solution)
                assert s.text
                found[tech.id] += 1
        step.apply(grid)
    return found


@pytest.mark.slow
def test_sound_on_every_state_of_hard_puzzles(puzzles_dir: Path) -> None:
    top = [text for _n, text in read_puzzle_file(puzzles_dir / "sets" / "top1465.txt")]
    hard = [text for _n, text in read_puzzle_file(puzzles_dir / "norvig" / "sudokus_hard.txt")]
    found: Counter[str] = Counter()
    for text in top[:30] + [top[i] for i in TOP1465_USING if i >= 30] + hard[:6]:
        found += _check_every_state(_values(text))
    # The states exercise most techniques, not only the first instance of each.
    assert len(found) >= 6, found


def test_bug_plus_1_needs_two_per_house() -> None:
    """A generated puzzle whose states once gave an unsound BUG+1 (a hidden single was
    taken for part of the grave)."""
    _check_every_state(generate(14, min_givens=20, symmetric=False))


def test_solve_uses_them_and_the_switch_leaves_them_out(puzzles_dir: Path) -> None:
    top = [text for _n, text in read_puzzle_file(puzzles_dir / "sets" / "top1465.txt")]
    values = _values(top[TOP1465_USING[0]])
    on = solve(values)
    assert any(TECHNIQUES[s.technique].family == "uniqueness" for s in on.steps)
    for i in TOP1465_USING[:4]:
        off = solve(_values(top[i]), uniqueness=False)
        assert all(TECHNIQUES[s.technique].family != "uniqueness" for s in off.steps)
    # The explicit technique list still works and is filtered the same way.
    off = solve(values, techniques=ORDER, uniqueness=False)
    assert all(TECHNIQUES[s.technique].family != "uniqueness" for s in off.steps)
    # hint: a state where a uniqueness step is the simplest one.
    grid = Grid(values)
    for step in on.steps:
        if TECHNIQUES[step.technique].family == "uniqueness":
            break
        step.apply(grid)
    assert hint(grid) == step
    other = hint(grid, uniqueness=False)
    assert other is None or TECHNIQUES[other.technique].family != "uniqueness"


def test_state_whose_givens_are_not_unique_gets_no_uniqueness_step(puzzles_dir: Path) -> None:
    """Uniqueness arguments swap digits in cells that are not givens: a pencil-mark state
    is unique, but if its givens alone are not, the techniques are left out."""
    top = [text for _n, text in read_puzzle_file(puzzles_dir / "sets" / "top1465.txt")]
    values = _values(top[TOP1465_USING[0]])
    grid = Grid(values)
    for step in solve(values).steps:
        if TECHNIQUES[step.technique].family == "uniqueness":
            break
        step.apply(grid)
    assert solve(grid).steps[0] == step
    loose = grid.copy()
    loose.givens = [False] * 81  # same state, but nothing was given
    result = solve(loose)
    assert not result.steps or result.steps[0] != step
    assert all(TECHNIQUES[s.technique].family != "uniqueness" for s in result.steps)
    other = hint(loose)
    assert other is None or TECHNIQUES[other.technique].family != "uniqueness"


def test_cli_no_uniqueness(puzzles_dir: Path) -> None:
    top = [text for _n, text in read_puzzle_file(puzzles_dir / "sets" / "top1465.txt")]
    puzzle = top[TOP1465_USING[0]].strip()[:81]
    for flag, expect_some in (([], True), (["--no-uniqueness"], False)):
        out = StringIO()
        main(["logic", puzzle, "--json", *flag], out=out)
        steps = json.loads(out.getvalue())["steps"]
        used = any(TECHNIQUES[s["technique"]].family == "uniqueness" for s in steps)
        assert used == expect_some
