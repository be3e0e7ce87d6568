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

The search boxes of ``issues`` and ``pulls`` (SQLite only) are FTS5 tables with the ``trigram``
tokenizer over the rows themselves (``issues_fts``: title, body; ``pulls_fts``: title, body,
head_ref, base_ref; external content, so the text is not stored twice), kept in step by
triggers inside the writing transaction; the issues' box holds live issues only (store.live, 0010),
as ``fulltext`` does. Why trigram and not jieba here: Datasette quotes what
is typed and hands it to FTS5 unsegmented, so ``偶发超时`` typed without spaces is one token that
a jieba-segmented index (偶发 / 超时) never holds, while a trigram index finds any run of three
or more characters anywhere in the text (训练时偶发超时，多卡部署后… is found by 偶发超时 and by
多卡部署), with no dictionary to miss a project's own words. Its price: a query shorter than
three characters matches nothing (FTS5 trigram cannot match it; a two-character word such as
超时 finds no row in these boxes), which the metadata says where the box is; the jieba index
``fulltext`` above finds such words (超时), and ``?body__contains=超时`` scans. Measured on the
ascend-2026-09 world (1,100 issues, 81 PRs): the two trigram indexes take 640 KiB (the jieba
``fulltext`` 556 KiB), the store grows from 11.5 to 12.4 MB, the harvest stage's time is unchanged
(4.2 s against 5.1 s before, within noise).
"""

from __future__ import annotations

from typing import Any, Callable

import sqlalchemy as sa

from fixlore.store import schema
from fixlore.store.live import DELETED, live_issues

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
# table -> the columns its trigram search box covers
SEARCHED: dict[str, tuple[str, ...]] = {"issues": ("title", "body"), "pulls": ("title", "body", "head_ref", "base_ref")}
# table -> the column that is null on each row its search box holds (0010): the issues a read sees
_HELD_WHILE_NULL: dict[str, str] = {"issues": DELETED.name}


def search_table(table: str) -> str:
    return f"{table}_fts"


def create_search(conn: sa.Connection, live_only: bool = True) -> None:
    """The trigram FTS5 table of each table in `SEARCHED`, its triggers, and the rows already there;
    `live_only` (0010 on): the issues' box holds live issues only (store.live), a row leaving it when it is
    marked deleted and coming back when the mark goes. A revision before 0010 builds the box it had."""
    if conn.dialect.name != "sqlite":
        return
    for table, columns in SEARCHED.items():
        _create_search_of_rows(conn, table, columns, _HELD_WHILE_NULL.get(table) if live_only else None)


def _create_search_of_rows(conn: sa.Connection, table: str, columns: tuple[str, ...], null: str | None) -> None:
    """A search box that holds the rows of `table` whose column `null` is null (every row when `null` is
    None): each trigger adds or takes out a row only on that condition, as FTS5's external content asks
    (a row taken out must be one it holds, with the text it holds)."""
    fts, cols = search_table(table), ", ".join(columns)
    old, new = ", ".join(f"old.{c}" for c in columns), ", ".join(f"new.{c}" for c in columns)
    held, was, now = (f"{null} IS NULL", f"old.{null} IS NULL", f"new.{null} IS NULL") if null else ("1", "1", "1")
    changed = " OR ".join([f"old.{c} IS NOT new.{c}" for c in columns] + ([f"({was}) IS NOT ({now})"] if null else []))
    conn.execute(sa.text(f"CREATE VIRTUAL TABLE IF NOT EXISTS {fts} USING fts5({cols}, "
                         f"content=\"{table}\", content_rowid=\"rowid\", tokenize=\"trigram\")"))
    conn.execute(sa.text(f"CREATE TRIGGER IF NOT EXISTS {fts}_ai AFTER INSERT ON {table} WHEN {now} BEGIN "
                         f"INSERT INTO {fts} (rowid, {cols}) VALUES (new.rowid, {new}); END"))
    conn.execute(sa.text(f"CREATE TRIGGER IF NOT EXISTS {fts}_ad AFTER DELETE ON {table} WHEN {was} BEGIN "
                         f"INSERT INTO {fts} ({fts}, rowid, {cols}) VALUES ('delete', old.rowid, {old}); END"))
    conn.execute(sa.text(f"CREATE TRIGGER IF NOT EXISTS {fts}_au AFTER UPDATE ON {table} WHEN {changed} BEGIN "
                         f"INSERT INTO {fts} ({fts}, rowid, {cols}) SELECT 'delete', old.rowid, {old} WHERE {was}; "
                         f"INSERT INTO {fts} (rowid, {cols}) SELECT new.rowid, {new} WHERE {now}; END"))
    conn.execute(sa.text(f"INSERT INTO {fts} ({fts}) VALUES ('delete-all')"))
    conn.execute(sa.text(f"INSERT INTO {fts} (rowid, {cols}) SELECT rowid, {cols} FROM {table} WHERE {held}"))


def drop_search(conn: sa.Connection) -> None:
    if conn.dialect.name != "sqlite":
        return
    for table in SEARCHED:
        fts = search_table(table)
        for suffix in ("ai", "ad", "au"):
            conn.execute(sa.text(f"DROP TRIGGER IF EXISTS {fts}_{suffix}"))
        conn.execute(sa.text(f"DROP TABLE IF EXISTS {fts}"))


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
    for kind, rows in (("issue", live_issues), ("pull", schema.pulls)):     # a deleted issue is not searched
        stamps = sa.select(rows.c.repo, rows.c.number, sa.type_coerce(rows.c.updated_at, sa.String))  # as stored
        for repo, number, stamp in conn.execute(stamps):
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
