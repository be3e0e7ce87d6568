"""the issues' search box holds live issues only: a deleted issue (issues.deleted_at, 0009) is not found by
it, as no read of the store gives it (store.live)

Revision ID: 0010_search_live_issues
Revises: 0009_deleted_issues

The box (issues_fts, SQLite only) is built again with triggers that add and take out a row only while it is
not marked deleted, and filled with the live issues; going back builds the box of 0009, which holds every row.
"""
from alembic import op

from fixlore.store import views

revision = '0010_search_live_issues'
down_revision = '0009_deleted_issues'
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    views.drop_search(conn)
    views.create_search(conn)


def downgrade() -> None:
    conn = op.get_bind()
    views.drop_search(conn)
    views.create_search(conn, live_only=False)
