"""The phone web app: ``sudoku-scan serve``.

One page (``static/``: plain HTML, CSS and JS served by the app, no build step, nothing
from other hosts) and the API it uses, which scripts can use too:

=========================== ===========================================================
``GET /``                   the page
``GET /healthz``            ``{"status": "ok", "workers", "busy", "queue"}``
``POST /api/read``          multipart ``photo``: ``read --json``'s fields, ``id``, the
                            photo as shown (``photo`` URL, ``width``, ``height``,
                            ``lattice``)
``POST /api/solve``         multipart ``id`` or ``photo``, optional ``givens``,
                            ``entries``, ``mode`` (solve, check, hint), ``level``,
                            ``reveal``: ``solve --json``'s fields plus ``image`` (URL)
                            and, solved, ``report`` (URL of the HTML report)
``GET /api/steps/{id}/{n}.png``  step n of the solve drawn on the photo
``GET /api/files/{id}/{name}``   a session's images
=========================== ===========================================================

Errors are JSON ``{"error": "one line"}``: 400 bad field, 404 unknown or expired
session, 413 upload or image too large, 415 not an image, 422 no grid, unreadable (with
``"doubtful"``) or a printed puzzle without one solution, 503 busy (``Retry-After``),
504 too slow. The reader and solver run in a pool of worker processes, each loaded once
(:class:`Workers`); uploads and results live in a temporary folder per session and
expire (:class:`Sessions`); no client-supplied name ever touches a path.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from scanner.errors import ImageTooLargeError, NoGridError, UnreadableGridError
from solver.errors import BadArgsError, InputFileError, InvalidPuzzleError, Status, SudokuScanError

from . import jobs

STATIC = Path(__file__).resolve().parent / "static"
UPLOAD = "upload"  # the uploaded file's fixed name in its session
_ID = re.compile(r"[0-9a-f]{32}")
_FILE = re.compile(
    r"(photo\.jpg|(solve|check|hint|step)-[0-9a-f]{16}\.png|report-[0-9a-f]{16}\.html)"
)
T = TypeVar("T")

# No inline script or style, nothing from other hosts; images may be blobs (sharing).
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; "
        "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


@dataclass(frozen=True)
class WebSettings:
    """Limits of one server.

    Attributes
    ----------
    workers : int
        Worker processes reading and solving (each loads the reader once).
    queue : int
        Requests that may wait for a worker; one more is answered 503.
    timeout_s : float
        Longest a request waits for its job before 504.
    max_upload_bytes : int
        Largest upload; a larger one is 413 (pixels are limited by the reader too).
    ttl_s : float
        How long a session's files live after its last use.
    root : Path or None
        Where sessions live (default: a new temporary folder, removed at shutdown).
    """

    workers: int = 2
    queue: int = 8
    timeout_s: float = 60.0
    max_upload_bytes: int = 25 * 1024 * 1024
    ttl_s: float = 3600.0
    root: Path | None = None


class WebError(Exception):
    """An HTTP error with a one-line message (and extra JSON fields)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra
        self.headers: dict[str, str] = {}


def _http_error(exc: SudokuScanError) -> WebError:
    """The HTTP status of each failure kind of the reader and solver."""
    if isinstance(exc, ImageTooLargeError):
        return WebError(413, str(exc))
    if isinstance(exc, BadArgsError):
        return WebError(400, str(exc))
    if isinstance(exc, InputFileError):
        return WebError(415, str(exc))
    if isinstance(exc, NoGridError | UnreadableGridError | InvalidPuzzleError):
        return WebError(422, str(exc))
    return WebError(500, str(exc))


class Sessions:
    """Per-session folders under one root, named by the server's random ids; a session
    expires ``ttl_s`` after its last use."""

    def __init__(self, root: Path | None, ttl_s: float) -> None:
        self._own = root is None
        self.root = Path(tempfile.mkdtemp(prefix="sudoku-scan-web-")) if root is None else root
        self.root.mkdir(parents=True, exist_ok=True)
        self.ttl_s = ttl_s

    def new(self) -> tuple[str, Path]:
        sid = secrets.token_hex(16)
        folder = self.root / sid
        folder.mkdir()
        return sid, folder

    def get(self, sid: str) -> Path:
        """The folder of a live session (404 for anything else)."""
        folder = self.root / sid if _ID.fullmatch(sid) else None
        if folder is None or not folder.is_dir():
            raise WebError(404, "this photo is no longer here: take or choose it again")
        folder.touch()  # in use: its expiry starts again
        return folder

    def expire(self) -> int:
        """Remove the sessions unused for ``ttl_s``; how many."""
        now, gone = time.time(), 0
        for folder in self.root.iterdir():
            if folder.is_dir() and now - folder.stat().st_mtime > self.ttl_s:
                shutil.rmtree(folder, ignore_errors=True)
                gone += 1
        return gone

    def close(self) -> None:
        if self._own:
            shutil.rmtree(self.root, ignore_errors=True)


class Workers:
    """A pool of worker processes with a bounded queue and a time limit per request."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self.pool = self._start()
        self.busy = 0

    def _start(self) -> ProcessPoolExecutor:
        # spawn: a fresh interpreter per worker, never a fork of the server's threads.
        return ProcessPoolExecutor(
            max_workers=self.settings.workers,
            mp_context=get_context("spawn"),
            initializer=jobs.warm,
        )

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        """Run ``func(*args)`` in a worker: 503 when the queue is full, 504 when slow."""
        limit = self.settings.workers + self.settings.queue
        if self.busy >= limit:
            error = WebError(503, "the server is busy: try again in a few seconds")
            error.headers["Retry-After"] = "5"
            raise error
        self.busy += 1
        try:
            future = asyncio.wrap_future(self.pool.submit(func, *args))
            return await asyncio.wait_for(future, self.settings.timeout_s)
        except TimeoutError:
            raise WebError(504, "reading this photo took too long: try a smaller one") from None
        except BrokenProcessPool:
            # A worker died (killed for memory, a crash): start a fresh pool so the
            # next request is served; this one is lost.
            broken, self.pool = self.pool, self._start()
            broken.shutdown(wait=False, cancel_futures=True)
            message = "the reader stopped on this photo: try again or another one"
            raise WebError(500, message) from None
        except SudokuScanError as exc:
            raise _http_error(exc) from None
        finally:
            self.busy -= 1

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class Health(BaseModel):
    status: str
    workers: int
    busy: int
    queue: int


async def _save_upload(photo: UploadFile, target: Path, limit: int) -> None:
    """Copy an upload to ``target`` in chunks, refusing it past ``limit`` bytes (413)."""
    size = 0
    with target.open("wb") as out:
        while chunk := await photo.read(1 << 20):
            size += len(chunk)
            if size > limit:
                raise WebError(413, f"the photo is larger than {limit // (1024 * 1024)} MB")
            out.write(chunk)
    if size == 0:
        raise WebError(415, "the upload is empty: choose a photo")


def _level(text: str) -> int:
    if text not in ("1", "2", "3", "4"):
        raise WebError(400, "level must be 1, 2, 3 or 4")
    return int(text)


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The web app with its own worker pool and session folder (see the module)."""
    config = settings or WebSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.workers = Workers(config)
        app.state.sessions = Sessions(config.root, config.ttl_s)
        sweeper = asyncio.create_task(_sweep(app.state.sessions))
        try:
            yield
        finally:
            sweeper.cancel()
            app.state.workers.close()
            app.state.sessions.close()

    app = FastAPI(title="sudoku-scan", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.exception_handler(WebError)
    async def web_error(_request: Request, exc: WebError) -> JSONResponse:
        body = {"error": str(exc), **exc.extra}
        return JSONResponse(body, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else "invalid request"
        return JSONResponse({"error": message}, status_code=400, headers=SECURITY_HEADERS)

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, exc: Exception) -> JSONResponse:
        # A bug, not the person's fault: one line, never a traceback on the page.
        message = f"internal error ({type(exc).__name__}): please try again"
        return JSONResponse({"error": message}, status_code=500, headers=SECURITY_HEADERS)

    def workers(request: Request) -> Workers:
        return request.app.state.workers

    def sessions(request: Request) -> Sessions:
        return request.app.state.sessions

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/healthz")
    async def healthz(request: Request) -> Health:
        pool = workers(request)
        return Health(status="ok", workers=config.workers, busy=pool.busy, queue=config.queue)

    async def _read(request: Request, photo: UploadFile) -> tuple[str, Path, dict[str, Any]]:
        sid, folder = sessions(request).new()
        upload = folder / UPLOAD
        await _save_upload(photo, upload, config.max_upload_bytes)
        out = await workers(request).run(jobs.read_job, str(upload), str(folder))
        upload.unlink(missing_ok=True)
        return sid, folder, out

    @app.post("/api/read")
    async def read(request: Request, photo: Annotated[UploadFile, File()]) -> dict[str, Any]:
        sid, _folder, out = await _read(request, photo)
        return {"id": sid, **out, "photo": f"/api/files/{sid}/{jobs.PHOTO}"}

    @app.post("/api/solve")
    async def solve(
        request: Request,
        photo: Annotated[UploadFile | None, File()] = None,
        id: Annotated[str, Form()] = "",
        givens: Annotated[str, Form()] = "",
        entries: Annotated[str, Form()] = "",
        mode: Annotated[str, Form()] = jobs.Mode.SOLVE,
        level: Annotated[str, Form()] = "4",
        reveal: Annotated[str, Form()] = "",
    ) -> dict[str, Any]:
        if mode not in jobs.MODES:
            raise WebError(400, f"mode must be one of {', '.join(jobs.MODES)}")
        hint_level = _level(level)
        head: dict[str, Any] = {}
        if photo is not None and photo.filename:
            sid, folder, reading = await _read(request, photo)
            if reading["status"] != Status.READ:
                raise WebError(
                    422,
                    reading.get("problem") or "the photo could not be read",
                    doubtful=reading.get("doubtful", []),
                    id=sid,
                )
            head = {"corrections": reading.get("corrections", [])}
        elif id:
            sid, folder = id, sessions(request).get(id)
        else:
            raise WebError(400, "send a photo, or the id of one read before")
        read_givens, read_entries = jobs.reading_of(folder)
        out = await workers(request).run(
            jobs.solve_job,
            str(folder),
            givens or read_givens,
            entries or read_entries,
            mode,
            hint_level,
            reveal in ("1", "true", "on"),
        )
        name = out.pop("file", None)
        image = f"/api/files/{sid}/{name}" if name else None
        report = out.pop("report_file", None)
        if report:
            out["report"] = f"/api/files/{sid}/{report}"
        return {"id": sid, **head, **out, "image": image}

    @app.get("/api/steps/{sid}/{index}.png")
    async def step_image(
        request: Request, sid: str, index: int, givens: str = "", entries: str = ""
    ) -> FileResponse:
        folder = sessions(request).get(sid)
        read_givens, read_entries = jobs.reading_of(folder)
        name = await workers(request).run(
            jobs.step_job, str(folder), givens or read_givens, entries or read_entries, index
        )
        return FileResponse(folder / name, media_type="image/png")

    @app.get("/api/files/{sid}/{name}")
    async def files(request: Request, sid: str, name: str) -> FileResponse:
        folder = sessions(request).get(sid)
        if not _FILE.fullmatch(name) or not (folder / name).is_file():
            raise WebError(404, "no such file in this session")
        if name.endswith(".html"):
            # A report has its own inline style: it is downloaded, not shown here.
            return FileResponse(
                folder / name, media_type="text/html", filename="sudoku-report.html"
            )
        media = "image/jpeg" if name.endswith(".jpg") else "image/png"
        return FileResponse(folder / name, media_type=media)

    return app


async def _sweep(store: Sessions, every_s: float = 60.0) -> None:
    """Expire old sessions now and then."""
    while True:
        await asyncio.sleep(every_s)
        await asyncio.to_thread(store.expire)
