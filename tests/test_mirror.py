"""A photo that shows the page mirrored (a webcam's, a front camera's) is read the right
way round, and only such a photo: rendered pages, no shared data."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from pipeline.cli import main
from scanner.api import read_photo
from scanner.geometry import GridGeometry, mirrored_geometry
from scanner.load import load_image
from scanner.reading import ReadStatus
from tests.checks import matches_schema
from tests.synth import render_puzzle_photo

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
GIVENS = [int(ch) for ch in PUZZLE]


@pytest.fixture(scope="module")
def page() -> np.ndarray:
    image, _, _ = render_puzzle_photo(PUZZLE, seed=11, size=(1000, 800), perspective=0.05)
    return image


def test_a_mirrored_photo_is_read_the_right_way_round(page) -> None:
    upright = read_photo(page)
    assert upright.status == ReadStatus.OK and not upright.loaded.mirrored
    mirrored = read_photo(np.ascontiguousarray(page[:, ::-1]))
    assert mirrored.status == ReadStatus.OK
    assert mirrored.givens == GIVENS
    assert mirrored.loaded.mirrored
    # The corners are still the photo's as stored: the puzzle's top-left corner lies
    # where the upright photo's lies, mirrored.
    width = page.shape[1]
    expected = upright.stored_corners() * [-1, 1] + [width - 1, 0]
    assert np.allclose(mirrored.stored_corners(), expected, atol=2.0)
    # What is drawn on is the page the right way round.
    assert np.array_equal(mirrored.loaded.image, upright.loaded.image)


def test_a_mirrored_photo_drawn_at_full_size_stays_the_right_way_round(page) -> None:
    mirrored = read_photo(np.ascontiguousarray(page[:, ::-1]))
    full = load_image(np.ascontiguousarray(page[:, ::-1]))  # as the overlay loads it
    drawn = mirrored.drawn_on(full)
    assert drawn.loaded.mirrored
    assert np.array_equal(drawn.loaded.image, page)
    assert np.allclose(drawn.geometry.lattice, mirrored.geometry.lattice, atol=1e-6)


def test_mirroring_a_lattice_twice_is_the_lattice() -> None:
    geometry = GridGeometry.from_corners([[10, 20], [300, 30], [310, 330], [5, 300]], (400, 360))
    once = mirrored_geometry(geometry)
    # The first column is on the left again: the mirrored top-left corner is the
    # original top-right one, seen from the other edge.
    assert np.allclose(once.corners()[0], [400 - 1 - 300, 30])
    assert np.allclose(mirrored_geometry(once).lattice, geometry.lattice)


def test_a_mirrored_image_maps_back_to_the_file_s_pixels(tmp_path: Path) -> None:
    image = np.zeros((60, 100, 3), dtype=np.uint8)
    image[10, 20] = 255
    path = tmp_path / "dot.png"
    cv2.imwrite(str(path), image)
    loaded = load_image(path, min_side=1)
    flipped = loaded.mirror()
    assert flipped.mirrored and not loaded.mirrored
    ys, xs = np.nonzero(flipped.image[..., 0])
    assert (int(xs[0]), int(ys[0])) == (100 - 1 - 20, 10)
    assert np.allclose(flipped.to_stored([[xs[0], ys[0]]]), [[20, 10]])
    assert not flipped.mirror().mirrored


def test_read_json_and_text_say_the_photo_was_mirrored(page, tmp_path: Path) -> None:
    path = tmp_path / "webcam.png"
    cv2.imwrite(str(path), np.ascontiguousarray(page[:, ::-1]))
    out = io.StringIO()
    assert main(["read", "--json", str(path)], out=out) == 0
    obj = json.loads(out.getvalue())
    matches_schema(obj, "read")
    assert obj["mirrored"] is True and obj["givens"] == PUZZLE
    out = io.StringIO()
    assert main(["read", str(path)], out=out) == 0
    assert "photo mirrored" in out.getvalue().splitlines()[0]


@pytest.mark.parametrize(("mirror_doubts", "taken"), [(4, True), (30, False)])
def test_a_grid_that_reads_better_mirrored_takes_the_light_blur_mirrored(
    monkeypatch: pytest.MonkeyPatch, mirror_doubts: int, taken: bool
) -> None:
    # A webcam's noisy picture, mirrored: neither its first look nor its first mirrored
    # look is trusted, and only the light blur reads it, on the mirror. The mirror is
    # looked at that way only where it leaves fewer cells in doubt than the photo as
    # taken (a page that is not mirrored reads worse mirrored).
    import scanner.api as api
    from scanner.api import ScanResult

    lattice = np.stack(np.meshgrid(np.arange(10.0), np.arange(10.0)), axis=-1) * 40 + 20
    loaded = load_image(np.full((440, 440, 3), 255, np.uint8))
    geometry = GridGeometry(lattice, (440, 440))

    def scan(mirrored: bool, status: ReadStatus, doubts: int) -> ScanResult:
        return ScanResult(
            path="page",
            givens=GIVENS,
            confidence=[1.0] * 81,
            alternatives=[[(v, 1.0)] for v in GIVENS],
            corrections=[],
            geometry=geometry,
            loaded=loaded.mirror() if mirrored else loaded,
            status=status,
            doubtful_cells=list(range(doubts)),
        )

    def first_look(seen: object, *args: object, **kwargs: object) -> ScanResult:
        assert hasattr(seen, "mirrored")
        mirrored = bool(seen.mirrored)  # type: ignore[attr-defined]
        return scan(mirrored, ReadStatus.UNREADABLE, mirror_doubts if mirrored else 12)

    def blurred_look(first: ScanResult, *args: object) -> ScanResult:
        # Through the light blur, the mirror reads; the page as taken does not.
        return scan(True, ReadStatus.OK, 0) if first.loaded.mirrored else first

    monkeypatch.setattr(api, "_scan_grid", first_look)
    monkeypatch.setattr(api, "unblurred", lambda *args: None)
    monkeypatch.setattr(api, "_through_noise", blurred_look)
    ink = np.full((440, 440), 250, np.uint8)
    got = api._scan_grid_or_unblurred(loaded, ink, geometry, None, "page", 0.0)  # type: ignore[arg-type]
    assert (got.status == ReadStatus.OK) is taken
    assert got.loaded.mirrored is taken
