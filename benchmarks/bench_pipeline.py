"""End-to-end benchmark: read + solve + draw + encode per photo, and checks of the output.

Usage: ``python benchmarks/bench_pipeline.py [PHOTO_DIR] [--engine cnn]``.
For every photo with ``.dat`` ground truth: time the whole pipeline (encode to PNG in
memory included), and for the photos read right check that the drawn solution is the
true one (the solution of the ground-truth givens) and that pixels changed only inside
the grid and the legend box.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from overlay.draw import LegendPlace, compose  # noqa: E402
from pipeline.evaluate import photos_with_truth, read_truth  # noqa: E402
from scanner.api import read_photo  # noqa: E402
from solver import solve  # noqa: E402
from solver.errors import SudokuScanError  # noqa: E402
from solver.search import solutions  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=ROOT.parent / "shared" / "data" / "photos" / "wicht-train",
    )
    ap.add_argument("--engine", default="cnn")
    args = ap.parse_args()  # fmt: skip
    times: list[float] = []
    read_right = drawn_right = clean = failed = strips = 0
    problems: list[str] = []
    for photo, dat in photos_with_truth(args.folder):
        truth = read_truth(dat)
        start = time.perf_counter()
        try:
            scan = read_photo(str(photo), engine=args.engine, max_side=None)
        except SudokuScanError as exc:
            failed += 1
            problems.append(f"{photo.name}: {exc}")
            continue
        result = solve(scan.givens)
        image = scan.loaded.image
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        ann = compose(image, scan.geometry, result)
        _ok, _buf = cv2.imencode(".png", ann.image)
        times.append(time.perf_counter() - start)
        if scan.givens != truth:
            continue
        read_right += 1
        (true_solution,) = solutions(truth, limit=1)
        drawn = [result.grid.values[c] for c in range(81) if not truth[c] and result.grid.values[c]]
        expect = [true_solution[c] for c in range(81) if not truth[c] and result.grid.values[c]]
        if drawn == expect and result.status == "solved":
            drawn_right += 1
        else:
            problems.append(f"{photo.name}: drawn digits differ from the true solution")
        # A legend with no room in the photo goes into a strip below it: the photo part
        # is compared with the photo.
        changed = np.any(ann.image[: image.shape[0]] != image, axis=2)
        strips += ann.legend_place == LegendPlace.STRIP
        allowed = np.zeros(changed.shape, np.uint8)
        # The grid's outline through all 36 border intersections: a bent page's edge curves.
        lat = scan.geometry.lattice
        outline = np.concatenate([lat[0, :], lat[1:, 9], lat[9, 8::-1], lat[8:0:-1, 0]])
        cv2.fillPoly(allowed, [outline.round().astype(np.int32)], 1)
        allowed = cv2.dilate(allowed, np.ones((5, 5), np.uint8))  # anti-aliased edge pixels
        if ann.legend_box is not None:
            b = ann.legend_box
            allowed[b.y0 : b.y1, b.x0 : b.x1] = 1
        if not (changed & (allowed == 0)).any():
            clean += 1
        else:
            problems.append(f"{photo.name}: pixels changed outside the grid and legend")
    ts = sorted(times)
    print(f"End-to-end ({time.strftime('%Y-%m-%d')}, engine {args.engine}, 1 process)\n")
    print("| photos | read right | drawn = true solution | changes only in grid+legend "
          "| legend in a strip | failed | median ms | p95 ms |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    median, p95 = statistics.median(ts) * 1e3, ts[int(0.95 * (len(ts) - 1))] * 1e3
    print(
        f"| {len(ts) + failed} | {read_right} | {drawn_right}/{read_right} | {clean}/{read_right} "
        f"| {strips} | {failed} | {median:.0f} | {p95:.0f} |"
    )
    for p in problems[:20]:
        print("  ", p)


if __name__ == "__main__":
    main()
