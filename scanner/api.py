"""Read a photo: load -> locate the grid -> cut cells -> classify -> revise with the solver.

The result carries the givens, per-cell confidences and ranked alternatives, the
corrections made to reach a reading with exactly one solution, and the geometry that maps
grid coordinates to photo pixels.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from solver.errors import NoGridError, UnreadableGridError
from solver.grid import cell_name
from solver.steps import cells_text

from .cells import extract_cells
from .digits import DEFAULT_ENGINE, DigitEngine, get_engine
from .digits.base import turn_cells
from .digits.cnn import CnnEngine
from .digits.preprocess import ink_maps_and_gains
from .geometry import GridGeometry
from .kinds import CellKind, cell_kinds, pencil_like
from .load import LoadedImage, load_image
from .locate import locate_grid, locate_grids, rotated_lattice
from .quality import diagnose, washed_out
from .reading import Correction, Reading, ReadStatus, orientation_score, revise

T = TypeVar("T")
FloatMaps = npt.NDArray[np.float32]

# The probability a pencil-like cell gives to "empty" before the digit read in it.
PENCIL_EMPTY = 0.6

# Reading decodes a copy whose long side is about this: enough for the digits (a grid
# filling a third of the frame still gets ~40 px cells) and a 12 MP JPEG decodes at 1/2.
WORK_SIDE = 1600
# A reading this confident in its upright orientation skips trying the other three.
UPRIGHT_ENOUGH = 0.9


@dataclass
class ScanResult:
    """What the scanner read from one photo.

    Attributes
    ----------
    path : str
        The photo as named by the caller.
    givens : list of int, length 81
        The digits read (0 = empty), after corrections.
    confidence : list of float, length 81
        Probability of the reading of each cell.
    alternatives : list of list of (int, float)
        Ranked alternatives per cell (digit 0 = empty).
    corrections : list of Correction
        Cells whose first reading was changed so the puzzle has exactly one solution.
    geometry : GridGeometry
        Lattice in the upright, full-resolution image.
    loaded : LoadedImage
        The decoded photo (upright) and the way back to stored pixel coordinates.
    rotation : int
        Quarter turns of the page that were undone to read it (0 = upright).
    status : ReadStatus
        OK when the reading can be trusted (see :func:`scanner.reading.revise`),
        MULTIPLE when it can but the puzzle on the page has several solutions,
        UNREADABLE when the reader cannot tell which puzzle is on the page.
    doubtful_cells : list of int
        Cells whose reading is in doubt (with UNREADABLE, those that decide it).
    problem : str
        Why the first reading was not taken as is ("" when it was).
    hint : str
        With UNREADABLE: what the person can do about it (glare, blur, grid cut off).
    kinds : list of CellKind, length 81
        What each cell holds: empty, a printed given, the player's entry (another ink
        than the givens) or pencil marks (small candidates; see :mod:`scanner.kinds`).
    entries : list of int, length 81
        The digits of the ENTRY cells (0 elsewhere); never part of ``givens``.
    seconds : float
        Wall time of the whole read.
    """

    path: str
    givens: list[int]
    confidence: list[float]
    alternatives: list[list[tuple[int, float]]]
    corrections: list[Correction]
    geometry: GridGeometry
    loaded: LoadedImage
    rotation: int = 0
    status: ReadStatus = ReadStatus.OK
    doubtful_cells: list[int] = field(default_factory=list)
    problem: str = ""
    hint: str = ""
    kinds: list[CellKind] = field(default_factory=lambda: [CellKind.EMPTY] * 81)
    entries: list[int] = field(default_factory=lambda: [0] * 81)
    seconds: float = 0.0

    def stored_corners(self) -> npt.NDArray[np.float64]:
        """The grid's outer corners (4, 2), TL first, clockwise, in stored-photo pixels."""
        return self.loaded.to_stored(self.geometry.corners())

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "givens": "".join(str(v) for v in self.givens),
            "entries": "".join(str(v) for v in self.entries),
            "kinds": [str(k) for k in self.kinds],
            "confidence": [round(float(c), 4) for c in self.confidence],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.stored_corners()],
            "corrections": [c.describe() for c in self.corrections],
            "rotation": self.rotation * 90,
            "status": str(self.status),
            "doubtful": [cell_name(c) for c in self.doubtful_cells],
            "problem": self.problem,
            "hint": self.hint,
            "seconds": round(self.seconds, 4),
        }


def _read_cells(
    gray: npt.NDArray[np.uint8], geometry: GridGeometry, engine: DigitEngine
) -> tuple[int, GridGeometry, npt.NDArray[np.float64], npt.NDArray[np.uint8], FloatMaps]:
    """Classify the grid in the most plausible of its four orientations.

    Returns the quarter turns, the turned lattice, the probabilities (81, 10), and the
    cells (81, 64, 64) as cut, unturned, with their ink maps.
    """
    cells = extract_cells(gray, geometry)  # cut once: each orientation is these cells turned
    # Ink maps turn with their cells (every step treats rows and columns alike): made once.
    ink, gains = ink_maps_and_gains(cells)
    best: tuple[float, int, npt.NDArray[np.float64]] | None = None
    for k in range(4):
        # rotated_lattice(geometry, k) cuts exactly turn_cells(cells, -k).
        turn = -k % 4
        if isinstance(engine, CnnEngine):
            read = engine.classify_turned(ink, gains, turn)
        else:
            read = engine.classify(turn_cells(cells, turn))
        probs = np.asarray(read, dtype=np.float64)
        score = orientation_score(probs)
        if best is None or score > best[0]:
            best = (score, k, probs)
        if k == 0 and score >= UPRIGHT_ENOUGH:
            break
    assert best is not None
    _, k, probs = best
    return k, rotated_lattice(geometry, k) if k else geometry, probs, cells, ink


def read_photo(
    source: str | os.PathLike[str] | npt.ArrayLike,
    *,
    engine: str | DigitEngine = DEFAULT_ENGINE,
    name: str | None = None,
    max_side: int | None = WORK_SIDE,
) -> ScanResult:
    """Read the givens of the Sudoku in a photo.

    Parameters
    ----------
    source : path or (H, W[, 3]) uint8 array
        The photo.
    engine : str or DigitEngine, keyword-only
        ``"cnn"`` (ours) or ``"tesseract"``.
    max_side : int or None, keyword-only
        Decode the photo reduced to about this long side (fast reading); None keeps full
        resolution (what the overlay draws on).

    Raises
    ------
    InputFileError, NoGridError, MissingDependencyError
        Unreadable input, no grid, or an engine whose program is missing.
    """
    start = time.perf_counter()
    label = name or (str(source) if isinstance(source, str | os.PathLike) else "image")
    digit_engine = get_engine(engine) if isinstance(engine, str) else engine
    loaded = load_image(source, max_side=max_side)
    # locate_grid searches on its own reduced copy and returns this image's pixels.
    ink, geometry = _in_either_polarity(loaded.gray, lambda g: locate_grid(g, name=label))
    return _scan_grid(loaded, ink, geometry, digit_engine, label, start)


def read_page(
    source: str | os.PathLike[str] | npt.ArrayLike,
    *,
    engine: str | DigitEngine = DEFAULT_ENGINE,
    name: str | None = None,
    max_side: int | None = WORK_SIDE,
    max_grids: int = 12,
) -> list[ScanResult]:
    """Read every full-size Sudoku on a page (a puzzle-book page, a newspaper page).

    Parameters are those of :func:`read_photo`, plus ``max_grids``. The page is decoded
    once; every result shares its ``loaded`` image.

    Returns
    -------
    list of ScanResult
        One per grid, in reading order (top to bottom, left to right); each has its own
        status (``"unreadable"`` grids are included, not raised).

    Raises
    ------
    InputFileError, NoGridError, MissingDependencyError
        Unreadable input, no grid on the page, or a missing engine program.
    """
    start = time.perf_counter()
    label = name or (str(source) if isinstance(source, str | os.PathLike) else "image")
    digit_engine = get_engine(engine) if isinstance(engine, str) else engine
    loaded = load_image(source, max_side=max_side)
    ink, geometries = _in_either_polarity(
        loaded.gray, lambda g: locate_grids(g, name=label, max_grids=max_grids)
    )
    results = []
    for geometry in geometries:
        results.append(_scan_grid(loaded, ink, geometry, digit_engine, label, start))
        start = time.perf_counter()
    return results


def _in_either_polarity(
    gray: npt.NDArray[np.uint8], locate: Callable[[npt.NDArray[np.uint8]], T]
) -> tuple[npt.NDArray[np.uint8], T]:
    """Locate on the gray image as dark ink on light paper, or else inverted.

    A dark-mode screenshot (light digits and lines on black) is read inverted. The
    polarity the image looks like (its median darker than mid-grey: mostly dark
    background) is tried first; if no grid is found that way, the other one is.

    Returns
    -------
    ink : (H, W) uint8 array
        The image with dark ink on light paper, as the grid was found in it.
    found
        What ``locate`` returned.
    """
    dark = float(np.median(gray[::4, ::4])) < 128
    first = 255 - gray if dark else gray
    try:
        return first, locate(first)
    except NoGridError:
        other = 255 - first
        try:
            return other, locate(other)
        except NoGridError:
            pass
        raise


def _scan_grid(
    loaded: LoadedImage,
    ink: npt.NDArray[np.uint8],
    geometry: GridGeometry,
    engine: DigitEngine,
    label: str,
    start: float,
) -> ScanResult:
    """Classify and revise the digits of one located grid (``ink``: dark on light)."""
    rotation, oriented, probs, cells, maps = _read_cells(ink, geometry, engine)
    # Kinds are measured on the cells as cut; perm[i] is the cut index of turned cell i.
    perm = np.rot90(np.arange(81).reshape(9, 9), -rotation % 4).ravel()
    digit = np.zeros(81, dtype=bool)
    digit[perm] = probs[:, 0] < 0.5
    cut_kinds, undecided = cell_kinds(loaded.image, geometry, cells, digit)
    kinds = [cut_kinds[perm[i]] for i in range(81)]
    entries = [0] * 81
    for i, kind in enumerate(kinds):
        if kind == CellKind.ENTRY:
            entries[i] = int(np.argmax(probs[i, 1:])) + 1
            probs[i] = 0.0  # not part of the printed puzzle
            probs[i, 0] = 1.0
    # Small marks off the middle are pencil candidates more likely than print: "empty"
    # leads, and the puzzle's rules may still restore a printed digit.
    busy = np.flatnonzero(digit)
    pencil = np.zeros(81, dtype=bool)
    if len(busy):
        pencil[busy] = pencil_like(maps[busy])
    pencil = pencil[perm] & (np.asarray(kinds) == CellKind.GIVEN)
    probs[pencil] *= 1.0 - PENCIL_EMPTY
    probs[pencil, 0] += PENCIL_EMPTY
    # What glare wiped out was not read: whatever the network says there is a guess, and
    # a printed digit lost in it leaves the same solution, so no rule would expose it.
    washed = washed_out(cells)
    glare = washed[perm]
    probs[glare] = 0.5 * probs[glare] + 0.05
    reading: Reading = revise(probs)
    if glare.any() and reading.status != ReadStatus.UNREADABLE:
        reading.status = ReadStatus.UNREADABLE
        lost = [int(c) for c in np.flatnonzero(glare)]
        reading.problem = f"glare hides {len(lost)} cell{'s' if len(lost) > 1 else ''}"
        reading.doubtful_cells = list(dict.fromkeys(lost + reading.doubtful_cells))
    for i, v in enumerate(reading.givens):  # revision may have emptied or filled a cell
        if v:
            kinds[i] = CellKind.GIVEN
        elif kinds[i] == CellKind.GIVEN:
            kinds[i] = CellKind.PENCIL if pencil[i] else CellKind.EMPTY
    if undecided:
        reading.status = ReadStatus.UNREADABLE
        reading.problem = "digits in two colours, and neither looks like the printed givens"
        turned = np.argsort(perm)  # turned[c]: the turned index of cut cell c
        reading.doubtful_cells = [int(turned[c]) for c in undecided]
    hint = ""
    if reading.status != ReadStatus.OK:
        # The hint speaks of the cells as cut; doubtful cells are in the turned grid.
        unturned = [int(perm[c]) for c in reading.doubtful_cells]
        hint = diagnose(geometry, cells, unturned, washed=washed)
    result = ScanResult(
        path=label,
        givens=list(reading.givens),
        confidence=list(reading.confidence),
        alternatives=[list(a) for a in reading.alternatives],
        corrections=list(reading.corrections),
        geometry=oriented,
        loaded=loaded,
        rotation=rotation,
        status=reading.status,
        doubtful_cells=list(reading.doubtful_cells),
        problem=reading.problem,
        hint=hint,
        kinds=kinds,
        entries=entries,
    )
    result.seconds = time.perf_counter() - start
    return result


def unreadable_text(result: ScanResult) -> str:
    """One line on why the grid was not read: the problem, doubtful cells and a hint."""
    cells = cells_text(result.doubtful_cells[:8])
    more = ", ..." if len(result.doubtful_cells) > 8 else ""
    text = (
        f"the digits could not be read with confidence "
        f"({result.problem or 'no reading has exactly one solution'}); "
        f"doubtful cells: {cells + more if cells else 'unknown'}"
    )
    return f"{text}; {result.hint}" if result.hint else text


def require_readable(result: ScanResult) -> ScanResult:
    """Raise UnreadableGridError naming the doubtful cells when the reading is not trusted.

    A MULTIPLE reading is trusted: the solver reports its several solutions.
    """
    if result.status == ReadStatus.UNREADABLE:
        raise UnreadableGridError(f"{result.path}: {unreadable_text(result)}")
    return result
