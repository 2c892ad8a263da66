"""Benchmark the digit engines on the reference photos (``../shared/data``).

Cells are cut along the flat lattice of each photo's hand-marked outline (see
``scanner.digits.devdata``), so this measures reading alone, not grid finding. Per
engine: cells read right, given digits read right, grids read fully right before and
after ``scanner.reading.revise``, the corrections it made (and how many were right),
and the time to classify one grid's 81 cells. The CNN is also scored on the held-out
half of the puzzles (split by puzzle, never trained on) and on choosing the upright
orientation among the four quarter turns of each grid (``4 turns ms``: classifying all
four turns, with ``CnnEngine.classify_turns`` for the CNN).

With ``--cells pipeline`` the cells are cut as the product cuts them instead (the grid
finder's lattice, ``scanner.locate`` + ``scanner.cells``), in the turn the product
picks (the upright turn unless its ``orientation_score`` is under 0.9, then the best
of four); ``upright picked`` then counts photos where no other turn reads closer to the
truth, and ``4 turns ms`` is the product's classify time including that choice.

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
from scanner.digits.base import DigitEngine, turn_cells
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
    turns_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


@dataclass
class PipelinePhoto:
    """A photo's cells as the product cuts them: its grid finder's lattice, 4 turns."""

    name: str
    turns: np.ndarray  # (4, 81, 64, 64): the lattice turned by 0..3 quarter turns
    truth: np.ndarray
    held_out: bool


def pipeline_photos(every: int) -> list[PipelinePhoto]:
    """Every reference photo, located and cut by ``scanner.locate`` / ``scanner.cells``."""
    from scanner.cells import extract_cells
    from scanner.digits.devdata import PHOTO_DIR, is_held_out, read_truth
    from scanner.load import load_image
    from scanner.locate import locate_grid, rotated_lattice

    out = []
    for path in sorted(PHOTO_DIR.glob("*.jpg"))[::every]:
        loaded = load_image(str(path), max_side=1600, gray=True)
        geometry = locate_grid(loaded.gray, name=path.name)
        turns = np.stack(
            [extract_cells(loaded.gray, rotated_lattice(geometry, k)) for k in range(4)]
        )
        truth = read_truth(path.with_suffix(".dat"))
        key = "".join(str(int(v)) for v in truth)
        out.append(PipelinePhoto(path.name, turns, truth, is_held_out(key)))
    return out


def measure(
    engine: DigitEngine, photos: Sequence[PhotoCells | PipelinePhoto], *, orientation: bool
) -> dict[str, Tally]:
    """Tallies for all photos and for the held-out puzzles."""
    tallies = {"all": Tally(), "held-out": Tally()}
    for photo in photos:
        t0 = time.perf_counter()
        if isinstance(photo, PipelinePhoto):
            # As the product does: the upright turn first, the others unless it reads well.
            tries = [engine.classify(photo.turns[0])]
            t1 = time.perf_counter()
            if orientation_score(tries[0]) < 0.9:
                tries += [engine.classify(photo.turns[k]) for k in (1, 2, 3)]
            probs = tries[int(np.argmax([orientation_score(p) for p in tries]))]
        else:
            probs = engine.classify(photo.cells)
            t1 = time.perf_counter()
        t1b = time.perf_counter()
        reading = revise(probs)
        t2 = time.perf_counter()
        truth = [int(v) for v in photo.truth]
        read = probs.argmax(axis=1)
        upright = False
        turns_ms = 0.0
        if isinstance(photo, PipelinePhoto):
            # Picked right: no other turn reads closer to the truth.
            right = [
                int((engine.classify(c).argmax(axis=1) == photo.truth).sum()) for c in photo.turns
            ]
            upright = int((read == photo.truth).sum()) == max(right)
            turns_ms = 1000 * (t1b - t0)
        elif orientation:
            t3 = time.perf_counter()
            if hasattr(engine, "classify_turns"):
                turns = engine.classify_turns(photo.cells)
            else:
                turns = np.stack([engine.classify(turn_cells(photo.cells, k)) for k in range(4)])
            turns_ms = 1000 * (time.perf_counter() - t3)
            upright = int(np.argmax([orientation_score(p) for p in turns])) == 0
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
            t.turns_ms.append(turns_ms)
            t.classify_ms.append(1000 * (t1 - t0))
            t.revise_ms.append(1000 * (t2 - t1b))
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
    parser.add_argument(
        "--cells",
        choices=["outline", "pipeline"],
        default="outline",
        help="cut along the hand-marked outlines (default) or as the product does",
    )
    args = parser.parse_args(argv)

    photos: Sequence[PhotoCells | PipelinePhoto]
    if args.cells == "pipeline":
        photos = pipeline_photos(args.every)
    else:
        photos = load_photos()[:: args.every]
    if not photos:
        raise SystemExit("no reference photos found under ../shared/data/photos/wicht-train")
    engines = args.engines if args.engines is not None else available_engines()
    rows = []
    failures: list[str] = []
    for name in engines:
        engine = get_engine(name)
        first = photos[0]
        engine.classify(first.turns[0] if isinstance(first, PipelinePhoto) else first.cells)
        orient = args.cells == "pipeline" or (name == "cnn" and not args.no_orientation)
        tallies = measure(engine, photos, orientation=orient)
        # Only a CNN trained with ``--photos split`` has seen (half of) the photos.
        seen = bool(getattr(getattr(engine, "net", None), "trained_on_photos", False))
        for key, t in tallies.items():
            if key == "held-out" and not seen:
                continue
            split = key
            if key == "all":
                split = "all (half trained on)" if seen else "all (none trained on)"
                failures += [f"{name}: {f}" for f in t.failures]
            rows.append(
                f"| {name} | {split} | {t.photos} | {pct(t.cells_right, t.cells)} "
                f"| {pct(t.cells - t.cells_right, t.cells)} | {pct(t.digits_right, t.digits)} "
                f"| {t.grids_right}/{t.photos} | {t.grids_right_revised}/{t.photos} "
                f"| {t.corrections} ({t.corrections_right} right) | {t.unreadable} "
                f"| {f'{t.upright_best}/{t.photos}' if orient else '-'} "
                f"| {f'{np.median(t.turns_ms):.1f}' if orient else '-'} "
                f"| {np.median(t.classify_ms):.1f} / {np.percentile(t.classify_ms, 95):.1f} "
                f"| {np.median(t.revise_ms):.1f} / {max(t.revise_ms):.0f} |"
            )
    print(f"cells cut: {args.cells}")
    print(
        "| engine | photos | n | cells right | cells wrong | given digits right "
        "| grids right (raw) | grids right (revised) | corrections | unreadable "
        "| upright picked | 4 turns ms | classify ms (median / p95) | revise ms (median / max) |"
    )
    print("|" + "---|" * 14)
    print("\n".join(rows))
    if failures:
        print("\nGrids not fully right after revise:")
        print("\n".join(f"- {f}" for f in failures))


if __name__ == "__main__":
    main()
