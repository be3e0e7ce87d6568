"""Files that are either whole or not there: written beside their target, then moved into place.

A run stopped by Ctrl-C or a kill while it writes a file leaves the file as it was before (or
absent), never half written; the temporary file it leaves behind is named ``<name>.tmp<pid>``
and overwritten by the next writer of the same process id, or removed when the write fails
inside Python. The move is `os.replace`, atomic on one file system. No fsync: the faults this
guards against are the process's own death (Ctrl-C, SIGKILL, an out-of-memory kill), after
which the kernel still writes what the process wrote; a power cut is the file system's job.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from fixlore import killpoints


def _temp_of(target: Path) -> Path:
    return target.with_name(f"{target.name}.tmp{os.getpid()}")


@contextmanager
def replacing(path: str | Path, mode: str = "wb", encoding: str | None = None) -> Iterator[IO]:
    """An open file that becomes `path` when the block ends without an exception."""
    target = Path(path)
    tmp = _temp_of(target)
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
