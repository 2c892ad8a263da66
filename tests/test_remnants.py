"""Grid-line remnants in a cell cut a little off are erased; digits are kept.

On crumpled paper the lattice can be a few pixels off a wavy line, which then crosses
the cell as a slanted or bent stroke that the straight line openings do not take; read,
it looks like a 1. ``ink_maps_and_gains(..., remnants=True)`` erases such strokes.
"""

from __future__ import annotations

from itertools import pairwise

import cv2
import numpy as np

from scanner.digits.preprocess import CELL, CV_MAX_CHANNELS, _darkness, ink_maps_and_gains


def _cell(*strokes: tuple[tuple[int, int], tuple[int, int], int]) -> np.ndarray:
    """A light cell (64, 64) with dark strokes ((x0, y0), (x1, y1), width)."""
    cell = np.full((CELL, CELL), 215, np.uint8)
    for p0, p1, width in strokes:
        cv2.line(cell, p0, p1, 40, width, cv2.LINE_AA)
    return cell


# A 4 in the batch sets the grid's ink strength, as the grid's digits do.
FOUR = ((22, 14), (22, 40), 4), ((22, 40), (44, 40), 4), ((38, 14), (38, 52), 4)


def _ink(cell: np.ndarray, *, remnants: bool) -> np.ndarray:
    batch = np.stack([cell, _cell(*FOUR)])
    return ink_maps_and_gains(batch, remnants=remnants)[0][0]


def test_a_slanted_line_along_the_side_is_erased() -> None:
    # A cell line slanting across the left part of the cell, from near its top edge.
    cell = _cell(((6, 4), (16, 58), 3))
    assert _ink(cell, remnants=False).max() > 0.5  # the openings leave it
    assert _ink(cell, remnants=True).max() < 0.1


def test_a_slanted_line_at_the_bottom_is_erased() -> None:
    cell = _cell(((2, 44), (62, 62), 3))
    assert _ink(cell, remnants=False).max() > 0.5
    assert _ink(cell, remnants=True).max() < 0.1


def test_a_one_in_a_cell_cut_off_is_kept() -> None:
    # A plain 1 in a cell cut 15% off to the left and up: it nears the top edge, but
    # keeps to the middle across its direction.
    cell = _cell(((23, 4), (23, 42), 4))
    kept = _ink(cell, remnants=True)
    assert np.allclose(kept, _ink(cell, remnants=False))
    assert kept.max() > 0.5


def test_a_digit_touching_a_line_is_kept() -> None:
    # A 7 whose stroke runs into a remnant along the right side: one blob, no thin stroke.
    cell = _cell(((20, 14), (46, 14), 4), ((46, 14), (30, 50), 4), ((58, 2), (56, 62), 3))
    kept = _ink(cell, remnants=True)
    assert kept[14, 30] > 0.5 and kept[32, 38] > 0.5


def test_a_line_across_the_middle_from_edge_to_edge_is_erased() -> None:
    # A wavy frame the lattice put inside the cell (crumpled stress page 10, corner
    # cell r9c1): central, so not "along a side", but it runs from the top edge to the
    # bottom one as no digit does; it read as a 1 at 0.99.
    cell = _cell(((20, 0), (40, 63), 4))
    assert _ink(cell, remnants=False).max() > 0.5
    assert _ink(cell, remnants=True).max() < 0.1
    # The same stroke stopping short of either edge is a digit's: kept.
    short = _cell(((23, 10), (37, 53), 4))
    assert np.allclose(_ink(short, remnants=True), _ink(short, remnants=False))


def test_a_batch_of_cells_is_each_cell_alone() -> None:
    # The darkness maps are made with the cells as one image's channels, in chunks of
    # CV_MAX_CHANNELS, and the remnants labelled in one stack: each cell must come out
    # as it does alone. Strokes touch the top and bottom edges (cells stacked one above
    # the other must not join), and there are more cells than one chunk holds.
    rng = np.random.default_rng(3)
    cells = []
    for i in range(CV_MAX_CHANNELS + 22):
        x = int(rng.integers(4, 20))
        kind = i % 4
        if kind == 0:
            cells.append(_cell(*FOUR))
        elif kind == 1:
            cells.append(_cell(((x, 0), (x + 8, 63), 3)))  # edge to edge: a remnant
        elif kind == 2:
            cells.append(_cell(((x, 50), (x + 30, 63), 3), ((30, 10), (30, 40), 4)))
        else:
            cells.append(np.asarray(rng.integers(150, 230, (CELL, CELL)), np.uint8))
    batch = np.stack(cells)
    for remnants in (False, True):
        together = _darkness(batch, remnants=remnants)
        alone = np.concatenate([_darkness(cell[None], remnants=remnants) for cell in batch])
        assert np.array_equal(together, alone)
    # The remnants were there to erase.
    assert not np.array_equal(_darkness(batch, remnants=True), _darkness(batch, remnants=False))


def test_a_wavy_line_along_the_side_is_erased_beside_the_digit() -> None:
    # A crumpled page's cell line, bent back and forth down the right part of the cell
    # (crumpled stress page 1418, r2c5, where it read the 3 beside it as a 1): too wavy
    # for a straight stroke, but no more ink than a bar five times longer than wide.
    wave = [(52, 8), (44, 20), (58, 34), (46, 48), (56, 63)]
    line = [(a, b, 2) for a, b in pairwise(wave)]
    three = [((16, 16), (32, 16), 4), ((32, 16), (24, 30), 4), ((24, 30), (32, 40), 4)]
    cell = _cell(*three, *line)
    assert _ink(cell, remnants=False)[34, 57] > 0.5
    kept = _ink(cell, remnants=True)
    assert kept[30:40, 40:64].max() < 0.1
    assert np.allclose(kept[:, :38], _ink(_cell(*three), remnants=True)[:, :38], atol=0.02)


def test_a_written_1_with_its_long_flag_across_the_cell_is_kept() -> None:
    # A handwritten 1 (bench_mixed's red pen page 10, Delphine): a long flag up to the
    # right and the stem back down, from the left edge to the right one through the
    # middle. As bent and thin as a wavy line, but central: a digit's stroke.
    one = _cell(((4, 40), (58, 10), 3), ((58, 10), (34, 52), 3))
    assert np.allclose(_ink(one, remnants=True), _ink(one, remnants=False))


def test_a_crossed_7_written_against_the_side_is_kept() -> None:
    # A 7 in thin pen, written well left with its crossbar run out to the left line
    # (bench_mixed's blue pen page 73, Delphine, r5c9): bent, thin and along the left
    # side as a wavy line's remnant is, but a fifth of its ink crosses the inner part of
    # the cell, where no line's remnant lies. Erased, the cell read empty and the entry
    # was missed.
    seven = _cell(((2, 12), (30, 10), 2), ((30, 10), (8, 56), 2), ((0, 34), (26, 32), 2))
    kept = _ink(seven, remnants=True)
    assert np.allclose(kept, _ink(seven, remnants=False))
    assert kept[9:13, 14:24].max() > 0.5


def test_a_bent_corner_where_two_lines_meet_is_erased() -> None:
    # A crumpled 12 MP page (stress crumpled-12mp 1816, r2c3): the lattice cut the cell
    # across the corner where its top and left lines meet, an L as wide as it is tall.
    corner = _cell(((4, 44), (7, 7), 2), ((7, 7), (44, 4), 2), ((30, 20), (30, 50), 4))
    assert _ink(corner, remnants=False)[6, 20] > 0.5
    kept = _ink(corner, remnants=True)
    assert kept[:12, :40].max() < 0.1 and kept[:40, :12].max() < 0.1
    assert kept[30, 30] > 0.5  # the 1 beside it stays
