"""Rankings shared by the processes of one server: a question one process answered is answered
from the memo by the others too (`fixlore.serve.forked`).

Each serving process memoises the indexes' answers (`Memo`, below); without this, a repeated
question reached a process that had not seen it and was searched again, so several processes
answered repeated questions at half the rate of one. The parent creates a SQLite file in a
folder of its own (mode 0700, on /dev/shm where there is one) before it forks; every process
opens its own connection on first use. A value is a ranking (lists and tuples of strings and
numbers) encoded with marshal, floats bit for bit; only this server's processes write the file.
Best effort: a busy, missing or broken file is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import shutil
import sqlite3
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

MISSING = object()
SHM = Path("/dev/shm")        # memory-backed where Linux has it
PREFIX = "fixlore-answers-"   # then the parent's pid: a folder whose process is gone is removed
SIZE = 4096          # rankings kept, the most recently written (as the per-process memo)
_TRIM_EVERY = 256    # writes of one process between two trims


class SharedAnswers:
    def __init__(self, folder: Path, size: int = SIZE):
        self.folder = Path(folder)
        self.path = self.folder / "answers.sqlite"
        self.size = size
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._pid = 0
        self._inherited: list[sqlite3.Connection] = []
        self._writes = 0

    @classmethod
    def create(cls, size: int = SIZE) -> "SharedAnswers":
        where = SHM if SHM.is_dir() and os.access(SHM, os.W_OK) else Path(tempfile.gettempdir())
        _remove_orphans(where)
        folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=where))    # 0700
        with sqlite3.connect(folder / "answers.sqlite") as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS answers (key BLOB PRIMARY KEY, value BLOB NOT NULL)")
        db.close()
        return cls(folder, size)

    def get(self, key: Any) -> Any:
        """The ranking written under `key`, or MISSING."""
        try:
            with self._lock:
                row = self._connection().execute("SELECT value FROM answers WHERE key = ?", (_digest(key),)).fetchone()
            return marshal.loads(row[0]) if row else MISSING
        except (sqlite3.Error, OSError, ValueError, EOFError, TypeError):
            return MISSING

    def put(self, key: Any, value: Any) -> None:
        try:
            blob = marshal.dumps(value)
            with self._lock:
                db = self._connection()
                db.execute("INSERT OR REPLACE INTO answers (key, value) VALUES (?, ?)", (_digest(key), blob))
                self._writes += 1
                if self._writes % _TRIM_EVERY == 0:
                    db.execute("DELETE FROM answers WHERE rowid <= (SELECT max(rowid) FROM answers) - ?", (self.size,))
        except (sqlite3.Error, OSError, ValueError):
            pass

    def _connection(self) -> sqlite3.Connection:
        """This process's connection: one opened before a fork is never used (nor closed: closing
        it would drop the locks of the process's other connection to the file) in the child."""
        if self._db is None or self._pid != os.getpid():
            if self._db is not None:
                self._inherited.append(self._db)
            if not self.path.is_file():
                raise OSError(f"{self.path} is gone")
            self._db = sqlite3.connect(self.path, timeout=0.2, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA synchronous=OFF")
            self._pid = os.getpid()
        return self._db

    def after_fork(self) -> None:
        self._lock = threading.Lock()

    def remove(self) -> None:
        """The parent, when the server stops: the folder goes."""
        if self._db is not None and self._pid == os.getpid():
            self._db.close()
        self._db = None
        shutil.rmtree(self.folder, ignore_errors=True)


def _remove_orphans(where: Path) -> None:
    """Folders left by servers that were killed outright (their parent process is gone)."""
    for folder in where.glob(f"{PREFIX}*-*"):
        pid = folder.name[len(PREFIX):].split("-", 1)[0]
        try:
            if not pid.isdigit() or folder.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except (OSError, OverflowError):
            pass


def _digest(key: Any) -> bytes:
    return hashlib.blake2b(marshal.dumps(key), digest_size=20).digest()


class Memo:
    """The indexes' answers by question, the `size` most recent kept. The knowledge base is
    read-only while served, so an answer never goes stale; cards are built from the cases on
    every call, so a memo holds rankings (keys, passages, scores), not what is shown. With
    `shared` (the server's other processes, `fixlore.serve.shared`), a value asked `shared=True`
    (plain data: lists and tuples of strings and numbers) is looked up there before it is
    computed, and written there after."""

    def __init__(self, size: int = 4096, shared: Any = None):
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()
        self._shared = shared

    def get(self, key: Any, compute: Callable[[], Any], shared: bool = False) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        share = shared and self._shared is not None
        value = self._shared.get(key) if share else MISSING
        if value is MISSING:
            value = compute()
            if share:
                self._shared.put(key, value)
        with self._lock:
            self._items[key] = value
            if len(self._items) > self._size:
                self._items.popitem(last=False)
        return value
