"""The case export (case-export.md): one JSON object a line, the truth keys plus the trail."""

from __future__ import annotations

import gc
import io
import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import IO

import orjson

from fixlore.errors import ConfigError
from fixlore.link.forked import ForkedCall, can_fork
from fixlore.model import Case


_OPTIONS = orjson.OPT_APPEND_NEWLINE


def case_line(case: Case) -> bytes:
    """One export line, UTF-8 with its newline. orjson: the stdlib encoder spent more time
    on the 100k-case bench export than building the dicts did; any value the export dict
    holds that JSON has no type for is written as its `str()`."""
    return orjson.dumps(case.to_export(), default=str, option=_OPTIONS)


def write_cases_jsonl(cases: Iterable[Case], path: str | Path | IO[str] | IO[bytes], workers: int = 1) -> int:
    """Write cases ordered by (repo, number); returns how many. `path` may be an open text stream.

    `workers` > 1 (a file path only): forked processes encode shares of the cases into part
    files, which are then joined in order (the bytes are the same as with one process)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _write(cases, path, workers)
    finally:
        if collecting:
            gc.enable()


def _encode_into(cases: list[Case], fh: IO[bytes]) -> None:
    for i in range(0, len(cases), 512):
        fh.write(b"".join([case_line(c) for c in cases[i:i + 512]]))


def _encode_part(cases: list[Case], part: Path) -> None:
    with part.open("wb") as fh:
        _encode_into(cases, fh)


def _write(cases: Iterable[Case], path: str | Path | IO[str] | IO[bytes], workers: int = 1) -> int:
    ordered = sorted(cases, key=lambda c: (c.repo, c.number))
    if hasattr(path, "write"):
        if isinstance(path, io.TextIOBase):
            for c in ordered:
                path.write(case_line(c).decode("utf-8"))
        else:
            _encode_into(ordered, path)
        return len(ordered)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    workers = max(1, min(workers, len(ordered) // 2048 + 1)) if can_fork() else 1
    if workers == 1:
        with tmp.open("wb") as fh:
            _encode_into(ordered, fh)
        tmp.replace(target)
        return len(ordered)
    size = len(ordered) // workers + 1
    shares = [ordered[i:i + size] for i in range(0, len(ordered), size)]
    parts = [target.with_name(f"{target.name}.part{k}") for k in range(1, len(shares))]
    children = [ForkedCall(_encode_part, share, part) for share, part in zip(shares[1:], parts)]
    try:
        with tmp.open("wb") as fh:
            _encode_into(shares[0], fh)
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
    return len(ordered)


def read_cases_jsonl(path: str | Path) -> list[Case]:
    source = Path(path)
    if not source.is_file():
        raise ConfigError(f"no case export at {source}")
    cases = []
    with source.open(encoding="utf-8") as fh:
        lineno = 0
        try:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    cases.append(Case.from_export(json.loads(line)))
                except (ValueError, KeyError, TypeError, AttributeError) as exc:
                    raise ConfigError(f"{source}:{lineno}: not a case export line "
                                      f"({type(exc).__name__}: {str(exc)[:120]})") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{source}:{lineno + 1}: not UTF-8 text; give a case export (cases.jsonl)") from None
    return cases
