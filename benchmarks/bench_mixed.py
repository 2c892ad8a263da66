"""Handwriting benchmark: printed givens and the person's own entries, and their mistakes.

Usage::

    python benchmarks/bench_mixed.py [--pages 40] [--candidate-pages 40] [--all-photos]
        [--first-page 0] [--first-candidate-page 1000] [--no-photos] [--jobs 1]
        [--json FILE] [--verbose]

Photos (``../shared/data/photos/wicht-mixed-train``: Wicht's photos with a handwritten
digit in every empty cell) are measured on the half the digit network never trained on:
the split is by printed puzzle (``scanner.digits.devdata.is_held_out``), the same split
``make train-digits`` trains the other half's handwriting from (``--all-photos`` adds the
trained half, marked as such). Each photo is read by ``scanner.read_photo``:

* read: status "read";
* fully right: every cell's kind and digit right (``givens`` the printed digits,
  ``entries`` the handwritten ones);
* mistakes as taken: the entries checked against the printed puzzle's solution must
  name no cell (every handwritten digit of the set is right);
* two swapped: two handwritten digits that differ are swapped in the photo's pixels
  (each digit's ink taken off its paper and laid on the other cell's: ``swap_cells``),
  so both are wrong; ``mistakes`` must name exactly those two cells.

Rendered pages (``tests.synth.render_stress_page``) have entries written in the held-out
handwriting (``scanner.digits.synth.HELD_OUT_HAND_FONT_DIRS``: fonts-sjfonts,
fonts-kiloji, fonts-seto, fonts-yusei-magic; ``make bench-mixed`` installs them) in
black, blue and red pen and in pencil, two of them wrong; each ink meets each family.
Pages from seed 1000 on (``--candidate-pages``) also hold the person's candidates, in
their own hand and ink, two to three small digits (a fifth to a quarter of a cell) in
the places of a 3 x 3 layout, in a fifth to three fifths of the cells left empty,
written on the paper before the camera (``render_stress_page(candidates=...)``: the
camera bends and shrinks them with their cell): they must be read as pencil marks,
never as digits. Pages beyond the benchmark's own (``--first-page``,
``--first-candidate-page``; the README's "fresh pen pages") were never looked at while
the reader was tuned; ``--no-photos --jobs 2`` reads them alone, two at a time.

"Misread digits" counts readings with status "read" where some digit, printed or
written, was read as another digit, or a written one was missed (what the person would
see: a false or a hidden mistake, a digit drawn over their own). "With unclear" counts
"read" readings that name some entry as unclear (read in doubt, and a mistake if read
so: not checked, and neither a misread nor fully right). "Kinds only" counts
"read" readings whose every digit is right but some cell's kind is not: a print read as
the person's (right) entry or the reverse, or a blurred print read as empty and its
solution digit drawn over it; the grid drawn and the mistakes named are the same.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import sys
import time
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner.api import ScanResult, read_photo  # noqa: E402
from scanner.digits import devdata  # noqa: E402
from scanner.digits.synth import font_glyphs, hand_fonts  # noqa: E402
from scanner.geometry import GridGeometry  # noqa: E402
from scanner.kinds import CellKind  # noqa: E402
from scanner.reading import ReadStatus  # noqa: E402
from solver.check import CheckStatus, check_entries  # noqa: E402
from solver.errors import SudokuScanError  # noqa: E402
from solver.grid import cell_name  # noqa: E402
from solver.search import solutions  # noqa: E402

PUZZLE_SEED = 7000  # rendered page s shows solver.generate.generate(PUZZLE_SEED + s)
CANDIDATE_SEED = 1000  # the first page seed with candidates
CANDIDATES = "pen + candidates"  # their group (every ink)


@dataclass
class Outcome:
    """One read of one image."""

    name: str
    group: str  # "held-out photo", "trained photo", "swapped", or the pen of a page
    read: bool = False  # status ok
    givens_right: bool = False
    fully_right: bool = False  # givens, entries and kinds
    misread: bool = False  # status ok, a digit read as another, or a written one missed
    kinds_only: bool = False  # status ok, every digit right, some kind wrong
    unclear: bool = False  # status ok, some entry named unclear
    mistakes_exact: bool = False  # mistakes == the cells made wrong (none as taken)
    mistakes: str = ""
    detail: str = ""


def mistakes_of(scan: ScanResult) -> list[int] | None:
    """The cells ``solve`` calls mistakes (None: the entries could not be checked)."""
    found = solutions(list(scan.givens), limit=2)
    solution = found[0] if len(found) == 1 else None
    check = check_entries(scan.givens, scan.entries, solution, unclear=scan.unclear)
    return None if check.status == CheckStatus.UNCHECKED else list(check.mistakes)


def judge(
    scan: ScanResult | None,
    name: str,
    group: str,
    printed: list[int],
    entries: list[int],
    wrong: list[int],
) -> Outcome:
    """Compare a reading with the truth: printed givens, entries, the wrong cells."""
    out = Outcome(name, group)
    if scan is None:
        out.detail = "no grid"
        return out
    out.read = scan.status == ReadStatus.OK
    if not out.read:
        out.detail = f"{scan.status}: {scan.problem}"
        return out
    out.givens_right = scan.givens == printed
    kinds_right = all(
        (k == CellKind.ENTRY) == bool(e) for k, e in zip(scan.kinds, entries, strict=True)
    )
    out.fully_right = out.givens_right and scan.entries == entries and kinds_right
    truth = [p or e for p, e in zip(printed, entries, strict=True)]
    seen = [g or e for g, e in zip(scan.givens, scan.entries, strict=True)]
    out.unclear = bool(scan.unclear)
    # An unclear entry is said to be unread: not a written digit missed.
    out.misread = any(
        s != t and (s or (t and not printed[i] and i not in scan.unclear))
        for i, (s, t) in enumerate(zip(seen, truth, strict=True))
    )
    out.kinds_only = not out.fully_right and not out.misread and not out.unclear
    found = mistakes_of(scan)
    out.mistakes = ",".join(cell_name(c) for c in found or [])
    out.mistakes_exact = found == sorted(wrong)
    if not out.fully_right:
        bad = [
            f"{cell_name(i)} {p or e}->{scan.givens[i] or scan.entries[i]}"
            f"{'h' if scan.entries[i] else 'p'}"
            for i, (p, e) in enumerate(zip(printed, entries, strict=True))
            if (p, e) != (scan.givens[i], scan.entries[i]) and i not in scan.unclear
        ]
        bad += [f"{cell_name(i)} unclear" for i in scan.unclear]
        out.detail = " ".join(bad[:6])
    return out


def read(image: npt.NDArray[np.uint8], name: str) -> ScanResult | None:
    try:
        return read_photo(image, name=name)
    except SudokuScanError:
        return None


def _shrunk(quad: npt.NDArray[np.float64], share: float) -> npt.NDArray[np.int32]:
    """``quad`` (4, 2) scaled by ``share`` about its centre, as integer pixels."""
    centre = quad.mean(axis=0)
    return np.asarray(centre + share * (quad - centre), dtype=np.int32)


def _digit_ink(
    darkness: npt.NDArray[np.float32], quad: npt.NDArray[np.float64]
) -> npt.NDArray[np.uint8]:
    """The mask (H, W) of the digit written in the cell ``quad``: the ink of its inner
    90% whose pieces reach its middle 40% (a grid line or a neighbour's stroke that
    crosses the cell's edge does not), widened by two pixels for the ink's soft rim."""
    h, w = darkness.shape
    inner = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inner, _shrunk(quad, 0.9), 1)
    middle = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(middle, _shrunk(quad, 0.4), 1)
    strongest = float(np.percentile(darkness[inner > 0], 99))
    ink = ((darkness >= max(0.12, 0.4 * strongest)) & (inner > 0)).astype(np.uint8)
    _, labels = cv2.connectedComponents(ink, connectivity=8)
    keep = np.unique(labels[(middle > 0) & (ink > 0)])
    digit = np.isin(labels, keep[keep > 0]).astype(np.uint8)
    widen = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return np.asarray(cv2.dilate(digit, widen), dtype=np.uint8)


def swap_cells(
    image: npt.NDArray[np.uint8], geometry: GridGeometry, a: int, b: int
) -> npt.NDArray[np.uint8]:
    """The image with the digits written in cells ``a`` and ``b`` exchanged.

    As a person's wrong digit would look: each cell's digit (its ink, found as the
    pieces that reach the cell's middle, ``_digit_ink``) is taken off the paper by
    inpainting, and the other cell's digit is laid on that paper as ink, its
    darkness relative to its own paper (per channel: a blue pen stays blue) moved in
    perspective and multiplied in. The cell's lines, its paper's texture and shading,
    and the rest of the photo stay as taken: no pasted patch, no line moved with the ink.
    """
    h, w = image.shape[:2]
    cell = float(np.linalg.norm(geometry.cell_quad(0, 1)[0] - geometry.cell_quad(0, 0)[0]))
    size = max(3, int(cell / 3) | 1)
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    # The paper: a closing wider than any stroke, smoothed; never darker than the pixel.
    paper = cv2.GaussianBlur(cv2.morphologyEx(image, cv2.MORPH_CLOSE, closing), (0, 0), size / 3)
    paper = np.maximum(paper, image).astype(np.float32) + 1.0
    ratio = (image.astype(np.float32) + 1.0) / paper  # 1 on paper, under 1 in ink
    darkness = 1.0 - ratio.min(axis=2)
    quads = {c: geometry.cell_quad(c // 9, c % 9).astype(np.float64) for c in (a, b)}
    masks = {c: _digit_ink(darkness, quads[c]) for c in (a, b)}
    erased = cv2.inpaint(image, masks[a] | masks[b], max(3, int(cell / 12)), cv2.INPAINT_TELEA)
    out = erased.astype(np.float32)
    for src, dst in ((a, b), (b, a)):
        m = cv2.getPerspectiveTransform(
            quads[src].astype(np.float32), quads[dst].astype(np.float32)
        )
        moved = cv2.warpPerspective(ratio, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(1, 1, 1))
        mask = cv2.warpPerspective(masks[src].astype(np.float32), m, (w, h), flags=cv2.INTER_LINEAR)
        laid = 1.0 - mask[..., None] * (1.0 - np.minimum(moved, 1.0))
        out *= laid
    return np.asarray(np.clip(np.rint(out), 0, 255), dtype=np.uint8)


def photo_outcomes(*, all_photos: bool) -> list[Outcome]:
    """Read every mixed photo as taken, and once more with two entries swapped."""
    outlines = devdata.read_outlines()
    outcomes = []
    for photo in devdata.load_mixed_photos():
        if not photo.held_out and not all_photos:
            continue
        group = "held-out photo" if photo.held_out else "trained photo"
        image = devdata.load_mixed_image(photo.name)
        assert image is not None  # load_mixed_photos read it
        printed = [int(v) for v in photo.printed]
        entries = [int(d) if h else 0 for d, h in zip(photo.digits, photo.handwritten, strict=True)]
        scan = read(image, photo.name)
        outcomes.append(judge(scan, photo.name, group, printed, entries, []))
        # Two written digits that differ, picked by the name: both become mistakes.
        rng = np.random.default_rng(zlib.crc32(photo.name.encode()))
        hand = [int(i) for i in np.flatnonzero(photo.handwritten)]
        a = hand[int(rng.integers(len(hand)))]
        others = [i for i in hand if entries[i] != entries[a]]
        b = others[int(rng.integers(len(others)))]
        h, w = image.shape[:2]
        corners = devdata.grid_corners(photo.name, outlines[photo.name])
        swapped = swap_cells(image, GridGeometry.from_corners(corners, (w, h)), a, b)
        entries[a], entries[b] = entries[b], entries[a]
        scan = read(swapped, photo.name)
        outcomes.append(judge(scan, photo.name, f"{group}, 2 swapped", printed, entries, [a, b]))
    return outcomes


@dataclass(frozen=True)
class PenPage:
    """One rendered page of the benchmark: its puzzle, entries (two wrong), the image,
    and what wrote them."""

    puzzle: list[int]
    entries: list[int]
    wrong: list[int]
    image: npt.NDArray[np.uint8]
    name: str
    ink: str


@functools.cache
def hand_faces() -> list[list[Path]]:
    """The held-out handwriting faces, by family (those that write Latin digits; read once
    per process)."""
    families: dict[str, list[Path]] = {}
    for path in hand_fonts(held_out=True):
        if font_glyphs(path) is not None:  # a face without Latin digits writes nothing
            families.setdefault(path.parent.name, []).append(path)
    return list(families.values())


def pen_page(s: int, family_faces: list[list[Path]], *, candidates: bool = False) -> PenPage:
    """Rendered page ``s``: entries in the held-out hand, in one ink, two of them wrong,
    and with ``candidates`` the person's candidates in some of the cells left empty.

    Every ink meets every held-out family in turn: page s is written in family
    (s // inks) mod families and, on that family's later turns, in its next face.
    """
    from solver.generate import generate
    from tests.synth import (
        PEN_INKS,
        STRESS_STYLES,
        HandPen,
        render_stress_page,
    )

    styles = ["classic", "thin-grey", "tinted-grey", "low-res", "perspective", "curled"]
    inks = list(PEN_INKS)
    puzzle = [int(v) for v in generate(PUZZLE_SEED + s)]
    solution = solutions(puzzle, limit=1)[0]
    rng = np.random.default_rng(s)
    empty = [i for i, v in enumerate(puzzle) if not v]
    chosen = [int(i) for i in rng.permutation(empty)[: int(len(empty) * rng.uniform(0.3, 1))]]
    entries = [0] * 81
    for i in chosen:
        entries[i] = solution[i]
    wrong = sorted(chosen[:2])
    for i in wrong:
        entries[i] = solution[i] % 9 + 1
    ink = inks[s % len(inks)]
    colour, strength = PEN_INKS[ink]
    turn = s // len(inks)
    faces = family_faces[turn % len(family_faces)]
    font = faces[(turn // len(family_faces)) % len(faces)]
    style = styles[s % len(styles)]
    hand = HandPen(str(font), colour, strength)
    noted = None
    if candidates:
        marks = np.random.default_rng([s, 1])
        left = [i for i in empty if not entries[i]]
        shuffled = [int(c) for c in marks.permutation(left)]
        cells = shuffled[: int(len(left) * marks.uniform(0.2, 0.6))]
        noted = {
            c: sorted(marks.choice(9, size=int(marks.integers(2, 4)), replace=False) + 1)
            for c in cells
        }
    page = render_stress_page(
        puzzle, style=STRESS_STYLES[style], seed=s, entries=entries, hand=hand, candidates=noted
    )
    image = page.image
    name = f"{style} seed {s} ({font.stem})"
    return PenPage(puzzle, entries, wrong, image, name, CANDIDATES if candidates else ink)


def page_outcomes(
    pages: int,
    candidate_pages: int = 0,
    *,
    first: int = 0,
    first_candidate: int = CANDIDATE_SEED,
    jobs: int = 1,
) -> list[Outcome]:
    """Rendered pages with entries in the held-out hand, in each ink, two of them wrong
    (seeds from ``first``); then pages (seeds from ``first_candidate``) with the person's
    candidates too; read in ``jobs`` processes."""
    if not hand_faces():
        print("note: no held-out handwriting font (make stress-fonts installs them): no pages")
        return []
    seeds = [(first + s, False) for s in range(pages)]
    seeds += [(first_candidate + s, True) for s in range(candidate_pages)]
    if jobs <= 1:
        return [_page_outcome(task) for task in seeds]
    with multiprocessing.Pool(jobs) as pool:
        return pool.map(_page_outcome, seeds, chunksize=1)


def _page_outcome(task: tuple[int, bool]) -> Outcome:
    """Render page ``task`` = (seed, with candidates) and judge its reading."""
    s, candidates = task
    page = pen_page(s, hand_faces(), candidates=candidates)
    scan = read(page.image, page.name.replace(" seed", ""))
    return judge(scan, page.name, page.ink, page.puzzle, page.entries, page.wrong)


def table(outcomes: list[Outcome]) -> str:
    groups = list(dict.fromkeys(o.group for o in outcomes))
    head = (
        "| set | images | read | givens right | fully right | mistakes exact "
        "| with unclear | kinds only | misread digits |\n|---" + "|---:" * 8 + "|"
    )
    rows = [head]
    for g in [*groups, "total"]:
        sel = [o for o in outcomes if g in ("total", o.group)]
        bad = sum(o.misread for o in sel)
        rows.append(
            f"| {g} | {len(sel)} | {sum(o.read for o in sel)} | "
            f"{sum(o.givens_right for o in sel)} | {sum(o.fully_right for o in sel)} | "
            f"{sum(o.mistakes_exact for o in sel)} | {sum(o.unclear for o in sel)} | "
            f"{sum(o.kinds_only for o in sel)} | "
            f"{f'**{bad}**' if bad else 0} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=40, help="rendered pages")
    parser.add_argument(
        "--candidate-pages", type=int, default=40, help="rendered pages with candidates too"
    )
    parser.add_argument("--first-page", type=int, default=0, help="seed of the first page")
    parser.add_argument(
        "--first-candidate-page",
        type=int,
        default=CANDIDATE_SEED,
        help="seed of the first page with candidates",
    )
    parser.add_argument("--no-photos", action="store_true", help="the rendered pages alone")
    parser.add_argument("--jobs", type=int, default=1, help="processes reading the pages")
    parser.add_argument("--all-photos", action="store_true", help="the trained half too")
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument("--verbose", action="store_true", help="list what went wrong")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    start = time.time()
    outcomes = [] if args.no_photos else photo_outcomes(all_photos=args.all_photos)
    if not outcomes and not args.no_photos:
        print(f"note: no mixed photos at {devdata.MIXED_DIR}: photos skipped")
    outcomes += page_outcomes(
        args.pages,
        args.candidate_pages,
        first=args.first_page,
        first_candidate=args.first_candidate_page,
        jobs=args.jobs,
    )
    print(f"{len(outcomes)} reads in {time.time() - start:.0f} s\n")
    print(table(outcomes))
    if args.verbose:
        for o in outcomes:
            if not (o.fully_right and o.mistakes_exact):
                print(f"- {o.group} {o.name}: {o.detail} mistakes [{o.mistakes}]")
    if args.json:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1))


if __name__ == "__main__":
    main()
