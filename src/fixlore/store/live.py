"""The issues a read sees: those not seen deleted on the platform (``issues.deleted_at`` null, migration
0009). Every read of issues starts from `live_issues` (store.reads; the full-text index, store.views), and
what hangs off an issue (its comments and events) is read for a live issue only (`of_live_issue`), and so are
its links to PRs and its case (`not_of_a_deleted_issue`). The
issues' search box holds live issues only: its triggers read `DELETED` (store.views, migration 0010)."""

from __future__ import annotations

import sqlalchemy as sa

from fixlore.store import schema as t

DELETED = t.issues.c.deleted_at        # null on a live issue
live_issues = sa.select(t.issues).where(DELETED.is_(None)).subquery("live_issues")


def of_live_issue(table: sa.Table) -> sa.ColumnElement[bool]:
    """A row of `table` (comments, events: repo, parent_kind, parent_number) that is a PR's or a live issue's."""
    c = table.c
    # EXISTS, correlated: each row looks its issue up by (repo, number); an IN over every live issue was
    # read whole once per query, which the harvester's per-repo load_corpus asks for every repo
    return sa.or_(c.parent_kind != "issue",
                  sa.exists().where(live_issues.c.repo == c.repo, live_issues.c.number == c.parent_number))


def not_of_a_deleted_issue(repo: sa.ColumnElement, number: sa.ColumnElement) -> sa.ColumnElement[bool]:
    """A row whose issue, named by its `repo` and `number` columns, is not marked deleted (cases: the export
    quotes the issue; issue_pull_links: a PR linked to a deleted issue would still read as fixing one more);
    a row without an issue row (a store a stage wrote alone) is kept."""
    return sa.tuple_(repo, number).not_in(sa.select(t.issues.c.repo, t.issues.c.number).where(DELETED.is_not(None)))
