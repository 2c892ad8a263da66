"""Batch stage 3: one page read, solved and drawn, in a worker process or on Dask.

:func:`process_page` never raises: a bad page is a record with a reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from pipeline.batch.plan import PageTask
from solver.check import EntryCheck
from solver.errors import InvalidPuzzleError, Status, SudokuScanError

# Record statuses (solver.errors.Status). Only "solved" counts as success for the exit code.
SOLVED = Status.SOLVED
STUCK = Status.STUCK  # logic got stuck: what it placed is drawn, the rest listed
UNREADABLE = Status.UNREADABLE  # a grid whose digits could not be read consistently
NO_GRID = Status.NO_GRID
ERROR = Status.ERROR  # the file could not be read (or another failure): see "error"

# Every record has every one of these keys (null where it does not apply).
FIELDS = ("source", "page", "grid", "status", "givens", "solution", "corrections", "error",
          "seconds", "hardest", "level", "ser", "output", "entries", "mistakes", "unclear",
          "entries_checked")  # fmt: skip


@dataclass(frozen=True)
class BatchOptions:
    engine: str
    fmt: str = "png"
    badges: bool = True
    dpi: int = 200
    uniqueness: bool = True


@dataclass
class PageOutcome:
    """What one page produced: its records and the encoded annotated page (if any)."""

    task: PageTask
    records: list[dict[str, object]]
    image: bytes | None = None


def page_record(task: PageTask, **values: object) -> dict[str, object]:
    """A record of ``task`` with every key of :data:`FIELDS`: an error row unless
    ``values`` say otherwise."""
    rec: dict[str, object] = dict.fromkeys(FIELDS)
    rec.update(source=task.source, page=task.page, status=ERROR, corrections=[], seconds=0.0,
               mistakes=[], unclear=[], entries_checked=0)  # fmt: skip
    rec.update(values)
    return rec


def _entry_fields(check: EntryCheck) -> dict[str, object]:
    """A record's ``entries`` (81 chars), ``mistakes`` and ``unclear`` (cell names) and
    ``entries_checked`` (0 when the entries could not be checked)."""
    fields = check.to_dict()
    return {key: fields[key] for key in ("entries", "mistakes", "unclear", "entries_checked")}


def process_page(task: PageTask, options: BatchOptions) -> PageOutcome:
    """Read, solve and draw every grid of one page. Never raises for a bad page."""
    start = time.perf_counter()
    if task.error:
        return PageOutcome(task, [page_record(task, error=task.error)])
    try:
        return _process_page(task, options, start)
    except SudokuScanError as exc:
        seconds = round(time.perf_counter() - start, 4)
        rec = page_record(task, status=exc.status, error=str(exc), seconds=seconds)
        return PageOutcome(task, [rec])
    except MemoryError:
        rec = page_record(task, error=f"{task.source}: out of memory on this page")
        return PageOutcome(task, [rec])
    except Exception as exc:  # a bug must not stop a batch of thousands of pages
        reason = f"internal error ({type(exc).__name__}: {exc})"
        rec = page_record(task, error=f"{task.source}: {reason}")
        return PageOutcome(task, [rec])


def _process_page(task: PageTask, options: BatchOptions, start: float) -> PageOutcome:
    # The stages of `solve` (pipeline.stages), per grid of the page.
    from overlay.draw import annotate_page
    from pipeline.stages import (
        at_full_size,
        check_stage,
        encode_image,
        photo_bgr,
        solve_stage,
    )
    from scanner.api import read_page, unreadable_text
    from scanner.pages import load_page
    from scanner.reading import ReadStatus

    label = task.source if task.page is None else f"{task.source} page {task.page}"
    source: Any = task.source
    if task.page is not None:
        source = load_page(task.source, task.page, dpi=options.dpi)
    # A photo is read as `read` and `solve` read it (one photo, one reading), a document's
    # page at full size (a scanned page of six puzzles keeps its cells large). The loader
    # caps either at scanner.load.MAX_PIXELS (a bigger one is reduced by an integer
    # factor), as for `solve`: that is the canvas the solutions are drawn on.
    if task.page is None:
        scans = at_full_size(read_page(source, engine=options.engine, name=label), source)
    else:
        scans = read_page(source, engine=options.engine, name=label, max_side=None)
    records: list[dict[str, object]] = []
    drawn = []
    checks: list[EntryCheck | None] = []
    for index, scan in enumerate(scans, start=1):
        t = time.perf_counter()
        corrections = [c.describe() for c in scan.corrections]
        givens = "".join(map(str, scan.givens))
        # Unchecked until the printed puzzle proves to have one solution.
        unchecked = _entry_fields(check_stage(scan, None))
        if scan.status == ReadStatus.UNREADABLE:
            error = f"{label} grid {index}: {unreadable_text(scan)}"
            records.append(
                page_record(
                    task,
                    grid=index,
                    status=UNREADABLE,
                    givens=givens,
                    error=error,
                    corrections=corrections,
                    seconds=scan.seconds,
                    **unchecked,
                )
            )
            continue
        try:
            result = solve_stage(
                scan.givens, source=f"{label} grid {index}", uniqueness=options.uniqueness
            )
        except InvalidPuzzleError as exc:
            records.append(
                page_record(
                    task,
                    grid=index,
                    status=exc.status,
                    givens=givens,
                    error=str(exc),
                    corrections=corrections,
                    seconds=scan.seconds + time.perf_counter() - t,
                    **unchecked,
                )
            )
            continue
        seconds = scan.seconds + time.perf_counter() - t
        check = check_stage(scan, result)
        drawn.append((scan.geometry, result))
        checks.append(check)
        difficulty = result.difficulty.to_dict()
        rec = page_record(
            task,
            grid=index,
            status=result.status,
            givens=givens,
            solution=("".join(map(str, result.grid.values)) if result.grid.is_solved() else None),
            corrections=corrections,
            seconds=seconds,
            hardest=difficulty["hardest"],
            level=difficulty["level"],
            ser=difficulty["ser"],
            **_entry_fields(check),
        )
        if result.status == STUCK:
            rec["error"] = f"{label} grid {index}: {result.message}"
        records.append(rec)
    encoded: bytes | None = None
    if drawn:
        t = time.perf_counter()
        annotated = annotate_page(photo_bgr(scans[0]), drawn, badges=options.badges, checks=checks)
        encoded = encode_image(annotated, task.output)
        for rec in records:
            if rec["status"] in (SOLVED, STUCK):
                rec["output"] = task.output
        records[-1]["seconds"] = float(records[-1]["seconds"]) + time.perf_counter() - t  # type: ignore[arg-type]
    for rec in records:
        rec["seconds"] = round(float(rec["seconds"]), 4)  # type: ignore[arg-type]
    return PageOutcome(task, records, encoded)
