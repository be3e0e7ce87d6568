"""initial tables

Revision ID: 0001
Revises: 
Create Date: 2026-12-02 13:54:14.304536
"""
from alembic import op
import sqlalchemy as sa
import fixlore.store.schema


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('cases',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('funnel', sa.String(length=40), server_default='', nullable=False),
    sa.Column('export', sa.JSON(), nullable=True),
    sa.Column('run_id', sa.Integer(), nullable=True),
    sa.Column('updated_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('repo', 'number')
    )
    op.create_table('comments',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('parent_kind', sa.String(length=10), nullable=False),
    sa.Column('parent_number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('id', sa.String(length=100), nullable=False),
    sa.Column('author', sa.String(length=200), server_default='', nullable=False),
    sa.Column('body', sa.Text(), server_default='', nullable=False),
    sa.Column('created_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('raw', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('repo', 'parent_kind', 'parent_number', 'id')
    )
    op.create_table('events',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('parent_kind', sa.String(length=10), nullable=False),
    sa.Column('parent_number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('id', sa.String(length=200), nullable=False),
    sa.Column('action', sa.String(length=40), nullable=False),
    sa.Column('actor', sa.String(length=200), server_default='', nullable=False),
    sa.Column('created_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('detail', sa.JSON(), nullable=True),
    sa.Column('raw', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('repo', 'parent_kind', 'parent_number', 'id')
    )
    op.create_table('harvest_runs',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('started_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('finished_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('status', sa.String(length=20), server_default='running', nullable=False),
    sa.Column('platform', sa.String(length=20), server_default='', nullable=False),
    sa.Column('orgs', sa.JSON(), nullable=True),
    sa.Column('window_since', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('requests', sa.Integer(), server_default='0', nullable=False),
    sa.Column('summary', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('http_cache',
    sa.Column('url', sa.Text(), nullable=False),
    sa.Column('etag', sa.Text(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('headers', sa.JSON(), nullable=True),
    sa.Column('stored_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('url')
    )
    op.create_table('issue_pull_links',
    sa.Column('issue_repo', sa.String(length=300), nullable=False),
    sa.Column('issue_number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('pull_repo', sa.String(length=300), nullable=False),
    sa.Column('pull_number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('source', sa.String(length=30), nullable=False),
    sa.Column('recorded_on', sa.String(length=10), nullable=False),
    sa.PrimaryKeyConstraint('issue_repo', 'issue_number', 'pull_repo', 'pull_number', 'source', 'recorded_on')
    )
    op.create_table('issues',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('title', sa.Text(), server_default='', nullable=False),
    sa.Column('body', sa.Text(), server_default='', nullable=False),
    sa.Column('state', sa.String(length=20), server_default='', nullable=False),
    sa.Column('state_reason', sa.String(length=40), server_default='', nullable=False),
    sa.Column('workflow_state', sa.Text(), server_default='', nullable=False),
    sa.Column('issue_type', sa.Text(), server_default='', nullable=False),
    sa.Column('author', sa.String(length=200), server_default='', nullable=False),
    sa.Column('closed_by', sa.String(length=200), server_default='', nullable=False),
    sa.Column('labels', sa.JSON(), nullable=True),
    sa.Column('comments_count', sa.Integer(), server_default='0', nullable=False),
    sa.Column('html_url', sa.Text(), server_default='', nullable=False),
    sa.Column('created_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('updated_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('closed_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('funnel_stage', sa.String(length=40), server_default='', nullable=False),
    sa.Column('details_for', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('raw', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('repo', 'number')
    )
    with op.batch_alter_table('issues', schema=None) as batch_op:
        batch_op.create_index('ix_issues_updated_at', ['updated_at'], unique=False)

    op.create_table('pull_commits',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('pull_number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('sha', sa.String(length=80), nullable=False),
    sa.Column('message', sa.Text(), server_default='', nullable=False),
    sa.Column('author', sa.String(length=200), server_default='', nullable=False),
    sa.Column('date', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('repo', 'pull_number', 'sha')
    )
    op.create_table('pull_files',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('pull_number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('filename', sa.Text(), nullable=False),
    sa.Column('status', sa.String(length=30), server_default='', nullable=False),
    sa.Column('additions', sa.Integer(), server_default='0', nullable=False),
    sa.Column('deletions', sa.Integer(), server_default='0', nullable=False),
    sa.Column('patch', sa.Text(), server_default='', nullable=False),
    sa.PrimaryKeyConstraint('repo', 'pull_number', 'filename')
    )
    op.create_table('pulls',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('title', sa.Text(), server_default='', nullable=False),
    sa.Column('body', sa.Text(), server_default='', nullable=False),
    sa.Column('state', sa.String(length=20), server_default='', nullable=False),
    sa.Column('merged', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('author', sa.String(length=200), server_default='', nullable=False),
    sa.Column('head_ref', sa.Text(), server_default='', nullable=False),
    sa.Column('head_repo', sa.String(length=300), server_default='', nullable=False),
    sa.Column('base_ref', sa.Text(), server_default='', nullable=False),
    sa.Column('merge_commit_sha', sa.String(length=80), server_default='', nullable=False),
    sa.Column('html_url', sa.Text(), server_default='', nullable=False),
    sa.Column('labels', sa.JSON(), nullable=True),
    sa.Column('created_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('updated_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('merged_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('closed_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('details_for', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('raw', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('repo', 'number')
    )
    op.create_table('raw_payloads',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('parent_kind', sa.String(length=10), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('resource', sa.String(length=40), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=True),
    sa.Column('fetched_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('repo', 'parent_kind', 'number', 'resource')
    )
    op.create_table('repos',
    sa.Column('full_name', sa.String(length=300), nullable=False),
    sa.Column('platform', sa.String(length=20), nullable=False),
    sa.Column('org', sa.String(length=200), server_default='', nullable=False),
    sa.Column('owner', sa.String(length=200), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('display_name', sa.Text(), server_default='', nullable=False),
    sa.Column('default_branch', sa.String(length=200), server_default='', nullable=False),
    sa.Column('html_url', sa.Text(), server_default='', nullable=False),
    sa.Column('description', sa.Text(), server_default='', nullable=False),
    sa.Column('updated_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('raw', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('full_name')
    )
    op.create_table('runs',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('started_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('finished_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('status', sa.String(length=20), server_default='running', nullable=False),
    sa.Column('info', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('watermarks',
    sa.Column('repo', sa.String(length=300), nullable=False),
    sa.Column('issues_updated_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('pulls_updated_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('window_since', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.Column('harvested_at', fixlore.store.schema.UTCDateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('repo')
    )


def downgrade() -> None:
    op.drop_table('watermarks')
    op.drop_table('runs')
    op.drop_table('repos')
    op.drop_table('raw_payloads')
    op.drop_table('pulls')
    op.drop_table('pull_files')
    op.drop_table('pull_commits')
    with op.batch_alter_table('issues', schema=None) as batch_op:
        batch_op.drop_index('ix_issues_updated_at')

    op.drop_table('issues')
    op.drop_table('issue_pull_links')
    op.drop_table('http_cache')
    op.drop_table('harvest_runs')
    op.drop_table('events')
    op.drop_table('comments')
    op.drop_table('cases')
