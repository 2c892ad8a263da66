"""The phone page in a real browser (Debian's Chromium through Playwright) at 390x844:
take a photo, see the reading, correct a cell, hint, check, solve, step; no console
error (a CSP violation is one), nothing to scroll sideways, every control labelled."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest
import uvicorn

from pipeline.web.app import WebSettings, create_app
from solver.generate import generate
from tests.synth import page_in_pen, render_puzzle_photo

PHONE = {"width": 390, "height": 844}
PUZZLE = "".join(map(str, generate(102)))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("web")
    port = _free_port()
    app = create_app(WebSettings(workers=1, root=root / "sessions"))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def photo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    image, _corners, _lattice = render_puzzle_photo(
        PUZZLE, seed=4, perspective=0.05, size=(900, 700)
    )
    path = tmp_path_factory.mktemp("photo") / "puzzle.jpg"
    cv2.imwrite(str(path), image)
    return path


def _open(browser: Any, server: str, errors: list[str], **options: Any) -> Any:
    page = browser.new_page(viewport=PHONE, **options)
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server)
    return page


def _read(page: Any, photo_file: Path) -> None:
    page.set_input_files("[data-testid=photo-input]", str(photo_file))
    page.wait_for_function(
        "() => { const i = document.querySelector('#photo-view');"
        " return i && i.complete && i.naturalWidth > 0 && !i.hidden; }",
        timeout=60_000,
    )


def test_a_phone_reads_solves_hints_and_checks(browser: Any, server: str, photo_file: Path) -> None:
    errors: list[str] = []
    page = _open(browser, server, errors)
    # Every control has a name a screen reader can say.
    unnamed = page.evaluate(
        "() => [...document.querySelectorAll('button, input, a[href]')]"
        ".filter(e => !e.hidden && e.offsetParent !== null)"
        ".filter(e => !(e.getAttribute('aria-label') || e.textContent.trim()"
        ' || (e.id && document.querySelector(`label[for="${e.id}"]`))))'
        ".map(e => e.outerHTML)"
    )
    assert unnamed == []
    _read(page, photo_file)
    # The reading is drawn over the photo: one outline per printed digit at least.
    assert page.locator("#grid-overlay *").count() >= PUZZLE.count("0") // 2
    # Solve: the annotated image arrives.
    page.click("#btn-solve")
    page.wait_for_function(
        "() => { const i = document.querySelector('#result-image');"
        " return i && i.src.includes('/api/files/') && i.complete && i.naturalWidth > 0; }",
        timeout=60_000,
    )
    # Hint: a line of text and its picture.
    page.click("#btn-hint")
    page.wait_for_function(
        "() => document.querySelector('#result-text').textContent.trim().length > 5",
        timeout=60_000,
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []
    page.close()


def test_dark_mode_changes_the_page(browser: Any, server: str) -> None:
    errors: list[str] = []
    light = _open(browser, server, errors, color_scheme="light")
    dark = _open(browser, server, errors, color_scheme="dark")
    colour = "() => getComputedStyle(document.body).backgroundColor"
    assert light.evaluate(colour) != dark.evaluate(colour)
    assert errors == []
    light.close()
    dark.close()


@pytest.fixture(scope="module")
def started_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int], int]:
    """A rendered page with 60% of its empty cells written in blue pen, one wrong:
    the file, the solution and the wrong cell."""
    page = page_in_pen("blue pen")
    path = tmp_path_factory.mktemp("started") / "started.png"
    cv2.imwrite(str(path), page.image)
    return path, page.solution, page.wrong


def _cell_centre(page: Any, reading: dict[str, Any], cell: int) -> tuple[float, float]:
    """Where cell ``cell`` of the reading is on the screen."""
    lattice = reading["lattice"]
    r, c = divmod(cell, 9)
    corners = [lattice[r][c], lattice[r][c + 1], lattice[r + 1][c + 1], lattice[r + 1][c]]
    x = sum(p[0] for p in corners) / 4
    y = sum(p[1] for p in corners) / 4
    box = page.locator("#photo-view").bounding_box()
    return (
        box["x"] + x * box["width"] / reading["width"],
        box["y"] + y * box["height"] / reading["height"],
    )


def test_a_started_page_checked_corrected_and_hinted(
    browser: Any, server: str, started_page: tuple[Path, list[int], int]
) -> None:
    path, solution, wrong = started_page
    errors: list[str] = []
    page = _open(browser, server, errors)
    with page.expect_response(lambda r: r.url.endswith("/api/read")) as answer:
        page.set_input_files("[data-testid=photo-input]", str(path))
    reading = answer.value.json()
    assert reading["status"] == "read"
    _read(page, path)
    name = f"r{wrong // 9 + 1}c{wrong % 9 + 1}"
    # Check my entries: the wrong one is named, nothing is revealed.
    page.click("#btn-check")
    page.wait_for_function(
        f"() => document.querySelector('#result-text').textContent.includes('{name}')",
        timeout=60_000,
    )
    # ... once: the count under the grid, what the picture shows beside it.
    assert name in page.inner_text("#check-line")
    assert page.inner_text("#check-line") != page.inner_text("#result-text")
    # Correct a cell the reader read as empty: tap it, say it is mine, give its digit.
    empty = next(
        i for i, ch in enumerate(reading["givens"]) if ch == "0" and reading["entries"][i] == "0"
    )
    page.mouse.click(*_cell_centre(page, reading, empty))
    page.wait_for_selector("#digit-pad:not([hidden])")
    page.click("#pad-kind-mine")
    page.click(f".pad-digit[data-digit='{solution[empty]}']")
    page.wait_for_function(
        "() => /checked/.test(document.querySelector('#check-line').textContent)",
        timeout=60_000,
    )
    # The hint ladder: four levels, each saying more, the last the whole step.
    page.click("#btn-hint")
    texts = []
    for level in range(1, 5):
        page.wait_for_function(
            f"() => /level {level}\\b/i.test(document.querySelector('#result-title').textContent)"
            " && !document.querySelector('#btn-hint').disabled",
            timeout=60_000,
        )
        texts.append(page.inner_text("#result-text"))
        if level < 4:
            page.click("#btn-more")
    assert len(set(texts)) == 4
    page.click("#btn-solve")
    page.wait_for_function(
        "() => { const i = document.querySelector('[data-testid=solution-image]');"
        " return i && i.src.includes('/api/files/solve') || (i && i.src.includes('/solve-')); }",
        timeout=60_000,
    )
    assert page.locator("#download-report").is_visible()
    assert errors == []
    page.close()


def test_on_a_page_read_only_digits_in_doubt_are_asked_about(
    browser: Any, server: str, photo_file: Path
) -> None:
    # The server's own reading, with four doubtful cells: the reader settled one as
    # candidate marks (kind "pencil"), one as empty, and read one as a given and one as
    # the person's entry. On a page read, only the two digits get a "?" (a cell left
    # empty cannot change the answer of a puzzle unique without it); on a page refused,
    # all four do.
    errors: list[str] = []
    page = _open(browser, server, errors)
    with page.expect_response(lambda r: r.url.endswith("/api/read")) as answer:
        _read(page, photo_file)
    reading = answer.value.json()
    reading["doubtful"] = ["r1c1", "r1c2", "r1c3", "r1c4"]
    reading["kinds"][:4] = ["pencil", "empty", "given", "entry"]
    counts = []
    for status in ("read", "unreadable"):
        page.reload()
        answered = {**reading, "status": status}
        page.route("**/api/read", lambda route: route.fulfill(json=answered))  # noqa: B023
        _read(page, photo_file)
        summary = page.inner_text("#read-summary")
        counts.append(summary.split(" not sure")[0].split()[-1])
        page.unroute("**/api/read")
    assert counts == ["2", "4"]
    assert errors == []
    page.close()
