"""``sudoku-scan serve``: run the web app with uvicorn and say where to open it."""

from __future__ import annotations

import socket
from typing import TextIO

from .app import WebSettings, create_app

ANY_HOST = ("0.0.0.0", "::")


def lan_address() -> str | None:
    """This machine's address on its local network, or None (no packet is sent: a UDP
    socket only picks the route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


def announce(host: str, port: int, out: TextIO) -> list[str]:
    """Print where the app listens; on every interface also the LAN address and a QR
    code of it, to open the page on a phone on the same network. The URLs printed."""
    shown = "localhost" if host in ANY_HOST or host == "127.0.0.1" else host
    urls = [f"http://{shown}:{port}/"]
    out.write(f"sudoku-scan: serving on {urls[0]}\n")
    if host in ANY_HOST:
        lan = lan_address()
        if lan is None:
            out.write("no local network address found: open it on this machine\n")
        else:
            urls.append(f"http://{lan}:{port}/")
            out.write(f"on a phone on the same network: {urls[1]}\n")
            import segno

            segno.make(urls[1], error="m").terminal(out=out, compact=True)
    out.write("Ctrl-C stops it.\n")
    out.flush()
    return urls


def serve(host: str, port: int, settings: WebSettings, out: TextIO) -> None:
    """Run the app until Ctrl-C."""
    import uvicorn

    announce(host, port, out)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
