"""a store Datasette explains: ISO UTC times with Z, UTF-8 JSON, foreign keys, views, full-text index

Revision ID: 0003_datasette
Revises: 0002_repo_failures

On SQLite: times written as "YYYY-MM-DD hh:mm:ss.ffffff" (naive UTC) become
"YYYY-MM-DDThh:mm:ss.ffffffZ"; JSON written with \\uXXXX escapes is written again as UTF-8
text; the foreign keys of `fixlore.store.schema` are declared (the tables are rebuilt, as
SQLite cannot add a constraint in place); the full-text table is created (filled by
`Store.refresh_fulltext`). On both dialects: the views of the conclusions over the case export
(store/migrations/json_views.py; 0004 turns them into tables). It touches only the tables and
columns that exist at this revision: the schema module describes the head, which has more.
"""
import json

import sqlalchemy as sa
from alembic import op

from fixlore.store import schema, views
from fixlore.store.migrations import json_views

revision = '0003_datasette'
down_revision = '0002_repo_failures'
branch_labels = None
depends_on = None


def _existing(conn: sa.Connection) -> dict[str, set[str]]:
    inspector = sa.inspect(conn)
    return {name: {c["name"] for c in inspector.get_columns(name)} for name in inspector.get_table_names()}


def _columns(kind: type) -> list[tuple[str, str]]:
    existing = _existing(op.get_bind())
    return [(table.name, col.name) for table in schema.metadata.sorted_tables for col in table.columns
            if isinstance(col.type, kind) and col.name in existing.get(table.name, ())]


def _reencode_json(conn: sa.Connection) -> None:
    for table, col in _columns(sa.JSON):
        rows = conn.execute(sa.text(f"SELECT rowid, {col} FROM {table} WHERE {col} LIKE '%\\u%'")).fetchall()
        for i in range(0, len(rows), 1000):
            conn.execute(sa.text(f"UPDATE {table} SET {col} = :v WHERE rowid = :r"),
                         [{"r": rowid, "v": json.dumps(json.loads(text), ensure_ascii=False)}
                          for rowid, text in rows[i:i + 1000]])


def _foreign_keys() -> dict[str, list[sa.ForeignKeyConstraint]]:
    existing = _existing(op.get_bind())
    return {table.name: [fk for fk in table.foreign_key_constraints if fk.referred_table.name in existing]
            for table in schema.metadata.sorted_tables
            if table.name in existing and any(fk.referred_table.name in existing for fk in table.foreign_key_constraints)}


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        for table, col in _columns(schema.UTCDateTime):
            conn.execute(sa.text(f"UPDATE {table} SET {col} = replace({col}, ' ', 'T') || 'Z' "
                                 f"WHERE {col} IS NOT NULL AND {col} NOT LIKE '%Z'"))
        _reencode_json(conn)
        for table, constraints in _foreign_keys().items():
            with op.batch_alter_table(table, recreate="always") as batch:
                for fk in constraints:
                    batch.create_foreign_key(f"fk_{table}_{'_'.join(fk.column_keys)}", fk.referred_table.name,
                                             list(fk.column_keys), [e.column.name for e in fk.elements])
        views.create_fulltext(conn)
    json_views.create_views(conn)


def downgrade() -> None:
    conn = op.get_bind()
    json_views.drop_views(conn)
    if conn.dialect.name == "sqlite":
        views.drop_fulltext(conn)
        for table, constraints in _foreign_keys().items():
            with op.batch_alter_table(table, recreate="always") as batch:
                for fk in constraints:
                    batch.drop_constraint(f"fk_{table}_{'_'.join(fk.column_keys)}", type_="foreignkey")
        for table, col in _columns(schema.UTCDateTime):
            conn.execute(sa.text(f"UPDATE {table} SET {col} = replace(rtrim({col}, 'Z'), 'T', ' ') "
                                 f"WHERE {col} LIKE '%Z'"))
