"""Re-create the project's own sample photo and the README's before/after picture.

Usage: ``.venv/bin/python samples/make_samples.py`` (deterministic).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pipeline.stages import solve_photo  # noqa: E402
from solver.generate import generate  # noqa: E402
from tests.synth import render_puzzle_photo  # noqa: E402


def main() -> None:
    givens = "".join(map(str, generate(102)))
    image, _, _ = render_puzzle_photo(
        givens, seed=11, perspective=0.1, rotation_deg=-7, shadow=True, blur=0.7, noise=3,
        size=(1024, 768), bend=0.25,
    )  # fmt: skip
    cv2.imwrite(str(HERE / "synthetic-photo.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    before = HERE / "newspaper-photo.jpg"
    solved = solve_photo(str(before), engine="cnn", write=False)
    assert solved.image is not None
    left = cv2.imread(str(before))
    # The grid fills this photo: the legend went into a strip below it.
    right = solved.image
    pad = np.full((right.shape[0] - left.shape[0], left.shape[1], 3), 255, np.uint8)
    left = np.concatenate([left, pad], 0)
    pair = np.concatenate([left, np.full((left.shape[0], 16, 3), 255, np.uint8), right], 1)
    cv2.imwrite(str(HERE / "before-after.jpg"), pair, [cv2.IMWRITE_JPEG_QUALITY, 85])
    synthetic = solve_photo(str(HERE / "synthetic-photo.jpg"), engine="cnn", write=False)
    assert synthetic.image is not None
    cv2.imwrite(str(HERE / "synthetic-solved.jpg"), synthetic.image, [cv2.IMWRITE_JPEG_QUALITY, 85])


if __name__ == "__main__":
    main()
