"""Almost locked sets and Sue de Coq: HoDoKu library cases, worked examples, soundness."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from solver import Grid, parse_values, solve
from solver.grid import cell_name
from solver.parse import parse_state, read_puzzle_file
from solver.reglib import run_case
from solver.search import solutions
from solver.steps import Role
from solver.techniques import BY_HODOKU, TECHNIQUES
from solver.techniques.als import als_groups, als_index

from .checks import assert_step_sound

CODES = ("0901", "0902", "0903", "0904", "1101")
INSTANCES_PER_STATE = 60
OURS = ("als-xz", "als-xy-wing", "als-chain", "death-blossom", "sue-de-coq")


def _library_lines(puzzles_dir: Path) -> list[tuple[int, str]]:
    text = (puzzles_dir / "hodoku-reglib-dev.txt").read_text(encoding="utf-8")
    return [
        (n, line)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.startswith(":") and line[1:5] in CODES and line[1:5] in BY_HODOKU
    ]


def test_library_cases_pass(puzzles_dir: Path) -> None:
    lines = _library_lines(puzzles_dir)
    codes = {line[1:5] for _, line in lines}
    assert {"0901", "0902", "0904", "1101"} <= codes
    assert len(lines) >= 50
    failed = [run_case(line, n).summary_line() for n, line in lines if not run_case(line, n).passed]
    assert not failed, "\n".join(failed)


def _state(case: str) -> Grid:
    fields = case.split(":")
    return parse_state(fields[3], fields[4])


# Library states (givens, deleted candidates) used as worked examples.
XZ_CASE = (
    ":0901-1:7:.........2.....3495...3926..9.........41..+98....598..4..182...6......7....3..6...:"
    "111 711 811 112 712 812 713 813 714 515 715 516 716 722 625 725 726 739 341 744 348 "
    "162 589 794:752::"
)
XZ2_CASE = (
    ":0901-2:12479:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1+3.."
    "23.....:111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 972 "
    "985 986 791 792 895 995 196 896 996:141 149 151 153 161 162 163 212 413 463 725 925 926::"
)
XY_CASE = (
    ":0902-1:7:+8...43..+1.+3+1.5+7..8.721......9+3+5+1......5....1.18.3..........1.67..7..91..3"
    "+1+8+76592+4:441 247 451 254 454 854 255 257 265 267 471 274 875 481 284 885:768::"
)
CHAIN_CASE = (
    ":0903-1:69:..+1.3+7......2+1+8.577.....81.1.9+3+65....6..+74.3.....82.....87....44.....+78"
    "..37+8+415..:212 412 914 932 533 934 939 277 677 977 582 984 289 689 989:611 911 912 927::"
)
DB_CASE = (
    ":0904-1:9:8+7+14..6..5+42...7..+93+6+8+57+42+1.28.7.+3.....3.6+2....+3+21.54..1.7..+93.+3.9..."
    "8+72.+87..3+1.4:915 919 924 929 641 946 948 958 959 669 475 675 476 584 694:966::"
)
SDC_CASE = (
    ":1101:14678:3....9742...5..6+8........1+5.......611.986.........3.....1.2.+53+6.4...5+1+975"
    ".....+428::125 476 634 776 796 835::"
)


def test_als_xz_example() -> None:
    step = next(TECHNIQUES["als-xz"].find(_state(XZ_CASE)))
    assert step.eliminations == ((37, 7),)
    assert [(cells, digits) for cells, digits, _ in als_groups(step)] == [
        ((36, 40), (3, 6, 7)),
        ((45, 46, 47, 51), (1, 2, 3, 6, 7)),
    ]
    assert step.digits == (3,)
    assert step.text == (
        "ALS-XZ: r5c1, r5c5 {367} and r6c1, r6c2, r6c3, r6c7 {12367} are almost locked sets; "
        "3 is a restricted common (it can be in only one of them), so the other set is locked "
        "and 7, found in both, must be in one of the two: r5c2 <> 7"
    )


def test_als_xz_doubly_linked_example() -> None:
    step = next(TECHNIQUES["als-xz"].find(_state(XZ2_CASE)))
    assert step.digits == (2, 4)
    assert [cell_name(c) for c in step.cells] == ["r2c2", "r2c3", "r2c9", "r4c2", "r4c3"]
    assert len(step.eliminations) == 13
    assert "2 and 4 are both restricted commons" in step.text
    assert step.text.endswith("r4c1, r4c9, r5c1, r5c3, r6c1, r6c2 <> 1; r6c3 <> 1, 4")


def test_als_xy_wing_example() -> None:
    step = next(TECHNIQUES["als-xy-wing"].find(_state(XY_CASE)))
    assert step.eliminations == ((52, 7),)
    groups = als_groups(step)
    assert [digits for _, digits, _ in groups] == [(7, 8, 9), (6, 8), (3, 4, 5, 6, 7, 9)]
    assert [links for _, _, links in groups] == [(8,), (6,), ()]
    assert step.text == (
        "ALS-XY-Wing: pivot set r3c6 {68} shares the restricted common 8 with r3c5, r6c5 "
        "{789} and 6 with r1c8, r2c8, r3c7, r3c8, r3c9 {345679}; the pivot holds one of them, "
        "so one outer set is locked and 7 is in one of the outer sets: r6c8 <> 7"
    )


def test_als_chain_example() -> None:
    step = next(TECHNIQUES["als-chain"].find(_state(CHAIN_CASE)))
    assert step.elimination_strings() == ["r1c1<>6", "r1c1<>9", "r1c2<>9", "r2c7<>9"]
    assert [links for _, _, links in als_groups(step)] == [(5,), (6,), (2,), ()]
    assert step.text == (
        "ALS-Chain: r1c4, r1c7, r1c8, r1c9 {24569} -5- r8c4 {56} -6- r5c3, r8c3 {256} -2- "
        "r2c1, r2c2, r2c3, r3c3 {23469} (sets joined by restricted commons); a first set "
        "without one of 6/9 is locked, and so, link by link, is every set down the chain, so "
        "each of them is in the first or the last set: r1c1 <> 6, 9; r1c2, r2c7 <> 9"
    )


def test_death_blossom_example() -> None:
    step = next(TECHNIQUES["death-blossom"].find(_state(DB_CASE)))
    assert step.eliminations == ((50, 9),)
    assert step.marked_cells(Role.STEM) == (68,) and step.digits == (1, 4, 5)
    assert step.text == (
        "Death Blossom: stem r8c6 {145} with one petal per candidate (1: r2c6 {19}; "
        "4: r4c4, r4c6 {459}; 5: r6c2, r8c2 {569}); whatever the stem holds, that petal "
        "loses the digit and is locked, so 9 is in one of the petals: r6c6 <> 9"
    )


def test_sue_de_coq_example() -> None:
    step = next(TECHNIQUES["sue-de-coq"].find(_state(SDC_CASE)))
    assert step.elimination_strings() == [
        "r2c5<>1", "r3c4<>6", "r3c5<>8", "r7c6<>4", "r7c6<>7", "r9c6<>7"
    ]  # fmt: skip
    assert step.houses == (14, 19) and step.digits == (1, 2, 4, 6, 7, 8)
    assert step.text == (
        "Sue de Coq: r2c6, r3c6 {124678} at the crossing of column 6 and box 2, with r4c6, "
        "r5c6 {247} in column 6 and r1c4, r1c5 {168} in box 2: together these cells need "
        "every one of their digits, so each digit is confined to its set's house: "
        "r2c5 <> 1; r3c4 <> 6; r3c5 <> 8; r7c6 <> 4, 7; r9c6 <> 7"
    )


def test_index_is_cached_and_sets_are_almost_locked() -> None:
    grid = _state(XZ_CASE)
    index = als_index(grid)
    assert als_index(grid) is index
    for als in index.alses:
        assert len(als.cells) + 1 == bin(als.mask).count("1")
        houses = {h for h in range(27) if all(c in _house(h) for c in als.cells)}
        assert als.house in houses
    grid.eliminate(0, next(d for d in range(1, 10) if grid.candidates[0] >> (d - 1) & 1))
    assert als_index(grid) is not index  # a new state, a new index


def _house(h: int) -> tuple[int, ...]:
    from solver.grid import HOUSES

    return HOUSES[h]


@pytest.mark.parametrize(
    ("name", "count"), [("sets/top1465.txt", 4), ("norvig/sudoku-top95.txt", 3)]
)
@pytest.mark.slow
def test_every_instance_sound_on_hard_puzzles(puzzles_dir: Path, name: str, count: int) -> None:
    """Instances of every ALS / Sue de Coq finder, on every state of the solve path (all
    of them but on the densest early states, where a full chain search is slow)."""
    finders = [TECHNIQUES[t] for t in OURS if t in TECHNIQUES]
    checked = 0
    for _, text in islice(read_puzzle_file(puzzles_dir / name), count):
        values = parse_values(text)
        (solution,) = solutions(values, limit=2)
        grid = Grid(values)
        for step in solve(values).steps:
            for tech in finders:
                for found in islice(tech.find(grid), INSTANCES_PER_STATE):
                    assert found.technique == tech.id
                    assert_step_sound(found, grid, solution)
                    checked += 1
            step.apply(grid)
    assert checked > 100
