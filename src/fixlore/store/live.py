"""The issues a read sees: those not seen deleted on the platform (``issues.deleted_at`` null, migration
0009). Every read of issues starts from `live_issues` (store.reads; the full-text index, store.views), and
what hangs off an issue (its comments and events) is read for a live issue only (`of_live_issue`), and so is
its links to PRs (`link_of_live_issue`), and so is
its case (`not_of_a_deleted_issue`: the case's export quotes the issue and its comments). The
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


def not_of_a_deleted_issue(table: sa.Table) -> sa.ColumnElement[bool]:
    """A row of `table` (cases: repo, number) whose issue is not marked deleted; one without an issue row
    (a store a stage wrote alone) is kept."""
    c = table.c
    return sa.tuple_(c.repo, c.number).not_in(sa.select(t.issues.c.repo, t.issues.c.number).where(DELETED.is_not(None)))


def link_of_live_issue(table: sa.Table) -> sa.ColumnElement[bool]:
    """A row of `table` (issue_pull_links: issue_repo, issue_number) whose issue is not marked deleted: a PR
    linked to a deleted issue would still read as fixing several issues. One without an issue row is kept."""
    c = table.c
    return sa.tuple_(c.issue_repo, c.issue_number).not_in(
        sa.select(t.issues.c.repo, t.issues.c.number).where(DELETED.is_not(None)))
