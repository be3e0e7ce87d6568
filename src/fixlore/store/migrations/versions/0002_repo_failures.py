"""repo_failures: what one run could not read, kept until a later run reads it

Revision ID: 0002_repo_failures
Revises: 0002_series_ledger
"""
from alembic import op
import sqlalchemy as sa
import fixlore.store.schema


revision = '0002_repo_failures'
down_revision = '0002_series_ledger'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('repo_failures',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('endpoint', sa.String(length=200), nullable=False),
    sa.Column('status', sa.String(length=40), server_default='', nullable=False),
    sa.Column('message', sa.Text(), server_default='', nullable=False),
    sa.Column('failed_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('attempts', sa.Integer(), server_default='1', nullable=False),
    sa.PrimaryKeyConstraint('repo', 'endpoint')
    )


def downgrade() -> None:
    op.drop_table('repo_failures')
