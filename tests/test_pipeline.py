"""End to end: synthetic photo -> read -> solve -> annotated image, through the CLI."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from pipeline.cli import main
from scanner.geometry import GridGeometry
from solver.errors import ExitCode
from solver.generate import generate
from solver.search import solutions

from .synth import render_puzzle_photo

PUZZLE = generate(102)
GIVENS = "".join(map(str, PUZZLE))


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray, np.ndarray]:
    image, _corners, lattice = render_puzzle_photo(
        GIVENS, seed=7, perspective=0.08, rotation_deg=6, blur=0.8, shadow=True, size=(960, 720)
    )
    path = tmp_path_factory.mktemp("photos") / "puzzle.png"
    cv2.imwrite(str(path), image)
    return path, image, lattice


def test_read_json(photo: tuple[Path, np.ndarray, np.ndarray]) -> None:
    path, _image, lattice = photo
    code, text = run("read", str(path), "--json")
    obj = json.loads(text)
    assert code == 0, text
    assert obj["givens"] == GIVENS
    assert len(obj["confidence"]) == 81 and all(0 <= c <= 1 for c in obj["confidence"])
    truth = GridGeometry(lattice, (960, 720)).corners()
    assert np.abs(np.array(obj["corners"]) - truth).max() < 3.0
    assert obj["corrections"] == [] and obj["seconds"] > 0


Photo = tuple[Path, np.ndarray, np.ndarray]


def test_solve_writes_annotated_photo(photo: Photo, tmp_path: Path) -> None:
    path, image, lattice = photo
    out = tmp_path / "out.png"
    report = tmp_path / "report.html"
    code, text = run("solve", str(path), "-o", str(out), "--json", "--report", str(report))
    obj = json.loads(text)
    assert code == 0, text
    (solution,) = solutions(PUZZLE, limit=2)
    assert obj["solution"] == "".join(map(str, solution))
    drawn = cv2.imread(str(out))
    assert drawn.shape == image.shape
    changed = np.any(drawn.astype(int) != image.astype(int), axis=2)
    geometry = GridGeometry(lattice, (960, 720))
    grid_mask = np.zeros(changed.shape, np.uint8)
    cv2.fillConvexPoly(grid_mask, geometry.corners().round().astype(np.int32), 1)
    outside = changed & (grid_mask == 0)
    # Outside the grid only the legend may change: one compact box.
    ys, xs = np.nonzero(outside)
    if len(xs):
        box_area = (xs.max() - xs.min() + 1) * (ys.max() - ys.min() + 1)
        assert box_area < 0.12 * changed.size
    for cell in range(81):
        r, c = divmod(cell, 9)
        cx, cy = geometry.cell_center(r, c).round().astype(int)
        patch = changed[cy - 4 : cy + 5, cx - 4 : cx + 5]
        if PUZZLE[cell]:
            assert not patch.any(), f"given r{r + 1}c{c + 1} was drawn over"
        else:
            inner = changed[cy - 12 : cy + 13, cx - 12 : cx + 13]
            assert inner.any(), f"no digit drawn in r{r + 1}c{c + 1}"
    html = report.read_text()
    assert html.count("<svg") >= len(obj["steps"]) and "http://" not in html


def test_default_output_next_to_input(photo: Photo, tmp_path: Path) -> None:
    path, _image, _ = photo
    local = tmp_path / "mine.png"
    local.write_bytes(path.read_bytes())
    code, _ = run("solve", str(local))
    assert code == 0 and (tmp_path / "mine.solved.png").exists()


def test_unique_failure_writes_nothing(tmp_path: Path) -> None:
    image, _, _ = render_puzzle_photo("0" * 81, seed=3, size=(800, 600))
    path = tmp_path / "empty.png"
    cv2.imwrite(str(path), image)
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "solve", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode in (ExitCode.INVALID_PUZZLE, ExitCode.UNREADABLE), proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "empty.solved.png").exists()


@pytest.mark.parametrize(
    ("make", "exit_code", "message"),
    [
        (lambda p: None, ExitCode.INPUT_FILE, "no such file"),
        (lambda p: p.write_text("hello"), ExitCode.INPUT_FILE, "not an image"),
        (
            lambda p: cv2.imwrite(str(p), np.full((600, 800, 3), 230, np.uint8)),
            ExitCode.NO_GRID,
            "no Sudoku grid",
        ),
    ],
)
def test_bad_photos_one_line_errors(tmp_path: Path, make, exit_code: int, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "in.png"
    make(path)
    for cmd in ("read", "solve"):
        proc = subprocess.run(
            [sys.executable, "-m", "pipeline.cli", cmd, str(path)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert proc.returncode == exit_code, proc.stderr
        assert message in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("turn", [90, 180, 270])
def test_turned_page_reads_upright(turn: int) -> None:
    from scanner.api import read_photo

    image, _, _ = render_puzzle_photo(GIVENS, seed=5, rotation_deg=turn, size=(800, 600))
    scan = read_photo(image)
    assert scan.rotation * 90 == turn
    assert "".join(map(str, scan.givens)) == GIVENS
