"""Benchmark the digit engines on the reference photos (``../shared/data``).

Cells are cut along the flat lattice of each photo's hand-marked outline (see
``scanner.digits.devdata``), so this measures reading alone, not grid finding. Per
engine: cells read right, given digits read right, grids read fully right before and
after ``scanner.reading.revise``, the corrections it made (and how many were right),
and the time to classify one grid's 81 cells. The CNN is also scored on the held-out
half of the puzzles (split by puzzle, never trained on) and on choosing the upright
orientation among the four quarter turns of each grid.

    .venv/bin/python benchmarks/bench_digits.py [--engines cnn tesseract] [--every N]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scanner.digits import available_engines, get_engine
from scanner.digits.base import DigitEngine
from scanner.digits.devdata import PhotoCells, load_photos
from scanner.reading import orientation_score, revise


@dataclass
class Tally:
    """Counts over a set of photos."""

    photos: int = 0
    cells: int = 0
    cells_right: int = 0
    digits: int = 0
    digits_right: int = 0
    grids_right: int = 0
    grids_right_revised: int = 0
    corrections: int = 0
    corrections_right: int = 0
    unreadable: int = 0
    upright_best: int = 0
    classify_ms: list[float] = field(default_factory=list)
    revise_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def quarter_turn(cells: np.ndarray, k: int) -> np.ndarray:
    """The cells (81, 64, 64) of the grid turned by ``k`` quarter turns counter-clockwise."""
    grid = cells.reshape(9, 9, *cells.shape[1:])
    turned = np.rot90(np.rot90(grid, k, axes=(0, 1)), k, axes=(2, 3))
    return np.ascontiguousarray(turned).reshape(cells.shape)


def measure(
    engine: DigitEngine, photos: Sequence[PhotoCells], *, orientation: bool
) -> dict[str, Tally]:
    """Tallies for all photos and for the held-out puzzles."""
    tallies = {"all": Tally(), "held-out": Tally()}
    for photo in photos:
        t0 = time.perf_counter()
        probs = engine.classify(photo.cells)
        t1 = time.perf_counter()
        reading = revise(probs)
        t2 = time.perf_counter()
        truth = [int(v) for v in photo.truth]
        read = probs.argmax(axis=1)
        upright = False
        if orientation:
            scores = [orientation_score(probs)]
            scores += [
                orientation_score(engine.classify(quarter_turn(photo.cells, k))) for k in (1, 2, 3)
            ]
            upright = int(np.argmax(scores)) == 0
        for key in ("all", "held-out") if photo.held_out else ("all",):
            t = tallies[key]
            t.photos += 1
            t.cells += 81
            t.cells_right += int((read == photo.truth).sum())
            given = photo.truth > 0
            t.digits += int(given.sum())
            t.digits_right += int((read[given] == photo.truth[given]).sum())
            t.grids_right += bool((read == photo.truth).all())
            t.grids_right_revised += reading.givens == truth
            t.corrections += len(reading.corrections)
            t.corrections_right += sum(c.corrected == truth[c.cell] for c in reading.corrections)
            t.unreadable += reading.status == "unreadable"
            t.upright_best += upright
            t.classify_ms.append(1000 * (t1 - t0))
            t.revise_ms.append(1000 * (t2 - t1))
            if reading.givens != truth:
                bad = [c for c in range(81) if reading.givens[c] != truth[c]]
                t.failures.append(f"{photo.name} ({reading.status}): cells {bad}")
    return tallies


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.2f}%" if b else "-"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", nargs="*", default=None, help="default: all available")
    parser.add_argument("--every", type=int, default=1, help="use every N-th photo only")
    parser.add_argument("--no-orientation", action="store_true")
    args = parser.parse_args(argv)

    photos = load_photos()[:: args.every]
    if not photos:
        raise SystemExit("no reference photos found under ../shared/data/photos/wicht-train")
    engines = args.engines if args.engines is not None else available_engines()
    rows = []
    failures: list[str] = []
    for name in engines:
        engine = get_engine(name)
        engine.classify(photos[0].cells)  # warm up (weights, caches)
        orient = name == "cnn" and not args.no_orientation
        tallies = measure(engine, photos, orientation=orient)
        # Only a CNN trained with ``--photos split`` has seen (half of) the photos.
        seen = bool(getattr(getattr(engine, "net", None), "trained_on_photos", False))
        for split, t in tallies.items():
            if split == "held-out" and not seen:
                continue
            if split == "all" and seen:
                split = "all (half trained on)"
            elif split == "all":
                split = "all (none trained on)"
            rows.append(
                f"| {name} | {split} | {t.photos} | {pct(t.cells_right, t.cells)} "
                f"| {pct(t.cells - t.cells_right, t.cells)} | {pct(t.digits_right, t.digits)} "
                f"| {t.grids_right}/{t.photos} | {t.grids_right_revised}/{t.photos} "
                f"| {t.corrections} ({t.corrections_right} right) | {t.unreadable} "
                f"| {f'{t.upright_best}/{t.photos}' if orient else '-'} "
                f"| {np.median(t.classify_ms):.1f} / {np.percentile(t.classify_ms, 95):.1f} "
                f"| {np.median(t.revise_ms):.1f} / {max(t.revise_ms):.0f} |"
            )
            if split == "all":
                failures += [f"{name}: {f}" for f in t.failures]
    print(
        "| engine | photos | n | cells right | cells wrong | given digits right "
        "| grids right (raw) | grids right (revised) | corrections | unreadable "
        "| upright picked | classify ms (median / p95) | revise ms (median / max) |"
    )
    print("|" + "---|" * 13)
    print("\n".join(rows))
    if failures:
        print("\nGrids not fully right after revise:")
        print("\n".join(f"- {f}" for f in failures))


if __name__ == "__main__":
    main()
