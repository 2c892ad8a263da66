"""The hint given with an unreadable grid (``scanner.quality.diagnose``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner import api
from scanner.api import read_photo
from scanner.cells import extract_cells, extract_colour_cells
from scanner.geometry import GridGeometry
from scanner.load import load_image
from scanner.locate import locate_grid, shifted_lattice
from scanner.quality import (
    BENT_CAUSE,
    BOX_LINES_CAUSE,
    COVERED_CAUSE,
    SEEN_MIDDLE,
    advice_beyond,
    box_lines_off,
    box_lines_shift,
    covered_cells,
    crossed_cells,
    cut_off_cells,
    diagnose,
    folded_cells,
    frame_missed,
    line_lengths,
    lines_through,
)
from scanner.reading import Problem, ReadStatus
from scanner.robust import group_medians, group_percentile, robust_sd, row_percentiles
from solver.generate import generate
from tests.synth import (
    STRESS_STYLES,
    FontSet,
    font_families,
    render_puzzle_photo,
    render_stress_page,
    stress_benchmark_page,
)

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def _located(blur: float) -> tuple[np.ndarray, GridGeometry]:
    image, _, _ = render_puzzle_photo(PUZZLE, seed=3, blur=blur, size=(1000, 800))
    gray = load_image(image, gray=True).gray
    return gray, locate_grid(gray)


@pytest.mark.parametrize(("blur", "blurred"), [(0.0, False), (6.0, True)])
def test_blur_is_named_only_when_the_photo_is_blurred(blur: float, blurred: bool) -> None:
    gray, geometry = _located(blur)
    hint = diagnose(geometry, extract_cells(gray, geometry), [0, 1])
    assert ("blurred" in hint) is blurred
    assert hint  # there is always something to say


def test_a_grid_cut_off_by_the_edge_is_named() -> None:
    gray, geometry = _located(0.0)
    lattice = geometry.lattice.copy()
    lattice[..., 0] -= lattice[0, 0, 0] + 2 * (lattice[0, 1, 0] - lattice[0, 0, 0])
    moved = GridGeometry(lattice, geometry.image_size)
    hint = diagnose(moved, extract_cells(gray, geometry), [0])
    assert "cut off" in hint


def test_cells_whose_middle_leaves_the_photo_are_cut_off() -> None:
    # A square grid of 50 px cells at (100, 100) in a 600 x 600 photo, moved left so
    # that the photo's edge runs through the first column at a share ``x`` of it.
    steps = np.arange(10) * 50.0
    square = np.stack(np.meshgrid(steps, steps), axis=-1) + 100.0
    assert not cut_off_cells(GridGeometry(square, (600, 600))).any()
    for x, cut in ((0.1, False), (0.5 - SEEN_MIDDLE / 2 + 0.05, True), (0.5, True)):
        moved = square - (square[0, 0, 0] + x * 50.0, 0.0)
        out = cut_off_cells(GridGeometry(moved, (600, 600))).reshape(9, 9)
        assert out[:, 0].all() == cut and not out[:, 1:].any(), x


def test_a_grid_line_through_the_middle_of_cells_is_found() -> None:
    # Cut through the lattice found, no cell has a line in its middle; with the last
    # upright line moved two fifths of a cell outwards (onto a phone's edge, say) and
    # the line under row 4 half a cell down, the grid's own lines run through the cells
    # of column 9 and of row 4 (and only those).
    gray, geometry = _located(0.0)
    assert not lines_through(extract_cells(gray, geometry)).any()
    lattice = geometry.lattice.copy()
    width = lattice[:, 9] - lattice[:, 8]
    lattice[:, 9] += 0.4 * width
    lattice[4] += 0.5 * (lattice[5] - lattice[4])
    found = lines_through(extract_cells(gray, GridGeometry(lattice, geometry.image_size)))
    expected = np.zeros((9, 9), dtype=bool)
    expected[:, 8] = expected[3, :] = True
    np.testing.assert_array_equal(found.reshape(9, 9), expected)


def test_a_grid_line_through_one_cell_is_found_in_the_cells_asked_about() -> None:
    # With two crossings of the line under row 7 pulled half a cell up (a crumpled page
    # bending its lines off the lattice by the frame), that line runs through r8c1,
    # which no whole row or column shows; no cell as found holds half as long a line.
    gray, geometry = _located(0.0)
    assert line_lengths(extract_cells(gray, geometry)).max() < 0.5
    lattice = geometry.lattice.copy()
    lattice[7, :2] -= 0.5 * (lattice[8, :2] - lattice[7, :2])
    cells = extract_cells(gray, GridGeometry(lattice, geometry.image_size))
    assert not lines_through(cells).any()
    asked = np.zeros(81, dtype=bool)
    asked[[63, 64, 40]] = True
    assert np.flatnonzero(crossed_cells(cells, asked)).tolist() == [63]
    asked[63] = False
    assert not crossed_cells(cells, asked).any()


def test_an_outer_line_pulled_off_the_frame_is_named_and_a_shaded_frame_is_not() -> None:
    # The lattice found lies on the frame all round. With the bottom line's fifth and
    # sixth crossings pulled half a cell up (a crumpled edge followed wrongly), the
    # frame stands beyond the edges beside them; of the cells along those, r9c5 lost
    # the foot of its 1 below the line: it is named, and only it (the empty r9c4 and
    # r9c6 lost nothing).
    gray, geometry = _located(0.0)
    assert not frame_missed(gray, geometry).any()
    lattice = geometry.lattice.copy()
    up = (lattice[9, 0] - lattice[8, 0]) * 0.5
    lattice[9, 4:6] -= up
    pulled = GridGeometry(lattice, geometry.image_size)
    found = frame_missed(gray, pulled)
    assert [tuple(c) for c in np.argwhere(found.reshape(9, 9))] == [(8, 4)]
    # The hint says what to do about it, where the cell is among the doubtful.
    hint = diagnose(pulled, extract_cells(gray, pulled), [76], off_frame=found)
    assert hint.startswith(BENT_CAUSE) and "flatten" in hint
    assert BENT_CAUSE not in diagnose(pulled, extract_cells(gray, pulled), [0], off_frame=found)
    # Pulled a fifth of a cell, the frame is still within reach: none named.
    lattice[9, 4:6] += 0.6 * up
    assert not frame_missed(gray, GridGeometry(lattice, geometry.image_size)).any()
    # A frame in deep shade is faint where the lattice lies, with no line beyond it.
    shaded = gray.copy()
    h = shaded.shape[0]
    shade = int(geometry.lattice[0, 2, 0])  # the first two columns and the page beside
    shaded[:, :shade] = (shaded[:, :shade] * 0.15).astype(np.uint8)
    assert not frame_missed(shaded, geometry).any()
    # Nor is an edge judged where the look across runs off the photo (what lies beyond
    # its edge is no frame): the left frame gone (faded, say) and the photo cut a third
    # of a cell outside the lattice's left line.
    x = round(float(geometry.lattice[:, 0, 0].max()))
    width = int(geometry.lattice[0, 1, 0] - geometry.lattice[0, 0, 0])
    faded = gray.copy()
    faded[:, : x + width // 8] = 255
    left = x - width // 3
    cropped = faded[:, left:]
    moved = geometry.lattice.copy()
    moved[..., 0] -= left
    assert not frame_missed(cropped, GridGeometry(moved, (cropped.shape[1], h))).any()


def test_a_cell_squeezed_between_two_lattice_lines_is_a_fold() -> None:
    # A flat lattice and a steep keystone (the far row 0.45 as wide as the near one)
    # have no fold; with the top frame's fourth crossing slid 0.7 of a cell left (onto
    # the box line's neighbour, as crumpled paper can pull it), r1c3 is squeezed to 0.3
    # of a cell between r1c2's 1 and r1c4's 1.7: the three are named, and only they.
    steps = np.arange(10) * 50.0
    square = np.stack(np.meshgrid(steps, steps), axis=-1) + 100.0
    assert not folded_cells(GridGeometry(square, (700, 700))).any()
    corners = [(245, 100), (455, 100), (600, 600), (100, 600)]
    keystone = GridGeometry.from_corners(corners, (700, 700))
    assert not folded_cells(keystone).any()
    folded = square.copy()
    folded[0, 3, 0] -= 0.7 * 50.0
    found = folded_cells(GridGeometry(folded, (700, 700)))
    assert [tuple(c) for c in np.argwhere(found.reshape(9, 9))] == [(0, 1), (0, 2), (0, 3)]
    # Slid less than two thirds of a cell, the squeezed cell is over a third of the
    # stretched one: a crumpled page's cells, not a fold.
    folded[0, 3, 0] += 0.25 * 50.0
    assert not folded_cells(GridGeometry(folded, (700, 700))).any()


def test_a_reading_through_a_folded_lattice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # The page's printed 3 in r1c3 is cut squeezed, its box line beside it: no reading
    # is returned, and the hint says the page bends the lines off the cells.
    image, _, _ = render_puzzle_photo(PUZZLE, seed=3, size=(1000, 800))
    locate = api.locate_grid

    def folding(gray: np.ndarray, **kwargs: object) -> GridGeometry:
        found = locate(gray, **kwargs)
        lattice = found.lattice.copy()
        lattice[0, 3] -= 0.7 * (lattice[0, 3] - lattice[0, 2])
        return GridGeometry(lattice, found.image_size)

    monkeypatch.setattr(api, "locate_grid", folding)
    scan = read_photo(image)
    assert scan.status == ReadStatus.UNREADABLE
    assert scan.problems == [Problem.FOLDED_LATTICE]
    assert {2, 3} <= set(scan.doubtful_cells)
    assert scan.hint.startswith(BENT_CAUSE)


@pytest.mark.parametrize(("rows", "cols"), [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_a_lattice_a_cell_off_a_grid_with_bold_box_lines_is_named(rows: int, cols: int) -> None:
    # Every third line bold, the lattice right: its 0, 3, 6, 9 are the bold ones.
    gray, geometry = _located(0.0)
    assert not box_lines_off(gray, geometry)
    moved = GridGeometry(shifted_lattice(geometry.lattice, rows, cols), geometry.image_size)
    assert box_lines_off(gray, moved)


# A 17-clue puzzle (Royle's list) with its first column empty, and the page that reads
# as it a column to the left: its every column one to the left, the last one empty.
EMPTY_FIRST_COLUMN = (
    "000000000000000001000002030000004506003000000017000800000160000008000040060500200"
)
SHIFTED_LEFT = "".join(EMPTY_FIRST_COLUMN[r * 9 + 1 : r * 9 + 9] + "0" for r in range(9))


def _locating_off(monkeypatch: pytest.MonkeyPatch, rows: int, cols: int) -> None:
    """Make the reader's locator place every lattice ``rows`` and ``cols`` cells off."""
    locate = api.locate_grid

    def off(gray: np.ndarray, **kwargs: object) -> GridGeometry:
        found = locate(gray, **kwargs)
        return GridGeometry(shifted_lattice(found.lattice, rows, cols), found.image_size)

    monkeypatch.setattr(api, "locate_grid", off)


def test_a_valid_puzzle_read_through_a_lattice_a_cell_off_is_not_returned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Through a lattice a column to the left of the grid this page reads, every digit
    # surely, as a valid puzzle with one solution: not the one printed. Moved onto the
    # bold lines, the lattice reads what is printed.
    image, _, _ = render_puzzle_photo(SHIFTED_LEFT, seed=3, size=(1000, 800))
    _locating_off(monkeypatch, 0, -1)
    scan = read_photo(image)
    assert "".join(map(str, scan.givens)) == SHIFTED_LEFT
    assert scan.status != ReadStatus.OK  # (it has no one solution)


@pytest.mark.parametrize(("rows", "cols"), [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_a_lattice_a_cell_off_is_moved_onto_the_grid(
    monkeypatch: pytest.MonkeyPatch, rows: int, cols: int
) -> None:
    image, _, _ = render_puzzle_photo(PUZZLE, seed=3, size=(1000, 800))
    _locating_off(monkeypatch, rows, cols)
    scan = read_photo(image)
    assert scan.status == ReadStatus.OK
    assert "".join(map(str, scan.givens)) == PUZZLE


def test_a_lattice_two_cells_off_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two columns to the left, the bold lines lie a column to the right of its box
    # lines; moved a column to the left, onto them, its frame is on bare paper.
    image, _, _ = render_puzzle_photo(PUZZLE, seed=3, size=(1000, 800))
    _locating_off(monkeypatch, 0, -2)
    scan = read_photo(image)
    assert scan.status == ReadStatus.UNREADABLE
    assert scan.problems == [Problem.BOX_LINES_OFF]
    assert scan.problem == BOX_LINES_CAUSE
    assert scan.hint == "take the photo again closer, the grid filling the photo"


def test_a_grid_without_bold_box_lines_is_never_a_cell_off() -> None:
    # All its lines alike: no lattice on it says anything, right or moved.
    seed = 7
    font = font_families(FontSet.HELD_OUT)[0][0]
    page = render_stress_page(
        generate(seed), style=STRESS_STYLES["no-box-lines"], seed=seed, font=font
    )
    gray = load_image(page.image, gray=True).gray
    size = (gray.shape[1], gray.shape[0])
    lattice = np.asarray(page.lattice, dtype=np.float64)
    for rows, cols in [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1)]:
        assert not box_lines_off(gray, GridGeometry(shifted_lattice(lattice, rows, cols), size))


def _frame_only_page(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A frame-only page (thin grey lines inside a bold frame): its photo (BGR), the
    reader's ink of it (gray) and its true lattice."""
    font = font_families(FontSet.HELD_OUT)[0][0]
    page = render_stress_page(
        generate(seed), style=STRESS_STYLES["frame-only"], seed=seed, font=font
    )
    gray = load_image(page.image, gray=True).gray
    return page.image, gray, np.asarray(page.lattice, dtype=np.float64)


@pytest.mark.parametrize(("rows", "cols"), [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_a_lattice_a_cell_off_a_grid_whose_only_bold_lines_are_its_frame_is_moved_back(
    rows: int, cols: int
) -> None:
    # No box lines stand out every third; the frame still tells the lattice's place.
    _, gray, lattice = _frame_only_page(11)
    size = (gray.shape[1], gray.shape[0])
    assert box_lines_shift(gray, GridGeometry(lattice, size)) == (0, 0)
    moved = GridGeometry(shifted_lattice(lattice, rows, cols), size)
    assert box_lines_shift(gray, moved) == (-rows, -cols)


def test_a_frame_only_grid_read_through_a_lattice_a_cell_off_reads_as_printed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The lattice a column into the text beside the grid: moved back onto the frame,
    # the page reads as printed.
    seed = 11
    image, _, _ = _frame_only_page(seed)
    _locating_off(monkeypatch, 0, 1)
    scan = read_photo(image)
    assert scan.status == ReadStatus.OK
    assert scan.givens == generate(seed)


def _bar(gray: np.ndarray, tip: np.ndarray, way: np.ndarray, width: float, level: int) -> None:
    """Draw a rounded bar (a fingertip) into ``gray``: from ``tip`` out along ``way``
    past the image's edge, ``width`` px across, flat at ``level``."""
    far = tip + way * 4 * max(gray.shape)
    cv2.line(gray, tuple(int(v) for v in tip), tuple(int(v) for v in far), level, int(width))
    cv2.circle(gray, tuple(int(v) for v in tip), int(width / 2), level, -1)


def test_a_shade_over_the_grids_edge_that_keeps_its_frame_covers_nothing() -> None:
    # Crinkled newsprint in a shaded band reaching over the frame: its dotted lines fade
    # in the shade, as under a finger, but the bold frame goes on under it (the stress
    # benchmark's page 5859 of the style, in its font; refused as "covered" until
    # 2026-12-02).
    page = stress_benchmark_page("newsprint-crinkled", 5859, "Quicksand")
    scan = read_photo(page.image)
    assert Problem.COVERED not in scan.problems
    assert scan.status == ReadStatus.OK
    assert scan.givens == page.givens


def test_a_finger_over_the_grid_covers_the_cells_under_it_and_nothing_else_does() -> None:
    gray, geometry = _located(0.0)
    lat = geometry.lattice
    cell = float(np.median(np.diff(lat[:, :, 0], axis=1)))
    assert not covered_cells(extract_cells(gray, geometry)).any()
    # A fingertip from below reaching up into the middle of r9c5 (half a cell wider
    # than a cell): r9c5 is under it, r8c5 and the cells beside it are not.
    fingered = gray.copy()
    _bar(fingered, (lat[9, 4] + lat[8, 5]) / 2, np.array([0.0, 1.0]), 1.5 * cell, 150)
    found = covered_cells(extract_cells(fingered, geometry)).reshape(9, 9)
    assert found[8, 4] and found.sum() <= 3 and not found[:8].any(), np.argwhere(found)
    # The same patch not reaching the grid's edge (a dark sticker in the middle) and a
    # shaded box whose lines show through are no finger.
    inside = gray.copy()
    cv2.circle(inside, tuple(int(v) for v in (lat[4, 4] + lat[5, 5]) / 2), int(0.8 * cell), 150, -1)
    assert not covered_cells(extract_cells(inside, geometry)).any()
    shaded = gray.copy()
    x0, y0 = (int(v) for v in lat[6, 3])
    x1, y1 = (int(v) for v in lat[9, 6])
    shaded[y0:y1, x0:x1] = (shaded[y0:y1, x0:x1] * 0.7).astype(np.uint8)
    assert not covered_cells(extract_cells(shaded, geometry)).any()
    # The hint says what to do about it.
    hint = diagnose(geometry, extract_cells(fingered, geometry), [76])
    assert hint.startswith(COVERED_CAUSE) and "nothing over the grid" in hint


def test_a_light_fingertip_of_skin_over_the_grid_is_told_by_its_colour() -> None:
    # A fingertip as bright as the paper (a light finger over a page in shade is no
    # darker than the shaded paper beside it) but of skin's colour: the gray cells miss
    # it, the colour cells find it; a box tinted pink, whose lines show, is no finger.
    image, _, _ = render_puzzle_photo(PUZZLE, seed=3, size=(1000, 800))
    geometry = locate_grid(load_image(image, gray=True).gray)
    lat = geometry.lattice
    cell = float(np.median(np.diff(lat[:, :, 0], axis=1)))

    def covered(photo: np.ndarray) -> np.ndarray:
        gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
        colours = extract_colour_cells(photo, geometry, size=32)
        cells = extract_cells(gray, geometry)
        return covered_cells(cells, colours=colours).reshape(9, 9)

    assert not covered(image).any()
    fingered = image.copy()
    tip = (lat[4, 9] + lat[5, 8]) / 2  # into r5c9 from the right
    far = tip + np.array([4.0 * image.shape[1], 0.0])
    skin = (175, 212, 250)  # BGR: as light as the paper in gray
    cv2.line(
        fingered, tuple(int(v) for v in tip), tuple(int(v) for v in far), skin, int(1.5 * cell)
    )
    cv2.circle(fingered, tuple(int(v) for v in tip), int(0.75 * cell), skin, -1)
    gray = cv2.cvtColor(fingered, cv2.COLOR_BGR2GRAY)
    assert not covered_cells(extract_cells(gray, geometry)).any()
    found = covered(fingered)
    assert found[4, 8] and found.sum() <= 3 and not found[:, :7].any(), np.argwhere(found)
    tinted = image.copy()
    x0, y0 = (int(v) for v in lat[3, 6])
    x1, y1 = (int(v) for v in lat[6, 9])
    pink = np.array([0.88, 0.82, 1.0])  # BGR gains: lines stay dark, paper turns pink
    tinted[y0:y1, x0:x1] = (tinted[y0:y1, x0:x1] * pink).astype(np.uint8)
    assert not covered(tinted).any()
    # A box at the grid's edge tinted as pale as skin, whose inner lines faded under the
    # tint (as dotted grey lines do on a low-resolution page; its digits elsewhere): it
    # ends along the grid's lines, where a finger ends anywhere.
    faded = image.copy()
    x0, y0 = int(lat[3, 0, 0]), int(lat[3, 0, 1]) + 3  # from the frame's middle
    x1, y1 = (int(v) - 3 for v in lat[6, 3])
    faded[y0:y1, x0:x1] = skin
    assert not covered(faded).any()


def test_a_small_grid_is_named() -> None:
    gray, geometry = _located(0.0)
    small = GridGeometry(geometry.lattice * 0.2, geometry.image_size)
    hint = diagnose(small, extract_cells(gray, geometry), [0])
    assert "small" in hint


def test_robust_sd_is_a_normals_spread_and_ignores_outliers() -> None:
    rng = np.random.default_rng(5)
    sample = rng.normal(10.0, 2.0, 4001)
    assert robust_sd(sample - np.median(sample)) == pytest.approx(2.0, rel=0.05)
    # A tenth of the values thrown far off (a stray line, another ink) barely move it,
    # where the plain standard deviation grows from 2 past 100.
    spoilt = sample.copy()
    spoilt[::10] = 1000.0
    assert robust_sd(spoilt - np.median(spoilt)) == pytest.approx(2.0, rel=0.2)
    assert np.std(spoilt) > 100
    # Distances (all positive) are spread alike: the median distance, scaled.
    assert robust_sd(np.abs(sample - 10.0)) == pytest.approx(2.0, rel=0.05)


@pytest.mark.parametrize("width", [1, 2, 7, 480, 4096])
def test_row_percentiles_are_numpys_to_the_bit(width: int) -> None:
    rng = np.random.default_rng(width)
    rows = [
        rng.integers(0, 256, (50, width)),  # anything
        rng.integers(120, 125, (50, width)),  # a few levels: many ties
        np.clip(rng.normal(210, 25, (50, width)), 0, 255),  # paper and some ink
    ]
    q = [0, 1, 3, 50, 90, 95, 99.5, 100, 100 * float(rng.random())]
    for levels in (r.astype(np.uint8) for r in rows):
        got = row_percentiles(levels, q)
        assert np.array_equal(got, np.percentile(levels, q, axis=1))
        assert np.array_equal(got[3], np.median(levels, axis=1))
    with pytest.raises(TypeError, match="8-bit"):
        row_percentiles(np.zeros((2, 3)), [50])


def test_group_medians_and_percentiles_are_numpys_to_the_bit() -> None:
    rng = np.random.default_rng(7)
    sizes = np.array([1, 2, 3, 10, 11, 400, 4096, 0, 5], dtype=np.intp)
    levels = rng.integers(0, 256, int(sizes.sum())).astype(np.uint8)
    levels[13:24] = 200  # one group all alike
    values = rng.normal(0, 40, int(sizes.sum())) * 0.5
    medians = group_medians(levels, sizes)
    start = 0
    for g, size in enumerate(sizes):
        part = slice(start, start + size)
        if size:
            assert medians[g] == np.median(levels[part])
        else:
            assert np.isnan(medians[g])  # no levels, no median
        start += size
    kept = sizes > 0
    kept_values = np.concatenate(
        [values[s - n : s] for s, n in zip(np.cumsum(sizes), sizes, strict=True) if n]
    )
    for q in (0, 50, 90, 99.5, 100):
        got = group_percentile(kept_values, sizes[kept], q)
        groups = np.split(kept_values, np.cumsum(sizes[kept])[:-1])
        assert np.array_equal(got, [np.percentile(v, q) for v in groups])
    with pytest.raises(ValueError, match="empty group"):
        group_percentile(values, sizes, 90)


@pytest.mark.parametrize(
    ("problem", "advice"),
    [
        ("the grid is cut off: 9 cells not in the photo", "take the photo again"),
        ("the digits as read clash: 4 twice, in r1c1 and r1c2", "the grid is cut off: take"),
    ],
)
def test_a_hint_gives_its_cause_only_where_the_problem_does_not(problem: str, advice: str) -> None:
    hint = "the grid is cut off: take the photo again with the whole grid in view"
    assert advice_beyond(problem, hint).startswith(advice)
    assert advice_beyond(problem, "check the doubtful cells") == "check the doubtful cells"
