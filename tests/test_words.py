"""Chains in plain words: the walk a casual player reads is the chain's logic.

A walk says "Suppose P. Then F1, so F2, ...": each fact follows from the one before. So
in the unique solution, wherever the premise P holds, every fact of the walk holds too;
a strong and a weak link swapped, or a fact's sense inverted, breaks that.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from pathlib import Path

import pytest

from solver import parse_puzzle, solve
from solver.grid import cell_name
from solver.parse import read_puzzle_file
from solver.search import solutions
from solver.steps import ChainNode, Step
from solver.techniques.chains.loops.words import walk_facts
from solver.techniques.chains.words import x_chain_facts, xy_chain_facts
from solver.words import fact_text, walk_text

from .test_chains import CHAIN_IDS


def holds(fact: ChainNode, solution: Sequence[int]) -> bool:
    cells, digit, on = fact
    return any(solution[c] == digit for c in cells) == on


def walk_of(step: Step) -> list[ChainNode] | None:
    if step.technique == "x-chain":
        return x_chain_facts(step)
    if step.technique == "xy-chain":
        return xy_chain_facts(step)
    if step.technique in CHAIN_IDS:
        return walk_facts(step.chain)
    return None


def test_walk_reads_as_sentences() -> None:
    facts: list[ChainNode] = [((1,), 5, False), ((7,), 5, True), ((61,), 5, False),
                              ((61,), 8, True), ((19, 20), 8, False)]  # fmt: skip
    assert walk_text(facts) == (
        "Suppose r1c2 is not 5. Then r1c8 must be 5, so r7c8 cannot be 5 and must be 8, "
        "so none of r3c2, r3c3 is 8."
    )
    assert walk_text([((3,), 4, False), ((3,), 7, True)]) == (
        "Suppose r1c4 is not 4. Then it must be 7."
    )
    assert fact_text((9, 10), 2, True) == "one of r2c1, r2c2 is 2"


@pytest.fixture(scope="module")
def chain_steps(puzzles_dir: Path) -> list[tuple[Step, list[int]]]:
    """Every chain step on the solve paths of the first 40 top95 puzzles, with the
    puzzle's unique solution."""
    out = []
    texts = islice(read_puzzle_file(puzzles_dir / "norvig" / "sudoku-top95.txt"), 40)
    for _name, text in texts:
        grid = parse_puzzle(text)
        (solution,) = solutions(grid.values, limit=2)
        for step in solve(grid).steps:
            if walk_of(step) is not None:
                out.append((step, list(solution)))
    return out


def test_every_walk_follows_from_its_premise(chain_steps: list[tuple[Step, list[int]]]) -> None:
    kinds = {step.technique for step, _ in chain_steps}
    assert {"x-chain", "xy-chain", "discontinuous-nice-loop", "continuous-nice-loop"} <= kinds, (
        kinds
    )  # the sample covers the kinds
    checked = 0
    for step, solution in chain_steps:
        facts = walk_of(step)
        assert facts is not None and len(facts) >= 2
        if holds(facts[0], solution):
            checked += 1
            broken = [f for f in facts if not holds(f, solution)]
            assert not broken, (step.text, facts, broken)
    assert checked >= 10  # enough walks whose premise holds to mean something


def test_words_name_the_chain_and_its_conclusion(
    chain_steps: list[tuple[Step, list[int]]],
) -> None:
    for step, _ in chain_steps:
        words = step.words
        assert words is not None and words.startswith(("Suppose", "Each of"))
        facts = walk_of(step)
        assert facts is not None
        for cells, _digit, _on in facts:
            assert all(cell_name(c) in words for c in cells), (words, cells)
        assert step.to_dict()["words"] == words


def test_other_steps_have_no_words() -> None:
    grid = parse_puzzle(
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    )
    steps = solve(grid).steps
    assert steps and all(s.words is None for s in steps)
    assert all("words" not in s.to_dict() for s in steps)
