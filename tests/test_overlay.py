"""Overlay: digits drawn into the right cells of a synthetic photo, nowhere else; legend in
free space; print sheet; self-contained HTML report.

The photo is drawn here (flat page with cv2, then a known perspective warp), so the
lattice is exact and these tests depend on no other test helper.
"""

from __future__ import annotations

import html
import re
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from overlay import annotate, compose, render_report, render_sheet, write_report
from overlay.draw import RING_RADIUS, LegendPlace, annotate_page
from overlay.legend import (
    FALLBACK_COLOUR,
    FAMILY_COLOURS,
    GIVEN_COLOUR,
    MISTAKE_COLOUR,
    UNCLEAR_COLOUR,
    Swatch,
    family_colour,
    legend_entries,
    technique_colour,
)
from scanner.geometry import GridGeometry
from solver import ORDER, SOLVED, STUCK, SolveResult, Step, solve
from solver.check import EntryCheck, check_entries
from solver.generate import generate

UInt8Array = npt.NDArray[np.uint8]
BoolArray = npt.NDArray[np.bool_]
Scene = tuple[UInt8Array, GridGeometry]

SEED = 2  # an easy generated puzzle: ~50 digits to place
PHOTO_SIZE = (900, 640)  # (width, height); the grid sits left, free space right
GRID_CORNERS = np.array([[70, 80], [480, 45], [515, 590], [45, 565]], dtype=np.float64)


def _synthetic_photo(givens: list[int]) -> tuple[UInt8Array, GridGeometry]:
    """A printed grid on warm paper, photographed at an angle over a dark, textured table."""
    cell, m = 40, 24
    side = 9 * cell
    page = np.full((side + 2 * m, side + 2 * m, 3), (228, 242, 248), np.uint8)  # BGR paper
    for i in range(10):
        w = 3 if i % 3 == 0 else 1
        p = m + i * cell
        cv2.line(page, (m, p), (m + side, p), (20, 20, 20), w)
        cv2.line(page, (p, m), (p, m + side), (20, 20, 20), w)
    for c, v in enumerate(givens):
        if v:
            r, k = divmod(c, 9)
            org = (m + k * cell + 11, m + r * cell + 31)
            cv2.putText(page, str(v), org, cv2.FONT_HERSHEY_SIMPLEX, 1.0, (15, 15, 15), 2)
    flat = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
    h = cv2.getPerspectiveTransform(flat, GRID_CORNERS.astype(np.float32))
    rng = np.random.default_rng(7)
    width, height = PHOTO_SIZE
    photo = (rng.normal(70, 6, size=(height, width, 3))).clip(0, 255).astype(np.uint8)
    cv2.warpPerspective(page, h, PHOTO_SIZE, dst=photo, borderMode=cv2.BORDER_TRANSPARENT)
    jj, ii = np.meshgrid(np.arange(10.0), np.arange(10.0))
    pts = np.stack([m + jj * cell, m + ii * cell], axis=-1).reshape(1, -1, 2)
    lattice = cv2.perspectiveTransform(pts, h)[0].reshape(10, 10, 2)
    return photo, GridGeometry(lattice, PHOTO_SIZE)


@pytest.fixture(scope="module")
def result() -> SolveResult:
    res = solve(generate(SEED))
    assert res.status == SOLVED
    return res


@pytest.fixture(scope="module")
def scene(result: SolveResult) -> Scene:
    return _synthetic_photo(result.givens)


def _poly_mask(shape: tuple[int, ...], poly: npt.ArrayLike, *, grow: int = 0) -> BoolArray:
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(poly)).astype(np.int32)], 1)
    kernel = np.ones((2 * abs(grow) + 1, 2 * abs(grow) + 1), np.uint8)
    if grow > 0:
        return np.asarray(cv2.dilate(mask, kernel), dtype=bool)
    if grow < 0:
        return np.asarray(cv2.erode(mask, kernel), dtype=bool)
    return mask.astype(bool)


def _grid_outline(geo: GridGeometry) -> npt.NDArray[np.float64]:
    lat = geo.lattice
    return np.concatenate([lat[0, :9], lat[:9, 9], lat[9, :0:-1], lat[:0:-1, 0]])


def _changed(a: UInt8Array, b: UInt8Array) -> BoolArray:
    return np.any(a != b, axis=2)


def _cell_mask(geo: GridGeometry, cell: int, shape: tuple[int, ...], grow: int = 0) -> BoolArray:
    return _poly_mask(shape, geo.cell_quad(*divmod(cell, 9)), grow=grow)


def _box_mask(shape: tuple[int, ...], box: tuple[int, int, int, int] | None) -> BoolArray:
    mask = np.zeros(shape[:2], bool)
    if box is not None:
        x0, y0, x1, y1 = box
        mask[y0:y1, x0:x1] = True
    return mask


def _placed(result: SolveResult) -> list[int]:
    return [c for c in range(81) if not result.givens[c] and result.grid.values[c]]


def _with_families(result: SolveResult, technique_ids: list[str]) -> SolveResult:
    """The same grid, its placements credited round-robin to ``technique_ids``."""
    steps = []
    placed_by: list[int | None] = [None] * 81
    for k, cell in enumerate(_placed(result)):
        tid = technique_ids[k % len(technique_ids)]
        steps.append(Step(tid, placements=((cell, result.grid.values[cell]),)))
        placed_by[cell] = k
    return replace(result, steps=steps, placed_by=placed_by)


# ---------------------------------------------------------------------------- annotate


def test_annotate_keeps_size_and_dtype_and_input(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    before = photo.copy()
    out = annotate(photo, geo, result)
    assert out.shape == photo.shape and out.dtype == np.uint8
    assert np.array_equal(photo, before), "the input photo must not be modified"
    assert np.array_equal(out, compose(photo, geo, result).image)


def test_changes_only_inside_grid_and_legend(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    ann = compose(photo, geo, result)
    allowed = _poly_mask(photo.shape, _grid_outline(geo), grow=1) | _box_mask(
        photo.shape, ann.legend_box
    )
    stray = _changed(photo, ann.image) & ~allowed
    assert not stray.any(), f"{int(stray.sum())} pixels changed outside grid and legend"


def test_placed_cells_drawn_givens_untouched(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    ann = compose(photo, geo, result)
    diff = _changed(photo, ann.image)
    placed = set(_placed(result))
    assert set(ann.cells) == placed
    for cell in range(81):
        inner = _cell_mask(geo, cell, photo.shape, grow=-3)
        n = int((diff & inner).sum())
        if cell in placed:
            assert n > 0.08 * inner.sum(), f"cell {cell}: only {n} pixels drawn"
        else:
            assert n == 0, f"given cell {cell} changed ({n} pixels)"


def test_ink_stays_in_its_own_cell_on_a_bent_page(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    lat = geo.lattice.copy()
    lat[..., 1] += 9.0 * np.sin(np.pi * np.arange(10) / 9.0)[None, :]  # bow the rows
    bent = GridGeometry(lat, geo.image_size)
    out = annotate(photo, bent, result)
    diff = _changed(photo, out) & _poly_mask(photo.shape, _grid_outline(bent))
    cells = np.zeros(photo.shape[:2], bool)
    for cell in _placed(result):
        cells |= _cell_mask(bent, cell, photo.shape, grow=1)
    assert not (diff & ~cells).any(), "ink leaked out of the placed cells"


def test_drawn_colour_is_the_family_colour(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    ids = ["hidden-single", "locked-pointing", "naked-pair", "x-wing", "xy-wing", "no-such-rule"]
    fake = _with_families(result, ids)
    out = annotate(photo, geo, fake, badges=False)
    for k, cell in enumerate(_placed(fake)):
        tid = ids[k % len(ids)]
        want = np.array(technique_colour(tid)[::-1])  # RGB -> BGR
        inner = _cell_mask(geo, cell, photo.shape, grow=-2) & _changed(photo, out)
        px = out[inner].astype(float)
        dist = np.abs(px - want).sum(axis=1)
        assert (dist <= 3).sum() >= 15, f"cell {cell} ({tid}): no solid {want} pixels"
        # The rest is anti-aliasing: on the segment between the paper and the ink colour.
        paper = photo[inner].astype(float)
        towards = want - paper
        share = ((px - paper) * towards).sum(axis=1) / (towards * towards).sum(axis=1)
        off = np.linalg.norm(px - (paper + share[:, None] * towards), axis=1)
        assert share.min() >= -0.02 and share.max() <= 1.02
        assert np.percentile(off, 95) < 4.0
    assert technique_colour("no-such-rule") == FALLBACK_COLOUR


def test_badges_write_codes_in_the_corner(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    plain = _changed(photo, annotate(photo, geo, result, badges=False))
    labelled = _changed(photo, annotate(photo, geo, result))
    for cell in _placed(result):
        r, c = divmod(cell, 9)
        corner = geo.to_image([[c + 0.04, r + 0.04], [c + 0.4, r + 0.04],
                               [c + 0.4, r + 0.11], [c + 0.04, r + 0.11]])  # fmt: skip
        region = _poly_mask(photo.shape, corner)
        assert not (plain & region).any(), f"cell {cell}: the plain digit reaches the corner"
        assert (labelled & region).sum() >= 4, f"cell {cell}: no code label"


def test_legend_sits_in_free_space(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    ann = compose(photo, geo, result)
    assert ann.legend_box is not None
    x0, y0, x1, y1 = ann.legend_box
    h, w = photo.shape[:2]
    assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
    overlap = _box_mask(photo.shape, ann.legend_box) & _poly_mask(photo.shape, _grid_outline(geo))
    assert not overlap.any()
    assert _changed(photo, ann.image)[y0:y1, x0:x1].any()


def test_legend_without_room_goes_into_a_strip_below(result: SolveResult) -> None:
    # The grid fills the whole frame: the legend is never drawn over the grid; it goes
    # into a strip added below the photo, which is otherwise as the photo is.
    photo = np.full((300, 300, 3), 230, np.uint8)
    geo = GridGeometry.from_corners([[2, 2], [297, 2], [297, 297], [2, 297]], (300, 300))
    ann = compose(photo, geo, result)
    assert ann.legend_place == LegendPlace.STRIP and ann.legend_box is None
    h, w = photo.shape[:2]
    assert ann.image.shape[1] == w and ann.image.shape[0] > h
    top = ann.image[:h]
    outside = _changed(photo, top) & ~_poly_mask(photo.shape, _grid_outline(geo))
    assert not outside.any()
    strip = ann.image[h:]
    # The strip holds every technique's swatch: its family colour, solid.
    for entry in legend_entries(result):
        want = np.array(entry.colour[::-1])
        assert (np.abs(strip.astype(int) - want).sum(axis=2) <= 3).sum() >= 20, entry.name
    # Keeping the size leaves the legend out instead.
    kept = compose(photo, geo, result, extend=False)
    assert kept.image.shape == photo.shape and kept.legend_place == LegendPlace.NONE
    assert np.array_equal(kept.image, top)


def test_partial_solve_draws_what_logic_placed(scene: Scene) -> None:
    photo, geo = scene
    puzzle = generate(9)  # needs more than singles
    res = solve(puzzle, techniques=ORDER[:3])
    assert res.status == STUCK
    placed = set(_placed(res))
    assert placed
    out = annotate(photo, geo, res)
    diff = _changed(photo, out)
    for cell in range(81):
        n = int((diff & _cell_mask(geo, cell, photo.shape, grow=-3)).sum())
        assert (n > 0) == (cell in placed), f"cell {cell}"


def test_nothing_to_draw_leaves_the_photo(scene: Scene) -> None:
    photo, geo = scene
    bad = [5, 5, *generate(SEED)[2:]]  # a duplicate in row 1
    res = solve(bad)
    ann = compose(photo, geo, res)
    assert ann.legend_box is None and not ann.cells
    assert np.array_equal(ann.image, photo)


def test_geometry_of_a_downscaled_copy_is_rescaled(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    half = GridGeometry(geo.lattice / 2, (PHOTO_SIZE[0] // 2, PHOTO_SIZE[1] // 2))
    a = compose(photo, geo, result, legend=False)
    b = compose(photo, half, result, legend=False)
    assert a.cells == b.cells
    assert (_changed(a.image, b.image)).mean() < 0.01


def test_rejects_non_bgr_images(scene: Scene, result: SolveResult) -> None:
    _photo, geo = scene
    with pytest.raises(ValueError):
        annotate(np.zeros((640, 900), np.uint8), geo, result)
    with pytest.raises(ValueError):
        annotate(np.zeros((640, 900, 3), np.float32), geo, result)


def test_annotate_is_fast(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    annotate(photo, geo, result)  # warm the glyph caches
    t = time.perf_counter()
    annotate(photo, geo, result)
    assert time.perf_counter() - t < 0.5  # ~10 ms normally; generous for shared CI


def test_legend_entries_count_placements(result: SolveResult) -> None:
    entries = legend_entries(result)
    assert sum(e.count for e in entries) == len(_placed(result))
    assert all(e.label.endswith(f"\u00d7{e.count}") for e in entries)


# ---------------------------------------------------------------------- entries checked


def _entry_check(result: SolveResult) -> tuple[EntryCheck, list[int], int]:
    """Five entries in cells the solve places: four right, one wrong."""
    assert result.solution is not None
    cells = _placed(result)[::9][:5]
    entries = [0] * 81
    for c in cells:
        entries[c] = result.solution[c]
    wrong = cells[2]
    entries[wrong] = result.solution[wrong] % 9 + 1
    check = check_entries(result.givens, entries, result.solution)
    assert check.mistakes == (wrong,)
    return check, [c for c in cells if c != wrong], wrong


def _ring_pixels(image: UInt8Array) -> BoolArray:
    """Pixels of the ring's colour (BGR), give or take anti-aliasing's last levels."""
    want = np.array(MISTAKE_COLOUR[::-1])
    return np.asarray(np.abs(image.astype(int) - want).sum(axis=2) <= 12)


def test_entries_get_no_digit_and_the_wrong_one_a_ring(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    check, right, wrong = _entry_check(result)
    ann = compose(photo, geo, result, check=check)
    diff = _changed(photo, ann.image)
    ring = _ring_pixels(ann.image)
    assert ann.rings == (wrong,)
    assert set(ann.cells) == set(_placed(result)) - {*right, wrong}
    for cell in right:  # a right entry is left exactly as the person wrote it
        assert not (diff & _cell_mask(geo, cell, photo.shape)).any(), f"cell {cell} changed"
    # The wrong entry: its cell gets the ring and no digit; the ring sits in that cell only.
    cell_px = _cell_mask(geo, wrong, photo.shape)
    assert (ring & cell_px).sum() > 60
    grid = _poly_mask(photo.shape, _grid_outline(geo))  # (the legend's swatch is outside)
    assert not (ring & grid & ~_cell_mask(geo, wrong, photo.shape, grow=1)).any()
    r, c = divmod(wrong, 9)  # inside the ring, where a digit would go: nothing drawn
    inside = geo.to_image([[c + 0.3, r + 0.3], [c + 0.7, r + 0.3], [c + 0.7, r + 0.7],
                           [c + 0.3, r + 0.7]])  # fmt: skip
    middle = _poly_mask(photo.shape, inside)
    assert middle.sum() > 150 and not (diff & middle).any()
    # Without the check, those cells get solution digits as before.
    plain = _changed(photo, compose(photo, geo, result).image)
    assert all((plain & _cell_mask(geo, c, photo.shape, grow=-3)).any() for c in [*right, wrong])
    assert not _ring_pixels(compose(photo, geo, result).image).any()


def test_the_legend_counts_the_wrong_entries_with_a_ring(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    check, right, wrong = _entry_check(result)
    lines = legend_entries(result, check)
    assert lines[0].label == "1 of 5 entries wrong" and lines[0].swatch == Swatch.RING
    assert lines[0].colour == MISTAKE_COLOUR
    assert sum(e.count for e in lines[1:]) == len(_placed(result)) - len(right) - 1
    ann = compose(photo, geo, result, check=check)
    assert ann.legend_box is not None
    x0, y0, x1, y1 = ann.legend_box
    assert _ring_pixels(ann.image)[y0:y1, x0:x1].any(), "no ring swatch in the legend"
    mine = list(check.entries)
    mine[wrong] = 0
    right_only = check_entries(result.givens, mine, result.solution)
    assert legend_entries(result, right_only)[0].label == "all 4 entries right"


def test_an_unclear_entry_gets_no_digit_and_a_dashed_ring(
    scene: Scene, result: SolveResult
) -> None:
    photo, geo = scene
    check, right, wrong = _entry_check(result)
    unclear = right[0]  # the person wrote here; the reader could not make out what
    mine = list(check.entries)
    mine[unclear] = 0
    check = check_entries(result.givens, mine, result.solution, unclear=[unclear])
    ann = compose(photo, geo, result, check=check)
    assert unclear not in ann.cells and ann.rings == (wrong,)
    want = np.array(UNCLEAR_COLOUR[::-1])
    grey = np.abs(ann.image.astype(int) - want).sum(axis=2) <= 12
    cell_px = _cell_mask(geo, unclear, photo.shape)
    assert (grey & cell_px & _changed(photo, ann.image)).sum() > 20
    r, c = divmod(unclear, 9)  # inside the ring, where a digit would go: nothing drawn
    inside = geo.to_image([[c + 0.3, r + 0.3], [c + 0.7, r + 0.3], [c + 0.7, r + 0.7],
                           [c + 0.3, r + 0.7]])  # fmt: skip
    assert not (_changed(photo, ann.image) & _poly_mask(photo.shape, inside)).any()
    # Dashed: around the ring's circle, a share of it is left as the photo was.
    angles = np.linspace(0, 2 * np.pi, 240, endpoint=False)
    circle = np.stack([c + 0.5 + RING_RADIUS * np.cos(angles),
                       r + 0.5 + RING_RADIUS * np.sin(angles)], axis=1)  # fmt: skip
    xs, ys = np.round(geo.to_image(circle)).astype(int).T
    drawn = _changed(photo, ann.image)[ys, xs].mean()
    assert 0.3 < drawn < 0.9, drawn
    lines = legend_entries(result, check)
    assert lines[0].label == "1 of 4 entries wrong"
    assert lines[1].label == "1 entry unclear, not checked" and lines[1].swatch == Swatch.DASHED
    assert lines[1].colour == UNCLEAR_COLOUR
    # The report's grid of the person's entries shows it too: "?" in a dashed ring.
    html = render_report(result, title="t", check=check)
    mine = html.split('aria-label="Your entries')[1].split("</svg>")[0]
    assert mine.count("stroke-dasharray") == 1 and ">?<" in mine


def test_no_entries_draw_as_before(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    none = check_entries(result.givens, [0] * 81, result.solution)
    assert np.array_equal(compose(photo, geo, result, check=none).image,
                          compose(photo, geo, result).image)  # fmt: skip
    assert legend_entries(result, none) == legend_entries(result)


def test_a_page_rings_the_wrong_entries_of_each_grid(scene: Scene, result: SolveResult) -> None:
    photo, geo = scene
    check, _right, _wrong = _entry_check(result)
    out = annotate_page(photo, [(geo, result)], checks=[check])
    assert np.array_equal(out, compose(photo, geo, result, check=check).image)
    with pytest.raises(ValueError, match="1 grids but 2 entry checks"):
        annotate_page(photo, [(geo, result)], checks=[check, check])


def test_the_ring_colour_is_none_of_the_family_colours() -> None:
    ring = np.array(MISTAKE_COLOUR)
    for colour in {*FAMILY_COLOURS.values(), FALLBACK_COLOUR, GIVEN_COLOUR}:
        assert np.abs(ring - np.array(colour)).sum() > 120, colour


# ------------------------------------------------------------------------------ sheet


def test_sheet_renders(result: SolveResult) -> None:
    sheet = render_sheet(result, size=600)
    assert sheet.dtype == np.uint8 and sheet.ndim == 3 and sheet.shape[1] == 600
    assert sheet.shape[0] > 600  # title and legend around the grid
    blue = np.array(family_colour("singles")[::-1])
    assert (np.abs(sheet.astype(int) - blue).sum(axis=2) < 10).sum() > 200
    assert (np.abs(sheet.astype(int) - np.array(GIVEN_COLOUR)).sum(axis=2) < 10).sum() > 200


def test_sheet_renders_stuck_and_invalid() -> None:
    stuck = solve(generate(9), techniques=ORDER[:3])
    assert render_sheet(stuck, size=400).shape[1] == 400
    invalid = solve([5, 5, *generate(SEED)[2:]])
    assert render_sheet(invalid, size=400).shape[1] == 400


# ----------------------------------------------------------------------------- report


def _steps_html(text: str) -> list[str]:
    return re.findall(r'<li id="step-\d+">.*?</li>', text, flags=re.S)


def test_report_is_self_contained_and_complete(
    result: SolveResult, scene: Scene, tmp_path: Path
) -> None:
    photo, geo = scene
    path = tmp_path / "report.html"
    path.write_text("old")
    out = write_report(result, path, title="Test <puzzle>", image=annotate(photo, geo, result))
    assert out == path
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert "http://" not in text and "https://" not in text
    assert re.findall(r'src="(?!data:)', text) == []
    assert re.findall(r'href="(?!#)', text) == []
    assert "<link" not in text and "<script" not in text
    assert "Test &lt;puzzle&gt;" in text
    assert 'src="data:image/jpeg;base64,' in text
    items = _steps_html(text)
    assert len(items) == len(result.steps)
    for step, item in zip(result.steps, items, strict=True):
        assert html.escape(step.text) in item
        assert item.count("<svg") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"], "temp file left behind"


def test_report_marks_eliminations_and_placements() -> None:
    res = solve(generate(9))  # has elimination steps
    text = render_report(res, title="t")
    items = _steps_html(text)
    for step, item in zip(res.steps, items, strict=True):
        assert item.count('class="pc"') == len(step.placements)
        if step.eliminations:
            assert 'class="xs"' in item and 'class="x"' in item


def test_report_stays_compact() -> None:
    res = solve(generate(9))
    text = render_report(res, title="t")
    assert len(text.encode()) / max(1, len(res.steps)) < 5000


def test_report_for_stuck_and_invalid_solves() -> None:
    stuck = render_report(solve(generate(9), techniques=ORDER[:3]), title="s")
    assert "stuck" in stuck
    invalid = render_report(solve([5, 5, *generate(SEED)[2:]]), title="i")
    assert "duplicate" in invalid and _steps_html(invalid) == []


def test_report_for_a_phone_folds_singles_and_hides_the_solution(
    result: SolveResult, scene: Scene
) -> None:
    photo, geo = scene
    fixes = ["r3c9: read 8 (p=0.43), corrected to 6 so the puzzle has one solution"]
    text = render_report(result, title="t", image=annotate(photo, geo, result), corrections=fixes)
    # The photo and the reading's corrections come first, before the contents.
    assert text.index('<figure class="photo">') < text.index("<nav")
    assert text.index(html.escape(fixes[0])) < text.index("<nav")
    # The solution only behind a tap.
    assert re.search(r'<details class="spoiler"><summary>Show the solution</summary>', text)
    assert "Solution</figcaption>" not in text.split('<details class="spoiler">')[0]
    # Every run of three or more singles folded; every other step open and in the contents.
    folded = re.findall(r'<details class="run">.*?</details>', text, flags=re.S)
    singles = {"full-house", "naked-single", "hidden-single"}
    in_runs = sum(len(_steps_html(run)) for run in folded)
    assert in_runs and in_runs <= sum(s.technique in singles for s in result.steps)
    for i, step in enumerate(result.steps, 1):
        if step.technique not in singles:
            assert f'<a href="#step-{i}">' in text
    # The notation is explained once.
    assert text.count('id="notation"') == 1 and "r3c6&lt;&gt;4" in text


def test_sheet_and_report_show_the_entries_and_ring_the_wrong_one(result: SolveResult) -> None:
    check, _right, wrong = _entry_check(result)
    plain = render_sheet(result, size=600)
    sheet = render_sheet(result, size=600, check=check)
    ring = _ring_pixels(sheet)
    assert ring.sum() > 100 and not _ring_pixels(plain).any()
    # The ring sits on the wrong entry's cell: the sheet's grid is 90% of its width,
    # centred, so the ring's pixels lie in that cell's column band.
    _ys, xs = np.nonzero(ring)
    margin = round(600 * 0.05)
    cell = (600 - 2 * margin) // 9
    x0 = (600 - 9 * cell) // 2
    col = wrong % 9
    in_col = (xs >= x0 + col * cell) & (xs < x0 + (col + 1) * cell)
    assert in_col.mean() > 0.8
    page = render_report(result, title="t", check=check)
    assert f"Your entries: 1 of {check.checked} wrong" in page
    r, g, b = MISTAKE_COLOUR
    assert page.count(f'stroke="#{r:02x}{g:02x}{b:02x}"') == 1


def test_the_reports_table_counts_what_the_photo_draws(result: SolveResult) -> None:
    # With entries, their cells are the person's: the table counts as the legend does.
    check, _right, _wrong = _entry_check(result)
    page = render_report(result, title="t", check=check)
    digits = sum(
        int(n) for n in re.findall(r'<td class="n">\d+</td><td class="n">(\d+)</td>', page)
    )
    ids = {t.id for t in ORDER}
    drawn = sum(e.count for e in legend_entries(result, check) if e.technique in ids)
    assert digits == drawn == len(_placed(result)) - check.count
