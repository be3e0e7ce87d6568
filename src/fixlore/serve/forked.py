"""The HTTP API served by several processes: the knowledge base opened once, then forked.

A search holds its index's lock (one SQLite connection, one matrix pass at a time), so one
process answers one new question at a time, whatever the number of clients. Opening the
knowledge base again in each process would cost its load time (seconds at 35k cases) and its
memory each time; instead it is opened and warmed once (`Knowledge.warm`: vectors, model,
tokenizer dictionary), the listening socket bound, and the process forked: every child takes
its own SQLite connections and locks (`Knowledge.after_fork`) and shares the rest with the
parent, copy-on-write; each listens on its own socket of the one port (SO_REUSEPORT). The parent serves too and stops the
children when it stops; a child whose parent died stops itself.

One process per core is the default (`default_workers`): a first-time question costs a search
of milliseconds of CPU, and one process answers one at a time, so a second core doubles what
can be answered. Each process memoises the answers it computed, and the case rankings go to a
file the processes share too (`fixlore.serve.shared`): a repeated question is answered from
the memo whichever process answered it first (bench/serve.py --http, docs/serve.md).
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import threading
import time
import traceback
from typing import Any

from fixlore.serve.shared import SharedAnswers


def default_workers() -> int:
    """One serving process per core this process may run on (its CPU affinity); one where
    processes cannot be forked."""
    if not hasattr(os, "fork"):
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, cores or 1)


def serve(knowledge: Any, app: Any, host: str, port: int, workers: int, log_level: str = "warning") -> None:
    import uvicorn

    # No access log: at the server's log level its lines are never written, yet uvicorn builds
    # each one's client address and quoted path per request before the logger drops it.
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False)
    if workers <= 1 or not hasattr(os, "fork"):
        uvicorn.Server(config).run()
        return
    sockets = _listening(host, port, workers) or [config.bind_socket()] * workers
    if workers >= default_workers():
        knowledge.one_thread()        # the processes take the cores: a search's second thread only hands over
    knowledge.warm()
    try:
        shared: SharedAnswers | None = SharedAnswers.create()
        knowledge.share_answers(shared)
    except (OSError, sqlite3.Error):      # no place for the file: each process keeps its own memo
        shared = None
    children: list[int] = []
    default_term = signal.getsignal(signal.SIGTERM)

    def on_term(sig: int, frame: Any) -> None:
        # uvicorn stops gracefully, then raises the signal again: the children go first
        _stop(children)
        if shared is not None:
            shared.remove()
        signal.signal(sig, default_term)
        signal.raise_signal(sig)

    try:
        for sock in sockets[1:]:
            pid = os.fork()
            if pid == 0:
                _child(knowledge, config, sock)        # never returns
            children.append(pid)
        signal.signal(signal.SIGTERM, on_term)
        uvicorn.Server(config).run(sockets=[sockets[0]])
    finally:
        signal.signal(signal.SIGTERM, default_term)
        _stop(children)
        for sock in sockets:
            sock.close()
        if shared is not None:
            shared.remove()


def _listening(host: str, port: int, n: int) -> list[socket.socket]:
    """`n` sockets listening on one port (SO_REUSEPORT), one per process: the kernel spreads
    new connections over them. With a single shared socket, whichever process is awake
    accepts, and one process can end up holding every kept-alive connection. Empty where
    SO_REUSEPORT is missing (the caller shares one socket)."""
    if not hasattr(socket, "SO_REUSEPORT"):
        return []
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    out: list[socket.socket] = []
    try:
        for _ in range(n):
            sock = socket.socket(family, kind, proto)
            out.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(address)
            sock.listen(2048)
            sock.set_inheritable(True)
    except OSError:
        for sock in out:
            sock.close()
        raise
    return out


def _stop(children: list[int]) -> None:
    for pid in children:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for pid in children:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    children.clear()


def _child(knowledge: Any, config: Any, sock: Any) -> None:
    import uvicorn

    code = 0
    try:
        knowledge.after_fork()
        parent = os.getppid()
        threading.Thread(target=_orphan_watch, args=(parent,), daemon=True, name="parent-watch").start()
        uvicorn.Server(config).run(sockets=[sock])
    except BaseException:           # a child never returns into the parent's code
        traceback.print_exc()
        code = 1
    finally:
        try:
            knowledge.close()
        finally:
            os._exit(code)


def _orphan_watch(parent: int) -> None:
    """Stop this child when its parent is gone (killed without the chance to stop it)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os.kill(os.getpid(), signal.SIGTERM)
