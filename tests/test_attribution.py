"""One attribution of each placed digit, and every output that shows it agrees.

The rule lives in ``solver.solve.Placement``; the photo and the sheet colour by
``overlay.legend.solved_cells``, the legend counts ``legend_entries``, the report colours
its grid and fills its table, and ``solve --json`` lists ``"placed"``. Each is checked
against the rule as stated, on puzzles whose solves need more than singles.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from overlay.legend import legend_entries, solved_cells, technique_colour
from overlay.report import render_report
from solver.generate import generate
from solver.grid import cell_name
from solver.search import solutions
from solver.solve import SOLVED, SolveResult, solve
from solver.techniques import ALL_TECHNIQUES

RANK = {t.id: i for i, t in enumerate(ALL_TECHNIQUES)}
PUZZLES = [
    # Needs fish, wings and chains (the native tests' hard puzzle).
    ".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8...",
    *("".join(map(str, generate(seed))) for seed in (3, 11, 29)),
]


@pytest.fixture(scope="module", params=PUZZLES)
def result(request: pytest.FixtureRequest) -> SolveResult:
    values = [0 if ch == "." else int(ch) for ch in request.param]
    return solve(values)


def test_one_placement_per_cell_filled_by_the_step_named(result: SolveResult) -> None:
    placements = result.placements()
    filled = [c for c in range(81) if not result.givens[c] and result.grid.values[c]]
    assert sorted(p.cell for p in placements) == filled
    if result.status == SOLVED:
        (solution,) = solutions(result.givens, limit=2)
        assert all(p.digit == solution[p.cell] for p in placements)
    for p in placements:
        assert (p.cell, p.digit) in result.steps[p.step].placements
        # needed: the steps just before, back to the previous one that placed a digit.
        previous = max((i for i in range(p.step) if result.steps[i].placements), default=-1)
        assert p.needed == tuple(range(previous + 1, p.step))
        assert all(not result.steps[i].placements for i in p.needed)
        hardest = max([p.step, *p.needed], key=lambda i: RANK[result.steps[i].technique])
        assert p.technique == result.steps[hardest].technique
        assert result.credited_technique(p.cell) == p.technique


def test_needed_steps_reach_the_credit() -> None:
    # The hard puzzle's solve has digits credited to a rule that is not the single
    # placing them (an elimination unlocked them).
    result = solve([0 if ch == "." else int(ch) for ch in PUZZLES[0]])
    assert any(p.needed for p in result.placements())
    assert any(p.technique != result.steps[p.step].technique for p in result.placements())


def test_photo_sheet_legend_report_and_json_agree(result: SolveResult) -> None:
    credited = {p.cell: p.technique for p in result.placements()}
    # The photo and the sheet colour each drawn digit by solved_cells.
    drawn = {cell: tech for cell, _digit, tech in solved_cells(result)}
    assert drawn == credited
    # The legend counts the same digits per technique.
    counts = Counter(credited.values())
    legend = {e.technique: e.count for e in legend_entries(result)}
    assert legend == dict(counts)
    # The JSON lists the same placements.
    placed = result.to_dict()["placed"]
    assert isinstance(placed, list)
    assert {d["cell"]: d["technique"] for d in placed} == {
        cell_name(c): t for c, t in credited.items()
    }
    # The report's table counts the same digits, and its grid colours them the same.
    page = render_report(result)
    rows = re.findall(
        r'<tr><td><span class="chip"[^>]*>[^<]*</span>([^<]+)</td>'
        r'<td class="n">(\d+)</td><td class="n">(\d+)</td></tr>',
        page,
    )
    by_name = {t.name: t.id for t in ALL_TECHNIQUES}
    table = {by_name[name]: int(digits) for name, _steps, digits in rows if int(digits)}
    assert table == dict(counts)
    for tech in set(credited.values()):
        r, g, b = technique_colour(tech)
        assert f"fill:#{r:02x}{g:02x}{b:02x}" in page
