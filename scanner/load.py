"""Read a photo from disk (or take an array) and turn it upright.

Phones store pixels in sensor order and record how to turn them in the EXIF
``Orientation`` tag; everything downstream works on the *upright* image, but the CLI
reports positions "in the photo's pixels as stored", so :class:`LoadedImage` keeps what
is needed to map upright coordinates back (:meth:`LoadedImage.to_stored`).

Formats: whatever Pillow reads (JPEG, PNG, WebP, TIFF, BMP, GIF, AVIF, ...) plus
HEIC/HEIF (iPhone photos) through pillow-heif's opener, registered once on import. Every
pixel mode is accepted: 1-bit, palette, 16-bit and 32-bit integer or float gray
(stretched to 8 bits), CMYK, and images with transparency (laid on white paper).

Memory is bounded whatever the image (see :func:`load_image`):

* Big JPEGs are decoded at 1/2, 1/4 or 1/8 scale straight from the DCT coefficients
  (Pillow's ``draft``): a 12 MP photo then costs a few tens of milliseconds instead of a
  full decode plus a resize.
* Other formats are decoded once in their own mode (at most 4 bytes a pixel), then
  converted to 8-bit gray or BGR, box-reduced and turned upright strip by strip straight
  into the result array, so no full-size 8-bit, float or RGB copy is ever made.
* No image comes back larger than :data:`MAX_PIXELS` (50 MP): a larger one is reduced by
  the smallest integer factor that fits. That is the canvas ``solve`` and ``batch`` draw
  on, so their output image is at most that size too.
* Images up to Pillow's decompression-bomb limit (``2 * Image.MAX_IMAGE_PIXELS``, about
  179 MP) are read without Pillow's warning; larger ones are refused with one line.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import stat
import struct
import warnings
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt
from PIL import Image, UnidentifiedImageError

from solver.errors import InputFileError, describe_os_error, short_name

from .errors import ImageTooLargeError, NoGridError

__all__ = ["MAX_PIXELS", "MIN_SIDE", "LoadedImage", "frame_count", "load_image", "to_gray"]

UInt8Array = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]

#: Smallest short side (pixels, as stored) of a photo that can hold a readable Sudoku.
MIN_SIDE = 200

#: Most pixels :func:`load_image` returns by default (width x height of the upright
#: image): a 48 MP phone photo stays at full resolution, a bigger scan or poster is
#: reduced by an integer factor. It bounds the canvas ``solve``/``batch`` draw on, and so
#: their peak memory (about 10 bytes per canvas pixel, plus the decode of the file).
MAX_PIXELS = 50_000_000

# Pixels converted per strip when a decoded image is turned into the 8-bit result.
_STRIP_PIXELS = 4_000_000

try:  # HEIC/HEIF (iPhone photos): pillow-heif adds an opener to Pillow.
    from pillow_heif import register_heif_opener as _register_heif_opener
except ImportError:  # pragma: no cover - it is a declared dependency
    HEIF_SUPPORTED = False
else:
    _register_heif_opener()
    HEIF_SUPPORTED = True

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

# For each EXIF orientation, a view of the *upright* array laid out like the decoded
# (stored) pixels: writing the decoded rows into it turns them upright with no copy. Each
# is the inverse of the Pillow transpose above (np.rot90 with k=1 turns counter-clockwise).
_DECODED_VIEW: dict[int, Callable[[UInt8Array], UInt8Array]] = {
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1],
    5: lambda a: a.swapaxes(0, 1),
    6: lambda a: np.rot90(a, 1),
    7: lambda a: a.swapaxes(0, 1)[::-1, ::-1],
    8: lambda a: np.rot90(a, -1),
}

# How a whole file of these formats ends: JPEG's end-of-image marker, PNG's IEND chunk
# (with its fixed checksum). Such 8-bit colour files are decoded by OpenCV.
_END_MARKERS = {
    "JPEG": b"\xff\xd9",
    "MPO": b"\xff\xd9",
    "PNG": b"IEND\xaeB`\x82",
}
# Modes whose values are not 8-bit levels: stretched from their min..max to 0..255.
_WIDE_MODES = frozenset({"I;16", "I;16L", "I;16B", "I;16N", "I", "F"})
# Modes with an alpha channel: transparent pixels become white paper.
_ALPHA_MODES = frozenset({"RGBA", "LA", "PA", "La", "RGBa"})
# Modes read as gray (a single 8-bit channel) even when colour is asked for.
_GRAY_MODES = frozenset({"1", "L", "LA", "La"}) | _WIDE_MODES


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
        The upright image (EXIF orientation applied), gray or BGR: gray when asked for,
        and also when the file itself is gray (1-bit, 8/16-bit gray), to save memory. It
        may be a reduced copy of the stored pixels (``max_side``, ``max_pixels``).
    stored_size : (int, int)
        ``(width, height)`` of the image as stored in the file, before any EXIF turn.
    orientation : int
        EXIF orientation value (1-8) that was applied; 1 means none. For HEIC/HEIF the
        container's rotation/mirror (which libheif applies on decode) stands for it.
    transpose : PIL.Image.Transpose or None
        The Pillow transpose that turned the stored pixels upright (None for none).
    decoded_size : (int, int)
        ``(width, height)`` of the decoded pixels before the EXIF turn: the stored size,
        or less when the decoder reduced it.
    reduction : int
        Stored pixels per decoded pixel along each axis (1, or the decode-time reduction).
    name : str
        How the image is named in error messages (the path as given, or ``"image"``).
    mirrored : bool
        Whether :attr:`image` is the upright photo mirrored left to right: the page as it
        lies, where the photo shows it mirrored (a webcam's or a front camera's), see
        :meth:`mirror`.
    """

    image: UInt8Array
    stored_size: tuple[int, int]
    orientation: int
    transpose: Image.Transpose | None
    decoded_size: tuple[int, int]
    reduction: int
    name: str
    mirrored: bool = False

    def mirror(self) -> LoadedImage:
        """This photo mirrored left to right (:attr:`mirrored` flipped); :meth:`to_stored`
        still maps its pixels to the file's."""
        flipped = np.ascontiguousarray(self.image[:, ::-1])
        return replace(self, image=flipped, mirrored=not self.mirrored)

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
        if self.mirrored:
            pts = np.column_stack([self.size[0] - 1 - pts[:, 0], pts[:, 1]])
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


def _reduction(size: tuple[int, int], *, max_side: int | None, max_pixels: int | None) -> int:
    """The integer box reduction of pixels of ``size`` (w, h): what ``max_pixels`` needs,
    and more while the long side stays at least ``max_side`` (when given)."""
    factor = _fit_factor(size, max_pixels)
    if max_side is not None:
        factor = max(factor, int(max(size) // max_side))
    return factor


def _fit_factor(size: tuple[int, int], max_pixels: int | None) -> int:
    """Smallest integer ``f`` whose box reduction (size rounded up) has <= max_pixels."""
    w, h = size
    if max_pixels is None or w * h <= max_pixels:
        return 1
    f = max(2, math.isqrt(w * h // max(1, max_pixels)))
    while -(-w // f) * -(-h // f) > max_pixels:
        f += 1
    return f


def _jpeg_draft(
    img: Image.Image, *, max_side: int | None, max_pixels: int | None, gray: bool
) -> None:
    """Ask the JPEG decoder for a DCT-scaled decode (1/2, 1/4 or 1/8) where allowed.

    The scale is the largest that keeps the long side >= ``max_side`` (when given), but at
    least the smallest that brings the image under ``max_pixels``.
    """
    w, h = img.size
    scale = 1
    if max_side is not None:
        scale = max((s for s in (1, 2, 4, 8) if -(-max(w, h) // s) >= max_side), default=1)
    if max_pixels is not None:
        need = next((s for s in (1, 2, 4, 8) if -(-w // s) * -(-h // s) <= max_pixels), 8)
        scale = max(scale, need)
    # Pillow picks the largest scale s with size // request >= s: request size // scale.
    request = (max(1, w // scale), max(1, h // scale))
    img.draft("L" if gray else "RGB", request if scale > 1 else None)


def _eight_bit_strip(
    strip: Image.Image, *, target: str, wide_range: tuple[float, float] | None
) -> Image.Image:
    """A strip of any mode as an 8-bit ``target`` ("L" or "RGB") image."""
    if wide_range is not None:
        # 16/32-bit or float scans: stretch their range (which is arbitrary) to 8 bits.
        lo, hi = wide_range
        a = np.asarray(strip, dtype=np.float32)
        if hi > lo:
            a = (a - np.float32(lo)) * np.float32(255.0 / (hi - lo)) + np.float32(0.5)
            gray = np.clip(a, 0, 255).astype(np.uint8)
        else:
            gray = np.zeros(a.shape, np.uint8)
        out = Image.fromarray(gray)
        return out if target == "L" else out.convert(target)
    if strip.mode in _ALPHA_MODES or (strip.mode == "P" and "transparency" in strip.info):
        # Transparent pixels become white paper rather than whatever colour they hide.
        rgba = (strip.convert("LA") if strip.mode == "La" else strip).convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(paper, rgba).convert(target)
    if strip.mode == target:
        return strip
    try:
        return strip.convert(target)
    except ValueError:  # a mode Pillow cannot take straight to target (e.g. LAB -> L)
        return strip.convert("RGB").convert(target)


def _decode_to_array(
    img: Image.Image, *, gray: bool, factor: int, orientation: int | None
) -> UInt8Array:
    """The loaded Pillow image as a uint8 gray (H, W) or BGR (H, W, 3) array.

    The image is converted to 8 bits, box-reduced by ``factor`` and turned by the EXIF
    ``orientation`` (None: leave as decoded) one strip of rows at a time, each strip
    written straight into its place in the result, so the extra memory is one strip.
    """
    target = "L" if gray or img.mode in _GRAY_MODES else "RGB"
    wide_range: tuple[float, float] | None = None
    if img.mode in _WIDE_MODES:
        lo, hi = cast(tuple[float, float], img.getextrema())  # one band: (min, max)
        wide_range = (float(lo), float(hi))
    w, h = img.size
    out_w, out_h = -(-w // factor), -(-h // factor)
    turned = orientation in (5, 6, 7, 8)
    shape: tuple[int, ...] = (out_w, out_h) if turned else (out_h, out_w)
    if target == "RGB":
        shape = (*shape, 3)
    out: UInt8Array = np.empty(shape, np.uint8)
    view = _DECODED_VIEW[orientation](out) if orientation in _DECODED_VIEW else out
    # Strips hold a whole number of reduction boxes, so the result is exactly that of
    # reducing the whole image at once.
    rows = max(factor, _STRIP_PIXELS // max(1, w) // factor * factor)
    for y0 in range(0, h, rows):
        y1 = min(h, y0 + rows)
        # One strip is the whole image: no crop, which copies it (a third of the load).
        part = img if (y0, y1) == (0, h) else img.crop((0, y0, w, y1))
        strip = _eight_bit_strip(part, target=target, wide_range=wide_range)
        if factor > 1:
            strip = strip.reduce(factor)
        block = np.asarray(strip, dtype=np.uint8)
        dest = view[y0 // factor : y0 // factor + strip.size[1]]
        if target != "RGB":
            dest[...] = block
        elif not (dest.flags.c_contiguous and _rgb_to_bgr(block, dest)):
            dest[...] = block[:, :, ::-1]  # Pillow's RGB in OpenCV's BGR order
    return out


def _exif(img: Image.Image, raw: _FileBytes) -> tuple[Image.Exif, bool]:
    """The image's EXIF tags, and whether Pillow decoded its pixels to find them.

    Pillow's PNG plugin decodes the whole image before it looks for EXIF, since an
    ``eXIf`` chunk (or a text chunk of raw EXIF or XMP) may follow the pixels. Where no
    such chunk does and every chunk is whole, each one that counts was read on
    opening, and the tags come from them alone: a screenshot is decoded once, not
    twice. Otherwise Pillow looks, and a damaged file fails there with its message.
    """
    if img.format == "PNG" and _png_plain(raw.data):
        return Image.Image.getexif(img), False
    return img.getexif(), img.format == "PNG"


# PNG chunks that may hold EXIF or XMP tags (Pillow reads each into ``Image.info``).
_PNG_METADATA = frozenset({b"eXIf", b"tEXt", b"zTXt", b"iTXt"})


def _png_plain(data: bytes) -> bool:
    """Whether a PNG file's chunks are whole to its end (each checksum right) with no
    metadata chunk after its image data."""
    view = memoryview(data)
    at, seen_pixels = 8, False  # after the signature
    while at + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, at)
        if kind == b"IEND":
            return True
        seen_pixels = seen_pixels or kind == b"IDAT"
        if seen_pixels and kind in _PNG_METADATA:
            return False
        body = at + 8
        if body + length + 4 > len(data):
            return False  # a length past the file's end (truncated or damaged)
        checksum = int.from_bytes(view[body + length : body + length + 4])
        if zlib.crc32(view[body : body + length], zlib.crc32(kind)) != checksum:
            return False
        at = body + length + 4
    return False


class _FileBytes:
    """A file's bytes, read from disk at most once, when first asked for."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @cached_property
    def data(self) -> bytes:
        return self.path.read_bytes()


def _whole_colour_file(
    raw: _FileBytes, size: tuple[int, int], orientation: int, end: bytes
) -> UInt8Array | None:
    """An 8-bit colour JPEG or PNG read whole (no reduction) by OpenCV, BGR (H, W, 3),
    turned by the EXIF ``orientation``; None where Pillow must read it.

    The same libjpeg or zlib decode as Pillow's, to the pixel, written straight in
    OpenCV's channel order: without Pillow's copy of its pixels into an array and the
    swap of channels, a 1.9 MP photo loads in half the time, a 3 MP screenshot in two
    thirds (an MPO's first frame is what OpenCV decodes too). A file that does not close
    with its format's ``end`` (truncated, or padded after it) or that OpenCV cannot
    decode to ``size`` goes Pillow's way, whose errors name what is wrong.
    """
    import cv2

    data = raw.data
    if len(data) < 2 * len(end) or not data.endswith(end):
        return None
    decoded = cv2.imdecode(
        np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION
    )
    if decoded is None or decoded.shape != (size[1], size[0], 3):
        return None
    if orientation not in _DECODED_VIEW:
        return np.asarray(decoded, np.uint8)
    turned = orientation in (5, 6, 7, 8)
    out: UInt8Array = np.empty((size[0], size[1], 3) if turned else decoded.shape, np.uint8)
    _DECODED_VIEW[orientation](out)[...] = decoded
    return out


def _rgb_to_bgr(rgb: UInt8Array, dest: UInt8Array) -> bool:
    """Write ``rgb`` (H, W, 3) into the C-contiguous ``dest`` in BGR order (OpenCV's
    conversion, several times faster than numpy's strided copy); False if OpenCV
    wrote elsewhere, leaving ``dest`` to the caller."""
    import cv2

    written = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR, dst=dest)
    return bool(np.shares_memory(written, dest))


def _check_size(size: tuple[int, int], name: str, min_side: int) -> None:
    if min(size) < min_side:
        raise NoGridError(
            f"{name}: image too small ({size[0]}x{size[1]} px); a readable Sudoku photo "
            f"needs at least {min_side} px on its short side"
        )


def _too_large(name: str, exc: Exception) -> ImageTooLargeError:
    """The one-line error for an image over Pillow's decompression-bomb limit."""
    found = re.search(r"\((\d+) pixels\).*?limit of (\d+) pixels", str(exc))
    if found is None:
        return ImageTooLargeError(f"{name}: image too large to read safely ({exc})")
    pixels, limit = (int(g) for g in found.groups())
    return ImageTooLargeError(
        f"{name}: image too large to read safely ({pixels / 1e6:.0f} MP; "
        f"at most {limit / 1e6:.0f} MP, Pillow's decompression-bomb limit)"
    )


def load_image(
    source: str | os.PathLike[str] | npt.ArrayLike,
    *,
    max_side: int | None = None,
    max_pixels: int | None = MAX_PIXELS,
    gray: bool = False,
    min_side: int = MIN_SIDE,
    frame: int = 0,
    name: str | None = None,
) -> LoadedImage:
    """Read a photo (JPEG, PNG, WebP, TIFF, BMP, HEIC, AVIF, ...) and turn it upright.

    Parameters
    ----------
    source : path or array_like
        A file path, or an image array already in memory: (H, W) gray or (H, W, 3)
        BGR uint8 (taken as upright, no EXIF; reduced as its pixels stored in a PNG
        file would be, by an integer box reduction).
    max_side : int, optional
        When given, the image may be decoded smaller, but never with its long side
        under ``max_side`` (unless ``max_pixels`` demands it): JPEGs by DCT scaling
        (1/2, 1/4, 1/8), other formats by an integer box reduction.
        :meth:`LoadedImage.to_stored` still maps to the stored full-resolution pixels.
    max_pixels : int or None
        Most pixels the returned image may have (default :data:`MAX_PIXELS`): a larger
        file is reduced by the smallest integer factor (DCT scaling for JPEGs) that
        fits. None lifts the cap; memory is then about 7 bytes per pixel of the file.
    gray : bool
        Return a (H, W) gray image instead of BGR (JPEGs then decode straight to gray).
        A gray file gives a (H, W) image either way.
    min_side : int
        Smallest accepted short side, in stored pixels.
    frame : int
        Which frame (0-based) of a multi-frame file (a multi-page TIFF) to read.
    name : str, optional
        How the file is named in error messages (default: the path as given).

    Returns
    -------
    LoadedImage

    Raises
    ------
    InputFileError
        Missing file, a directory, no permission, not an image, a truncated/corrupt
        file, no such frame, or an image over Pillow's decompression-bomb limit: one
        line naming the file.
    NoGridError
        The image is smaller than ``min_side`` on its short side.

    Notes
    -----
    Peak memory is the file decoded in its own mode (1 byte a pixel for gray, palette
    and 1-bit images, 2 for 16-bit, 4 for colour, alpha, CMYK, 32-bit and float; JPEGs
    only at the DCT-reduced size) plus the returned image (1 or 3 bytes a pixel, at most
    ``max_pixels``) and one strip of a few megapixels: at most about 0.85 GB for any
    image Pillow accepts (``2 * Image.MAX_IMAGE_PIXELS``, about 179 MP; measured 0.83 GB
    peak RSS for `read` of a 13370 x 13370 RGBA PNG).
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
        label = name or "image"
        _check_size(size, label, min_side)
        # Reduced as the same pixels in a PNG file would be: one photo, one reading.
        factor = _reduction(size, max_side=max_side, max_pixels=max_pixels)
        if factor > 1:
            arr = np.asarray(Image.fromarray(arr).reduce(factor), dtype=np.uint8)
        decoded = (int(arr.shape[1]), int(arr.shape[0]))
        return LoadedImage(arr, size, 1, None, decoded, factor, label)

    path = _existing_file(source, name)
    label = name or str(source)
    with _read_errors(path, label):
        return _load_file(
            path,
            label,
            max_side=max_side,
            max_pixels=max_pixels,
            gray=gray,
            min_side=min_side,
            frame=frame,
        )


def frame_count(source: str | os.PathLike[str], *, name: str | None = None) -> int:
    """Number of frames (pages) in an image file: a multi-page TIFF's pages, else 1.

    Raises
    ------
    InputFileError
        As :func:`load_image`: the same checks and the same one-line messages.
    """
    path = _existing_file(source, name)
    with _read_errors(path, name or str(source)), Image.open(path) as img:
        return int(getattr(img, "n_frames", 1))


def _existing_file(source: str | os.PathLike[str], name: str | None) -> Path:
    """The path, once it is known to name a file (not a directory)."""
    path = Path(source)
    label = name or str(source)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise InputFileError(f"{short_name(label)}: no such file") from None
    except OSError as exc:  # a name too long, a folder without search permission
        raise InputFileError(describe_os_error(exc, label)) from None
    if stat.S_ISDIR(mode):
        raise InputFileError(f"{short_name(label)}: is a directory, not an image file")
    return path


@contextlib.contextmanager
def _read_errors(path: Path, name: str) -> Iterator[None]:
    """Turn Pillow's (and the OS's) exceptions into one-line InputFileErrors.

    Images between Pillow's bomb limit and twice it are read (memory is bounded here),
    so its DecompressionBombWarning, which would only clutter stderr, is silenced; over
    twice the limit Pillow raises, and that becomes "image too large".
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            yield
    except PermissionError:
        raise InputFileError(f"{name}: cannot read (permission denied)") from None
    except UnidentifiedImageError:
        if path.stat().st_size == 0:
            raise InputFileError(f"{name}: empty file, not an image") from None
        raise InputFileError(f"{name}: not an image (cannot identify image file)") from None
    except Image.DecompressionBombError as exc:
        raise _too_large(name, exc) from None
    except (OSError, SyntaxError, ValueError, EOFError, RuntimeError) as exc:
        msg = str(exc)
        if "truncated" in msg.lower() or isinstance(exc, EOFError):
            raise InputFileError(f"{name}: truncated image file") from None
        raise InputFileError(f"{name}: corrupt image data ({msg})") from None


def _load_file(
    path: Path,
    name: str,
    *,
    max_side: int | None,
    max_pixels: int | None,
    gray: bool,
    min_side: int,
    frame: int,
) -> LoadedImage:
    """:func:`load_image` for a file; Pillow's exceptions are left to the caller."""
    with Image.open(path) as img:
        if frame:
            frames = int(getattr(img, "n_frames", 1))
            if not 0 <= frame < frames:
                raise InputFileError(f"{name}: has no page {frame + 1} (it has {frames})")
            img.seek(frame)
        # libheif turns HEIF images upright on decode (pillow-heif then resets the EXIF
        # tag and keeps the value it had): the turn is only recorded, not applied again.
        turned_on_decode = img.format == "HEIF"
        raw = _FileBytes(path)  # read once, for the PNG chunk walk and OpenCV alike
        decoded = False  # by Pillow already, to look for EXIF
        if turned_on_decode:
            orientation = int(img.info.get("original_orientation") or 1)
        else:
            tags, decoded = _exif(img, raw)
            orientation = int(tags.get(0x0112, 1) or 1)
        if orientation not in range(1, 9):
            orientation = 1
        size = (int(img.size[0]), int(img.size[1]))
        swap = turned_on_decode and orientation >= 5
        stored_size = (size[1], size[0]) if swap else size
        _check_size(stored_size, name, min_side)
        jpeg = img.format in ("JPEG", "MPO")  # MPO: a phone's JPEG with extra frames
        if jpeg:
            _jpeg_draft(img, max_side=max_side, max_pixels=max_pixels, gray=gray)
        # DCT scaling rounds the size up, so the factor is exactly a power of two.
        draft = max(1, round(size[0] / img.size[0]))
        factor = _reduction(img.size, max_side=max_side, max_pixels=max_pixels)
        transpose = _EXIF_TRANSPOSE.get(orientation)
        array = None
        end = _END_MARKERS.get(str(img.format))
        whole = draft == factor == 1 and frame == 0 and not decoded
        if end and img.mode == "RGB" and not gray and whole:
            array = _whole_colour_file(raw, img.size, orientation, end)
        if array is None:
            img.load()  # force the full decode now: truncation raises here
            array = _decode_to_array(
                img, gray=gray, factor=factor, orientation=None if turned_on_decode else orientation
            )
    out_w, out_h = -(-img.size[0] // factor), -(-img.size[1] // factor)
    decoded_size = (out_h, out_w) if swap else (out_w, out_h)
    return LoadedImage(
        array, stored_size, orientation, transpose, decoded_size, draft * factor, name
    )
