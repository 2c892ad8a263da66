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
from tests.synth import render_puzzle_photo

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
    page.set_input_files("#photo-input", str(photo_file))
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
