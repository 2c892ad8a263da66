"""Load benchmark of the web app: concurrent users uploading photos to be solved.

Usage::

    python benchmarks/bench_serve.py [--users 1 4 16] [--requests 32] [--workers 2]
                                     [--photos ../shared/data/photos/wicht-train]

Starts ``sudoku-scan serve`` on a free port (``--workers`` reader processes), then, for
each number of users, that many threads each upload photos one after another to
``POST /api/solve`` (read + solve + draw, one request) until ``--requests`` are done,
and fetch the annotated image. Prints per user count: answers by status, p50/p95
latency, throughput, and the peak memory of the server and its workers together
(resident set sizes read from /proc). A 503 counts as a refusal, not a latency.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PHOTOS = ROOT.parent / "shared" / "data" / "photos" / "wicht-train"


def _multipart(field: str, name: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
        f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'
    ).encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), boundary


def _post_solve(port: int, photo: bytes) -> tuple[int, float]:
    body, boundary = _multipart("photo", "photo.jpg", photo)
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request(
        "POST", "/api/solve", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    )
    response = conn.getresponse()
    payload = response.read()
    status = response.status
    if status == 200:
        import json

        image = json.loads(payload).get("image")
        if image:
            conn.request("GET", image)
            got = conn.getresponse()
            got.read()
            status = 200 if got.status == 200 else got.status
    conn.close()
    return status, time.perf_counter() - start


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and its children (Linux /proc)."""
    total = 0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.is_file():
        pids += [int(p) for p in children.read_text().split()]
        for child in list(pids[1:]):
            grand = Path(f"/proc/{child}/task/{child}/children")
            if grand.is_file():
                pids += [int(p) for p in grand.read_text().split()]
    for p in pids:
        status = Path(f"/proc/{p}/status")
        if status.is_file():
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def _wait_healthy(port: int, deadline_s: float = 60.0) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def run_users(port: int, photos: list[bytes], users: int, requests: int, server_pid: int) -> str:
    """One table row: ``users`` threads sharing ``requests`` uploads."""
    statuses: Counter[int] = Counter()
    latencies: list[float] = []
    lock = threading.Lock()
    counter = iter(range(requests))
    peak = [0]
    done = threading.Event()

    def user() -> None:
        while True:
            with lock:
                k = next(counter, None)
            if k is None:
                return
            status, seconds = _post_solve(port, photos[k % len(photos)])
            with lock:
                statuses[status] += 1
                if status == 200:
                    latencies.append(seconds)

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss(server_pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    start = time.perf_counter()
    threads = [threading.Thread(target=user) for _ in range(users)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    ok, busy = statuses[200], statuses[503]
    other = sum(statuses.values()) - ok - busy
    lat = sorted(latencies) or [float("nan")]
    p95 = lat[min(len(lat) - 1, int(0.95 * (len(lat) - 1) + 0.5))]
    return (
        f"| {users} | {ok} | {busy} | {other} | {statistics.median(lat):.2f} "
        f"| {p95:.2f} | {ok / wall:.2f} | {peak[0] / 2**20:.0f} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--users", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--requests", type=int, default=32, help="requests per user count")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--port", type=int, default=8941)
    ap.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    args = ap.parse_args()
    photos = [p.read_bytes() for p in sorted(args.photos.glob("*.jpg"))[:40]]
    if not photos:
        raise SystemExit(f"no photos in {args.photos}")
    command = [str(ROOT / ".venv" / "bin" / "sudoku-scan"), "serve"]
    command += ["--port", str(args.port), "--workers", str(args.workers)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_healthy(args.port)
        _post_solve(args.port, photos[0])  # the workers load the reader
        print(
            f"Serve benchmark ({time.strftime('%Y-%m-%d')}, {args.workers} workers, "
            f"{args.requests} requests per row, read + solve + draw + image fetch)\n"
        )
        print("| users | 200 | 503 | other | p50 s | p95 s | requests/s | peak MB |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for users in args.users:
            print(run_users(args.port, photos, users, args.requests, server.pid), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
