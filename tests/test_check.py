"""Checking a person's entries against the solution, and hints from their position."""

from __future__ import annotations

import pytest

from solver import hint
from solver.check import CheckStatus, check_entries, position_hint
from solver.generate import generate
from solver.grid import ROWS, cell_name
from solver.search import solutions

GIVENS = generate(102)
SOLUTION = solutions(GIVENS)[0]
EMPTY = [c for c in range(81) if not GIVENS[c]]


def _entries(cells: dict[int, int]) -> list[int]:
    return [cells.get(c, 0) for c in range(81)]


def _wrong(cell: int) -> int:
    """A digit that is not the solution's in ``cell``."""
    return SOLUTION[cell] % 9 + 1


def _row_to_fill() -> tuple[list[int], int]:
    """The empty cells of a row with at least three, but the last; and that last one."""
    for row in ROWS:
        empty = [c for c in row if not GIVENS[c]]
        if len(empty) >= 3:
            return empty[:-1], empty[-1]
    raise AssertionError("no row with three empty cells")


# ------------------------------------------------------------------------ check_entries


def test_right_entries_are_checked_and_none_is_a_mistake() -> None:
    cells = {c: SOLUTION[c] for c in EMPTY[::3]}
    check = check_entries(GIVENS, _entries(cells), SOLUTION)
    assert check.status == CheckStatus.CHECKED
    assert check.mistakes == () and check.checked == len(cells) == check.count
    assert check.summary() == f"Entries: {len(cells)} checked, all right"


def test_wrong_entries_are_named_exactly() -> None:
    cells = {c: SOLUTION[c] for c in EMPTY[::3]}
    bad = [EMPTY[3], EMPTY[9]]
    for c in bad:
        cells[c] = _wrong(c)
    check = check_entries(GIVENS, _entries(cells), SOLUTION)
    assert check.mistakes == tuple(sorted(bad))
    names = ", ".join(cell_name(c) for c in sorted(bad))
    assert check.summary() == f"Entries: {len(cells)} checked, 2 wrong: {names}"
    assert check.to_dict()["mistakes"] == [cell_name(c) for c in sorted(bad)]
    assert "right_digits" not in check.to_dict()
    revealed = check.to_dict(reveal=True)["right_digits"]
    assert revealed == {cell_name(c): SOLUTION[c] for c in sorted(bad)}


def test_an_entry_that_clashes_with_a_given_is_a_mistake() -> None:
    # The digit of a given in the same row, written into an empty cell of that row.
    cell = next(c for c in EMPTY if any(GIVENS[p] for p in ROWS[c // 9]))
    clash = next(GIVENS[p] for p in ROWS[cell // 9] if GIVENS[p])
    check = check_entries(GIVENS, _entries({cell: clash}), SOLUTION)
    assert check.mistakes == (cell,)


def test_entries_on_given_cells_are_ignored() -> None:
    given = next(c for c in range(81) if GIVENS[c])
    check = check_entries(GIVENS, _entries({given: GIVENS[given] % 9 + 1}), SOLUTION)
    assert check.status == CheckStatus.NO_ENTRIES and check.entries == (0,) * 81


def test_without_a_single_solution_nothing_is_called_a_mistake() -> None:
    cells = {EMPTY[0]: _wrong(EMPTY[0]), EMPTY[1]: SOLUTION[EMPTY[1]]}
    check = check_entries(GIVENS, _entries(cells), None)
    assert check.status == CheckStatus.UNCHECKED
    assert check.mistakes == () and check.checked == 0 and check.count == 2
    assert "not checked" in check.summary() and "wrong" not in check.summary()
    assert check.to_dict()["entries_status"] == "unchecked"


def test_no_entries() -> None:
    check = check_entries(GIVENS, [0] * 81, SOLUTION)
    assert check.status == CheckStatus.NO_ENTRIES and check.summary() == ""
    assert check.to_dict() == {
        "entries": "0" * 81,
        "mistakes": [],
        "unclear": [],
        "entries_checked": 0,
        "entries_status": "no_entries",
    }


@pytest.mark.parametrize(
    ("givens", "entries", "message"),
    [
        (GIVENS[:80], [0] * 81, "givens: expected 81 cells, got 80"),
        (GIVENS, [0] * 82, "entries: expected 81 cells, got 82"),
        (GIVENS, [10] + [0] * 80, "entries: digits must be 0-9"),
    ],
)
def test_bad_input_is_refused(givens: list[int], entries: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_entries(givens, entries, SOLUTION)


def test_an_unclear_entry_is_neither_checked_nor_a_mistake() -> None:
    cells = {c: SOLUTION[c] for c in EMPTY[:10:2]}
    cells[EMPTY[1]] = _wrong(EMPTY[1])
    unclear = [EMPTY[5], EMPTY[3]]
    check = check_entries(GIVENS, _entries(cells), SOLUTION, unclear=unclear)
    assert check.unclear == tuple(sorted(unclear))
    assert check.mistakes == (EMPTY[1],) and check.checked == len(cells)
    assert check.written == frozenset(cells) | frozenset(unclear)
    names = ", ".join(cell_name(c) for c in sorted(unclear))
    assert check.summary() == (
        f"Entries: {len(cells)} checked, 1 wrong: {cell_name(EMPTY[1])}; "
        f"2 entries unclear, not checked: {names}"
    )
    assert check.to_dict()["unclear"] == [cell_name(c) for c in sorted(unclear)]
    # Not in the position: the person's digit there is unknown.
    position = check.position(GIVENS)
    assert all(position.values[c] == 0 for c in unclear)


@pytest.mark.parametrize("where", ["given", "read", "outside"])
def test_an_unclear_cell_must_be_an_unread_empty_cell(where: str) -> None:
    given = next(c for c in range(81) if GIVENS[c])
    cell = {"given": given, "read": EMPTY[0], "outside": 81}[where]
    with pytest.raises(ValueError, match="unclear: cell"):
        check_entries(GIVENS, _entries({EMPTY[0]: SOLUTION[EMPTY[0]]}), SOLUTION, unclear=[cell])


# ------------------------------------------------------------------------ position_hint


def test_the_hint_starts_from_the_right_entries() -> None:
    # Right entries fill a row but one cell: from the person's position that cell is a
    # full house, which the givens alone do not offer.
    filled, last = _row_to_fill()
    alone = hint(GIVENS)
    assert alone is not None and alone.technique != "full-house"
    check = check_entries(GIVENS, _entries({c: SOLUTION[c] for c in filled}), SOLUTION)
    found = position_hint(GIVENS, check)
    assert found.step is not None and found.step.technique == "full-house"
    assert found.step.placements == ((last, SOLUTION[last]),)
    assert found.lines() == [found.step.text]
    assert found.to_dict()["mistakes"] == []


def test_a_wrong_entry_is_left_out_of_the_position_and_named_first() -> None:
    filled, _last = _row_to_fill()
    cells = {c: SOLUTION[c] for c in filled}
    wrong = filled[0]
    cells[wrong] = _wrong(wrong)
    found = position_hint(GIVENS, check_entries(GIVENS, _entries(cells), SOLUTION))
    assert found.check.mistakes == (wrong,)
    # Without the wrong entry the row has two empty cells: no full house there (with it
    # counted, the last cell would be one), and nothing is placed on the wrong entry.
    assert found.step is not None
    assert found.step.technique != "full-house"
    assert all(c != wrong and d == SOLUTION[c] for c, d in found.step.placements)
    lines = found.lines()
    assert lines[0] == (
        f"1 of your entries is wrong: {cell_name(wrong)} \u2014 a mistake makes later "
        "steps meaningless; fix it first."
    )
    assert lines[1] == found.step.text
    assert "should be" not in "\n".join(lines)
    assert "right_digits" not in found.to_dict()


def test_the_hint_does_not_give_away_a_wrong_entry_unless_asked() -> None:
    # Every empty cell of the row holds a right entry but one, which is wrong: without
    # it, that cell is a full house, the simplest step, and would tell its digit.
    filled, last = _row_to_fill()
    cells = {c: SOLUTION[c] for c in filled}
    cells[last] = _wrong(last)
    check = check_entries(GIVENS, _entries(cells), SOLUTION)
    hidden = position_hint(GIVENS, check)
    assert hidden.step is not None
    assert all(c != last for c, _ in hidden.step.placements)
    shown = position_hint(GIVENS, check, reveal=True)
    assert shown.step is not None and shown.step.placements == ((last, SOLUTION[last]),)
    assert shown.lines()[1] == f"{cell_name(last)} should be {SOLUTION[last]}"
    assert shown.to_dict()["right_digits"] == {cell_name(last): SOLUTION[last]}


def test_the_hint_does_not_give_away_an_unclear_entry_unless_asked() -> None:
    # As with a wrong entry: the unclear cell is a full house, and its digit stays untold.
    filled, last = _row_to_fill()
    check = check_entries(
        GIVENS, _entries({c: SOLUTION[c] for c in filled}), SOLUTION, unclear=[last]
    )
    hidden = position_hint(GIVENS, check)
    assert hidden.step is not None
    assert all(c != last for c, _ in hidden.step.placements)
    assert hidden.lines()[0] == f"1 entry unclear, not checked: {cell_name(last)}"
    shown = position_hint(GIVENS, check, reveal=True)
    assert shown.step is not None and shown.step.placements == ((last, SOLUTION[last]),)


def test_a_complete_right_grid_is_said_to_be_solved() -> None:
    mine = [0 if g else v for g, v in zip(GIVENS, SOLUTION, strict=True)]
    check = check_entries(GIVENS, mine, SOLUTION)
    found = position_hint(GIVENS, check)
    assert found.complete and found.step is None and not found.stuck
    assert found.lines() == ["your grid is complete and every entry is right"]
