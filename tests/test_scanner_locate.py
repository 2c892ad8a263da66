"""Tests of the scanner's geometry: loading photos, locating the grid, cutting cells."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageOps

from scanner import locate as locate_module
from scanner.api import read_photo
from scanner.cells import extract_cells, extract_colour_cells
from scanner.errors import NoGridError
from scanner.geometry import GridGeometry
from scanner.load import load_image
from scanner.locate import LocateDebug, locate_grid, order_corners, rotated_lattice
from scanner.reading import ReadStatus
from scanner.truth import read_outlines, read_truth
from solver.errors import InputFileError
from tests.synth import STRESS_STYLES, StressPage, render_puzzle_photo, render_stress_page

GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def _gray(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)


def _lattice_error(found: GridGeometry, truth: np.ndarray) -> tuple[float, float]:
    err = np.linalg.norm(found.lattice - truth, axis=2)
    return float(err.mean()), float(err.max())


# --------------------------------------------------------------------------------------
# locate_grid on synthetic photos (exact truth)
# --------------------------------------------------------------------------------------

CASES: dict[str, dict[str, Any]] = {
    "plain": {},
    "tilted 20": {"rotation_deg": 20.0},
    "sideways 90": {"rotation_deg": 90.0},
    "upside down": {"rotation_deg": 180.0},
    "sideways 270": {"rotation_deg": -90.0},
    "strong perspective": {"perspective": 0.15, "rotation_deg": -8.0},
    "blur and noise": {"blur": 2.0, "noise": 8.0},
    "shadow": {"shadow": True, "perspective": 0.05},
    "grey thin lines": {"grey_lines": True, "thick_border": False, "blur": 1.0},
    "solution grid beside": {"distractor_grid": True, "rotation_deg": 5.0},
    "bent page": {"bend": 0.35},
    "small photo": {"size": (400, 300)},
    "everything": {
        "rotation_deg": 170.0,
        "perspective": 0.08,
        "blur": 1.2,
        "shadow": True,
        "noise": 5.0,
        "grey_lines": True,
        "distractor_grid": True,
        "bend": 0.2,
    },
}


@pytest.mark.parametrize("name", list(CASES))
def test_locate_synthetic(name: str) -> None:
    opts = CASES[name]
    img, corners, truth = render_puzzle_photo(GIVENS, seed=7, **opts)
    geom = locate_grid(_gray(img))
    assert geom.image_size == (img.shape[1], img.shape[0])
    k = round(float(opts.get("rotation_deg", 0.0)) / 90) % 4
    mean, worst = _lattice_error(rotated_lattice(geom, k), truth)
    cell = float(np.linalg.norm(truth[0, 9] - truth[0, 0]) / 9)
    assert mean < 0.5, f"{name}: mean lattice error {mean:.2f} px (cell {cell:.0f} px)"
    assert worst < 2.0, f"{name}: worst lattice error {worst:.2f} px (cell {cell:.0f} px)"
    assert np.allclose(rotated_lattice(geom, k).corners(), corners, atol=2.0)


def test_upright_page_is_ordered_top_left_first() -> None:
    img, corners, truth = render_puzzle_photo(GIVENS, seed=3, rotation_deg=-25, perspective=0.1)
    geom = locate_grid(_gray(img))
    # No re-ordering needed within 45 degrees of upright.
    assert np.allclose(geom.lattice, truth, atol=2.0)
    assert np.allclose(geom.corners(), corners, atol=2.0)


def test_bgr_input_and_large_photo_map_back_to_full_size() -> None:
    img, _, truth = render_puzzle_photo(GIVENS, seed=11, size=(2400, 1800), perspective=0.05)
    geom = locate_grid(img)  # BGR accepted; searched on a reduced copy
    assert geom.image_size == (2400, 1800)
    mean, worst = _lattice_error(geom, truth)
    assert mean < 1.0 and worst < 3.0


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    rotation=st.floats(-180, 180).filter(lambda a: abs((a % 90) - 45) > 5),
    perspective=st.floats(0.0, 0.12),
    seed=st.integers(0, 1000),
)
def test_locate_any_rotation(rotation: float, perspective: float, seed: int) -> None:
    img, _, truth = render_puzzle_photo(
        GIVENS, seed=seed, rotation_deg=rotation, perspective=perspective, size=(640, 480)
    )
    geom = locate_grid(_gray(img))
    k = round(rotation / 90) % 4
    _, worst = _lattice_error(rotated_lattice(geom, k), truth)
    assert worst < 2.0


def test_distractor_grid_loses_to_the_puzzle() -> None:
    img, _, truth = render_puzzle_photo(GIVENS, seed=5, distractor_grid=True)
    geom = locate_grid(_gray(img))
    _, worst = _lattice_error(geom, truth)
    assert worst < 2.0


# --------------------------------------------------------------------------------------
# rotated_lattice / order_corners
# --------------------------------------------------------------------------------------


def test_rotated_lattice_orders() -> None:
    geom = GridGeometry.from_corners([[10, 20], [110, 22], [112, 120], [8, 118]], (200, 200))
    lat = geom.lattice
    assert np.array_equal(rotated_lattice(geom, 0).lattice, lat)
    assert np.array_equal(rotated_lattice(geom, 4).lattice, lat)
    # Page turned a quarter counter-clockwise: the puzzle's top-left is the image's BL.
    r1 = rotated_lattice(geom, 1).lattice
    assert np.array_equal(r1[0, 0], lat[9, 0])
    assert np.array_equal(r1[0, 9], lat[0, 0])
    # Upside down: top-left is the image's bottom-right, row 0 is the image's bottom.
    r2 = rotated_lattice(geom, 2).lattice
    assert np.array_equal(r2[0, 0], lat[9, 9])
    assert np.array_equal(r2[0], lat[9, ::-1])
    back = rotated_lattice(rotated_lattice(geom, 1), 3)
    assert np.array_equal(back.lattice, lat)


def test_order_corners_any_start() -> None:
    quad = np.array([[10.0, 10], [100, 12], [98, 100], [12, 95]])
    for k in range(4):
        assert np.array_equal(order_corners(np.roll(quad, k, axis=0)), quad)
        assert np.array_equal(order_corners(np.roll(quad[::-1], k, axis=0)), quad)


# --------------------------------------------------------------------------------------
# extract_cells
# --------------------------------------------------------------------------------------


def test_extract_cells_follow_the_lattice() -> None:
    img, _, truth = render_puzzle_photo(GIVENS, seed=2, rotation_deg=15, perspective=0.1, bend=0.2)
    gray = _gray(img)
    cells = extract_cells(gray, GridGeometry(truth, (img.shape[1], img.shape[0])), size=48)
    assert cells.shape == (81, 48, 48) and cells.dtype == np.uint8
    digits = np.array([ch != "0" for ch in GIVENS])
    centre = cells[:, 12:36, 12:36].astype(float)
    ink = (centre < 128).mean(axis=(1, 2))
    # Every digit cell has ink in its middle; no empty one does.
    assert ink[digits].min() > 0.03
    assert ink[~digits].max() < 0.005
    # Corner pixels sit on the line crossings (dark); the middle of an edge is on a line too.
    empty = cells[~digits].astype(float)
    assert empty[:, :2, :2].mean() < 120
    assert empty[:, 22:26, :2].mean() < empty[:, 22:26, 10:14].mean() - 60


def test_extract_cells_downscales_big_photos_without_aliasing() -> None:
    img, _, truth = render_puzzle_photo(GIVENS, seed=4, size=(2400, 1800))
    gray = _gray(img)
    geom = GridGeometry(truth, (2400, 1800))
    big = extract_cells(gray, geom, size=32)
    small = extract_cells(
        cv2.resize(gray, (600, 450), interpolation=cv2.INTER_AREA),
        GridGeometry((truth + 0.5) / 4 - 0.5, (600, 450)),
        size=32,
    )
    assert big.shape == (81, 32, 32)
    assert np.abs(big.astype(float) - small.astype(float)).mean() < 8


@pytest.mark.parametrize("size", [(1000, 800), (2400, 1800)], ids=["as-is", "shrunk"])
def test_colour_cells_are_each_channels_cells(size: tuple[int, int]) -> None:
    img, _, truth = render_puzzle_photo(GIVENS, seed=5, size=size, rotation_deg=10, bend=0.2)
    tinted = img.copy()
    tinted[:, :, 0] //= 2  # channels that differ
    tinted[:, : size[0] // 2, 2] = 255 - tinted[:, : size[0] // 2, 2]
    geom = GridGeometry(truth, size)
    colour = extract_colour_cells(tinted, geom)
    assert colour.shape == (81, 64, 64, 3)
    for ch in range(3):
        assert np.array_equal(colour[..., ch], extract_cells(tinted[:, :, ch], geom))
    with pytest.raises(ValueError, match="uint8"):
        extract_colour_cells(tinted[:, :, 0], geom)


# --------------------------------------------------------------------------------------
# load_image
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("ext", ["jpg", "png", "webp", "tif", "bmp"])
def test_load_formats(tmp_path: Path, ext: str) -> None:
    img, _, truth = render_puzzle_photo(GIVENS, seed=1, size=(640, 480))
    path = tmp_path / f"photo.{ext}"
    Image.fromarray(img[:, :, ::-1]).save(path)
    loaded = load_image(path)
    assert loaded.image.shape == (480, 640, 3) and loaded.image.dtype == np.uint8
    assert loaded.stored_size == (640, 480) and loaded.orientation == 1
    geom = locate_grid(loaded.gray, name=path.name)
    assert _lattice_error(geom, truth)[1] < 2.0


def test_load_accepts_arrays() -> None:
    img, _, _ = render_puzzle_photo(GIVENS, seed=1, size=(640, 480))
    loaded = load_image(img, gray=True)
    assert loaded.image.shape == (480, 640)
    assert np.allclose(loaded.to_stored([[3.0, 4.0]]), [[3.0, 4.0]])


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_and_mapping_back(tmp_path: Path, orientation: int) -> None:
    stored = np.full((300, 400, 3), 255, np.uint8)
    stored[50:60, 300:310] = 0  # a mark centred at stored pixel (304.5, 54.5)
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / "o.png"
    Image.fromarray(stored).save(path, exif=exif.tobytes())
    loaded = load_image(path, gray=True, min_side=100)
    with Image.open(path) as im:
        expected = np.asarray(ImageOps.exif_transpose(im).convert("L"))
    assert np.array_equal(loaded.image, expected)
    ys, xs = np.nonzero(loaded.image < 128)
    back = loaded.to_stored([[xs.mean(), ys.mean()]])
    assert np.allclose(back, [[304.5, 54.5]], atol=1e-6)
    assert loaded.orientation == orientation


def test_jpeg_reduced_on_decode_maps_to_stored_pixels(tmp_path: Path) -> None:
    img, _, truth = render_puzzle_photo(GIVENS, seed=9, size=(2400, 1800))
    path = tmp_path / "big.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: the phone was held upright
    Image.fromarray(np.rot90(img[:, :, ::-1], 1)).save(path, quality=92, exif=exif.tobytes())
    loaded = load_image(path, max_side=1000, gray=True)
    assert loaded.reduction == 2 and loaded.image.shape == (900, 1200)
    geom = locate_grid(loaded.image)
    # Upright full-resolution truth -> stored pixels: the inverse of a 90-degree turn.
    stored_truth = np.stack([truth[..., 1], 2400 - 1 - truth[..., 0]], axis=-1).reshape(-1, 2)
    got = loaded.to_stored(geom.lattice.reshape(-1, 2))
    assert np.abs(got - stored_truth).max() < 4.0


def test_missing_file() -> None:
    with pytest.raises(InputFileError, match=r"nope\.jpg: no such file"):
        load_image("nope.jpg")


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="is a directory"):
        load_image(tmp_path)


def test_text_named_jpg(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_text("not a photo\n")
    with pytest.raises(InputFileError, match=r"photo\.jpg: not an image"):
        load_image(path)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"")
    with pytest.raises(InputFileError, match="empty file"):
        load_image(path)


def test_truncated_jpeg_is_an_error(tmp_path: Path) -> None:
    img, _, _ = render_puzzle_photo(GIVENS, seed=1, size=(640, 480))
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    path = tmp_path / "photo.jpg"
    path.write_bytes(buf.tobytes()[: len(buf) // 2])
    with pytest.raises(InputFileError, match=r"photo\.jpg: truncated image file"):
        load_image(path)


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8")

    # Fault injection: root reads any file, so simulate the OS refusing the read.
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Image, "open", refuse)
    with pytest.raises(InputFileError, match="permission denied"):
        load_image(path)


def test_tiny_image(tmp_path: Path) -> None:
    path = tmp_path / "tiny.png"
    Image.new("L", (150, 120), 255).save(path)
    with pytest.raises(NoGridError, match=r"tiny\.png: image too small \(150x120 px\)"):
        load_image(path)
    with pytest.raises(NoGridError, match="too small"):
        locate_grid(np.full((120, 150), 255, np.uint8))


def test_blank_and_noise_images_have_no_grid() -> None:
    with pytest.raises(NoGridError, match=r"no Sudoku grid found in blank\.png"):
        locate_grid(np.full((480, 640), 230, np.uint8), name="blank.png")
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 256, size=(480, 640), dtype=np.uint8)
    with pytest.raises(NoGridError):
        locate_grid(noise)


def test_text_page_without_grid() -> None:
    img, _, _ = render_puzzle_photo(GIVENS, seed=1)
    gray = _gray(img)
    # Paint the grid over with paper: only text remains.
    _, corners, _ = render_puzzle_photo(GIVENS, seed=1)
    cv2.fillConvexPoly(gray, corners.astype(np.int32), 235)
    cv2.polylines(gray, [corners.astype(np.int32)], True, 235, 12)
    with pytest.raises(NoGridError):
        locate_grid(gray)


def test_grid_too_small_to_read() -> None:
    img, _, _ = render_puzzle_photo(GIVENS, seed=1, size=(200, 150))
    tiny = cv2.resize(_gray(img), (120, 90), interpolation=cv2.INTER_AREA)  # ~8 px cells
    page = np.full((1500, 2000), 235, np.uint8)
    page[700:790, 900:1020] = tiny
    with pytest.raises(NoGridError):
        locate_grid(page)


def test_small_grid_in_big_photo_is_measured_at_full_resolution() -> None:
    img, _, truth = render_puzzle_photo(GIVENS, seed=2, size=(640, 480), perspective=0.05)
    page = np.full((3000, 4000), 235, np.uint8)
    page[1000:1480, 1500:2140] = _gray(img)  # cells ~40 px here, ~10 px in the 1024 copy
    geom = locate_grid(page)
    mean, worst = _lattice_error(geom, truth + np.array([1500, 1000]))
    assert mean < 0.3 and worst < 1.0


# --------------------------------------------------------------------------------------
# locate_grid on stress pages the old search missed (tests.synth.render_stress_page)
# --------------------------------------------------------------------------------------

# (style, seed, worst error allowed in cells): one page of each look that was not found
# (or was found a cell off) before; the seeds are not hand-picked for the new search.
# A crumpled page's lines wave between the intersections the lattice model can follow,
# so its worst point gets more room.
STRESS_CASES = [
    ("dotted", 1, 0.25),  # dotted/dashed grey cell lines: lost in the long openings
    ("washed-dotted", 0, 0.25),
    ("screen-photo", 1, 0.25),  # the phone's hairlines under moire: box lines alone
    ("small-grid", 3, 0.25),  # a grid 20-25% of a 4000x3000 page of text
    ("frame-only-small-grid", 1, 0.25),  # bold frame, hairlines, small on a big page
    ("newsprint-crinkled", 0, 0.5),  # halftone and crumpled
    # The folds' shadows join the grid to the text beside it: only the long strokes
    # outline it (the lines-only candidates).
    ("newsprint-crinkled", 2, 0.5),
]


@pytest.mark.parametrize(("style", "seed", "worst"), STRESS_CASES)
def test_locate_stress_page(style: str, seed: int, worst: float) -> None:
    page = render_stress_page(GIVENS, style=STRESS_STYLES[style], seed=seed)
    geom = locate_grid(_gray(page.image))
    cell = float(np.linalg.norm(page.lattice[0, 9] - page.lattice[0, 0]) / 9)
    err = np.linalg.norm(geom.lattice - page.lattice, axis=2) / cell
    assert err.mean() < 0.15, f"{style} {seed}: mean lattice error {err.mean():.2f} cells"
    assert err.max() < worst, f"{style} {seed}: worst lattice error {err.max():.2f} cells"


# --------------------------------------------------------------------------------------
# Real photos (shared data set), if present
# --------------------------------------------------------------------------------------


def test_real_photos_match_outlines(photos_dir: Path) -> None:
    folder = photos_dir / "wicht-train"
    if not (folder / "outlines.csv").is_file():
        pytest.skip(f"no outlines.csv in {folder}")
    outlines = read_outlines(folder)
    names = sorted(outlines)[::16]  # a spread of phones and papers, not hand-picked
    for name in names:
        loaded = load_image(folder / name, gray=True, max_side=1600)
        geom = locate_grid(loaded.image, name=name)
        cells = extract_cells(loaded.image, geom)
        assert cells.shape == (81, 64, 64)
        corners = (geom.corners() + 0.5) * loaded.reduction - 0.5
        cell = float(np.linalg.norm(outlines[name][1] - outlines[name][0]) / 9)
        # The hand-marked corners sit a few pixels outside the border line; a wrong
        # lattice would be off by a cell.
        err = np.linalg.norm(corners - outlines[name], axis=1)
        assert err.max() < max(14.0, 0.3 * cell), f"{name}: corner errors {err.round(1)}"


def test_a_corner_past_the_photos_edge_walks_no_further_than_its_window(
    photos_dir: Path,
) -> None:
    # image87: the photo's top edge cuts through the grid's first row, and its top-right
    # crossing lies outside the photo. Walking on from its window (as a crumpled
    # frame's corner does) took it down onto the next line in, a fifth of a cell from
    # its neighbour there: the printed 4 in r1c9 fell out of its cell, read as empty,
    # and the puzzle without it had the page's one solution.
    folder = photos_dir / "wicht-train"
    scan = read_photo(folder / "image87.jpg")
    assert scan.status == ReadStatus.OK
    assert scan.givens == read_truth(folder / "image87.dat")


def test_a_page_in_shadow_is_fitted_where_it_lies(photos_dir: Path) -> None:
    # The phone's shadow over the top of the page (a soft edge, the paper at 0.4 of its
    # light above it): the top rows' lines fade, and a lattice one or two rows lower,
    # past the photo's bottom edge, matched every line left in the light (these two
    # photos were refused as cut off so). A grid whose top line is the photo's edge
    # (image17) is still fitted a row low in a shadow there, and refused as cut off.
    folder = photos_dir / "wicht-train"
    if not (folder / "outlines.csv").is_file():
        pytest.skip(f"no outlines.csv in {folder}")
    outlines = read_outlines(folder)
    for name in ("image200.jpg", "image26.jpg"):
        photo = load_image(folder / name, max_side=None).image
        h = photo.shape[0]
        for edge in (0.25, 0.5):
            rows = np.arange(h, dtype=np.float32)[:, None, None]
            light = 0.4 + 0.6 / (1.0 + np.exp(-(rows - edge * h) / (0.03 * h)))
            shaded = (photo * light).astype(np.uint8)
            scan = read_photo(shaded, name=name)
            # (A photo read turned has its lattice in the puzzle's order.)
            corners = order_corners((scan.geometry.corners() + 0.5) * scan.loaded.reduction - 0.5)
            cell = float(np.linalg.norm(outlines[name][1] - outlines[name][0]) / 9)
            err = np.linalg.norm(corners - outlines[name], axis=1)
            assert err.max() < max(14.0, 0.3 * cell), f"{name} {edge}: corner errors {err}"
            if scan.status == ReadStatus.OK:  # refusing a shaded page may be honest
                assert scan.givens == read_truth(folder / name.replace(".jpg", ".dat"))


@pytest.mark.parametrize("seed", range(4))
def test_the_lattice_follows_crumpled_paper(seed: int) -> None:
    # Crumpled paper waves its lines faster than any smooth curve: the lattice follows
    # them where they are seen (a flat fit misses the crossings by 0.06-0.08 of a cell).
    page = render_stress_page(GIVENS, style=STRESS_STYLES["crumpled"], seed=seed)
    geometry = locate_grid(_gray(page.image))
    scale = page.image.shape[1] / geometry.image_size[0]
    truth = page.lattice
    cell = float(np.median(np.linalg.norm(np.diff(truth, axis=1), axis=2)))
    error = np.linalg.norm(geometry.lattice * scale - truth, axis=2) / cell
    assert np.median(error) < 0.05
    assert np.percentile(error, 90) < 0.2


@pytest.mark.parametrize(
    ("style", "wavy"), [("classic", False), ("perspective", False), ("crumpled", True)]
)
def test_waves_are_followed_only_where_the_lattice_saw_them(
    style: str, wavy: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Following the waves is one more measurement: a flat or tilted page, whose lines
    # lie on the lattice's smooth curves, is spared it; crumpled paper is not.
    followed: list[bool] = []
    measure = locate_module._measure

    def counting(*args: Any, **kwargs: Any) -> Any:
        followed.append(bool(kwargs.get("follow_waves", False)))
        return measure(*args, **kwargs)

    monkeypatch.setattr(locate_module, "_measure", counting)
    page = render_stress_page(GIVENS, style=STRESS_STYLES[style], seed=0)
    locate_grid(_gray(page.image))
    assert any(followed) == wavy


def _bench_page(style: str, seed: int, font: str) -> StressPage:
    """Page ``seed`` of benchmarks/bench_stress.py's ``style`` in a held-out ``font``."""
    from solver.generate import generate
    from tests.synth import HELD_OUT_FONT_FAMILIES

    family = next(f for f in HELD_OUT_FONT_FAMILIES if f.name == font)
    if not family.available:
        pytest.skip(f"font {font} ({family.package}) is not installed")
    return render_stress_page(
        generate(5000 + seed), style=STRESS_STYLES[style], seed=seed, font=family
    )


def _worst_error(geom: GridGeometry, page: StressPage) -> float:
    """The lattice's largest miss of the page's crossings, in cells."""
    cell = float(np.linalg.norm(page.lattice[0, 9] - page.lattice[0, 0]) / 9)
    return float((np.linalg.norm(geom.lattice - page.lattice, axis=2) / cell).max())


def test_corners_three_on_a_line_span_no_lattice() -> None:
    with pytest.raises(ValueError, match="no quadrilateral"):
        GridGeometry.from_corners([[0, 0], [50, 0], [100, 0], [0, 90]], (200, 200))


def test_a_candidate_outline_flattened_to_a_line_is_passed_over() -> None:
    # Newsprint-crinkled page 4655: among the candidate outlines one had three corners
    # on a line, and spanning a lattice over it stopped the reader (LinAlgError). The
    # candidate is passed over and the grid read.
    page = _bench_page("newsprint-crinkled", 4655, "Linux Biolinum")
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.UNREADABLE or scan.givens == page.givens


def test_a_grid_whose_frame_touches_a_phone_bezel_is_found() -> None:
    # A photographed app screen (screen-photo page 1): the grid spans the screen, so
    # just outside its frame lies the dark bezel, and the frame stood out of the line
    # profile on its inner side only.
    page = _bench_page("screen-photo", 1, "Hack")
    assert _worst_error(locate_grid(_gray(page.image)), page) < 0.25


def test_a_grid_lost_in_a_screens_moire_is_found_through_a_blur() -> None:
    # Screen-photo page 15: the hairline cell lines of a photographed tablet drown in
    # its sub-pixel moire, and no candidate fits a lattice until the texture is blurred
    # away (LocateDebug.descreened). The page then reads right through the same blur.
    page = _bench_page("screen-photo", 15, "Fira Code")
    seen = LocateDebug([], [])
    geom = locate_grid(_gray(page.image), debug=seen)
    assert seen.descreened > 0
    assert _worst_error(geom, page) < 0.1
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK
    assert scan.givens == page.givens


def test_cell_centres_whose_homography_degenerates_give_no_quad() -> None:
    # The cell holes of a rendered frame-only page (stress seed 106, 2026-11-26): the
    # homography fitted to them at some radius is singular. That is no grid candidate,
    # never a crash (it was LinAlgError, an "internal error" for the person).
    from scanner.locate import _fit_cell_lattice

    centres = np.array([
        (246.2, 362.1), (103.3, 347.7), (55.2, 343.2), (251.1, 314.5), (108.5, 300.0),
        (60.2, 295.2), (350.5, 276.9), (256.5, 266.8), (208.9, 262.1), (113.7, 252.3),
        (65.4, 247.2), (355.6, 229.3), (308.5, 224.5), (214.1, 214.3), (70.5, 199.1),
        (360.6, 182.0), (313.6, 176.6), (171.5, 161.6), (370.8, 87.2), (323.9, 82.0),
        (229.5, 71.2), (181.8, 65.7), (86.1, 54.9),
    ])  # fmt: skip
    assert _fit_cell_lattice(centres, 44.8) == []


def test_a_lattice_re_measured_on_crumpled_paper_does_not_drift_at_the_frame() -> None:
    # Crumpled-12mp page 16: each re-measuring round moved the crossings beside the
    # wavy frame further (2.4 cells at worst after four rounds, the grid read as
    # another); the round whose lines lie on the most ink is kept.
    page = _bench_page("crumpled-12mp", 16, "Hershey Complex")
    geometry = locate_grid(_gray(page.image))
    scale = page.image.shape[1] / geometry.image_size[0]
    cell = float(np.median(np.linalg.norm(np.diff(page.lattice, axis=1), axis=2)))
    error = np.linalg.norm(geometry.lattice * scale - page.lattice, axis=2) / cell
    assert error.max() < 0.3, f"worst lattice error {error.max():.2f} cells"


def _grid_under_colour_moire(*, side: int = 900, first: int = 135, cell: int = 70) -> np.ndarray:
    """(side, side, 3) BGR: faint grid lines under stripes of red, green and blue whose
    three phases cancel in the channels' mean but not in luminance (a screen's moire)."""
    paper = np.full((side, side), 235.0)
    end = first + 9 * cell + 2
    for k in range(10):
        at, width = first + k * cell, 4 if k % 3 == 0 else 2
        paper[first:end, at : at + width] -= 30
        paper[at : at + width, first:end] -= 30
    yy, xx = np.mgrid[0:side, 0:side]
    phase = 2 * np.pi * (xx + 0.7 * yy) / 14.0
    channels = [paper + 100 * np.cos(phase + k * 2 * np.pi / 3) for k in range(3)]
    return np.clip(np.stack(channels, axis=2), 0, 255).astype(np.uint8)


def test_a_grid_drowned_in_colour_moire_is_found_in_the_channels_mean() -> None:
    photo = _grid_under_colour_moire()
    with pytest.raises(NoGridError):  # the premise: luminance keeps the stripes
        locate_grid(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY))
    result = read_photo(photo)
    corners = result.geometry.lattice[[0, 0, 9, 9], [0, 9, 9, 0]]
    want = np.array([[136, 136], [766, 136], [766, 766], [136, 766]], float)
    assert np.abs(corners - want).max() < 8, corners


@pytest.mark.parametrize(
    ("style", "seed", "font"),
    [
        ("crumpled-12mp", 326, "Linux Biolinum"),
        ("crumpled-12mp", 348, "League Spartan"),
        ("crumpled-12mp", 336, "Hershey Complex"),
        ("crumpled", 921, "Hershey Triplex"),
    ],
)
def test_a_crumpled_grids_corners_are_on_its_frame(style: str, seed: int, font: str) -> None:
    # Crumpled pages of bench_stress whose frame bends hardest at a corner: the
    # lines' smooth curves, extrapolated there, put a corner crossing 0.2-0.7 of a
    # cell off (in the paper outside the frame at worst, and its cell read the frame as
    # a digit: each page was refused). A corner settles where its two frame edges lie.
    # On page 921 the frame's last cell curls inwards: the corner was a cell out in the
    # text beside the grid, and one window of the search brought it only part of the
    # way back (the frame crossed r1c9, read as a 1 at 0.94: a confident misreading).
    page = _bench_page(style, seed, font)
    geometry = locate_grid(_gray(page.image))
    scale = page.image.shape[1] / geometry.image_size[0]
    cell = float(np.median(np.linalg.norm(np.diff(page.lattice, axis=1), axis=2)))
    error = np.linalg.norm(geometry.lattice * scale - page.lattice, axis=2) / cell
    corners = error[[0, 0, 9, 9], [0, 9, 0, 9]]
    assert corners.max() < 0.2, f"corner errors {corners.round(2)} cells"


def _drawn_grid() -> tuple[np.ndarray, np.ndarray, int]:
    """A flat grid drawn on paper (800 x 800: 60 px cells, box lines 6 px, cell lines
    2 px), its lattice (10, 10, 2) on the lines' middles, and its cell size."""
    first, cell = 100, 60
    paper = np.full((800, 800), 230, np.uint8)
    for k in range(10):
        at, width = first + k * cell, 6 if k % 3 == 0 else 2
        paper[first : first + 9 * cell + 6, at : at + width] = 30
        paper[at : at + width, first : first + 9 * cell + 6] = 30
    centre = np.arange(10) * cell + first + np.where(np.arange(10) % 3 == 0, 2.5, 0.5)
    return paper, np.stack(np.meshgrid(centre, centre), axis=-1).astype(np.float64), cell


def _moved_back(
    settle: Callable[[np.ndarray, np.ndarray, float], np.ndarray],
    paper: np.ndarray,
    right: np.ndarray,
    cell: float,
    crossing: tuple[int, int],
    offset: tuple[float, float],
) -> np.ndarray:
    """The lattice ``settle`` makes of ``right`` with ``crossing`` moved by ``offset``
    (cells): asserted back within a tenth of a cell, every other crossing untouched."""
    off = right.copy()
    off[crossing] += np.asarray(offset) * cell
    settled = settle(paper, off, cell)
    assert np.linalg.norm(settled[crossing] - right[crossing]) < 0.1 * cell
    others = np.ones((10, 10), dtype=bool)
    others[crossing] = False
    assert np.array_equal(settled[others], right[others])
    return off


def test_a_corner_off_its_frame_settles_on_it_and_a_right_one_stays() -> None:
    from scanner.locate import _settle_corners

    paper, right, cell = _drawn_grid()
    assert np.array_equal(_settle_corners(paper, right, cell), right)
    # Out in the paper, below and left.
    off = _moved_back(_settle_corners, paper, right, cell, (9, 0), (-0.45, 0.3))
    # Where its neighbours' parallelogram lies half a cell off (a frame's last cell
    # curled), the corner walks on past the first window to its frame.
    bent = off.copy()
    bent[8, 1] += (0.5 * cell, 0.0)
    walked = _settle_corners(paper, bent, cell)
    assert np.linalg.norm(walked[9, 0] - right[9, 0]) < 0.1 * cell


def test_a_frame_crossing_off_its_line_slides_onto_it_and_a_digit_does_not_pull_it() -> None:
    from scanner.locate import _settle_frame_crossings

    paper, right, cell = _drawn_grid()
    assert np.array_equal(_settle_frame_crossings(paper, right, cell), right)
    # Where the box line 6 meets the top frame a third of a cell left of where the
    # lattice put it (crumpled paper bends a line hard there), the crossing goes to it.
    _moved_back(_settle_frame_crossings, paper, right, cell, (0, 6), (-0.35, 0.0))
    # A bold digit beside a bottom crossing (a 7's stem along the cell's edge, a
    # third of a cell in) crosses the search's segments but runs along none of them
    # all the way: the crossing stays on its line.
    inked = paper.copy()
    x, top = int(right[9, 4, 0] + 0.3 * cell), int(right[8, 4, 1] + 0.15 * cell)
    inked[top : int(right[9, 4, 1] - 0.2 * cell), x - 4 : x + 4] = 0
    cv2.line(inked, (x - 20, top), (x, top), 0, 8)
    assert np.array_equal(_settle_frame_crossings(inked, right, cell), right)


def test_a_frame_crossing_inside_the_frame_goes_onto_it() -> None:
    from scanner.locate import _onto_frame

    paper, right, cell = _drawn_grid()
    assert np.array_equal(_onto_frame(paper, right, cell), right)
    # The left frame's crossing with line 1, a fifth of a cell inside the frame (the
    # frame's curve swung at its end), goes back onto the frame along line 1.
    _moved_back(_onto_frame, paper, right, cell, (1, 0), (0.2, 0.0))


# Detections (pixels off the square's line k at m + k*c, bands 0..8 of the grid's rows)
# of the vertical box lines 0, 3, 6 and 9 measured on the stress benchmark's
# newsprint-crinkled page 508, whose dotted inner lines showed nowhere; line 3 and line
# 9 were not seen by the top two rows. NaN: not seen.
_CRINKLED_BOX_LINES = {
    0: [-0.3, -1.4, -2.7, -3.5, -2.7, np.nan, 1.3, -0.4, 1.1],
    3: [np.nan, np.nan, -4.5, -4.0, -2.1, 1.2, -1.0, 1.7, 2.4],
    6: [-0.3, -0.9, -2.4, -2.0, -2.3, -3.5, np.nan, 3.8, 4.0],
    9: [np.nan, np.nan, -1.0, 0.3, -3.1, -5.5, -5.6, -1.5, -2.2],
}


def test_a_line_unseen_at_its_end_carries_on_without_swinging() -> None:
    # A line's quartic curve was free where the line was not seen: the box line 3 above
    # swung 25 px (0.6 of a 40 px cell) at the frame and line 9 over 100 px; each
    # re-measuring round saw through the swing and swung further, and the page was read
    # as another puzzle. Unseen, a line carries on nearly straight (and, measured so,
    # the lines are the old swing: the test fails without the hold).
    from scanner.locate import _eval_lines, _fit_lines

    c, m = 40, 60
    centres = m + c * (np.arange(9) + 0.5)
    offsets = np.full((10, 9), np.nan)
    for k, row in _CRINKLED_BOX_LINES.items():
        offsets[k] = row
    ok = np.isfinite(offsets)
    pos = np.where(ok, m + c * np.arange(10.0)[:, None] + np.nan_to_num(offsets), 0.0)
    fit = _fit_lines(pos, ok, centres, c, m, deg_x=4, min_lines=4, hold_unseen=True)
    assert fit is not None
    lines = np.array([0.0, 3.0, 6.0, 9.0])
    for x, seen in ((m, "frame"), (centres[0], "first band")):
        at = _eval_lines(fit[0], lines, np.full(4, x), c, m, 4) - (m + c * lines)
        assert np.abs(at).max() < 0.25 * c, f"{seen}: lines off by {at.round(1)} px"
    # Where a line was seen the model still follows it.
    model = _eval_lines(fit[0], np.repeat(lines, 9), np.tile(centres, 4), c, m, 4).reshape(4, 9)
    seen_rows = ok[lines.astype(int)]
    assert np.abs(model - pos[lines.astype(int)])[seen_rows].max() < 0.1 * c
    free = _fit_lines(pos, ok, centres, c, m, deg_x=4, min_lines=4)
    assert free is not None
    swing = _eval_lines(free[0], lines, np.full(4, float(m)), c, m, 4) - (m + c * lines)
    assert np.abs(swing).max() > 0.5 * c


@pytest.mark.parametrize(("seed", "font"), [(508, "Cantarell"), (525, "Inconsolata")])
def test_a_crinkled_grid_with_unseen_dotted_lines_keeps_its_lattice(seed: int, font: str) -> None:
    # Newsprint-crinkled pages whose dotted lines show only here and there: the lattice
    # was 0.66 and 0.7 cells off at the frame (r1c5's 6 cut in half and read empty, r8c9's
    # 7 likewise), and each page was read, with confidence, as another puzzle.
    page = _bench_page("newsprint-crinkled", seed, font)
    error = _worst_error(locate_grid(_gray(page.image)), page)
    assert error < 0.4, f"worst lattice error {error:.2f} cells"


def test_a_bent_comb_follows_a_tilt_where_an_even_one_takes_a_phone_s_edge() -> None:
    # The profile across a tilted app grid under moire, as screen-photo 3816 gave it: the
    # frame and box lines bold at 46, 131, 220 and 314 px (cells widening by a tenth),
    # hairlines between them, and a phone's dark edge, a plateau just outside the frame.
    # An evenly spaced comb stretched onto the edge meets three of the four box lines
    # squarely, the true one two: its teeth come out a quarter of a cell off. A comb
    # allowed to bend meets all ten lines.
    c, m = 30, 45
    k = np.arange(10.0)
    bend, slope, start = np.polyfit([0, 3, 6, 9], [46, 131, 220, 314], 2)
    lines = start + slope * k + bend * k * k
    x = np.arange(9 * c + 2 * m + 1, dtype=np.float64)
    profile = 11800.0 / (1 + np.exp(26.5 - x)) / (1 + np.exp(x - 34.5))  # the phone's edge
    for place, bold in zip(lines, np.isin(k, [0, 3, 6, 9]), strict=True):
        height, width = (16000.0, 1.2) if bold else (700.0, 2.0)
        profile = profile + height * np.exp(-0.5 * ((x - place) / width) ** 2)
    for bent, off_by in ((False, 0.2 * c), (True, 0.05 * c)):
        off, gap, curve = locate_module._comb_fit(profile, c, m, bent=bent)
        teeth = off + gap * k + curve * (k * k - 9.0 * k)
        assert (np.abs(teeth - lines).max() < off_by) == bent
