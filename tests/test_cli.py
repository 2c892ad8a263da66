from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli import main
from solver.errors import ExitCode
from solver.generate import generate

PUZZLE = "".join(map(str, generate(102)))


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_logic_text_and_json() -> None:
    code, text = run("logic", PUZZLE)
    assert code == ExitCode.OK
    assert "XY-Wing" in text and "status: solved" in text
    code, text = run("logic", PUZZLE, "--json")
    obj = json.loads(text)
    assert code == 0 and obj["status"] == "solved" and len(obj["solution"]) == 81
    assert set(obj) >= {"status", "givens", "solution", "steps", "difficulty"}
    step = obj["steps"][0]
    assert set(step) >= {"technique", "placements", "eliminations", "text"}
    assert all(p[0] == "r" and "=" in p for s in obj["steps"] for p in s["placements"])
    assert obj["difficulty"]["hardest"] == "xy-wing"


def test_hint_is_one_step() -> None:
    code, text = run("logic", PUZZLE, "--hint", "--json")
    obj = json.loads(text)
    assert code == 0 and obj["hint"]["technique"] in ("full-house", "naked-single", "hidden-single")
    assert len(text.strip().splitlines()) == 1


def test_file_of_many_puzzles(tmp_path: Path) -> None:
    f = tmp_path / "set.sdm"
    f.write_text("\n".join("".join(map(str, generate(s))) for s in (0, 2, 3)) + "\n")
    code, text = run("logic", str(f), "--json")
    lines = [json.loads(line) for line in text.splitlines()]
    assert code == 0 and len(lines) == 3 and all(o["status"] == "solved" for o in lines)
    f.write_text(PUZZLE + "\n" + "1" * 81 + "\n")
    code, text = run("logic", str(f), "--json")
    lines = [json.loads(line) for line in text.splitlines()]
    assert code == ExitCode.PARTIAL_FAILURE
    assert lines[1]["status"] == "no_solution" and "duplicate 1 in row 1" in lines[1]["error"]


def test_invalid_and_ambiguous_puzzles() -> None:
    code, text = run("logic", "0" * 81, "--json")
    obj = json.loads(text)
    assert code == ExitCode.INVALID_PUZZLE and obj["status"] == "multiple_solutions"
    a, b = obj["solutions"]
    assert a != b
    unsolvable = "12345678" + "0" * 9 + "9" + "0" * 63
    code, text = run("logic", unsolvable)
    assert code == ExitCode.INVALID_PUZZLE and "no solution" in text


@pytest.mark.parametrize(
    ("argv", "exit_code", "message"),
    [
        (["logic", "123"], ExitCode.INPUT_FILE, "expected 81 cells, got 3"),
        (["logic", "no/such/file.txt"], ExitCode.INPUT_FILE, "no such file"),
        (
            ["logic", "11" + "0" * 79],
            ExitCode.INVALID_PUZZLE,
            "duplicate 1 in row 1: r1c1 and r1c2",
        ),
        (["logic"], ExitCode.BAD_ARGS, "the following arguments are required"),
        (["frobnicate"], ExitCode.BAD_ARGS, "invalid choice"),
    ],
)
def test_errors_are_one_line_with_exit_code(argv: list[str], exit_code: int, message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *argv], capture_output=True, text=True, check=False
    )
    assert proc.returncode == exit_code
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("sudoku-scan")


def test_reglib_cli(tmp_path: Path) -> None:
    lib = tmp_path / "lib.txt"
    lib.write_text(
        "# comment\n"
        ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3..+1+4.+5...."
        "42193..1.+57...+44+2.6+3.+1+75:::829:\n"
        ":9999:1:" + "." * 81 + ":::111:\n"
    )
    code, text = run("reglib", str(lib), "--json")
    lines = text.strip().splitlines()
    first = json.loads(lines[0])
    assert first["line"] == 2 and first["supported"] and first["technique"] == "0003"
    assert {"eliminations": [], "placements": ["r2c9=8"]} in first["instances"]
    assert json.loads(lines[1])["supported"] is False
    assert lines[-1] == "1 passed, 0 failed, 1 unsupported" and code == 0
