"""the digest series ledger: series, editions, the rows and files each edition published

Revision ID: 0002_series_ledger
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa
import fixlore.store.schema


revision = '0002_series_ledger'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('series',
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('config', sa.JSON(), nullable=False),
    sa.Column('created_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('updated_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('name')
    )
    op.create_table('editions',
    sa.Column('series', sa.String(length=100), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('kind', sa.String(length=20), server_default='regular', nullable=False),
    sa.Column('focus', sa.JSON(), nullable=True),
    sa.Column('window_since', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('window_until', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('scope', sa.JSON(), nullable=True),
    sa.Column('counts', sa.JSON(), nullable=True),
    sa.Column('backlog', sa.JSON(), nullable=True),
    sa.Column('inputs', sa.JSON(), nullable=True),
    sa.Column('published_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('series', 'number')
    )
    op.create_table('edition_rows',
    sa.Column('series', sa.String(length=100), nullable=False),
    sa.Column('edition', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.Column('published', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('row_hash', sa.String(length=64), nullable=False),
    sa.Column('row', sa.JSON(), nullable=False),
    sa.Column('change', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('series', 'edition', 'repo', 'number')
    )
    op.create_table('edition_files',
    sa.Column('series', sa.String(length=100), nullable=False),
    sa.Column('edition', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('bytes', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('series', 'edition', 'name')
    )


def downgrade() -> None:
    op.drop_table('edition_files')
    op.drop_table('edition_rows')
    op.drop_table('editions')
    op.drop_table('series')
