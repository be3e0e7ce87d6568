"""A large case export written by several forked processes (`write_cases_parallel`): each
encodes a share of the cases into a part file, the parts are joined in order, and the bytes
are those `fixlore.edges.caseexport.write_cases_jsonl` writes with one process. The format, the
one-process writer and the reader live in `fixlore.edges.caseexport`."""

from __future__ import annotations

import gc
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from fixlore.core.model import Case
from fixlore.edges.caseexport import encode_into, ordered, write_cases_jsonl
from fixlore.link.forked import ForkedCall, can_fork


def write_cases_parallel(cases: Iterable[Case], path: str | Path | IO[str] | IO[bytes], workers: int = 1) -> int:
    """Write cases ordered by (repo, number); returns how many. `workers` > 1 (a file path
    only, where fork is available, 2048+ cases a worker) encodes shares in forked processes."""
    everything = ordered(cases)
    if hasattr(path, "write") or not can_fork():
        return write_cases_jsonl(everything, path)
    workers = max(1, min(workers, len(everything) // 2048 + 1))
    if workers == 1:
        return write_cases_jsonl(everything, path)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _write_shares(everything, Path(path), workers)
    finally:
        if collecting:
            gc.enable()


def _encode_part(cases: list[Case], part: Path) -> None:
    with part.open("wb") as fh:
        encode_into(cases, fh)


def _write_shares(cases: list[Case], target: Path, workers: int) -> int:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    size = len(cases) // workers + 1
    shares = [cases[i:i + size] for i in range(0, len(cases), size)]
    parts = [target.with_name(f"{target.name}.part{k}") for k in range(1, len(shares))]
    children = [ForkedCall(_encode_part, share, part) for share, part in zip(shares[1:], parts)]
    try:
        with tmp.open("wb") as fh:
            encode_into(shares[0], fh)
        for child in children:
            child.result()
        with tmp.open("ab") as out:
            for part in parts:
                with part.open("rb") as src:
                    shutil.copyfileobj(src, out, 1 << 20)
    finally:
        for child in children:
            child.close()
        for part in parts:
            part.unlink(missing_ok=True)
    tmp.replace(target)
    return len(cases)
