"""What the store reads back for the stages: the corpus as model objects, bookkeeping of the
harvest (watermarks, which details are stored), and texts of issues and PRs by key."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Iterator

import sqlalchemy as sa

from fixlore.core import model as m
from fixlore.store import schema as t
from fixlore.store.live import live_issues, not_of_a_deleted_issue, of_live_issue
from fixlore.store.rows import _comment_of, _issue_of, _pull_of


def _platforms(conn: sa.Connection) -> dict[str, str]:
    """repo full name -> its platform: an issue or PR row is on its repo's platform."""
    return {r.full_name: r.platform for r in conn.execute(sa.select(t.repos.c.full_name, t.repos.c.platform))}


class CorpusReads:
    """`Store`'s reads of the harvest (a mixin: it needs ``self.engine``)."""

    engine: sa.Engine

    def watermark(self, repo: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.watermarks).where(t.watermarks.c.repo == repo)).first()
        return dict(row._mapping) if row else None

    def issues(self, repos: Iterable[str] | None = None, updated_since: datetime | None = None) -> list[m.Issue]:
        c = live_issues.c
        query = sa.select(live_issues)
        if repos is not None:
            query = query.where(c.repo.in_(list(repos)))
        if updated_since is not None:
            query = query.where(c.updated_at >= updated_since)
        with self.engine.connect() as conn:
            platform = _platforms(conn)
            return [_issue_of(r, platform.get(r.repo, "")) for r in conn.execute(query.order_by(c.repo, c.number))]

    def issue_bookkeeping(self, repo: str) -> dict[int, dict[str, Any]]:
        """number -> {updated_at, details_for, funnel_stage} for one repo."""
        c = live_issues.c
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(c.number, c.updated_at, c.details_for, c.funnel_stage).where(c.repo == repo))
            return {r.number: {"updated_at": r.updated_at, "details_for": r.details_for,
                               "funnel_stage": r.funnel_stage} for r in rows}

    def pulls(self, repo: str | None = None) -> list[m.Pull]:
        query = sa.select(t.pulls)
        if repo is not None:
            query = query.where(t.pulls.c.repo == repo)
        with self.engine.connect() as conn:
            platform = _platforms(conn)
            return [_pull_of(r, platform.get(r.repo, ""))
                    for r in conn.execute(query.order_by(t.pulls.c.repo, t.pulls.c.number))]

    def pull_details_for(self, keys: Iterable[tuple[str, int]]) -> dict[tuple[str, int], datetime | None]:
        keys = list(keys)
        out: dict[tuple[str, int], datetime | None] = {}
        if not keys:
            return out
        c = t.pulls.c
        with self.engine.connect() as conn:
            for repo in {k[0] for k in keys}:
                nums = [k[1] for k in keys if k[0] == repo]
                for r in conn.execute(sa.select(c.repo, c.number, c.details_for)
                                      .where(c.repo == repo, c.number.in_(nums))):
                    out[(r.repo, r.number)] = r.details_for
        return out

    def comments_of(self, repo: str, kind: str, number: int) -> list[m.Comment]:
        c = t.comments.c
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.comments).where(c.repo == repo, c.parent_kind == kind,
                                                            c.parent_number == number, of_live_issue(t.comments)))
            return [_comment_of(r) for r in rows]

    def links_of_issue(self, repo: str, number: int) -> list[m.Link]:
        c = t.issue_pull_links.c
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.issue_pull_links).where(c.issue_repo == repo, c.issue_number == number,
                                                                    not_of_a_deleted_issue(c.issue_repo, c.issue_number)))
            return [m.Link(r.issue_repo, r.issue_number, r.pull_repo, r.pull_number, r.source) for r in rows]

    def count(self, table: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(t.metadata.tables[table])).scalar_one()

    def load_corpus(self, repos: Iterable[str] | None = None, *, raw: bool = False) -> m.Corpus:
        """Everything in the store as plain model objects (what pure stages read).

        Without ``raw`` the objects' ``raw`` (the platform's JSON, which no stage reads:
        tests/test_architecture_facts.py) is left empty and never decoded: decoding it is most of
        the load's time (Ascend world: ~19k JSON documents). A caller that writes the objects back
        to the store (the harvester) asks for it, so that what it writes keeps the payload."""
        wanted = set(repos) if repos is not None else None
        corpus = m.Corpus()
        with self.engine.connect() as conn:
            def rows(table: sa.Table | sa.Subquery, repo_col: str = "repo", *order: str) -> Iterator[Any]:
                query = sa.select(*[sa.null().label("raw") if col.name == "raw" and not raw else col
                                    for col in table.c])
                if wanted is not None:
                    query = query.where(table.c[repo_col].in_(sorted(wanted)))
                if table is t.comments or table is t.events:        # a deleted issue's go with it
                    query = query.where(of_live_issue(table))
                if table is t.issue_pull_links:
                    query = query.where(not_of_a_deleted_issue(table.c.issue_repo, table.c.issue_number))
                if order:
                    query = query.order_by(*[table.c[o] for o in order])
                return conn.execute(query)

            for r in rows(t.repos, "full_name", "full_name"):
                corpus.repos.append(m.Repo(platform=r.platform, full_name=r.full_name, owner=r.owner, name=r.name,
                                           display_name=r.display_name, default_branch=r.default_branch,
                                           html_url=r.html_url, description=r.description, updated_at=r.updated_at,
                                           raw=r.raw or {}))
            if corpus.repos:
                corpus.platform = corpus.repos[0].platform
            platform = {r.full_name: r.platform for r in corpus.repos}
            corpus.issues = [_issue_of(r, platform.get(r.repo, "")) for r in rows(live_issues, "repo", "repo", "number")]
            corpus.pulls = [_pull_of(r, platform.get(r.repo, "")) for r in rows(t.pulls, "repo", "repo", "number")]
            corpus.comments = [_comment_of(r) for r in rows(t.comments, "repo", "repo", "parent_kind", "parent_number",
                                                            "created_at")]
            corpus.events = [m.Event(repo=r.repo, parent_kind=r.parent_kind, parent_number=r.parent_number, id=r.id,
                                     action=r.action, actor=r.actor, created_at=r.created_at, detail=r.detail or {},
                                     raw=r.raw or {})
                             for r in rows(t.events, "repo", "repo", "parent_kind", "parent_number", "created_at")]
            seen: set[tuple] = set()
            for r in rows(t.issue_pull_links, "issue_repo", "issue_repo", "issue_number", "pull_repo", "pull_number"):
                key = (r.issue_repo, r.issue_number, r.pull_repo, r.pull_number, r.source)
                if key not in seen:
                    seen.add(key)
                    corpus.links.append(m.Link(*key))
            corpus.files = [m.FileChange(repo=r.repo, pull_number=r.pull_number, filename=r.filename, status=r.status,
                                         additions=r.additions, deletions=r.deletions, patch=r.patch)
                            for r in rows(t.pull_files, "repo", "repo", "pull_number", "filename")]
            corpus.commits = [m.Commit(repo=r.repo, pull_number=r.pull_number, sha=r.sha, message=r.message,
                                       author=r.author, date=r.date)
                              for r in rows(t.pull_commits, "repo", "repo", "pull_number", "sha")]
            for r in rows(t.item_failures, "repo", "repo", "kind", "number", "part"):
                corpus.unread.setdefault((r.kind, r.repo, r.number), []).append(r.part)
        return corpus

    def issue_texts(self, keys: Iterable[tuple[str, int]]) -> dict[tuple[str, int], m.IssueText]:
        """(repo, number) -> the issue's author, body and comments, for the issues named
        (unknown and deleted ones are left out: their comments go with them); a few queries per repo,
        whatever the number of issues."""
        wanted: dict[str, set[int]] = {}
        for repo, number in keys:
            wanted.setdefault(repo, set()).add(number)
        out: dict[tuple[str, int], m.IssueText] = {}
        with self.engine.connect() as conn:
            for repo, numbers in sorted(wanted.items()):
                ordered = sorted(numbers)
                for i in range(0, len(ordered), 500):
                    part = ordered[i:i + 500]
                    for row in conn.execute(sa.select(live_issues.c.number, live_issues.c.author, live_issues.c.body)
                                            .where(live_issues.c.repo == repo, live_issues.c.number.in_(part))):
                        out[(repo, row.number)] = m.IssueText(author=row.author or "", body=row.body or "")
                    for row in conn.execute(
                            sa.select(t.comments.c.parent_number, t.comments.c.id, t.comments.c.author,
                                      t.comments.c.body, t.comments.c.created_at, t.comments.c.association)
                            .where(t.comments.c.repo == repo, t.comments.c.parent_kind == "issue",
                                   t.comments.c.parent_number.in_(part))
                            .order_by(t.comments.c.parent_number, t.comments.c.created_at, t.comments.c.id)):
                        text = out.get((repo, row.parent_number))
                        if text is not None:
                            text.comments.append(m.Comment(repo=repo, parent_kind="issue", parent_number=row.parent_number,
                                                           id=row.id, author=row.author or "", body=row.body or "",
                                                           created_at=row.created_at, association=row.association or ""))
        return out

    def pull_texts(self, keys: Iterable[tuple[str, int]]) -> dict[tuple[str, int], tuple[str, str]]:
        """(repo, number) -> the PR's (title, body), for the PRs named (unknown keys left out)."""
        wanted: dict[str, set[int]] = {}
        for repo, number in keys:
            wanted.setdefault(repo, set()).add(number)
        out: dict[tuple[str, int], tuple[str, str]] = {}
        c = t.pulls.c
        with self.engine.connect() as conn:
            for repo, numbers in sorted(wanted.items()):
                ordered = sorted(numbers)
                for i in range(0, len(ordered), 500):
                    for row in conn.execute(sa.select(c.number, c.title, c.body)
                                            .where(c.repo == repo, c.number.in_(ordered[i:i + 500]))):
                        out[(repo, row.number)] = (row.title or "", row.body or "")
        return out

    def repo_pages(self) -> dict[str, tuple[str, str]]:
        """full_name -> (web page URL, default branch), for linking to files on the platform."""
        c = t.repos.c
        with self.engine.connect() as conn:
            return {r.full_name: (r.html_url or "", r.default_branch or "")
                    for r in conn.execute(sa.select(c.full_name, c.html_url, c.default_branch))}

