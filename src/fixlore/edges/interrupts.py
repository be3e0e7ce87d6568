"""Ctrl-C that is never lost.

Python raises KeyboardInterrupt wherever the main thread happens to be. When that is a finaliser or
a weakref callback (SQLAlchemy and httpx both run some during a harvest), the interpreter prints
"Exception ignored in ..." with a traceback and the run goes on as if no one had pressed anything:
it then finishes, exits 0 and records "ok" for a run the user stopped. While :func:`kept` is
active, the SIGINT handler also records the request, :func:`check` (called before every request and
between stages) raises again, from a place where the exception does reach the caller, and the
swallowed copy is not printed (the user gets the one-line "interrupted" message instead).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_requested = threading.Event()
# Database connections out of the pool (`hold` / `release`, from the store's pool events). Ctrl-C
# raised while one is out can leave its transaction open, its lock held, and the "interrupted" status the run then
# writes waits on that lock (SQLite's busy timeout: 30 s per write). While one is open, the press
# is only recorded: the next `check` raises it, at most one request later.
_held = 0
_held_lock = threading.Lock()


def hold() -> None:
    global _held
    with _held_lock:
        _held += 1


def release() -> None:
    global _held
    with _held_lock:
        _held = max(0, _held - 1)


def _on_sigint(signum: int, frame: object) -> None:
    first = not _requested.is_set()
    _requested.set()
    if _held and first:
        return          # inside a transaction: `check` raises once it is done (a second press: now)
    raise KeyboardInterrupt


@contextmanager
def kept() -> Iterator[None]:
    """Record Ctrl-C for the duration; outside the main thread, or where SIGINT is ignored (a shell's
    background job), nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        yield
        return
    _requested.clear()
    previous_hook = sys.unraisablehook

    def quiet_about_ctrl_c(unraisable: "sys.UnraisableHookArgs") -> None:
        if not (unraisable.exc_type is KeyboardInterrupt and _requested.is_set()):
            previous_hook(unraisable)

    signal.signal(signal.SIGINT, _on_sigint)
    sys.unraisablehook = quiet_about_ctrl_c
    try:
        yield
        check()         # a press recorded while the last transaction ran, with no check after it
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = previous_hook
        _requested.clear()      # a press belongs to the work it interrupted, not to the next run


def requested() -> bool:
    """Whether Ctrl-C was pressed since :func:`kept` began (even if its exception was swallowed)."""
    return _requested.is_set()


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C was pressed and its exception got lost or was held back
    (a transaction was open); raised once, the press is spent."""
    if _requested.is_set():
        _requested.clear()
        raise KeyboardInterrupt
