"""The pipeline as small stage functions: read -> solve -> draw -> write.

Each stage takes plain data and returns plain data, so the CLI, the batch runner and the
tests compose them the same way.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from overlay.draw import LegendPlace
from overlay.files import write_atomic
from pipeline.errors import OutputError
from scanner.api import ScanResult, read_photo, require_readable
from scanner.load import load_image
from solver import SOLVED, STUCK, SolveResult, solve
from solver.check import EntryCheck, check_entries
from solver.errors import BadArgsError, InvalidPuzzleError, short_name
from solver.grid import cell_name

JPEG_QUALITY = 92


def read_stage(path: str, *, engine: str) -> ScanResult:
    """Read the photo as ``read`` does, then decode it in colour to draw on.

    The reading is ``read``'s (the photo decoded at about ``scanner.api.WORK_SIDE``):
    ``read``, ``solve`` and ``batch`` give one photo one reading. The photo drawn on is
    kept at full resolution up to :data:`scanner.load.MAX_PIXELS` (50 MP); a larger one
    is reduced by the smallest integer factor that fits (the loader's cap), so the
    annotated output of a 169 MP scan is a 42 MP image and ``solve`` peaks at about 1 GB
    at most for any image Pillow accepts (measured: 0.97 GB for a 179 MP RGBA PNG, 0.87
    GB for a 13000 x 13000 RGB PNG, 0.6 GB for a 50 MP one drawn full size).
    """
    return at_full_size([require_readable(read_photo(path, engine=engine))], path)[0]


def at_full_size(scans: list[ScanResult], source: str) -> list[ScanResult]:
    """``scans`` of one photo (they share its decode) on the photo decoded at full size
    (up to the loader's cap), to draw on: decoded again, once, only where the reading
    decoded it smaller."""
    if not scans or scans[0].loaded.reduction == 1:
        return scans
    full = load_image(source, name=scans[0].loaded.name)
    return [scan.drawn_on(full) for scan in scans]


def solve_stage(givens: list[int], *, source: str, uniqueness: bool = True) -> SolveResult:
    """Solve the givens read; a reading without exactly one solution is an error."""
    result = solve(givens, uniqueness=uniqueness)
    if result.status not in (SOLVED, STUCK):
        raise InvalidPuzzleError(
            f"{source}: the digits read give a puzzle with {result.message}",
            details=result.to_dict(),
        )
    return result


def check_stage(scan: ScanResult, result: SolveResult | None) -> EntryCheck:
    """The person's entries read from the photo, checked against the solution of the
    printed puzzle (unchecked when it has no single solution, or ``result`` is None:
    not solved); the entries the reader could not make out are unclear."""
    solution = result.solution if result is not None else None
    return check_entries(scan.givens, scan.entries, solution, unclear=scan.unclear)


def output_path_for(source: str, out: str | None) -> Path:
    """``NAME.solved.png`` next to the input, or JPEG for a JPEG input; ``-o`` wins."""
    if out:
        return Path(out)
    src = Path(source)
    ext = ".jpg" if src.suffix.lower() in (".jpg", ".jpeg") else ".png"
    return src.with_name(f"{src.stem}.solved{ext}")


def sheet_path_for(source: str, out: str | None) -> Path:
    """``NAME.solved.sheet.png`` beside the annotated photo."""
    target = output_path_for(source, out)
    return target.with_name(target.stem + ".sheet.png")


def hint_path_for(source: str, out: str | None) -> Path:
    """``NAME.hint.png`` next to the input (JPEG for a JPEG input); ``-o`` wins."""
    solved = output_path_for(source, out)
    return solved if out else solved.with_name(solved.name.replace(".solved.", ".hint.", 1))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): compare the resolved names
        return os.path.realpath(a) == os.path.realpath(b)


def refuse_overwrite(source: str, outputs: dict[str, Path]) -> None:
    """Refuse before any work when an output would replace the photo or another output.

    ``outputs`` maps each option (``-o``, ``--report``, ...) to the file it writes.

    Raises
    ------
    BadArgsError
        ``-o photo.jpg`` on ``photo.jpg``, or two outputs that are one file.
    """
    named = list(outputs.items())
    for i, (option, target) in enumerate(named):
        if _same_file(Path(source), target):
            raise BadArgsError(f"{option} {target} would overwrite the photo {source}")
        for other, earlier in named[:i]:
            if _same_file(earlier, target):
                raise BadArgsError(f"{option} and {other} both name {target}")


def photo_bgr(scan: ScanResult) -> npt.NDArray[np.uint8]:
    """The upright photo a scan was read from, as BGR (a gray photo made colour)."""
    image: npt.NDArray[np.uint8] = scan.loaded.image
    if image.ndim == 2:
        import cv2

        image = np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    return image


def encode_image(image: npt.NDArray[np.uint8], path: str | Path) -> bytes:
    """The image encoded in the format of ``path``'s suffix (JPEG at quality 92)."""
    import cv2

    ext = Path(path).suffix.lower()
    if ext not in (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff"):
        raise OutputError(f"{path}: unsupported output format {ext or '(none)'}")
    params = [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY] if ext in (".jpg", ".jpeg") else []
    ok, buf = cv2.imencode(ext, image, params)
    if not ok:
        raise OutputError(f"{path}: could not encode the image")
    return buf.tobytes()


def write_image(image: npt.NDArray[np.uint8], path: Path) -> Path:
    """Encode and write atomically (temp file + rename): never a half-written image."""
    data = encode_image(image, path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise OutputError(f"{path}: folder {directory} does not exist")
    try:
        write_atomic(path, data)
    except OSError as exc:
        reason = exc.strerror or exc
        raise OutputError(f"{short_name(str(path))}: cannot write ({reason})") from None
    return path


@dataclass
class SolvedPhoto:
    """Everything one ``solve`` produced."""

    path: str
    scan: ScanResult
    result: SolveResult
    check: EntryCheck | None = None
    image: npt.NDArray[np.uint8] | None = None
    output: Path | None = None
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    legend: LegendPlace = LegendPlace.NONE  # where the photo's legend went

    def remaining_text(self) -> str:
        cells = self.result.remaining_cells()
        if not cells:
            return ""
        shown = ", ".join(cell_name(c) for c in cells[:10]) + (", ..." if len(cells) > 10 else "")
        return (
            f"logic alone got stuck: {len(cells)} cells remain ({shown}); no technique "
            "this solver knows applies there"
        )


def solve_photo(
    path: str,
    *,
    engine: str,
    out: str | None = None,
    badges: bool = True,
    extend: bool = True,
    write: bool = True,
    uniqueness: bool = True,
) -> SolvedPhoto:
    """Read, solve and draw one photo; write the annotated image (unless ``write=False``).

    The person's entries (another ink than the print) are checked against the solution:
    their cells get no digit, the wrong ones a ring (see :func:`overlay.draw.compose`).

    Raises
    ------
    InvalidPuzzleError
        The printed puzzle has no or several solutions; its ``details`` carry the solve's
        JSON fields and the entries (unchecked).
    """
    from overlay.draw import compose

    start = time.perf_counter()
    timings: dict[str, float] = {}
    scan = read_stage(path, engine=engine)
    timings["read"] = time.perf_counter() - start
    t = time.perf_counter()
    try:
        result = solve_stage(scan.givens, source=path, uniqueness=uniqueness)
    except InvalidPuzzleError as exc:
        unchecked = check_stage(scan, None)
        exc.details.update(unchecked.to_dict())
        if unchecked.count:
            exc.args = (f"{exc}; the entries cannot be checked",)
        raise
    check = check_stage(scan, result)
    timings["solve"] = time.perf_counter() - t
    t = time.perf_counter()
    image = photo_bgr(scan)
    drawn = compose(image, scan.geometry, result, badges=badges, check=check, extend=extend)
    timings["draw"] = time.perf_counter() - t
    solved = SolvedPhoto(path, scan, result, check, drawn.image, timings=timings)
    solved.legend = drawn.legend_place
    if write:
        t = time.perf_counter()
        solved.output = write_image(drawn.image, output_path_for(path, out))
        timings["write"] = time.perf_counter() - t
    solved.seconds = time.perf_counter() - start
    return solved
