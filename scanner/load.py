"""Read a photo from disk (or take an array) and turn it upright.

Phones store pixels in sensor order and record how to turn them in the EXIF
``Orientation`` tag; everything downstream works on the *upright* image, but the CLI
reports positions "in the photo's pixels as stored", so :class:`LoadedImage` keeps what
is needed to map upright coordinates back (:meth:`LoadedImage.to_stored`).

Big JPEGs are decoded at 1/2, 1/4 or 1/8 scale straight from the DCT coefficients
(Pillow's ``draft``) when the caller asks for ``max_side``: a 12 MP photo then costs a
few tens of milliseconds instead of a full decode plus a resize.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image, UnidentifiedImageError

from solver.errors import InputFileError, NoGridError

__all__ = ["MIN_SIDE", "LoadedImage", "load_image", "to_gray"]

UInt8Array = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]

#: Smallest short side (pixels, as stored) of a photo that can hold a readable Sudoku.
MIN_SIDE = 200

# What ``ImageOps.exif_transpose`` does for each EXIF orientation value.
_EXIF_TRANSPOSE: dict[int, Image.Transpose] = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}


def _upright_to_decoded(points: FloatArray, orientation: int, size: tuple[int, int]) -> FloatArray:
    """Undo the EXIF transpose on pixel-centre coordinates.

    ``size`` is the ``(width, height)`` of the decoded image *before* the transpose.
    Each branch is the inverse of the corresponding Pillow transpose, written with pixel
    centres at integers (so a flip maps ``x`` to ``w - 1 - x``).
    """
    w, h = size
    x, y = points[:, 0], points[:, 1]
    if orientation == 2:  # x' = w-1-x
        sx, sy = w - 1 - x, y
    elif orientation == 3:  # x' = w-1-x, y' = h-1-y
        sx, sy = w - 1 - x, h - 1 - y
    elif orientation == 4:  # y' = h-1-y
        sx, sy = x, h - 1 - y
    elif orientation == 5:  # transpose: x' = y, y' = x
        sx, sy = y, x
    elif orientation == 6:  # rotate 270 (clockwise): x' = h-1-y, y' = x
        sx, sy = y, h - 1 - x
    elif orientation == 7:  # transverse: x' = h-1-y, y' = w-1-x
        sx, sy = w - 1 - y, h - 1 - x
    elif orientation == 8:  # rotate 90 (counter-clockwise): x' = y, y' = w-1-x
        sx, sy = w - 1 - y, x
    else:
        sx, sy = x, y
    return np.stack([sx, sy], axis=1).astype(np.float64)


@dataclass(frozen=True)
class LoadedImage:
    """An upright photo and the way back to the pixels as stored in the file.

    Attributes
    ----------
    image : (H, W) or (H, W, 3) uint8 array
        The upright image (EXIF orientation applied), gray or BGR. It may be a reduced
        copy of the stored pixels when ``load_image`` was given ``max_side``.
    stored_size : (int, int)
        ``(width, height)`` of the image as stored in the file, before any EXIF turn.
    orientation : int
        EXIF orientation value (1-8) that was applied; 1 means none.
    transpose : PIL.Image.Transpose or None
        The Pillow transpose that turned the stored pixels upright (None for none).
    decoded_size : (int, int)
        ``(width, height)`` of the decoded pixels before the EXIF turn: the stored size,
        or less when the decoder reduced it.
    reduction : int
        Stored pixels per decoded pixel along each axis (1, or the decode-time reduction).
    name : str
        How the image is named in error messages (the path as given, or ``"image"``).
    """

    image: UInt8Array
    stored_size: tuple[int, int]
    orientation: int
    transpose: Image.Transpose | None
    decoded_size: tuple[int, int]
    reduction: int
    name: str

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the upright image array."""
        return (int(self.image.shape[1]), int(self.image.shape[0]))

    @property
    def scale(self) -> float:
        """Upright-image pixels per stored pixel (1.0 unless reduced on decode)."""
        return 1.0 / self.reduction

    @cached_property
    def gray(self) -> UInt8Array:
        """The upright image as a (H, W) uint8 gray array (computed once)."""
        return to_gray(self.image)

    def to_stored(self, points: npt.ArrayLike) -> FloatArray:
        """Map upright-image pixel coordinates to the stored photo's pixel coordinates.

        Parameters
        ----------
        points : (N, 2) array_like
            ``(x, y)`` positions in :attr:`image` (pixel centres at integers).

        Returns
        -------
        (N, 2) float array
            The same positions in the file's stored pixel grid (full resolution, before
            the EXIF turn).
        """
        pts = np.atleast_2d(np.asarray(points, dtype=np.float64)).reshape(-1, 2)
        dec = _upright_to_decoded(pts, self.orientation, self.decoded_size)
        # Undo decode-time reduction: decoded pixel i covers stored pixels [i*f, (i+1)*f).
        f = float(self.reduction)
        return (dec + 0.5) * f - 0.5


def to_gray(image: npt.ArrayLike) -> UInt8Array:
    """Return a (H, W) uint8 gray copy (or view) of a gray, BGR or BGRA uint8 image."""
    import cv2

    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise ValueError(f"expected a uint8 image, got dtype {arr.dtype}")
    if arr.ndim == 2:
        return arr
    if arr.ndim == 3 and arr.shape[2] == 1:
        return arr[:, :, 0]
    if arr.ndim == 3 and arr.shape[2] == 3:
        return np.asarray(cv2.cvtColor(arr, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    if arr.ndim == 3 and arr.shape[2] == 4:
        return np.asarray(cv2.cvtColor(arr, cv2.COLOR_BGRA2GRAY), dtype=np.uint8)
    raise ValueError(f"expected a (H, W) or (H, W, 3) image, got shape {arr.shape}")


def _to_array(img: Image.Image, *, gray: bool) -> UInt8Array:
    """Pillow image of any mode -> uint8 gray (H, W) or BGR (H, W, 3) array."""
    mode = img.mode
    if mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        # 16-bit / float scans: stretch to 8 bits (their range is arbitrary).
        a = np.asarray(img, dtype=np.float64)
        lo, hi = float(a.min()), float(a.max())
        a = (a - lo) * (255.0 / (hi - lo)) if hi > lo else np.zeros_like(a)
        return np.asarray(np.clip(a + 0.5, 0, 255), dtype=np.uint8)
    if mode in ("RGBA", "LA", "PA") or (mode == "P" and "transparency" in img.info):
        # Transparent pixels become white paper rather than whatever colour they hide.
        rgba = img.convert("RGBA")
        bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        img = Image.alpha_composite(bg, rgba).convert("RGB")
        mode = "RGB"
    if gray or mode in ("L", "1"):
        return np.asarray(img.convert("L"), dtype=np.uint8)
    rgb = np.asarray(img.convert("RGB"), dtype=np.uint8)
    return np.ascontiguousarray(rgb[:, :, ::-1])


def _check_size(size: tuple[int, int], name: str, min_side: int) -> None:
    if min(size) < min_side:
        raise NoGridError(
            f"{name}: image too small ({size[0]}x{size[1]} px); a readable Sudoku photo "
            f"needs at least {min_side} px on its short side"
        )


def load_image(
    source: str | os.PathLike[str] | npt.ArrayLike,
    *,
    max_side: int | None = None,
    gray: bool = False,
    min_side: int = MIN_SIDE,
) -> LoadedImage:
    """Read a photo (JPEG, PNG, WebP, TIFF, BMP, ...) and turn it upright.

    Parameters
    ----------
    source : path or array_like
        A file path, or an image array already in memory: (H, W) gray or (H, W, 3)
        BGR uint8 (taken as upright, no EXIF).
    max_side : int, optional
        When given, the image may be decoded smaller, but never with its long side
        under ``max_side``: JPEGs by DCT scaling (1/2, 1/4, 1/8), other formats by an
        integer box reduction. :meth:`LoadedImage.to_stored` still maps to the stored
        full-resolution pixels.
    gray : bool
        Return a (H, W) gray image instead of BGR (JPEGs then decode straight to gray).
    min_side : int
        Smallest accepted short side, in stored pixels.

    Returns
    -------
    LoadedImage

    Raises
    ------
    InputFileError
        Missing file, a directory, no permission, not an image, or a truncated/corrupt
        file: one line naming the file.
    NoGridError
        The image is smaller than ``min_side`` on its short side.
    """
    if not isinstance(source, (str, os.PathLike)):
        arr = np.asarray(source)
        if arr.dtype != np.uint8 or arr.ndim not in (2, 3):
            raise ValueError(
                f"expected a uint8 (H, W) or (H, W, 3) array, got {arr.dtype} {arr.shape}"
            )
        if gray:
            arr = to_gray(arr)
        elif arr.ndim == 3 and arr.shape[2] == 4:
            import cv2

            arr = np.asarray(cv2.cvtColor(arr, cv2.COLOR_BGRA2BGR), dtype=np.uint8)
        size = (int(arr.shape[1]), int(arr.shape[0]))
        _check_size(size, "image", min_side)
        return LoadedImage(arr, size, 1, None, size, 1, "image")

    path = Path(source)
    name = str(source)
    if not path.exists():
        raise InputFileError(f"{name}: no such file")
    if path.is_dir():
        raise InputFileError(f"{name}: is a directory, not an image file")
    try:
        with Image.open(path) as img:
            stored_size = (int(img.size[0]), int(img.size[1]))
            orientation = int(img.getexif().get(0x0112, 1) or 1)
            if orientation not in range(1, 9):
                orientation = 1
            _check_size(stored_size, name, min_side)
            if max_side is not None and img.format == "JPEG":
                # Reduce on decode: draft picks the largest DCT scale that keeps the
                # image at least as big as asked (long side >= max_side).
                f = max(stored_size) / max_side
                want = (
                    max(1, int(np.ceil(stored_size[0] / f))),
                    max(1, int(np.ceil(stored_size[1] / f))),
                )
                img.draft("L" if gray else "RGB", want)
            img.load()  # force the full decode now: truncation raises here
            decoded: Image.Image = img
            # DCT scaling rounds the size up, so the factor is exactly a power of two.
            reduction = max(1, round(stored_size[0] / img.size[0]))
            if max_side is not None and reduction == 1:
                factor = int(max(img.size) // max_side)
                if factor >= 2:
                    # Box reduction by an integer factor (size rounded up, like DCT scaling).
                    decoded = img.reduce(factor)
                    reduction = factor
            decoded_size = (int(decoded.size[0]), int(decoded.size[1]))
            transpose = _EXIF_TRANSPOSE.get(orientation)
            upright = decoded.transpose(transpose) if transpose is not None else decoded
            array = _to_array(upright, gray=gray)
    except PermissionError:
        raise InputFileError(f"{name}: cannot read (permission denied)") from None
    except UnidentifiedImageError:
        if path.stat().st_size == 0:
            raise InputFileError(f"{name}: empty file, not an image") from None
        raise InputFileError(f"{name}: not an image (cannot identify image file)") from None
    except Image.DecompressionBombError as exc:
        raise InputFileError(f"{name}: image too large to read safely ({exc})") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        msg = str(exc)
        if "truncated" in msg.lower() or isinstance(exc, EOFError):
            raise InputFileError(f"{name}: truncated image file") from None
        raise InputFileError(f"{name}: corrupt image data ({msg})") from None
    return LoadedImage(array, stored_size, orientation, transpose, decoded_size, reduction, name)
