"""item_failures: one part of one issue or PR that could not be read, kept until a later run reads it

Revision ID: 0005_item_failures
Revises: 0004_conclusion_rows
"""
from alembic import op
import sqlalchemy as sa
import fixlore.store.schema


revision = '0005_item_failures'
down_revision = '0004_conclusion_rows'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('item_failures',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('part', sa.String(length=20), nullable=False),
    sa.Column('endpoint', sa.String(length=200), server_default='', nullable=False),
    sa.Column('status', sa.String(length=40), server_default='', nullable=False),
    sa.Column('message', sa.Text(), server_default='', nullable=False),
    sa.Column('failed_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('attempts', sa.Integer(), server_default='1', nullable=False),
    sa.PrimaryKeyConstraint('repo', 'kind', 'number', 'part')
    )


def downgrade() -> None:
    op.drop_table('item_failures')
