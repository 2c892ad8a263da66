"""Batch stage 4: what a batch leaves in OUTDIR, written so that nothing is lost.

* ``results.jsonl``: one JSON line per grid, appended (flushed and fsynced) after the
  page's image is written, so a page in the file is a page finished; rewritten in input
  order at the end. An earlier run's file is read line by line as bytes: a line cut by a
  crash (even inside a multi-byte character) is skipped, not fatal.
* ``summary.csv``: the same rows as a table, written atomically. A cell that a
  spreadsheet would run as a formula (starting with ``= + - @``, a tab or a carriage
  return) gets a leading apostrophe.
* ``.sudoku-scan.lock``: held (``lockf``) while a batch runs, so a second batch into the
  same folder is refused with the first one's process id instead of mixing its rows in.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TextIO

from overlay.files import write_atomic
from pipeline.errors import OutputError
from solver.errors import describe_os_error

RESULTS = "results.jsonl"
SUMMARY = "summary.csv"
LOCK = ".sudoku-scan.lock"
SUMMARY_FIELDS = ("source", "page", "grid", "status", "hardest", "level", "clues", "output",
                  "seconds", "entries_checked", "mistakes", "unclear", "error")  # fmt: skip
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _no_link(path: Path) -> None:
    """Refuse to write a results file through a symbolic link (it would leave OUTDIR)."""
    if path.is_symlink():
        raise OutputError(f"{path}: is a symbolic link; refusing to write through it")


def read_results(path: Path) -> list[dict[str, object]]:
    """Records of an earlier run; a line cut short by a crash is ignored."""
    records: list[dict[str, object]] = []
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return records
    except OSError as exc:
        raise OutputError(f"{describe_os_error(exc, str(path))}: cannot read it") from None
    for line in data.splitlines():
        try:
            rec = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(rec, dict) and "source" in rec:
            records.append(rec)
    return records


class ResultsLog:
    """``results.jsonl`` opened for appending; every page's lines are flushed and fsynced."""

    def __init__(self, path: Path, *, fresh: bool) -> None:
        self.path = path
        _no_link(path)
        try:
            if fresh:
                write_atomic(path, b"")
            elif path.exists():
                _drop_partial_line(path)
            self._fh: TextIO | None = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None

    def append(self, records: Iterable[dict[str, object]]) -> None:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        assert self._fh is not None, "append after close"
        try:
            self._fh.write(text)
            self._fh.flush()
            os.fsync(self._fh.fileno())
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def close(self) -> None:
        """Close; a failure here (a full disk flushing the buffer) is not raised over
        the error that is already on its way: the final rewrite reports it."""
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._fh.close()
            self._fh = None


def _drop_partial_line(path: Path) -> None:
    """A crash mid-line leaves a fragment at the end: cut it before appending."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        write_atomic(path, data[:cut])


def csv_cell(value: object) -> object:
    """A value safe in a spreadsheet: text that would run as a formula is quoted."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def summary_rows(records: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """The rows of ``summary.csv`` (one per record), as written."""
    rows = []
    for rec in records:
        givens = rec.get("givens")
        row = {key: rec.get(key) for key in SUMMARY_FIELDS}
        row["clues"] = sum(ch != "0" for ch in givens) if isinstance(givens, str) else None
        mistakes = rec.get("mistakes")
        row["mistakes"] = " ".join(map(str, mistakes)) if isinstance(mistakes, list) else ""
        unclear = rec.get("unclear")
        row["unclear"] = " ".join(map(str, unclear)) if isinstance(unclear, list) else ""
        row["entries_checked"] = rec.get("entries_checked") or 0
        rows.append({k: "" if v is None else csv_cell(v) for k, v in row.items()})
    return rows


def write_results(records: Sequence[dict[str, object]], outdir: Path) -> None:
    """Rewrite ``results.jsonl`` (in the order given) and ``summary.csv``, atomically.

    Raises
    ------
    OutputError
        Either file could not be written (a full disk): the message names it.
    """
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=SUMMARY_FIELDS)
    writer.writeheader()
    writer.writerows(summary_rows(records))
    for name, data in ((RESULTS, lines.encode("utf-8")), (SUMMARY, buf.getvalue().encode())):
        path = outdir / name
        try:
            _no_link(path)
            write_atomic(path, data)
        except OSError as exc:
            raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None


class BatchLock:
    """An exclusive lock on OUTDIR for one batch (``lockf`` on :data:`LOCK`).

    Raises
    ------
    OutputError
        Another batch holds it: the message gives that process's id.
    """

    def __init__(self, outdir: Path) -> None:
        import fcntl

        self.path = outdir / LOCK
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
            except OSError as exc:
                raise OutputError(f"{self.path}: cannot create the lock ({exc.strerror})") from None
            try:
                # A POSIX record lock, not flock: forked workers do not inherit it, so a
                # worker outliving a killed batch for a moment does not hold the folder.
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except (BlockingIOError, PermissionError):
                holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
                os.close(fd)
                raise OutputError(
                    f"{outdir}: another batch (process {holder}) is writing into this "
                    "folder; wait for it to finish or choose another -o"
                ) from None
            # The holder before us may have removed the file after we opened it: then we
            # hold a lock on nothing, so open the new file and try again.
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd: int | None = fd

    def release(self) -> None:
        """Remove the lock file (a batch leaves no hidden file behind) and unlock."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self._fd)
        self._fd = None
