"""Hardening, in the style of OCRmyPDF's fault-injection tests: bad names, crashes and
hangs in a stage, killed workers and parents, a full disk, two batches into one folder,
colliding output names and links. Every case: one line on stderr and a documented exit
code, never a traceback; nothing the user gave is overwritten; every page gets its row."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from PIL import Image

from pipeline import batch, cli
from pipeline.batch.page import BatchOptions, PageOutcome, page_record
from pipeline.batch.plan import PageTask
from pipeline.batch.results import LOCK
from pipeline.cli import main
from solver.errors import ExitCode
from solver.generate import generate

from .synth import render_book_page, render_puzzle_photo

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ["".join(map(str, generate(seed, min_givens=26))) for seed in range(700, 704)]
LONG = "x" * 300  # over the 255 bytes a file name may have


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("sudoku-scan: error: ") and "Traceback" not in err
    return lines[0]


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("photos")
    paths = []
    for i, puzzle in enumerate(PUZZLES):
        image, _, _ = render_puzzle_photo(puzzle, seed=i, size=(640, 480))
        path = folder / f"p{i}.png"
        Image.fromarray(image).save(path)
        paths.append(path)
    return paths


def records(outdir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (outdir / "results.jsonl").read_text().splitlines()]


# ------------------------------------------------------------------ one-line errors


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["read", LONG + ".png"], ExitCode.INPUT_FILE),
        (["solve", LONG + ".png"], ExitCode.INPUT_FILE),
        (["logic", "0" * 81 * 4], ExitCode.INPUT_FILE),  # four puzzles pasted as one
        (["batch", LONG + ".png", "-o", "OUT"], ExitCode.PARTIAL_FAILURE),
        (["batch", "IN", "-o", "OUT/" + LONG], ExitCode.OUTPUT_ERROR),
    ],
)
def test_names_too_long_are_one_line_errors(
    argv: list[str],
    code: int,
    photos: list[Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [a.replace("OUT", str(tmp_path / "out")).replace("IN", str(photos[0])) for a in argv]
    got, _ = run(*argv, *(["--quiet"] if argv[0] == "batch" else []))
    assert got == code
    err = capsys.readouterr().err
    if code != ExitCode.PARTIAL_FAILURE:
        assert "too long" in one_error_line(err) or "expected 81 cells" in err
    else:
        assert "File name too long" in str(records(tmp_path / "out")[0]["error"])


def test_an_unexpected_error_is_one_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(cli, "cmd_logic", broken)
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    assert run("logic", PUZZLES[0])[0] == ExitCode.OTHER_ERROR
    line = one_error_line(capsys.readouterr().err)
    assert "internal error (RuntimeError: simulated bug)" in line and cli.DEBUG_ENV in line


def test_logic_says_why_on_exit_4(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("logic", "1" + "0" * 80)[0] == ExitCode.INVALID_PUZZLE
    assert "more than one solution" in one_error_line(capsys.readouterr().err)


def test_version_names_the_solver_mode(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("sudoku-scan ") and "solver " in out


# ------------------------------------------------------------------ nothing overwritten


@pytest.mark.parametrize("option", ["-o", "--report"])
def test_solve_never_writes_over_the_photo(
    option: str, photos: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "mine.png"
    photo.write_bytes(photos[0].read_bytes())
    before = photo.read_bytes()
    # the same file by another name, too
    for name in (str(photo), str(tmp_path / "." / "mine.png")):
        assert run("solve", str(photo), option, name)[0] == ExitCode.BAD_ARGS
        assert "would overwrite the photo" in one_error_line(capsys.readouterr().err)
    assert photo.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.png"]


def test_outputs_with_colliding_names_all_survive(tmp_path: Path) -> None:
    """puzzle.jpg + puzzle.png, book.pdf's page 1 + book.p001.png, A.png + a.png."""
    src = tmp_path / "in"
    src.mkdir()
    images = [render_puzzle_photo(p, seed=9, size=(640, 480))[0] for p in PUZZLES]
    Image.fromarray(images[0]).save(src / "puzzle.jpg", quality=95)
    Image.fromarray(images[1]).save(src / "puzzle.png")
    page = render_book_page([PUZZLES[2]], columns=1, size=(620, 877))
    Image.fromarray(page).convert("RGB").save(src / "book.pdf", resolution=75)
    Image.fromarray(images[3]).save(src / "book.p001.png")
    out = tmp_path / "out"
    code, text = run("batch", str(src), "-o", str(out), "--quiet")
    assert code == ExitCode.OK, text
    rows = records(out)
    outputs = [str(r["output"]) for r in rows]
    assert len(rows) == 4 and len(set(outputs)) == 4
    assert all(Path(o).is_file() for o in outputs)
    assert {Path(o).name for o in outputs} == {
        "puzzle.jpg.solved.png", "puzzle.png.solved.png",
        "book.pdf.p001.solved.png", "book.p001.png.solved.png",
    }  # fmt: skip
    # each image shows its own puzzle: the four solutions differ
    assert len({r["solution"] for r in rows}) == 4


def test_case_only_collisions_are_numbered(tmp_path: Path) -> None:
    files = [
        batch.InputFile(str(tmp_path / "x" / "A.png")),
        batch.InputFile(str(tmp_path / "A.PNG")),
    ]
    for f in files:
        Path(f.path).parent.mkdir(exist_ok=True)
        Path(f.path).write_bytes(b"")
    tasks = batch.plan_pages(files, tmp_path / "out", fmt="png")
    names = [t.output.casefold() for t in tasks]
    assert len(set(names)) == 2


def test_a_second_batch_into_the_same_folder_is_refused(
    photos: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    # The first batch: another process holding the folder's lock.
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pipeline.batch.results import BatchLock; "
         f"lock = BatchLock(__import__('pathlib').Path({str(out)!r})); print('held', flush=True); "
         "sys.stdin.read(); lock.release()"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert run("batch", str(photos[0]), "-o", str(out), "--quiet")[0] == ExitCode.OUTPUT_ERROR
        line = one_error_line(capsys.readouterr().err)
        assert f"process {holder.pid}" in line and "another batch" in line
        assert not (out / "results.jsonl").exists()
    finally:
        holder.communicate("", timeout=30)
    assert run("batch", str(photos[0]), "-o", str(out), "--quiet")[0] == ExitCode.OK
    assert not (out / LOCK).exists()


# ------------------------------------------------------------------ stages that fail


def _fail_on(monkeypatch: pytest.MonkeyPatch, name: str, action: str) -> None:
    """Make the reader kill its process, hang or raise on the photo called ``name``."""
    import scanner.api

    real = scanner.api.read_page

    def faulty(source: object, **kwargs: object) -> object:
        if str(kwargs.get("name", "")).endswith(name):
            if action == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            elif action == "hang":
                time.sleep(120)
        return real(source, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(scanner.api, "read_page", faulty)


def test_a_killed_worker_costs_only_its_page(
    monkeypatch: pytest.MonkeyPatch, photos: list[Path], tmp_path: Path
) -> None:
    _fail_on(monkeypatch, "p1.png", "kill")
    out = tmp_path / "out"
    code, _ = run("batch", *map(str, photos), "-o", str(out), "--jobs", "2", "--quiet")
    assert code == ExitCode.PARTIAL_FAILURE
    rows = records(out)
    assert [Path(str(r["source"])).name for r in rows] == [p.name for p in photos]
    assert [r["status"] for r in rows] == ["solved", "error", "solved", "solved"]
    assert "worker process died" in str(rows[1]["error"])


def test_a_hanging_page_is_stopped(
    monkeypatch: pytest.MonkeyPatch, photos: list[Path], tmp_path: Path
) -> None:
    _fail_on(monkeypatch, "p0.png", "hang")
    out = tmp_path / "out"
    start = time.monotonic()
    code, _ = run("batch", *map(str, photos[:2]), "-o", str(out), "--jobs", "1",
                  "--page-timeout", "3", "--quiet")  # fmt: skip
    assert time.monotonic() - start < 60
    assert code == ExitCode.PARTIAL_FAILURE
    first, second = records(out)
    assert first["status"] == "error" and "stopped after 3 s" in str(first["error"])
    assert second["status"] == "solved"


class _InterruptedExecutor:
    """Two pages done, then Ctrl-C."""

    def run(self, tasks: Sequence[PageTask], options: BatchOptions) -> Iterator[PageOutcome]:
        for task in tasks[:2]:
            yield PageOutcome(task, [page_record(task, error="done")])
        raise KeyboardInterrupt

    def close(self) -> None:
        pass


def _interrupted_batch(photos: list[Path], out: Path) -> batch.BatchSummary:
    """A batch of ``photos`` into ``out`` through :class:`_InterruptedExecutor`."""
    return batch.run_batch(
        [str(p) for p in photos],
        out,
        options=BatchOptions(engine="cnn"),
        quiet=True,
        executor_factory=_InterruptedExecutor,
    )


def test_ctrl_c_counts_only_the_pages_processed(photos: list[Path], tmp_path: Path) -> None:
    summary = _interrupted_batch(photos, tmp_path / "out")
    assert summary.interrupted and summary.processed == 2 and summary.pages == 4
    assert summary.exit_code == ExitCode.CTRL_C
    assert len(records(tmp_path / "out")) == 2


def test_a_page_logged_as_ctrl_c_lands_is_kept(
    monkeypatch: pytest.MonkeyPatch, photos: list[Path], tmp_path: Path
) -> None:
    # Ctrl-C (or SIGTERM, raised the same way) right after a page's line reached
    # results.jsonl: the final rewrite still lists the page.
    from pipeline.batch import results

    real = results.ResultsLog.append

    def append_then_interrupt(self: results.ResultsLog, recs: Sequence[dict[str, object]]) -> None:
        real(self, recs)
        raise KeyboardInterrupt

    monkeypatch.setattr(results.ResultsLog, "append", append_then_interrupt)
    summary = _interrupted_batch(photos, tmp_path / "out")
    assert summary.interrupted and summary.exit_code == ExitCode.CTRL_C
    rows = records(tmp_path / "out")
    assert [r["source"] for r in rows] == [str(photos[0])]


def test_jobs_are_capped_at_pages_and_cores(
    monkeypatch: pytest.MonkeyPatch, photos: list[Path], tmp_path: Path
) -> None:
    started: list[int] = []
    real = batch.LocalExecutor

    def spy(jobs: int, engine: str, **kwargs: object) -> object:
        started.append(jobs)
        return real(jobs, engine, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "LocalExecutor", spy)
    code, _ = run("batch", *map(str, photos[:2]), "-o", str(tmp_path / "o"), "--jobs", "1000",
                  "--quiet")  # fmt: skip
    assert code == ExitCode.OK
    assert started == [min(2, os.cpu_count() or 1)]


def test_a_full_disk_is_reported_not_hidden(
    monkeypatch: pytest.MonkeyPatch,
    photos: list[Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """summary.csv cannot be written: the output says so (exit 8), never "see summary.csv"."""
    from pipeline.batch import results

    real = results.write_atomic

    def full(path: Path, data: bytes) -> None:
        if path.name == "summary.csv":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data)

    monkeypatch.setattr(results, "write_atomic", full)
    code, text = run("batch", str(photos[0]), "-o", str(tmp_path / "o"), "--quiet")
    assert code == ExitCode.OUTPUT_ERROR
    assert "see " not in text and "could not be written" in text
    assert "No space left on device" in one_error_line(capsys.readouterr().err)
    assert records(tmp_path / "o")[0]["status"] == "solved"  # the rows that could be kept


def test_a_full_disk_on_a_real_tmpfs(photos: list[Path], tmp_path: Path) -> None:
    """The real thing where the test may mount a small tmpfs (root on Linux)."""
    mount = tmp_path / "small"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(mount)],
                          capture_output=True, check=False)  # fmt: skip
    if proc.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root): the monkeypatched test covers it")
    try:
        argv = [sys.executable, "-m", "pipeline.cli", "batch", *map(str, photos), "-o",
                str(mount / "out"), "--quiet", "--jobs", "1"]  # fmt: skip
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
        assert done.returncode in (ExitCode.OUTPUT_ERROR, ExitCode.PARTIAL_FAILURE), done
        assert "Traceback" not in done.stderr
        assert "No space left on device" in done.stderr + (mount / "out/results.jsonl").read_text()
        # no temporary files left behind
        assert not [p for p in (mount / "out").rglob(".*.tmp")]
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def test_resume_survives_a_line_cut_inside_a_character(photos: list[Path], tmp_path: Path) -> None:
    src = tmp_path / "é"
    src.mkdir()
    photo = src / "grille-été.png"
    photo.write_bytes(photos[0].read_bytes())
    out = tmp_path / "out"
    assert run("batch", str(photo), "-o", str(out), "--quiet")[0] == ExitCode.OK
    data = (out / "results.jsonl").read_bytes()
    cut = data.index("é".encode()) + 1  # inside the two bytes of the é
    (out / "results.jsonl").write_bytes(data + data[:cut])
    code, text = run("batch", str(photo), "-o", str(out), "--resume", "--quiet")
    assert code == ExitCode.OK and "(1 done earlier)" in text


def test_summary_cells_never_start_a_formula(photos: list[Path], tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "=HYPERLINK(1).png").write_bytes(b"not an image")
    run("batch", str(src), "-o", str(tmp_path / "out"), "--quiet")
    with (tmp_path / "out" / "summary.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    cells = [v for row in rows for v in row.values()]
    assert not [v for v in cells if v.startswith(("=", "+", "-", "@"))]
    assert any(v.startswith("'=") or "=HYPERLINK" in v for v in cells)


# ------------------------------------------------------------------ the folder walk


def test_walk_takes_pages_only_and_reports_what_it_cannot_read(
    monkeypatch: pytest.MonkeyPatch, photos: list[Path], tmp_path: Path
) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    (tree / "locked").mkdir(parents=True)
    outside.mkdir()
    (tree / "a.png").write_bytes(photos[0].read_bytes())
    (tree / "a.dat").write_text("truth")
    (tree / "notes.csv").write_text("x")
    (outside / "secret.png").write_bytes(photos[1].read_bytes())
    (tree / "out-link.png").symlink_to(outside / "secret.png")
    (tree / "same.png").symlink_to(tree / "a.png")
    (tree / "dir-link").symlink_to(outside)
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if str(path).endswith("locked"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    found = batch.expand_inputs([str(tree)])
    monkeypatch.setattr(os, "scandir", real_scandir)
    by_name = {Path(f.path).name: f.error for f in found}
    assert set(by_name) == {"a.png", "out-link.png", "dir-link", "locked"}
    assert by_name["a.png"] == ""  # same.png is a.png: counted once
    assert "not followed" in by_name["out-link.png"]
    assert "not followed" in by_name["dir-link"]
    assert "Permission denied" in by_name["locked"]
    # a link named explicitly is followed
    assert batch.expand_inputs([str(tree / "out-link.png")])[0].error == ""


def test_nothing_is_written_through_a_link_out_of_outdir(
    photos: list[Path], tmp_path: Path
) -> None:
    src, out, elsewhere = tmp_path / "in" / "sub", tmp_path / "out", tmp_path / "elsewhere"
    src.mkdir(parents=True)
    elsewhere.mkdir()
    (src / "p.png").write_bytes(photos[0].read_bytes())
    (tmp_path / "in" / "q.png").write_bytes(photos[1].read_bytes())
    out.mkdir()
    (out / "sub").symlink_to(elsewhere)
    code, _ = run("batch", str(tmp_path / "in"), "-o", str(out), "--quiet")
    assert code == ExitCode.PARTIAL_FAILURE
    assert list(elsewhere.iterdir()) == []
    rows = {Path(str(r["source"])).name: r for r in records(out)}
    assert rows["p.png"]["status"] == "error" and "leads out of" in str(rows["p.png"]["error"])
    assert rows["q.png"]["status"] == "solved"


# ------------------------------------------------------------------ processes


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_die_with_their_batch(sig: int, tmp_path: Path) -> None:
    pages = [render_book_page([PUZZLES[i % 4]], columns=1, size=(620, 877)) for i in range(12)]
    images = [Image.fromarray(p).convert("RGB") for p in pages]
    pdf = tmp_path / "many.pdf"
    images[0].save(pdf, save_all=True, append_images=images[1:], resolution=75)
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "pipeline.cli", "batch", str(pdf), "-o", str(out),
            "--jobs", "2", "--quiet"]  # fmt: skip
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        workers = _children(proc.pid)
        results = out / "results.jsonl"
        if len(workers) >= 2 and results.exists() and results.read_bytes().count(b"\n") >= 1:
            break
        time.sleep(0.05)
    assert proc.poll() is None and workers, "the batch ended before it could be stopped"
    os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    assert not [w for w in workers if _alive(w)], "orphaned workers"
    if sig == signal.SIGTERM:
        assert proc.returncode == ExitCode.CTRL_C
        assert b"Traceback" not in err and b"--resume" in err
        rows = records(out)
        assert 1 <= len(rows) < 12 and (out / "summary.csv").exists()
        assert not (out / LOCK).exists()
