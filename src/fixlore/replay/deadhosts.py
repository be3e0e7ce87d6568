"""Hosts that die, for the circuit breaker's tests and `bench/faults.py`: a replay server that stops
answering after its N-th request (every later request a 500, or held without an answer), a
loopback port that accepts connections and never answers, and a port nothing listens on.
Loopback only."""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Any

from fixlore.replay.listing import Answer
from fixlore.replay.server import ReplayServer, _Reply

HOW = ("500", "hang")


class DyingReplay(ReplayServer):
    """A `ReplayServer` that answers its first ``after`` requests as usual, then none: each later
    request gets a 500 (``how="500"``) or is held until the server stops (``how="hang"``).
    ``died_at`` is when the first unanswered request came; ``unanswered`` counts them."""

    def __init__(self, world_path: str | Path, after: int, how: str = "500", **kw: Any):
        if how not in HOW:
            raise ValueError(f"how must be one of {HOW}, not {how!r}")
        super().__init__(world_path, stall_seconds=kw.pop("stall_seconds", 3600.0), **kw)
        self.after, self.how = after, how
        self.answered = self.unanswered = 0
        self._count_lock = threading.Lock()

    def handle(self, path: str, raw_query: str, headers: Any, self_url: str) -> _Reply:
        with self._count_lock:
            alive = self.answered < self.after
            if alive:
                self.answered += 1
            else:
                self.unanswered += 1
        if alive:
            return super().handle(path, raw_query, headers, self_url)
        if self.how == "hang":           # the handler holds a "stall" until the server stops
            return _Reply("GET (dead host)", Answer(200, {}), fault="stall")
        return _Reply("GET (dead host)", Answer(500, {"message": "500 Internal Server Error"}), fault="500")


class SilentPort:
    """A loopback port that accepts every connection and never sends a byte (a hung server).
    ``accepted`` counts the connections."""

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self.port = self._sock.getsockname()[1]
        self.accepted = 0
        self._held: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"silent:{self.port}", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _serve(self) -> None:
        self._sock.settimeout(0.05)
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            self.accepted += 1
            self._held.append(conn)

    def __enter__(self) -> "SilentPort":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for conn in self._held:
            conn.close()
        self._sock.close()


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released: a connection there is refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
