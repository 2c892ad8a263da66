"""Readers for the reference photo sets' ground truth: ``imageN.dat`` and ``outlines.csv``."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import numpy.typing as npt


def read_truth(path: Path) -> list[int]:
    """Givens (81,) of a ``.dat`` file: its last 9 non-empty lines, 0 = empty.

    The first lines (phone model, a format note) vary and are ignored.
    """
    lines = [ln for ln in path.read_text(errors="replace").splitlines() if ln.strip()]
    values = [int(tok) for ln in lines[-9:] for tok in ln.split()]
    if len(values) != 81:
        raise ValueError(f"{path}: expected 81 values, got {len(values)}")
    return values


def read_outlines(folder: Path) -> dict[str, npt.NDArray[np.float64]]:
    """Hand-marked outer grid corners (4, 2) TL, TR, BR, BL per photo name, from
    ``folder/outlines.csv`` (``image,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y``)."""
    out: dict[str, npt.NDArray[np.float64]] = {}
    with (folder / "outlines.csv").open(newline="") as fh:
        for row in csv.DictReader(fh):
            xy = [float(row[f"{k}_{a}"]) for k in ("tl", "tr", "br", "bl") for a in ("x", "y")]
            out[row["image"]] = np.asarray(xy, dtype=np.float64).reshape(4, 2)
    return out
