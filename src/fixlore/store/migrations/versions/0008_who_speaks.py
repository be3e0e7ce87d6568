"""who speaks for the project: comments.association (GitHub's author_association) and
issues.assignees, which the sources now normalise: the facts a rule needs to tell a project's answer
from a bystander's comment (no rule reads them yet)

Revision ID: 0008_who_speaks
Revises: 0007_single_keys_search

Rows stored before this revision get both facts from the payload each row keeps (the
normalisers' rule: `author_association` of a GitHub comment, upper case; the logins of an issue's
`assignees`, else its `assignee`), so a store need not be harvested again.
"""
import sqlalchemy as sa
from alembic import op

from fixlore.store import views

revision = '0008_who_speaks'
down_revision = '0007_single_keys_search'
branch_labels = None
depends_on = None


# The normalisers' rule (sources.base.login_of / assignees_of) copied, not imported: a revision keeps
# doing what it did when it was written, whatever the sources do later (and the store may not import them).
def _login(user) -> str:
    if isinstance(user, dict):
        return str(user.get("login") or user.get("username") or user.get("name") or "")
    return user if isinstance(user, str) else ""


def _assignees(raw) -> list[str]:
    if not isinstance(raw, dict):
        return []
    people = raw.get("assignees") if isinstance(raw.get("assignees"), list) else []
    return list(dict.fromkeys(x for x in (_login(u) for u in [*people, raw.get("assignee")]) if x))


def upgrade() -> None:
    op.add_column('comments', sa.Column('association', sa.String(length=40), server_default='', nullable=False))
    op.add_column('issues', sa.Column('assignees', sa.JSON(), nullable=True))
    conn = op.get_bind()
    meta = sa.MetaData()
    comments = sa.Table('comments', meta, autoload_with=conn)
    issues = sa.Table('issues', meta, autoload_with=conn)
    keys = [comments.c.repo, comments.c.parent_kind, comments.c.parent_number, comments.c.id]
    for r in conn.execute(sa.select(*keys, comments.c.raw)).all():
        said = r.raw.get('author_association') if isinstance(r.raw, dict) else None
        if isinstance(said, str) and said:
            conn.execute(comments.update().where(*[k == v for k, v in zip(keys, r[:4])])
                         .values(association=said.upper()[:40]))
    for r in conn.execute(sa.select(issues.c.repo, issues.c.number, issues.c.raw)).all():
        people = _assignees(r.raw)
        if people:
            conn.execute(issues.update().where(issues.c.repo == r.repo, issues.c.number == r.number)
                         .values(assignees=people))


def downgrade() -> None:
    # SQLite drops a column by rebuilding the table, which takes the search box's triggers with it
    # and may renumber the rows its index points at: the search is taken down and built again
    conn = op.get_bind()
    views.drop_search(conn)
    with op.batch_alter_table('issues') as batch:
        batch.drop_column('assignees')
    with op.batch_alter_table('comments') as batch:
        batch.drop_column('association')
    views.create_search(conn, live_only=False)   # the box as it was at this revision
