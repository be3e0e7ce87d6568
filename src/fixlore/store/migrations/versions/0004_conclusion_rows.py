"""the conclusions as rows: per-case columns of cases, case_fixes, case_traps, case_evidence, case_kb_refs

Revision ID: 0004_conclusion_rows
Revises: 0003_datasette

The views that unfolded `cases.export` with JSON functions give way to tables of the same
names (case_fixes, case_traps, case_evidence, case_kb_refs) and to columns of `cases` (title,
timing, lag_s, ...); `case_conclusions` and `case_pending_fixes` stay as views over them
(store/views.py). The cases already stored are unfolded into the new rows from their exports
(store/conclusions.py). Foreign keys are declared on SQLite only, as in 0003.
"""
import json

import sqlalchemy as sa
from alembic import op

from fixlore.store import conclusions, views
from fixlore.store.migrations import json_views
from fixlore.store.rows import upsert
import fixlore.store.schema

revision = '0004_conclusion_rows'
down_revision = '0003_datasette'
branch_labels = None
depends_on = None

_TIME = fixlore.store.schema.UTCDateTime(timezone=True)


def _case_columns() -> list[sa.Column]:
    return [
        sa.Column('title', sa.Text(), server_default='', nullable=False),
        sa.Column('url', sa.Text(), server_default='', nullable=False),
        sa.Column('closed_at', _TIME, nullable=True),
        sa.Column('drop_reason', sa.String(length=40), server_default='', nullable=False),
        sa.Column('provisional', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('timing', sa.String(length=40), server_default='', nullable=False),
        sa.Column('lag_s', sa.Integer(), nullable=True),
        sa.Column('timing_note', sa.Text(), server_default='', nullable=False),
        sa.Column('closed_by', sa.String(length=200), server_default='', nullable=False),
        sa.Column('theme', sa.Text(), server_default='', nullable=False),
        sa.Column('value', sa.Float(), server_default='0', nullable=False),
        sa.Column('analysed_by', sa.String(length=200), server_default='', nullable=False),
        sa.Column('problem', sa.Text(), server_default='', nullable=False),
        sa.Column('answer', sa.Text(), server_default='', nullable=False),
        sa.Column('symptom', sa.Text(), server_default='', nullable=False),
        sa.Column('first_action', sa.Text(), server_default='', nullable=False),
    ]


_TABLES = ('case_fixes', 'case_traps', 'case_evidence', 'case_kb_refs')


def _create_tables(declare_fk: bool) -> None:
    def key(table: str) -> list:
        fk = [sa.ForeignKeyConstraint(['repo', 'number'], ['cases.repo', 'cases.number'],
                                      name=f'fk_{table}_repo_number')] if declare_fk else []
        return [sa.Column('repo', sa.String(length=300), nullable=False),
                sa.Column('number', sa.Integer(), autoincrement=False, nullable=False), *fk]

    pull_fk = [sa.ForeignKeyConstraint(['pr_repo', 'pr_number'], ['pulls.repo', 'pulls.number'],
                                       name='fk_case_fixes_pr_repo_pr_number')] if declare_fk else []
    op.create_table('case_fixes', *key('case_fixes'),
                    sa.Column('pending', sa.Boolean(), nullable=False),
                    sa.Column('position', sa.Integer(), autoincrement=False, nullable=False),
                    sa.Column('pr_repo', sa.String(length=300), nullable=False),
                    sa.Column('pr_number', sa.Integer(), nullable=False),
                    sa.Column('role', sa.String(length=20), server_default='fix', nullable=False),
                    sa.Column('state', sa.String(length=20), server_default='', nullable=False),
                    sa.Column('merged', sa.Boolean(), server_default=sa.false(), nullable=False),
                    sa.Column('merged_at', _TIME, nullable=True),
                    sa.Column('base_ref', sa.Text(), server_default='', nullable=False),
                    sa.Column('url', sa.Text(), server_default='', nullable=False),
                    *pull_fk,
                    sa.PrimaryKeyConstraint('repo', 'number', 'pending', 'position'))
    op.create_index('ix_case_fixes_pr', 'case_fixes', ['pr_repo', 'pr_number'])
    op.create_table('case_traps', *key('case_traps'),
                    sa.Column('trap', sa.String(length=40), nullable=False),
                    sa.Column('position', sa.Integer(), nullable=False),
                    sa.Column('note', sa.Text(), server_default='', nullable=False),
                    sa.PrimaryKeyConstraint('repo', 'number', 'trap'))
    op.create_table('case_evidence', *key('case_evidence'),
                    sa.Column('position', sa.Integer(), autoincrement=False, nullable=False),
                    sa.Column('kind', sa.String(length=40), nullable=False),
                    sa.Column('detail', sa.Text(), server_default='', nullable=False),
                    sa.Column('source', sa.Text(), server_default='', nullable=False),
                    sa.PrimaryKeyConstraint('repo', 'number', 'position'))
    op.create_table('case_kb_refs', *key('case_kb_refs'),
                    sa.Column('position', sa.Integer(), autoincrement=False, nullable=False),
                    sa.Column('doc', sa.Text(), nullable=False),
                    sa.Column('chunk', sa.String(length=100), server_default='', nullable=False),
                    sa.Column('score', sa.Float(), server_default='0', nullable=False),
                    sa.PrimaryKeyConstraint('repo', 'number', 'position'))


def _as_here(conn: sa.Connection, table: sa.Table, keys: list[str]) -> sa.Table:
    """`table` (the head's) with only the columns it has at this revision, keyed as here: the
    head has more (0006 adds the single-column keys)."""
    names = {c["name"] for c in sa.inspect(conn).get_columns(table.name)}
    return sa.Table(table.name, sa.MetaData(), *[sa.Column(c.name, c.type) for c in table.columns if c.name in names],
                    sa.PrimaryKeyConstraint(*keys))


def _unfold_stored_cases(conn: sa.Connection) -> None:
    rows = conn.execute(sa.text("SELECT export FROM cases ORDER BY repo, number"))
    exports = [json.loads(r.export) if isinstance(r.export, str) else r.export for r in rows if r.export]
    cases = _as_here(conn, fixlore.store.schema.cases, ["repo", "number"])
    tables = {t: _as_here(conn, t, [c.name for c in t.primary_key.columns]) for t in conclusions.LINKED}
    for i in range(0, len(exports), 500):
        part = exports[i:i + 500]
        upsert(conn, cases, [{k: v for k, v in conclusions.case_columns(e).items() if k in cases.c} for e in part])
        for head, here in tables.items():
            upsert(conn, here, [{k: v for k, v in row.items() if k in here.c}
                                for e in part for row in conclusions.conclusion_rows(e, head)])


def upgrade() -> None:
    conn = op.get_bind()
    json_views.drop_views(conn)
    for column in _case_columns():
        op.add_column('cases', column)
    op.create_index('ix_cases_funnel', 'cases', ['funnel'])
    _create_tables(declare_fk=conn.dialect.name == "sqlite")
    _unfold_stored_cases(conn)
    views.create_views(conn)


def downgrade() -> None:
    conn = op.get_bind()
    views.drop_views(conn)
    op.drop_index('ix_case_fixes_pr', table_name='case_fixes')
    for table in reversed(_TABLES):
        op.drop_table(table)
    op.drop_index('ix_cases_funnel', table_name='cases')
    with op.batch_alter_table('cases') as batch:
        for column in reversed(_case_columns()):
            batch.drop_column(column.name)
    json_views.create_views(conn)
