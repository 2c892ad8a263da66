"""``sudoku-scan batch``: every input gets its row, good pages their images, --resume
continues a killed batch, a Dask cluster gives the local run's results."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pipeline import batch
from pipeline.cli import main
from scanner.api import read_page
from solver.errors import ExitCode
from solver.generate import generate
from solver.search import solutions

from .synth import render_book_page, render_puzzle_photo

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ["".join(map(str, generate(seed, min_givens=26))) for seed in range(500, 512)]
SOLUTIONS = {p: "".join(map(str, solutions([int(ch) for ch in p], limit=1)[0])) for p in PUZZLES}
YESTERDAY = SOLUTIONS[PUZZLES[-1]]


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def save_pdf(path: Path, pages: list[np.ndarray], dpi: int = 150) -> None:
    images = [Image.fromarray(p).convert("RGB") for p in pages]
    images[0].save(path, save_all=True, append_images=images[1:], resolution=dpi)


def read_records(outdir: Path) -> list[dict[str, object]]:
    lines = (outdir / "results.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def pile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder as users have them: a two-page puzzle-book PDF (4 puzzles, then 2 beside
    yesterday's small solution grid), a photo, a corrupt JPEG, a text file and a photo
    of a page without any grid, one of them in a subfolder."""
    folder = tmp_path_factory.mktemp("pile")
    (folder / "book").mkdir()
    page1 = render_book_page(PUZZLES[:4], columns=2)
    page2 = render_book_page(PUZZLES[4:6], columns=1, solution=YESTERDAY)
    save_pdf(folder / "book" / "puzzles.pdf", [page1, page2])
    photo, _, _ = render_puzzle_photo(PUZZLES[6], seed=3, rotation_deg=4, perspective=0.05)
    Image.fromarray(photo).save(folder / "photo.jpg", quality=92)
    good = (folder / "photo.jpg").read_bytes()
    (folder / "corrupt.jpg").write_bytes(good[: len(good) // 3])
    (folder / "notes.txt").write_text("shopping list\n")
    rng = np.random.default_rng(5)
    Image.fromarray((rng.random((600, 800)) * 255).astype(np.uint8)).save(folder / "noise.png")
    (folder / ".hidden.jpg").write_bytes(b"ignored")
    return folder


def test_read_page_finds_every_full_size_grid_in_reading_order() -> None:
    page = render_book_page(PUZZLES[:6], columns=2, solution=YESTERDAY)
    scans = read_page(page, name="page")
    assert ["".join(map(str, s.givens)) for s in scans] == PUZZLES[:6]
    assert all(s.status == "read" for s in scans)


def test_batch_gives_every_input_a_row_and_good_pages_their_images(
    pile: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, text = run_cli("batch", str(pile), "-o", str(out), "--jobs", "1", "--quiet")
    assert code == ExitCode.PARTIAL_FAILURE, text
    records = read_records(out)
    by_source: dict[str, list[dict[str, object]]] = {}
    for rec in records:
        assert set(batch.FIELDS) <= set(rec)
        by_source.setdefault(Path(str(rec["source"])).name, []).append(rec)
    # The folder walk takes images and PDFs: notes.txt is ignored, and said so.
    names = ["corrupt.jpg", "noise.png", "photo.jpg", "puzzles.pdf"]
    assert sorted(by_source) == names
    # The PDF: page 1 holds four puzzles, page 2 two (yesterday's solution is not one).
    pdf = by_source["puzzles.pdf"]
    assert [(r["page"], r["grid"]) for r in pdf] == [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2)]
    for rec, puzzle in zip(pdf, PUZZLES[:6], strict=True):
        assert rec["status"] == "solved" and rec["givens"] == puzzle
        assert rec["solution"] == SOLUTIONS[puzzle]
    assert by_source["photo.jpg"][0]["solution"] == SOLUTIONS[PUZZLES[6]]
    # Failures: one row each with a plain reason.
    assert by_source["corrupt.jpg"][0]["status"] == "error"
    assert "truncated" in str(by_source["corrupt.jpg"][0]["error"])
    assert by_source["noise.png"][0]["status"] == "no_grid"
    # Images for the good pages only.
    images = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.png"))
    assert images == ["book/puzzles.p001.solved.png", "book/puzzles.p002.solved.png",
                      "photo.solved.png"]  # fmt: skip
    drawn = np.asarray(Image.open(out / "book/puzzles.p001.solved.png").convert("RGB"))
    assert drawn.shape[:2] == (2339, 1654)  # A4 rendered at the default 200 dpi
    # The scan is gray; the written digits are coloured.
    coloured = np.ptp(drawn.astype(int), axis=2) > 60
    assert coloured.sum() > 4 * 40 * 200
    # summary.csv: the same rows; nothing half-written left behind.
    with (out / "summary.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["source"], r["page"], r["grid"], r["status"]) for r in rows] == [
        (str(r["source"]), "" if r["page"] is None else str(r["page"]),
         "" if r["grid"] is None else str(r["grid"]), str(r["status"]))
        for r in records
    ]  # fmt: skip
    assert not [p for p in out.rglob(".*") if p.is_file()]
    assert "5 pages, 7 grids: 7 solved, 2 pages with failures; 5 processed" in text
    assert "1 other files ignored" in text


def test_all_good_pages_exit_zero_in_jpeg(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(2):
        photo, _, _ = render_puzzle_photo(PUZZLES[7 + i], seed=i)
        Image.fromarray(photo).save(folder / f"p{i}.png")
    out = tmp_path / "out"
    code, _ = run_cli("batch", str(folder / "*.png"), "-o", str(out), "--format", "jpg",
                      "--quiet", "--jobs", "2")  # fmt: skip
    assert code == ExitCode.OK
    assert sorted(p.name for p in out.glob("*.jpg")) == ["p0.solved.jpg", "p1.solved.jpg"]
    assert [r["status"] for r in read_records(out)] == ["solved", "solved"]


def test_a_crashing_reader_is_a_row_not_a_stopped_batch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Fault injection: the reader raises on one page; the others still finish."""
    import scanner.api

    real = scanner.api.read_page

    def flaky(source: object, **kwargs: object) -> object:
        if str(kwargs.get("name", "")).endswith("p0.png"):
            raise RuntimeError("simulated crash")
        return real(source, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(scanner.api, "read_page", flaky)
    for i in range(2):
        photo, _, _ = render_puzzle_photo(PUZZLES[9 + i], seed=i)
        Image.fromarray(photo).save(tmp_path / f"p{i}.png")
    code, _ = run_cli("batch", str(tmp_path / "p0.png"), str(tmp_path / "p1.png"),
                      "-o", str(tmp_path / "out"), "--jobs", "1", "--quiet")  # fmt: skip
    assert code == ExitCode.PARTIAL_FAILURE
    first, second = read_records(tmp_path / "out")
    assert first["status"] == "error" and "simulated crash" in str(first["error"])
    assert second["status"] == "solved"


def _pages_pdf(path: Path, count: int) -> None:
    pages = [render_book_page([PUZZLES[i % len(PUZZLES)]], columns=1, size=(620, 877))
             for i in range(count)]  # fmt: skip
    save_pdf(path, pages, dpi=75)


def test_killed_batch_resumes_without_losing_or_repeating_pages(tmp_path: Path) -> None:
    pdf = tmp_path / "many.pdf"
    _pages_pdf(pdf, 10)
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "pipeline.cli", "batch", str(pdf), "-o", str(out),
            "--jobs", "1", "--quiet"]  # fmt: skip
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and len(results.read_bytes().splitlines()) >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the batch ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = {json.loads(line)["page"] for line in results.read_text().splitlines()}
    assert 2 <= len(done_before) < 10
    # A crash can also cut a line short: it must be ignored, not break the resume.
    with results.open("a") as fh:
        fh.write('{"source": "cut sho')
    code, text = run_cli("batch", str(pdf), "-o", str(out), "--jobs", "1", "--resume", "--quiet")
    assert code == ExitCode.OK, text
    assert f"({len(done_before)} done earlier)" in text
    records = read_records(out)
    assert [r["page"] for r in records] == list(range(1, 11))
    assert all(r["status"] == "solved" for r in records)
    assert len(list(out.glob("many.p*.solved.png"))) == 10
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_expand_inputs_folders_globs_and_missing(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("a/1.png", "a/b/2.jpg", "a/.x.png", "a/b/3.pdf"):
        (tmp_path / name).write_bytes(b"x")
    out = tmp_path / "a" / "out"
    out.mkdir()
    (out / "old.solved.png").write_bytes(b"x")
    found = batch.expand_inputs(
        [str(tmp_path / "a"), str(tmp_path / "a" / "**" / "*.jpg"), str(tmp_path / "none.png")],
        exclude=out,
    )
    rel = [os.path.relpath(f.path, tmp_path) for f in found]
    assert rel == ["a/1.png", "a/b/2.jpg", "a/b/3.pdf", "none.png"]


@pytest.mark.parametrize(
    ("extra", "exit_code", "message"),
    [
        (["--jobs", "0"], ExitCode.BAD_ARGS, "--jobs must be at least 1"),
        (["--format", "gif"], ExitCode.BAD_ARGS, "invalid choice"),
        (["--dpi", "5"], ExitCode.BAD_ARGS, "--dpi"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, extra: list[str], exit_code: int, message: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "batch", str(tmp_path), "-o", str(tmp_path / "o"),
         *extra],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == exit_code
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_output_folder_that_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("mine")
    code, _ = run_cli("batch", str(tmp_path), "-o", str(target), "--quiet")
    assert code == ExitCode.OUTPUT_ERROR
    assert target.read_text() == "mine"


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    distributed = pytest.importorskip("distributed", reason="dask.distributed not installed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield str(cluster.scheduler_address)


def _comparable(records: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if k not in ("seconds", "output")} for r in records]


def test_dask_cluster_gives_the_local_results(
    pile: Path, tmp_path: Path, dask_scheduler: str
) -> None:
    local, cluster = tmp_path / "local", tmp_path / "cluster"
    code_local, _ = run_cli("batch", str(pile), "-o", str(local), "--jobs", "1", "--quiet")
    code_dask, _ = run_cli(
        "batch", str(pile), "-o", str(cluster), "--scheduler", dask_scheduler, "--quiet"
    )
    assert code_dask == code_local == ExitCode.PARTIAL_FAILURE
    assert _comparable(read_records(cluster)) == _comparable(read_records(local))
    local_images = sorted(p.relative_to(local) for p in local.rglob("*.png"))
    assert sorted(p.relative_to(cluster) for p in cluster.rglob("*.png")) == local_images
    for rel in local_images:
        assert (local / rel).read_bytes() == (cluster / rel).read_bytes()
