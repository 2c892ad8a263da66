"""Measure the reader on photos with ground truth (``imageN.jpg`` + ``imageN.dat``)."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from scanner.truth import read_truth
from solver.errors import SudokuScanError
from solver.grid import cell_name

__all__ = ["HEADER", "EvalResult", "evaluate", "photos_with_truth", "read_truth"]

PHOTO_EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp", ".tif", ".tiff", ".bmp")


@dataclass
class EvalResult:
    engine: str
    photos: int = 0
    found: int = 0
    cells_right: int = 0
    cells_total: int = 0
    grids_right: int = 0
    corrections: int = 0
    times: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def row(self) -> str:
        cells_wrong = self.cells_total - self.cells_right
        pct_wrong = 100 * cells_wrong / max(1, self.cells_total)
        ts = sorted(self.times) or [0.0]
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        found_pct = 100 * self.found / max(1, self.photos)
        return (
            f"| {self.engine} | {self.photos} | {self.found} ({found_pct:.1f}%) "
            f"| {self.cells_right}/{self.cells_total} ({pct_wrong:.3f}% wrong) "
            f"| {self.grids_right} ({100 * self.grids_right / max(1, self.photos):.1f}%) "
            f"| {self.corrections} | {statistics.median(ts) * 1e3:.0f} | {p95 * 1e3:.0f} |"
        )


HEADER = (
    "| engine | photos | grid found | cells right | grids fully right | corrections "
    "| median ms | p95 ms |\n|---|---:|---:|---:|---:|---:|---:|---:|"
)


def photos_with_truth(folder: Path) -> list[tuple[Path, Path]]:
    pairs = []
    for photo in sorted(folder.iterdir()):
        if photo.suffix.lower() in PHOTO_EXTENSIONS:
            dat = photo.with_suffix(".dat")
            if dat.exists():
                pairs.append((photo, dat))
    return pairs


def evaluate(folder: Path, engine: str, *, verbose: bool = False) -> EvalResult:
    """Read every photo with ground truth in ``folder`` and count what was read right."""
    from scanner.api import read_photo

    res = EvalResult(engine)
    for photo, dat in photos_with_truth(folder):
        truth = read_truth(dat)
        res.photos += 1
        start = time.perf_counter()
        try:
            scan = read_photo(str(photo), engine=engine)
        except SudokuScanError as exc:
            res.times.append(time.perf_counter() - start)
            res.cells_total += 81
            res.failures.append(f"{photo.name}: {exc}")
            continue
        res.times.append(time.perf_counter() - start)
        res.found += 1
        right = sum(1 for a, b in zip(scan.givens, truth, strict=True) if a == b)
        res.cells_right += right
        res.cells_total += 81
        res.corrections += len(scan.corrections)
        if right == 81:
            res.grids_right += 1
        else:
            wrong = [
                f"{cell_name(c)}:{truth[c]}->{scan.givens[c]}"
                for c in range(81)
                if scan.givens[c] != truth[c]
            ]
            res.failures.append(f"{photo.name}: {' '.join(wrong[:8])}")
        if verbose:
            print(f"{photo.name}: {right}/81 {scan.seconds * 1e3:.0f} ms", flush=True)
    return res
