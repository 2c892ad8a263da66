"""One JSON vocabulary: every object ``read``, ``solve``, ``logic``, ``--hint`` and
``batch`` print or write matches the repository's JSON Schema
(``pipeline/sudoku-scan.schema.json``), and its status list is the code's."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from pipeline.batch.page import FIELDS
from pipeline.cli import main
from solver.errors import Status
from solver.generate import generate
from solver.steps import Role

from .checks import matches_schema
from .synth import render_puzzle_photo

PUZZLE = "".join(map(str, generate(811, min_givens=26)))
SCHEMA = Path(__file__).resolve().parent.parent / "pipeline" / "sudoku-scan.schema.json"


def run(*argv: str) -> list[dict[str, object]]:
    out = io.StringIO()
    main(list(argv), out=out)
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("schema") / "photo.png"
    Image.fromarray(render_puzzle_photo(PUZZLE, seed=4, size=(640, 480))[0]).save(path)
    return path


def test_the_schema_lists_the_code_s_statuses_and_batch_fields() -> None:
    schema = json.loads(SCHEMA.read_text())
    assert schema["$defs"]["status"]["enum"] == [s.value for s in Status]
    assert schema["$defs"]["batch_record"]["required"] == list(FIELDS)
    for name, sub in schema["$defs"].items():  # every status a command names is one of them
        for part in [sub, *sub.get("allOf", [])]:
            status = part.get("properties", {}).get("status", {})
            assert set(status.get("enum", [])) <= set(Status), name
    marked = schema["$defs"]["step"]["properties"]["marked"]["properties"]
    assert list(marked) == [r.value for r in Role]  # a step's roles, named as the code does


def test_read_and_solve_match(photo: Path, tmp_path: Path) -> None:
    (read,) = run("read", str(photo), "--json")
    assert read["source"] == str(photo) and read["status"] == "read"
    matches_schema(read, "read")
    (solved,) = run("solve", str(photo), "--json", "-o", str(tmp_path / "o.png"))
    assert solved["source"] == str(photo) and solved["status"] == "solved"
    matches_schema(solved, "solve")
    (hint,) = run("solve", str(photo), "--hint", "--json", "-o", str(tmp_path / "h.png"))
    assert hint["status"] == "hint"
    matches_schema(hint, "hint")
    (missing,) = run("read", str(tmp_path / "none.png"), "--json")
    assert missing["status"] == "error"
    matches_schema(missing, "failure")


def test_logic_and_hint_match(tmp_path: Path) -> None:
    (logic,) = run("logic", PUZZLE, "--json")
    matches_schema(logic, "logic")
    (several,) = run("logic", "1" + "0" * 80, "--json")
    assert several["status"] == "multiple_solutions"
    matches_schema(several, "logic")
    for level in ("1", "4"):
        (hint,) = run("logic", PUZZLE, "--hint", "--json", "--level", level)
        matches_schema(hint, "hint")
    many = tmp_path / "many.txt"
    many.write_text(PUZZLE + "\n" + "11" + "0" * 79 + "\n")
    good, bad = run("logic", str(many), "--json")
    matches_schema(good, "logic")
    assert bad["status"] == "no_solution"
    matches_schema(bad, "logic_error")


def test_batch_rows_match(photo: Path, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "p.png").write_bytes(photo.read_bytes())
    (tmp_path / "in" / "broken.png").write_bytes(b"no image")
    main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--quiet"], out=io.StringIO())
    rows = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert sorted(str(r["status"]) for r in rows) == ["error", "solved"]
    for row in rows:
        matches_schema(row, "batch_record")
    solved = next(r for r in rows if r["status"] == "solved")
    (direct,) = run("solve", str(photo), "--json", "-o", str(tmp_path / "o.png"))
    # one vocabulary: the batch row's hardest is solve's difficulty.hardest (an id)
    assert solved["hardest"] == direct["difficulty"]["hardest"]  # type: ignore[index]
