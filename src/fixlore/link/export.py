"""The case export (case-export.md): one JSON object a line, the truth keys plus the trail."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from fixlore.errors import FixloreError
from fixlore.model import Case


# Export dicts are trees built fresh per case: no cycle check needed (it costs a dict insert
# and delete per container).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), check_circular=False)


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
        for i in range(0, len(ordered), 512):
            fh.write("".join([case_line(c) + "\n" for c in ordered[i:i + 512]]))
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
