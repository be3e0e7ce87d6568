"""single-column keys Datasette links by, and trigram search boxes on issues and pulls

Revision ID: 0007_single_keys_search
Revises: 0006_item_facts

Issues, PRs and cases get a text primary key ``id`` (``OWNER/REPO#NUMBER``, store/rows.py
`item_id`; the (repo, number) pair stays, unique); the conclusion rows get ``case_id`` and
``case_fixes`` ``pull_id``, foreign keys on SQLite as in 0003. Rows already stored get their
keys from their columns (``repo || '#' || number``, the rule of `item_id` in SQL). On SQLite the
tables are rebuilt into the head's shape (`fixlore.store.schema`: it must be these tables'
shape at this revision; a later revision changing them copies the shape here), and the trigram
FTS5 tables with their triggers are created over the rows there (store/views.py). On PostgreSQL
the primary keys are swapped in place.
"""
import sqlalchemy as sa
from alembic import op

from fixlore.store import schema, views

revision = '0007_single_keys_search'
down_revision = '0006_item_facts'
branch_labels = None
depends_on = None

# table -> (new column, the (repo, number) columns it is made of)
_KEYS = {"issues": ("id", "repo", "number"), "pulls": ("id", "repo", "number"), "cases": ("id", "repo", "number"),
         "case_fixes": ("case_id", "repo", "number"), "case_traps": ("case_id", "repo", "number"),
         "case_evidence": ("case_id", "repo", "number"), "case_kb_refs": ("case_id", "repo", "number")}
_PULL_ID = ("case_fixes", "pull_id", "pr_repo", "pr_number")
_KEYED = ("issues", "pulls", "cases")          # id becomes the primary key
# columns later revisions add to these tables: not part of their shape at this revision
_LATER = {"issues": ("assignees", "deleted_at")}          # 0008_who_speaks, 0009_deleted_issues
_INDEXES = {f"ix_{name}_case_id": (name, "case_id") for name in _KEYS if name.startswith("case_")} | \
    {"ix_case_fixes_pull_id": ("case_fixes", "pull_id")}


def _fill(conn: sa.Connection) -> None:
    added = [(table, *spec) for table, spec in _KEYS.items()] + [_PULL_ID]
    for table, column, repo, number in added:
        op.add_column(table, sa.Column(column, sa.String(length=320), nullable=True))
        concat = f"{repo} || '#' || CAST({number} AS VARCHAR(20))"
        conn.execute(sa.text(f"UPDATE {table} SET {column} = {concat}"))


def _old_shape(md: sa.MetaData, head: sa.Table, keys: list[str]) -> sa.Table:
    """`head` as it was at 0005: without the new keys, its primary key `keys`."""
    new = {"id", "case_id", "pull_id"}
    single = [fk for fk in head.foreign_key_constraints
              if len(fk.column_keys) == 1 and fk.elements[0].target_fullname not in ("issues.id", "pulls.id", "cases.id")]
    columns = [sa.Column(c.name, c.type, *[sa.ForeignKey(fk.elements[0].target_fullname) for fk in single
                                           if fk.column_keys[0] == c.name],
                         nullable=c.nullable if c.name not in keys else False, autoincrement=False,
                         server_default=c.server_default.arg if c.server_default is not None else None)
               for c in head.columns if c.name not in new]
    fks = [sa.ForeignKeyConstraint(fk.column_keys, [e.target_fullname for e in fk.elements], name=fk.name)
           for fk in head.foreign_key_constraints if len(fk.column_keys) > 1]
    table = sa.Table(head.name, md, *columns, *fks, sa.PrimaryKeyConstraint(*keys))
    for index in head.indexes:
        if not {c.name for c in index.columns} & new:
            sa.Index(index.name, *[table.c[c.name] for c in index.columns])
    return table


def _at_this_revision(md: sa.MetaData, name: str) -> sa.Table:
    """The head's table `name` (`fixlore.store.schema`) without the columns later revisions add
    (`_LATER`), in `md`; the head's own table when no later revision changed it."""
    head = schema.metadata.tables[name]
    later = set(_LATER.get(name, ()))
    if not later:
        return head
    if name in md.tables:
        return md.tables[name]
    for fk in head.foreign_key_constraints:        # the tables it refers to, for its foreign keys
        referred = fk.referred_table
        if referred.name not in md.tables:
            referred.to_metadata(md)
    columns = [c._copy() for c in head.columns if c.name not in later]
    uniques = [sa.UniqueConstraint(*[c.name for c in u.columns], name=u.name)
               for u in head.constraints if isinstance(u, sa.UniqueConstraint)]
    fks = [sa.ForeignKeyConstraint(fk.column_keys, [e.target_fullname for e in fk.elements], name=fk.name)
           for fk in head.foreign_key_constraints]
    table = sa.Table(name, md, *columns, *uniques, *fks)
    for index in head.indexes:
        sa.Index(index.name, *[table.c[c.name] for c in index.columns])
    return table


def upgrade() -> None:
    conn = op.get_bind()
    views.drop_views(conn)
    _fill(conn)
    if conn.dialect.name == "sqlite":
        for name in ("issues", "pulls", "cases", "case_fixes", "case_traps", "case_evidence", "case_kb_refs"):
            with op.batch_alter_table(name, recreate="always", copy_from=_at_this_revision(sa.MetaData(), name)):
                pass
        views.create_search(conn, live_only=False)   # the box as it was at this revision
    else:
        inspector = sa.inspect(conn)
        for name in _KEYED:
            op.alter_column(name, "id", nullable=False)
            op.drop_constraint(inspector.get_pk_constraint(name)["name"], name, type_="primary")
            op.create_primary_key(f"{name}_pkey", name, ["id"])
            op.create_unique_constraint(f"uq_{name}_repo_number", name, ["repo", "number"])
        for table, column, *_ in [(t, *spec) for t, spec in _KEYS.items() if t not in _KEYED] + [_PULL_ID]:
            op.alter_column(table, column, nullable=False)
        for index, (table, column) in _INDEXES.items():
            op.create_index(index, table, [column])
    views.create_views(conn)


def downgrade() -> None:
    conn = op.get_bind()
    views.drop_views(conn)
    keys = {"issues": ["repo", "number"], "pulls": ["repo", "number"], "cases": ["repo", "number"],
            "case_fixes": ["repo", "number", "pending", "position"], "case_traps": ["repo", "number", "trap"],
            "case_evidence": ["repo", "number", "position"], "case_kb_refs": ["repo", "number", "position"]}
    if conn.dialect.name == "sqlite":
        views.drop_search(conn)
        md = sa.MetaData()
        for table in schema.metadata.sorted_tables:
            if table.name not in keys:
                table.to_metadata(md)
        for name, pk in keys.items():           # referred tables first: the shapes resolve their foreign keys
            _old_shape(md, _at_this_revision(sa.MetaData(), name), pk)
        for name in keys:
            with op.batch_alter_table(name, recreate="always", copy_from=md.tables[name]):
                pass
    else:
        for index in _INDEXES:
            op.drop_index(index, table_name=_INDEXES[index][0])
        inspector = sa.inspect(conn)
        for name in _KEYED:
            op.drop_constraint(f"uq_{name}_repo_number", name, type_="unique")
            op.drop_constraint(inspector.get_pk_constraint(name)["name"], name, type_="primary")
            op.create_primary_key(f"{name}_pkey", name, ["repo", "number"])
        op.drop_column("case_fixes", "pull_id")
        for name, (column, *_) in _KEYS.items():
            op.drop_column(name, column)
    views.create_views(conn)
