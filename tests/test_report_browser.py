"""The HTML report in real browsers at a phone's size: Debian's Chromium (driven by
Playwright) and Debian's Firefox ESR (its own headless screenshot)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from overlay.report import write_report
from solver import solve
from solver.generate import generate

PHONE = {"width": 390, "height": 844}


def _dark_lines(image: np.ndarray[Any, Any], axis: int) -> int:
    """How many rows (axis 0) or columns (axis 1) of a screenshot are mostly dark."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    dark = (gray < 90).mean(axis=1 - axis)
    runs = np.flatnonzero(dark > 0.8)
    # Count separate lines: a thick line spans adjacent rows.
    return int(len(runs) and 1 + np.count_nonzero(np.diff(runs) > 1))


def _grid_lines(image: np.ndarray[Any, Any]) -> tuple[int, int]:
    """(vertical, horizontal) dark lines of the first grid in a whole-page screenshot.

    Vertical: columns holding a dark run at least 150 px tall (text never does). Then,
    between the outermost of those, the rows that are mostly dark."""
    dark = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) < 90
    longest = np.zeros(dark.shape[1], int)
    run = np.zeros(dark.shape[1], int)
    for row in dark:
        run = np.where(row, run + 1, 0)
        longest = np.maximum(longest, run)
    columns = np.flatnonzero(longest >= 150)
    if not len(columns):
        return 0, 0
    vertical = 1 + int(np.count_nonzero(np.diff(columns) > 1))
    inside = dark[:, columns[0] : columns[-1] + 1].mean(axis=1)
    rows = np.flatnonzero(inside > 0.8)
    horizontal = int(len(rows) and 1 + np.count_nonzero(np.diff(rows) > 1))
    return vertical, horizontal


def test_report_grid_lines_show_at_phone_size(browser: Any, tmp_path: Path) -> None:
    result = solve(generate(9))  # needs more than singles: steps open and folded
    path = write_report(result, tmp_path / "report.html", title="Phone")
    page = browser.new_page(viewport=PHONE)
    page.goto(path.as_uri())
    # The puzzle grid and the first open step's grid: the four box lines across and down.
    for selector in ("figure svg.g", "main > ol.steps svg.g"):
        shot = page.locator(selector).first.screenshot()
        image = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_COLOR)
        assert _dark_lines(image, 0) >= 4 and _dark_lines(image, 1) >= 4, selector
    # The page fits the phone's width: nothing to scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The solution waits behind a tap.
    spoiler = page.locator("details.spoiler")
    assert not spoiler.evaluate("d => d.open")
    spoiler.locator("summary").click()
    assert spoiler.evaluate("d => d.open")
    # Contents jump to the first step that is not a single.
    hard = page.locator("nav ol ol a").first
    target = hard.get_attribute("href")
    hard.click()
    assert page.evaluate("location.hash") == target
    page.close()


def test_report_grid_lines_show_in_firefox(tmp_path: Path) -> None:
    firefox = shutil.which("firefox-esr") or shutil.which("firefox")
    if firefox is None:
        pytest.skip("no firefox-esr (make installs Debian's firefox-esr when root)")
    result = solve(generate(9))
    path = write_report(result, tmp_path / "report.html", title="Phone")
    shot, profile = tmp_path / "firefox.png", tmp_path / "profile"
    profile.mkdir()
    # A fresh profile: nothing read from or written to the user's own.
    subprocess.run(
        [firefox, "--headless", "-no-remote", "-profile", str(profile),
         f"--window-size={PHONE['width']},2400", "--screenshot", str(shot), path.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    image = cv2.imread(str(shot), cv2.IMREAD_COLOR)
    assert image is not None and image.shape[1] == PHONE["width"]
    vertical, horizontal = _grid_lines(image)
    # the puzzle's grid: its four box lines across and down, at least
    assert vertical >= 4 and horizontal >= 4, (vertical, horizontal)
