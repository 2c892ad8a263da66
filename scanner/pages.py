"""Pages of a document: every page of a PDF or a multi-page TIFF, or the one of a photo.

PDF pages are rendered with pypdfium2 (PDFium in a self-contained wheel: no system
packages); TIFF frames are read by :func:`scanner.load.load_image`, the loader ``read``
and ``solve`` use, so they get the same modes, EXIF turn, size cap and errors. A page is
never larger than :data:`scanner.load.MAX_PIXELS`: a bigger PDF page is rendered at a
lower resolution, a bigger TIFF frame reduced by an integer factor.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import numpy.typing as npt

from solver.errors import InputFileError

from .load import MAX_PIXELS, frame_count, load_image

__all__ = ["DEFAULT_DPI", "is_document", "load_page", "page_count"]

#: PDF pages are rendered at this resolution: an A4 page becomes 1654 x 2339 px, so six
#: puzzles a page still get cells of about 40 px.
DEFAULT_DPI = 200
_MAX_PDF_SIDE = 12000  # px; a poster-sized page is rendered smaller than asked

PDF_SUFFIXES = (".pdf",)
TIFF_SUFFIXES = (".tif", ".tiff")


def _is_pdf(path: Path) -> bool:
    if path.suffix.lower() in PDF_SUFFIXES:
        return True
    try:
        with path.open("rb") as fh:
            return fh.read(5) == b"%PDF-"
    except OSError:
        return False


def is_document(path: str | os.PathLike[str]) -> bool:
    """Whether the file may hold several pages (PDF or TIFF)."""
    p = Path(path)
    return _is_pdf(p) or p.suffix.lower() in TIFF_SUFFIXES


def _open_pdf(path: Path) -> object:
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        # "Failed to load document (PDFium: Data format error)." -> "data format error"
        found = re.search(r"PDFium: ([^)]*)", str(exc))
        reason = found.group(1).strip().lower() if found else "not a readable PDF"
        raise InputFileError(f"{path}: cannot open the PDF ({reason})") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read ({exc.strerror or exc})") from None


def page_count(path: str | os.PathLike[str]) -> int:
    """Number of pages: a PDF's pages, a TIFF's frames, 1 for any other file.

    Raises
    ------
    InputFileError
        A PDF or TIFF that cannot be opened.
    """
    p = Path(path)
    if _is_pdf(p):
        pdf = _open_pdf(p)
        try:
            return len(pdf)  # type: ignore[arg-type]
        finally:
            pdf.close()  # type: ignore[attr-defined]
    if p.suffix.lower() in TIFF_SUFFIXES:
        return frame_count(p)
    return 1


def load_page(
    path: str | os.PathLike[str], page: int, *, dpi: int = DEFAULT_DPI
) -> npt.NDArray[np.uint8]:
    """Page ``page`` (1-based) of a PDF or TIFF as an upright uint8 array.

    Returns
    -------
    (H, W, 3) or (H, W) uint8 array
        BGR; gray (H, W) for a gray TIFF page. At most :data:`scanner.load.MAX_PIXELS`
        pixels (see the module docstring).

    Raises
    ------
    InputFileError
        The document cannot be read or has no such page.
    NoGridError
        A TIFF page too small to hold a readable grid.
    """
    p = Path(path)
    if _is_pdf(p):
        return _render_pdf_page(p, page, dpi)
    if page < 1:
        raise InputFileError(f"{p}: has no page {page}")
    return load_image(p, frame=page - 1).image


def _render_pdf_page(path: Path, page: int, dpi: int) -> npt.NDArray[np.uint8]:
    import pypdfium2 as pdfium

    pdf = _open_pdf(path)
    try:
        count = len(pdf)  # type: ignore[arg-type]
        if not 1 <= page <= count:
            raise InputFileError(f"{path}: has no page {page} (it has {count})")
        pdf_page = pdf[page - 1]  # type: ignore[index]
        width, height = pdf_page.get_size()
        area = max(width * height, 1.0)  # in points
        scale = min(dpi / 72.0, _MAX_PDF_SIDE / max(width, height, 1.0), (MAX_PIXELS / area) ** 0.5)
        try:
            bitmap = pdf_page.render(scale=scale, rev_byteorder=False)
            # PDFium renders BGR(x) by default: exactly OpenCV's order.
            arr = np.array(bitmap.to_numpy()[:, :, :3], dtype=np.uint8)
        except pdfium.PdfiumError as exc:
            raise InputFileError(f"{path}: page {page} cannot be rendered ({exc})") from None
        finally:
            pdf_page.close()
    finally:
        pdf.close()  # type: ignore[attr-defined]
    return arr
