"""Helpers that check solver steps against a known unique solution."""

from __future__ import annotations

from collections.abc import Sequence

from solver.grid import BIT, Grid, cell_name
from solver.steps import Step


def assert_step_sound(step: Step, grid: Grid, solution: Sequence[int]) -> None:
    """A step may only place the solution's digit and never eliminate it."""
    assert step.placements or step.eliminations, f"empty step {step}"
    for cell, digit in step.placements:
        assert grid.values[cell] == 0, f"{step.technique} places into filled {cell_name(cell)}"
        assert solution[cell] == digit, (
            f"{step.technique} placed {cell_name(cell)}={digit}, solution has "
            f"{solution[cell]}: {step.text}"
        )
    for cell, digit in step.eliminations:
        assert grid.candidates[cell] & BIT[digit], (
            f"{step.technique} eliminates absent candidate {cell_name(cell)}<>{digit}"
        )
        assert solution[cell] != digit, (
            f"{step.technique} eliminated the solution {cell_name(cell)}<>{digit}: {step.text}"
        )


def matches_schema(obj: object, name: str) -> None:
    """Assert ``obj`` is a valid ``$defs/<name>`` of the repository's JSON Schema
    (``pipeline/sudoku-scan.schema.json``)."""
    import json
    from pathlib import Path

    import jsonschema

    path = Path(__file__).resolve().parent.parent / "pipeline" / "sudoku-scan.schema.json"
    schema = json.loads(path.read_text())
    assert name in schema["$defs"], name
    jsonschema.validate(obj, {**schema, "$ref": f"#/$defs/{name}"})
