"""Graded hints: levels 1-3 tell where, which technique and on what evidence, never the
result; level 4 is the step the solver takes next from the same position."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

from overlay.hint import PLACED_COLOUR, draw_hint
from pipeline.cli import main
from scanner.geometry import GridGeometry
from solver import Grid, hint, parse_puzzle, solve
from solver.grid import cell_name
from solver.hints import HintLevel, hint_dict, hint_text
from solver.parse import read_puzzle_file
from solver.steps import Step
from tests.synth import render_puzzle_photo

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
RESULT_KEYS = {"placements", "eliminations"}


def _assert_ladder(step: Step) -> None:
    placed = {d for _c, d in step.placements}
    answer = step.text
    for level in (HintLevel.WHERE, HintLevel.TECHNIQUE, HintLevel.EVIDENCE):
        d = hint_dict(step, level)
        assert d["level"] == level and not RESULT_KEYS & d.keys()
        assert not placed & set(d.get("digits", []))  # type: ignore[call-overload]
        text = hint_text(step, level)
        assert text == d["text"] and answer not in text
        for cell, digit in step.placements:
            assert f"{cell_name(cell)}={digit}" not in text and f"is {digit}" not in text
        assert ("technique" in d) == (level >= HintLevel.TECHNIQUE)
        # Where to look is there at every level.
        assert d["houses"] or d["cells"]
    full = hint_dict(step, HintLevel.ANSWER)
    assert full["text"] == answer and full.keys() >= RESULT_KEYS


def test_every_level_on_qqwing_puzzles_and_level_4_is_the_next_solve_step(
    puzzles_dir: Path,
) -> None:
    texts = [t for _, t in read_puzzle_file(puzzles_dir / "sets/qqwing_expert.sdm")][:10]
    texts += [t for _, t in read_puzzle_file(puzzles_dir / "sets/qqwing_intermediate.sdm")][:10]
    for text in texts:
        grid = parse_puzzle(text)
        result = solve(grid)
        position = grid.copy()
        for k, step in enumerate(result.steps):
            if k % 4 == 0:  # every fourth position of the solve
                nxt = hint(position)
                assert nxt is not None and nxt.to_dict() == step.to_dict()
                _assert_ladder(nxt)
            step.apply(position)


def test_cli_levels_tell_more_each_time() -> None:
    texts = []
    for level in (1, 2, 3, 4):
        out = io.StringIO()
        assert main(["logic", PUZZLE, "--hint", "--level", str(level), "--json"], out=out) == 0
        obj = json.loads(out.getvalue())
        assert obj["hint"]["level"] == level
        texts.append(obj["hint"]["text"])
    assert len(set(texts)) == 4
    step = hint(Grid([int(c) for c in PUZZLE]))
    assert step is not None and texts[3] == step.text


def test_level_without_hint_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["logic", PUZZLE, "--level", "2"], out=io.StringIO()) == 2
    assert "--level only goes with --hint" in capsys.readouterr().err


def test_the_hint_drawn_on_a_photo_shows_the_digit_only_at_level_4() -> None:
    image, _corners, lattice = render_puzzle_photo(PUZZLE, seed=3, size=(640, 480))
    geo = GridGeometry(np.asarray(lattice, dtype=np.float64), (640, 480))
    step = hint(Grid([int(c) for c in PUZZLE]))
    assert step is not None and step.placements
    ((cell, _digit),) = step.placements
    quad = geo.cell_quad(*divmod(cell, 9)).round().astype(int)
    x0, y0 = quad.min(axis=0) + 3
    x1, y1 = quad.max(axis=0) - 3
    green = np.array(PLACED_COLOUR[::-1])
    for level in HintLevel:
        drawn = draw_hint(image, geo, step, level)
        # The photo keeps its size; the words go into a strip below it.
        assert drawn.shape[1] == image.shape[1] and drawn.shape[0] > image.shape[0]
        assert not np.array_equal(drawn[: image.shape[0]], image)  # where to look
        patch = drawn[y0:y1, x0:x1].astype(int)
        solid = (np.abs(patch - green).sum(axis=2) <= 30).sum()
        assert (solid > 20) == (level == HintLevel.ANSWER), level
