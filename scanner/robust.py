"""Robust spread, and exact percentiles of many small groups at once.

A digit remnant, a stray line or a handful of cells in another ink would drag a plain
standard deviation far off; the median of the absolute deviations is not moved by
them, and for a normal sample it is 0.6745 of the standard deviation.

The reader takes percentiles of every cell of every photo (its paper, its darkest ink,
its ink's colour): one call of ``np.percentile`` per cell costs more in overhead than
in counting. ``row_percentiles``, ``group_medians`` and ``group_percentile`` take them
for all cells at once, from histograms of 8-bit levels or one sort, and interpolate
between ranks as numpy's default method does, so the numbers are numpy's to the bit
(tests/test_quality.py compares them).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

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
        a = _level_at_rank(below, np.full(n, lower))
        b = _level_at_rank(below, np.full(n, upper))
        t = index - np.floor(index) if index < m - 1 else 0.0
        out[k] = _numpy_lerp(a, b, np.float64(t))
    return out


def group_medians(levels: npt.NDArray[np.uint8], sizes: npt.NDArray[np.intp]) -> FloatArray:
    """``np.median`` (N,) of each of N groups of 8-bit levels, exactly (NaN for none).

    ``levels`` (K,) holds group 0's ``sizes[0]`` levels, then group 1's, and so on. One
    histogram per group, as in :func:`row_percentiles`; numpy's median of an even count
    is the mean of its two middle values, which is exact for integer levels.
    """
    if levels.dtype != np.uint8:
        raise TypeError(f"group_medians takes 8-bit levels, not {levels.dtype}")
    n = len(sizes)
    owner = np.repeat(np.arange(n, dtype=np.intp), sizes)
    counts = np.bincount(owner * 256 + levels, minlength=256 * n).reshape(n, 256)
    below = np.cumsum(counts, axis=1)
    lower = _level_at_rank(below, (sizes - 1) // 2)
    upper = _level_at_rank(below, sizes // 2)
    medians = np.where(sizes % 2 == 1, upper, (lower + upper) / 2)
    return np.asarray(np.where(sizes > 0, medians, np.nan), dtype=np.float64)


def group_percentile(values: FloatArray, sizes: npt.NDArray[np.intp], q: float) -> FloatArray:
    """``np.percentile`` (N,) of each of N groups of values at ``q``, exactly.

    ``values`` (K,) holds group 0's ``sizes[0]`` values, then group 1's, and so on; every
    group has at least one. One sort of all of them instead of a call per group.
    """
    if len(sizes) == 0:
        return np.zeros(0)
    if int(np.min(sizes)) < 1:
        raise ValueError("a percentile of an empty group")
    owner = np.repeat(np.arange(len(sizes), dtype=np.intp), sizes)
    ranked = np.asarray(values, dtype=np.float64)[np.lexsort((values, owner))]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    index = (sizes - 1) * (np.float64(q) / 100)  # numpy's virtual index
    lower = np.floor(index)
    last = index >= sizes - 1
    a = ranked[starts + np.where(last, sizes - 1, lower).astype(np.intp)]
    b = ranked[starts + np.where(last, sizes - 1, lower + 1).astype(np.intp)]
    return _numpy_lerp(a, b, index - lower)


def _level_at_rank(below: npt.NDArray[np.intp], ranks: npt.NDArray[np.intp]) -> FloatArray:
    """The level (N,) of 0-based rank ``ranks[r]`` in each row's cumulative histogram
    ``below`` (N, 256): how many levels have no more than that many values at or below."""
    return np.asarray((below <= ranks[:, None]).sum(axis=1), dtype=np.float64)


def _numpy_lerp(a: FloatArray, b: FloatArray, t: FloatArray | np.float64) -> FloatArray:
    """Between neighbouring ranks ``a`` and ``b`` at ``t``, as numpy's percentile does it:
    from ``a`` below one half, back from ``b`` from one half up (so the same bits)."""
    return np.asarray(np.where(t >= 0.5, b - (b - a) * (1 - t), a + (b - a) * t), dtype=np.float64)
