"""The conclusions as rows, end to end: `fixlore run` on the demo world into a real SQLite file
and a real PostgreSQL database, twice into the same store; after each run every case of
cases.jsonl has exactly its fixes, traps, evidence and cited documents as rows, and its
per-case fields as columns of `cases` (read with plain SQL, not through the Store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from fixlore.core.timeutil import parse_time

from conftest import fixlore_here

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
CASE_FIELDS = ("title", "url", "funnel", "drop_reason", "timing", "lag_s", "timing_note", "closed_by", "theme",
               "value", "analysed_by", "problem", "answer", "symptom", "first_action")


def _run(world: Path, out: Path, db: str) -> list[dict]:
    proc = fixlore_here("run", "--world", str(world), "--out", str(out), "--db", db, "--quiet")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in (out / "cases.jsonl").read_text(encoding="utf-8").splitlines()]


def _when(value):
    """A time as the store gives it back (SQLite: ISO text with Z; PostgreSQL: a datetime), or an export's."""
    return parse_time(value) if value not in (None, "") else None


def _by_case(conn: sa.Connection, sql: str) -> dict[tuple[str, int], list[tuple]]:
    out: dict[tuple[str, int], list[tuple]] = {}
    for row in conn.execute(sa.text(sql)):
        out.setdefault((row[0], int(row[1])), []).append(tuple(row[2:]))
    return out


def _rows_of(db: str) -> dict[str, dict]:
    engine = sa.create_engine(db)
    try:
        with engine.connect() as conn:
            cols = ", ".join(CASE_FIELDS)
            cases = {(r[0], int(r[1])): r for r in conn.execute(sa.text(
                f"SELECT repo, number, {cols}, closed_at, provisional FROM cases"))}
            return {
                "cases": cases,
                "fixes": _by_case(conn, "SELECT repo, number, pr_repo, pr_number, role, state, merged_at, base_ref, url, "
                                        "merged, pending FROM case_fixes ORDER BY repo, number, pending, position"),
                "traps": _by_case(conn, "SELECT repo, number, trap, note FROM case_traps ORDER BY repo, number, position"),
                "evidence": _by_case(conn, "SELECT repo, number, kind, detail, source FROM case_evidence "
                                           "ORDER BY repo, number, position"),
                "kb_refs": _by_case(conn, "SELECT repo, number, doc, chunk, score FROM case_kb_refs "
                                          "ORDER BY repo, number, position"),
                "pending_view": _by_case(conn, "SELECT repo, number, pr_number FROM case_pending_fixes "
                                               "ORDER BY repo, number, position"),
            }
    finally:
        engine.dispose()


def _fix_rows(x: dict) -> list[tuple]:
    return [(f["repo"], f["number"], f["role"], f["state"], _when(f["merged_at"]), f["base_ref"], f["url"],
             f["state"] == "merged" and bool(f["merged_at"]), pending)
            for pending, items in ((False, x["fix"]), (True, x["pending_fix"])) for f in items]


def assert_rows_agree(cases: list[dict], rows: dict[str, dict]) -> None:
    keys = {(x["repo"], x["number"]) for x in cases}
    assert set(rows["cases"]) == keys, "one cases row per exported case, no other"
    for name in ("fixes", "traps", "evidence", "kb_refs", "pending_view"):
        assert set(rows[name]) <= keys, f"{name}: rows of a case that is not exported"
    for x in cases:
        key = (x["repo"], x["number"])
        row = rows["cases"][key]
        assert tuple(row[2:2 + len(CASE_FIELDS)]) == tuple(x[f] for f in CASE_FIELDS), key
        assert _when(row[-2]) == _when(x["closed_at"]) and bool(row[-1]) == x["provisional"], key
        fixes = [(*r[:4], _when(r[4]), *r[5:7], bool(r[7]), bool(r[8])) for r in rows["fixes"].get(key, [])]
        assert fixes == _fix_rows(x), key
        assert rows["pending_view"].get(key, []) == [(f["number"],) for f in x["pending_fix"]], key
        assert rows["traps"].get(key, []) == [(t, x["trap_notes"].get(t, "")) for t in x["traps"]], key
        assert rows["evidence"].get(key, []) == [(e["kind"], e["detail"], e["source"]) for e in x["evidence"]], key
        assert rows["kb_refs"].get(key, []) == [(k["doc"], k["chunk"], k["score"]) for k in x["kb_refs"]], key


def _counts(rows: dict[str, dict]) -> dict[str, int]:
    return {name: sum(len(v) for v in table.values()) if name != "cases" else len(table)
            for name, table in rows.items()}


def test_every_case_of_a_run_is_rows_agreeing_with_its_export(db_url, tmp_path):
    if not DEMO.is_dir():
        pytest.skip("demo world missing")
    first = _run(DEMO, tmp_path / "first", db_url)
    rows = _rows_of(db_url)
    assert_rows_agree(first, rows)
    # the demo has every kind of item, so the comparison above compared something
    assert all(_counts(rows)[name] > 0 for name in ("fixes", "traps", "evidence", "kb_refs", "pending_view"))
    assert any(x["pending_fix"] for x in first) and any(x["drop_reason"] for x in first)

    # a second run into the same store (incremental) replaces rows, never adds to them
    second = _run(DEMO, tmp_path / "second", db_url)
    again = _rows_of(db_url)
    assert_rows_agree(second, again)
    assert _counts(again) == _counts(rows)
