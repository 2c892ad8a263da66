"""Shared fixtures: the reference data beside the repository, when present."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
PUZZLES = SHARED / "puzzles"
PHOTOS = SHARED / "photos"


@pytest.fixture(scope="session")
def puzzles_dir() -> Path:
    if not PUZZLES.is_dir():
        pytest.skip(f"reference puzzles not present at {PUZZLES}")
    return PUZZLES


@pytest.fixture(scope="session")
def photos_dir() -> Path:
    if not PHOTOS.is_dir():
        pytest.skip(f"reference photos not present at {PHOTOS}")
    return PHOTOS
