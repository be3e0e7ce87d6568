"""The cases: each case's conclusions as the case export (one JSON document in ``cases.export``,
what the stages read back) and as rows a reader can query with SQL.

Every row is derived from the case export (`Case.to_export`), so rows and ``cases.jsonl`` say
the same thing: the export's per-case fields are columns of ``cases`` (`case_columns`), each
item of its lists a row of ``case_fixes`` (``fix`` and ``pending_fix``), ``case_traps`` (with
the trap's note), ``case_evidence`` and ``case_kb_refs`` (`conclusion_rows`), each row
pointing at its case by ``case_id`` and a fix at its PR by ``pull_id`` (`rows.item_id`). The stage that
decides a list writes its rows: the link stage writes a case whole (`save_linked_cases`; a
case it builds cites no document yet), the kb stage its documents (`save_kb_refs`); the other
stages change only per-case fields (`save_cases`). A case's rows are replaced, never added to,
so a second run into the same store leaves one row per item.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

import sqlalchemy as sa

from fixlore.core import model as m
from fixlore.core.timeutil import parse_time
from fixlore.store import schema as t
from fixlore.store.live import not_of_a_deleted_issue
from fixlore.store.rows import _jsonable, _now, item_id, upsert

# the export's per-case text fields copied into columns of `cases` (the rest stays in the JSON only)
CASE_TEXTS = ("title", "url", "drop_reason", "timing", "timing_note", "closed_by", "theme", "analysed_by",
              "problem", "answer", "symptom", "first_action")


def case_columns(export: dict[str, Any]) -> dict[str, Any]:
    """The `cases` row of one case export: its key, funnel and per-case fields."""
    lag = export.get("lag_s")
    return {"id": item_id(export["repo"], export["number"]), "repo": export["repo"], "number": int(export["number"]),
            "funnel": export.get("funnel") or "",
            **{name: export.get(name) or "" for name in CASE_TEXTS},
            "closed_at": parse_time(export.get("closed_at") or None), "lag_s": int(lag) if lag is not None else None,
            "provisional": bool(export.get("provisional")), "value": float(export.get("value") or 0.0)}


def _fix_rows(export: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for pending, items in ((False, export.get("fix") or []), (True, export.get("pending_fix") or [])):
        for i, fix in enumerate(items):
            merged_at = parse_time(fix.get("merged_at") or None)
            rows.append({"pending": pending, "position": i, "pr_repo": fix["repo"], "pr_number": int(fix["number"]),
                         "pull_id": item_id(fix["repo"], fix["number"]),
                         "role": fix.get("role", "fix"), "state": fix.get("state", ""),
                         "merged": m.is_merged(fix.get("state", ""), merged_at), "merged_at": merged_at,
                         "base_ref": fix.get("base_ref", ""), "url": fix.get("url", "")})
    return rows


def _trap_rows(export: dict[str, Any]) -> list[dict[str, Any]]:
    notes = export.get("trap_notes") or {}
    return [{"trap": trap, "position": i, "note": notes.get(trap, "")} for i, trap in enumerate(export.get("traps") or [])]


def _evidence_rows(export: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"position": i, "kind": e["kind"], "detail": e.get("detail", ""), "source": e.get("source", "")}
            for i, e in enumerate(export.get("evidence") or [])]


def _kb_ref_rows(export: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"position": i, "doc": k["doc"], "chunk": k.get("chunk", ""), "score": float(k.get("score", 0))}
            for i, k in enumerate(export.get("kb_refs") or [])]


# conclusion table -> the rows of one case export (without the case's key)
ROWS_OF: dict[sa.Table, Callable[[dict[str, Any]], list[dict[str, Any]]]] = {
    t.case_fixes: _fix_rows, t.case_traps: _trap_rows, t.case_evidence: _evidence_rows,
    t.case_kb_refs: _kb_ref_rows}
LINKED = (t.case_fixes, t.case_traps, t.case_evidence, t.case_kb_refs)
CITED = (t.case_kb_refs,)


def conclusion_rows(export: dict[str, Any], table: sa.Table) -> list[dict[str, Any]]:
    """The rows of `table` for one case export, with the case's key."""
    key = {"repo": export["repo"], "number": int(export["number"]), "case_id": item_id(export["repo"], export["number"])}
    return [{**key, **row} for row in ROWS_OF[table](export)]


def replace_conclusions(conn: sa.Connection, exports: list[dict[str, Any]], tables: Iterable[sa.Table]) -> None:
    """Replace the rows of `tables` of each case in `exports` by what its export says."""
    numbers: dict[str, list[int]] = {}
    for e in exports:
        numbers.setdefault(e["repo"], []).append(int(e["number"]))
    for table in tables:
        for repo, nums in sorted(numbers.items()):
            nums = sorted(nums)
            for i in range(0, len(nums), 500):
                conn.execute(sa.delete(table).where(table.c.repo == repo, table.c.number.in_(nums[i:i + 500])))
        upsert(conn, table, [row for e in exports for row in conclusion_rows(e, table)])


def write_cases(conn: sa.Connection, exports: list[dict[str, Any]], run_id: int | None,
                tables: Iterable[sa.Table] = ()) -> None:
    """Upsert the `cases` rows of `exports` and replace their rows in `tables` (every upsert
    in key order: harvesters sharing a PostgreSQL database then take row locks in one order)."""
    now = _now()
    upsert(conn, t.cases, [{**case_columns(e), "export": _jsonable(e), "run_id": run_id, "updated_at": now}
                           for e in exports])
    replace_conclusions(conn, exports, tables)


class CaseConclusions:
    """`Store`'s cases (a mixin: it needs ``self.engine``)."""

    engine: sa.Engine

    def _save(self, cases: Iterable[m.Case], run_id: int | None, tables: Iterable[sa.Table]) -> int:
        exports = [c.to_export() for c in cases]
        with self.engine.begin() as conn:
            write_cases(conn, exports, run_id, tables)
        return len(exports)

    def save_cases(self, cases: Iterable[m.Case], run_id: int | None = None) -> int:
        """Store each case's export and per-case columns; its conclusion rows stay as their
        stages wrote them (a stage that changes fixes, traps, evidence or kb refs saves with
        `save_linked_cases` or `save_kb_refs`)."""
        return self._save(cases, run_id, ())

    def save_linked_cases(self, cases: Iterable[m.Case], run_id: int | None = None) -> int:
        """The link stage's cases, whole: the case rows and every conclusion row replaced."""
        return self._save(cases, run_id, LINKED)

    def save_kb_refs(self, cases: Iterable[m.Case], run_id: int | None = None) -> int:
        """The kb stage's cases: the case rows and their cited documents replaced."""
        return self._save(cases, run_id, CITED)

    def load_cases(self) -> list[m.Case]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.cases.c.export).where(not_of_a_deleted_issue(t.cases.c.repo, t.cases.c.number))    # store.live
                                .order_by(t.cases.c.repo, t.cases.c.number))
            return [m.Case.from_export(r.export) for r in rows if r.export]
