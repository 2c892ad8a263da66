"""Camera shake: a straight motion blur is measured on the grid and taken back out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.api import read_photo
from scanner.geometry import GridGeometry
from scanner.motion import deconvolve, line_kernel, measure_motion, unblurred
from scanner.reading import ReadStatus
from tests.synth import render_puzzle_photo

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
GIVENS = [int(ch) for ch in PUZZLE]


@pytest.fixture(scope="module")
def photo() -> tuple[np.ndarray, np.ndarray]:
    image, _, lattice = render_puzzle_photo(PUZZLE, seed=5, size=(1000, 800))
    return image, lattice


def _shaken(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """The image smeared along (dx, dy): the mean of copies shifted evenly along the
    path (as a sensor integrates a moving picture; not the kernel under test)."""
    steps = max(2, int(np.ceil(np.hypot(dx, dy))) * 2)
    total = np.zeros(image.shape, np.float64)
    for t in np.linspace(-0.5, 0.5, steps):
        shift = np.float32([[1, 0, t * dx], [0, 1, t * dy]])
        total += cv2.warpAffine(
            image, shift, image.shape[1::-1], flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )  # fmt: skip
    return np.clip(total / steps + 0.5, 0, 255).astype(np.uint8)


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


@pytest.mark.parametrize("motion", [(14, 0), (0, -11), (9, 9), (-12, 5)])
def test_a_straight_motion_is_measured_from_the_cepstrum(photo, motion) -> None:
    image, _ = photo
    found = measure_motion(_gray(_shaken(image, *motion)), longest=30)
    assert found is not None
    # A segment is symmetric: (dx, dy) and (-dx, -dy) are one motion. Its extent comes
    # out one pixel past the path's length (see line_kernel).
    along = np.array(found, float) * (1 if np.dot(found, motion) >= 0 else -1)
    length = np.hypot(*motion)
    assert np.linalg.norm(along - np.array(motion) * (length + 1) / length) <= 1.5


def test_no_motion_is_looked_for_shorter_than_a_lens_blurs(photo) -> None:
    image, _ = photo
    assert measure_motion(_gray(image), longest=3) is None
    with pytest.raises(ValueError, match="no motion"):
        line_kernel(0, 0)


def test_a_line_kernel_is_a_centred_segment_of_unit_sum() -> None:
    kernel = line_kernel(13, 0)
    assert kernel.shape[0] == kernel.shape[1] and kernel.shape[0] % 2 == 1
    assert abs(float(kernel.sum()) - 1.0) < 1e-5
    ys, xs = np.nonzero(kernel > 0.02)
    centre = (kernel.shape[0] - 1) / 2
    assert set(ys.tolist()) == {int(centre)}  # horizontal, on the middle row
    assert xs.max() - xs.min() == 12  # 13 pixels of path: ends 12 apart
    assert abs((xs.min() + xs.max()) / 2 - centre) <= 0.5


def test_deconvolution_brings_back_the_strokes_a_motion_smeared(photo) -> None:
    image, lattice = photo
    gray = _gray(image)
    shaken = _shaken(gray, 15, -6)
    motion = measure_motion(shaken, longest=30)
    assert motion is not None
    sharp = deconvolve(shaken, line_kernel(*motion))
    (x0, y0), (x1, y1) = lattice.reshape(-1, 2).min(axis=0), lattice.reshape(-1, 2).max(axis=0)
    grid = (slice(int(y0), int(y1)), slice(int(x0), int(x1)))

    def error(x: np.ndarray) -> float:
        return float(np.abs(x[grid].astype(float) - gray[grid]).mean())

    assert sharp.shape == gray.shape and sharp.dtype == np.uint8
    # About two thirds of the smear's error is left (the Wiener filter's damping).
    assert error(sharp) < 0.75 * error(shaken)


def test_a_shaken_photo_is_read_through_the_deconvolution(photo, monkeypatch) -> None:
    import scanner.api as api

    image, _ = photo
    shaken = _shaken(image, 12, 4)  # a quarter of a cell
    scan = read_photo(shaken)
    assert scan.status == ReadStatus.OK and scan.givens == GIVENS
    assert scan.motion is not None and np.hypot(*scan.motion) >= 11
    # The result holds the photo as taken (the overlay draws on it), not the copy read.
    assert np.array_equal(scan.loaded.image, shaken)
    # The premise: as taken, the shaken grid is not read.
    monkeypatch.setattr(api, "unblurred", lambda *a: None)
    assert read_photo(shaken).status == ReadStatus.UNREADABLE


def test_a_sharp_photo_is_read_as_taken(photo, monkeypatch) -> None:
    import scanner.api as api

    image, _ = photo

    def never(*args: object) -> None:
        raise AssertionError("a grid read the first time is not measured for blur")

    monkeypatch.setattr(api, "unblurred", never)
    scan = read_photo(image)
    assert scan.status == ReadStatus.OK and scan.givens == GIVENS and scan.motion is None


def test_a_second_reading_that_is_not_trusted_leaves_the_first(photo, monkeypatch) -> None:
    import scanner.api as api

    image, _ = photo
    shaken = _shaken(image, 16, 5)
    # A deconvolution that wipes the grid's digits out: the second reading is no better
    # than the first, whose doubts and hint stand.
    monkeypatch.setattr(
        api,
        "unblurred",
        lambda img, ink, geometry: (np.full_like(img, 255), np.full_like(ink, 255), (16, 5)),
    )
    scan = read_photo(shaken)
    assert scan.status == ReadStatus.UNREADABLE and scan.motion is None
    assert scan.doubtful_cells and scan.hint


def test_unblurred_keeps_the_photo_outside_the_grid(photo) -> None:
    image, lattice = photo
    shaken = _shaken(image, 12, 0)
    gray = _gray(shaken)
    out = unblurred(shaken, gray, GridGeometry(lattice, (shaken.shape[1], shaken.shape[0])))
    assert out is not None
    sharp_image, sharp_ink, motion = out
    assert abs(abs(motion[0]) - 13) <= 1.5 and abs(motion[1]) <= 1
    x0, y0 = lattice.reshape(-1, 2).min(axis=0).astype(int) - 41
    assert np.array_equal(sharp_image[: max(y0, 0)], shaken[: max(y0, 0)])
    assert np.array_equal(sharp_ink[:, : max(x0, 0)], gray[:, : max(x0, 0)])
    assert not np.array_equal(sharp_ink, gray)
    assert not np.shares_memory(sharp_image, shaken)


def test_a_big_grid_is_measured_and_deconvolved_reduced(photo) -> None:
    image, lattice = photo
    # Cells of about 150 pixels (a 12 MP photo read at full size): measured on cells
    # 128 wide, the motion is given back in the photo's own pixels.
    big = cv2.resize(image, None, fx=3.0, fy=3.0, interpolation=cv2.INTER_CUBIC)
    shaken = _shaken(big, 45, 0)
    out = unblurred(shaken, _gray(shaken), GridGeometry(lattice * 3.0 + 1.0, big.shape[1::-1]))
    assert out is not None
    sharp_image, _, motion = out
    assert sharp_image.shape == shaken.shape
    assert abs(abs(motion[0]) - 46) <= 4 and abs(motion[1]) <= 3
    scan = read_photo(shaken, max_side=None)
    assert scan.status == ReadStatus.OK and scan.givens == GIVENS and scan.motion is not None
