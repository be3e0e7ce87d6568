"""Rows and the one upsert: how model objects become table rows and back, JSON made storable,
and ``INSERT ... ON CONFLICT`` in each dialect's syntax."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Iterable

import sqlalchemy as sa

from fixlore.core import model as m
def _json_text(value: Any) -> str:
    """JSON columns as UTF-8 text: Chinese stays readable in any SQL client."""
    return json.dumps(value, ensure_ascii=False)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _jsonable(value: Any) -> Any:
    """Round-trip through JSON so stored payloads never hold non-JSON objects."""
    return json.loads(json.dumps(value, default=str)) if value is not None else None


def item_id(repo: str, number: int) -> str:
    """The single-column key of an issue, PR or case: ``OWNER/REPO#NUMBER``, as people write one.
    Derived from the composite key, so a writer needs no lookup and a fix may name a PR the store
    lacks; migration 0006 fills it with the same rule in SQL (``repo || '#' || number``)."""
    return f"{repo}#{int(number)}"


def upsert(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]], keys: Iterable[str] | None = None,
           update: Iterable[str] | None = None) -> None:
    """INSERT ... ON CONFLICT (keys) DO UPDATE, in the dialect's own syntax."""
    if not rows:
        return
    keys = tuple(keys or [c.name for c in table.primary_key.columns])
    cols = tuple(update) if update is not None else tuple(c for c in rows[0] if c not in keys)
    stmt = _upsert_statement(conn.dialect.name, table, keys, cols)
    # Rows in key order: harvesters sharing one PostgreSQL then lock the rows they both write in
    # the same order, so two overlapping upserts wait for each other instead of deadlocking.
    rows = sorted(rows, key=lambda r: tuple((r.get(k) is None, str(r.get(k))) for k in keys))
    # Batches keep PostgreSQL's bind-parameter limit out of reach.
    for start in range(0, len(rows), 500):
        conn.execute(stmt, rows[start:start + 500])


@lru_cache(maxsize=256)
def _upsert_statement(dialect: str, table: sa.Table, keys: tuple[str, ...], cols: tuple[str, ...]) -> Any:
    """The statement for these keys and columns, built once per process: building one makes an
    alias of the table for ``excluded`` (a copy of every column), and a harvest upserts thousands
    of times with a handful of shapes. Statements are immutable, so sharing them is safe."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    stmt = insert(table)
    if cols:
        return stmt.on_conflict_do_update(index_elements=list(keys), set_={c: stmt.excluded[c] for c in cols})
    return stmt.on_conflict_do_nothing(index_elements=list(keys))


# ---------------------------------------------------------------------------
# model <-> row


def repo_row(repo: m.Repo, org: str = "") -> dict[str, Any]:
    return {"full_name": repo.full_name, "platform": repo.platform, "org": org or repo.owner, "owner": repo.owner,
            "name": repo.name, "display_name": repo.display_name, "default_branch": repo.default_branch,
            "html_url": repo.html_url, "description": repo.description, "updated_at": repo.updated_at,
            "raw": _jsonable(repo.raw)}


def issue_row(issue: m.Issue) -> dict[str, Any]:
    return {"id": item_id(issue.repo, issue.number), "repo": issue.repo, "number": issue.number,
            "title": issue.title, "body": issue.body,
            "state": issue.state, "state_reason": issue.state_reason, "workflow_state": issue.workflow_state,
            "issue_type": issue.issue_type, "author": issue.author, "closed_by": issue.closed_by,
            "labels": list(issue.labels), "assignees": list(issue.assignees),
            "comments_count": issue.comments_count, "html_url": issue.html_url,
            "created_at": issue.created_at, "updated_at": issue.updated_at, "closed_at": issue.closed_at,
            "is_pull": issue.is_pull, "raw": _jsonable(issue.raw)}


def pull_row(pull: m.Pull) -> dict[str, Any]:
    return {"id": item_id(pull.repo, pull.number), "repo": pull.repo, "number": pull.number,
            "title": pull.title, "body": pull.body, "state": pull.state,
            "merged": pull.merged, "author": pull.author, "head_ref": pull.head_ref, "head_repo": pull.head_repo,
            "base_ref": pull.base_ref, "merge_commit_sha": pull.merge_commit_sha, "html_url": pull.html_url,
            "labels": list(pull.labels), "head_sha": pull.head_sha, "created_at": pull.created_at, "updated_at": pull.updated_at,
            "merged_at": pull.merged_at, "closed_at": pull.closed_at, "raw": _jsonable(pull.raw)}


def _issue_of(row: Any, platform: str = "") -> m.Issue:
    return m.Issue(repo=row.repo, number=row.number, title=row.title, body=row.body, state=row.state,
                   created_at=row.created_at, updated_at=row.updated_at, closed_at=row.closed_at,
                   author=row.author, state_reason=row.state_reason, workflow_state=row.workflow_state,
                   issue_type=row.issue_type, labels=list(row.labels or []), comments_count=row.comments_count,
                   html_url=row.html_url, closed_by=row.closed_by, assignees=list(row.assignees or []),
                   platform=platform, is_pull=bool(row.is_pull),
                   raw=row.raw or {})


def _comment_of(row: Any) -> m.Comment:
    return m.Comment(repo=row.repo, parent_kind=row.parent_kind, parent_number=row.parent_number, id=row.id,
                     author=row.author, body=row.body, created_at=row.created_at, association=row.association,
                     raw=row.raw or {})


def _pull_of(row: Any, platform: str = "") -> m.Pull:
    return m.Pull(repo=row.repo, number=row.number, title=row.title, body=row.body, state=row.state,
                  created_at=row.created_at, updated_at=row.updated_at, merged_at=row.merged_at,
                  closed_at=row.closed_at, author=row.author, head_ref=row.head_ref, head_repo=row.head_repo,
                  base_ref=row.base_ref, merge_commit_sha=row.merge_commit_sha, html_url=row.html_url,
                  labels=list(row.labels or []), head_sha=row.head_sha, platform=platform, raw=row.raw or {})


