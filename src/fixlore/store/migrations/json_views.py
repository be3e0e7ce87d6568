"""The views of revision 0003: the conclusions unfolded from ``cases.export``, one row per item,
with JSON functions (``json_each`` / ``json_extract`` on SQLite, ``json_array_elements`` / ``->>``
on PostgreSQL). Revision 0004 replaced them by tables (``store/conclusions.py``); they stay here,
frozen, for the migrations that create them (0003) and bring them back (0004's downgrade).
"""

from __future__ import annotations

import sqlalchemy as sa

# view -> (JSON array in the export, or None for one row per case; [(column, field, SQL type)])
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
