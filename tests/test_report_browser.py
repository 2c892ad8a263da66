"""The HTML report in a real browser (Debian's Chromium) at a phone's size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

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
