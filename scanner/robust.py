"""Robust spread: a normal sample's standard deviation, estimated from a median.

A digit remnant, a stray line or a handful of cells in another ink would drag a plain
standard deviation far off; the median of the absolute deviations is not moved by
them, and for a normal sample it is 0.6745 of the standard deviation.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

# 1 / 0.6745: the median absolute deviation of a normal sample to its standard deviation.
MAD_TO_SD = 1.4826


def robust_sd(deviations: npt.ArrayLike) -> float:
    """The spread of ``deviations`` (from a centre, of either sign, or distances) as a
    normal's standard deviation: ``MAD_TO_SD`` times their median absolute value."""
    return MAD_TO_SD * float(np.median(np.abs(np.asarray(deviations))))
