"""Shared fixtures: the reference data beside the repository, when present."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


# Debian's chromium, driven by Playwright; never a downloaded browser. The flags keep a
# headless Chromium from reaching for Google's services on a machine with no network.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium (Playwright ``Browser``); skipped where none is installed."""
    if not CHROMIUM.is_file():
        pytest.skip(f"no chromium at {CHROMIUM} (make installs Debian's chromium when root)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[dev]')")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
