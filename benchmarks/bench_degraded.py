"""Degraded-photo benchmark: Wicht's photos as other cameras and light would hand them over.

Usage::

    python benchmarks/bench_degraded.py [--ways noise,under,...] [--jobs 2] [--every 1]
        [--json FILE] [--verbose]

Each of Wicht's reference photos (``../shared/data/photos/wicht-train``, the printed
givens as truth) is degraded in each of these ways, deterministically per photo and
way, and read by ``scanner.read_photo`` from the degraded pixels:

* ``noise``: sensor noise, Gaussian, sd 12 levels per channel;
* ``under``: underexposed, the light at 0.3 and sensor noise sd 5;
* ``jpeg15``: saved again as JPEG at quality 15;
* ``shadow``: a soft shadow edge (3% of the long side wide) at a random angle through
  the middle, the light at 0.4 on its dark side;
* ``webcam``: half the resolution blown up again, the light at 0.6, noise sd 8, JPEG 40;
* ``mirrored``: the webcam's picture mirrored left to right, as a laptop's webcam or a
  phone's front camera hands it over (since 2026-12-03).

Outcomes, as in ``bench_stress.py``: *right* (status "read" with exactly the givens),
*unreadable*, *several* (status "multiple_solutions": every cell read with confidence
and the puzzle read has several solutions, so a given was missed), *no grid*, and
*confident-wrong* (status "read", other givens): the figure that must be 0. None of
this is tuned on: the photos are the reference set the reader was built on, the
degradations what a phone, a webcam or a messaging app does to any photo.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_stress import read_outcome  # noqa: E402

from scanner.truth import read_truth  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "data" / "photos" / "wicht-train"
Image = npt.NDArray[np.uint8]


def _noise(img: Image, rng: np.random.Generator) -> Image:
    return _clip(img + rng.normal(0.0, 12.0, img.shape))


def _under(img: Image, rng: np.random.Generator) -> Image:
    return _clip(img * 0.3 + rng.normal(0.0, 5.0, img.shape))


def _jpeg15(img: Image, rng: np.random.Generator) -> Image:
    return _jpeg(img, 15)


def _shadow(img: Image, rng: np.random.Generator) -> Image:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0.0, np.pi)
    across = (xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)
    light = 0.4 + 0.6 / (1.0 + np.exp(-across / (0.03 * max(h, w))))
    return _clip(img * light[..., None])


def _webcam(img: Image, rng: np.random.Generator) -> Image:
    h, w = img.shape[:2]
    small = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    blown = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return _jpeg(_clip(blown * 0.6 + rng.normal(0.0, 8.0, img.shape)), 40)


def _mirrored(img: Image, rng: np.random.Generator) -> Image:
    return np.ascontiguousarray(_webcam(img, rng)[:, ::-1])


def _clip(values: npt.NDArray[np.floating]) -> Image:
    return np.clip(values, 0, 255).astype(np.uint8)


def _jpeg(img: Image, quality: int) -> Image:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)


WAYS: dict[str, Callable[[Image, np.random.Generator], Image]] = {
    "noise": _noise,
    "under": _under,
    "jpeg15": _jpeg15,
    "shadow": _shadow,
    "webcam": _webcam,
    "mirrored": _mirrored,
}


@dataclass
class Outcome:
    photo: str
    way: str
    outcome: str  # as bench_stress.read_outcome: right, unreadable, several, no-grid, ...
    detail: str = ""


def degraded(path: Path, way: str) -> Image:
    """Photo ``path`` degraded ``way``: the same pixels on every run and machine."""
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise SystemExit(f"cannot read {path}")
    rng = np.random.default_rng(zlib.crc32(f"{path.name}/{way}".encode()))
    return WAYS[way](np.asarray(img, dtype=np.uint8), rng)


def read_one(task: tuple[Path, str]) -> Outcome:
    """Degrade one photo one way and read it (in a worker)."""
    path, way = task
    read = read_outcome(degraded(path, way), read_truth(path.with_suffix(".dat")))
    return Outcome(path.name, way, read.outcome, read.detail)


COLUMNS = ("right", "unreadable", "several", "no-grid", "confident-wrong", "error")


def table(outcomes: list[Outcome], ways: list[str]) -> str:
    lines = [
        "| way | photos | " + " | ".join(c.replace("-", " ") for c in COLUMNS) + " |",
        "|---|---:|" + "---:|" * len(COLUMNS),
    ]
    for way in ways:
        counts = Counter(o.outcome for o in outcomes if o.way == way)
        total = sum(counts.values())
        cells = [f"**{counts[c]}**" if c == "confident-wrong" else str(counts[c]) for c in COLUMNS]
        lines.append(f"| {way} | {total} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ways", default=",".join(WAYS), help="comma-separated (default: all)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--every", type=int, default=1, help="every N-th photo only")
    ap.add_argument("--photos", type=Path, default=PHOTOS, help="folder of photos and .dat")
    ap.add_argument("--json", type=Path, default=None, help="write every read's outcome here")
    ap.add_argument("--verbose", action="store_true", help="list every read not right")
    args = ap.parse_args()
    ways = [w for w in args.ways.split(",") if w]
    unknown = [w for w in ways if w not in WAYS]
    if unknown:
        ap.error(f"unknown ways {unknown}; known: {', '.join(WAYS)}")
    if args.every < 1:
        ap.error("--every must be at least 1")
    paths = sorted(p for p in args.photos.glob("*.jpg") if p.with_suffix(".dat").is_file())
    if not paths:
        raise SystemExit(f"no photos with a .dat beside them in {args.photos}")
    tasks = [(p, w) for w in ways for p in paths[:: args.every]]
    start = time.perf_counter()
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        outcomes = list(pool.map(read_one, tasks, chunksize=4))
    print(f"{len(outcomes)} reads in {time.perf_counter() - start:.0f} s\n")
    print(table(outcomes, ways))
    if args.verbose:
        for o in outcomes:
            if o.outcome != "right":
                print(f"- {o.way} {o.photo}: {o.outcome} {o.detail}".rstrip())
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1))


if __name__ == "__main__":
    main()
