"""Where the grid lies in the photo: the lattice of line intersections.

The lattice maps grid coordinates to photo pixels. Grid coordinates ``(u, v)`` run from
0 to 9: ``u`` along a row (left to right, the column index), ``v`` down the columns
(top to bottom, the row index); cell ``(row, col)`` spans ``[col, col + 1] x [row, row + 1]``.
Each cell is mapped through the projective transform of its own four lattice corners, so
a bent page or lens distortion moves each cell with the print instead of a single
four-corner warp.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def _homography(src: FloatArray, dst: FloatArray) -> FloatArray:
    """3x3 projective transform taking the 4 points ``src`` (4, 2) onto ``dst`` (4, 2)."""
    rows = []
    rhs = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.extend([u, v])
    try:
        h = np.linalg.solve(np.asarray(rows, dtype=np.float64), np.asarray(rhs, dtype=np.float64))
    except np.linalg.LinAlgError:
        raise ValueError("the four corners span no quadrilateral (three lie on one line)") from None
    return np.append(h, 1.0).reshape(3, 3)


def median_cell(lattice: npt.ArrayLike) -> float:
    """The typical cell side (pixels) of a lattice (10, 10, 2): the median length of the
    steps between neighbouring crossings along the rows."""
    lat = np.asarray(lattice, dtype=np.float64)
    return float(np.median(np.linalg.norm(np.diff(lat, axis=1), axis=-1)))


def mirrored_geometry(geometry: GridGeometry) -> GridGeometry:
    """The lattice of ``geometry`` in its image mirrored left to right: each point's x
    taken from the right edge, and the columns in the mirror's order (the first
    column on the left again)."""
    lat = geometry.lattice[:, ::-1].copy()
    lat[..., 0] = geometry.image_size[0] - 1 - lat[..., 0]
    return GridGeometry(lat, geometry.image_size)


@dataclass(frozen=True)
class GridGeometry:
    """The lattice of a Sudoku grid in a photo.

    Parameters
    ----------
    lattice : (10, 10, 2) float array
        ``lattice[i, j]`` is the ``(x, y)`` pixel position, in the upright image (EXIF
        orientation applied), of the intersection of horizontal line ``i`` (0 = top edge)
        and vertical line ``j`` (0 = left edge).
    image_size : (int, int)
        ``(width, height)`` of the upright image the lattice refers to.
    """

    lattice: FloatArray
    image_size: tuple[int, int]
    _cell_h: list[FloatArray] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        lat = np.asarray(self.lattice, dtype=np.float64)
        if lat.shape != (10, 10, 2):
            raise ValueError(f"lattice must have shape (10, 10, 2), got {lat.shape}")
        if not np.all(np.isfinite(lat)):
            raise ValueError("lattice holds non-finite coordinates")
        object.__setattr__(self, "lattice", lat)

    @classmethod
    def from_corners(cls, corners: npt.ArrayLike, image_size: tuple[int, int]) -> GridGeometry:
        """A flat lattice spanned by four outer corners (4, 2): TL, TR, BR, BL.

        Raises
        ------
        ValueError
            Where three of the corners lie on one line.
        """
        quad = np.asarray(corners, dtype=np.float64).reshape(4, 2)
        for k in range(4):  # each corner's triangle with the next two
            a, b, c = quad[k], quad[(k + 1) % 4], quad[(k + 2) % 4]
            area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
            if abs(area) < 1e-9 * max(1.0, float(np.ptp(quad)) ** 2):
                raise ValueError("the four corners span no quadrilateral (three lie on one line)")
        square = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], dtype=np.float64)
        h = _homography(square, quad)
        jj, ii = np.meshgrid(np.arange(10.0), np.arange(10.0))
        pts = np.stack([jj.ravel(), ii.ravel(), np.ones(100)], axis=1) @ h.T
        lattice = (pts[:, :2] / pts[:, 2:3]).reshape(10, 10, 2)
        return cls(lattice, image_size)

    def corners(self) -> FloatArray:
        """The four outer corners (4, 2): top-left, top-right, bottom-right, bottom-left."""
        lat = self.lattice
        return np.array([lat[0, 0], lat[0, 9], lat[9, 9], lat[9, 0]])

    def cell_quad(self, row: int, col: int) -> FloatArray:
        """Corners (4, 2) of cell ``(row, col)``: TL, TR, BR, BL, in image pixels."""
        lat = self.lattice
        return np.array(
            [lat[row, col], lat[row, col + 1], lat[row + 1, col + 1], lat[row + 1, col]]
        )

    def cell_homography(self, row: int, col: int) -> FloatArray:
        """3x3 transform from grid coordinates ``(u, v)`` to image pixels, exact for that cell."""
        if not self._cell_h:
            unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
            for r in range(9):
                for c in range(9):
                    offset = np.array([c, r], dtype=np.float64)
                    self._cell_h.append(_homography(unit + offset, self.cell_quad(r, c)))
        return self._cell_h[row * 9 + col]

    def to_image(self, points: npt.ArrayLike) -> FloatArray:
        """Map grid coordinates (N, 2) ``(u, v)`` in [0, 9] to image pixels (N, 2)."""
        pts = np.atleast_2d(np.asarray(points, dtype=np.float64))
        out = np.empty_like(pts)
        for k, (u, v) in enumerate(pts):
            col = min(max(int(np.floor(u)), 0), 8)
            row = min(max(int(np.floor(v)), 0), 8)
            h = self.cell_homography(row, col)
            x, y, w = h @ np.array([u, v, 1.0])
            out[k] = (x / w, y / w)
        return out

    def cell_center(self, row: int, col: int) -> FloatArray:
        """Image position (2,) of the centre of cell ``(row, col)``."""
        return self.to_image([[col + 0.5, row + 0.5]])[0]

    def cell_size(self, row: int, col: int) -> float:
        """Mean side length of cell ``(row, col)`` in image pixels."""
        q = self.cell_quad(row, col)
        return float(np.mean(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)))
