"""Writes of a harvest: repositories, issues, PRs and everything fetched about them, inside one
transaction (`StoreWriter`), and the HTTP client's ETag cache over the ``http_cache`` table."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

import sqlalchemy as sa

from fixlore.core import model as m
from fixlore.rules.unread import COMMENTS, COMMITS, EVENTS, FILES, ISSUE
from fixlore.store import schema as t
from fixlore.store.rows import _jsonable, _now, issue_row, pull_row, repo_row, upsert


class StoreWriter:
    """Writes inside one transaction (one repo's work, typically)."""

    def __init__(self, conn: sa.Connection):
        self.conn = conn

    def upsert_repos(self, repos: list[m.Repo], org: str = "") -> None:
        upsert(self.conn, t.repos, [repo_row(r, org) for r in repos])

    def upsert_issues(self, issues: list[m.Issue]) -> None:
        """Insert or refresh list-level fields; detail bookkeeping (details_for, funnel_stage) and a deleted
        mark are kept (`listed_again` takes the marks off, once per listing)."""
        upsert(self.conn, t.issues, [issue_row(i) for i in issues])

    def listed_again(self, repo: str, numbers: Iterable[int]) -> None:
        """Issues of `repo` that a listing carried: one marked deleted is not deleted (a deleted issue leaves
        every list), so its mark goes and its details are asked again. Called once per listing, with every
        number it carried: the repo's marked numbers are read (few, mostly none) and only those updated."""
        c = t.issues.c
        marked = set(self.conn.execute(sa.select(c.number).where(c.repo == repo, c.deleted_at.is_not(None))).scalars())
        back = sorted(marked.intersection(numbers))
        for i in range(0, len(back), 500):
            self.conn.execute(sa.update(t.issues).where(c.repo == repo, c.number.in_(back[i:i + 500]))
                              .values(deleted_at=None, details_for=None))

    def mark_deleted(self, repo: str, number: int) -> None:
        """The issue itself answered that it is gone: no read gives it again (store.reads), nothing is asked of
        it again (its details count as done), and what it left unread is forgotten. Its row stays (a case
        row refers to it); listed again, `listed_again` brings it back.""" 
        self.conn.execute(sa.update(t.issues).where(t.issues.c.repo == repo, t.issues.c.number == number)
                          .values(deleted_at=_now(), details_for=t.issues.c.updated_at))
        self.conn.execute(sa.delete(t.item_failures).where(t.item_failures.c.repo == repo,
                                                           t.item_failures.c.kind == ISSUE,
                                                           t.item_failures.c.number == number))

    def upsert_pulls(self, pulls: list[m.Pull]) -> None:
        upsert(self.conn, t.pulls, [pull_row(p) for p in pulls])

    def set_funnel_stages(self, verdicts: dict[tuple[str, int], str]) -> None:
        for (repo, number), stage in verdicts.items():
            self.conn.execute(sa.update(t.issues).where(t.issues.c.repo == repo, t.issues.c.number == number)
                              .values(funnel_stage=stage))

    def _replace_raw(self, repo: str, kind: str, number: int, raw: dict[str, Any]) -> None:
        now = _now()
        upsert(self.conn, t.raw_payloads, [
            {"repo": repo, "parent_kind": kind, "number": number, "resource": name, "payload": _jsonable(payload),
             "fetched_at": now} for name, payload in raw.items()])

    def _replace_children(self, table: sa.Table, repo_col: str, number_col: str, repo: str, number: int,
                          rows: list[dict[str, Any]], extra: dict[str, Any] | None = None) -> None:
        cond = [table.c[repo_col] == repo, table.c[number_col] == number]
        for col, value in (extra or {}).items():
            cond.append(table.c[col] == value)
        self.conn.execute(sa.delete(table).where(*cond))
        unique: dict[tuple, dict[str, Any]] = {}
        keys = [c.name for c in table.primary_key.columns]
        for row in rows:
            unique[tuple(row[k] for k in keys)] = row
        upsert(self.conn, table, list(unique.values()))

    def _replace_comments(self, repo: str, kind: str, number: int, comments: list[m.Comment]) -> None:
        self._replace_children(t.comments, "repo", "parent_number", repo, number, [
            {"repo": repo, "parent_kind": kind, "parent_number": number, "id": c.id, "author": c.author,
             "body": c.body, "created_at": c.created_at, "association": c.association,
             "raw": _jsonable(c.raw)} for c in comments],
            {"parent_kind": kind})

    def _replace_events(self, repo: str, kind: str, number: int, events: list[m.Event]) -> None:
        self._replace_children(t.events, "repo", "parent_number", repo, number, [
            {"repo": repo, "parent_kind": kind, "parent_number": number, "id": e.id, "action": e.action,
             "actor": e.actor, "created_at": e.created_at, "detail": _jsonable(e.detail), "raw": _jsonable(e.raw)}
            for e in events], {"parent_kind": kind})

    def _replace_links(self, side: str, repo: str, number: int, links: list[m.Link], add_only: bool = False) -> None:
        table = t.issue_pull_links
        if side == "issue":
            cond = [table.c.issue_repo == repo, table.c.issue_number == number]
        else:
            cond = [table.c.pull_repo == repo, table.c.pull_number == number]
        if not add_only:
            self.conn.execute(sa.delete(table).where(*cond, table.c.recorded_on == side))
        rows = {(lk.issue_repo, lk.issue_number, lk.pull_repo, lk.pull_number, lk.source): {
            "issue_repo": lk.issue_repo, "issue_number": lk.issue_number, "pull_repo": lk.pull_repo,
            "pull_number": lk.pull_number, "source": lk.source, "recorded_on": side} for lk in links}
        upsert(self.conn, table, list(rows.values()))

    def save_issue_detail(self, issue: m.Issue, detail: Any) -> None:
        """Replace everything fetched for one issue and mark it as detailed at its current updated_at.

        A part the source could not read (``detail.unread``) keeps what an earlier run stored of
        it, links are then only added to (they come from several parts), and the issue is marked
        not detailed, so the next run asks again."""
        unread = set(getattr(detail, "unread", None) or ())
        if COMMENTS not in unread:
            self._replace_comments(issue.repo, "issue", issue.number, detail.comments)
        if EVENTS not in unread:
            self._replace_events(issue.repo, "issue", issue.number, detail.events)
        self._replace_links("issue", issue.repo, issue.number, detail.links, add_only=bool(unread))
        self._replace_raw(issue.repo, "issue", issue.number, detail.raw)
        self.conn.execute(sa.update(t.issues).where(t.issues.c.repo == issue.repo, t.issues.c.number == issue.number)
                          .values(details_for=None if unread else issue.updated_at))

    def save_pull_detail(self, pull: m.Pull, detail: Any) -> None:
        """As `save_issue_detail`, for a PR: unread parts keep what was stored, and the PR is
        marked detailed only when every part was read."""
        unread = set(getattr(detail, "unread", None) or ())
        self.upsert_pulls([pull])
        if FILES not in unread:
            self._replace_children(t.pull_files, "repo", "pull_number", pull.repo, pull.number, [
                {"repo": pull.repo, "pull_number": pull.number, "filename": f.filename, "status": f.status,
                 "additions": f.additions, "deletions": f.deletions, "patch": f.patch} for f in detail.files])
        if COMMITS not in unread:
            self._replace_children(t.pull_commits, "repo", "pull_number", pull.repo, pull.number, [
                {"repo": pull.repo, "pull_number": pull.number, "sha": c.sha, "message": c.message,
                 "author": c.author, "date": c.date} for c in detail.commits])
        if EVENTS not in unread:
            self._replace_events(pull.repo, "pull", pull.number, detail.events)
        if COMMENTS not in unread:
            self._replace_comments(pull.repo, "pull", pull.number, getattr(detail, "comments", None) or [])
        self._replace_links("pull", pull.repo, pull.number, detail.links, add_only=bool(unread))
        self._replace_raw(pull.repo, "pull", pull.number, detail.raw)
        self.conn.execute(sa.update(t.pulls).where(t.pulls.c.repo == pull.repo, t.pulls.c.number == pull.number)
                          .values(details_for=None if unread else pull.updated_at))

    def set_watermark(self, repo: str, *, issues_updated_at: datetime | None = None,
                      pulls_updated_at: datetime | None = None, window_since: datetime | None = None) -> None:
        row = {"repo": repo, "harvested_at": _now()}
        if issues_updated_at is not None:
            row["issues_updated_at"] = issues_updated_at
        if pulls_updated_at is not None:
            row["pulls_updated_at"] = pulls_updated_at
        if window_since is not None:
            row["window_since"] = window_since
        upsert(self.conn, t.watermarks, [row])


class SqlHttpCache:
    """The ``http_cache`` table as the HTTP client's ETag cache (one short transaction per write)."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self._mem: dict[str, tuple[str, str, dict[str, str]]] | None = None

    def _load(self) -> dict[str, tuple[str, str, dict[str, str]]]:
        if self._mem is None:
            with self.engine.connect() as conn:
                self._mem = {r.url: (r.etag, r.body, r.headers or {}) for r in conn.execute(sa.select(t.http_cache))}
        return self._mem

    def get(self, url: str) -> tuple[str, str, dict[str, str]] | None:
        return self._load().get(url)

    def put(self, url: str, etag: str, body: str, headers: dict[str, str]) -> None:
        self._load()[url] = (etag, body, headers)
        with self.engine.begin() as conn:
            upsert(conn, t.http_cache, [{"url": url, "etag": etag, "body": body, "headers": headers,
                                         "stored_at": _now()}])


