"""The stress renderer draws what it claims: deterministic pages, truth on the lines,
entries where stated and never among the givens, the image size of each style."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.synth import (
    APP_SCREENS,
    HAND_FONT_PACKAGES,
    HELD_OUT_FONT_FAMILIES,
    HERSHEY_SCRIPT,
    PEN_INKS,
    STRESS_FONT_PACKAGES,
    STRESS_STYLES,
    TRAIN_FONT_FAMILIES,
    Degradation,
    FontFamily,
    HandPen,
    Medium,
    StressPage,
    find_font,
    render_stress_page,
)

# A valid puzzle (generate(5000)); the app styles derive the player's entries from its solution.
PUZZLE = "500008000010900000907025400380000902090000080201000064006270105000004070000500006"
# A subset that takes every code path of the renderer (each medium, line style, size rule
# and kind of damage) in a few seconds; the benchmark renders every style.
SAMPLED = [
    "classic", "dotted", "frame-only", "tinted-pastel", "colour-print", "app-light",
    "app-dark", "screen-photo-dark", "low-res", "crumpled", "curled", "perspective", "glare",
    "webcam-mirrored", "screen-photo-cast",
]  # fmt: skip


@functools.cache
def page(name: str, seed: int = 3) -> StressPage:
    return render_stress_page(PUZZLE, style=STRESS_STYLES[name], seed=seed)


def gray(p: StressPage) -> np.ndarray:
    return p.image.astype(np.float64).mean(axis=2)


def sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Pixel values at (N, 2) points (nearest pixel)."""
    xy = np.rint(pts).astype(int)
    return img[xy[:, 1], xy[:, 0]]


def expected_sizes(name: str) -> set[tuple[int, int]]:
    style = STRESS_STYLES[name]
    if not style.photographed:
        return set(APP_SCREENS)
    if style.has(Degradation.LOW_RES):
        base = (600, 800)
    elif style.has(Degradation.HIGH_RES):
        base = (4032, 3024)
    elif style.has(Degradation.SMALL_GRID):
        return {(4000, 3000)}
    else:
        base = (1600, 1200)
    return {base, base[::-1]}


@pytest.mark.parametrize("name", SAMPLED)
def test_style_image_size_and_truth_inside(name: str) -> None:
    p = page(name)
    h, w, ch = p.image.shape
    assert ch == 3 and p.image.dtype == np.uint8
    assert (w, h) in expected_sizes(name)
    assert p.lattice.shape == (10, 10, 2)
    xs, ys = p.lattice[..., 0], p.lattice[..., 1]
    assert (xs > 0).all() and (xs < w - 1).all() and (ys > 0).all() and (ys < h - 1).all()
    # Puzzle order: left to right along rows, top to bottom down columns (no flips);
    # in a mirrored picture the rows run right to left.
    across = -1 if STRESS_STYLES[name].has(Degradation.MIRRORED) else 1
    assert (across * np.diff(xs, axis=1) > 0).all() and (np.diff(ys, axis=0) > 0).all()
    assert p.givens == [int(c) for c in PUZZLE]


@pytest.mark.parametrize(
    "name", ["classic", "app-light", "screen-photo-dark", "crumpled", "low-res"]
)
def test_same_seed_same_pixels(name: str) -> None:
    a = page(name)
    b = render_stress_page(PUZZLE, style=STRESS_STYLES[name], seed=3)
    assert np.array_equal(a.image, b.image)
    assert np.array_equal(a.lattice, b.lattice)
    assert a.entries == b.entries


def test_another_seed_another_page() -> None:
    a, b = page("classic"), page("classic", seed=4)
    assert not np.array_equal(a.lattice, b.lattice)


def frame_contrast(p: StressPage, shift: float = 0.0) -> np.ndarray:
    """Per crossing of box lines (16): how much darker than the paper just inside the
    neighbouring cells the truth point is, in grey levels. ``shift`` moves the truth by
    that many cells (to show the measure notices a wrong lattice)."""
    g = gray(p)
    lat = p.lattice
    cell = np.linalg.norm(lat[0, 9] - lat[0, 0]) / 9
    out = []
    for i in (0, 3, 6, 9):
        for j in (0, 3, 6, 9):
            pt = lat[i, j] + shift * cell
            # Points a quarter cell off the crossing along the diagonals sit inside cells.
            ii, jj = min(i, 8), min(j, 8)
            inward = (lat[ii + 1, jj + 1] - lat[ii, jj]) / np.sqrt(2)
            inward *= 0.25 * cell / np.linalg.norm(inward)
            paper = np.median(
                sample(
                    g,
                    np.array(
                        [pt + inward, pt - inward, pt + inward * [1, -1], pt - inward * [1, -1]]
                    ),
                )
            )
            out.append(paper - sample(g, pt[None])[0])
    return np.array(out)


@pytest.mark.parametrize(
    "name",
    [
        "classic",
        "colour-print",
        "tinted-grey",
        "crumpled",
        "curled",
        "perspective",
        "low-res",
        "dotted",
    ],
)
def test_lattice_on_the_printed_lines(name: str) -> None:
    p = page(name)
    # The box lines and frame are dark ink: every crossing is darker than the paper by it.
    assert np.median(frame_contrast(p)) > 40
    assert (frame_contrast(p) > 10).mean() >= 0.8
    # The same measure a third of a cell off the truth finds paper, not ink.
    assert np.median(frame_contrast(p, shift=0.33)) < 20


@pytest.mark.parametrize("name", ["app-light", "app-dark"])
def test_screenshot_lattice_on_every_line(name: str) -> None:
    p = page(name)
    g = gray(p)
    pts = p.lattice.reshape(-1, 2)
    # Screenshots are pixel-exact: every crossing has the line colour, the grid's
    # background a few pixels inside the top-left cell does not.
    inside = sample(g, pts[:1] + 4)[0]
    on = sample(g, pts)
    if STRESS_STYLES[name].medium is Medium.APP_DARK:
        assert (on > inside + 25).all()
    else:
        assert (on < inside - 25).all()
    # Line centres: an odd width sits on a pixel, an even one between two.
    assert np.all((2 * pts) == np.rint(2 * pts))


def coloured_cells(p: StressPage) -> list[bool]:
    """Cells holding strongly coloured ink (the apps' entry colours; givens are grey)."""
    img = p.image.astype(int)
    sat = img.max(axis=2) - img.min(axis=2)
    lat = p.lattice
    out = []
    for i in range(81):
        r, c = divmod(i, 9)
        x0, y0 = np.rint(lat[r, c]).astype(int) + 3
        x1, y1 = np.rint(lat[r + 1, c + 1]).astype(int) - 3
        out.append(bool((sat[y0:y1, x0:x1] > 100).sum() > 10))
    return out


@pytest.mark.parametrize("name", ["app-light", "app-dark"])
def test_entries_drawn_where_stated_and_not_givens(name: str) -> None:
    givens = [int(c) for c in PUZZLE]
    entries = [0] * 81
    empty = [i for i, g in enumerate(givens) if g == 0]
    for k, i in enumerate(empty[::11]):  # spread over the grid
        entries[i] = k % 9 + 1
    p = render_stress_page(PUZZLE, style=STRESS_STYLES[name], seed=3, entries=entries)
    assert p.givens == givens and p.entries == entries
    assert coloured_cells(p) == [e != 0 for e in entries]
    # Without entries the same page has no coloured cells at all.
    bare = render_stress_page(PUZZLE, style=STRESS_STYLES[name], seed=3, entries=[0] * 81)
    assert not any(coloured_cells(bare))
    assert np.array_equal(bare.lattice, p.lattice)


def test_candidates_drawn_on_the_paper_in_their_cells_only() -> None:
    # The person's candidates go on the paper before the camera: a steep tilt bends
    # them with their cells, and nothing else on the page moves by a pixel.
    style = STRESS_STYLES["perspective"]
    hand = HandPen(HERSHEY_SCRIPT, *PEN_INKS["blue pen"])
    noted = {2: [1, 5, 9], 40: [3, 4], 79: [6, 7, 8]}
    bare = render_stress_page(PUZZLE, style=style, seed=3, hand=hand)
    marked = render_stress_page(PUZZLE, style=style, seed=3, hand=hand, candidates=noted)
    assert np.array_equal(bare.lattice, marked.lattice)
    changed = np.abs(marked.image.astype(int) - bare.image.astype(int)).max(axis=2) > 40
    cells = np.zeros(changed.shape, np.uint8)
    for i in noted:
        r, c = divmod(i, 9)
        quad = marked.lattice[[r, r, r + 1, r + 1], [c, c + 1, c + 1, c]]
        cells[:] = 0
        cv2.fillConvexPoly(cells, np.round(quad).astype(np.int32), 1)
        assert changed[cells == 1].sum() > 20, i  # ink in each noted cell ...
        changed[cells == 1] = False
    assert not changed.any()  # ... and nowhere else
    with pytest.raises(ValueError):
        render_stress_page(
            PUZZLE, style=STRESS_STYLES["app-light"], seed=3, hand=hand, candidates=noted
        )
    with pytest.raises(ValueError):  # cell 0 holds the given 5
        render_stress_page(PUZZLE, style=style, seed=3, hand=hand, candidates={0: [1, 2]})


def test_default_app_entries_are_a_game_in_progress() -> None:
    p = page("app-light")
    assert p.givens == [int(c) for c in PUZZLE]
    filled = [i for i, e in enumerate(p.entries) if e]
    assert filled and all(p.givens[i] == 0 for i in filled)
    assert coloured_cells(p) == [e != 0 for e in p.entries]
    assert not any(page("classic").entries)  # print: none unless asked


def test_entries_on_givens_are_refused() -> None:
    entries = [0] * 81
    entries[0] = 3  # cell 0 holds the given 5
    with pytest.raises(ValueError):
        render_stress_page(PUZZLE, style=STRESS_STYLES["app-light"], seed=0, entries=entries)


def test_font_sets_disjoint_and_makefile_lists_held_out_packages() -> None:
    train = {f.name for f in TRAIN_FONT_FAMILIES}
    held = {f.name for f in HELD_OUT_FONT_FAMILIES}
    assert not train & held
    assert not {f.package for f in TRAIN_FONT_FAMILIES} & set(STRESS_FONT_PACKAGES)
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    m = re.search(r"^STRESS_FONT_PACKAGES :=((?:.*\\\n)*.*)$", makefile, re.M)
    assert m is not None
    assert sorted(m.group(1).replace("\\\n", " ").split()) == sorted(STRESS_FONT_PACKAGES)
    trained = re.search(r"^FONT_PACKAGES :=((?:.*\\\n)*.*)$", makefile, re.M)
    hands = re.search(r"^HAND_FONT_PACKAGES :=((?:.*\\\n)*.*)$", makefile, re.M)
    assert trained is not None and hands is not None
    assert sorted(hands.group(1).replace("\\\n", " ").split()) == sorted(HAND_FONT_PACKAGES)
    listed = trained.group(1).replace("\\\n", " ").replace("$(HAND_FONT_PACKAGES)", "")
    assert sorted(listed.split()) == sorted(
        {f.package for f in TRAIN_FONT_FAMILIES} | {"fonts-dejavu-extra"}
    )


def test_missing_font_family_falls_back_to_dejavu() -> None:
    ghost = FontFamily("Ghost Sans", "fonts-ghost", ("GhostSans-Regular.ttf",))
    assert not ghost.available
    p = render_stress_page(PUZZLE, style=STRESS_STYLES["low-res"], seed=1, font=ghost)
    assert p.font == "DejaVu Sans"
    hershey = render_stress_page(
        PUZZLE, style=STRESS_STYLES["low-res"], seed=1, font=HELD_OUT_FONT_FAMILIES[-1]
    )
    assert hershey.font.startswith("Hershey")
    assert not np.array_equal(hershey.image, p.image)


def test_training_never_sees_a_held_out_family(tmp_path: Path) -> None:
    from scanner.digits.synth import HELD_OUT_FONT_DIRS, system_fonts

    dejavu = Path(find_font() or "")
    if not dejavu.is_file():
        pytest.skip("no TrueType font to copy on this machine")
    kept = tmp_path / "truetype" / "dejavu" / "DejaVuSans.ttf"
    held = tmp_path / "opentype" / "lato" / "Lato-Regular.ttf"
    for path in (kept, held):
        path.parent.mkdir(parents=True)
        path.write_bytes(dejavu.read_bytes())
    assert system_fonts([tmp_path]) == [kept]
    # Every held-out family installed here lives in one of the skipped folders.
    for family in HELD_OUT_FONT_FAMILIES:
        for path in family.paths():
            assert HELD_OUT_FONT_DIRS & set(Path(path).parts), path


def test_a_colour_cast_tints_the_photographed_screen() -> None:
    # The screen's white (its brightest pixels) keeps the room's warm light's balance
    # on a plain screen photo, and takes the cast's on a cast one.
    def white_balance(p: StressPage) -> np.ndarray:
        pixels = p.image.reshape(-1, 3).astype(np.float64)
        light = pixels.sum(axis=1)
        white = np.median(pixels[light >= np.percentile(light, 98)], axis=0)
        return np.asarray(white / white.mean())

    for seed in (3, 4, 5):
        plain, cast = page("screen-photo", seed), page("screen-photo-cast", seed)
        assert np.abs(white_balance(plain) - white_balance(cast)).max() > 0.02
