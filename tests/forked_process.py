"""A `fixlore` command as a process of its own forked from the test's: the copy starts warm (no
seconds of imports, jieba's dictionary and the sentence model: ~2.5 s of CPU less for a run of a
small world than a new interpreter spends), and is made to look like a new interpreter's process
from the inside: its own stdin, stdout and stderr file descriptors, default signal handlers, the
interpreter's warning filters and display, logging without pytest's handlers, and the ending of
an interpreter (threads and thread pools finished, logging shut down, streams flushed).

For tests of what a command's process writes, answers and exits with. What Python reads from the
environment when it starts or imports (PYTHONHASHSEED, an import-time switch such as
FIXLORE_KILL_AT) is the test process's: a test of those, or of a new interpreter's start (nothing
on stderr before the one line: test_bad_inputs' SUBPROCESS rows), keeps `subprocess`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def fixlore_forked(*args: str, env: dict[str, str | None] | None = None, cwd: str | Path | None = None,
                   timeout: float = 300) -> subprocess.CompletedProcess:
    """`fixlore ARGS` as a process of its own, forked from this one (ForkedFixlore), run to its end:
    its stdout and stderr as text and its exit status, as `subprocess.run(..., capture_output=True,
    text=True)` gives them."""
    proc = ForkedFixlore(*args, env=env, cwd=cwd)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(30)
        proc.close()
        raise
    try:
        return subprocess.CompletedProcess(["fixlore", *args], proc.returncode, proc.stdout_text(), proc.stderr_text())
    finally:
        proc.close()


class ForkedFixlore:
    """`fixlore ARGS` started as a process of its own, forked from this one, with what a test reads
    of a `subprocess.Popen`: pid, poll, wait, terminate, kill, returncode; its stdin /dev/null, its
    stdout and stderr (the file descriptors: whatever writes to them, Python or not) kept in files,
    `env` set (None unsets) and `cwd` entered in the process only (see the module's docstring)."""

    def __init__(self, *args: str, env: dict[str, str | None] | None = None, cwd: str | Path | None = None):
        self.args = ["fixlore", *args]
        self.returncode: int | None = None
        self._out, self._err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:                                # the child: never returns into pytest
            try:
                self._child(list(args), env or {}, cwd)
            finally:                                     # (a signal before _child's own guard, too)
                os._exit(1)

    def _child(self, args: list[str], env: dict[str, str | None], cwd: str | Path | None) -> None:
        import io

        code = 1
        try:
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            os.dup2(self._out.fileno(), 1)
            os.dup2(self._err.fileno(), 2)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for sig in (signal.SIGTERM, signal.SIGALRM):
                signal.signal(sig, signal.SIG_DFL)
            # as the interpreter makes them: stdout block-buffered, stderr line-buffered (not a tty)
            before = {id(stream): name for name in ("stdout", "stderr")
                      for stream in (getattr(sys, name), getattr(sys, f"__{name}__"))}
            sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), **_text_of(sys.__stdin__))
            sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), **_text_of(sys.__stdout__))
            sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), **_text_of(sys.__stderr__),
                                          line_buffering=True)
            _interpreters_warnings()
            _interpreters_logging(before)
            for name, value in env.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            if cwd is not None:
                os.chdir(cwd)
            sys.argv = ["fixlore", *args]
            from fixlore.cli.commands import main

            try:
                main(args)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:                            # noqa: BLE001 -- as an interpreter would: the traceback, 1
            import traceback

            traceback.print_exc()
        finally:
            _interpreters_exit()
            os._exit(code)

    def poll(self) -> int | None:
        if self.returncode is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(0.02)
        return self.returncode

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """Wait for its end; its stdout and stderr as text (the files that held them closed)."""
        self.wait(timeout)
        try:
            return self.stdout_text(), self.stderr_text()
        finally:
            self.close()

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def stdout_text(self) -> str:
        return self._read(self._out, sys.__stdout__)

    def stderr_text(self) -> str:
        return self._read(self._err, sys.__stderr__)

    def close(self) -> None:
        """The files that held its output (the process itself is the caller's to stop)."""
        self._out.close()
        self._err.close()

    @staticmethod
    def _read(fh, stream) -> str:
        fh.seek(0)
        return fh.read().decode(_text_of(stream)["encoding"])     # strict, as subprocess's text=True


def _interpreters_warnings() -> None:
    """Warnings shown on stderr as a new interpreter shows them: its filters (the defaults, -W and
    PYTHONWARNINGS: the C module's list, which pytest's catch_warnings leaves alone) and its
    display, instead of the recording pytest does around the running test."""
    import _warnings
    import warnings

    def show(msg) -> None:                              # warnings._showwarnmsg_impl
        file = msg.file if msg.file is not None else sys.stderr
        if file is not None:
            with contextlib.suppress(OSError):
                file.write(warnings._formatwarnmsg(msg))

    warnings.filters = list(_warnings.filters)
    warnings._filters_mutated()
    warnings.showwarning = warnings._showwarning_orig
    warnings._showwarnmsg_impl = show


def _interpreters_exit() -> None:
    """What a new interpreter does when its program ends, before the process exits: it waits for
    the threads that are not daemons (and tells thread pools left open to finish), flushes and
    closes the logging handlers, flushes stdout and stderr. Nothing of pytest's (its atexit
    handlers and the conftest's, which remove the session's folders) runs in the copy."""
    import logging

    with contextlib.suppress(BaseException):
        threading._shutdown()                           # noqa: SLF001 -- as Py_FinalizeEx calls it
    with contextlib.suppress(BaseException):
        logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()


def _interpreters_logging(streams: dict[int, str]) -> None:
    """Logging as a new interpreter has it once its modules are imported: the root logger without
    pytest's capturing handlers (a library's warning then reaches stderr through logging's last
    resort), and a handler a module bound to the standard streams at import (jieba's) writing to
    this process's (`streams`: id of a stream that was sys.stdout/stderr -> which one)."""
    import logging

    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.setLevel(logging.WARNING)
    for logger in [root, *logging.Logger.manager.loggerDict.values()]:
        for handler in getattr(logger, "handlers", ()):
            if type(handler) is logging.StreamHandler and id(handler.stream) in streams:
                handler.setStream(getattr(sys, streams[id(handler.stream)]))


def _text_of(stream) -> dict[str, str]:
    """The encoding and error handler this interpreter chose for a standard stream (from the
    locale and PYTHONIOENCODING, as a new one started with the same environment chooses)."""
    return {"encoding": getattr(stream, "encoding", None) or "utf-8", "errors": getattr(stream, "errors", None) or "strict"}
