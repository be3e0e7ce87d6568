"""item facts: issues.is_pull (a PR item of GitHub's issue list) and pulls.head_sha, which the
sources now normalise instead of the stages reading them from the stored payload

Revision ID: 0006_item_facts
Revises: 0005_item_failures
"""
from alembic import op
import sqlalchemy as sa


revision = '0006_item_facts'
down_revision = '0005_item_failures'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('issues', sa.Column('is_pull', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('pulls', sa.Column('head_sha', sa.String(length=80), server_default='', nullable=False))
    _fill_from_kept_payloads()


def _fill_from_kept_payloads() -> None:
    """Rows stored before this revision get the two facts from the payload each row keeps (the
    normalisers' rule: `pull_request` in a GitHub issue item, `head.sha` of a PR), so a store
    need not be harvested again."""
    conn = op.get_bind()
    meta = sa.MetaData()
    issues = sa.Table('issues', meta, autoload_with=conn)
    pulls = sa.Table('pulls', meta, autoload_with=conn)
    for r in conn.execute(sa.select(issues.c.repo, issues.c.number, issues.c.raw)).all():
        if isinstance(r.raw, dict) and 'pull_request' in r.raw:
            conn.execute(issues.update().where(issues.c.repo == r.repo, issues.c.number == r.number)
                         .values(is_pull=True))
    for r in conn.execute(sa.select(pulls.c.repo, pulls.c.number, pulls.c.raw)).all():
        head = r.raw.get('head') if isinstance(r.raw, dict) else None
        sha = str(head.get('sha') or '') if isinstance(head, dict) else ''
        if sha:
            conn.execute(pulls.update().where(pulls.c.repo == r.repo, pulls.c.number == r.number)
                         .values(head_sha=sha[:80]))


def downgrade() -> None:
    with op.batch_alter_table('pulls') as batch:
        batch.drop_column('head_sha')
    with op.batch_alter_table('issues') as batch:
        batch.drop_column('is_pull')
