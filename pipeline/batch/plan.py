"""Batch stages 1 and 2: the inputs named, walked and expanded into files; one task per page.

Decisions about what a folder walk takes (documented in the README):

* image and PDF files only, by name (:data:`PAGE_SUFFIXES`): a folder of photos with their
  ``.dat`` notes gives one row per photo, not one per note; a file named explicitly, or
  matched by a glob, always gets a row (a text file named is "not an image");
* hidden files and folders, and anything inside OUTDIR, are skipped;
* symbolic links found while walking are followed only when they lead to a file inside
  the folder walked (then they are the same page, counted once); a link leading out of
  it, or to a folder, gets a row saying it was not followed, so a walk never leaves the
  tree it was given. A link named explicitly is followed;
* a subfolder that cannot be listed gets a row with the reason.

Output names keep the inputs' folder structure under OUTDIR: ``NAME.solved.png`` for a
photo, ``NAME.p001.solved.png`` for a document's pages. Two inputs that would share an
output (``puzzle.jpg`` and ``puzzle.png``; ``book.pdf`` page 1 and ``book.p001.png``;
names differing only in case) both keep their suffix in it instead
(``puzzle.jpg.solved.png``, ``book.pdf.p001.solved.png``), so no page overwrites another.
"""

from __future__ import annotations

import contextlib
import glob
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from solver.errors import ExitCode, SudokuScanError, describe_os_error, short_name

# What a folder walk takes: the reader's image formats and PDF.
PAGE_SUFFIXES = frozenset(
    (".jpg", ".jpeg", ".jpe", ".png", ".webp", ".tif", ".tiff", ".bmp", ".gif", ".avif",
     ".heic", ".heif", ".pdf")
)  # fmt: skip


@dataclass(frozen=True)
class InputFile:
    """A file to process, or a name that gives a row with ``error`` (known before reading)."""

    path: str
    error: str = ""


def _is_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except OSError:  # a name too long: reported by the row's own check
        return False


def _is_dir(path: str) -> bool:
    try:
        return Path(path).is_dir()
    except OSError:
        return False


def expand_inputs(inputs: Sequence[str], *, exclude: Path | None = None) -> list[InputFile]:
    """The files named by ``inputs``: files as given, folders walked recursively (see the
    module docstring), globs expanded (``**`` recurses); in order, each file once.

    A name that is neither an existing path nor a glob with matches is kept as it is, so
    the batch reports it ("no such file") instead of silently dropping it.
    """
    out: list[InputFile] = []
    seen: set[str] = set()
    excluded = exclude.resolve() if exclude is not None else None

    def add(path: str, error: str = "") -> None:
        key = os.path.realpath(path) if not error else path
        if key in seen:
            return
        if excluded is not None and not error and Path(key).is_relative_to(excluded):
            return
        seen.add(key)
        out.append(InputFile(path, error))

    for item in inputs:
        if _is_dir(item):
            _walk(item, add)
        elif _exists(item) or not _is_glob(item):
            add(item)
        else:
            matches = sorted(glob.glob(item, recursive=True))
            files = [m for m in matches if Path(m).is_file()]
            if not files:
                add(item)  # reported as "no file matches"
            for m in files:
                add(m)
    return out


def _walk(folder: str, add: Callable[[str, str], None]) -> None:
    """Add the page files under ``folder``; see the module docstring for what is taken."""
    root_real = Path(os.path.realpath(folder))
    failures: list[OSError] = []

    def report_failures() -> None:
        while failures:
            exc = failures.pop(0)
            name = str(exc.filename or folder)
            add(name, f"{describe_os_error(exc, name)}: the folder cannot be listed")

    for root, dirs, files in os.walk(folder, onerror=failures.append):
        report_failures()
        for d in sorted(dirs):
            path = os.path.join(root, d)
            if not d.startswith(".") and os.path.islink(path):
                add(path, f"{short_name(path)}: a link to a folder, not followed")
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.startswith(".") or Path(name).suffix.lower() not in PAGE_SUFFIXES:
                continue
            if os.path.islink(path) and not Path(os.path.realpath(path)).is_relative_to(root_real):
                add(path, f"{short_name(path)}: a link out of {folder}, not followed")
                continue
            add(path, "")
    report_failures()


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


def _output_stem(source: str, base: Path | None, *, keep_suffix: bool) -> Path:
    """Relative output path (without suffix) that keeps the inputs' folder structure."""
    path = Path(os.path.abspath(source))
    rel = Path(path.name)
    if base is not None:
        with contextlib.suppress(ValueError):
            rel = path.relative_to(base)
    return rel if keep_suffix else rel.with_suffix("")


def _common_base(sources: Sequence[str]) -> Path | None:
    folders = [os.path.dirname(os.path.abspath(s)) for s in sources]
    if not folders:
        return None
    try:
        return Path(os.path.commonpath(folders))
    except ValueError:  # different drives
        return None


def plan_pages(files: Sequence[InputFile], outdir: Path, *, fmt: str) -> list[PageTask]:
    """One task per page, in input order; documents are opened to count their pages.
    Output names are unique (see the module docstring)."""
    base = _common_base([f.path for f in files if not f.error and _exists(f.path)])
    tasks = [t for f in files for t in _file_tasks(f, outdir, base, fmt, keep_suffix=False)]
    clashing = _clashing_sources(tasks)
    if not clashing:
        return tasks
    tasks = [
        t for f in files for t in _file_tasks(f, outdir, base, fmt, keep_suffix=f.path in clashing)
    ]
    # Still clashing (e.g. "a.png" beside a folder "a.png/"): number the later ones.
    used: Counter[str] = Counter()
    unique = []
    for task in tasks:
        if task.output:
            key = os.path.normcase(task.output).casefold()
            used[key] += 1
            if used[key] > 1:
                head, _, tail = task.output.partition(".solved.")
                task = replace(task, output=f"{head}~{used[key]}.solved.{tail}")
        unique.append(task)
    return unique


def _clashing_sources(tasks: Sequence[PageTask]) -> set[str]:
    """Sources whose output name another source's page also has (case-insensitively)."""
    owners: dict[str, set[str]] = {}
    for task in tasks:
        if task.output:
            owners.setdefault(task.output.casefold(), set()).add(task.source)
    return {s for sources in owners.values() if len(sources) > 1 for s in sources}


def _file_tasks(
    file: InputFile, outdir: Path, base: Path | None, fmt: str, *, keep_suffix: bool
) -> list[PageTask]:
    from scanner.pages import is_document, page_count

    source = file.path
    if file.error:
        return [PageTask(source, None, "", file.error, ExitCode.INPUT_FILE)]
    stem = _output_stem(source, base, keep_suffix=keep_suffix)
    single = outdir / f"{stem}.solved.{fmt}"
    path = Path(source)
    try:
        exists, is_file = path.exists(), path.is_file()
    except OSError as exc:
        return [PageTask(source, None, "", describe_os_error(exc, source), ExitCode.INPUT_FILE)]
    if not exists or not is_file:
        missing = "no file matches" if _is_glob(source) else "no such file"
        reason = "not a file" if exists else missing
        return [PageTask(source, None, "", f"{short_name(source)}: {reason}", ExitCode.INPUT_FILE)]
    if not is_document(path):
        return [PageTask(source, None, str(single))]
    try:
        count = page_count(path)
    except SudokuScanError as exc:
        return [PageTask(source, None, "", str(exc), exc.exit_code)]
    if count == 1 and path.suffix.lower() != ".pdf":
        return [PageTask(source, None, str(single))]  # a one-page TIFF is a photo
    if count == 0:
        return [PageTask(source, None, "", f"{source}: the PDF has no pages", ExitCode.INPUT_FILE)]
    width = max(3, len(str(count)))
    return [
        PageTask(source, page, str(outdir / f"{stem}.p{page:0{width}d}.solved.{fmt}"))
        for page in range(1, count + 1)
    ]
