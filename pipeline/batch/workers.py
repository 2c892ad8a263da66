"""A pool of worker processes that each hold one page at a time.

Unlike :class:`concurrent.futures.ProcessPoolExecutor`, the pool knows which page each
worker holds, so:

* a worker that dies (killed, out of memory, a crash in native code) costs only its own
  page, which gets a row saying so, and a new worker takes its place;
* a page that runs past ``timeout`` seconds (a hang) is stopped by killing its worker;
* workers die with the batch: each asks Linux to kill it when its parent dies
  (``PR_SET_PDEATHSIG``), and any worker also exits when its pipe to the parent closes,
  so a ``kill -9`` of the batch leaves no process behind.

Workers are forked, so they start with the parent's modules and loaded weights; tasks and
results travel through one pipe per worker (pickled).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Generic, TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")

PR_SET_PDEATHSIG = 1  # prctl option: the signal this process gets when its parent dies


def die_with_parent(parent_pid: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux; elsewhere the
    closed pipe still ends it); exit now if the parent is already gone."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(1)


@dataclass(frozen=True)
class WorkerLost:
    """A task whose worker died or ran out of time; ``reason`` says which, in words."""

    reason: str


def _worker_main(
    conn: Connection,
    parent_pid: int,
    initializer: Callable[[], None],
    func: Callable[[object], object],
) -> None:
    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    initializer()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            os._exit(0)
        if task is None:
            os._exit(0)
        conn.send(func(task))


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    task: object = None
    busy: bool = False
    started: float = 0.0


class WorkerPool(Generic[Task, Result]):
    """``jobs`` forked workers running ``func`` over tasks; see the module docstring.

    ``func`` must not raise (it turns its own failures into results).
    """

    def __init__(
        self,
        jobs: int,
        func: Callable[[Task], Result],
        *,
        initializer: Callable[[], None] = lambda: None,
        timeout: float | None = None,
    ) -> None:
        self.jobs = jobs
        self.func = func
        self.initializer = initializer
        self.timeout = timeout
        self._context = multiprocessing.get_context("fork")
        self._workers: list[_Worker] = []

    def _start(self) -> _Worker:
        here, there = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main,
            args=(there, os.getpid(), self.initializer, self.func),
            daemon=True,
        )
        process.start()
        there.close()
        worker = _Worker(process, here)
        self._workers.append(worker)
        return worker

    def _retire(self, worker: _Worker) -> None:
        self._workers.remove(worker)
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(5)

    def run(self, tasks: Sequence[Task]) -> Iterator[tuple[Task, Result | WorkerLost]]:
        """Yield ``(task, result)`` as tasks finish (any order); a lost task's result is a
        :class:`WorkerLost`."""
        queue = list(reversed(tasks))
        for _ in range(min(self.jobs, len(tasks))):
            self._start()
        while queue or any(w.busy for w in self._workers):
            for worker in self._workers:
                if not worker.busy and queue:
                    worker.task, worker.busy = queue.pop(), True
                    worker.started = time.monotonic()
                    worker.conn.send(worker.task)
            busy = [w for w in self._workers if w.busy]
            ready = wait(
                [w.conn for w in busy] + [w.process.sentinel for w in busy],
                timeout=self._wait_time(busy),
            )
            for worker in busy:
                outcome = self._collect(worker, ready)
                if outcome is None:
                    continue
                task = worker.task
                worker.task, worker.busy = None, False
                if isinstance(outcome, WorkerLost):
                    self._retire(worker)
                    if queue or any(w.busy for w in self._workers):
                        self._start()
                yield task, outcome  # type: ignore[misc]

    def _wait_time(self, busy: list[_Worker]) -> float | None:
        if self.timeout is None or not busy:
            return None
        oldest = min(w.started for w in busy)
        return max(0.0, oldest + self.timeout - time.monotonic()) + 0.01

    def _collect(self, worker: _Worker, ready: Sequence[object]) -> object | WorkerLost | None:
        """The worker's result if it has one, a WorkerLost if it died or overran, else None."""
        if worker.conn in ready:
            try:
                return worker.conn.recv()
            except (EOFError, OSError):
                pass  # died while sending: reported below
        if worker.conn in ready or worker.process.sentinel in ready:
            worker.process.join(1)
            code = worker.process.exitcode
            how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit {code}"
            return WorkerLost(f"the worker process died on this page ({how})")
        if self.timeout is not None and time.monotonic() - worker.started > self.timeout:
            return WorkerLost(f"stopped after {self.timeout:g} s on this page")
        return None

    def close(self) -> None:
        """Stop every worker now (pages in progress are dropped)."""
        for worker in list(self._workers):
            with contextlib.suppress(OSError):
                worker.conn.send(None)
            self._retire(worker)
