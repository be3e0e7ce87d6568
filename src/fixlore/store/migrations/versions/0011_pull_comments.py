"""a PR's comments are a detail part the harvest reads (comments with parent_kind 'pull'): a PR
detailed before this revision had none read, so it is marked not detailed and the next run asks
its details again (one time; docs/harvest.md, "A PR's comments")

Revision ID: 0011_pull_comments
Revises: 0010_search_live_issues

Only PRs with no comment stored under them are marked: a store filled from a world's files by the
offline loader already holds its PRs' comments. Nothing of the schema changes; going back leaves
the marks as they are (a PR asked again is read the same way).
"""
import sqlalchemy as sa
from alembic import op

revision = '0011_pull_comments'
down_revision = '0010_search_live_issues'
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    meta = sa.MetaData()
    pulls = sa.Table('pulls', meta, autoload_with=conn)
    comments = sa.Table('comments', meta, autoload_with=conn)
    has_comments = sa.exists().where(comments.c.parent_kind == 'pull', comments.c.repo == pulls.c.repo,
                                     comments.c.parent_number == pulls.c.number)
    conn.execute(pulls.update().where(pulls.c.details_for.is_not(None), ~has_comments).values(details_for=None))


def downgrade() -> None:
    pass
