"""The reader on styles beyond newspaper print: dark mode, and entries in another ink."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.api import SCREENED, ScanResult, read_photo
from scanner.geometry import GridGeometry
from scanner.kinds import (
    CellKind,
    _in_an_entry_ink,
    _lightness_way,
    _tight_second_ink,
    _tinted_print,
    moire_stripes,
    white_balanced,
)
from scanner.load import load_image
from scanner.locate import fine_texture, shifted_lattice
from scanner.quality import BENT_CAUSE, frame_missed
from scanner.reading import Problem, ReadStatus
from solver.grid import cell_name
from solver.search import solutions
from tests.synth import StressPage, render_puzzle_photo, write_by_hand

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
GIVENS = [int(ch) for ch in PUZZLE]


@pytest.fixture(scope="module")
def photo() -> tuple[np.ndarray, np.ndarray]:
    image, _, lattice = render_puzzle_photo(PUZZLE, seed=3, size=(1000, 800))
    return image, lattice


def test_a_dark_mode_grid_reads_like_a_light_one(photo) -> None:
    image, _ = photo
    scan = read_photo(255 - image)
    assert scan.status == ReadStatus.OK
    assert scan.givens == GIVENS


@pytest.mark.parametrize("light", ["dark table", "dim light", "half in shadow"])
def test_a_dark_photo_of_print_is_searched_as_print_first(photo, monkeypatch, light) -> None:
    import scanner.api as api

    image, _ = photo
    if light == "dark table":
        # The page fills the middle but not half the photo: its median is the table's.
        table = cv2.copyMakeBorder(image, 500, 500, 600, 600, cv2.BORDER_CONSTANT, value=(40,) * 3)
    elif light == "dim light":
        # Newsprint under a dim lamp: dark all over, yet mostly paper.
        table = (image.astype(np.float32) * 0.45).astype(np.uint8)
    else:
        # The phone's shadow over the top of the page, its edge soft: the paper has two
        # levels and the photo's median lies between them, nearer the shadow's.
        rows = np.arange(image.shape[0], dtype=np.float32)[:, None, None]
        edge = 0.6 * image.shape[0]
        light_share = 0.3 + 0.7 / (1.0 + np.exp(-(rows - edge) / (0.03 * image.shape[0])))
        table = (image.astype(np.float32) * light_share).astype(np.uint8)
    assert np.median(table) < 128
    searched: list[float] = []
    locate = api.locate_grid

    def spy(gray: np.ndarray, **kwargs):
        searched.append(float(np.median(gray)))
        return locate(gray, **kwargs)

    monkeypatch.setattr(api, "locate_grid", spy)
    scan = read_photo(table)
    assert scan.status == ReadStatus.OK
    assert scan.givens == GIVENS
    assert len(searched) == 1  # found in the first polarity tried: no search wasted
    assert searched[0] < 128  # the photo as taken (dark table), not inverted


@pytest.mark.parametrize("ink", [(200, 60, 20), (30, 30, 210)], ids=["blue", "red"])
def test_entries_in_another_ink_are_not_givens(photo, ink) -> None:
    image, lattice = photo
    solution = solutions(GIVENS)[0]
    empty = [i for i in range(81) if not GIVENS[i]]
    entries = {i: solution[i] for i in empty[::5]}
    written = image.copy()
    write_by_hand(written, lattice, entries, ink)
    scan = read_photo(written)
    assert scan.status == ReadStatus.OK
    assert scan.givens == GIVENS
    assert {i: v for i, v in enumerate(scan.entries) if v} == entries
    assert {i for i, k in enumerate(scan.kinds) if k == CellKind.ENTRY} == set(entries)
    assert scan.to_dict()["entries"] == "".join(str(entries.get(i, 0)) for i in range(81))


def test_entries_in_black_like_the_print_are_still_read_as_digits(photo) -> None:
    # Same ink as the print: colour cannot tell them apart (that is the handwriting
    # reader's job); the reading must not call them entries on colour grounds.
    image, lattice = photo
    written = image.copy()
    write_by_hand(written, lattice, {0: 4}, (20, 20, 20))
    scan = read_photo(written)
    assert scan.kinds[0] != CellKind.ENTRY


def test_a_printed_puzzle_with_two_solutions_is_reported_not_fixed(tmp_path, capsys) -> None:
    # A given left out of the print leaves two solutions. The reader reports the page
    # as printed (exit 4 with both solutions) or, when it doubts some cell, unreadable
    # (exit 9); it never "fixes" it into one solution, and nothing is drawn.
    import json

    from pipeline.cli import main
    from solver.errors import ExitCode

    for cell in range(81):
        reduced = [*GIVENS[:cell], 0, *GIVENS[cell + 1 :]]
        if GIVENS[cell] and len(solutions(reduced, limit=3)) == 2:
            break
    image, _, _ = render_puzzle_photo("".join(map(str, reduced)), seed=3, size=(1000, 800))
    photo = tmp_path / "two.png"
    cv2.imwrite(str(photo), image)
    scan = read_photo(str(photo))
    if scan.status == ReadStatus.UNREADABLE:
        # The 20-class network reads this sans print's 6, 8 and 9 at 0.7-0.8 (2026-11-24).
        assert main(["solve", str(photo), "--json"]) == ExitCode.UNREADABLE
        assert not list(tmp_path.glob("*.solved.*"))
        return
    assert scan.status == ReadStatus.MULTIPLE
    assert scan.givens == reduced and scan.corrections == []
    code = main(["solve", str(photo), "--json"])
    captured = capsys.readouterr()
    assert code == ExitCode.INVALID_PUZZLE
    obj = json.loads(captured.out)
    assert obj["status"] == "multiple_solutions"
    assert sorted(obj["solutions"]) == sorted("".join(map(str, s)) for s in solutions(reduced))
    assert captured.err.count("\n") == 1 and "more than one solution" in captured.err
    assert not list(tmp_path.glob("*.solved.*"))


def _striped(image: np.ndarray, *, period: float, depth: float) -> np.ndarray:
    """The photo under fine diagonal stripes (a photographed screen's moire): each
    pixel darkened by up to ``depth`` along a wave of ``period`` pixels."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    wave = 0.5 + 0.5 * np.cos(2 * np.pi * (0.8 * xx + 0.6 * yy) / period)
    gain = (1.0 - depth) + depth * wave
    return np.clip(image * gain[:, :, None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("period", [2.5, 4.0])
def test_a_grid_under_fine_stripes_is_read_through_a_blur(period: float) -> None:
    # The network never saw such a texture: read as it is, either page is refused
    # (printed digits read as doubtful empties); blurred, every digit reads.
    image, _, lattice = render_puzzle_photo(
        PUZZLE, seed=7, size=(1600, 1200), grey_lines=True, thick_border=False, rotation_deg=4
    )
    striped = _striped(image, period=period, depth=0.7)
    geometry = GridGeometry(lattice, (1600, 1200))
    gray = cv2.cvtColor(striped, cv2.COLOR_BGR2GRAY)
    clean = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert fine_texture(gray, geometry) >= SCREENED > fine_texture(clean, geometry)
    scan = read_photo(striped)
    assert scan.status == ReadStatus.OK
    assert scan.givens == GIVENS


def _stress_page(style: str, seed: int, font_name: str) -> StressPage:
    """Page ``seed`` of ``style`` as bench_stress draws it, in the held-out ``font_name``."""
    from solver.generate import generate
    from tests.synth import HELD_OUT_FONT_FAMILIES, STRESS_STYLES, render_stress_page

    font = next(f for f in HELD_OUT_FONT_FAMILIES if f.name == font_name)
    return render_stress_page(
        generate(5000 + seed), style=STRESS_STYLES[style], seed=seed, font=font
    )


def _reads_right(page: StressPage) -> None:
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    assert scan.entries == page.entries


def _read_right_or_refused(page: StressPage) -> ScanResult:
    """The page's reading: its printed givens exactly, or refused; never another puzzle."""
    scan = read_photo(page.image)
    assert scan.status in (ReadStatus.OK, ReadStatus.UNREADABLE)
    assert scan.status == ReadStatus.UNREADABLE or scan.givens == page.givens
    return scan


@pytest.mark.parametrize(
    ("seed", "font"), [(4, "Hershey Triplex"), (111, "Hershey Triplex"), (909, "Hershey Duplex")]
)
def test_an_app_s_pencil_candidates_are_neither_entries_nor_a_second_ink(
    seed: int, font: str
) -> None:
    # App screenshots as bench_stress draws them (light mode, in OpenCV's Hershey faces):
    # grey pencil candidates beside navy givens and coloured entries. On page 111 the
    # candidates' grey, the median of the "other" colours, made that group look no more
    # coloured than the givens: refused as "digits in two colours". On page 4 four
    # candidate cells were read as the player's entries. On page 909 a lone candidate 5
    # sits in the middle of r1c5 (the 3 x 3 layout's place for a 5), half as tall as
    # the print: no rule of marks calls one mark in the middle pencil, and it was read
    # as an entry (then taken as the solution's 2, the 5 being in doubt).
    page = _stress_page("app-light", seed, font)
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    invented = [i for i in range(81) if scan.entries[i] and not page.entries[i]]
    assert not invented, f"pencil marks read as entries: {invented}"


@pytest.mark.parametrize(
    ("seed", "font"), [(2704, "Comfortaa"), (5008, "Comfortaa"), (6463, "Fira Code")]
)
def test_candidates_moire_stretched_or_tinted_are_no_entry(seed: int, font: str) -> None:
    # Photographed phone screens (stress pages screen-photo, held-out fonts). 2704:
    # moire stretched r2c9's two candidate marks to 0.66 of the print's height, just
    # past the candidates' size, and an app's small inks were no longer taken for
    # candidates on the page (a size between theirs and the print's is an entry's
    # strokes broken). r6c2's two candidates were read as the player's 9. 5008: the
    # fringes tinted the grey candidates of r2c7 and r4c8 the entries' colour; read
    # likelier as nothing than as any digit, they were taken for entries and settled
    # to the solution's 7 and 9. 6463: r7c3's three grey candidates under moire, a
    # lighter ink than the print, made the page look written on, and the cell was read
    # as the person's: "empty" 0.31 against a 3 at 0.13, settled to the solution's 3.
    page = _stress_page("screen-photo", seed, font)
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    invented = [i for i in range(81) if scan.entries[i] and not page.entries[i]]
    assert not invented, f"pencil marks read as entries: {invented}"
    assert scan.entries == page.entries


def test_a_mirrored_page_read_turned_and_corrected_is_read_mirrored() -> None:
    # Stress webcam-mirrored 6626 (fresh): the mirrored page read a half turn round is
    # the page upside down; its 3s, 8s and 1s read as themselves, 22 of its 30 digits
    # under 0.9, and revision corrected two 8s to 4s into another puzzle, read with
    # confidence. Its mirror image reads as it is: the page.
    page = _stress_page("webcam-mirrored", 6626, "Hack")
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    assert scan.loaded.mirrored and not scan.corrections


def test_light_ink_an_app_page_needs_is_refused_not_given_back_as_print() -> None:
    # Stress screen-photo 6636 (fresh, Inconsolata): the app's small candidate 6 in r2c1,
    # in its highlighted row, read as a 6 at 0.60 before the kind rules ("empty" 0.44
    # after them: faint ink), was given back as a print the puzzle needs, its solution's
    # digit: the page was read with confidence as another puzzle, one given more. On an
    # app's page light ink is its candidates as often as a given faded by glare.
    page = _stress_page("screen-photo", 6636, "Inconsolata")
    scan = _read_right_or_refused(page)
    assert scan.status == ReadStatus.UNREADABLE and scan.doubtful_cells[0] == 9
    assert "the app's candidate" in scan.problem


def test_an_app_s_entry_in_its_givens_font_keeps_the_digit_of_its_glyph() -> None:
    # Stress app-light 5154 (Inconsolata): the player's wrong 1 in r6c9 is the app's 1,
    # the givens' glyph in purple, read 0.74 with the solution's 9 at 0.08 (the
    # network doubts this font's 1s, the printed ones too). Taken for a doubt of the
    # reader's, it was settled to the 9, and the mistake was hidden. A copy of the
    # printed 1 is a 1: the entries are read as the player wrote them.
    page = _stress_page("app-light", 5154, "Inconsolata")
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    assert scan.entries[5 * 9 + 8] == 1
    assert scan.entries == page.entries


def _stripes(angle: float, *, width: int = 2, gap: int = 9) -> np.ndarray:
    """An ink map (64, 64) of parallel stripes at ``angle`` degrees, as moire draws."""
    ink = np.zeros((64, 64), dtype=np.float32)
    t = np.radians(angle)
    ys, xs = np.mgrid[0:64, 0:64]
    across = xs * np.sin(t) - ys * np.cos(t)  # distance across the stripes
    ink[(across % gap) < width] = 1.0
    return ink


def _digit_ink(text: str) -> np.ndarray:
    ink = np.zeros((64, 64), dtype=np.uint8)
    cv2.putText(ink, text, (18, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 255, 4)
    return (ink / 255.0).astype(np.float32)


def test_moire_stripes_are_told_from_digits() -> None:
    # Stripes at any angle are moire; a digit is not, nor a 1 (a lone line), nor a
    # digit with fainter stripes across it (its own stroke is the largest).
    stripes = np.stack([_stripes(a) for a in (30.0, 45.0, 140.0, 90.0)])
    assert moire_stripes(stripes).all()
    faint = 0.5 * _stripes(140.0)
    digits = np.stack(
        [_digit_ink("7"), _digit_ink("1"), _digit_ink("8"), np.maximum(_digit_ink("4"), faint)]
    )
    assert not moire_stripes(digits).any()
    assert not moire_stripes(np.zeros((1, 64, 64), dtype=np.float32)).any()
    # Stripes running into a grid line the lattice left in the cell near its edge are
    # still stripes; a 1 in the middle of its cell beside stripes stays a digit.
    framed = _stripes(30.0)
    framed[:, 10:13] = 1.0
    one = np.maximum(_digit_ink("1"), 0.5 * _stripes(30.0))
    assert moire_stripes(np.stack([framed])).all()
    assert not moire_stripes(np.stack([one])).any()


def _band(angle: float, offset: float, width: float) -> np.ndarray:
    """An ink map (64, 64) of one straight band at ``angle`` degrees through the cell."""
    t = np.radians(angle)
    ys, xs = np.mgrid[0:64, 0:64]
    across = (xs - 31.5) * np.sin(t) - (ys - 31.5) * np.cos(t)
    return (np.abs(across - offset) < width / 2).astype(np.float32)


def test_a_stripe_with_one_other_is_moire_where_no_digit_draws_such_a_pair() -> None:
    # A screen's moire often leaves one wide stripe in a cell and one piece of the next
    # (the rest under the ink threshold): diagonal, they are moire. Upright, a line with
    # one other beside it is a 1 and the grid line's piece the cell kept at its edge.
    diagonal = np.maximum(_band(50.0, 0.0, 6.0), _band(47.0, 20.0, 3.0) * (_band(137.0, 0.0, 24.0)))
    assert moire_stripes(diagonal[None]).all()
    upright = np.maximum(_band(88.0, 0.0, 5.0) * _band(0.0, 0.0, 44.0), _band(90.0, 30.0, 2.0))
    assert not moire_stripes(upright[None]).any()
    # Two long lines side by side in the middle of the cell are moire at any angle; a 1
    # broken in two (its pieces end to end) is no such pair.
    pair = np.maximum(_band(105.0, -8.0, 5.0), _band(104.0, 9.0, 5.0)) * _band(15.0, 0.0, 40.0)
    assert moire_stripes(pair[None]).all()
    broken = _band(92.0, 0.0, 5.0) * (_band(2.0, -11.0, 18.0) + _band(2.0, 11.0, 18.0))
    assert not moire_stripes(broken[None]).any()


@pytest.mark.parametrize(
    ("seed", "font"),
    [
        (2917, "Charis SIL"),
        (4527, "Fira Code"),
        (4807, "Hershey Duplex"),
        (6379, "Cantarell"),
        (6410, "Lato"),
    ],
)
def test_a_screens_moire_stripes_are_no_entries(seed: int, font: str) -> None:
    # Photographed screens (stress pages screen-photo, held-out fonts) under heavy
    # diagonal moire. 2917: the stripes' colour fringes are the entries' colour, and
    # eight empty cells were read as the player's 2s, 6s, 7s and 8s. 4527: the stripes
    # make the page look written on, and five empty cells were read as the person's
    # doubtful entries, then settled to the solution's digits (none drawn there). 4807:
    # in r4c1, beside the frame, the stripes ran into the frame's edge the lattice left
    # in the cell, one stroke with it and no longer a line: read as an entry 8. 6379:
    # in r8c1 one wide stripe at 51 degrees and one piece of the next: an entry 3. 6410:
    # in r9c7 two long stripes side by side at 105 degrees, the rest faint: an entry 4.
    page = _stress_page("screen-photo", seed, font)
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    invented = [cell_name(i) for i in range(81) if scan.entries[i] and not page.entries[i]]
    assert not invented, f"moire read as entries: {invented}"


def test_an_apps_candidates_joined_taller_than_its_print_are_no_entries() -> None:
    # Stress screen-photo-cast 6552: grey candidates in the app's selected box, tinted
    # like the entries and joined by moire into ink 1.46-1.75 of the print's height,
    # were read as entries at 0.31-0.61; r2c7's and r2c9's were called mistakes.
    page = _stress_page("screen-photo-cast", 6552, "Hershey Complex")
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    for cell in (7, 15, 17):
        assert not scan.entries[cell] and not page.entries[cell]
    # The mistakes called are the player's own (the app drew one wrong entry).
    solution = solutions(list(page.givens), limit=1)[0]
    called = [c for c in range(81) if scan.entries[c] and scan.entries[c] != solution[c]]
    made = [c for c in range(81) if page.entries[c] and page.entries[c] != solution[c]]
    assert called == made


@pytest.mark.parametrize(("style", "seed"), [("screen-photo", 14), ("app-dark", 240)])
def test_candidates_blurred_by_a_screen_do_not_stop_the_reading(style: str, seed: int) -> None:
    # Pages as bench_stress draws them: an app's grey candidates, photographed off its
    # screen (or shot small), come out two thirds as tall as its print. They were read
    # as printed digits in doubt, and the pages refused.
    _reads_right(_stress_page(style, seed, "Linux Biolinum"))


def test_an_entry_washed_toward_the_print_on_a_dark_screen_is_still_an_entry() -> None:
    # Page 0 of bench_stress's screen-photo-dark: the moire scatters the givens' colour
    # over 20 units of a*b* and washes two blue entries to about 20 from the givens'
    # median, nearer it than the limit of their group: both were givens in doubt and
    # the page refused. Along the line from the givens to the blue they lie at 0.84
    # and 0.92 of the way, every given under 0.4.
    _reads_right(_stress_page("screen-photo-dark", 0, "Charis SIL"))


def test_a_given_tinted_toward_the_entries_in_one_view_only_is_no_entry() -> None:
    # Page 473 of bench_stress's screen-photo-dark: moire tints the printed 2 in r1c6
    # toward the pale blue entries, 0.75 of the way to them as seen but 0.47 at full
    # strength. Taken as an entry it left a puzzle with the page's one solution but
    # other givens: a confident reading of another puzzle. Views that contradict each
    # other leave the given in doubt. (Revision read it back while a digit in doubt
    # between the inks could be a copy of the printed 2s' glyph; since an app's entry
    # is one too, the page is refused, naming it.)
    page = _stress_page("screen-photo-dark", 473, "Linux Biolinum")
    r1c6 = 5
    scan = _read_right_or_refused(page)
    assert scan.kinds[r1c6] != CellKind.ENTRY
    assert scan.status == ReadStatus.OK or r1c6 in scan.doubtful_cells


def test_a_given_tinted_like_no_other_ink_is_no_entry() -> None:
    # Page 619 of bench_stress's screen-photo-dark: the screen's moire tints the printed
    # 7 in r7c1 magenta, 26 (a*b*) from the givens' median and 23 from the nearest blue
    # entry: an ink of its own, used once. Taken as an entry, the givens without it had
    # the page's one solution: a confident reading of another puzzle. A lone third ink
    # that near the print is a given in doubt.
    page = _stress_page("screen-photo-dark", 619, "Comfortaa")
    scan = read_photo(page.image)
    r7c1 = 6 * 9
    assert scan.kinds[r7c1] != CellKind.ENTRY
    if scan.status == ReadStatus.OK:
        assert scan.givens == page.givens
    else:
        assert scan.status == ReadStatus.UNREADABLE and r7c1 in scan.doubtful_cells


def test_a_given_tinted_partway_to_the_entries_beside_a_washed_out_entry_is_no_entry() -> None:
    # Page 815 of bench_stress's screen-photo-dark: moire tints the printed 7 in r3c2
    # 20 (a*b*) from the givens' median, off their group, and a washed-out blue entry
    # 13 from it keeps it from being a lone ink; yet it lies at 0.4 of the way from the
    # givens to the blue, on the givens' half. Taken as an entry, the givens without it
    # had the page's one solution: a confident reading of another puzzle. Now it is a
    # given in doubt, and the page is refused (the reading kept takes two more tinted
    # givens for entries too, which leaves several solutions).
    _read_right_or_refused(_stress_page("screen-photo-dark", 815, "League Spartan"))


@pytest.mark.parametrize(
    ("style", "seed", "font", "cell"),
    [
        ("glare", 816, "Hershey Triplex", "r4c8"),
        ("newsprint-crinkled", 2701, "Inconsolata", "r8c3"),
        ("newsprint-crinkled", 2811, "Lato", "r6c2"),
    ],
)
def test_ink_too_faint_for_the_grid_s_scale_read_as_the_digit_the_puzzle_needs_is_doubted(
    style: str, seed: int, font: str, cell: str
) -> None:
    # Pages of bench_stress blank at the grid's ink scale in one cell, where the network
    # reads at the cell's own strength, surely, the digit the puzzle has there (half of
    # that counts, "empty" keeps the rest): on glare 816 the glare leaves the printed 5
    # at a fifth of the grid's stroke strength (0.96 at its own); on newsprint-crinkled
    # 2701 and 2811 a crease's soft shadow through an empty cell reads as a 1 and a 7
    # (0.93, 0.91). The puzzle has its one solution with or without the digit: left
    # out, 816 was another puzzle; written in as a faint print, 2701 and 2811 were.
    # Refused, naming the cell, or read right another way (2811: through the photo's
    # other grey, where the crease reads empty). Since 2026-12-03 (night) 816's cell,
    # in the glare's halo, is lost to the glare (``quality.glare_faded``) first.
    scan = _read_right_or_refused(_stress_page(style, seed, font))
    if scan.status == ReadStatus.UNREADABLE:
        assert "faint ink" in scan.problem or scan.problems == [Problem.GLARE]
        assert cell_name(scan.doubtful_cells[0]) == cell


def test_a_print_broken_by_blur_into_its_top_and_the_rest_is_no_pencil_mark() -> None:
    # Page 728 of bench_stress's motion-blur: the blur breaks the printed 7 in r3c4 into
    # its bar and its stem, two short strokes that the pencil test took for two
    # candidates: "empty" led, and the puzzle without the 7 has the page's one solution
    # (a confident reading of another puzzle). The bar is no small digit, and the
    # network surely reads a 7 there.
    _reads_right(_stress_page("motion-blur", 728, "Linux Libertine"))


def test_a_print_beside_a_bent_line_s_remnant_is_no_pair_of_candidates() -> None:
    # Page 3205 of bench_stress's newsprint-crinkled: in r6c7 the crumpled page bends
    # the box line into the cell's corner, and its remnant stands as tall as the
    # printed 4 beside it, a gap apart: the pencil test took the two for candidates,
    # "empty" led (0.60), and the puzzle without the 4 has the page's one solution (a
    # confident reading of another puzzle). The network reads the cell as a 4 at 0.96;
    # on 370 stress pages no cell of candidates reads as any digit past 0.7.
    _reads_right(_stress_page("newsprint-crinkled", 3205, "League Spartan"))


def test_a_printed_1_shaken_faint_is_not_left_out() -> None:
    # Page 3413 of bench_stress's handheld (beyond reading, but read): the printed 1 in
    # r7c5, shaken and glared under half the grid's stroke strength, reads as a 1 at
    # 0.67, and the faint-ink rule gave "empty" the lead (0.41 against 0.40); the puzzle
    # without it has the page's one solution. A lone stroke read as the solution's 1
    # was neither kept nor a reason to refuse (a bent grid line reads so): a confident
    # reading of another puzzle.
    _read_right_or_refused(_stress_page("handheld", 3413, "Cantarell"))


def test_a_print_cut_across_by_a_lattice_off_its_lines_is_not_left_out() -> None:
    # Page 3049 of bench_stress's crumpled: the lattice runs half a cell off the crumpled
    # lines around r5c6 and r6c6, cutting across the printed 2 and 4: the network reads
    # r5c6 as no digit in particular ("empty" 0.19, 1 0.16, 8 0.11) and r6c6 as a 1 (a
    # line), and the puzzle without the 2 has the page's one solution. Ink whose
    # likeliest digit was a 1 was left be (a bent line reads so) however little likelier.
    _read_right_or_refused(_stress_page("crumpled", 3049, "Hershey Triplex"))


def test_a_lattice_that_took_a_phone_s_edge_for_the_frame_is_not_read() -> None:
    # Page 3392 of bench_stress's screen-photo: the app's thin right frame runs a third
    # of a cell inside the phone's dark edge, and the lattice took the edge for the
    # frame: the last two columns came out a third of a cell wide of theirs, the phone's
    # edge inside r1c9 made its blue entry 9 as dark as print, and the page was read as
    # a puzzle with that 9 among the givens. The frame runs through the middle of
    # column 9's cells (``scanner.quality.lines_through``).
    _read_right_or_refused(_stress_page("screen-photo", 3392, "Comfortaa"))


def test_a_line_through_a_cell_read_in_doubt_refuses_the_reading_as_a_bent_page() -> None:
    # Page 5337 of bench_stress's crumpled: the lattice half a cell above the page's
    # lines by the frame, in column 1 of the last rows only (no whole row or column
    # shows a line through its cells). The printed 5 of r7c1 cut in two read 6 at
    # 0.51, the cut 1 below it empty at 0.62 and 4 at 0.27, and revision wrote that 4
    # in for a puzzle with one solution. A line runs through both cells.
    scan = _read_right_or_refused(_stress_page("crumpled", 5337, "Hershey Triplex"))
    assert scan.status == ReadStatus.UNREADABLE
    assert scan.problems == [Problem.LINE_THROUGH_CELLS]
    assert {"r7c1", "r8c1"} <= {cell_name(c) for c in scan.doubtful_cells}
    assert scan.hint.startswith(BENT_CAUSE)


def test_a_tilted_app_grid_beside_a_phone_s_edge_is_found_again_with_a_bent_comb() -> None:
    # Page 3816 of bench_stress's screen-photo: the first pass's evenly spaced comb of
    # lines, stretched onto the phone's dark edge beside the thin left frame, met more
    # of the tilted grid's bold lines than the true one, and the lattice's first column
    # ran a third of a cell into the phone's edge: the blue entry 3 in r2c1 read as
    # print (another puzzle, the page's solution). The frame runs through column 1's
    # cells; the grid found again with a comb that bends with the tilt is read right.
    _reads_right(_stress_page("screen-photo", 3816, "Hershey Complex"))


def test_ink_colours_are_measured_on_the_photo_as_taken() -> None:
    # Page 3452 of bench_stress's screen-photo, refused as taken and read once more
    # through a deconvolution of its blur (``scanner.motion``): sharpened channel by
    # channel, black print came out magenta, one ink with the player's purple entries,
    # and the page was read with the entries among the givens. Its inks' colours are
    # those of the photo as taken.
    _read_right_or_refused(_stress_page("screen-photo", 3452, "Inconsolata"))


def test_an_entry_whose_colour_moire_shifted_sideways_is_no_given() -> None:
    # Page 4139 of bench_stress's screen-photo-dark: the player's blue entry 1 in r6c6
    # came out green-grey (a*b* -11, 5), nearer the white givens' colour than the
    # entries' and on no way between them, and was read as a given: another puzzle
    # with the page's solution. Its lightness is the entries' (``kinds._ENTRIES_LIGHT``).
    _read_right_or_refused(_stress_page("screen-photo-dark", 4139, "Comfortaa"))


def test_pale_entries_within_the_givens_moire_scatter_are_no_givens() -> None:
    # Page 4300 of bench_stress's screen-photo: nine pale blue entries (a*b* about
    # (2, -21)), a tight group within the reach of white givens that moire scatters
    # over b* -13 to +7, were read as givens (the page's solution, other givens).
    # A tight group of a coloured ink inside a neutral print's is in doubt.
    _read_right_or_refused(_stress_page("screen-photo", 4300, "Inconsolata"))


def test_a_coloured_print_split_by_saturation_alone_is_one_ink() -> None:
    # Colours alone: nine maroon prints on tinted boxes, more saturated than the other
    # eighteen, are one ink (the print is not neutral): no tight second ink.
    rng = np.random.default_rng(0)
    inks = np.concatenate(
        [rng.normal((24.0, 10.0), 1.5, (18, 2)), rng.normal((35.0, 15.0), 1.0, (9, 2))]
    )
    assert _tight_second_ink(inks) is None
    # Beside a neutral print the same tight group of a colour is a second ink.
    rng = np.random.default_rng(1)
    beside_grey = np.concatenate(
        [rng.normal((0.0, -3.0), 3.0, (26, 2)), rng.normal((2.0, -21.0), 1.5, (9, 2))]
    )
    second = _tight_second_ink(beside_grey)
    assert second is not None and second.tolist() == [False] * 26 + [True] * 9


def test_a_bold_print_blur_broke_into_touching_pieces_is_read() -> None:
    # Page 1301 of bench_stress's motion-blur: the blur breaks the bold printed 3 in r5c3
    # and 8 in r6c2 where their strokes thin, into pieces that touch; the pencil test
    # took each for candidates, "empty" led, and the puzzle without them has the page's
    # one solution (a confident reading of another puzzle).
    _reads_right(_stress_page("motion-blur", 1301, "Lato"))


def test_a_wavy_cell_line_beside_a_print_is_no_part_of_it() -> None:
    # Page 1418 of bench_stress's crumpled: the lattice runs a little off the page's
    # bent lines, and r2c5 is cut with its wavy right line inside, beside the printed
    # 3: read as a 1 as much as a 3, "empty" led and the puzzle without the 3 has the
    # page's one solution (a confident reading of another puzzle).
    _reads_right(_stress_page("crumpled", 1418, "Lato"))


@pytest.mark.parametrize(
    ("style", "seed", "font"),
    [("crumpled", 2015, "Fira Code"), ("crumpled-12mp", 1140, "Inconsolata")],
)
def test_a_crumpled_frames_crossings_are_on_it_where_its_lines_meet_it(
    style: str, seed: int, font: str
) -> None:
    # Pages of bench_stress's crumpled styles whose lines bend hard near the frame. The
    # lines' curves are measured at the cells' middles, so the crossings on the frame
    # are extrapolated. Page 2015: the box line between r1c6 and r1c7 bends a third of
    # a cell in the half cell before it meets the top frame; its crossing came out
    # 0.3 of a cell off, r1c7 was cut with the box line inside and read as a 1 at 0.74.
    # Page 1140 (12 MP): the left frame's crossings near the top came out a fifth of a
    # cell inside the frame and the corner two thirds of a cell off along the top
    # frame; the corner's search, asking the frame to run from it to those crossings,
    # found none, and r1c1 was cut with half its printed 6, read as empty at 0.82. Each
    # puzzle as read had the page's one solution: a confident reading of another
    # puzzle. The crossings now go onto the frame, and along it to their lines.
    from scanner.locate import locate_grid

    page = _stress_page(style, seed, font)
    geometry = locate_grid(cv2.cvtColor(page.image, cv2.COLOR_BGR2GRAY))
    scale = page.image.shape[1] / geometry.image_size[0]
    cell = float(np.median(np.linalg.norm(np.diff(page.lattice, axis=1), axis=2)))
    error = np.linalg.norm(geometry.lattice * scale - page.lattice, axis=2) / cell
    frame = np.concatenate([error[[0, 9]].ravel(), error[1:9, [0, 9]].ravel()])
    assert frame.max() < 0.25, f"frame crossings up to {frame.max():.2f} cells off"
    _reads_right(page)


def test_a_page_smeared_by_camera_shake_is_read_through_its_deconvolution(monkeypatch) -> None:
    import scanner.api as api

    # Page 18 of bench_stress's motion-blur: a shake of about 16 pixels across a
    # 1600 x 1200 photo smears the printed 8s and 9s into strokes the network read as
    # pencil marks and as other digits (a clash); deconvolved, every digit reads.
    page = _stress_page("motion-blur", 18, "Hershey Duplex")
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    assert scan.motion is not None and np.hypot(*scan.motion) > 10
    monkeypatch.setattr(api, "unblurred", lambda *a: None)
    assert read_photo(page.image).status == ReadStatus.UNREADABLE


def test_glare_is_measured_on_the_photo_as_taken_not_on_its_deconvolution() -> None:
    # Page 11 of bench_stress's glare-burnt: the reflection burns out a printed 4 in
    # r4c6, and the puzzle without it has the page's one solution. The deconvolution
    # tried on an unread page rings lines back into the glare, where the glare test
    # then saw paper: the 4 read as empty, a confident reading of another puzzle.
    page = _stress_page("glare-burnt", 11, "Linux Libertine")
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.UNREADABLE and "glare" in scan.problem
    assert 3 * 9 + 5 in scan.doubtful_cells


def test_a_given_faded_in_glare_s_halo_is_lost_not_read_empty() -> None:
    # Stress glare-burnt 6667 (fresh, Linux Libertine): the printed 7 of r5c8 at the
    # reflection's edge, its lines faded to 0.44 of the grid's faintest (washed out is
    # under 0.35) and its strokes under the blank test, was read "empty" at 1.00, and
    # the puzzle without it has the page's one solution: another puzzle, with
    # confidence. A cell of the halo read empty with ink in it is lost to the glare.
    page = _stress_page("glare-burnt", 6667, "Linux Libertine")
    scan = _read_right_or_refused(page)
    assert scan.status == ReadStatus.UNREADABLE and scan.problems == [Problem.GLARE]
    assert 4 * 9 + 7 in scan.doubtful_cells


@pytest.mark.parametrize(
    ("style", "seed", "font", "cell"),
    [
        # Three copies of a glyph read in doubt, one at 0.89999999 of a row summing to
        # 0.99999998 (the rules' sums in floating point), which revision, normalising
        # the row, reads at 0.9: sure, so no copy in doubt, and the reader stopped with
        # a ValueError. The page is refused, read whole.
        ("glare-burnt", 4597, "Hershey Duplex", None),
        # Shake, glare, a tilt and JPEG at once: a printed 1 in r5c9 shaken into ink
        # shorter than the print, read "empty" at 0.17 (its digits' shares 0.83), and
        # the puzzle without it kept the page's solution. Short ink may be a lone
        # candidate only where someone noted some; on a page of print alone the reading
        # does not leave it out unnoticed.
        ("handheld", 4621, "Oxygen Sans", None),
        # Pages with no ink but the print: a shaken 4 (r2c8) whose bar alone stayed
        # dark, and a 7 (r4c1) cut by a lattice bent off a curled edge, were marks by
        # every rule of marks (pencil), and the puzzles without them have the pages'
        # solutions: read as other puzzles. Refused, they are read again (through the
        # blur undone, or once more), and must come out right or refused.
        ("motion-blur", 4651, "Comfortaa", None),
        ("newsprint-crinkled", 4635, "Lato", None),
        # The moire's colour fringes put the printed 6 of r2c2 between the print's
        # colour and the entries' (the network read a 6 at 0.62, "empty" at 0.003); the
        # kind rules' doubt made "empty" its likeliest reading, and the puzzle without
        # it has the page's one solution: read as neither a given nor the player's
        # entry. Given or entry, its colour does not tell: refused, naming the cell.
        ("screen-photo-dark", 4698, "Fira Code", "r2c2"),
        # A printed 8 and a printed 7 shaken faint, which the network all but rules out
        # as empty but cannot name (4 0.36 against 8 0.32; 9 0.45 against 7 0.40).
        # Doubted as faint ink, they read empty, and the puzzles without them have the
        # pages' solutions. Refused, naming the cell.
        ("handheld", 4843, "Hack", "r8c6"),
        ("handheld", 4956, "Quicksand", "r4c7"),
        # The player's 2 in r1c1 under a screen's moire, its strokes too faint beside
        # the paper to measure a colour: no ink told its kind, so it stayed the given
        # a digit cell starts as, and the puzzle with it has the page's one solution.
        ("screen-photo", 5068, "Inconsolata", "r1c1"),
        # A crumpled corner the lattice followed half a cell in, off the frame: the
        # printed 5 of r9c1 lay below its bottom line, read "empty", and the puzzle
        # without it has the page's one solution. Refused, naming the cell that lost it.
        ("newsprint-crinkled", 5065, "Hershey Complex", "r9c1"),
        # Two printed 1s under a dark screen's colour fringes came out green, far from
        # the blue entries and lighter than the white givens: read as the player's, the
        # puzzle without them had the page's solution. A thin digit's colour that far
        # off the entries' at the givens' lightness is no surer theirs than a given.
        ("screen-photo-dark", 5263, "League Spartan", "r4c4"),
        # A shaken page: 17 cells read within 4 : 1 of their next reading, of which
        # revision looks at 14; the fix it found among those read eight cells off.
        ("handheld", 5360, "Hershey Simplex", "r1c4"),
        # A crinkled newsprint's bottom right corner pulled in a cell off its frame: the
        # printed 9 of r9c9 left outside, read empty at 0.98. The ringing around its
        # strokes had weakened the frame's median to two thirds of its line there.
        ("newsprint-crinkled", 5391, "Linux Biolinum", "r9c9"),
    ],
)
def test_pages_once_read_as_other_puzzles_are_read_right_or_refused(
    style: str, seed: int, font: str, cell: str | None
) -> None:
    # Pages of bench_stress that stopped the reader or were read as another puzzle;
    # refused, they name the cell that was left out (where one is given here).
    scan = _read_right_or_refused(_stress_page(style, seed, font))
    if scan.status == ReadStatus.UNREADABLE and cell is not None:
        assert cell in [cell_name(c) for c in scan.doubtful_cells]


def test_of_two_lattices_of_one_grid_the_one_on_its_lines_is_read() -> None:
    # Page 5441 of bench_stress's newsprint-crinkled: an outline cut into the text
    # beside the grid and the grid's own outline both fitted near-best (shares 0.67
    # and 0.73); the larger won, its first column bent a cell and a half out into the
    # text, and the first columns' digits were read a column over (refused only
    # because two 4s clashed). The lattice on more of the lines' ink is the grid.
    _reads_right(_stress_page("newsprint-crinkled", 5441, "Comfortaa"))


def test_a_shaded_band_over_faint_dotted_lines_is_no_finger() -> None:
    # Page 5451 of bench_stress's newsprint-crinkled: a crinkle's shaded band reaches in
    # from the grid's edge as a finger does, and its faint dotted lines, at 0.7 of the
    # light, fell under the stroke threshold: four cells "covered", the page refused.
    # Measured against the paper beside them, the lines go on under the shade.
    _reads_right(_stress_page("newsprint-crinkled", 5451, "Lato"))


def test_a_pen_tip_just_over_the_frame_covers_the_cell_it_hides() -> None:
    # Page 5484 of bench_stress's finger: a blue pen's rounded tip 0.6 of a cell in over
    # the frame, into r2c1. Its inside was under two cell borders' worth of pixels, so
    # no patch was judged, and the pen's ink read as the player's 3 (a "mistake" the
    # person never wrote). The bold lines there would have shown 60 stroke pixels and
    # show none: the cell is covered.
    scan = read_photo(_stress_page("finger", 5484, "Charis SIL").image)
    assert scan.status == ReadStatus.UNREADABLE and "covers" in scan.problem
    assert "r2c1" in [cell_name(c) for c in scan.doubtful_cells]


def test_a_lattice_a_column_off_a_frame_only_grid_sees_the_frame_beyond_it() -> None:
    # Page 5483 of bench_stress's frame-only: a blurred page whose thin grey lines the
    # blur took. The reader's lattice lay a column to the left, every digit read a
    # column over with all but one cell sure (refused only by a clash). A lattice off
    # by a whole cell has its outer line on a faint inner one and the frame a cell
    # beyond it: the cells of the column left outside lost their digits.
    page = _stress_page("frame-only", 5483, "Hershey Duplex")
    gray = load_image(page.image, gray=True).gray
    size = (gray.shape[1], gray.shape[0])
    assert not frame_missed(gray, GridGeometry(page.lattice, size)).any()
    left = frame_missed(gray, GridGeometry(shifted_lattice(page.lattice, 0, -1), size))
    last_column = [c for c in range(8, 81, 9) if page.givens[c]]
    assert np.flatnonzero(left).tolist() == last_column
    right = frame_missed(gray, GridGeometry(shifted_lattice(page.lattice, 0, 1), size))
    first_column = [c for c in range(0, 81, 9) if page.givens[c]]
    assert len(set(np.flatnonzero(right)) & set(first_column)) >= len(first_column) - 1


def test_a_lattice_moved_a_cell_over_that_asks_to_move_on_is_moved_again() -> None:
    # Page 5507 of bench_stress's perspective: a steep, blurred tilt whose first comb
    # lay two rows low at the near edge. Moved a row up, its lines asked to move up
    # once more (the text below the frame taken for the last line); one move was all
    # that was tried, and every digit, all sure, was read a row up (refused only by a
    # clash).
    _reads_right(_stress_page("perspective", 5507, "League Spartan"))


def test_a_lattice_whose_box_lines_stand_on_its_own_thirds_is_not_moved_into_text() -> None:
    # Page 5533 of bench_stress's newsprint-crinkled: the text beside a crinkled grid
    # lined up with its lines for a while, and the cover test moved the lattice a
    # column into it (its ink on the lines 128.2 against 127.9), though the bold box
    # lines stood at the lattice's 0, 3, 6 and 9. Every digit was read a column over,
    # nearly all sure (refused only by a clash).
    _reads_right(_stress_page("newsprint-crinkled", 5533, "Inconsolata"))


def test_a_reading_through_a_deconvolution_that_needed_corrections_is_not_taken() -> None:
    # Page 321 of bench_stress's handheld (shake, glare, a steep tilt and JPEG at once):
    # deconvolved, twelve cells read under 0.5 and revision found a puzzle with one
    # solution by correcting three of them: five cells off the page's. A guess at the
    # blur with guesses at the digits on top is no reading; the page stays refused.
    page = _stress_page("handheld", 321, "Hershey Duplex")
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.UNREADABLE and scan.motion is None


def test_an_ink_is_on_the_entries_side_past_three_quarters_toward_a_repeated_entry_ink() -> None:
    from scanner.kinds import _ENTRY_SIDE, _way_to_entry

    givens = [(0.0, 8.0), (6.0, 4.0), (-8.0, 12.0), (-2.0, 6.0), (4.0, 14.0)]
    blue = [(-2.0, -30.0), (2.0, -28.0), (0.0, -32.0)]
    red = [(45.0, 25.0)]  # one mistake in red: no repeated ink to lean toward
    tested = [(-4.0, -24.0), (2.0, -10.0), (30.0, 18.0)]
    colours = np.array(givens + blue + red + tested)
    given = np.arange(len(colours)) < len(givens)
    entry = (np.arange(len(colours)) >= len(givens)) & (np.arange(len(colours)) < 9)
    between = np.linalg.norm(colours[:, None] - colours[None], axis=2)
    way = _way_to_entry(colours, given, entry, between)
    # Past 3/4 toward the blue; half way; near the lone red, no way to measure.
    assert way[-3] >= _ENTRY_SIDE
    assert 0.25 < way[-2] < _ENTRY_SIDE
    assert np.isnan(way[-1])
    assert (way[: len(givens)] < 0.25).all()


def test_a_thin_entry_paled_by_a_dark_screen_is_an_entry_at_full_strength() -> None:
    # Page 5 of bench_stress's screen-photo-dark: the blue 3 in r5c6 is a thin stroke
    # and comes out at 0.66 of the way from the givens' colour to the other blue
    # entries' (every given under 0.25): a given in doubt, and the page refused. Its
    # ink at full strength lies past three quarters of the way.
    _reads_right(_stress_page("screen-photo-dark", 5, "Lato"))


def test_a_red_mistake_beside_blue_entries_is_no_tinted_given() -> None:
    # Page 903 of bench_stress's screen-photo: two red entries (the app's mistakes) far
    # off the givens' colour, beside each other. Along the way from the givens to the
    # blue entries they lie before its start (-0.4): no print tinted toward an entry ink
    # (as a given with moire fringes is), but an ink of its own.
    _reads_right(_stress_page("screen-photo", 903, "Hershey Duplex"))


def test_a_digit_in_doubt_between_print_and_entry_that_clashes_is_a_wrong_entry() -> None:
    # Page 909 of bench_stress's screen-photo-dark: the player's purple 5 in r7c8 beside
    # the printed 5 in r7c4, moire washing its colour toward the givens' (in doubt
    # between the two inks). Revision emptied it, the givens with it clashing; it was
    # then neither given nor entry, and the player's mistake went unseen. Print never
    # clashes with print: it is their entry, a wrong one, and no misread of the reader.
    page = _stress_page("screen-photo-dark", 909, "Quicksand")
    assert page.entries[61] == page.givens[57] == 5
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    assert scan.entries == page.entries
    assert scan.kinds[61] == CellKind.ENTRY
    assert scan.corrections == [] and scan.problem == ""
    solution = solutions(page.givens, limit=1)[0]
    assert [i for i, e in enumerate(scan.entries) if e and e != solution[i]] == [61]


def test_entries_in_one_glyph_with_the_print_are_no_copies_of_a_given() -> None:
    # Page 1128 of bench_stress's screen-photo-dark: the player's 1 in r5c8 and 7 in
    # r8c8, washed by moire toward the givens' white, are digits in doubt between the
    # two inks. An app draws its entries in the givens' font, so each was a copy of a
    # printed 1 and 7 (glyph_groups), read as one digit with them, a given as sure as
    # theirs: a confident reading of another puzzle. A digit whose colour is in doubt
    # is printed or not on its own.
    page = _stress_page("screen-photo-dark", 1128, "Linux Libertine")
    r5c8, r8c8 = 4 * 9 + 7, 7 * 9 + 7
    assert page.entries[r5c8] == 1 and page.entries[r8c8] == 7
    scan = _read_right_or_refused(page)
    assert scan.givens[r5c8] == scan.givens[r8c8] == 0 or scan.status == ReadStatus.UNREADABLE


def test_a_given_that_the_two_views_put_on_either_side_of_the_way_is_in_doubt() -> None:
    # Page 1106 of bench_stress's screen-photo: the printed 4 in r9c9, on the app's
    # tinted cell, comes out between the givens' ink and the blue entries', 0.62 of the
    # way to them as seen and 0.44 at full strength. Taken as an entry, the givens
    # without it had the page's one solution: a confident reading of another puzzle.
    page = _stress_page("screen-photo", 1106, "Quicksand")
    r9c9 = 80
    assert page.givens[r9c9] == 4
    scan = _read_right_or_refused(page)
    assert scan.kinds[r9c9] != CellKind.ENTRY


@pytest.mark.parametrize(
    ("style", "seed", "font", "cell"),
    [
        ("screen-photo-dark", 3200, "Charis SIL", "r5c8"),
        ("screen-photo-dark", 3222, "Cantarell", "r6c1"),
        ("screen-photo", 3787, "Cantarell", "r1c9"),
    ],
)
def test_a_given_tinted_partway_to_the_entries_is_no_sure_entry(
    style: str, seed: int, font: str, cell: str
) -> None:
    # Pages of bench_stress's screen photos: the moire tints a printed digit (3200: the
    # white 8 in r5c8, 3222: the white 4 in r6c1, 3787: the black 2 in r1c9) purple,
    # part of the way from the givens' colour to the entries' (0.58 and 0.67 in both
    # views; 3787: 0.66 at full strength, 0.77 as seen), and off the givens' group;
    # taken as the player's entry, the givens without it had the page's one solution (a
    # confident reading of another puzzle). Its lightness is a given's (L* 78 and 84,
    # beside entries at 58-80 and givens at 82-100; 3787: 18, against 3 and 42 at the
    # medians): a given in doubt. The pages are refused: the puzzle with or without the
    # digit has one solution.
    page = _stress_page(style, seed, font)
    assert page.givens[[cell_name(c) for c in range(81)].index(cell)]
    _read_right_or_refused(page)


def test_a_white_given_tinted_partway_to_the_entries_is_read_where_the_puzzle_needs_it() -> None:
    # Page 3642 of bench_stress's screen-photo-dark: the printed 5 in r9c7, tinted so,
    # was taken for an entry, and the givens without it had several solutions (refused).
    # As a given in doubt it is read, the puzzle needing it.
    _reads_right(_stress_page("screen-photo-dark", 3642, "Fira Code"))


def test_lightness_tells_the_givens_only_where_the_inks_are_apart_in_it() -> None:
    given = np.array([True] * 6 + [False] * 5)
    entry = ~given
    # A dark screen: white givens (median 93.5), blue entries (66); a given tinted
    # purple stays white, an entry's lightness varies.
    dark = np.array([100, 97, 95, 92, 90, 86, 58, 62, 66, 70, 84], dtype=float)
    way = _lightness_way(dark, given, entry)
    assert way[2] == pytest.approx((95 - 66) / (93.5 - 66))
    assert list(np.flatnonzero(way > 0.5)) == [0, 1, 2, 3, 4, 5, 10]
    # The same measured from a light screen's black givens: the way runs the other way.
    assert np.allclose(_lightness_way(100 - dark, given, entry), way)
    # Through a light screen's blur black givens and blue entries came out at L* 53-62
    # and 58-65: no two inks apart in lightness, nothing told by it.
    light = np.array([53, 55, 57, 58, 60, 62, 58, 63, 64, 65, 65], dtype=float)
    assert np.isnan(_lightness_way(light, given, entry)).all()
    # Too few of either.
    assert np.isnan(_lightness_way(dark, given, entry & (np.arange(11) > 8))).all()


def test_an_ink_of_the_entries_own_colour_is_theirs_whatever_its_lightness() -> None:
    # A page in blue pen: black print near a*b* (0, 4), the person's digits near
    # (10, -25); a stroke as dark as the print in the pen's own colour, a print tinted
    # a third of the way toward the pen, and a lone red mistake.
    colours = np.array(
        [
            [0, 4],
            [1, 3],
            [0, 5],
            [10, -25],
            [9, -24],
            [11, -27],
            [12, -26],
            [9, -23],
            [4, -6],
            [45, 30],
        ],
        dtype=float,
    )
    entry = np.array([False] * 3 + [True] * 4 + [False] * 3)
    own = _in_an_entry_ink(colours, entry)
    assert list(np.flatnonzero(own)) == [3, 4, 5, 6, 7]
    # An ink the person used under three times places no colour of its own.
    assert not _in_an_entry_ink(colours, entry & (np.arange(10) < 5)).any()


def test_a_group_of_entries_as_light_as_the_givens_is_tinted_print() -> None:
    # A photographed dark screen (stress screen-photo-dark 5559): white givens at L*
    # 70-82, neutral; the player's purple entries at 52-64; and four givens that moire
    # tinted yellow-green alike, as light as the rest, which colour alone calls a
    # second entry ink.
    givens = [(76, 0, 2), (82, -2, 1), (79, 4, 2), (72, 1, -5), (75, 5, 6), (70, 3, 3)]
    purple = [(57, 23, -31), (63, 22, -21), (61, 22, -27), (55, 28, -34), (60, 30, -26)]
    yellow = [(84, -15, 15), (85, -2, 25), (80, -7, 19), (80, -18, 20)]
    inks = np.array(givens + purple + yellow, dtype=float)
    lightness, colours = inks[:, 0], inks[:, 1:]
    between = np.linalg.norm(colours[:, None] - colours[None], axis=2)
    sure = np.ones(len(inks), dtype=bool)
    entry = np.arange(len(inks)) >= len(givens)
    tinted = _tinted_print(lightness, between, sure, entry)
    assert list(np.flatnonzero(tinted)) == list(range(11, 15))  # the yellow, not the purple
    # Without the yellow group, the purple entries are the player's.
    alone = np.arange(len(inks)) < 11
    assert not _tinted_print(
        lightness[alone], between[alone][:, alone], sure[alone], entry[alone]
    ).any()
    # A light screen's black givens (L* 20-30) beside blue entries (55-62) and a red
    # mistake group at the entries' lightness: no group is print.
    light = np.array([20, 25, 30, 22, 28, 24, 55, 58, 60, 62, 57, 56, 59, 61, 60], dtype=float)
    assert not _tinted_print(light, between, sure, entry).any()
    # Entries whiter than white givens are no app's: the group beside them is no print.
    whiter = lightness.copy()
    whiter[11:] = 97
    assert not _tinted_print(whiter, between, sure, entry)[6:11].any()


def test_an_entry_as_dark_as_the_black_givens_is_tinted_print() -> None:
    # A photographed light screen (stress screen-photo 5560): black givens at L* 27-32,
    # ten blue entries at 33-42, and two givens that moire tinted the entries' blue, at the
    # givens' lightness (26): of the entries' colour, one by one.
    givens = [(27, 0, 1), (28, 2, -3), (29, -1, 0), (30, 3, 2), (31, 1, -2), (32, 0, 0)]
    blue = [(33, 12, -38), (35, 10, -33), (36, 15, -40), (38, 11, -36), (42, 14, -31)]
    blue += [(34, 13, -35), (37, 12, -39), (36, 10, -34), (39, 14, -37), (41, 11, -32)]
    tinted_givens = [(26, 11, -30), (26.5, 19, -33)]
    inks = np.array(givens + blue + tinted_givens, dtype=float)
    lightness, colours = inks[:, 0], inks[:, 1:]
    between = np.linalg.norm(colours[:, None] - colours[None], axis=2)
    sure = np.ones(len(inks), dtype=bool)
    entry = np.arange(len(inks)) >= len(givens)
    assert list(np.flatnonzero(_tinted_print(lightness, between, sure, entry))) == [16, 17]
    # Where the givens and the entries do not stand apart in lightness, nothing.
    close = lightness.copy()
    close[6:16] = [28, 29, 30, 31, 33, 28, 29, 30, 31, 33]
    assert not _tinted_print(close, between, sure, entry).any()


def test_a_sure_given_far_weaker_than_its_glyph_s_printed_copies_is_an_entry() -> None:
    # Page 4834 of bench_stress's screen-photo: the moire washed the player's pink 5 in
    # r5c1 toward the print's colour, and it was read as a sure given (0.94); the puzzle
    # with it has the page's one solution. Its strokes are an entry's (0.077; the
    # entries 0.069-0.100), half as strong as the two printed 5s (0.141, 0.150).
    page = _stress_page("screen-photo", 4834, "Quicksand")
    r5c1 = 4 * 9
    assert page.entries[r5c1] == 5
    scan = _read_right_or_refused(page)
    if scan.status == ReadStatus.OK:
        assert scan.entries[r5c1] == 5


def test_thin_printed_glyphs_weakened_by_blur_stay_givens() -> None:
    # Page 4659 of bench_stress's screen-photo: blur left the two printed 8s (r6c1,
    # r7c2) as weak as the player's entries, far under the other givens; against each
    # other, their glyph's copies, they are as strong as print is.
    page = _stress_page("screen-photo", 4659, "Oxygen Sans")
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens


def test_an_entry_washed_to_the_print_s_colour_but_not_its_lightness_is_no_sure_given() -> None:
    # Page 3707 of bench_stress's screen-photo-dark: the player's thin 1 in r1c2, washed
    # out by moire to a colour inside the givens' group (0.34 of the way to the blue
    # entries), was read as a given, and the givens with it had the page's one
    # solution. Its lightness is an entry's (L* 81: entries 75, givens 95 at the
    # median): a given in doubt, and the page is refused.
    page = _stress_page("screen-photo-dark", 3707, "Comfortaa")
    assert page.entries[1] == 1
    _read_right_or_refused(page)


def test_a_digit_as_light_as_the_entries_is_no_sure_given() -> None:
    # Page 1129 of bench_stress's screen-photo: the moire washes the player's blue 7 in
    # r5c1 to grey, so its colour says print; read at 0.65, the givens with it had the
    # page's one solution (the 7 is right). On that screen every printed digit's strokes
    # are stronger than every entry's, and the 7's are an entry's: it is in doubt, and
    # the puzzle does without it.
    page = _stress_page("screen-photo", 1129, "Hershey Triplex")
    r5c1 = 4 * 9
    assert page.entries[r5c1] == 7
    scan = _read_right_or_refused(page)
    assert scan.status == ReadStatus.OK and scan.givens[r5c1] == 0


def test_a_print_seen_but_not_named_is_not_left_out_of_the_puzzle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Crinkled newsprint in held-out Inconsolata (bench_stress page 301): with the corner
    # crossing r1c9's as the lattice's smooth curves put it (before corners settled on
    # the frame), the 5 there is read as "empty" at 0.38, 5 next at 0.22. The puzzle has
    # the page's one solution without it, so no rival reading exposed it, and the page
    # was read as a puzzle without one of its givens. The digits together outweigh
    # "empty": the cell is not left out. Its likeliest digit is the solution's but not
    # told apart from the next (a 3 at 0.14; noise spread over the digits is likeliest
    # the solution's one time in nine), so the page was refused, naming it (the rule
    # alone: `test_a_print_seen_but_not_named_as_another_digit_is_refused`). Since
    # 2026-11-29 evening the bent frame in that cell is erased as a line's remnant and
    # the 5 is read: either way, never the puzzle without it.
    # (Since 2026-11-29 a refused grid is read once more through a light blur, which
    # reads this one right: that try is left out here, then let in.)
    import scanner.api
    import scanner.locate

    page = _stress_page("newsprint-crinkled", 301, "Inconsolata")
    with monkeypatch.context() as patch:
        patch.setattr(scanner.locate, "_settle_corners", lambda gray, lattice, cell: lattice)
        patch.setattr(scanner.api, "_through_noise", lambda first, *rest: first)
        scan = _read_right_or_refused(page)
        assert scan.status == ReadStatus.OK or (
            scan.doubtful_cells[0] == 8 and "r1c9" in scan.problem
        )
        patch.undo()
        patch.setattr(scanner.locate, "_settle_corners", lambda gray, lattice, cell: lattice)
        scan = read_photo(page.image)
        assert scan.status == ReadStatus.OK and scan.givens == page.givens
    # With the corner on the frame, the 5 reads as it is.
    scan = read_photo(page.image)
    assert scan.status == ReadStatus.OK and scan.givens == page.givens
    assert scan.corrections == []


def test_a_lattice_a_row_off_is_moved_where_its_box_lines_stand_out() -> None:
    # Page 5261 of bench_stress's pastel-dotted-low-res: dotted grey inner lines at
    # 600 x 800, bold box lines. The lattice came out a row low (the grid's top row left
    # out, a line of the text below taken in) and the page was refused. Every third of
    # its lines from its third stood out as box lines do: the lattice is moved a row.
    _reads_right(_stress_page("pastel-dotted-low-res", 5261, "Quicksand"))


def test_white_balance_makes_the_grid_s_white_gray_and_leaves_a_gray_one_alone() -> None:
    # Colour cells (81, 64, 64, 3) BGR: a white cast green (B and R at 0.8 of G), with
    # a navy and a blue ink in it; balanced, the white is gray and the inks keep apart.
    rng = np.random.default_rng(0)
    cells = np.empty((81, 64, 64, 3), np.uint8)
    cells[...] = (200, 250, 200)
    cells[:, 20:40, 28:34] = (120, 70, 50)
    cells[40:, 20:40, 28:34] = (220, 120, 60)
    cells = np.clip(cells + rng.normal(0, 2, cells.shape), 0, 255).astype(np.uint8)
    balanced = white_balanced(cells)
    white = np.median(balanced[:, 2:10, 2:10].reshape(-1, 3), axis=0)
    assert np.ptp(white) <= 6
    assert np.ptp(np.median(cells[:, 2:10, 2:10].reshape(-1, 3), axis=0)) >= 40
    gray = np.full((81, 64, 64, 3), 230, np.uint8)
    gray[:, 20:40, 28:34] = 40
    assert white_balanced(gray) is gray


@pytest.mark.parametrize(
    ("style", "seed", "font"),
    [
        ("screen-photo-cast", 6458, "Lato"),
        ("screen-photo-dark-cast", 6451, "Fira Code"),
        ("screen-photo-dark-cast", 6454, "Quicksand"),
    ],
)
def test_a_screen_photographed_with_a_colour_cast_is_read(style: str, seed: int, font: str) -> None:
    # Photographed screens whose white the camera did not balance (each channel scaled
    # by 0.7-1.0): the print came out as coloured as the player's entries, and the
    # pages were refused as "digits in two colours" (6458 and 6451, 6454). The kinds
    # look again with the grid's white made gray.
    _reads_right(_stress_page(style, seed, font))
