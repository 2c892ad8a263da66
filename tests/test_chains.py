"""Nice loops and AICs: HoDoKu library cases, exact steps and texts, soundness on hard puzzles."""

from __future__ import annotations

from itertools import islice, pairwise
from pathlib import Path

import pytest

from solver import Grid, parse_values, solve
from solver.parse import parse_candidate_list, parse_state, read_puzzle_file
from solver.reglib import run_case
from solver.search import solutions
from solver.steps import Step
from solver.techniques import ORDER, TECHNIQUES
from solver.techniques.chains import loops
from solver.techniques.chains.loops import eureka, node_name

from .checks import assert_step_sound

CHAIN_IDS = (
    "continuous-nice-loop",
    "discontinuous-nice-loop",
    "aic",
    "grouped-continuous-nice-loop",
    "grouped-discontinuous-nice-loop",
    "grouped-aic",
)
# Grouped cases without ALS nodes (HoDoKu's 0709-2, 0710-3/4 and 0711-3/4 put ALS in chains).
GROUPED_CASES = {"0709-1": "grouped-continuous-nice-loop",
                 "0710-2": "grouped-discontinuous-nice-loop",
                 "0711-1": "grouped-aic", "0711-2": "grouped-aic"}  # fmt: skip


def _library(puzzles_dir: Path) -> list[tuple[int, str]]:
    text = (puzzles_dir / "hodoku-reglib-dev.txt").read_text()
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.startswith(":")]


def _case(puzzles_dir: Path, number: int) -> tuple[Grid, list[tuple[int, int]]]:
    line = dict(_library(puzzles_dir))[number]
    fields = line.split(":")
    return parse_state(fields[3], fields[4]), sorted(parse_candidate_list(fields[5]))


def test_every_plain_loop_and_aic_case_passes(puzzles_dir: Path) -> None:
    cases = [
        (n, line) for n, line in _library(puzzles_dir) if line[1:5] in ("0706", "0707", "0708")
    ]
    assert len(cases) == 54
    failed = [r.summary_line() for r in (run_case(line, n) for n, line in cases) if not r.passed]
    assert not failed, "\n".join(failed)


def _is_grouped(step: Step) -> bool:
    """A group node, or an ALS: an off node, then the same set on for another digit."""
    chain = step.chain
    return any(len(cells) > 1 for cells, _d, _on in chain) or any(
        not a[2] and b[2] and a[1] != b[1] and a[0] != b[0] for a, b in pairwise(chain)
    )


GROUPED_TECH = {"0709": "grouped-continuous-nice-loop",
                "0710": "grouped-discontinuous-nice-loop", "0711": "grouped-aic"}  # fmt: skip


def test_every_grouped_case_passes(puzzles_dir: Path) -> None:
    """All 69 grouped cases, ALS nodes of up to 5 cells included (0709-2, 0710-3/4,
    0711-3/4 and some 0710-1 put sets in chains); every instance is grouped."""
    cases = [(n, line) for n, line in _library(puzzles_dir) if line[1:5] in GROUPED_TECH]
    assert len(cases) == 69
    failed = []
    for number, line in cases:
        result = run_case(line, number)
        if not result.passed:
            failed.append(result.summary_line())
        assert all(_is_grouped(s) for s in result.instances)
    assert not failed, "\n".join(failed)


def test_solve_loop_never_runs_the_wide_search(puzzles_dir: Path) -> None:
    """The solve loop stops at the first technique with a step: the wider search (sets of
    4-5 cells) serves only a caller asking for more than the first search's steps."""
    runs = loops.SEARCHES
    before = dict(runs)
    # the registry asks the grouped techniques in the order the gate assumes
    assert tuple(t.id for t in ORDER if t.id.startswith("grouped-")) == loops.GROUPED_ORDER
    top = [text for _, text in read_puzzle_file(puzzles_dir / "sets" / "top1465.txt")]
    for text in (top[0], top[6]):
        steps = solve(parse_values(text)).steps
        assert any(s.technique.startswith("grouped-") for s in steps)
    wide = loops.WIDE_ALS_NODE_CELLS
    assert runs.get(loops.MAX_ALS_NODE_CELLS, 0) > before.get(loops.MAX_ALS_NODE_CELLS, 0)
    assert runs.get(wide, 0) == before.get(wide, 0)
    # line 697's loop needs a 4-cell set: only the wide search has it, and the first search
    # found a discontinuous loop (asked before continuous ones), so it is enumerated
    grid, expected = _case(puzzles_dir, 697)
    first = loops._search(grid, True)
    assert not any(sorted(s.eliminations) == expected for s in first)
    assert {s.technique for s in first} == {"grouped-discontinuous-nice-loop"}
    find = TECHNIQUES["grouped-continuous-nice-loop"].find
    assert any(sorted(s.eliminations) == expected for s in find(grid))
    assert runs.get(wide, 0) == before.get(wide, 0) + 1


def test_grouped_cases_without_als_pass_in_the_first_search(puzzles_dir: Path) -> None:
    checked = 0
    for number, line in _library(puzzles_dir):
        tech = GROUPED_CASES.get(line.split(":")[1])
        if tech is None:
            continue
        grid, expected = _case(puzzles_dir, number)
        # the first search finds them: no set of 4-5 cells is needed without ALS nodes
        steps = [s for s in loops._steps(grid, True) if s.technique == tech]
        assert any(sorted(s.eliminations) == expected for s in steps), f"line {number}"
        checked += 1
    assert checked == 6 + 7 + 7 + 8


def _only(steps: list[Step], expected: list[tuple[int, int]]) -> Step:
    (step,) = [s for s in steps if sorted(s.eliminations) == expected]
    return step


EXAMPLES = [
    (638, "continuous-nice-loop",
     "Continuous Nice Loop: (6)r1c8=(6)r1c4-(6)r3c6=(6)r5c6-(9)r5c6=(9)r5c5-(9)r1c5=(9)r1c8: "
     "the loop closes, so every weak link in it is strong as well: r1c8 <> 1, 7; "
     "r2c5, r3c5 <> 9; r5c6 <> 1, 2"),
    (649, "discontinuous-nice-loop",
     "Discontinuous Nice Loop: (1)r6c4=(1)r6c5-(9)r6c5=(9)r3c5-(2)r3c5=(2)r3c4-(1)r3c4=(1)r6c4: "
     "if r6c4 were not 1, the loop would put 1 back, so r6c4 is 1: r6c4 <> 2, 3, 4, 8"),
    (667, "discontinuous-nice-loop",
     "Discontinuous Nice Loop: (1)r3c4-(1)r3c2=(1)r1c2-(6)r1c2=(6)r1c4-(3)r1c4=(3)r3c4: "
     "if r3c4 were 1, the loop would make it 3 as well: r3c4 <> 1"),
    (672, "aic",
     "AIC: (8)r7c3=(9)r7c3-(9)r2c3=(9)r2c6-(5)r2c6=(5)r9c6-(5)r9c7=(8)r9c7: either r7c3 or "
     "r9c7 is 8, so cells seeing both lose it: r7c7, r9c1 <> 8"),
    (680, "aic",
     "AIC: (3)r1c7=(3)r2c8-(7)r2c8=(7)r2c2-(8)r2c2=(8)r2c9-(8)r7c9=(8)r9c7: r1c7 is 3 or r9c7 "
     "is 8; the two cells see each other, so neither can hold the other's digit: r1c7 <> 8; "
     "r9c7 <> 3"),
    (691, "grouped-continuous-nice-loop",
     "Grouped Continuous Nice Loop: (1)r6c4=(1)r6c3-(1)r9c3=(1)r9c9-(2)r9c9=(2)r9c56-(2)r78c4="
     "(2)r6c4: the loop closes, so every weak link in it is strong as well: r4c3, r5c3 <> 1; "
     "r6c4 <> 3, 8; r7c5, r7c6, r8c6 <> 2; r9c9 <> 3"),
    (714, "grouped-discontinuous-nice-loop",
     "Grouped Discontinuous Nice Loop: (6)r9c4=(6)r9c8-(7)r9c8=(7)r9c456-(7)r7c5=(8)r7c5-"
     "(8)r9c4: if r9c4 were 8, the loop read backwards would make it 6 as well: r9c4 <> 8"),
    (703, "grouped-discontinuous-nice-loop",
     "Grouped Discontinuous Nice Loop: (4)r7c5=(4)r7c2-(9)r7c2=(9)r7c4-(9)r9c46=(7)r9c46-"
     "(7)r9c3=(4)r8c3-(4)r8c5=(3)r9c5=(4)r7c5: r9c4, r9c6 and r8c1, r8c3, r9c3 and r8c5, r9c5 "
     "are almost locked sets; if r7c5 were not 4, the loop would put 4 back, so r7c5 is 4: "
     "r7c5 <> 3, 8"),
    (697, "grouped-continuous-nice-loop",
     "Grouped Continuous Nice Loop: (1)r9c1=(1)r12c1-(1)r1c3=(3)r1c3-(3)r1c9=(2)r789c9=(5)r7c8-"
     "(5)r9c7=(1)r9c279=(5)r9c1: r1c9, r7c9, r8c9, r9c9 and r9c2, r9c7, r9c9 are almost locked "
     "sets; the loop closes, so every weak link in it is strong as well: r1c4 <> 3; r4c9 <> 6; "
     "r9c1 <> 2"),
    (730, "grouped-aic",
     "Grouped AIC: (6)r1c4=(8)r1c4-(8)r79c4=(8)r8c6-(5)r8c6=(5)r123c6-(5)r1c5=(6)r1c5: either "
     "r1c4 or r1c5 is 6, so cells seeing both lose it: r1c2, r1c6, r1c9, r2c6, r3c4, r3c6 <> 6"),
]  # fmt: skip


@pytest.mark.parametrize(("number", "tech", "text"), EXAMPLES)
def test_exact_step_and_text(puzzles_dir: Path, number: int, tech: str, text: str) -> None:
    grid, expected = _case(puzzles_dir, number)
    before = grid.candidates[:]
    step = _only(list(TECHNIQUES[tech].find(grid)), expected)
    assert grid.candidates == before  # finders never modify the grid
    assert step.technique == tech and not step.placements
    assert step.text == text
    assert eureka(step.chain) in text
    # the chain alternates: a node is true exactly when the link into it is strong
    first_cells, _, first_on = step.chain[0]
    if tech.endswith("aic"):
        assert not first_on and step.chain[-1][2]
    else:
        assert step.chain[-1][0] == first_cells  # a loop comes back to its start cell
    assert set(step.cells) >= {c for cells, _d, _on in step.chain for c in cells}


def test_node_names() -> None:
    assert node_name((20,)) == "r3c3"
    assert node_name((20, 23)) == "r3c36"
    assert node_name((2, 11, 20)) == "r123c3"


def test_no_chain_on_a_solved_grid() -> None:
    values = solutions([0] * 81, limit=1)[0]
    for tech in CHAIN_IDS:
        assert list(TECHNIQUES[tech].find(Grid(values))) == []


def test_every_instance_is_sound_on_hard_puzzles(puzzles_dir: Path) -> None:
    """Every instance (both searches) on every state where the solver needs a hard step."""
    top = [text for _, text in read_puzzle_file(puzzles_dir / "sets" / "top1465.txt")]
    puzzles = [top[0], top[6], top[11], top[12]]  # quick to solve, rich in chains
    found = wide = 0
    for text in puzzles:
        values = parse_values(text)
        (solution,) = solutions(values, limit=2)
        grid = Grid(values)
        for step in solve(values).steps:
            if TECHNIQUES[step.technique].level in ("unfair", "extreme"):
                first = {frozenset(s.eliminations) for s in loops._steps(grid, True)}
                for tech in CHAIN_IDS:
                    for instance in islice(TECHNIQUES[tech].find(grid), 200):
                        assert_step_sound(instance, grid, solution)
                        assert instance.text
                        found += 1
                        wide += frozenset(instance.eliminations) not in first
            step.apply(grid)
    assert found > 500 and wide > 100
