"""The work the web app does for one request, run in a worker process.

Each job gets a session folder the server made (``<root>/<id>``, the id the server's own
random hex) and fixed file names; nothing a client sent ever becomes part of a path.
A session holds:

=============== ==============================================================
photo.jpg       the upright photo, at most ``PHOTO_SIDE`` px, as the page shows it
state.json      the reading: lattice (in photo.jpg's pixels), size, givens, entries, unclear cells
<kind>-<key>.png  drawn results: ``key`` is a digest of what was asked
report-<key>.html the solve's report (downloaded, never shown under the app's CSP)
=============== ==============================================================
"""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from overlay.draw import compose, draw_rings
from overlay.hint import draw_hint
from overlay.report import write_report
from pipeline.stages import photo_bgr, write_image
from scanner.api import read_photo
from scanner.errors import UnreadableGridError
from scanner.geometry import GridGeometry
from solver import solve
from solver.check import check_entries, position_hint
from solver.errors import BadArgsError, InvalidPuzzleError, Status, SudokuScanError
from solver.hints import HintLevel
from solver.solve import MULTIPLE, NO_SOLUTION, SOLVED, STUCK, SolveResult

PHOTO_SIDE = 1600  # the longest side of the photo the page shows and results are drawn on
PHOTO = "photo.jpg"
STATE = "state.json"


class Mode(StrEnum):
    """What ``/api/solve`` is asked for."""

    SOLVE = "solve"  # the photo with every missing digit, the steps, the attribution
    CHECK = "check"  # the wrong entries ringed; nothing revealed
    HINT = "hint"  # the next step from the person's position, at a level


MODES = tuple(m.value for m in Mode)


def warm() -> None:
    """Set up a worker process: one BLAS and one OpenCV thread (the pool is the
    parallelism; their own threads would oversubscribe the cores, as in ``batch``),
    Ctrl-C left to the server, and the reader loaded once."""
    import signal

    from threadpoolctl import threadpool_limits

    from scanner.digits import DEFAULT_ENGINE, get_engine

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threadpool_limits(1)
    cv2.setNumThreads(1)
    get_engine(DEFAULT_ENGINE)


def _digits(text: str, what: str) -> list[int]:
    """81 digits from an 81-character string of ``0``-``9`` (``.`` for empty)."""
    if len(text) != 81 or any(ch not in "0123456789." for ch in text):
        raise BadArgsError(f"{what} must be 81 characters of 0-9 or '.', got {len(text)}")
    return [0 if ch == "." else int(ch) for ch in text]


def read_job(upload: str, session: str) -> dict[str, Any]:
    """Read an uploaded photo into a session: ``read --json``'s fields plus the photo
    as shown (``width``, ``height``, ``lattice`` in its pixels)."""
    folder = Path(session)
    try:
        scan = read_photo(upload, name="photo")
    except SudokuScanError as exc:
        # The server's folders are nobody's business: the message names "the photo".
        raise type(exc)(str(exc).replace(upload, "the photo")) from None
    image = photo_bgr(scan)
    h, w = image.shape[:2]
    scale = min(1.0, PHOTO_SIDE / max(h, w))
    if scale < 1.0:
        size = (round(w * scale), round(h * scale))
        image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    lattice = scan.geometry.lattice * np.array([image.shape[1] / w, image.shape[0] / h])
    write_image(image, folder / PHOTO)
    out = scan.to_dict()
    out.pop("source", None)
    state = {
        "lattice": lattice.tolist(),
        "size": [image.shape[1], image.shape[0]],
        "givens": out["givens"],
        "entries": out["entries"],
        "unclear": scan.unclear,
    }
    (folder / STATE).write_text(json.dumps(state), encoding="utf-8")
    out.update({"width": image.shape[1], "height": image.shape[0], "lattice": state["lattice"]})
    return out


def reading_of(session: str | Path) -> tuple[str, str]:
    """The givens and entries a session's photo was read as (81 characters each)."""
    state = json.loads((Path(session) / STATE).read_text(encoding="utf-8"))
    return str(state["givens"]), str(state["entries"])


def _session(folder: Path) -> tuple[npt.NDArray[np.uint8], GridGeometry, dict[str, Any]]:
    state = json.loads((folder / STATE).read_text(encoding="utf-8"))
    image = cv2.imread(str(folder / PHOTO), cv2.IMREAD_COLOR)
    if image is None:
        raise UnreadableGridError("the photo of this session is gone: take it again")
    width, height = state["size"]
    geometry = GridGeometry(np.asarray(state["lattice"], np.float64), (width, height))
    return np.asarray(image, np.uint8), geometry, state


def _solved(givens: list[int]) -> SolveResult:
    result = solve(givens)
    if result.status in (NO_SOLUTION, MULTIPLE):
        raise InvalidPuzzleError(result.message or f"the printed puzzle has {result.status}")
    if result.status not in (SOLVED, STUCK):
        raise InvalidPuzzleError(result.message or "the printed digits clash")
    return result


def _key(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def solve_job(
    session: str, givens: str, entries: str, mode: str, level: int, reveal: bool
) -> dict[str, Any]:
    """Solve, check or hint from a session's reading as the person corrected it; the
    drawn result is written into the session as ``<mode>-<key>.png`` (``"file"``)."""
    if mode not in MODES:
        raise BadArgsError(f"mode must be one of {', '.join(MODES)}")
    folder = Path(session)
    image, geometry, state = _session(folder)
    given_digits = _digits(givens, "givens")
    entry_digits = _digits(entries, "entries")
    result = _solved(given_digits)
    # An entry the reader could not make out stays unclear until the person types it.
    unclear = [
        int(c) for c in state.get("unclear", []) if not given_digits[c] and not entry_digits[c]
    ]
    check = check_entries(given_digits, entry_digits, result.solution, unclear=unclear)
    name = f"{mode}-{_key(givens, entries, mode, level, reveal)}.png"
    out: dict[str, Any] = {
        "status": result.status,
        **check.to_dict(reveal=reveal and mode == Mode.HINT),
    }
    if mode == Mode.SOLVE:
        drawn = compose(image, geometry, result, check=check).image
        out.update(result.to_dict())
        # The step-by-step report, to download beside the picture.
        report = f"report-{_key(givens, entries)}.html"
        write_report(result, folder / report, title="Your Sudoku", image=drawn, check=check)
        out["report_file"] = report
    elif mode == Mode.CHECK:
        # Mistakes ringed, nothing revealed: no digit is drawn.
        drawn = image.copy()
        draw_rings(drawn, geometry, check)
    else:
        found = position_hint(given_digits, check, reveal=reveal, level=HintLevel(level))
        out.update(found.to_dict())
        out["status"] = Status.STUCK if found.stuck else Status.HINT
        if found.step is None:
            return out
        drawn = draw_hint(image, geometry, found.step, HintLevel(level))
    write_image(drawn, folder / name)
    out["file"] = name
    return out


def step_job(session: str, givens: str, entries: str, index: int) -> str:
    """Draw step ``index`` of the solve (from the givens) on the session's photo; the
    file's name in the session."""
    folder = Path(session)
    name = f"step-{_key(givens, entries, index)}.png"
    if (folder / name).is_file():
        return name
    image, geometry, _state = _session(folder)
    _digits(entries, "entries")
    result = _solved(_digits(givens, "givens"))
    if not 0 <= index < len(result.steps):
        raise BadArgsError(f"step {index} is not among the {len(result.steps)} steps")
    drawn = draw_hint(image, geometry, result.steps[index], HintLevel.ANSWER)
    write_image(drawn, folder / name)
    return name
