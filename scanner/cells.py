"""Cut the 81 cells out of a photo, each through its own four lattice corners."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from scanner.geometry import GridGeometry, median_cell
from scanner.load import to_gray

__all__ = ["extract_cells", "extract_colour_cells"]

UInt8Array = npt.NDArray[np.uint8]


def extract_cells(gray: npt.ArrayLike, geometry: GridGeometry, *, size: int = 64) -> UInt8Array:
    """Warp every cell of the grid to a ``size`` x ``size`` square.

    Parameters
    ----------
    gray : (H, W) uint8 array
        The upright photo the lattice refers to (BGR (H, W, 3) is converted).
    geometry : GridGeometry
        The grid's lattice in this image's pixels.
    size : int
        Side of each output cell in pixels.

    Returns
    -------
    (81, size, size) uint8 array
        Cells row by row (``cells[9 * row + col]``), plain grayscale, dark ink on light
        paper. Each spans its cell from line centre to line centre, so its borders show
        half of the grid lines around it. Parts outside the photo repeat its edge pixels.
    """
    return _warp_cells(to_gray(np.asarray(gray)), geometry, size)


def extract_colour_cells(
    image: npt.ArrayLike, geometry: GridGeometry, *, size: int = 64
) -> UInt8Array:
    """:func:`extract_cells` of each channel of a BGR (H, W, 3) image: (81, size, size, 3).

    One warp per cell for the three channels, each channel's pixels exactly those of
    ``extract_cells`` of that channel alone.
    """
    img = np.asarray(image)
    if img.ndim != 3 or img.shape[2] != 3 or img.dtype != np.uint8:
        raise ValueError(f"expected a (H, W, 3) uint8 image, got {img.dtype} {img.shape}")
    return _warp_cells(img, geometry, size)


def _warp_cells(img: UInt8Array, geometry: GridGeometry, size: int) -> UInt8Array:
    """The cells (81, size, size[, C]) of a gray or many-channel image."""
    if size < 4:
        raise ValueError(f"size must be at least 4, got {size}")
    lattice = np.asarray(geometry.lattice, dtype=np.float64)
    # Work on a crop around the grid, shrunk when its cells are much larger than the
    # output: a perspective warp samples without low-pass filtering, so downsampling a
    # 12 MP photo by 5x straight through it would alias digit strokes.
    h, w = img.shape[:2]
    x0 = max(int(np.floor(lattice[..., 0].min())) - 2, 0)
    y0 = max(int(np.floor(lattice[..., 1].min())) - 2, 0)
    x1 = min(int(np.ceil(lattice[..., 0].max())) + 3, w)
    y1 = min(int(np.ceil(lattice[..., 1].max())) + 3, h)
    if x1 <= x0 or y1 <= y0:
        raise ValueError("the lattice lies outside the image")
    crop = img[y0:y1, x0:x1]
    pts = lattice - (x0, y0)
    cell = median_cell(lattice)
    shrink = size * 1.5 / cell
    if shrink < 0.75:
        crop = np.asarray(
            cv2.resize(crop, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA), np.uint8
        )
        # Pixel-centre coordinates scale about -0.5.
        pts = (pts + 0.5) * shrink - 0.5
    # Pad with replicated edges so cells at a photo border are still full squares.
    pad = int(np.ceil(max(0.0, -pts.min()))) + 2
    pad = max(pad, int(np.ceil(pts[..., 0].max() - crop.shape[1])) + 2)
    pad = max(pad, int(np.ceil(pts[..., 1].max() - crop.shape[0])) + 2)
    src = cv2.copyMakeBorder(crop, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    pts = (pts + pad).astype(np.float32)
    # Output pixel centres 0..size-1 span the cell, so corner pixels sit on line centres.
    dst = np.array([[0, 0], [size - 1, 0], [size - 1, size - 1], [0, size - 1]], np.float32)
    out = np.empty((81, size, size, *img.shape[2:]), dtype=np.uint8)
    for r in range(9):
        for c in range(9):
            quad = np.array([pts[r, c], pts[r, c + 1], pts[r + 1, c + 1], pts[r + 1, c]])
            m = cv2.getPerspectiveTransform(quad, dst)
            out[9 * r + c] = cv2.warpPerspective(
                src, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
    return out
