"""The case export, `cases.jsonl` (case-export.md): one JSON object a line, the truth keys plus
the trail, ordered by (repo, number). Every line ends with its format version (`"format":
formats.CASES`, also listed in run.json under `formats`): a line read alone, grepped or split
still says what it is, and a line reader that ignores the key keeps working. A line of another
format is refused on reading; a line without the key (written before it existed) is read as
the first format.

The one writer and reader of the file, below every stage: the compose stage writes it, the
link and compose commands read and write it. (`link.export.write_cases_parallel` spreads the
encoding of a very large export over forked processes; the bytes are the same.)
"""

from __future__ import annotations

import gc
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO

import orjson

from fixlore.core import formats
from fixlore.core.errors import ConfigError
from fixlore.core.model import Case
from fixlore.edges.atomicfile import replacing

FORMAT = formats.CASES

_OPTIONS = orjson.OPT_APPEND_NEWLINE


def case_line(case: Case) -> bytes:
    """One export line, UTF-8 with its newline. orjson: the stdlib encoder spent more time
    on the 100k-case bench export than building the dicts did; any value the export dict
    holds that JSON has no type for is written as its `str()`."""
    return orjson.dumps({**case.to_export(), "format": FORMAT}, default=str, option=_OPTIONS)


def ordered(cases: Iterable[Case]) -> list[Case]:
    return sorted(cases, key=lambda c: (c.repo, c.number))


def encode_into(cases: list[Case], fh: IO[bytes]) -> None:
    for i in range(0, len(cases), 512):
        fh.write(b"".join([case_line(c) for c in cases[i:i + 512]]))


def write_cases_jsonl(cases: Iterable[Case], path: str | Path | IO[str] | IO[bytes]) -> int:
    """Write cases ordered by (repo, number); returns how many. `path` may be an open stream;
    a file is written beside its target and moved into place."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _write(ordered(cases), path)
    finally:
        if collecting:
            gc.enable()


def _write(cases: list[Case], path: str | Path | IO[str] | IO[bytes]) -> int:
    if hasattr(path, "write"):
        if isinstance(path, io.TextIOBase):
            for c in cases:
                path.write(case_line(c).decode("utf-8"))
        else:
            encode_into(cases, path)
        return len(cases)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with replacing(target) as fh:
        encode_into(cases, fh)
    return len(cases)


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
                    row = json.loads(line)
                    if isinstance(row, dict) and row.get("format", FORMAT) != FORMAT:
                        raise ConfigError(f"{source}:{lineno}: a {str(row['format'])[:40]!r} line; this fixlore "
                                          f"reads {FORMAT} (export it again with this version)")
                    cases.append(Case.from_export(row))
                except (ValueError, KeyError, TypeError, AttributeError) as exc:
                    raise ConfigError(f"{source}:{lineno}: not a case export line "
                                      f"({type(exc).__name__}: {str(exc)[:120]})") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{source}:{lineno + 1}: not UTF-8 text; give a case export (cases.jsonl)") from None
    return cases
