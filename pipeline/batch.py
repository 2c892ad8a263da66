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
import csv
import glob
import io
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

from overlay.files import write_atomic
from solver.check import EntryCheck, check_entries
from solver.errors import (
    BadArgsError,
    ExitCode,
    MissingDependencyError,
    OutputError,
    SudokuScanError,
)

RESULTS = "results.jsonl"
SUMMARY = "summary.csv"
FIELDS = ("source", "page", "grid", "status", "givens", "solution", "corrections", "error",
          "seconds", "entries", "mistakes", "entries_checked")  # fmt: skip
SUMMARY_FIELDS = ("source", "page", "grid", "status", "hardest", "level", "clues", "output",
                  "seconds", "entries_checked", "mistakes", "error")  # fmt: skip
FORMATS = ("png", "jpg")

# Record statuses. Only "solved" counts as success for the exit code.
SOLVED = "solved"
STUCK = "stuck"  # logic got stuck: what it placed is drawn, the rest listed
INVALID = "invalid"  # the digits read give no or several solutions
UNREADABLE = "unreadable"  # a grid whose digits could not be read consistently
NO_GRID = "no grid"
ERROR = "error"  # the file could not be read (or another failure): see "error"


# --------------------------------------------------------------------------- inputs


def _is_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def expand_inputs(inputs: Sequence[str], *, exclude: Path | None = None) -> list[str]:
    """Files named by ``inputs``: files as given, folders walked recursively (hidden files
    and anything under ``exclude`` skipped), globs expanded (``**`` recurses).

    A name that is neither an existing path nor a glob with matches is kept as it is, so
    the batch reports it ("no such file") instead of silently dropping it.
    """
    out: list[str] = []
    seen: set[str] = set()
    excluded = exclude.resolve() if exclude is not None else None

    def add(path: str) -> None:
        key = os.path.realpath(path)
        if key in seen:
            return
        if excluded is not None and Path(key).is_relative_to(excluded):
            return
        seen.add(key)
        out.append(path)

    for item in inputs:
        path = Path(item)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if not name.startswith("."):
                        add(os.path.join(root, name))
        elif path.exists() or not _is_glob(item):
            add(item)
        else:
            matches = sorted(glob.glob(item, recursive=True))
            files = [m for m in matches if Path(m).is_file()]
            if not files:
                add(item)  # reported as "no file matches"
            for m in files:
                add(m)
    return out


@dataclass(frozen=True)
class PageTask:
    """One page to process: ``page`` is 1-based for PDF/TIFF pages, None for a photo."""

    source: str
    page: int | None
    output: str  # where the annotated page goes
    error: str = ""  # known before processing (missing file, unreadable PDF)
    exit_code: int = 0

    @property
    def key(self) -> tuple[str, int | None]:
        return (self.source, self.page)


def _output_stem(source: str, base: Path | None) -> Path:
    """Relative output path (without suffix) that keeps the inputs' folder structure."""
    path = Path(os.path.abspath(source))
    if base is not None:
        with contextlib.suppress(ValueError):
            return path.relative_to(base).with_suffix("")
    return Path(path.stem)


def _common_base(sources: Sequence[str]) -> Path | None:
    folders = [os.path.dirname(os.path.abspath(s)) for s in sources]
    if not folders:
        return None
    try:
        return Path(os.path.commonpath(folders))
    except ValueError:  # different drives
        return None


def plan_pages(sources: Sequence[str], outdir: Path, *, fmt: str) -> list[PageTask]:
    """One task per page, in input order; documents are opened to count their pages."""
    from scanner.pages import is_document, page_count

    base = _common_base([s for s in sources if Path(s).exists()])
    tasks: list[PageTask] = []
    for source in sources:
        stem = _output_stem(source, base)
        single = outdir / f"{stem}.solved.{fmt}"
        path = Path(source)
        if not path.exists():
            reason = "no file matches" if _is_glob(source) else "no such file"
            tasks.append(PageTask(source, None, "", f"{source}: {reason}", ExitCode.INPUT_FILE))
            continue
        if not path.is_file():
            tasks.append(PageTask(source, None, "", f"{source}: not a file", ExitCode.INPUT_FILE))
            continue
        if not is_document(path):
            tasks.append(PageTask(source, None, str(single)))
            continue
        try:
            count = page_count(path)
        except SudokuScanError as exc:
            tasks.append(PageTask(source, None, "", str(exc), exc.exit_code))
            continue
        if count == 1 and path.suffix.lower() not in (".pdf",):
            tasks.append(PageTask(source, None, str(single)))  # a one-page TIFF is a photo
            continue
        if count == 0:
            tasks.append(PageTask(source, None, "", f"{source}: the PDF has no pages", 3))
            continue
        width = max(3, len(str(count)))
        for page in range(1, count + 1):
            out = outdir / f"{stem}.p{page:0{width}d}.solved.{fmt}"
            tasks.append(PageTask(source, page, str(out)))
    return tasks


# --------------------------------------------------------------------------- one page


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


def _record(task: PageTask, **values: object) -> dict[str, object]:
    rec: dict[str, object] = {
        "source": task.source,
        "page": task.page,
        "grid": None,
        "status": ERROR,
        "givens": None,
        "solution": None,
        "corrections": [],
        "error": None,
        "seconds": 0.0,
        "entries": None,
        "mistakes": [],
        "entries_checked": 0,
    }
    rec.update(values)
    return rec


def _entry_fields(check: EntryCheck) -> dict[str, object]:
    """A record's ``entries`` (81 chars), ``mistakes`` (cell names) and
    ``entries_checked`` (0 when the entries could not be checked)."""
    fields = check.to_dict()
    return {key: fields[key] for key in ("entries", "mistakes", "entries_checked")}


def _status_of(exc: SudokuScanError) -> str:
    from solver.errors import InvalidPuzzleError, NoGridError, UnreadableGridError

    if isinstance(exc, NoGridError):
        return NO_GRID
    if isinstance(exc, UnreadableGridError):
        return UNREADABLE
    if isinstance(exc, InvalidPuzzleError):
        return INVALID
    return ERROR


def process_page(task: PageTask, options: BatchOptions) -> PageOutcome:
    """Read, solve and draw every grid of one page. Never raises for a bad page."""
    start = time.perf_counter()
    if task.error:
        return PageOutcome(task, [_record(task, error=task.error)])
    try:
        return _process_page(task, options, start)
    except SudokuScanError as exc:
        seconds = round(time.perf_counter() - start, 4)
        rec = _record(task, status=_status_of(exc), error=str(exc), seconds=seconds)
        return PageOutcome(task, [rec])
    except MemoryError:
        rec = _record(task, error=f"{task.source}: out of memory on this page")
        return PageOutcome(task, [rec])
    except Exception as exc:  # a bug must not stop a batch of thousands of pages
        rec = _record(task, error=f"{task.source}: internal error ({type(exc).__name__}: {exc})")
        return PageOutcome(task, [rec])


def _process_page(task: PageTask, options: BatchOptions, start: float) -> PageOutcome:
    import cv2
    import numpy as np

    from overlay.draw import annotate_page
    from pipeline.stages import encode_image
    from scanner.api import read_page, unreadable_text
    from scanner.pages import load_page
    from scanner.reading import ReadStatus
    from solver import solve
    from solver.solve import SOLVED as SOLVER_SOLVED
    from solver.solve import STUCK as SOLVER_STUCK

    label = task.source if task.page is None else f"{task.source} page {task.page}"
    source: Any = task.source
    if task.page is not None:
        source = load_page(task.source, task.page, dpi=options.dpi)
    # The loader caps the page at scanner.load.MAX_PIXELS (a bigger page is reduced by an
    # integer factor), as for `solve`: that is the canvas the solutions are drawn on.
    scans = read_page(source, engine=options.engine, name=label, max_side=None)
    records: list[dict[str, object]] = []
    drawn = []
    checks: list[EntryCheck | None] = []
    for index, scan in enumerate(scans, start=1):
        t = time.perf_counter()
        corrections = [c.describe() for c in scan.corrections]
        givens = "".join(map(str, scan.givens))
        # Unchecked until the printed puzzle proves to have one solution.
        unchecked = _entry_fields(check_entries(scan.givens, scan.entries, None))
        if scan.status == ReadStatus.UNREADABLE:
            error = f"{label} grid {index}: {unreadable_text(scan)}"
            records.append(
                _record(
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
        result = solve(scan.givens, uniqueness=options.uniqueness)
        seconds = scan.seconds + time.perf_counter() - t
        if result.status not in (SOLVER_SOLVED, SOLVER_STUCK):
            error = f"{label} grid {index}: the digits read give a puzzle with {result.message}"
            records.append(
                _record(
                    task,
                    grid=index,
                    status=INVALID,
                    givens=givens,
                    error=error,
                    corrections=corrections,
                    seconds=seconds,
                    **unchecked,
                )
            )
            continue
        check = check_entries(scan.givens, scan.entries, result.solution)
        drawn.append((scan.geometry, result))
        checks.append(check)
        difficulty = result.difficulty.to_dict()
        rec = _record(
            task,
            grid=index,
            status=SOLVED if result.status == SOLVER_SOLVED else STUCK,
            givens=givens,
            solution=("".join(map(str, result.grid.values)) if result.grid.is_solved() else None),
            corrections=corrections,
            seconds=seconds,
            hardest=difficulty["name"],
            level=difficulty["level"],
            **_entry_fields(check),
        )
        if result.status == SOLVER_STUCK:
            rec["error"] = f"{label} grid {index}: {result.message}"
        records.append(rec)
    encoded: bytes | None = None
    if drawn:
        t = time.perf_counter()
        page = scans[0].loaded.image
        if page.ndim == 2:
            page = np.asarray(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
        annotated = annotate_page(page, drawn, badges=options.badges, checks=checks)
        encoded = encode_image(annotated, task.output)
        for rec in records:
            if rec["status"] in (SOLVED, STUCK):
                rec["output"] = task.output
        records[-1]["seconds"] = float(records[-1]["seconds"]) + time.perf_counter() - t  # type: ignore[arg-type]
    for rec in records:
        rec["seconds"] = round(float(rec["seconds"]), 4)  # type: ignore[arg-type]
    return PageOutcome(task, records, encoded)


# --------------------------------------------------------------------------- executors


class Executor(Protocol):
    """Runs :func:`process_page` over tasks; yields outcomes as they complete."""

    def run(self, tasks: Sequence[PageTask], options: BatchOptions) -> Iterator[PageOutcome]: ...

    def close(self) -> None: ...


def _init_worker(engine: str) -> None:
    # Ctrl-C is the main process's to handle: it stops the pool and writes the summary.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # One BLAS thread per worker: OpenBLAS threads spin while waiting, so two workers
    # with two threads each run slower than one worker (threadpoolctl sets it after
    # the fork, which an environment variable cannot).
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    _load_reader(engine)


def _load_reader(engine: str) -> None:
    """Load the digit engine (weights) once per process, before the first page."""
    from scanner.digits import get_engine

    get_engine(engine)


class LocalExecutor:
    """``jobs`` worker processes (fork), or the calling process itself for one job."""

    def __init__(self, jobs: int, engine: str) -> None:
        self.jobs = jobs
        self.engine = engine
        self._pool: ProcessPoolExecutor | None = None

    def run(self, tasks: Sequence[PageTask], options: BatchOptions) -> Iterator[PageOutcome]:
        if self.jobs <= 1 or len(tasks) <= 1:
            _load_reader(self.engine)
            for task in tasks:
                yield process_page(task, options)
            return
        import multiprocessing

        # Workers inherit the imported modules (fork): no per-worker import cost. Load the
        # reader first so its weights are shared copy-on-write.
        _load_reader(self.engine)
        # One OpenCV thread per process, set before the fork: the pool is the
        # parallelism, and OpenCV's own threads would oversubscribe the cores.
        import cv2

        cv2.setNumThreads(1)
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self._pool = ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=context,
            initializer=_init_worker,
            initargs=(self.engine,),
        )
        # Keep a bounded number of pages in flight: memory stays flat for any batch size.
        pending: set[Future[PageOutcome]] = set()
        queue = iter(tasks)
        limit = 4 * self.jobs
        for task in queue:
            pending.add(self._pool.submit(process_page, task, options))
            if len(pending) >= limit:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()
                nxt = next(queue, None)
                if nxt is not None:
                    pending.add(self._pool.submit(process_page, nxt, options))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class DaskExecutor:
    """Pages run on a Dask cluster (``dask.distributed``); workers must see the inputs."""

    def __init__(self, address: str, engine: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise MissingDependencyError(
                "--scheduler needs dask.distributed: pip install 'sudoku-scan[cluster]'"
            ) from None
        try:
            self.client = Client(address, timeout=20)
        except OSError as exc:
            raise BadArgsError(f"cannot reach the Dask scheduler at {address} ({exc})") from None
        self.engine = engine
        # Every worker loads the reader once, now and on workers that join later.
        self.client.register_plugin(_reader_plugin(engine), name="sudoku-scan-reader")

    def run(self, tasks: Sequence[PageTask], options: BatchOptions) -> Iterator[PageOutcome]:
        from distributed import as_completed

        futures = self.client.map(process_page, list(tasks), options=options, pure=False)
        for fut in as_completed(futures):
            yield fut.result()

    def close(self) -> None:
        self.client.close()


def _reader_plugin(engine: str) -> Any:
    """A Dask worker plugin that loads the digit engine when a worker starts."""
    from distributed import WorkerPlugin

    class ReaderPlugin(WorkerPlugin):
        def setup(self, worker: object) -> None:
            _load_reader(engine)

    return ReaderPlugin()


# --------------------------------------------------------------------------- output


def _read_results(path: Path) -> list[dict[str, object]]:
    """Records of an earlier run; a line cut short by a crash is ignored."""
    records: list[dict[str, object]] = []
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return records
    except OSError as exc:
        raise OutputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    for line in text.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(rec, dict) and "source" in rec:
            records.append(rec)
    return records


class ResultsLog:
    """``results.jsonl`` opened for appending; every page's lines are flushed and fsynced."""

    def __init__(self, path: Path, *, fresh: bool) -> None:
        self.path = path
        try:
            if fresh:
                write_atomic(path, b"")
            elif path.exists():
                _drop_partial_line(path)
            self._fh: TextIO = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None

    def append(self, records: Iterable[dict[str, object]]) -> None:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        try:
            self._fh.write(text)
            self._fh.flush()
            os.fsync(self._fh.fileno())
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def close(self) -> None:
        self._fh.close()


def _drop_partial_line(path: Path) -> None:
    """A crash mid-line leaves a fragment at the end: cut it before appending."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        write_atomic(path, data[:cut])


def write_summary(records: Sequence[dict[str, object]], path: Path) -> None:
    """``summary.csv``: one row per record, written atomically."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=SUMMARY_FIELDS, extrasaction="ignore")
    writer.writeheader()
    for rec in records:
        givens = rec.get("givens")
        row = dict(rec)
        row["clues"] = sum(ch != "0" for ch in givens) if isinstance(givens, str) else ""
        mistakes = rec.get("mistakes")
        row["mistakes"] = " ".join(map(str, mistakes)) if isinstance(mistakes, list) else ""
        row.setdefault("entries_checked", 0)  # records of a run before entries were checked
        for key in ("page", "grid", "hardest", "level", "output", "error"):
            if row.get(key) is None:
                row[key] = ""
        writer.writerow(row)
    write_atomic(path, buf.getvalue().encode("utf-8"))


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
    grids: int = 0
    solved: int = 0
    failed_pages: int = 0
    records: list[dict[str, object]] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

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


def run_batch(
    inputs: Sequence[str],
    outdir: str | os.PathLike[str],
    *,
    options: BatchOptions,
    jobs: int | None = None,
    resume: bool = False,
    quiet: bool = False,
    scheduler: str | None = None,
    executor_factory: Callable[[], Executor] | None = None,
) -> BatchSummary:
    """Process every page of ``inputs`` into ``outdir``; see the module docstring.

    Raises
    ------
    BadArgsError, OutputError, MissingDependencyError
        Bad options, an output folder that cannot be written, or Dask missing. Problems of
        single inputs never raise: they are records with a reason.
    """
    if options.fmt not in FORMATS:
        raise BadArgsError(f"--format must be one of {', '.join(FORMATS)}")
    if jobs is not None and jobs < 1:
        raise BadArgsError("--jobs must be at least 1")
    if not 50 <= options.dpi <= 1200:
        raise BadArgsError("--dpi must be between 50 and 1200")
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out}: exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{out}: cannot create the folder ({exc.strerror or exc})") from None
    if not os.access(out, os.W_OK):
        raise OutputError(f"{out}: the folder is not writable")
    start = time.perf_counter()
    sources = expand_inputs(inputs, exclude=out)
    if not sources:
        raise BadArgsError("no input files")
    tasks = plan_pages(sources, out, fmt=options.fmt)
    order = {t.key: i for i, t in enumerate(tasks)}
    results_path = out / RESULTS
    summary = BatchSummary(pages=len(tasks))
    previous: dict[tuple[str, int | None], list[dict[str, object]]] = {}
    if resume:
        for rec in _read_results(results_path):
            page = rec.get("page")
            key = (str(rec["source"]), page if isinstance(page, int) else None)
            if key in order:
                previous.setdefault(key, []).append(rec)
        # A page counts as done when its records are in the log and its image (if any)
        # was written: the image is written before the records.
        previous = {
            k: recs
            for k, recs in previous.items()
            if all(not r.get("output") or Path(str(r["output"])).is_file() for r in recs)
        }
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
        executor = LocalExecutor(jobs or os.cpu_count() or 1, options.engine)
    bar = _progress(len(tasks), quiet=quiet, initial=summary.skipped)
    try:
        for outcome in executor.run(todo, options):
            records = outcome.records
            if outcome.image is not None:
                try:
                    target = Path(outcome.task.output)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    write_atomic(target, outcome.image)
                except OSError as exc:
                    reason = f"{outcome.task.output}: cannot write ({exc.strerror or exc})"
                    for rec in records:
                        rec["output"] = None
                        rec["status"], rec["error"] = ERROR, reason
            log.append(records)
            summary.add(records)
            bar.set_postfix(solved=summary.solved, failed=summary.failed_pages, refresh=False)
            bar.update(1)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        executor.close()
        bar.close()
        log.close()
        # The final files list every page processed so far, in input order.
        ordered = _sorted_records(summary.records, order)
        summary.records = ordered
        lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ordered)
        with contextlib.suppress(OSError):
            write_atomic(results_path, lines.encode("utf-8"))
            write_summary(ordered, out / SUMMARY)
        summary.seconds = time.perf_counter() - start
    return summary
