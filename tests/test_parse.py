from __future__ import annotations

import pytest

from solver import Grid, parse_pencilmarks, parse_puzzle, parse_state, parse_values
from solver.errors import InputFileError, InvalidPuzzleError, PuzzleFormatError
from solver.grid import BIT, HOUSES, PEERS, find_duplicates
from solver.parse import read_puzzle_file

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def test_tables() -> None:
    assert len(HOUSES) == 27 and all(len(h) == 9 for h in HOUSES)
    assert all(len(p) == 20 for p in PEERS)
    assert 1 in PEERS[0] and 9 in PEERS[0] and 10 in PEERS[0] and 30 not in PEERS[0]


def test_parse_string_dots_and_zeros() -> None:
    a = parse_values(PUZZLE)
    b = parse_values(PUZZLE.replace("0", "."))
    assert a == b and a[2] == 3 and a[0] == 0


def test_parse_nine_line_grid_with_frame() -> None:
    rows = [PUZZLE[i : i + 9].replace("0", ".") for i in range(0, 81, 9)]
    framed = "\n".join(f"{r[:3]}|{r[3:6]}|{r[6:]}" for r in rows[:3])
    framed += "\n---+---+---\n" + "\n".join(rows[3:])
    assert parse_values(framed) == parse_values(PUZZLE)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (PUZZLE[:80], "expected 81 cells, got 80"),
        (PUZZLE + "1", "expected 81 cells, got 82"),
        ("x" + PUZZLE[1:], "unexpected character 'x' at r1c1"),
        ("\n".join([PUZZLE[:9]] * 8), "9 lines of 9 cells, got 8 lines"),
    ],
)
def test_format_errors_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError, match=message):
        parse_puzzle(text)


def test_duplicate_names_both_cells() -> None:
    bad = "5" + PUZZLE[1:8] + "5" + PUZZLE[9:]
    with pytest.raises(InvalidPuzzleError, match=r"duplicate 5 in row 1: r1c1 and r1c9"):
        parse_puzzle(bad)
    assert find_duplicates(parse_values(bad))[0][:2] == (0, 8)


def test_candidates_are_masks() -> None:
    g = Grid(parse_values(PUZZLE))
    # r1c1 sees 3, 2, 6 (row), 9, 7, 8 (column), 3, 9, 1 (box) -> only 4, 5 left
    assert g.candidates[0] == BIT[4] | BIT[5]
    g.place(0, 4)
    assert g.values[0] == 4 and g.candidates[0] == 0
    assert not g.candidates[1] & BIT[4]


def test_pencil_mark_state_from_hodoku_format() -> None:
    g = parse_state("+6.3" + "." * 78, "231 731")
    assert g.values[0] == 6 and not g.givens[0] and g.givens[2]
    r3c1 = 18  # "231 731": 2 and 7 were removed from r3c1
    assert not g.candidates[r3c1] & (BIT[2] | BIT[7]) and g.candidates[r3c1] & BIT[1]


def test_pencilmarks_grid() -> None:
    tokens = ["123456789"] * 81
    tokens[0] = "5"
    tokens[1] = "12"
    g = parse_pencilmarks(" ".join(tokens))
    assert g.values[0] == 5 and g.candidates[1] == BIT[1] | BIT[2]
    assert not g.candidates[2] & BIT[5]
    with pytest.raises(PuzzleFormatError, match="expected 81 candidate groups"):
        parse_pencilmarks("1 2 3")


def test_read_puzzle_file_kinds(tmp_path) -> None:  # type: ignore[no-untyped-def]
    many = tmp_path / "many.sdm"
    many.write_text("# comment\n" + PUZZLE + "\n\n" + PUZZLE.replace("0", ".") + "\n")
    assert [n for n, _ in read_puzzle_file(many)] == [2, 4]
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(PUZZLE[i : i + 9] for i in range(0, 81, 9)) + "\n")
    ((_, text),) = list(read_puzzle_file(grid))
    assert parse_values(text) == parse_values(PUZZLE)
    with pytest.raises(InputFileError, match="no such file"):
        list(read_puzzle_file(tmp_path / "absent.txt"))
    (tmp_path / "bin.dat").write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(InputFileError, match="not a text file"):
        list(read_puzzle_file(tmp_path / "bin.dat"))
    with pytest.raises(InputFileError, match="is a directory"):
        list(read_puzzle_file(tmp_path))
