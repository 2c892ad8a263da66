"""Issue 14, "check my paper": a photographed puzzle started in pen. ``solve`` names the
wrong entries and rings them, ``--hint`` helps from the person's position, ``logic
--entries`` checks typed entries, ``batch`` rows carry them; pages without entries are
unchanged."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from overlay.legend import MISTAKE_COLOUR, UNCLEAR_COLOUR
from pipeline.cli import main
from scanner.geometry import GridGeometry
from solver.errors import ExitCode
from solver.grid import cell_name
from solver.search import solutions

from .synth import render_puzzle_photo, write_by_hand

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
GIVENS = [int(ch) for ch in PUZZLE]
SOLUTION = solutions(GIVENS)[0]
EMPTY = [c for c in range(81) if not GIVENS[c]]
WRONG = EMPTY[10]  # r2c8
ENTRIES = {c: SOLUTION[c] for c in EMPTY[::5]} | {WRONG: SOLUTION[WRONG] % 9 + 1}
RIGHT = sorted(c for c in ENTRIES if c != WRONG)
BLUE_PEN = (200, 60, 20)  # BGR


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def _write(image: npt.NDArray[np.uint8], lattice: npt.NDArray[np.float64]) -> None:
    """Write ENTRIES in blue pen into their cells."""
    write_by_hand(image, lattice, ENTRIES, BLUE_PEN)


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, GridGeometry]:
    """The same printed puzzle photographed at an angle: started in blue pen (one entry
    wrong), and untouched."""
    folder = tmp_path_factory.mktemp("paper")
    image, _, lattice = render_puzzle_photo(PUZZLE, seed=3, size=(1000, 800), perspective=0.08)
    cv2.imwrite(str(folder / "plain.png"), image)
    _write(image, lattice)
    cv2.imwrite(str(folder / "started.png"), image)
    return folder / "started.png", folder / "plain.png", GridGeometry(lattice, (1000, 800))


def _cell(geo: GridGeometry, cell: int, shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(geo.cell_quad(*divmod(cell, 9))).astype(np.int32)], 1)
    return mask.astype(bool)


def _ring(
    image: npt.NDArray[np.uint8], colour: tuple[int, int, int] = MISTAKE_COLOUR
) -> npt.NDArray[np.bool_]:
    want = np.array(colour[::-1])  # BGR
    return np.asarray(np.abs(image.astype(int) - want).sum(axis=2) <= 12)


def _solved_json(photo: Path, out: Path) -> dict[str, object]:
    """``solve PHOTO --json -o OUT``'s object; it must say solved (exit 0)."""
    code, text = run("solve", str(photo), "--json", "-o", str(out))
    obj: dict[str, object] = json.loads(text)
    assert code == ExitCode.OK and obj["status"] == "solved"
    return obj


# ------------------------------------------------------------------------------- solve


def test_solve_names_the_wrong_entry_and_rings_it(
    photos: tuple[Path, Path, GridGeometry], tmp_path: Path
) -> None:
    started, _, geo = photos
    out = tmp_path / "started.solved.png"
    obj = _solved_json(started, out)
    assert obj["entries"] == "".join(str(ENTRIES.get(c, 0)) for c in range(81))
    assert obj["mistakes"] == [cell_name(WRONG)] == ["r2c8"]
    assert obj["entries_checked"] == len(ENTRIES) and obj["entries_status"] == "checked"
    assert obj["solution"] == "".join(map(str, SOLUTION))
    before = cv2.imread(str(started))
    after = cv2.imread(str(out))
    ring = _ring(after)
    assert (ring & _cell(geo, WRONG, after.shape)).sum() > 60, "no ring on the wrong entry"
    for cell in RIGHT:  # right entries: no ring, and not a pixel written over them
        mask = _cell(geo, cell, after.shape)
        assert not (ring & mask).any(), cell_name(cell)
        assert np.array_equal(before[mask], after[mask]), cell_name(cell)
    # Empty cells get their digit, in a family colour (not the ring's).
    empty = next(c for c in EMPTY if c not in ENTRIES)
    mask = _cell(geo, empty, after.shape)
    assert (before[mask] != after[mask]).any() and not (ring & mask).any()


def test_solve_text_says_how_many_entries_were_checked(
    photos: tuple[Path, Path, GridGeometry], tmp_path: Path
) -> None:
    started, _, _ = photos
    code, text = run("solve", str(started), "-o", str(tmp_path / "out.png"))
    assert code == ExitCode.OK
    assert f"Entries: {len(ENTRIES)} checked, 1 wrong: r2c8\n" in text


def test_a_page_without_entries_behaves_as_before(
    photos: tuple[Path, Path, GridGeometry], tmp_path: Path
) -> None:
    _, plain, _ = photos
    out = tmp_path / "plain.solved.png"
    code, text = run("solve", str(plain), "--json", "-o", str(out))
    obj = json.loads(text)
    assert code == ExitCode.OK and obj["status"] == "solved"
    assert obj["entries"] == "0" * 81 and obj["mistakes"] == [] and obj["entries_checked"] == 0
    assert not _ring(cv2.imread(str(out))).any()
    code, text = run("solve", str(plain), "-o", str(out))
    assert code == ExitCode.OK and "Entries" not in text


def test_solve_hint_warns_first_and_keeps_the_right_digit(
    photos: tuple[Path, Path, GridGeometry], tmp_path: Path
) -> None:
    started, _, _ = photos
    code, text = run("solve", str(started), "--hint")
    lines = text.splitlines()
    hint_image = started.with_name(started.stem + ".hint" + started.suffix)
    assert code == ExitCode.OK and len(lines) == 3 and lines[2] == f"wrote {hint_image}"
    assert lines[0] == (
        "1 of your entries is wrong: r2c8 \u2014 a mistake makes later steps meaningless; "
        "fix it first."
    )
    assert "should be" not in text and "r2c8 =" not in lines[1]
    code, text = run("solve", str(started), "--hint", "--reveal")
    assert code == ExitCode.OK and text.splitlines()[1] == f"r2c8 should be {SOLUTION[WRONG]}"
    code, text = run("solve", str(started), "--hint", "--json")
    obj = json.loads(text)
    assert obj["status"] == "hint" and obj["mistakes"] == ["r2c8"] and "right_digits" not in obj
    assert obj["hint"]["placements"] and "r2c8" not in str(obj["hint"]["placements"])
    assert obj["output"] == str(hint_image) and cv2.imread(str(hint_image)) is not None
    assert not list(started.parent.glob("*.solved.*")), "--hint draws no solution"


def _two_solutions() -> list[int]:
    """The puzzle with one given left out so that it has two solutions."""
    return next(
        p
        for cell in range(81)
        if GIVENS[cell]
        for p in [[*GIVENS[:cell], 0, *GIVENS[cell + 1 :]]]
        if len(solutions(p, limit=3)) == 2
    )


def test_entries_on_a_print_with_two_solutions_are_not_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reduced = _two_solutions()
    image, _, lattice = render_puzzle_photo("".join(map(str, reduced)), seed=3, size=(1000, 800))
    _write(image, lattice)
    photo = tmp_path / "two.png"
    cv2.imwrite(str(photo), image)
    code, text = run("solve", str(photo), "--json")
    err = capsys.readouterr().err
    assert not list(tmp_path.glob("*.solved.*"))
    if code == ExitCode.UNREADABLE:
        # The reader doubts some print (half read as pen): it says so, checks nothing.
        assert err.count("\n") == 1 and "mistake" not in text
        return
    obj = json.loads(text)
    assert code == ExitCode.INVALID_PUZZLE and obj["status"] == "multiple_solutions"
    assert obj["mistakes"] == [] and obj["entries_checked"] == 0
    assert obj["entries_status"] == "unchecked"
    assert err.count("\n") == 1 and "the entries cannot be checked" in err
    assert not list(tmp_path.glob("*.solved.*"))


# ------------------------------------------------------------------------------- logic


def _typed(entries: dict[int, int]) -> str:
    return "".join(str(entries[c]) if c in entries else "." for c in range(81))


def test_logic_entries_names_the_mistakes() -> None:
    code, text = run("logic", PUZZLE, "--entries", _typed(ENTRIES), "--json")
    obj = json.loads(text)
    assert code == ExitCode.OK and obj["status"] == "solved"
    assert obj["mistakes"] == ["r2c8"] and obj["entries_checked"] == len(ENTRIES)
    code, text = run("logic", PUZZLE, "--entries", _typed(ENTRIES))
    assert text.splitlines()[-1] == f"Entries: {len(ENTRIES)} checked, 1 wrong: r2c8"
    right = {c: ENTRIES[c] for c in RIGHT}
    code, text = run("logic", PUZZLE, "--entries", _typed(right))
    assert text.splitlines()[-1] == f"Entries: {len(right)} checked, all right"


def test_logic_hint_from_the_position_with_reveal_in_json() -> None:
    code, text = run("logic", PUZZLE, "--entries", _typed(ENTRIES), "--hint", "--reveal", "--json")
    obj = json.loads(text)
    assert code == ExitCode.OK
    assert obj["mistakes"] == ["r2c8"] and obj["right_digits"] == {"r2c8": SOLUTION[WRONG]}


def test_entries_of_a_puzzle_with_several_solutions_are_not_checked() -> None:
    puzzle = "".join(map(str, _two_solutions()))
    code, text = run("logic", puzzle, "--entries", _typed(ENTRIES), "--hint")
    assert code == ExitCode.INVALID_PUZZLE
    assert "more than one solution" in text and "the entries cannot be checked" in text
    assert "wrong" not in text
    code, text = run("logic", puzzle, "--entries", _typed(ENTRIES), "--json")
    obj = json.loads(text)
    assert obj["mistakes"] == [] and obj["entries_status"] == "unchecked"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--entries", "123"], "--entries: expected 81 cells, got 3"),
        (["--entries", "x" * 81], "--entries: unexpected character 'x' at r1c1"),
        (["--entries", "5" + "0" * 80], None),  # r1c1 is empty: 5 is an entry, no error
        (
            ["--entries", "0" * 2 + "4" + "0" * 78],
            "--entries: r1c3 holds the given 3, not an entry 4",
        ),
        (["--reveal"], "--reveal only goes with --hint"),
    ],
)
def test_bad_entries_are_one_line_errors(
    argv: list[str], message: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("logic", PUZZLE, *argv)
    err = capsys.readouterr().err
    if message is None:
        assert code == ExitCode.OK and not err
        return
    assert code == ExitCode.BAD_ARGS
    assert err.startswith(f"sudoku-scan: error: {message}") and err.count("\n") == 1


def test_entries_go_with_one_puzzle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    many = tmp_path / "two.sdm"
    many.write_text(f"{PUZZLE}\n{PUZZLE}\n")
    code, _ = run("logic", str(many), "--entries", "0" * 81)
    assert code == ExitCode.BAD_ARGS and "single puzzle" in capsys.readouterr().err


# ------------------------------------------------------------------------------- batch


def test_batch_rows_carry_entries_and_mistakes(
    photos: tuple[Path, Path, GridGeometry], tmp_path: Path
) -> None:
    started, plain, _ = photos
    out = tmp_path / "out"
    code, _ = run("batch", str(started), str(plain), "-o", str(out), "--jobs", "1", "--quiet")
    assert code == ExitCode.OK
    lines = (out / "results.jsonl").read_text().splitlines()
    rows = {Path(str(r["source"])).name: r for r in map(json.loads, lines)}
    assert rows["started.png"]["mistakes"] == ["r2c8"]
    assert rows["started.png"]["entries_checked"] == len(ENTRIES)
    assert rows["started.png"]["entries"] == "".join(str(ENTRIES.get(c, 0)) for c in range(81))
    assert rows["plain.png"]["mistakes"] == [] and rows["plain.png"]["entries"] == "0" * 81
    with (out / "summary.csv").open() as fh:
        table = {Path(r["source"]).name: r for r in csv.DictReader(fh)}
    assert table["started.png"]["mistakes"] == "r2c8"
    assert table["started.png"]["entries_checked"] == str(len(ENTRIES))
    assert table["plain.png"]["mistakes"] == "" and table["plain.png"]["entries_checked"] == "0"
    drawn = cv2.imread(str(out / "started.solved.png"))
    assert _ring(drawn).any() and not _ring(cv2.imread(str(out / "plain.solved.png"))).any()


# ------------------------------------------------------------------ an unclear entry


def _doubt_the_wrong_entry(monkeypatch: pytest.MonkeyPatch, solution_share: float) -> None:
    """Fault injection: the network sees the entries as handwriting and doubts the
    wrong one, split between its digit (0.55), another one and the solution's digit
    (``solution_share``): a scrawl the reader cannot make out."""
    import scanner.api as api

    classify = api._classify

    def doubtful(*args: object, **kwargs: object) -> tuple[object, ...]:
        probs, hand, sideways, with_hands = classify(*args, **kwargs)  # type: ignore[arg-type]
        if args[-1] == 0:  # the grid as cut, upright: cells in reading order
            written, right = ENTRIES[WRONG], SOLUTION[WRONG]
            other = next(d for d in range(1, 10) if d not in (written, right))
            for read in (probs, with_hands):  # the hand reader's reading too, when made
                if read is not None:
                    read[WRONG] = 0.0
                    read[WRONG, written], read[WRONG, right] = 0.55, solution_share
                    read[WRONG, other] = 0.45 - solution_share
            hand[list(ENTRIES)] = 1.0
        return probs, hand, sideways, with_hands

    monkeypatch.setattr(api, "_classify", doubtful)


@pytest.mark.parametrize("told_by", ["shape", "lighter ink"])
def test_print_taken_for_handwriting_is_no_puzzle_with_several_solutions(
    photos: tuple[Path, Path, GridGeometry], monkeypatch: pytest.MonkeyPatch, told_by: str
) -> None:
    # Fault injection: on the untouched print (one colour), every printed 2 and 7 looks
    # surely written (as a shaken or blurred print can) or lighter than the rest (as
    # shade on a curled page can make it), the rest surely printed, and every digit is
    # read surely. The givens left lack two digits, so they have several solutions;
    # with no other colour to tell, that is the reader's doubt, not the newspaper's
    # puzzle: unreadable, naming those cells, never MULTIPLE.
    import scanner.api as api

    _, plain, _ = photos
    taken = [c for c, v in enumerate(GIVENS) if v in (2, 7)]
    left = [0 if c in taken else v for c, v in enumerate(GIVENS)]
    assert len(solutions(left, limit=2)) == 2
    printed = [c for c, v in enumerate(GIVENS) if v]
    given_digits = [GIVENS[c] for c in printed]
    classify = api._classify

    def written(*args: object, **kwargs: object) -> tuple[object, ...]:
        probs, hand, sideways, with_hands = classify(*args, **kwargs)  # type: ignore[arg-type]
        if args[-1] == 0:  # the grid as cut, upright: cells in reading order
            for read in (probs, with_hands):
                if read is not None:  # every digit read surely
                    read[printed] = 0.003
                    read[printed, given_digits] = 0.973
            np.minimum(hand, 0.1, out=hand)
            if told_by == "shape":
                hand[taken] = 1.0
        return probs, hand, sideways, with_hands

    def lighter(hand: npt.NDArray[np.float64], *measures: object) -> npt.NDArray[np.bool_]:
        assert len(hand) == len(printed)  # the inked cells: the givens, in order
        return np.isin(printed, taken)

    monkeypatch.setattr(api, "_classify", written)
    if told_by == "lighter ink":
        monkeypatch.setattr(api, "_lighter_written_ink", lighter)
    code, text = run("read", str(plain), "--json")
    obj = json.loads(text)
    assert code == ExitCode.UNREADABLE and obj["status"] == "unreadable"
    assert "some digits taken for handwriting may be print" in obj["problem"]
    assert obj["problems"] == ["print-as-handwriting"]
    assert set(obj["doubtful"]) == {cell_name(c) for c in taken}
    code, _ = run("solve", str(plain), "--json")
    assert code == ExitCode.UNREADABLE


@pytest.fixture
def unclear_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrong entry read in doubt, and the solution's digit not ruled out (0.05:
    beyond the odds that would take it as the solution's, not under NOT_THE_SOLUTION)."""
    _doubt_the_wrong_entry(monkeypatch, 0.05)


def test_a_scrawl_that_is_surely_not_the_solution_is_a_mistake(
    photos: tuple[Path, Path, GridGeometry], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Which wrong digit it is the reader cannot say; that it is not the solution's it
    # can (0.001): the entry is wrong either way, and named so.
    _doubt_the_wrong_entry(monkeypatch, 0.001)
    started, _, _ = photos
    obj = _solved_json(started, tmp_path / "started.solved.png")
    assert obj["mistakes"] == ["r2c8"] and obj["unclear"] == []
    assert obj["entries_checked"] == len(ENTRIES)


@pytest.mark.usefixtures("unclear_wrong")
def test_an_unclear_entry_is_named_and_not_called_a_mistake(
    photos: tuple[Path, Path, GridGeometry], tmp_path: Path
) -> None:
    started, _, geo = photos
    out = tmp_path / "started.solved.png"
    obj = _solved_json(started, out)
    assert obj["mistakes"] == [] and obj["unclear"] == ["r2c8"]
    assert str(obj["entries"])[WRONG] == "0" and obj["entries_checked"] == len(ENTRIES) - 1
    after = cv2.imread(str(out))
    mask = _cell(geo, WRONG, after.shape)
    assert not (_ring(after) & mask).any()  # no mistake's ring; a grey dashed one
    assert (_ring(after, UNCLEAR_COLOUR) & mask).sum() > 20
    code, text = run("solve", str(started), "-o", str(tmp_path / "again.png"))
    assert code == ExitCode.OK
    assert f"Entries: {len(ENTRIES) - 1} checked, all right; " in text
    assert "1 entry unclear, not checked: r2c8" in text
    code, text = run("read", str(started), "--json")
    assert code == ExitCode.OK and json.loads(text)["unclear"] == ["r2c8"]


@pytest.mark.usefixtures("unclear_wrong")
def test_batch_rows_carry_the_unclear_entries(
    photos: tuple[Path, Path, GridGeometry], tmp_path: Path
) -> None:
    started, _, _ = photos
    out = tmp_path / "out"
    code, _ = run("batch", str(started), "-o", str(out), "--jobs", "1", "--quiet")
    assert code == ExitCode.OK
    row = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert row["unclear"] == ["r2c8"] and row["mistakes"] == []
    with (out / "summary.csv").open() as fh:
        assert next(csv.DictReader(fh))["unclear"] == "r2c8"
