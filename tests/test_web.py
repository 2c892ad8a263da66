"""The web app's API (``sudoku-scan serve``) through FastAPI's test client: the page's
calls, the errors a phone can cause, the limits, and the security headers."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from pipeline.cli import main
from pipeline.web.app import SECURITY_HEADERS, WebError, WebSettings, Workers, create_app
from pipeline.web.serve import announce
from solver.generate import generate
from solver.search import solutions
from tests.checks import matches_schema
from tests.synth import render_puzzle_photo

PUZZLE = [int(v) for v in generate(102)]
SOLUTION = solutions(PUZZLE, limit=1)[0]


def _jpeg(image: np.ndarray) -> bytes:  # type: ignore[type-arg]
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return buf.tobytes()


@pytest.fixture(scope="module")
def photo() -> bytes:
    image, _corners, _lattice = render_puzzle_photo(
        "".join(map(str, PUZZLE)), seed=4, perspective=0.05, size=(900, 700)
    )
    return _jpeg(image)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    root = tmp_path_factory.mktemp("sessions")
    settings = WebSettings(workers=1, queue=2, max_upload_bytes=2 * 1024 * 1024, root=root)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def reading(client: TestClient, photo: bytes) -> dict[str, object]:
    response = client.post("/api/read", files={"photo": ("puzzle.jpg", photo, "image/jpeg")})
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_health_and_security_headers(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["status"] == "ok"
    for name, value in SECURITY_HEADERS.items():
        assert response.headers[name] == value
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    # The page loads nothing from other hosts and has no inline script.
    assert "http://" not in page.text and "https://" not in page.text
    assert "<script>" not in page.text


def test_read_returns_the_reading_and_the_photo_as_shown(
    client: TestClient, reading: dict[str, object]
) -> None:
    assert reading["status"] == "read"
    matches_schema(reading, "web_read")
    assert reading["givens"] == "".join(map(str, PUZZLE))
    lattice = np.asarray(reading["lattice"])
    assert lattice.shape == (10, 10, 2)
    w, h = reading["width"], reading["height"]
    assert isinstance(w, int) and isinstance(h, int)
    assert lattice[..., 0].min() >= 0 and lattice[..., 0].max() <= w
    shown = client.get(str(reading["photo"]))
    assert shown.status_code == 200 and shown.headers["content-type"] == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(shown.content, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[:2] == (h, w)


def test_a_mirrored_photo_is_read_and_shown_the_right_way_round(client: TestClient) -> None:
    # A webcam's picture: the page mirrored left to right.
    image, _corners, _lattice = render_puzzle_photo(
        "".join(map(str, PUZZLE)), seed=4, perspective=0.05, size=(900, 700)
    )
    mirrored = _jpeg(np.ascontiguousarray(image[:, ::-1]))
    response = client.post("/api/read", files={"photo": ("webcam.jpg", mirrored, "image/jpeg")})
    assert response.status_code == 200, response.text
    reading = response.json()
    matches_schema(reading, "web_read")
    assert reading["status"] == "read" and reading["mirrored"] is True
    assert reading["givens"] == "".join(map(str, PUZZLE))
    shown = client.get(str(reading["photo"]))
    back = cv2.imdecode(np.frombuffer(shown.content, np.uint8), cv2.IMREAD_COLOR)
    # The photo as shown is the page the right way round: nearer the upright render than
    # its mirror.
    assert back.shape == image.shape
    near = float(np.abs(back.astype(float) - image).mean())
    assert near < 0.5 * float(np.abs(back.astype(float) - image[:, ::-1]).mean())


def test_solve_check_and_hint_from_a_reading(
    client: TestClient, reading: dict[str, object]
) -> None:
    sid = reading["id"]
    solved = client.post("/api/solve", data={"id": sid, "mode": "solve"}).json()
    assert solved["status"] == "solved" and solved["solution"] == "".join(map(str, SOLUTION))
    assert len(solved["placed"]) == PUZZLE.count(0)
    matches_schema(solved, "web_solve")
    image = client.get(solved["image"])
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    # The report downloads (its inline style is never shown under the app's CSP).
    report = client.get(solved["report"])
    assert report.status_code == 200 and report.text.startswith("<!DOCTYPE html>")
    assert "attachment" in report.headers["content-disposition"]
    # The person's entries, one wrong: check names it and reveals nothing.
    entries = ["0"] * 81
    empty = [i for i, v in enumerate(PUZZLE) if not v]
    for i in empty[:5]:
        entries[i] = str(SOLUTION[i])
    wrong = empty[5]
    entries[wrong] = str(SOLUTION[wrong] % 9 + 1)
    data = {"id": sid, "mode": "check", "entries": "".join(entries)}
    checked = client.post("/api/solve", data=data).json()
    assert checked["mistakes"] == [f"r{wrong // 9 + 1}c{wrong % 9 + 1}"]
    matches_schema(checked, "web_check")
    assert "solution" not in checked and "steps" not in checked
    assert client.get(checked["image"]).status_code == 200
    # A hint at level 1 carries no placement; at level 4 it does.
    low = client.post("/api/solve", data={"id": sid, "mode": "hint", "level": "1"}).json()
    assert low["hint"]["level"] == 1 and "placements" not in low["hint"]
    matches_schema(low, "web_hint")
    assert "solution" not in low and client.get(low["image"]).status_code == 200
    full = client.post("/api/solve", data={"id": sid, "mode": "hint", "level": "4"}).json()
    assert full["hint"]["placements"] or full["hint"]["eliminations"]
    # Steps mode: step n drawn on the photo.
    step = client.get(f"/api/steps/{sid}/0.png")
    assert step.status_code == 200 and step.content.startswith(b"\x89PNG")
    assert client.get(f"/api/steps/{sid}/{len(solved['steps'])}.png").status_code == 400


def test_an_unclear_entry_stays_unchecked_until_typed(
    client: TestClient, reading: dict[str, object], tmp_path: Path
) -> None:
    from pipeline.web import jobs

    # A copy of the session, read as if the person wrote in a cell the reader could not
    # make out (the reader's side is tested in test_handwriting and test_check_paper).
    session = client.app.state.sessions.root / str(reading["id"])
    folder = tmp_path / "session"
    folder.mkdir()
    for name in (jobs.PHOTO, jobs.STATE):
        (folder / name).write_bytes((session / name).read_bytes())
    unclear = next(i for i, v in enumerate(PUZZLE) if not v)
    state = json.loads((folder / jobs.STATE).read_text())
    (folder / jobs.STATE).write_text(json.dumps({**state, "unclear": [unclear]}))
    givens = "".join(map(str, PUZZLE))
    name = f"r{unclear // 9 + 1}c{unclear % 9 + 1}"
    out = jobs.solve_job(str(folder), givens, "0" * 81, "solve", 4, False)
    assert out["unclear"] == [name] and out["mistakes"] == [] and out["entries_checked"] == 0
    matches_schema({k: out[k] for k in ("entries", "mistakes", "unclear", "entries_checked",
                                         "entries_status")}, "entry_check")  # fmt: skip
    # Typed by the person: an entry like any other, checked.
    typed = ["0"] * 81
    typed[unclear] = str(SOLUTION[unclear] % 9 + 1)
    out = jobs.solve_job(str(folder), givens, "".join(typed), "check", 4, False)
    assert out["unclear"] == [] and out["mistakes"] == [name]


def test_a_corrected_puzzle_with_two_solutions_is_422(
    client: TestClient, reading: dict[str, object]
) -> None:
    givens = list(str(reading["givens"]))
    filled = [i for i, ch in enumerate(givens) if ch != "0"]
    for i in filled[:12]:  # far too few givens left for one solution
        givens[i] = "0"
    data = {"id": reading["id"], "givens": "".join(givens)}
    response = client.post("/api/solve", data=data)
    assert response.status_code == 422 and "solution" in response.json()["error"]
    matches_schema(response.json(), "web_error")


@pytest.mark.parametrize(
    ("content", "status"),
    [
        (b"not an image at all", 415),
        (b"", 415),
        (_jpeg(np.full((600, 800, 3), 240, np.uint8)), 422),  # a photo with no grid
    ],
)
def test_bad_uploads_get_a_json_error(client: TestClient, content: bytes, status: int) -> None:
    response = client.post("/api/read", files={"photo": ("x.jpg", content, "image/jpeg")})
    assert response.status_code == status
    error = response.json()["error"]
    assert isinstance(error, str) and "\n" not in error
    assert "/" not in error, "no server path in the message"


def test_an_upload_over_the_limit_is_413(client: TestClient) -> None:
    big = b"\xff" * (3 * 1024 * 1024)
    response = client.post("/api/read", files={"photo": ("big.jpg", big, "image/jpeg")})
    assert response.status_code == 413 and "MB" in response.json()["error"]


def test_unknown_sessions_and_names_never_reach_a_path(
    client: TestClient, reading: dict[str, object]
) -> None:
    sid = reading["id"]
    assert client.post("/api/solve", data={"id": "0" * 32}).status_code == 404
    assert client.post("/api/solve", data={"id": "../etc"}).status_code == 404
    assert client.get(f"/api/files/{sid}/state.json").status_code == 404
    assert client.get(f"/api/files/{sid}/..%2F..%2Fetc%2Fpasswd").status_code == 404
    assert client.get("/api/files/..%2F..%2Fetc/passwd").status_code == 404
    bad = client.post("/api/solve", data={"id": sid, "mode": "hint", "level": "7"})
    assert bad.status_code == 400 and "level" in bad.json()["error"]


def test_a_full_queue_answers_503_with_retry_after() -> None:
    settings = WebSettings(workers=1, queue=0)
    workers = Workers(settings)
    try:
        workers.busy = 1  # one request running, none may wait
        # In a thread of its own: a browser test may hold this thread's event loop.
        with ThreadPoolExecutor(1) as thread, pytest.raises(WebError) as exc:
            thread.submit(asyncio.run, workers.run(print, "never runs")).result()
        assert exc.value.status == 503 and exc.value.headers["Retry-After"] == "5"
    finally:
        workers.close()


def test_sessions_expire(tmp_path: Path) -> None:
    from pipeline.web.app import Sessions

    store = Sessions(tmp_path, ttl_s=0.0)
    sid, folder = store.new()
    (folder / "photo.jpg").write_bytes(b"x")
    assert store.get(sid) == folder
    assert store.expire() == 1 and not folder.exists()


def test_announce_prints_the_address_and_a_qr_code_for_the_lan() -> None:
    out = io.StringIO()
    urls = announce("127.0.0.1", 8123, out)
    assert urls == ["http://localhost:8123/"] and "8123" in out.getvalue()
    out = io.StringIO()
    urls = announce("0.0.0.0", 8123, out)
    if len(urls) == 2:  # a machine with a LAN address: the phone's URL and its QR code
        assert urls[1] in out.getvalue() and "\u2588" in out.getvalue()


def test_serve_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0"], out=io.StringIO()) == 2
    assert "--port" in capsys.readouterr().err


def test_a_truncated_photo_is_a_4xx_and_the_server_stays_healthy(
    client: TestClient, photo: bytes
) -> None:
    cut = photo[: len(photo) // 3]
    response = client.post("/api/read", files={"photo": ("cut.jpg", cut, "image/jpeg")})
    assert 400 <= response.status_code < 500 and response.json()["error"]
    assert client.get("/healthz").json()["status"] == "ok"
    again = client.post("/api/read", files={"photo": ("puzzle.jpg", photo, "image/jpeg")})
    assert again.status_code == 200


def test_a_decompression_bomb_is_413(client: TestClient) -> None:
    # 15000 x 15000 one-bit pixels: a small file, 225 MP once decoded.
    buffer = io.BytesIO()
    Image.new("1", (15000, 15000), 1).save(buffer, "PNG")
    files = {"photo": ("bomb.png", buffer.getvalue(), "image/png")}
    response = client.post("/api/read", files=files)
    assert response.status_code == 413 and "too large" in response.json()["error"]
    assert client.get("/healthz").status_code == 200


def test_a_worker_killed_mid_way_costs_one_request(client: TestClient, photo: bytes) -> None:
    # Fault injection: the worker process dies (the OOM killer, a crash in a library).
    workers = client.app.state.workers  # type: ignore[attr-defined]
    for pid in list(workers.pool._processes):
        os.kill(pid, signal.SIGKILL)
    time.sleep(0.3)
    files = {"photo": ("puzzle.jpg", photo, "image/jpeg")}
    lost = client.post("/api/read", files=files)
    assert lost.status_code == 500 and "stopped" in lost.json()["error"]
    assert client.post("/api/read", files=files).status_code == 200
