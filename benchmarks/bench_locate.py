"""Benchmark the scanner's geometry: grid found rate, corner error and speed.

Over every photo of a folder: load + locate + extract the 81 cells, compare the located
outer corners with the hand-marked ones in the folder's ``outlines.csv``
(``image,tl_x,tl_y,...``, upright full-resolution pixels), and time it. The 12 MP
``wicht-train-fullres`` photos have no outlines of their own: they are the same photos
as in ``wicht-train``, so its outlines are scaled up to them. Prints a markdown table.

Usage::

    .venv/bin/python benchmarks/bench_locate.py [FOLDER] [--fullres FOLDER]
        [--debug-dir /tmp/locate-debug] [--worst 10]

Timings are for one thread (set below) on whatever else the machine is doing: run it on
a quiet machine, or pin it with ``taskset -c 0``.

Reading the corner errors: the hand-marked corners of the 640x480 photos sit about
5 px (per axis) *outside* the printed border, while the located lattice is on the
border line's centre, so a correct corner there reads as ~7 px off. "Grid right" counts
photos whose four corners are all within a quarter of a cell of the marks: a lattice
off by a row or a column would be a whole cell away.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

# One thread everywhere: timings mean "one core", and a threaded BLAS on a shared
# machine only adds stalls for the tiny products used here.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner import truth  # noqa: E402
from scanner.cells import extract_cells  # noqa: E402
from scanner.load import load_image  # noqa: E402
from scanner.locate import LocateDebug, locate_grid  # noqa: E402
from solver.errors import SudokuScanError  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "photos"
FloatArray = npt.NDArray[np.float64]

#: Long side photos are decoded at (at least): 12 MP JPEGs decode at 1/2 scale.
MAX_SIDE = 1600


def read_outlines(folder: Path) -> dict[str, FloatArray]:
    """``{image name: (4, 2) corners TL, TR, BR, BL}`` from ``folder/outlines.csv``.

    Without one, the outlines of the same photos in the folder named without its
    ``-fullres`` suffix, scaled to these photos' size (when the aspect ratio agrees).
    """
    if (folder / "outlines.csv").is_file():
        return truth.read_outlines(folder)
    base = folder.with_name(folder.name.removesuffix("-fullres"))
    if base == folder or not (base / "outlines.csv").is_file():
        return {}
    out = {}
    for name, corners in read_outlines(base).items():
        if not (folder / name).is_file():
            continue
        small = _upright_size(base / name)
        full = _upright_size(folder / name)
        sx, sy = full[0] / small[0], full[1] / small[1]
        if abs(sx / sy - 1) < 0.01:
            out[name] = (corners + 0.5) * np.array([sx, sy]) - 0.5
    return out


def _upright_size(path: Path) -> tuple[int, int]:
    """``(width, height)`` of the photo once turned upright, without decoding it."""
    with Image.open(path) as im:
        w, h = im.size
        turned = im.getexif().get(0x0112, 1) in (5, 6, 7, 8)
    return (h, w) if turned else (w, h)


def corner_error(found: FloatArray, truth: FloatArray) -> tuple[FloatArray, bool]:
    """Per-corner distances (4,) in the best cyclic order, and whether that is the order
    as returned (outlines list corners in image order, TL first)."""
    best: tuple[FloatArray, bool] | None = None
    for k in range(4):
        d = np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1)
        if best is None or d.mean() < best[0].mean():
            best = (d, k == 0)
    assert best is not None
    return best


@dataclass
class Row:
    """One photo's outcome."""

    name: str
    seconds: float
    corners: FloatArray | None
    error: str = ""
    dist: FloatArray | None = None
    cell: float = 0.0
    ordered: bool = True
    refined: bool = False


@dataclass
class Summary:
    folder: str
    rows: list[Row] = field(default_factory=list)


def run_one(path: Path) -> Row:
    """Load + locate + extract; corners in upright full-resolution pixels."""
    dbg = LocateDebug([], [])
    t0 = time.perf_counter()
    try:
        loaded = load_image(path, gray=True, max_side=MAX_SIDE)
        geom = locate_grid(loaded.image, name=path.name, debug=dbg)
        extract_cells(loaded.image, geom)
    except SudokuScanError as exc:
        return Row(path.name, time.perf_counter() - t0, None, str(exc))
    dt = time.perf_counter() - t0
    corners = (geom.corners() + 0.5) * loaded.reduction - 0.5
    cell = float(np.mean([geom.cell_size(r, c) for r in (0, 8) for c in (0, 8)]))
    return Row(path.name, dt, corners, cell=cell * loaded.reduction, refined=dbg.refined)


def save_debug(path: Path, row: Row, truth: FloatArray | None, out: Path) -> None:
    """Draw the found (green, circle at TL) and hand-marked (red) corners."""
    img = load_image(path).image
    if truth is not None:
        cv2.polylines(img, [truth.astype(np.int32)], True, (0, 0, 255), 2)
    if row.corners is not None:
        pts = row.corners.astype(np.int32)
        cv2.polylines(img, [pts], True, (0, 255, 0), 2)
        cv2.circle(img, (int(pts[0, 0]), int(pts[0, 1])), 8, (0, 255, 0), 2)
    scale = 900 / max(img.shape[:2])
    if scale < 1:
        img = np.asarray(cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    out.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out / (path.stem + ".png")), img)


def bench_folder(folder: Path, *, debug_dir: Path | None, worst: int) -> Summary:
    outlines = read_outlines(folder)
    photos = sorted(
        (p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png")),
        key=lambda p: (len(p.stem), p.stem),
    )
    summary = Summary(folder.name)
    for path in photos:
        row = run_one(path)
        truth = outlines.get(path.name)
        if row.corners is not None and truth is not None:
            row.dist, row.ordered = corner_error(row.corners, truth)
        summary.rows.append(row)
    if debug_dir:
        bad = [r for r in summary.rows if r.corners is None]
        scored = sorted(
            (r for r in summary.rows if r.dist is not None),
            key=lambda r: -float(r.dist.max()),  # type: ignore[union-attr]
        )
        for r in bad + scored[:worst]:
            save_debug(folder / r.name, r, outlines.get(r.name), debug_dir)
    return summary


def fmt(v: float, spec: str = ".1f") -> str:
    return "-" if np.isnan(v) else format(v, spec)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DATA / "wicht-train")
    ap.add_argument("--fullres", type=Path, default=DATA / "wicht-train-fullres")
    ap.add_argument("--debug-dir", type=Path, default=None, help="write overlays here")
    ap.add_argument("--worst", type=int, default=10, help="list (and draw) this many worst")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if not args.folder.is_dir():
        print(f"no photos at {args.folder}", file=sys.stderr)
        return 2
    sums = [bench_folder(args.folder, debug_dir=args.debug_dir, worst=args.worst)]
    if args.fullres and args.fullres.is_dir():
        sums.append(bench_folder(args.fullres, debug_dir=None, worst=0))

    print(
        "| set | photos | grid found | grid right (corners < 1/4 cell) "
        "| corner err median / mean / max (px) | corners <= 10 px "
        "| s/photo median | s/photo p95 |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for s in sums:
        rows = s.rows
        found = [r for r in rows if r.corners is not None]
        scored = [r for r in found if r.dist is not None]
        d = np.concatenate([r.dist for r in scored]) if scored else np.array([np.nan])
        right = sum(1 for r in scored if r.dist.max() < 0.25 * r.cell)  # type: ignore[union-attr]
        times = [r.seconds for r in rows]
        print(
            f"| {s.folder} | {len(rows)} | {len(found)}/{len(rows)} | {right}/{len(scored)} "
            f"| {fmt(float(np.median(d)))} / {fmt(float(np.mean(d)))} / {fmt(float(np.max(d)))} "
            f"| {int(np.sum(d <= 10))}/{d.size if scored else 0} "
            f"| {statistics.median(times):.3f} | {float(np.percentile(times, 95)):.3f} |"
        )
    print()
    for s in sums:
        missing = [f"{r.name} ({r.error})" for r in s.rows if r.corners is None]
        if missing:
            print(f"- {s.folder}: no grid in {', '.join(missing)}")
        flat = [r.name for r in s.rows if r.corners is not None and not r.refined]
        if flat:
            print(f"- {s.folder}: flat 4-corner fallback used for {', '.join(flat)}")
        unordered = [r.name for r in s.rows if r.dist is not None and not r.ordered]
        if unordered:
            print(f"- {s.folder}: corner order differs from outlines.csv: {', '.join(unordered)}")
        scored = sorted(
            (r for r in s.rows if r.dist is not None),
            key=lambda r: -float(r.dist.max()),  # type: ignore[union-attr]
        )
        if scored and args.worst:
            worst = ", ".join(
                f"{r.name} {float(r.dist.max()):.1f}"  # type: ignore[union-attr]
                for r in scored[: args.worst]
            )
            print(f"- {s.folder}: largest corner errors (px): {worst}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
