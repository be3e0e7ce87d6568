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
import struct
import tempfile
import traceback
from collections.abc import Callable
from functools import partial
from typing import Any


def can_fork() -> bool:
    return hasattr(os, "fork")


class _Child:
    """A forked child and the read end of its pipe; `close()` stops and reaps it."""

    _pid: int | None = None
    _fd: int | None = None

    def _start(self, body: Callable[[int], None]) -> int:
        """Fork; the child runs `body(write_fd)` and exits. Returns the read end's descriptor."""
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:                                   # the child: never returns
            try:
                os.close(read_fd)
                gc.disable()                            # short-lived: let the OS reclaim everything
                body(write_fd)
            finally:
                os._exit(0)
        os.close(write_fd)
        self._pid, self._fd = pid, read_fd
        return read_fd

    def close(self) -> None:
        """Abandon the child (the parent failed or is done): stop it and reap it."""
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


class ForkedCall(_Child):
    """`fn(*args)` running in a child process; `result()` waits for it and returns its value
    (or raises RuntimeError with the child's traceback)."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        def body(write_fd: int) -> None:
            try:
                payload = pickle.dumps((True, fn(*args)), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException as exc:            # noqa: BLE001 - reported to the parent
                payload = pickle.dumps((False, f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
            with os.fdopen(write_fd, "wb") as fh:
                fh.write(payload)

        self._start(body)

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



class ChunkPool:
    """`fn(chunk)` for every chunk, spread over this process and `workers - 1` forked children.

    The children start taking chunks from a shared counter at once; `join()` makes this process
    take the remaining ones too (so a process slowed by other load simply does fewer) and
    returns the results in chunk order. A child pickles each result into its own unlinked
    spool file as soon as it has it and announces it on a pipe; this process unpickles what
    has arrived between two of its own chunks, so both costs are part of what the counter
    balances (instead of a serial unpickling after the last chunk).

    `first`, when given, is a job of its own that the first child runs before it takes chunks
    (`first_result` after `join()`; with no children this process runs it), so that a side
    job and the chunks share the cores without a third process competing for them."""

    _RECORD = struct.Struct("<qqq")     # chunk index (-1: the child failed, -2: `first`), offset, length

    def __init__(self, fn: Callable[[Any], Any], chunks: list[Any], workers: int,
                 first: Callable[[], Any] | None = None):
        import multiprocessing

        self._fn, self._chunks, self._first = fn, chunks, first
        self.first_result: Any = None
        self._counter = multiprocessing.get_context("fork").Value("l", 0)
        self._children: list[_Spooler] = []
        try:
            for k in range(max(0, workers - 1)):
                self._children.append(_Spooler(partial(self._child, first if k == 0 else None)))
        except BaseException:
            self.close()
            raise

    def _next(self) -> int:
        with self._counter.get_lock():
            i = self._counter.value
            self._counter.value = i + 1
        return i

    def _child(self, first: Callable[[], Any] | None, spool: int, announce: int) -> None:
        offset = 0
        try:
            if first is not None:
                data = pickle.dumps(first(), protocol=pickle.HIGHEST_PROTOCOL)
                _write_all(spool, data)
                _write_all(announce, self._RECORD.pack(-2, offset, len(data)))
                offset += len(data)
            while (i := self._next()) < len(self._chunks):
                data = pickle.dumps(self._fn(self._chunks[i]), protocol=pickle.HIGHEST_PROTOCOL)
                _write_all(spool, data)
                _write_all(announce, self._RECORD.pack(i, offset, len(data)))
                offset += len(data)
        except BaseException as exc:             # noqa: BLE001 - reported to the parent
            data = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}".encode()
            _write_all(spool, data)
            _write_all(announce, self._RECORD.pack(-1, offset, len(data)))

    def _collect(self, results: dict[int, Any], wait: bool) -> None:
        for child in self._children:
            for i, data in child.arrived(wait):
                if i == -1:
                    raise RuntimeError(f"forked worker failed: {data.decode(errors='replace')}")
                if i == -2:
                    self.first_result = pickle.loads(data)
                else:
                    results[i] = pickle.loads(data)

    def join(self) -> list[Any]:
        results: dict[int, Any] = {}
        try:
            if self._first is not None and not self._children:
                self.first_result = self._first()
            while (i := self._next()) < len(self._chunks):
                results[i] = self._fn(self._chunks[i])
                self._collect(results, wait=False)
            self._collect(results, wait=True)
        finally:
            self.close()
        missing = [i for i in range(len(self._chunks)) if i not in results]
        if missing:
            raise RuntimeError(f"forked worker died without the results of chunks {missing[:5]}")
        return [results[i] for i in range(len(self._chunks))]

    def close(self) -> None:
        for child in self._children:
            child.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class _Spooler(_Child):
    """A forked child running `fn(spool_fd, announce_fd)`: it writes results into an unlinked
    file and announces each one (a small fixed-size record) on a pipe, so it never waits for
    the parent to read. `arrived()` returns the (index, bytes) announced so far."""

    def __init__(self, fn: Callable[[int, int], None]):
        self._spool = tempfile.TemporaryFile(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
        spool = self._spool.fileno()
        os.set_blocking(self._start(lambda write_fd: fn(spool, write_fd)), False)
        self._pending = b""

    def arrived(self, wait: bool) -> list[tuple[int, bytes]]:
        """What the child announced since the last call; `wait`: everything, up to its exit."""
        if self._fd is None:
            return []
        if wait:
            os.set_blocking(self._fd, True)
        chunks = [self._pending]
        eof = False
        while True:
            try:
                got = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                break
            if not got:
                eof = True
                break
            chunks.append(got)
        buf = b"".join(chunks)
        size = ChunkPool._RECORD.size
        whole = len(buf) - len(buf) % size
        self._pending = buf[whole:]
        out = []
        spool = self._spool.fileno()
        for pos in range(0, whole, size):
            i, offset, length = ChunkPool._RECORD.unpack_from(buf, pos)
            out.append((i, os.pread(spool, length, offset)))
        if eof:
            self.close()
        return out

    def close(self) -> None:
        super().close()
        self._spool.close()


def chunked(items: list[Any], workers: int, per_worker: int = 24, least: int = 64) -> list[list[Any]]:
    """`items` cut into about `per_worker` chunks a process (small enough to balance uneven load)."""
    size = max(least, len(items) // (max(1, workers) * per_worker) + 1)
    return [items[i:i + size] for i in range(0, len(items), size)]
