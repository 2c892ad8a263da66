"""Digit engines (``scanner.digits``) and reading revision (``scanner.reading``)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.digits import (
    DEFAULT_ENGINE,
    ENGINES,
    DigitEngine,
    DigitEngineError,
    available_engines,
    get_engine,
    synth,
)
from scanner.digits import tesseract as tess
from scanner.digits.cnn import (
    HAND_CLASSES,
    HAND_SMOOTHING,
    WEIGHTS,
    CnnEngine,
    WeightsError,
    _conv3x3_pool_relu,
    unsmoothed,
)
from scanner.digits.preprocess import CV_MAX_CHANNELS, hand_inputs, ink_strokes, ink_strokes_of
from scanner.errors import MissingDependencyError
from scanner.reading import (
    CONFIDENT,
    RIVAL_ODDS,
    Correction,
    Problem,
    ReadStatus,
    orientation_score,
    reads_upright,
    revise,
)
from solver.errors import BadArgsError, SudokuScanError
from solver.grid import cell_name
from solver.search import solutions

# Project Euler 96, grid 01: a proper puzzle (one solution).
PUZZLE = [
    int(ch)
    for ch in "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
]
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX)


def mild_style(rng: np.random.Generator) -> synth.Style:
    """A phone-photo look, distorted but clearly legible."""
    base = synth.Style.random(rng)
    return dataclasses.replace(
        base,
        digit_height=float(rng.uniform(0.45, 0.62)),
        stroke=0,
        shift=(float(rng.uniform(-0.08, 0.08)), float(rng.uniform(-0.08, 0.08))),
        angle=float(rng.uniform(-2, 2)),
        resolution=int(rng.integers(36, 64)),
        blur=float(rng.uniform(0.3, 0.9)),
        paper=float(rng.uniform(150, 230)),
        contrast=float(rng.uniform(0.6, 0.85)),
        noise=float(rng.uniform(0, 3)),
        jpeg=80,
        shade=0.0,
        shadow=0.0,
    )


def render_grid(values: list[int], face: int, seed: int) -> np.ndarray:
    """Cells (81, 64, 64) of a grid printed in a Hershey font (never used in training)."""
    rng = np.random.default_rng(seed)
    glyphs = synth.hershey_glyphs(face, thickness=7)
    style = mild_style(rng)
    cells = [
        synth.render_cell(glyphs[v - 1] if v else None, style.for_cell(rng), rng, neighbours=glyphs)
        for v in values
    ]
    return np.stack(cells)


def one_hot_probs(values: list[int], p: float = 0.97) -> np.ndarray:
    """Confident probabilities (81, 10) for a reading."""
    probs = np.full((81, 10), (1 - p) / 9)
    probs[np.arange(81), values] = p
    return probs


@pytest.fixture(scope="module")
def cnn() -> DigitEngine:
    return get_engine("cnn")


@pytest.fixture(scope="module")
def hershey_grids() -> list[tuple[int, np.ndarray]]:
    return [(face, render_grid(PUZZLE, face, seed)) for seed, face in enumerate(HERSHEY)]


# ---------------------------------------------------------------- engines and registry


def test_registry() -> None:
    assert DEFAULT_ENGINE in ENGINES
    assert "cnn" in available_engines()
    engine = get_engine("cnn")
    assert isinstance(engine, DigitEngine)
    assert engine.name == "cnn"
    with pytest.raises(BadArgsError, match="unknown digit engine"):
        get_engine("abacus")


def test_weights_are_small_and_bundled() -> None:
    assert WEIGHTS.is_file()
    assert WEIGHTS.stat().st_size < 2 * 1024 * 1024
    assert CnnEngine().hand is not None  # the hand reader ships with the reader


def test_hand_inputs_write_every_digit_at_one_size_in_the_middle() -> None:
    x = np.zeros((4, 1, 32, 32), dtype=np.float32)
    x[0, 0, 12:20, 14:17] = 1.0  # a small written 1, 8 pixels tall
    x[1, 0, 4:28, 8:20] = 1.0  # a big one, off to the left
    x[2, 0, 10:22, 1:3] = 1.0  # only a neighbour's bit at the edge: left as it is
    x[2, 0, 14:18, 14:18] = 1.0
    out = hand_inputs(x)
    for i in (0, 1):
        ys, xs = np.nonzero(out[i, 0] > 0.35)
        assert 21 <= ys.max() - ys.min() + 1 <= 23  # the longer side: 22 pixels
        assert abs((ys.max() + ys.min() + 1) / 2 - 16) <= 1
        assert abs((xs.max() + xs.min() + 1) / 2 - 16) <= 1
    alone = x[2:3].copy()
    alone[0, 0, :, :3] = 0.0
    # The edge's bit was no part of the digit: the square is scaled as if alone.
    assert np.allclose(out[2], hand_inputs(alone)[0])
    assert not np.allclose(out[2], x[2])
    assert np.array_equal(out[3], x[3])  # blank: passed as it is


def test_the_hand_readers_smoothing_floor_is_taken_off() -> None:
    floor = HAND_SMOOTHING / HAND_CLASSES
    sure = np.full(HAND_CLASSES, floor, dtype=np.float32)
    sure[6] = 1.0 - floor * (HAND_CLASSES - 1)  # what training teaches for a sure 7
    torn = np.full(HAND_CLASSES, floor, dtype=np.float32)
    torn[[0, 6]] = (1.0 - floor * (HAND_CLASSES - 2)) / 2 + np.array([0.1, -0.1])
    out = unsmoothed(np.stack([sure, torn]))
    assert np.allclose(out.sum(axis=1), 1.0)
    # A digit at the floor is ruled out, however sure the rest ...
    assert out[0, 6] > 0.999 and out[0, :6].max() < 1e-3 and out[1, 1:6].max() < 1e-3
    # ... and a doubt between two digits stays one, in the same order.
    assert 0.35 < out[1, 6] < out[1, 0] < 0.65


def test_bad_weights_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "weights.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(WeightsError, match="train"):
        CnnEngine(bad)
    assert issubclass(WeightsError, SudokuScanError)


def test_classify_returns_probabilities(cnn: DigitEngine, hershey_grids) -> None:
    probs = cnn.classify(hershey_grids[0][1])
    assert probs.shape == (81, 10)
    assert probs.dtype == np.float32
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert (probs >= 0).all()


def test_classify_rejects_wrong_shapes(cnn: DigitEngine) -> None:
    with pytest.raises(ValueError, match="shape"):
        cnn.classify(np.zeros((81, 32, 32), dtype=np.uint8))
    with pytest.raises(ValueError, match="uint8"):
        cnn.classify(np.zeros((81, 64, 64), dtype=np.float32))


def test_cnn_reads_an_unseen_font(cnn: DigitEngine, hershey_grids) -> None:
    for face, cells in hershey_grids:
        read = cnn.classify(cells).argmax(axis=1)
        wrong = [(cell_name(c), PUZZLE[c], int(read[c])) for c in range(81) if read[c] != PUZZLE[c]]
        # Allowing one slip per grid: revise() is there to catch those.
        assert len(wrong) <= 1, f"Hershey font {face}: {wrong}"


def test_cnn_plus_revise_reads_unseen_font_exactly(cnn: DigitEngine, hershey_grids) -> None:
    for _, cells in hershey_grids:
        reading = revise(cnn.classify(cells))
        assert reading.status == "read"
        assert reading.givens == PUZZLE


def test_empty_cells_read_empty(cnn: DigitEngine) -> None:
    rng = np.random.default_rng(7)
    glyphs = synth.hershey_glyphs(cv2.FONT_HERSHEY_SIMPLEX, thickness=7)
    style = mild_style(rng)
    # Empty cells with grid lines, specks and bits of neighbouring digits, plus plain
    # paper in uneven light.
    # (A soft shadow edge across an empty cell is left out: it may look like ink.)
    cells = [
        synth.render_cell(
            None, dataclasses.replace(style.for_cell(rng), shadow=0.0), rng, neighbours=glyphs
        )
        for _ in range(40)
    ]
    yy, xx = np.mgrid[0:64, 0:64]
    cells.append((120 + xx + yy // 2).astype(np.uint8))
    cells.append(np.full((64, 64), 200, dtype=np.uint8))
    probs = cnn.classify(np.stack(cells))
    assert (probs.argmax(axis=1) == 0).all()
    assert probs[:, 0].min() > 0.5


def test_reference_photos_read_right(cnn: DigitEngine) -> None:
    devdata = pytest.importorskip("scanner.digits.devdata")
    if not (devdata.PHOTO_DIR / "outlines.csv").is_file():
        pytest.skip(f"reference photos not found in {devdata.PHOTO_DIR}")
    outlines = devdata.read_outlines()
    for name in sorted(outlines)[:4]:
        photo = devdata.load_photo(name, outlines[name])
        reading = revise(cnn.classify(photo.cells))
        assert reading.givens == [int(v) for v in photo.truth], name


def test_orientation_prefers_upright(cnn: DigitEngine, hershey_grids) -> None:
    cells = hershey_grids[1][1]
    grid = cells.reshape(9, 9, 64, 64)
    scores, upright = [], []
    for k in range(4):
        turned = np.rot90(np.rot90(grid, k, axes=(0, 1)), k, axes=(2, 3)).reshape(81, 64, 64)
        probs = cnn.classify(np.ascontiguousarray(turned))
        scores.append(orientation_score(probs))
        upright.append(reads_upright(probs))
    assert int(np.argmax(scores)) == 0, scores
    assert upright == [True, False, False, False], scores


def test_weak_marks_beside_sure_digits_still_read_upright() -> None:
    # An app's page: 30 givens and entries read surely, 8 cells of pencil marks read as
    # some digit at 0.3. The mean top probability (0.83) is no proof; the share is.
    values = [PUZZLE[i] or (i % 9) + 1 for i in range(81)]
    probs = one_hot_probs([v if i < 30 else 0 for i, v in enumerate(values)], p=0.98)
    for cell in range(30, 38):
        probs[cell] = 0.04
        probs[cell, 0], probs[cell, values[cell]] = 0.38, 0.3
    assert orientation_score(probs) < 0.9
    assert reads_upright(probs)
    # Under three quarters read surely: the other turns are tried.
    for cell in range(20, 30):
        probs[cell] = 0.04
        probs[cell, 0], probs[cell, values[cell]] = 0.38, 0.3
    assert not reads_upright(probs)
    assert not reads_upright(one_hot_probs([0] * 81))


# ---------------------------------------------------------------- revise()


def test_revise_accepts_a_consistent_reading() -> None:
    reading = revise(one_hot_probs(PUZZLE))
    assert reading.status == "read"
    assert reading.givens == PUZZLE
    assert reading.corrections == []
    assert reading.solution == solutions(PUZZLE)[0]
    assert len(reading.confidence) == 81
    assert reading.alternatives[2][0] == (3, pytest.approx(0.97))


def test_revise_fixes_a_misread_that_makes_a_duplicate() -> None:
    cell = 2  # r1c3 holds 3; r1c5 holds 2
    probs = one_hot_probs(PUZZLE)
    probs[cell] = 0.01 / 8
    probs[cell, 2] = 0.55  # read as 2: a clash in row 1
    probs[cell, 3] = 0.44
    reading = revise(probs)
    assert reading.status == "read"
    assert reading.givens == PUZZLE
    assert reading.corrections == [Correction(cell, 2, 3, pytest.approx(0.55), pytest.approx(0.44))]
    line = reading.corrections[0].describe()
    assert line == "r1c3: read 2 (p=0.55), corrected to 3 so the puzzle has one solution"
    assert "clash" in reading.problem and reading.problems == [Problem.CLASH]
    assert cell in reading.doubtful_cells
    assert line in reading.describe()


def test_revise_restores_a_digit_read_as_empty() -> None:
    # Find a given whose loss leaves several solutions, and read it as faintly empty.
    cell = next(
        c for c in range(81) if PUZZLE[c] and len(solutions([*PUZZLE[:c], 0, *PUZZLE[c + 1 :]])) > 1
    )
    probs = one_hot_probs(PUZZLE)
    probs[cell] = 0.02 / 8
    probs[cell, 0] = 0.6
    probs[cell, PUZZLE[cell]] = 0.38
    reading = revise(probs)
    assert reading.status == "read"
    assert reading.givens == PUZZLE
    assert [(c.cell, c.read, c.corrected) for c in reading.corrections] == [(cell, 0, PUZZLE[cell])]
    assert "read empty" in reading.corrections[0].describe()


def test_revise_refuses_to_guess_between_equal_fixes() -> None:
    # A given read as empty whose loss leaves two solutions, and the reader torn
    # between both of their digits: either fix gives one solution, so neither is chosen.
    for cell in range(81):
        reduced = [*PUZZLE[:cell], 0, *PUZZLE[cell + 1 :]]
        sols = solutions(reduced, limit=3) if PUZZLE[cell] else []
        if len(sols) == 2 and sols[0][cell] != sols[1][cell]:
            break
    else:
        pytest.fail("no suitable cell in the test puzzle")
    probs = one_hot_probs(PUZZLE)
    probs[cell] = 0.001
    probs[cell, 0] = 0.5
    probs[cell, sols[0][cell]] = 0.24
    probs[cell, sols[1][cell]] = 0.24
    reading = revise(probs)
    assert reading.status == "unreadable"
    assert reading.corrections == []
    assert cell in reading.doubtful_cells
    assert "several different corrections" in reading.problem
    assert reading.problems[-1] == Problem.RIVAL_FIXES


def test_revise_gives_up_on_a_mess() -> None:
    # Confident nonsense: row 1 full of 5s, everything else as the puzzle.
    values = [5] * 9 + PUZZLE[9:]
    probs = one_hot_probs(values, p=0.99)
    reading = revise(probs)
    assert reading.status == "unreadable"
    assert reading.corrections == []
    assert reading.solution is None
    assert reading.givens == values
    assert set(range(9)) & set(reading.doubtful_cells)
    assert any("doubtful cells" in line for line in reading.describe())


def _two_solution_cell() -> tuple[int, list[list[int]]]:
    """A given of PUZZLE whose loss leaves exactly two solutions differing there."""
    for cell in range(81):
        reduced = [*PUZZLE[:cell], 0, *PUZZLE[cell + 1 :]]
        sols = solutions(reduced, limit=3) if PUZZLE[cell] else []
        if len(sols) == 2 and sols[0][cell] != sols[1][cell]:
            return cell, sols
    raise AssertionError("no suitable cell in the test puzzle")


def test_revise_never_changes_a_confident_cell() -> None:
    # A confident reading with several solutions is what is printed: reported, not "fixed",
    # even though the digit the reader thought unlikely would give one solution.
    cell, _ = _two_solution_cell()
    probs = one_hot_probs(PUZZLE, p=0.99)
    probs[cell] = 0.0
    probs[cell, 0] = 0.93
    probs[cell, PUZZLE[cell]] = 0.07
    reading = revise(probs)
    assert reading.status == ReadStatus.MULTIPLE
    assert reading.givens[cell] == 0
    assert reading.corrections == []
    assert reading.solution is None
    assert "several solutions" in reading.problem
    assert reading.problems[0] == Problem.SEVERAL_SOLUTIONS
    # The same cell read with doubt is corrected.
    probs[cell, 0], probs[cell, PUZZLE[cell]] = 0.6, 0.4
    doubted = revise(probs)
    assert doubted.status == ReadStatus.OK
    assert doubted.givens == PUZZLE
    assert [c.cell for c in doubted.corrections] == [cell]


def test_revise_leaves_a_confident_clash_unread() -> None:
    # r1c3 holds 3; read as 2 with confidence it clashes with r1c5: no fix may touch it.
    probs = one_hot_probs(PUZZLE, p=0.99)
    probs[2] = 0.0
    probs[2, 2], probs[2, 3] = CONFIDENT, 1 - CONFIDENT
    reading = revise(probs)
    assert reading.status == ReadStatus.UNREADABLE
    assert reading.corrections == []
    assert reading.givens[2] == 2
    assert 2 in reading.doubtful_cells and 4 in reading.doubtful_cells


def test_revise_refuses_a_proper_reading_with_a_plausible_rival() -> None:
    # Both readings of the doubtful cell are proper puzzles, with different solutions.
    cell, sols = _two_solution_cell()
    probs = one_hot_probs(PUZZLE, p=0.99)
    probs[cell] = 0.0
    probs[cell, sols[0][cell]], probs[cell, sols[1][cell]] = 0.7, 0.3
    reading = revise(probs)
    assert reading.status == ReadStatus.UNREADABLE
    assert reading.doubtful_cells[0] == cell
    assert "different puzzle" in reading.problem
    assert reading.problems[-1] == Problem.RIVAL_READING
    # At odds beyond RIVAL_ODDS the rival is not plausible: the reading stands.
    probs[cell, sols[0][cell]], probs[cell, sols[1][cell]] = 0.85, 0.15
    assert math.log(0.85 / 0.15) > RIVAL_ODDS
    kept = revise(probs)
    assert kept.status == ReadStatus.OK
    assert kept.solution == sols[0]
    assert kept.doubtful_cells == [cell]


def test_revise_validates_its_input() -> None:
    with pytest.raises(ValueError, match="shape"):
        revise(np.ones((80, 10)))
    with pytest.raises(ValueError, match="finite"):
        revise(np.full((81, 10), np.nan))


def test_orientation_score_ranks_confidence() -> None:
    sure = one_hot_probs(PUZZLE, p=0.99)
    unsure = one_hot_probs(PUZZLE, p=0.6)
    assert orientation_score(sure) > orientation_score(unsure)
    assert orientation_score(sure) == pytest.approx(0.99)
    assert orientation_score(one_hot_probs([0] * 81)) == 0.0


# ---------------------------------------------------------------- Tesseract


@pytest.fixture
def fresh_probe() -> Iterator[None]:
    """Let a test change what the Tesseract probe sees, and forget it afterwards."""
    tess.tesseract_available.cache_clear()
    yield
    tess.tesseract_available.cache_clear()


def test_tesseract_reads_rendered_cells_in_one_call(monkeypatch, hershey_grids) -> None:
    if not tess.tesseract_available():
        pytest.skip("the tesseract binary is not installed (apt-get install tesseract-ocr)")
    import pytesseract

    calls = []
    real = pytesseract.image_to_data

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(pytesseract, "image_to_data", counting)
    cells = hershey_grids[0][1]
    read = tess.TesseractEngine().classify(cells).argmax(axis=1)
    assert len(calls) == 1
    given = np.asarray(PUZZLE) > 0
    assert (read[~given] == 0).all()
    assert (read[given] == np.asarray(PUZZLE)[given]).mean() >= 0.8


def test_tesseract_failure_is_a_clear_error(monkeypatch) -> None:
    import pytesseract

    def crash(*args, **kwargs):
        raise pytesseract.TesseractError(1, "Segmentation fault")

    monkeypatch.setattr(tess, "tesseract_available", lambda: True)
    monkeypatch.setattr(pytesseract, "image_to_data", crash)
    cells = render_grid(PUZZLE, cv2.FONT_HERSHEY_SIMPLEX, 3)
    with pytest.raises(DigitEngineError, match="Tesseract failed") as info:
        tess.TesseractEngine().classify(cells)
    assert isinstance(info.value, SudokuScanError)


def test_tesseract_vanishing_is_a_missing_dependency(monkeypatch) -> None:
    import pytesseract

    def gone(*args, **kwargs):
        raise pytesseract.TesseractNotFoundError()

    monkeypatch.setattr(tess, "tesseract_available", lambda: True)
    monkeypatch.setattr(pytesseract, "image_to_data", gone)
    cells = render_grid(PUZZLE, cv2.FONT_HERSHEY_SIMPLEX, 4)
    with pytest.raises(MissingDependencyError, match="apt-get install tesseract-ocr"):
        tess.TesseractEngine().classify(cells)


def test_missing_tesseract_binary(monkeypatch, fresh_probe) -> None:
    import pytesseract

    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(MissingDependencyError, match="apt-get install tesseract-ocr"):
        tess.TesseractEngine()
    assert "tesseract" not in available_engines()


def test_cnn_reads_a_grid_with_a_digit_in_every_cell(cnn: DigitEngine) -> None:
    # No empty cell at all (a finished or hand-filled grid): no cell to look at twice.
    values = solutions(PUZZLE)[0]
    probs = cnn.classify(render_grid(values, HERSHEY[0], seed=4))
    assert probs.shape == (81, 10)
    assert (probs[:, 0] < 0.5).all()
    assert np.isfinite(probs).all()


@pytest.mark.parametrize(("cells", "channels"), [(5, 1), (5, 16), (CV_MAX_CHANNELS + 3, 1)])
def test_pooling_before_the_bias_and_relu_is_the_same_to_the_bit(cells: int, channels: int) -> None:
    # The forward pass pools first (a quarter of the values to add and clip): that must
    # be convolve, add the bias, ReLU, then pool, exactly. (One input channel takes
    # OpenCV's filter2D over the cells as an image's channels, in chunks: the same.)
    rng = np.random.default_rng(channels)
    x = rng.normal(size=(cells, 8, 8, channels)).astype(np.float32)
    w = rng.normal(size=(3, 3, channels, 4)).astype(np.float32)
    b = rng.normal(size=4).astype(np.float32)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = np.stack(
        [padded[:, dy : dy + 8, dx : dx + 8] for dy in range(3) for dx in range(3)], axis=3
    )  # (cells, 8, 8, 9, channels), in the weights' (dy, dx, channel) order
    conv = (windows.reshape(cells * 64, -1) @ w.reshape(-1, 4)).reshape(cells, 8, 8, 4)
    reference = np.maximum(conv + b, 0.0).reshape(cells, 4, 2, 4, 2, 4).max(axis=(2, 4))
    fast = _conv3x3_pool_relu(x, w, b)
    np.testing.assert_array_equal(fast, reference)
    # ... and the convolution is one: each output the 3x3 neighbourhood's weighted sum.
    by_hand = sum(
        np.einsum("nhwc,co->nhwo", padded[:, dy : dy + 8, dx : dx + 8], w[dy, dx])
        for dy in range(3)
        for dx in range(3)
    )
    np.testing.assert_allclose(conv, by_hand, rtol=1e-4, atol=1e-4)


def test_the_strokes_of_many_ink_maps_are_each_map_s_own() -> None:
    # Blotchy maps whose strokes reach every edge: labelled in one stacked image, each
    # map's strokes (box, area, order) are those it has alone.
    rng = np.random.default_rng(5)
    maps = np.stack(
        [cv2.GaussianBlur((rng.random((64, 64)) ** 4).astype(np.float32), (0, 0), 1.0) * 2
         for _ in range(12)]
    )  # fmt: skip
    assert ink_strokes_of(maps) == [ink_strokes(m) for m in maps]
    assert sum(map(len, ink_strokes_of(maps))) > 5 * len(maps)  # strokes to compare
