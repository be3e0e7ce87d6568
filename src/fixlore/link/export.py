"""The case export (case-export.md): one JSON object a line, the truth keys plus the trail."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from fixlore.errors import FixloreError
from fixlore.model import Case


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def case_line(case: Case) -> str:
    return _ENCODER.encode(case.to_export())


def write_cases_jsonl(cases: Iterable[Case], path: str | Path | IO[str]) -> int:
    """Write cases ordered by (repo, number); returns how many. `path` may be an open text stream."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _write(cases, path)
    finally:
        if collecting:
            gc.enable()


def _write(cases: Iterable[Case], path: str | Path | IO[str]) -> int:
    ordered = sorted(cases, key=lambda c: (c.repo, c.number))
    if hasattr(path, "write"):
        for c in ordered:
            path.write(case_line(c) + "\n")
        return len(ordered)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for c in ordered:
            fh.write(case_line(c) + "\n")
    tmp.replace(target)
    return len(ordered)


def read_cases_jsonl(path: str | Path) -> list[Case]:
    source = Path(path)
    if not source.is_file():
        raise FixloreError(f"no case export at {source}")
    cases = []
    with source.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                cases.append(Case.from_export(json.loads(line)))
            except (ValueError, KeyError, TypeError) as exc:
                raise FixloreError(f"{source}:{lineno}: not a case export line ({exc})") from exc
    return cases
