"""Files that are either whole or not there: written beside their target, then moved into place.

A run stopped by Ctrl-C or a kill while it writes a file leaves the file as it was before (or
absent), never half written. The temporary file is named ``<name>.tmp<pid>``: removed when the
write fails inside Python, and one a killed process left behind is removed by the next write of
the same file (its process is gone; a live one's is left alone). The move is `os.replace`,
atomic on one file system. No fsync: the faults this
guards against are the process's own death (Ctrl-C, SIGKILL, an out-of-memory kill), after
which the kernel still writes what the process wrote; a power cut is the file system's job.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from fixlore.edges import killpoints
def _temp_of(target: Path) -> Path:
    return target.with_name(f"{target.name}.tmp{os.getpid()}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:             # another user's process: alive
        return True
    return True


def _remove_orphans(target: Path) -> None:
    """Temporary files of `target` whose writer died before moving them into place."""
    stem = f"{target.name}.tmp"
    for leftover in target.parent.glob(f"{stem}*"):
        pid = leftover.name[len(stem):]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            leftover.unlink(missing_ok=True)


@contextmanager
def replacing(path: str | Path, mode: str = "wb", encoding: str | None = None) -> Iterator[IO]:
    """An open file that becomes `path` when the block ends without an exception."""
    target = Path(path)
    tmp = _temp_of(target)
    _remove_orphans(target)
    try:
        with open(tmp, mode, encoding=encoding) as fh:
            yield fh
        killpoints.reached(f"file {target.name}")
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, data: str | bytes, encoding: str = "utf-8") -> Path:
    """Write `data` (text as `encoding`) to `path` whole; returns the path."""
    with replacing(path, "wb") as fh:
        fh.write(data.encode(encoding) if isinstance(data, str) else data)
    return Path(path)
