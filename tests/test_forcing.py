"""Last-resort techniques: templates, forcing chains and nets, trial."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from solver import SOLVED, Grid, parse_values, solve
from solver.parse import parse_pencilmarks, read_puzzle_file
from solver.rating import chain_length
from solver.reglib import run_case, run_file
from solver.search import solutions
from solver.steps import Step
from solver.techniques import TECHNIQUES
from solver.techniques.last_resort.forcing import (
    find_forcing_chain_contradiction,
    find_forcing_chain_verity,
    find_forcing_net_contradiction,
    find_forcing_net_nested,
    find_forcing_net_verity,
    find_trial,
)
from solver.techniques.last_resort.templates import find_template_delete, find_template_set

from .checks import assert_step_sound

LAST_RESORT = (
    "forcing-chain-contradiction",
    "forcing-chain-verity",
    "forcing-net-contradiction",
    "forcing-net-verity",
    "forcing-net-nested",
    "template-set",
    "template-delete",
    "trial",
)

# Pencil-mark states met while solving top1465 #1 (forcing steps) and sudokus_hard #1
# (where nets find nothing and only a trial is left).
TOP1465_1_CHAIN = (
    "4 569 1268 5789 3 15789 259 267 25679 1237 359 12 6 127 49 8 357 23459 23678 3569 268 "
    "459 278 578 3459 2367 1 1236 346 1246 378 5 13678 23 9 278 123 8 59 349 17 349 6 12357 "
    "2357 136 7 59 2 168 13689 345 1358 3458 68 46 468 1 9 2 7 35 35 5 12 3 78 678 678 129 "
    "4 29 9 12 7 35 4 35 12 68 68"
)
TOP1465_1_NET = (
    "4 569 1268 5789 3 15789 259 2567 25679 1237 359 12 6 127 14579 8 2357 234579 23678 "
    "3569 268 45789 278 45789 23459 23567 1 1236 346 1246 378 5 13678 23 9 2378 123 8 59 "
    "3479 17 13479 6 12357 2357 136 7 59 2 168 13689 345 1358 3458 68 46 468 1 9 2 7 35 35 "
    "5 12 3 78 678 678 129 4 29 9 12 7 35 4 35 12 68 68"
)
HARD_1 = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
HARD_1_TRIAL = (
    "12567 2457 12467 134679 13459 34567 1379 1359 8 15678 578 3 16789 1589 5678 4 159 2 "
    "1578 9 147 13478 2 34578 137 6 157 12358 23458 124 348 7 9 1368 13458 1456 35789 34578 "
    "479 348 6 1 2 34589 459 1389 6 149 5 348 2 1389 7 149 23679 237 8 1234679 1349 3467 5 "
    "149 14679 3679 1 679 346789 34589 345678 6789 2 4679 4 27 5 126789 189 678 16789 189 3"
)


def _first(finder: object, grid: Grid) -> Step:
    assert callable(finder)
    step = next(finder(grid), None)
    assert step is not None
    return step


def test_every_template_case_of_the_library_passes(puzzles_dir: Path) -> None:
    results = [
        r
        for r in run_file(puzzles_dir / "hodoku-reglib-dev.txt")
        if r.technique.split("-")[0] in ("1201", "1202")
    ]
    assert len(results) == 12
    failed = [r.summary_line() for r in results if not r.passed]
    assert not failed, "\n".join(failed)


def test_template_set_and_delete() -> None:
    set_case = (
        ":1201:8:...3+289....9.71..+3..3+9.+42.791..8+3.+7+2.5..+9..3.....4..964.2+8.+73....."
        "23.7....54.9.+2.:612 413 622 822 527 827 654 862 564 188 888 189 889 191 691 891 "
        "692 892::899:"
    )
    result = run_case(set_case, 1)
    assert result.passed
    (step,) = [s for s in result.instances if s.digits == (8,)]
    assert step.placements == ((80, 8),)
    assert step.text == (
        "Template set: every way to place all nine 8s in the grid (one per row, column and "
        "box) uses r9c9, so 8 goes there"
    )
    delete_case = (
        ":1202:5:65+17..+934+2....46+1....+61..281+2...7+48...7...2+9..9.4....173+4.5.+8+6+2+9"
        "+128+4+6...86+5+2+73+149:323 825 856 363 365 566:554 559 589::"
    )
    result = run_case(delete_case, 2)
    assert result.passed
    (step,) = result.instances
    assert step.eliminations == ((39, 5), (44, 5), (71, 5))
    assert step.text == (
        "Template delete: no way to place all nine 5s in the grid (one per row, column and "
        "box) uses these cells, so r5c4, r5c9, r8c9 <> 5"
    )


def test_template_finders_on_a_near_empty_grid_stay_cheap() -> None:
    grid = Grid([0] * 81)
    assert list(find_template_set(grid)) == []
    assert list(find_template_delete(grid)) == []


def test_forcing_chain_contradiction() -> None:
    grid = parse_pencilmarks(TOP1465_1_CHAIN)
    step = _first(find_forcing_chain_contradiction, grid)
    assert step.eliminations == ((5, 9),) and not step.placements
    assert step.text == (
        "Forcing chain: if r1c6=9 then r6c6<>9 -> r6c3=9 -> r5c3<>9; r2c6<>9 -> r2c6=4 -> "
        "r3c4<>4 -> r5c4=4 -> r5c4<>9; r5c6<>9, which leaves no place for 9 in row 5, "
        "so r1c6 <> 9"
    )
    # The chain: three branches, each from the premise, one-parent inferences only.
    assert step.branch_lengths == (4, 6, 2)
    assert [step.chain[i] for i in (0, 4, 10)] == [((5,), 9, True)] * 3


def test_forcing_chain_verity() -> None:
    grid = parse_pencilmarks(TOP1465_1_CHAIN)
    step = _first(find_forcing_chain_verity, grid)
    assert step.eliminations == ((5, 9),)
    assert step.text == (
        "Forcing chain verity: wherever 9 goes in box 5 (r5c4, r5c6, r6c6), r1c6<>9 "
        "(r5c4=9 -> r5c4<>4 -> r5c6=4 -> r2c6<>4 -> r2c6=9 -> r1c6<>9; r5c6=9 -> r1c6<>9; "
        "r6c6=9 -> r1c6<>9), so r1c6<>9"
    )


def test_forcing_net_contradiction() -> None:
    grid = parse_pencilmarks(TOP1465_1_NET)
    assert next(find_forcing_chain_contradiction(grid), None) is None
    step = _first(find_forcing_net_contradiction, grid)
    assert step.eliminations == ((23, 4),)
    assert step.text == (
        "Forcing net: if r3c6=4, singles and locked candidates show it forces r2c9=4, r5c4=4, "
        "r6c7=4, r2c2=9, r2c6=5, r9c4=5, r4c4=3, r3c2=3 (using 19 eliminations on the way), "
        "which leaves no place for 3 in column 7, so r3c6 <> 4"
    )
    assert step.chain[0] == ((23,), 4, True) and len(step.chain) == 28


def test_forcing_net_verity() -> None:
    grid = parse_pencilmarks(TOP1465_1_NET)
    # This state also holds net contradictions: the groups with a branch that clashes
    # are left to the contradiction finder, the verity comes from the others.
    step = _first(find_forcing_net_verity, grid)
    assert step.eliminations == ((10, 3),)
    assert step.text.startswith(
        "Forcing net verity: wherever 9 goes in row 2 (r2c2, r2c6, r2c9), r2c2<>3 "
    )


def test_nested_forcing_net() -> None:
    grid = parse_pencilmarks(HARD_1_TRIAL)
    step = _first(find_forcing_net_nested, grid)
    assert step.eliminations == ((49, 4),)
    # 37 nodes; r3c6=3, r7c5=9 and r1c5=3 refuted by inner nets, each with its size.
    assert step.branch_lengths == (37,)
    assert step.refuted == ((23, 3), (58, 9), (4, 3))
    inner = step.inner_sizes
    assert len(inner) == 3 and all(n >= 2 for n in inner)
    assert chain_length(step) == len(step.chain) + sum(inner)
    data = step.to_dict()  # the JSON names the same evidence
    assert data["branch_lengths"] == [37] and data["marked"] == {}
    assert data["refuted"] == ["r3c6<>3", "r7c5<>9", "r1c5<>3"]
    assert data["inner_sizes"] == list(inner)
    assert step.text == (
        "Nested forcing net: if r6c5=4, singles and locked candidates show it forces r3c7=3, "
        "r6c1=3, r6c7=8, r7c2=3, r9c8=8, r7c5=1, r9c5=9, r1c5=5, r8c5=3, r8c6=5 (using 26 "
        "eliminations on the way); within it, r3c6=3, r7c5=9, r1c5=3 would each lead to a "
        "contradiction of their own, so they go too; in the end the net leaves no place for "
        "8 in row 8, so r6c5 <> 4"
    )
    (solution,) = solutions(parse_values(HARD_1))
    assert_step_sound(step, grid, solution)


def test_trial_when_nothing_else_applies() -> None:
    grid = parse_pencilmarks(HARD_1_TRIAL)
    for finder in (find_forcing_net_contradiction, find_forcing_net_verity):
        assert next(finder(grid), None) is None
    step = _first(find_trial, grid)
    assert step.eliminations == ((73, 2),)
    assert step.text == (
        "Trial: no logical step is left, so try r9c2=2: a search from there (guessing r7c2 "
        "first, 713 guesses in all) ends in a contradiction every time, so r9c2 <> 2"
    )


def test_trial_never_on_a_state_without_solution() -> None:
    grid = parse_pencilmarks(HARD_1_TRIAL)
    grid.candidates[0] = 0  # r1c1 has no candidate left
    assert next(find_trial(grid), None) is None


def test_solved_with_trial_is_solved_and_rated_extreme() -> None:
    values = parse_values(HARD_1)
    result = solve(values)
    assert result.status == SOLVED
    assert result.grid.values == solutions(values)[0]
    assert any(s.technique in LAST_RESORT for s in result.steps)
    assert result.difficulty.level == "extreme"


def _states(text: str) -> list[tuple[Grid, list[int]]]:
    values = parse_values(text)
    (solution,) = solutions(values)
    result = solve(values)
    assert result.status == SOLVED
    grid, states = Grid(values), []
    for step in result.steps:
        if step.technique in LAST_RESORT:
            states.append((grid.copy(), solution))
        step.apply(grid)
    return states


@pytest.mark.parametrize(("name", "index"), [("sets/top1465.txt", 0), ("sets/top1465.txt", 2)])
def test_every_instance_sound_on_hard_states(puzzles_dir: Path, name: str, index: int) -> None:
    """All instances of every last-resort finder, on every state where one is needed."""
    _, text = list(islice(read_puzzle_file(puzzles_dir / name), index + 1))[index]
    checked = 0
    states = _states(text)
    for grid, solution in states[:: max(1, len(states) // 3)]:
        for tid in LAST_RESORT:
            for step in islice(TECHNIQUES[tid].find(grid), 60):
                assert step.technique == tid
                assert_step_sound(step, grid, solution)
                assert step.text
                checked += 1
    assert checked > 20


# A state of top95 #9 where forcing chains clash.
TOP95_9_CLASH = (
    "6 4789 2 1378 5 379 1489 179 49 1789 5789 15789 1789 169 4 689 3 2 389 4789 13489 1789 "
    "169 2 14689 15679 4569 4 3 5679 1579 2 8 169 1569 569 789 1 56789 34579 349 35679 2 "
    "4569 38 289 2589 5689 13459 1349 3569 7 14569 38 5 689 389 2 7 1 3469 69 469 2379 2679 "
    "379 3459 349 359 369 8 1 19 49 1349 6 8 39 5 2 7"
)


def test_chain_graph_matches_following_every_premise() -> None:
    """The one-parent inference graph says which chain premises clash and, for the
    others, which facts they reach, exactly as following each premise does."""
    from solver.techniques.last_resort.forcing.facts import fact_cell, fact_digit, fact_on
    from solver.techniques.last_resort.forcing.finders import _premises
    from solver.techniques.last_resort.forcing.graph import _Closure
    from solver.techniques.last_resort.forcing.propagation import _Propagator

    clashing = 0
    for text in (TOP1465_1_CHAIN, TOP1465_1_NET, TOP95_9_CLASH):
        grid = parse_pencilmarks(text)
        closure, prop = _Closure(grid), _Propagator(grid, False)
        for c, d, on in _premises(grid, both=True):
            out = prop.follow(c, d, on)
            assert closure.clashes(c, d, on) == (out.clash is not None)
            if out.clash is not None:
                clashing += 1
                continue
            reached = closure.reached(c, d, on)
            nodes = {closure.node(fact_cell(f), fact_digit(f), fact_on(f)) for f in out.reason()}
            assert {v for v in range(2 * len(closure.facts)) if reached >> v & 1} == nodes
    assert clashing > 0


def test_tarjan_scc_components_sinks_first() -> None:
    from solver.techniques.last_resort.forcing.graph import tarjan_scc

    # 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 3, 4 -> 3, 3 alone; 5 isolated.
    succ = [[1], [2], [0, 3], [], [3], []]
    comp, comps = tarjan_scc(succ)
    assert sorted(map(sorted, comps)) == [[0, 1, 2], [3], [4], [5]]
    assert comp[0] == comp[1] == comp[2] != comp[3]
    for v, edges in enumerate(succ):  # an edge never goes to a later component
        assert all(comp[w] <= comp[v] for w in edges)


def test_fact_and_parent_codes_round_trip() -> None:
    from solver.grid import HOUSES
    from solver.techniques.last_resort.forcing.facts import (
        CELL_WHY,
        HOUSE_WHY,
        MULTI,
        cell_why,
        fact,
        fact_cell,
        fact_digit,
        fact_on,
        house_why,
        parents_of,
    )

    for cell, digit, on in ((0, 1, False), (80, 9, True), (40, 5, True)):
        f = fact(cell, digit, on)
        assert (fact_cell(f), fact_digit(f), fact_on(f)) == (cell, digit, on)
    # r5c5 (cell 40), digits 2, 5 and 9: a grouped code, read back as three "off" facts.
    code = cell_why(40, 0b100010010)
    assert code >= CELL_WHY and code < HOUSE_WHY
    assert parents_of(code, []) == tuple(fact(40, d, False) for d in (2, 5, 9))
    # Digit 7 in slots 0 and 8 of box 9 (house 26); one slot alone is one fact's code.
    code = house_why(26, 0b100000001, 7)
    assert code >= HOUSE_WHY
    assert parents_of(code, []) == (fact(HOUSES[26][0], 7, False), fact(HOUSES[26][8], 7, False))
    assert parents_of(house_why(26, 0b10, 7), []) == (fact(HOUSES[26][1], 7, False),)
    assert cell_why(3, 0) == 0 and parents_of(0, []) == ()
    assert parents_of(MULTI + 1, [(1,), (2, 3)]) == (2, 3)
