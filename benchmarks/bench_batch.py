"""Batch throughput: pages per second with ``--jobs 1`` and ``--jobs 2``.

Usage: ``python benchmarks/bench_batch.py [--photos DIR] [--pdf-pages N] [--jobs 1 2]``.

Two inputs, each run with every ``--jobs`` value into a fresh output folder:

* the reference photos (``../shared/data/photos/wicht-train`` by default, 160 photos);
* a generated puzzle-book PDF with ``--pdf-pages`` A4 pages of 4 puzzles each (plus
  yesterday's small solution grid on every page, which must be left alone).

Also times the single-photo pipeline (``solve_photo`` without writing) on the same photos
in one process, to show what a batch adds per page. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.batch import BatchOptions, run_batch  # noqa: E402
from pipeline.stages import solve_photo  # noqa: E402
from solver.generate import generate  # noqa: E402
from solver.search import solutions  # noqa: E402
from tests.synth import render_book_page  # noqa: E402


def make_pdf(path: Path, pages: int) -> int:
    """A puzzle-book PDF: ``pages`` A4 pages at 150 dpi, 4 puzzles a page."""
    from PIL import Image

    images = []
    for page in range(pages):
        puzzles = ["".join(map(str, generate(9000 + 4 * page + i))) for i in range(4)]
        first = [int(ch) for ch in puzzles[0]]
        yesterday = "".join(map(str, solutions(first, limit=1)[0]))
        gray = render_book_page(puzzles, columns=2, solution=yesterday)
        images.append(Image.fromarray(gray).convert("RGB"))
    images[0].save(path, save_all=True, append_images=images[1:], resolution=150)
    return 4 * pages


def run(inputs: list[str], jobs: int, work: Path, name: str) -> tuple[float, int, int, int]:
    out = work / f"{name}-j{jobs}"
    start = time.perf_counter()
    summary = run_batch(inputs, out, options=BatchOptions(engine="cnn"), jobs=jobs, quiet=True)
    wall = time.perf_counter() - start
    return wall, summary.pages, summary.grids, summary.solved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--photos", type=Path, default=ROOT.parent / "shared" / "data" / "photos" / "wicht-train"
    )
    ap.add_argument("--pdf-pages", type=int, default=20)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    photos = sorted(str(p) for p in args.photos.glob("*.jpg"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pdf = work / "book.pdf"
        puzzles = make_pdf(pdf, args.pdf_pages)
        # The single-photo pipeline on the same photos, one process, for the overhead.
        solve_photo(photos[0], engine="cnn", write=False)  # warm the reader
        start = time.perf_counter()
        for p in photos:
            try:
                solve_photo(p, engine="cnn", write=False)
            except Exception as exc:  # a photo the pipeline rejects still costs its time
                print(f"single-photo pipeline: {p}: {exc}", file=sys.stderr)
        single = (time.perf_counter() - start) / len(photos)
        for name, inputs, grids_expected in (
            (f"{len(photos)} photos", photos, len(photos)),
            (f"PDF, {args.pdf_pages} pages x 4 puzzles", [str(pdf)], puzzles),
        ):
            base = None
            for jobs in args.jobs:
                wall, pages, grids, solved = run(inputs, jobs, work, name.split()[0] + str(jobs))
                base = base or wall
                rows.append(
                    f"| {name} | {jobs} | {pages} | {grids}/{grids_expected} | {solved} | "
                    f"{wall:.1f} | {pages / wall:.2f} | {1e3 * wall / pages:.0f} | "
                    f"{base / wall:.2f}x |"
                )
    print(f"machine: {os.cpu_count()} cores; single-photo pipeline (read+solve+draw, no "
          f"write) on the same photos: {1e3 * single:.0f} ms/photo")  # fmt: skip
    print("| input | jobs | pages | grids found | solved | wall s | pages/s | ms/page | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
