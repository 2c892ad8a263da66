"""Handwriting benchmark: printed givens and the person's own entries, and their mistakes.

Usage::

    python benchmarks/bench_mixed.py [--pages 40] [--all-photos] [--json FILE] [--verbose]

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
  (as ink on each cell's own paper: ``swap_cells``), so both are wrong; ``mistakes``
  must name exactly those two cells.

Rendered pages (``tests.synth.render_stress_page``) have entries written in the held-out
handwriting (``scanner.digits.synth.HELD_OUT_HAND_FONT_DIRS``: fonts-sjfonts,
fonts-kiloji, fonts-seto, fonts-yusei-magic; ``make bench-mixed`` installs them) in
black, blue and red pen and in pencil, two of them wrong; each ink meets each family.

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
import json
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


def swap_cells(
    image: npt.NDArray[np.uint8], geometry: GridGeometry, a: int, b: int
) -> npt.NDArray[np.uint8]:
    """The image with the ink in the middles of cells ``a`` and ``b`` exchanged.

    The middle 80% of each cell (clear of its lines) is moved into the other in
    perspective, as ink on paper: the moved pixels are divided by their own cell's paper
    and multiplied by the destination's, so a digit written on a shaded or darker part of
    the page lands on its new paper without a pasted patch's edges (which the person's
    wrong digit would not have either).
    """
    out = image.copy()
    h, w = image.shape[:2]
    cell = float(np.linalg.norm(geometry.cell_quad(0, 1)[0] - geometry.cell_quad(0, 0)[0]))
    size = max(3, int(cell / 3) | 1)
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    # The paper: a closing wider than any stroke, smoothed; never darker than the pixel.
    paper = cv2.GaussianBlur(cv2.morphologyEx(image, cv2.MORPH_CLOSE, closing), (0, 0), size / 3)
    paper = np.maximum(paper, image).astype(np.float32) + 1.0
    for src, dst in ((a, b), (b, a)):
        qs = geometry.cell_quad(src // 9, src % 9).astype(np.float32)
        qd = geometry.cell_quad(dst // 9, dst % 9).astype(np.float32)
        m = cv2.getPerspectiveTransform(qs, qd)
        moved = cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR)
        moved_paper = cv2.warpPerspective(paper, m, (w, h), flags=cv2.INTER_LINEAR)
        ink = (moved.astype(np.float32) + 1.0) / np.maximum(moved_paper, 1.0)
        centre = qd.mean(axis=0)
        inner = (centre + 0.8 * (qd - centre)).astype(np.int32)  # keep the cell's lines
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, inner, 1)
        written = np.clip(np.minimum(ink, 1.0) * paper - 1.0, 0, 255).astype(np.uint8)
        out[mask > 0] = written[mask > 0]
    return out


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


def page_outcomes(pages: int) -> list[Outcome]:
    """Rendered pages with entries in the held-out hand, in each ink, two of them wrong."""
    from solver.generate import generate
    from tests.synth import PEN_INKS, STRESS_STYLES, HandPen, render_stress_page

    # Every ink meets every held-out family in turn: page s is written in family
    # (s // inks) mod families and, on that family's later turns, in its next face.
    families: dict[str, list[Path]] = {}
    for path in hand_fonts(held_out=True):
        if font_glyphs(path) is not None:  # a face without Latin digits writes nothing
            families.setdefault(path.parent.name, []).append(path)
    family_faces = list(families.values())
    if not family_faces:
        print("note: no held-out handwriting font (make stress-fonts installs them): no pages")
        return []
    outcomes = []
    styles = ["classic", "thin-grey", "tinted-grey", "low-res", "perspective", "curled"]
    inks = list(PEN_INKS)
    for s in range(pages):
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
        pen = HandPen(str(font), colour, strength)
        style = styles[s % len(styles)]
        page = render_stress_page(
            puzzle, style=STRESS_STYLES[style], seed=s, entries=entries, hand=pen
        )
        scan = read(page.image, f"{style} {s}")
        name = f"{style} seed {s} ({font.stem})"
        outcomes.append(judge(scan, name, ink, puzzle, entries, wrong))
    return outcomes


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
    parser.add_argument("--all-photos", action="store_true", help="the trained half too")
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument("--verbose", action="store_true", help="list what went wrong")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    start = time.time()
    outcomes = photo_outcomes(all_photos=args.all_photos)
    if not outcomes:
        print(f"note: no mixed photos at {devdata.MIXED_DIR}: photos skipped")
    outcomes += page_outcomes(args.pages)
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
