"""``sudoku-scan batch``: read, solve and annotate every puzzle on a pile of pages.

Stages, each a small function:

1. :func:`expand_inputs` turns files, folders (recursive) and globs into a sorted,
   de-duplicated list of files; a name that matches nothing still becomes a task, so it
   gets its row and reason.
2. :func:`plan_pages` gives one :class:`PageTask` per page (a PDF or a multi-page TIFF
   has several) with the page's output image path under OUTDIR.
3. :func:`process_page` (run in worker processes, or on Dask workers) reads every
   full-size grid on the page, solves each, draws them all on the page and returns the
   records plus the encoded image. It never raises: a bad page is a record with a reason.
4. The main process writes each image atomically, then appends the page's records to
   ``results.jsonl`` (flushed and fsynced, so a page in the file is a page finished),
   and at the end rewrites ``results.jsonl`` in input order and ``summary.csv``.
   ``--resume`` skips the pages already in ``results.jsonl``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overlay.files import write_atomic
from pipeline.batch.executors import DaskExecutor, Executor, LocalExecutor
from pipeline.batch.page import (
    ERROR,
    FIELDS,
    NO_GRID,
    SOLVED,
    STUCK,
    UNREADABLE,
    BatchOptions,
    PageOutcome,
    process_page,
)
from pipeline.batch.plan import PAGE_SUFFIXES, InputFile, PageTask, expand_inputs, plan_pages
from pipeline.batch.results import (
    LOCK,
    RESULTS,
    SUMMARY,
    SUMMARY_FIELDS,
    BatchLock,
    ResultsLog,
    read_results,
    write_results,
)
from pipeline.errors import OutputError
from solver.errors import BadArgsError, ExitCode, describe_os_error

__all__ = [
    "ERROR", "FIELDS", "FORMATS", "LOCK", "NO_GRID", "PAGE_SUFFIXES", "RESULTS",
    "SOLVED", "STUCK", "SUMMARY", "SUMMARY_FIELDS", "UNREADABLE", "BatchOptions",
    "BatchSummary", "Executor", "InputFile", "PageOutcome", "PageTask", "expand_inputs",
    "plan_pages", "process_page", "run_batch",
]  # fmt: skip

FORMATS = ("png", "jpg")


def _sorted_records(
    records: Iterable[dict[str, object]], order: dict[tuple[str, int | None], int]
) -> list[dict[str, object]]:
    def key(rec: dict[str, object]) -> tuple[int, int]:
        page = rec.get("page")
        k = (str(rec["source"]), page if isinstance(page, int) else None)
        grid = rec.get("grid")
        return order.get(k, len(order)), grid if isinstance(grid, int) else 0

    return sorted(records, key=key)


# --------------------------------------------------------------------------- run


@dataclass
class BatchSummary:
    pages: int = 0
    skipped: int = 0  # done by an earlier run (--resume)
    processed: int = 0  # pages finished by this run
    grids: int = 0
    solved: int = 0
    failed_pages: int = 0
    ignored: int = 0  # files in the folders walked that are no image or PDF
    records: list[dict[str, object]] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0
    output_error: str = ""  # results.jsonl or summary.csv could not be written: why

    def add(self, records: Sequence[dict[str, object]]) -> None:
        """Count one page's records."""
        self.records.extend(records)
        self.failed_pages += not _page_ok(records)
        self.grids += sum(r.get("grid") is not None for r in records)
        self.solved += sum(r.get("status") == SOLVED for r in records)

    @property
    def exit_code(self) -> ExitCode:
        if self.interrupted:
            return ExitCode.CTRL_C
        if self.output_error:
            return ExitCode.OUTPUT_ERROR
        return ExitCode.PARTIAL_FAILURE if self.failed_pages else ExitCode.OK


def _page_ok(records: Sequence[dict[str, object]]) -> bool:
    return bool(records) and all(r.get("status") == SOLVED for r in records)


def _progress(total: int, *, quiet: bool, initial: int) -> Any:
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: the pool forks
    disable = quiet or not sys.stderr.isatty()
    return tqdm(
        total=total,
        initial=initial,
        unit="page",
        file=sys.stderr,
        disable=disable,
        dynamic_ncols=True,
        smoothing=0.1,
    )


class _Terminated(Exception):
    """SIGTERM arrived: stop as for Ctrl-C (the workers are stopped, the files written)."""


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While a batch runs, SIGTERM raises :class:`_Terminated` in the main thread."""

    def stop(signum: int, frame: object) -> None:
        raise _Terminated

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (a test runner's): leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _prepare_outdir(out: Path) -> None:
    try:
        if out.exists() and not out.is_dir():
            raise OutputError(f"{out}: exists and is not a folder")
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{describe_os_error(exc, str(out))}: cannot create the folder") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise OutputError(f"{out}: the folder is not writable")


def _count_ignored(inputs: Sequence[str], files: Sequence[InputFile], out: Path) -> int:
    """Files under the folders named that the walk left out for not being pages."""
    taken = {os.path.realpath(f.path) for f in files}
    count = 0
    for item in inputs:
        if not os.path.isdir(item):
            continue
        for root, dirs, names in os.walk(item):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            if Path(os.path.realpath(root)).is_relative_to(out.resolve()):
                continue
            count += sum(
                not n.startswith(".") and os.path.realpath(os.path.join(root, n)) not in taken
                and Path(n).suffix.lower() not in PAGE_SUFFIXES
                for n in names
            )  # fmt: skip
    return count


def _previous_pages(
    results: Path, order: dict[tuple[str, int | None], int]
) -> dict[tuple[str, int | None], list[dict[str, object]]]:
    """Pages an earlier run finished: their records are in the log and their image (if
    any) was written (the image is written before the records)."""
    previous: dict[tuple[str, int | None], list[dict[str, object]]] = {}
    for rec in read_results(results):
        page = rec.get("page")
        key = (str(rec["source"]), page if isinstance(page, int) else None)
        if key in order:
            previous.setdefault(key, []).append(rec)
    return {
        k: recs
        for k, recs in previous.items()
        if all(not r.get("output") or Path(str(r["output"])).is_file() for r in recs)
    }


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` resolves (through any links) to a place inside ``folder``."""
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


def _write_page_image(outcome: PageOutcome, out: Path) -> None:
    """Write the page's image; on failure its records become error rows saying why."""
    if outcome.image is None:
        return
    target = Path(outcome.task.output)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not _inside(target.parent, out):
            raise OSError(0, f"a symbolic link in {out} leads out of it; not written")
        write_atomic(target, outcome.image)
    except OSError as exc:
        reason = f"{outcome.task.output}: cannot write ({exc.strerror or exc})"
        for rec in outcome.records:
            rec["output"] = None
            rec["status"], rec["error"] = ERROR, reason


def run_batch(
    inputs: Sequence[str],
    outdir: str | os.PathLike[str],
    *,
    options: BatchOptions,
    jobs: int | None = None,
    resume: bool = False,
    quiet: bool = False,
    scheduler: str | None = None,
    page_timeout: float | None = None,
    executor_factory: Callable[[], Executor] | None = None,
) -> BatchSummary:
    """Process every page of ``inputs`` into ``outdir``; see the module docstring.

    ``jobs`` is capped at the pages to do and the machine's cores (default: the cores).
    A page running past ``page_timeout`` seconds (None: no limit) is stopped and gets an
    error row.

    Raises
    ------
    BadArgsError, OutputError, MissingDependencyError
        Bad options, an output folder that cannot be written or is in use by another
        batch, or Dask missing. Problems of single inputs never raise: they are records
        with a reason.
    """
    if options.fmt not in FORMATS:
        raise BadArgsError(f"--format must be one of {', '.join(FORMATS)}")
    if jobs is not None and jobs < 1:
        raise BadArgsError("--jobs must be at least 1")
    if not 50 <= options.dpi <= 1200:
        raise BadArgsError("--dpi must be between 50 and 1200")
    if page_timeout is not None and page_timeout <= 0:
        raise BadArgsError("--page-timeout must be more than 0 seconds")
    out = Path(outdir)
    _prepare_outdir(out)
    lock = BatchLock(out)
    try:
        return _run_locked(inputs, out, options, jobs, resume, quiet, scheduler,
                           page_timeout, executor_factory)  # fmt: skip
    finally:
        lock.release()


def _run_locked(
    inputs: Sequence[str],
    out: Path,
    options: BatchOptions,
    jobs: int | None,
    resume: bool,
    quiet: bool,
    scheduler: str | None,
    page_timeout: float | None,
    executor_factory: Callable[[], Executor] | None,
) -> BatchSummary:
    start = time.perf_counter()
    files = expand_inputs(inputs, exclude=out)
    if not files:
        raise BadArgsError("no input files (a folder walk takes images and PDFs only)")
    tasks = plan_pages(files, out, fmt=options.fmt)
    order = {t.key: i for i, t in enumerate(tasks)}
    results_path = out / RESULTS
    summary = BatchSummary(pages=len(tasks), ignored=_count_ignored(inputs, files, out))
    previous = _previous_pages(results_path, order) if resume else {}
    todo = [t for t in tasks if t.key not in previous]
    summary.skipped = len(tasks) - len(todo)
    log = ResultsLog(results_path, fresh=not resume)
    for recs in previous.values():
        summary.add(recs)
    if executor_factory is not None:
        executor: Executor = executor_factory()
    elif scheduler:
        executor = DaskExecutor(scheduler, options.engine)
    else:
        cores = os.cpu_count() or 1
        workers = max(1, min(jobs or cores, cores, len(todo)))
        executor = LocalExecutor(workers, options.engine, timeout=page_timeout)
    bar = _progress(len(tasks), quiet=quiet, initial=summary.skipped)
    try:
        with _sigterm_stops():
            for outcome in executor.run(todo, options):
                _write_page_image(outcome, out)
                # Counted before it is logged: a Ctrl-C or SIGTERM between the two must
                # not leave a page in the log that the final rewrite drops.
                summary.add(outcome.records)
                log.append(outcome.records)
                summary.processed += 1
                bar.set_postfix(solved=summary.solved, failed=summary.failed_pages, refresh=False)
                bar.update(1)
    except (KeyboardInterrupt, _Terminated):
        summary.interrupted = True
    finally:
        executor.close()
        bar.close()
        log.close()
        # The final files list every page processed so far, in input order.
        summary.records = _sorted_records(summary.records, order)
        try:
            write_results(summary.records, out)
        except OutputError as exc:
            summary.output_error = str(exc)
        summary.seconds = time.perf_counter() - start
    return summary
