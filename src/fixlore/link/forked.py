"""Work spread over forked processes: the standard library's process pool with a fork context.

A forked worker inherits the parent's memory (the corpus, the index) copy-on-write, so the work
is registered in `_JOBS` before the pool forks and a task names it by number: nothing but the
chunk's index goes to a worker, only the result comes back (pickled by the pool). Callers run
in-process where fork is unavailable or one worker is asked for.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

# job number -> (function, its inputs): set before a pool forks, read by its workers
_JOBS: dict[int, tuple[Callable[..., Any], Any]] = {}
_numbers = itertools.count()


def can_fork() -> bool:
    return hasattr(os, "fork")


def _register(fn: Callable[..., Any], inputs: Any) -> int:
    number = next(_numbers)
    _JOBS[number] = (fn, inputs)
    return number


def _run_chunk(job: int, i: int) -> Any:
    fn, chunks = _JOBS[job]
    return fn(chunks[i])


def _run_call(job: int) -> Any:
    fn, args = _JOBS[job]
    return fn(*args)


def _pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))


def _release(pool: ProcessPoolExecutor | None, jobs: list[int]) -> None:
    """Let the workers go (pending tasks cancelled) and forget the registered work."""
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
    for job in jobs:
        _JOBS.pop(job, None)


def _result(future: Future) -> Any:
    try:
        return future.result()
    except BaseException as exc:       # the worker's exception, pickled: one error naming it
        raise RuntimeError(f"forked worker failed: {type(exc).__name__}: {exc}") from exc


class ForkedCall:
    """`fn(*args)` running in a forked process; `result()` waits for it and returns its value
    (or raises RuntimeError naming the worker's exception); `close()` lets the process go."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        self._job = _register(fn, args)
        self._pool: ProcessPoolExecutor | None = _pool(1)
        self._future = self._pool.submit(_run_call, self._job)

    def result(self) -> Any:
        try:
            return _result(self._future)
        finally:
            self.close()

    def close(self) -> None:
        _release(self._pool, [self._job])
        self._pool = None


class ChunkPool:
    """`fn(chunk)` for every chunk, spread over this process and `workers - 1` forked ones (all
    in this process when `workers` is 1 or fork is unavailable); `join()` returns the results in
    chunk order.

    The pool's workers start at once, taking chunks from the front; this process is free until
    `join()` (the link index builds its relations meanwhile), then takes chunks from the back,
    each one the pool has not started yet (`Future.cancel` succeeds), until the two meet: a
    process slowed by other load simply does fewer. `first`, when given, is a job of its own
    that goes to the pool before the chunks, so its first worker runs it and then takes chunks
    (`first_result` after `join()`; without a pool, this process runs it): two processes on
    two cores, not a third competing for them."""

    def __init__(self, fn: Callable[[Any], Any], chunks: list[Any], workers: int,
                 first: Callable[[], Any] | None = None):
        self._fn, self._chunks, self._first = fn, chunks, first
        self.first_result: Any = None
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: list[int] = []
        if workers > 1 and can_fork():
            chunk_job = _register(fn, chunks)
            self._jobs.append(chunk_job)
            if first is not None:
                self._jobs.append(_register(first, ()))
            self._pool = _pool(workers - 1)
            try:
                self._first_future = self._pool.submit(_run_call, self._jobs[1]) if first is not None else None
                self._futures = [self._pool.submit(_run_chunk, chunk_job, i) for i in range(len(chunks))]
            except BaseException:
                self.close()
                raise

    def join(self) -> list[Any]:
        if self._pool is None:
            if self._first is not None:
                self.first_result = self._first()
            return [self._fn(chunk) for chunk in self._chunks]
        try:
            mine: dict[int, Any] = {}
            for i in range(len(self._futures) - 1, -1, -1):
                if not self._futures[i].cancel():       # started or done by the pool: the two have met
                    break
                mine[i] = self._fn(self._chunks[i])
            if self._first_future is not None:
                self.first_result = _result(self._first_future)
            return [mine[i] if i in mine else _result(f) for i, f in enumerate(self._futures)]
        finally:
            self.close()

    def close(self) -> None:
        _release(self._pool, self._jobs)
        self._pool = None
        self._jobs = []


def chunked(items: list[Any], workers: int, per_worker: int = 24, least: int = 64) -> list[list[Any]]:
    """`items` cut into about `per_worker` chunks a process (small enough to balance uneven load)."""
    size = max(least, len(items) // (max(1, workers) * per_worker) + 1)
    return [items[i:i + size] for i in range(0, len(items), size)]
