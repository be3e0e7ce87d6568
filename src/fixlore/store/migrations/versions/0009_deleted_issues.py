"""issues deleted on the platform: issues.deleted_at, when a harvest saw the issue itself answer that it
is gone (GitHub 410 "This issue was deleted", GitCode 404); the store's reads leave such issues out

Revision ID: 0009_deleted_issues
Revises: 0008_who_speaks

Rows stored before this revision are not deleted (null): nothing told a harvest otherwise.
"""
import sqlalchemy as sa
from alembic import op

from fixlore.store import views
from fixlore.store.schema import UTCDateTime

revision = '0009_deleted_issues'
down_revision = '0008_who_speaks'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('issues', sa.Column('deleted_at', UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # SQLite drops a column by rebuilding the table, which takes the search box's triggers with it
    # (0008's downgrade says why): the search is taken down and built again
    conn = op.get_bind()
    views.drop_search(conn)
    with op.batch_alter_table('issues') as batch:
        batch.drop_column('deleted_at')
    views.create_search(conn, live_only=False)   # the box as it was at this revision
