"""Run a function in a forked child and get its result back through a pipe.

The child inherits the parent's memory (the corpus, the index) copy-on-write, so nothing is
pickled on the way in; only the result comes back. Used by the link stage to spread work
over cores; callers fall back to running in-process where fork is unavailable.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import traceback
from collections.abc import Callable
from typing import Any


def can_fork() -> bool:
    return hasattr(os, "fork")


class ForkedCall:
    """`fn(*args)` running in a child process; `result()` waits for it and returns its value
    (or raises RuntimeError with the child's traceback)."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:                                   # the child: never returns
            try:
                os.close(read_fd)
                gc.disable()                            # short-lived: let the OS reclaim everything
                try:
                    payload = pickle.dumps((True, fn(*args)), protocol=pickle.HIGHEST_PROTOCOL)
                except BaseException as exc:            # noqa: BLE001 - reported to the parent
                    payload = pickle.dumps((False, f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
                with os.fdopen(write_fd, "wb") as fh:
                    fh.write(payload)
            finally:
                os._exit(0)
        os.close(write_fd)
        self._pid: int | None = pid
        self._fd: int | None = read_fd

    def result(self) -> Any:
        if self._fd is None:
            raise RuntimeError("forked call already collected")
        with os.fdopen(self._fd, "rb") as fh:
            self._fd = None
            data = fh.read()
        self._reap()
        if not data:
            raise RuntimeError("forked worker died without a result")
        ok, value = pickle.loads(data)
        if not ok:
            raise RuntimeError(f"forked worker failed: {value}")
        return value

    def close(self) -> None:
        """Abandon the call (the parent failed): stop the child and reap it."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            if self._pid is not None:
                try:
                    os.kill(self._pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self._reap()

    def _reap(self) -> None:
        if self._pid is not None:
            os.waitpid(self._pid, 0)
            self._pid = None


class ChunkPool:
    """`fn(chunk)` for every chunk, spread over this process and `workers - 1` forked children.

    The children start taking chunks from a shared counter at once; `join()` makes this process
    take the remaining ones too (so a process slowed by other load simply does fewer) and
    returns the results in chunk order. A child pickles each result as soon as it has it, so
    that cost is part of what the counter balances."""

    def __init__(self, fn: Callable[[Any], Any], chunks: list[Any], workers: int):
        import multiprocessing

        self._fn, self._chunks = fn, chunks
        self._counter = multiprocessing.get_context("fork").Value("l", 0)
        self._children = [ForkedCall(self._child) for _ in range(max(0, workers - 1))]

    def _next(self) -> int:
        with self._counter.get_lock():
            i = self._counter.value
            self._counter.value = i + 1
        return i

    def _child(self) -> list[tuple[int, bytes]]:
        done = []
        while (i := self._next()) < len(self._chunks):
            done.append((i, pickle.dumps(self._fn(self._chunks[i]), protocol=pickle.HIGHEST_PROTOCOL)))
        return done

    def join(self) -> list[Any]:
        results: dict[int, Any] = {}
        try:
            while (i := self._next()) < len(self._chunks):
                results[i] = self._fn(self._chunks[i])
            for child in self._children:
                for i, data in child.result():
                    results[i] = pickle.loads(data)
        finally:
            self.close()
        return [results[i] for i in range(len(self._chunks))]

    def close(self) -> None:
        for child in self._children:
            child.close()


def chunked(items: list[Any], workers: int, per_worker: int = 24, least: int = 64) -> list[list[Any]]:
    """`items` cut into about `per_worker` chunks a process (small enough to balance uneven load)."""
    size = max(least, len(items) // (max(1, workers) * per_worker) + 1)
    return [items[i:i + size] for i in range(0, len(items), size)]
