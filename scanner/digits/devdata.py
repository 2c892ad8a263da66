"""Development data: ground-truth cell crops from the reference photos.

Used by training, tests and the benchmark only, never by the product: the product gets
its cells from the grid finder. Cells here are cut along the *flat* lattice spanned by
the hand-marked outer corners, so on bent pages they are off by up to ~10-15% of a cell,
which the classifier is trained to tolerate.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image

from scanner import truth
from scanner.geometry import GridGeometry

CELL_SIZE = 64

# ``../shared/data`` beside the repository root (see the data README).
DATA_DIR = Path(__file__).resolve().parents[3] / "shared" / "data"
PHOTO_DIR = DATA_DIR / "photos" / "wicht-train"


@dataclass(frozen=True)
class PhotoCells:
    """The 81 cells of one reference photo and their ground truth.

    Attributes
    ----------
    name : str
        File name of the photo, e.g. ``image12.jpg``.
    cells : (81, 64, 64) uint8 array
        Grayscale cells, row by row.
    truth : (81,) int array
        Printed digit of each cell, 0 for an empty cell.
    image_size : (int, int)
        ``(width, height)`` of the upright photo.
    """

    name: str
    cells: npt.NDArray[np.uint8]
    truth: npt.NDArray[np.int64]
    image_size: tuple[int, int]

    @property
    def puzzle_key(self) -> str:
        """The ground-truth grid as an 81-character string: photos of one puzzle share it."""
        return "".join(str(int(v)) for v in self.truth)

    @property
    def held_out(self) -> bool:
        """Whether this photo's puzzle is kept out of training (see `is_held_out`)."""
        return is_held_out(self.puzzle_key)


def is_held_out(puzzle_key: str) -> bool:
    """Split puzzles (not photos) into training and held-out halves.

    Many photos show one puzzle from different angles; splitting by puzzle keeps every
    photo of a held-out puzzle out of training. A hash of the grid decides, so the split
    needs no list of the puzzles and holds for any new photo set.
    """
    return hashlib.sha256(puzzle_key.encode()).digest()[0] % 2 == 1


def read_truth(path: Path) -> npt.NDArray[np.int64]:
    """Ground truth (81,) of an ``imageN.dat`` file, as an array."""
    return np.asarray(truth.read_truth(path), dtype=np.int64)


def read_outlines(photo_dir: Path = PHOTO_DIR) -> dict[str, npt.NDArray[np.float64]]:
    """Outer grid corners (4, 2) TL, TR, BR, BL per photo name, from ``outlines.csv``."""
    return truth.read_outlines(photo_dir)


# EXIF orientation -> index (in TL, TR, BR, BL order of the displayed image) of the corner
# where the raw image's top-left ends up: 6 = turned 90 deg clockwise, 3 = 180, 8 = 90 ccw.
_GRID_TL_AT = {6: 1, 3: 2, 8: 3}


def _exif_orientation(path: Path) -> int:
    """EXIF orientation tag of a JPEG (1 when absent)."""
    with Image.open(path) as im:
        return int(im.getexif().get(274, 1))


def warp_cells(
    gray: npt.NDArray[np.uint8], geometry: GridGeometry, *, size: int = CELL_SIZE
) -> npt.NDArray[np.uint8]:
    """Warp each cell quad of ``geometry`` to a ``size`` x ``size`` square.

    Parameters
    ----------
    gray : (H, W) uint8 array
        The upright photo in grayscale.
    geometry : GridGeometry
        Lattice of the grid in ``gray``.
    size : int
        Side of the output cells in pixels.

    Returns
    -------
    (81, size, size) uint8 array
        The cells row by row, each spanning its four lattice corners.
    """
    dst = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float32)
    cells = np.empty((81, size, size), dtype=np.uint8)
    for r in range(9):
        for c in range(9):
            quad = geometry.cell_quad(r, c).astype(np.float32)
            m = cv2.getPerspectiveTransform(quad, dst)
            cells[r * 9 + c] = cv2.warpPerspective(
                gray, m, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
            )
    return cells


def grid_corners(
    name: str, corners: npt.ArrayLike, *, photo_dir: Path = PHOTO_DIR
) -> npt.NDArray[np.float64]:
    """The outline corners (4, 2) reordered to start at the *grid's* top-left.

    Some photos carry an EXIF rotation although the page was upright in the raw pixels:
    the outlines are marked in the rotated (upright-by-EXIF) frame, where the grid then
    lies on its side. Starting the corner list at the grid's own top-left makes the
    cells come out upright, matching the ground truth.
    """
    shift = _GRID_TL_AT.get(_exif_orientation(photo_dir / name), 0)
    return np.roll(np.asarray(corners, dtype=np.float64).reshape(4, 2), -shift, axis=0)


def load_photo(
    name: str, corners: npt.NDArray[np.float64], *, photo_dir: Path = PHOTO_DIR
) -> PhotoCells:
    """Cells and ground truth of one photo, cut along the flat lattice of ``corners``."""
    # cv2.imread applies the EXIF orientation, the frame the outlines are marked in.
    raw = cv2.imread(str(photo_dir / name), cv2.IMREAD_GRAYSCALE)
    if raw is None:
        raise FileNotFoundError(photo_dir / name)
    gray: npt.NDArray[np.uint8] = np.asarray(raw, dtype=np.uint8)
    h, w = gray.shape
    geometry = GridGeometry.from_corners(grid_corners(name, corners, photo_dir=photo_dir), (w, h))
    truth = read_truth(photo_dir / name.replace(".jpg", ".dat"))
    return PhotoCells(name, warp_cells(gray, geometry), truth, (w, h))


def load_photos(photo_dir: Path = PHOTO_DIR) -> list[PhotoCells]:
    """Every photo that has an outline, sorted by name (empty if the data is absent)."""
    if not (photo_dir / "outlines.csv").is_file():
        return []
    outlines = read_outlines(photo_dir)
    return [
        load_photo(name, outlines[name], photo_dir=photo_dir)
        for name in sorted(outlines)
        if (photo_dir / name).is_file()
    ]


MIXED_DIR = DATA_DIR / "photos" / "wicht-mixed-train"


@dataclass(frozen=True)
class MixedCells:
    """The 81 cells of a photo with handwriting in every empty cell, and their truth.

    Attributes
    ----------
    name : str
        File name, e.g. ``image12.jpg`` (the same photo as in ``wicht-train``, with
        handwritten digits pasted into its empty cells).
    cells : (81, 64, 64) uint8 array
        Grayscale cells, row by row, cut along ``wicht-train``'s outline of the photo.
    digits : (81,) int array
        Every cell's digit (printed or handwritten).
    printed : (81,) int array
        The printed givens only (0 where the digit is handwritten).
    """

    name: str
    cells: npt.NDArray[np.uint8]
    digits: npt.NDArray[np.int64]
    printed: npt.NDArray[np.int64]

    @property
    def held_out(self) -> bool:
        """Kept out of training: the same split (by printed puzzle) as `PhotoCells`."""
        return is_held_out("".join(str(int(v)) for v in self.printed))

    @property
    def handwritten(self) -> npt.NDArray[np.bool_]:
        """(81,) which cells hold the person's digit."""
        return (self.printed == 0) & (self.digits > 0)


# EXIF orientation -> the turn that shows a raw image upright (what cv2.imread applies).
_UPRIGHT = {6: cv2.ROTATE_90_CLOCKWISE, 3: cv2.ROTATE_180, 8: cv2.ROTATE_90_COUNTERCLOCKWISE}


def load_mixed_image(
    name: str, *, mixed_dir: Path = MIXED_DIR, flags: int = cv2.IMREAD_COLOR
) -> npt.NDArray[np.uint8] | None:
    """A mixed photo's pixels in its ``wicht-train`` twin's frame (None if unreadable).

    The mixed JPEGs carry no EXIF orientation while some twins do: their pixels are the
    twin's raw pixels, so the twin's turn is applied here to match the frame its
    outline was marked in.
    """
    raw = cv2.imread(str(mixed_dir / name), flags | cv2.IMREAD_IGNORE_ORIENTATION)
    if raw is None:
        return None
    turn = (
        _UPRIGHT.get(_exif_orientation(PHOTO_DIR / name)) if (PHOTO_DIR / name).is_file() else None
    )
    image = cv2.rotate(raw, turn) if turn is not None else raw
    return np.asarray(image, dtype=np.uint8)


def load_mixed_photos(mixed_dir: Path = MIXED_DIR) -> list[MixedCells]:
    """Every mixed photo whose ``wicht-train`` twin has an outline (empty if absent).

    The mixed photos are the training photos' pixels with handwriting pasted in, so the
    twin's hand-marked corners fit them (in the twin's frame: `load_mixed_image`).
    """
    if not (PHOTO_DIR / "outlines.csv").is_file() or not mixed_dir.is_dir():
        return []
    outlines = read_outlines(PHOTO_DIR)
    out: list[MixedCells] = []
    for name in sorted(outlines):
        path = mixed_dir / name
        if not path.is_file():
            continue
        gray = load_mixed_image(name, mixed_dir=mixed_dir, flags=cv2.IMREAD_GRAYSCALE)
        twin = cv2.imread(str(PHOTO_DIR / name), cv2.IMREAD_GRAYSCALE)
        if gray is None or twin is None or gray.shape != twin.shape:
            continue  # not the twin's frame: its outline would not fit
        h, w = gray.shape
        corners = grid_corners(name, outlines[name], photo_dir=PHOTO_DIR)
        geometry = GridGeometry.from_corners(corners, (w, h))
        digits = read_truth(path.with_suffix(".dat"))
        printed = read_truth(mixed_dir / name.replace(".jpg", ".printed.dat"))
        out.append(MixedCells(name, warp_cells(gray, geometry), digits, printed))
    return out
