"""How pages run: local worker processes (:class:`LocalExecutor`) or a Dask cluster."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from pipeline.batch.page import BatchOptions, PageOutcome, page_record, process_page
from pipeline.batch.plan import PageTask
from pipeline.batch.workers import WorkerLost, WorkerPool
from scanner.errors import MissingDependencyError
from solver.errors import BadArgsError


class Executor(Protocol):
    """Runs :func:`process_page` over tasks; yields outcomes as they complete."""

    def run(self, tasks: Sequence[PageTask], options: BatchOptions) -> Iterator[PageOutcome]: ...

    def close(self) -> None: ...


def _init_worker(engine: str) -> None:
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


def lost_page(task: PageTask, reason: str) -> PageOutcome:
    """The outcome of a page whose worker died or overran: one error row."""
    return PageOutcome(task, [page_record(task, error=f"{task.source}: {reason}")])


class LocalExecutor:
    """``jobs`` forked worker processes, each one page at a time
    (:class:`pipeline.batch.workers.WorkerPool`): a page that kills its worker or runs
    past ``timeout`` seconds gets an error row and the others go on."""

    def __init__(self, jobs: int, engine: str, *, timeout: float | None = None) -> None:
        self.jobs = jobs
        self.engine = engine
        self.timeout = timeout
        self._pool: WorkerPool[PageTask, PageOutcome] | None = None

    def run(self, tasks: Sequence[PageTask], options: BatchOptions) -> Iterator[PageOutcome]:
        # Workers inherit the imported modules (fork): no per-worker import cost. Load the
        # reader first so its weights are shared copy-on-write.
        _load_reader(self.engine)
        # One OpenCV thread per process, set before the fork: the pool is the
        # parallelism, and OpenCV's own threads would oversubscribe the cores.
        import cv2

        cv2.setNumThreads(1)
        self._pool = WorkerPool(
            self.jobs,
            functools.partial(process_page, options=options),
            initializer=functools.partial(_init_worker, self.engine),
            timeout=self.timeout,
        )
        for task, outcome in self._pool.run(tasks):
            yield lost_page(task, outcome.reason) if isinstance(outcome, WorkerLost) else outcome

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
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
