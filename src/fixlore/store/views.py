"""What the store shows a reader beyond its tables: views of the conclusions and a full-text index.

The conclusions live in one JSON document per case (``cases.export``, the case export). The
views below unfold it, one row per item, for people browsing the store (Datasette, any SQL
client): ``case_conclusions`` (one row per case), ``case_fixes``, ``case_pending_fixes``,
``case_traps``, ``case_evidence`` and ``case_kb_refs``. Each view is written once here, as
(column, JSON field) pairs, and rendered for SQLite (``json_each`` / ``json_extract``) or
PostgreSQL (``json_array_elements`` / ``->>``); the migration creates them.

The full-text index ``fulltext`` (SQLite only, FTS5) holds every issue's and PR's title and
body segmented into words by jieba (the kb's tokenizer), with FTS5's ``unicode61`` tokenizer
splitting on the spaces: a Chinese word of two characters (超时, 内存) is a searchable word,
which FTS5's ``trigram`` tokenizer cannot match (it needs three characters), and Datasette's
search box passes words separated by spaces straight to FTS5. `refresh_fulltext` keeps it in
step with the tables, re-segmenting only rows whose ``updated_at`` changed.
"""

from __future__ import annotations

from typing import Any, Callable

import sqlalchemy as sa

# view -> (JSON array in the export, or None for one row per case; [(column, field, SQL type)])
_CASE_KEY = [("repo", None, "text"), ("number", None, "integer")]
VIEWS: dict[str, tuple[str | None, list[tuple[str, str, str]]]] = {
    "case_conclusions": (None, [
        ("title", "title", "text"), ("url", "url", "text"), ("closed_at", "closed_at", "text"),
        ("funnel", "funnel", "text"), ("drop_reason", "drop_reason", "text"), ("timing", "timing", "text"),
        ("lag_s", "lag_s", "integer"), ("closed_by", "closed_by", "text"), ("theme", "theme", "text"),
        ("problem", "problem", "text"), ("answer", "answer", "text"), ("symptom", "symptom", "text"),
        ("first_action", "first_action", "text"), ("value", "value", "real"),
        ("analysed_by", "analysed_by", "text"), ("timing_note", "timing_note", "text")]),
    "case_fixes": ("fix", [
        ("pr_repo", "repo", "text"), ("pr_number", "number", "integer"), ("role", "role", "text"),
        ("state", "state", "text"), ("merged_at", "merged_at", "text"), ("base_ref", "base_ref", "text"),
        ("url", "url", "text")]),
    "case_pending_fixes": ("pending_fix", [
        ("pr_repo", "repo", "text"), ("pr_number", "number", "integer"), ("role", "role", "text"),
        ("state", "state", "text"), ("base_ref", "base_ref", "text"), ("url", "url", "text")]),
    "case_evidence": ("evidence", [
        ("kind", "kind", "text"), ("detail", "detail", "text"), ("source", "source", "text")]),
    "case_kb_refs": ("kb_refs", [
        ("doc", "doc", "text"), ("chunk", "chunk", "text"), ("score", "score", "real")]),
}
# traps are a list of names with their notes in a dict beside it: written by hand for each dialect
TRAPS_VIEW = "case_traps"
FULLTEXT = "fulltext"


def _sqlite_view(array: str | None, cols: list[tuple[str, str, str]]) -> str:
    if array is None:
        picks = ", ".join(f"json_extract(c.export, '$.{field}') AS {col}" for col, field, _ in cols)
        return f"SELECT c.repo AS repo, c.number AS number, {picks} FROM cases c"
    picks = ", ".join(f"json_extract(item.value, '$.{field}') AS {col}" for col, field, _ in cols)
    return (f"SELECT c.repo AS repo, c.number AS number, CAST(item.key AS INTEGER) AS position, {picks} "
            f"FROM cases c, json_each(c.export, '$.{array}') AS item")


_PG_CAST = {"text": "", "integer": "::integer", "real": "::double precision"}


def _pg_view(array: str | None, cols: list[tuple[str, str, str]]) -> str:
    def pick(source: str, field: str, kind: str) -> str:
        value = f"({source}->>'{field}')"
        return f"NULLIF({value}, ''){_PG_CAST[kind]}" if kind != "text" else value

    if array is None:
        picks = ", ".join(f"{pick('c.export', field, kind)} AS {col}" for col, field, kind in cols)
        return f"SELECT c.repo AS repo, c.number AS number, {picks} FROM cases c"
    picks = ", ".join(f"{pick('item.value', field, kind)} AS {col}" for col, field, kind in cols)
    return (f"SELECT c.repo AS repo, c.number AS number, (item.ord - 1)::integer AS position, {picks} "
            f"FROM cases c CROSS JOIN LATERAL json_array_elements(c.export->'{array}') "
            f"WITH ORDINALITY AS item(value, ord)")


def _traps_view(dialect: str) -> str:
    if dialect == "sqlite":
        return ("SELECT c.repo AS repo, c.number AS number, CAST(item.key AS INTEGER) AS position, "
                "item.value AS trap, json_extract(c.export, '$.trap_notes.' || item.value) AS note "
                "FROM cases c, json_each(c.export, '$.traps') AS item")
    return ("SELECT c.repo AS repo, c.number AS number, (item.ord - 1)::integer AS position, item.value AS trap, "
            "c.export->'trap_notes'->>item.value AS note "
            "FROM cases c CROSS JOIN LATERAL json_array_elements_text(c.export->'traps') "
            "WITH ORDINALITY AS item(value, ord)")


def view_sql(dialect: str) -> dict[str, str]:
    """view name -> its SELECT for `dialect` ("sqlite" or "postgresql")."""
    render = _sqlite_view if dialect == "sqlite" else _pg_view
    out = {name: render(array, cols) for name, (array, cols) in VIEWS.items()}
    out[TRAPS_VIEW] = _traps_view(dialect)
    return out


def create_views(conn: sa.Connection) -> None:
    for name, select in view_sql(conn.dialect.name).items():
        conn.execute(sa.text(f"DROP VIEW IF EXISTS {name}"))
        conn.execute(sa.text(f"CREATE VIEW {name} AS {select}"))


def drop_views(conn: sa.Connection) -> None:
    for name in view_sql(conn.dialect.name):
        conn.execute(sa.text(f"DROP VIEW IF EXISTS {name}"))


def create_fulltext(conn: sa.Connection) -> None:
    if conn.dialect.name != "sqlite":
        return
    conn.execute(sa.text(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {FULLTEXT} USING fts5(title_words, body_words, kind UNINDEXED, "
        "repo UNINDEXED, number UNINDEXED, title UNINDEXED, url UNINDEXED, updated_at UNINDEXED, "
        "tokenize = 'unicode61')"))


def drop_fulltext(conn: sa.Connection) -> None:
    if conn.dialect.name == "sqlite":
        conn.execute(sa.text(f"DROP TABLE IF EXISTS {FULLTEXT}"))


def refresh_fulltext(conn: sa.Connection, segment: Callable[[str], str]) -> dict[str, Any]:
    """Bring ``fulltext`` in step with the issues and PRs: rows whose ``updated_at`` changed are
    segmented again (`segment`: text -> words separated by spaces), rows gone are removed."""
    if conn.dialect.name != "sqlite":
        return {"skipped": "full-text index: SQLite only"}
    indexed = {(kind, repo, int(number)): (rowid, stamp) for rowid, kind, repo, number, stamp in conn.execute(
        sa.text(f"SELECT rowid, kind, repo, number, updated_at FROM {FULLTEXT}"))}
    current: dict[tuple[str, str, int], str] = {}
    for kind, table in (("issue", "issues"), ("pull", "pulls")):
        for repo, number, stamp in conn.execute(sa.text(f"SELECT repo, number, updated_at FROM {table}")):
            current[(kind, repo, int(number))] = stamp or ""
    stale = [key for key, (_, stamp) in indexed.items() if current.get(key) != stamp]
    gone = [indexed[key][0] for key in stale]
    for i in range(0, len(gone), 500):
        conn.execute(sa.text(f"DELETE FROM {FULLTEXT} WHERE rowid IN ({','.join(map(str, gone[i:i + 500]))})"))
    todo = [key for key, stamp in current.items() if key not in indexed or indexed[key][1] != stamp]
    added = 0
    for kind, table in (("issue", "issues"), ("pull", "pulls")):
        wanted: dict[str, list[int]] = {}
        for k, repo, number in todo:
            if k == kind:
                wanted.setdefault(repo, []).append(number)
        for repo, numbers in wanted.items():
            for i in range(0, len(numbers), 500):
                part = numbers[i:i + 500]
                rows = conn.execute(sa.text(
                    f"SELECT number, title, body, html_url, updated_at FROM {table} "
                    f"WHERE repo = :repo AND number IN ({','.join(map(str, part))})"), {"repo": repo}).fetchall()
                conn.execute(sa.text(
                    f"INSERT INTO {FULLTEXT} (title_words, body_words, kind, repo, number, title, url, updated_at) "
                    "VALUES (:title_words, :body_words, :kind, :repo, :number, :title, :url, :updated_at)"),
                    [{"title_words": segment(r.title or ""), "body_words": segment(r.body or ""), "kind": kind,
                      "repo": repo, "number": r.number, "title": r.title or "", "url": r.html_url or "",
                      "updated_at": r.updated_at or ""} for r in rows])
                added += len(rows)
    return {"indexed": added, "removed": sum(1 for key in stale if key not in current), "rows": len(current)}
