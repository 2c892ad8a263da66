"""The wheel (`pip install .`) compiles the solver with mypyc, and the installed package,
away from the checkout, uses its compiled modules; with SUDOKU_SCAN_PURE_BUILD=1 it is a
pure wheel that runs as plain Python. Each test builds a wheel from this checkout, with
no network: no build isolation, the build tools of the test's own environment. The
compiled build is made at -O0 (SUDOKU_SCAN_OPT_LEVEL=0): about 40 s on two cores, against
three minutes at the -O3 of `make native` and a release wheel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest

from solver import native, parse_puzzle, solve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from build_native import OPT_LEVEL_ENV, missing_toolchain  # noqa: E402

pytestmark = pytest.mark.slow

# top95's 12th puzzle (as in test_native): loops, ALS and forcing chains on the way.
HARD = ".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8..."
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

# Run by the installed package's interpreter: where the solver came from, how it runs, and
# its solve of the puzzle given as the first argument.
PROBE = """
import json, sys
import solver
from solver import native, parse_puzzle, solve
result = solve(parse_puzzle(sys.argv[1]))
print(json.dumps({
    "file": solver.__file__,
    "native": solver.NATIVE,
    "mode": solver.solver_mode(),
    "compiled": native.compiled_modules(),
    "status": result.status,
    "solution": result.solution,
    "steps": [s.to_dict() for s in result.steps],
}))
"""


def _build_wheel(out: Path, pure: bool) -> Path:
    env = {k: v for k, v in os.environ.items() if k not in ("SUDOKU_SCAN_PURE_BUILD",)}
    env[OPT_LEVEL_ENV] = "0"  # compiled all the same, in a fifth of the time
    if pure:
        env["SUDOKU_SCAN_PURE_BUILD"] = "1"
    command = [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation"]
    done = subprocess.run(
        [*command, "--no-index", "-q", "-w", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (wheel,) = out.glob("sudoku_scan-*.whl")
    return wheel


def _install(wheel: Path, venv: Path) -> Path:
    """A fresh venv with ``wheel`` installed (not editable); the dependencies come from the
    test's environment through a .pth line (its own .pth files, among them the checkout's
    editable install, are not read). Returns its Python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q"]
    subprocess.run([*install, "--no-deps", "--no-index", str(wheel)], check=True)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _probe(python: Path, puzzle: str, cwd: Path) -> dict[str, Any]:
    """Run PROBE outside the checkout, so that its ``solver/`` is not on sys.path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", native.PURE_ENV)}
    done = subprocess.run(
        [str(python), "-c", PROBE, puzzle], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    assert Path(data["file"]).is_relative_to(python.parent.parent), data["file"]
    return data


def _same_solve(data: dict[str, Any], puzzle: str) -> None:
    here = solve(parse_puzzle(puzzle))
    assert data["status"] == here.status == "solved"
    assert data["solution"] == here.solution
    assert data["steps"] == [s.to_dict() for s in here.steps]


def test_the_wheel_installs_a_compiled_solver(tmp_path: Path) -> None:
    why = missing_toolchain()
    if why is not None:
        pytest.skip(f"this machine cannot compile the solver: {why}")
    wheel = _build_wheel(tmp_path / "dist", pure=False)
    assert not wheel.name.endswith("-py3-none-any.whl"), wheel.name
    python = _install(wheel, tmp_path / "venv")
    data = _probe(python, HARD, tmp_path)
    assert data["native"], f"the installed solver runs {data['mode']}"
    assert data["mode"] == "compiled with mypyc"
    assert {"solver.grid", "solver.solve"} <= set(data["compiled"])
    assert [m for m in data["compiled"] if m.startswith("solver.techniques.")]
    _same_solve(data, HARD)


def test_a_pure_build_runs_as_plain_python(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path / "dist", pure=True)
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert "solver/_native.json" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    python = _install(wheel, tmp_path / "venv")
    data = _probe(python, EASY, tmp_path)
    assert not data["native"] and not data["compiled"]
    assert "SUDOKU_SCAN_PURE_BUILD is set" in data["mode"], data["mode"]
    _same_solve(data, EASY)
