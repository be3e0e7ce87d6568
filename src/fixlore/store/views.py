"""What the store shows a reader beyond its tables: views of the conclusions and a full-text index.

The conclusions are tables (``cases`` and ``case_fixes``, ``case_traps``, ``case_evidence``,
``case_kb_refs``: `store/conclusions.py`); two views keep the names readers know:
``case_conclusions`` (one row per case, without the export's JSON) and ``case_pending_fixes``
(the fix candidates that did not land before the close). The migration creates them.

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

# view -> its SELECT (the same on both dialects: plain columns of the tables)
_CONCLUSION_COLUMNS = ("title", "url", "closed_at", "funnel", "drop_reason", "provisional", "timing", "lag_s",
                       "closed_by", "theme", "problem", "answer", "symptom", "first_action", "value", "analysed_by",
                       "timing_note")
VIEWS: dict[str, str] = {
    "case_conclusions": f"SELECT repo, number, {', '.join(_CONCLUSION_COLUMNS)} FROM cases",
    "case_pending_fixes": "SELECT repo, number, position, pr_repo, pr_number, role, state, base_ref, url "
                          "FROM case_fixes WHERE pending",
}
FULLTEXT = "fulltext"


def create_views(conn: sa.Connection) -> None:
    for name, select in VIEWS.items():
        conn.execute(sa.text(f"DROP VIEW IF EXISTS {name}"))
        conn.execute(sa.text(f"CREATE VIEW {name} AS {select}"))


def drop_views(conn: sa.Connection) -> None:
    for name in VIEWS:
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
