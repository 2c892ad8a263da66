"""Camera shake: a straight motion blur measured on the grid and taken back out.

A hand that moves while the shutter is open smears every point of the photo along one
short path, mostly a straight one: the photo is the sharp one convolved with a line
segment (the *motion*, ``(dx, dy)`` pixels from one end to the other). Printed digits
smeared by a sixth of a cell fall apart into strokes that read as pencil marks, as
handwriting or as other digits, although a person still reads them.

Glossary
--------
cepstrum
    The inverse Fourier transform of the log of an image's spectrum. A convolution
    multiplies spectra, so it adds its kernel's log spectrum to the image's; a line
    segment's spectrum is a sinc along its direction whose regularly spaced zeros show
    in the cepstrum as a deep minimum at the segment's own offset ``(dx, dy)`` (and
    its mirror). Print, lines and paper leave no such minimum a few pixels off the
    centre.
Wiener deconvolution
    Dividing the photo's spectrum by the kernel's, damped where the kernel's is small
    (``_NOISE_TO_SIGNAL``) so that noise at the sinc's zeros is not blown up.

The reader uses it only as a second try: a grid it cannot read is measured, and read
again through the deconvolution when a motion of ``_MIN_MOTION`` pixels or more shows;
the second reading counts only when it passes every test the first one failed.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from .geometry import GridGeometry, median_cell

__all__ = ["deconvolve", "line_kernel", "measure_motion", "unblurred"]

UInt8Array = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

# Motions shorter than this (pixels) blur a stroke's edge no more than a lens does; the
# cepstrum's centre is the image's own smoothness.
_MIN_MOTION = 4
# The longest motion looked for, as a share of a cell: smeared by half a cell, digits
# run into their neighbours' lines and no deconvolution of a guess brings them back.
_MAX_MOTION_CELL = 0.5
# Noise over signal power for the Wiener filter (8-bit print at camera noise: its
# strokes come back sharp without the sinc's zeros ringing through the paper).
_NOISE_TO_SIGNAL = 0.01
_MARGIN = 40  # pixels of photo kept around the grid, so the frame's edges deconvolve too
# The cells are read 64 pixels wide: a grid with cells over twice that (a 12 MP photo
# read at full size) is measured and deconvolved reduced to cells this wide, and
# enlarged back, so the transforms stay the size of a 2 MP photo's.
_WORK_CELL = 128.0


def measure_motion(gray: UInt8Array, *, longest: int) -> tuple[int, int] | None:
    """The straight motion ``(dx, dy)`` in pixels that blurred a gray image, or None.

    Parameters
    ----------
    gray : (H, W) uint8 array
        The image (a grid and a margin around it), larger than ``2 * longest + 1``
        along each side.
    longest : int, keyword-only
        The longest motion to look for, in pixels.

    Returns
    -------
    (int, int) or None
        The offset of the cepstrum's deepest minimum between ``_MIN_MOTION`` and
        ``longest`` pixels from its centre (the segment's extent; its sign is
        arbitrary, a segment being symmetric), or None when ``longest`` is under
        ``_MIN_MOTION``.
    """
    h, w = gray.shape
    if longest < _MIN_MOTION or min(h, w) <= 2 * longest + 1:
        return None
    g = gray.astype(np.float32)
    window = np.outer(np.hanning(h), np.hanning(w)).astype(np.float32)
    spectrum = np.abs(np.fft.rfft2((g - g.mean()) * window))
    cepstrum = np.fft.irfft2(np.log1p(spectrum), s=(h, w))
    # The offsets around the centre, wrapped: row/column k and -k.
    near = np.r_[0 : longest + 1, -longest:0]
    ys, xs = np.meshgrid(near, near, indexing="ij")
    values = cepstrum[np.ix_(near % h, near % w)]
    radius = np.hypot(xs, ys)
    values = np.where((radius >= _MIN_MOTION) & (radius <= longest), values, np.inf)
    k = np.unravel_index(int(np.argmin(values)), values.shape)
    return int(xs[k]), int(ys[k])


def line_kernel(dx: int, dy: int) -> FloatArray:
    """The blur kernel (K, K) of a straight motion: a line segment of unit sum.

    The cepstrum's minimum lies one pixel past a segment's end-to-end length (a segment
    drawn between points ``n`` pixels apart covers ``n + 1``), so the segment drawn is
    one pixel shorter than ``(dx, dy)``, anti-aliased, centred in an odd square.
    """
    length = float(np.hypot(dx, dy))
    if length < 1:
        raise ValueError(f"a motion of ({dx}, {dy}) pixels is no motion")
    half = np.array([dx, dy], dtype=np.float64) / length * max(length - 1.0, 0.0) / 2
    size = (int(np.ceil(length)) | 1) + 2
    c = (size - 1) / 2
    kernel = np.zeros((size, size), np.float32)
    shift = 4  # cv2.line's sub-pixel bits: the ends need not fall on whole pixels
    ends = [(c - half) * (1 << shift), (c + half) * (1 << shift)]
    p0, p1 = (tuple(round(float(v)) for v in e) for e in ends)
    cv2.line(kernel, p0, p1, 1.0, 1, cv2.LINE_AA, shift)
    return np.asarray(kernel / kernel.sum(), dtype=np.float32)


def deconvolve(image: UInt8Array, kernel: FloatArray) -> UInt8Array:
    """An image (H, W) or (H, W, C) Wiener-deconvolved by a blur kernel (K, K).

    The image is mirrored at its edges by the kernel's size twice over before the
    transform, so its borders do not wrap around into each other.
    """
    pad = 2 * kernel.shape[0]
    planes = image[..., None] if image.ndim == 2 else image
    padded = cv2.copyMakeBorder(planes, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    padded = padded.reshape(*padded.shape[:2], planes.shape[2]).astype(np.float32)
    h, w = padded.shape[:2]
    psf = np.zeros((h, w), np.float32)
    k = kernel.shape[0]
    psf[:k, :k] = kernel
    psf = np.roll(psf, (-(k // 2), -(k // 2)), axis=(0, 1))  # its centre at the origin
    transfer = np.fft.rfft2(psf)
    inverse = np.conj(transfer) / (np.abs(transfer) ** 2 + _NOISE_TO_SIGNAL)
    out = np.empty(planes.shape, np.uint8)
    for ch in range(planes.shape[2]):
        sharp = np.fft.irfft2(np.fft.rfft2(padded[..., ch]) * inverse, s=(h, w))
        out[..., ch] = np.clip(sharp[pad:-pad, pad:-pad] + 0.5, 0, 255)
    return out.reshape(image.shape)


def unblurred(
    image: UInt8Array, ink: UInt8Array, geometry: GridGeometry
) -> tuple[UInt8Array, UInt8Array, tuple[int, int]] | None:
    """The photo and its ink with the grid's motion blur taken out, or None.

    Parameters
    ----------
    image : (H, W) or (H, W, 3) uint8 array
        The photo as loaded.
    ink : (H, W) uint8 array
        Its gray, dark ink on light paper, as the grid was found in it.
    geometry : GridGeometry
        The grid's lattice in them.

    Returns
    -------
    (image, ink, motion) or None
        Copies with the grid's area (and ``_MARGIN`` pixels around it) deconvolved, and
        the motion measured (in the image's pixels; measured on cells ``_WORK_CELL``
        wide where they are larger); None when no motion of ``_MIN_MOTION`` pixels or
        more shows there.
    """
    lattice = geometry.lattice.reshape(-1, 2)
    h, w = ink.shape
    x0, y0 = (max(int(v) - _MARGIN, 0) for v in lattice.min(axis=0))
    x1 = min(int(lattice[:, 0].max()) + _MARGIN + 1, w)
    y1 = min(int(lattice[:, 1].max()) + _MARGIN + 1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    cell = median_cell(geometry.lattice)
    scale = min(1.0, _WORK_CELL / max(cell, 1.0))
    size = (x1 - x0, y1 - y0)
    work = (max(2, round(size[0] * scale)), max(2, round(size[1] * scale)))

    def reduced(a: UInt8Array) -> UInt8Array:
        crop = a[y0:y1, x0:x1]
        if scale == 1.0:
            return crop
        return np.asarray(cv2.resize(crop, work, interpolation=cv2.INTER_AREA), np.uint8)

    def restored(a: UInt8Array) -> UInt8Array:
        if scale == 1.0:
            return a
        return np.asarray(cv2.resize(a, size, interpolation=cv2.INTER_CUBIC), np.uint8)

    small_image, small_ink = reduced(image), reduced(ink)
    motion = measure_motion(small_ink, longest=int(_MAX_MOTION_CELL * cell * scale))
    if motion is None:
        return None
    # The photo's channels and its ink deconvolved as one stack (one transfer function);
    # each is reduced and enlarged back on its own (OpenCV resizes a stack of four
    # channels by another path, a grey level off here and there).
    sharp = deconvolve(np.dstack([small_image, small_ink]), line_kernel(*motion))
    sharp_image, sharp_ink = image.copy(), ink.copy()
    sharp_image[y0:y1, x0:x1] = restored(
        np.ascontiguousarray(sharp[..., :-1].reshape(small_image.shape))
    )
    sharp_ink[y0:y1, x0:x1] = restored(np.ascontiguousarray(sharp[..., -1]))
    return sharp_image, sharp_ink, (round(motion[0] / scale), round(motion[1] / scale))
