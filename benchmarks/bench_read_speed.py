"""Reading speed: how long ``read_photo`` takes on a file, decode included.

Usage::

    python benchmarks/bench_read_speed.py [--pages 20] [--rounds 3] [--against CHECKOUT]

Sets (issue 13's targets: a 1-2 MP photo read in 60 ms, median; 12 MP in 400 ms):

* rendered 1.9 MP: ``--pages`` pages of the stress benchmark's ``classic`` style in
  held-out fonts (1600 x 1200, JPEG quality 90), rendered once into a temporary folder;
* app screenshots 1-3 MP: half as many of its ``app-light`` and ``app-dark`` screens
  (750 x 1334 to 1170 x 2532, PNG: a player's entries and pencil marks beside the givens);
* Wicht 0.3-1.2 MP: the first 40 reference photos (``../shared/data``, when present);
* Wicht 12 MP: the 5 full-resolution photos.

Each round reads every set once in a fresh process (three reads first, to warm up),
``OPENBLAS_NUM_THREADS=1``. This machine's speed drifts by a third from one minute to
the next, so a comparison is only fair within one run: ``--against`` names another
checkout of the project (``git worktree add ../old HEAD~1``; copy the compiled
``solver/*.so`` into it too) whose reader is timed in the same rounds, alternating with
this one. The table gives, per checkout and set, the median over the rounds of each
round's median, and the 95th percentile of all reads pooled.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "photos"


def render_pages(folder: Path, pages: int, styles: tuple[str, ...] = ("classic",)) -> list[str]:
    """Files of the stress benchmark's pages of ``styles`` in turn, made into ``folder``:
    a photo as a JPEG (quality 90), an app's screenshot as a PNG, as phones save them."""
    import cv2

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_stress import render

    from tests.synth import STRESS_STYLES, FontSet, font_families

    fonts = font_families(FontSet.HELD_OUT)[0]
    paths = []
    for seed in range(pages):
        style = styles[seed % len(styles)]
        # read_photo takes arrays as BGR, as the stress benchmark hands them over.
        image = render(style, seed, fonts).image
        if STRESS_STYLES[style].photographed:
            path = folder / f"{style}-{seed}.jpg"
            cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        else:
            path = folder / f"{style}-{seed}.png"
            cv2.imwrite(str(path), image)
        paths.append(str(path))
    return paths


def worker(checkout: Path, sets: dict[str, list[str]]) -> dict[str, list[float]]:
    """Seconds per read of every file of every set, with ``checkout``'s reader."""
    sys.path.insert(0, str(checkout))
    from scanner.api import read_photo

    first = next(iter(sets.values()))
    for path in first[:3]:
        read_photo(path)
    times: dict[str, list[float]] = {}
    for name, paths in sets.items():
        for path in paths:
            start = time.perf_counter()
            read_photo(path)
            times.setdefault(name, []).append(time.perf_counter() - start)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", type=Path, help="another checkout, timed alongside")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--sets", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker is not None:
        sets = json.loads(args.sets.read_text())
        print(json.dumps(worker(args.worker, sets)))
        return
    if args.against is not None and not (args.against / "scanner" / "api.py").is_file():
        sys.exit(f"error: {args.against} is no checkout of sudoku-scan (no scanner/api.py)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sets = {
            "rendered 1.9 MP": render_pages(folder, args.pages),
            "app screenshots 1-3 MP": render_pages(
                folder, max(2, args.pages // 2), ("app-light", "app-dark")
            ),
        }
        wicht = sorted(str(p) for p in (DATA / "wicht-train").glob("*.jpg"))[:40]
        full = sorted(str(p) for p in (DATA / "wicht-train-fullres").glob("*.jpg"))
        if wicht:
            sets["Wicht 0.3-1.2 MP"] = wicht
        if full:
            sets["Wicht 12 MP"] = full
        if not wicht:
            print(f"note: no reference photos in {DATA}: the rendered set only")
        listing = folder / "sets.json"
        listing.write_text(json.dumps(sets))
        checkouts = [ROOT] + ([args.against.resolve()] if args.against else [])
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        runs: dict[Path, list[dict[str, list[float]]]] = {c: [] for c in checkouts}
        for r in range(args.rounds):
            for checkout in checkouts if r % 2 == 0 else checkouts[::-1]:
                out = subprocess.run(
                    [sys.executable, __file__, "--worker", str(checkout), "--sets", str(listing)],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                runs[checkout].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"{args.rounds} rounds, one process each, OPENBLAS_NUM_THREADS=1\n")
    print("| checkout | set | photos | median ms | p95 ms |\n|---|---|---:|---:|---:|")
    for checkout, rounds in runs.items():
        label = "this" if checkout == ROOT else str(checkout)
        for name in sets:
            medians = [statistics.median(t[name]) for t in rounds]
            p95 = float(np.percentile([v for t in rounds for v in t[name]], 95))
            print(
                f"| {label} | {name} | {len(sets[name])} | "
                f"{1000 * statistics.median(medians):.0f} | {1000 * p95:.0f} |"
            )


if __name__ == "__main__":
    main()
