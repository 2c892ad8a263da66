"""Robust spread: a normal sample's standard deviation, estimated from a median.

A digit remnant, a stray line or a handful of cells in another ink would drag a plain
standard deviation far off; the median of the absolute deviations is not moved by
them, and for a normal sample it is 0.6745 of the standard deviation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

# 1 / 0.6745: the median absolute deviation of a normal sample to its standard deviation.
MAD_TO_SD = 1.4826


def robust_sd(deviations: npt.ArrayLike) -> float:
    """The spread of ``deviations`` (from a centre, of either sign, or distances) as a
    normal's standard deviation: ``MAD_TO_SD`` times their median absolute value."""
    return MAD_TO_SD * float(np.median(np.abs(np.asarray(deviations))))


def row_percentiles(levels: npt.NDArray[np.uint8], q: Sequence[float]) -> npt.NDArray[np.float64]:
    """``np.percentile(levels, q, axis=1)`` (len(q), N) of 8-bit rows (N, M), exactly.

    From one histogram of each row instead of a partition per percentile: the cells'
    brightness percentiles are taken for every cell of every photo, and a partial sort
    of 81 rows of 4,096 pixels costs more than counting them. The value at each
    percentile's two neighbouring ranks is interpolated as numpy's default ("linear")
    does, both of its branches, so the results are numpy's to the bit.
    """
    if levels.dtype != np.uint8:
        raise TypeError(f"row_percentiles takes 8-bit levels, not {levels.dtype}")
    n, m = levels.shape
    if m == 0:
        raise ValueError("percentiles of empty rows")
    offsets = np.arange(n, dtype=np.intp)[:, None] * 256
    counts = np.bincount((levels + offsets).ravel(), minlength=256 * n).reshape(n, 256)
    below = np.cumsum(counts, axis=1)  # below[r, v]: pixels of row r at level v or less
    out = np.empty((len(q), n), dtype=np.float64)
    for k, p in enumerate(q):
        index = (m - 1) * (np.float64(p) / 100)  # numpy's virtual index
        lower = min(int(np.floor(index)), m - 1)
        upper = min(lower + 1, m - 1)
        # The level of rank r: how many levels hold no more than r pixels below them.
        a = (below <= lower).sum(axis=1).astype(np.float64)
        b = (below <= upper).sum(axis=1).astype(np.float64)
        t = index - np.floor(index) if index < m - 1 else 0.0
        out[k] = b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t
    return out
