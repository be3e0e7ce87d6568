"""The store: one SQLite file (or a PostgreSQL database) holding everything a run knows.

``Store.open(url)`` applies the packaged alembic migrations, so any file it opens has the
current tables. Writes are idempotent upserts keyed by natural keys ((repo, number), ...):
replaying the same work leaves the same rows, which is what makes the harvest resumable.
It is over 400 lines because `Store` is one class with a method per table (upserts, loads,
run records, failures); splitting it by table is still to do (issue #10).
"""

from __future__ import annotations

import json
import os
import socket
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from fixlore import model as m
from fixlore.errors import ConfigError
from fixlore.store import schema as t
from fixlore.store import views as store_views

_HERE = Path(__file__).resolve().parent


def _json_text(value: Any) -> str:
    """JSON columns as UTF-8 text: Chinese stays readable in any SQL client."""
    return json.dumps(value, ensure_ascii=False)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _owner() -> dict[str, Any]:
    """The process writing a run row, so that a later run can tell a dead run from a live one."""
    return {"host": socket.gethostname(), "pid": os.getpid()}


def _owner_alive(owner: Any) -> bool:
    if not isinstance(owner, dict) or not owner.get("pid"):
        return False
    if owner.get("host") != socket.gethostname():
        return True
    if owner["pid"] == os.getpid():
        return False                    # this process starts a run only after the last one ended
    try:
        os.kill(int(owner["pid"]), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, ValueError):
        return True
    return True


def _jsonable(value: Any) -> Any:
    """Round-trip through JSON so stored payloads never hold non-JSON objects."""
    return json.loads(json.dumps(value, default=str)) if value is not None else None


def upsert(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]], keys: Iterable[str] | None = None,
           update: Iterable[str] | None = None) -> None:
    """INSERT ... ON CONFLICT (keys) DO UPDATE, in the dialect's own syntax."""
    if not rows:
        return
    keys = list(keys or [c.name for c in table.primary_key.columns])
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    stmt = insert(table)
    cols = list(update) if update is not None else [c for c in rows[0] if c not in keys]
    if cols:
        stmt = stmt.on_conflict_do_update(index_elements=keys, set_={c: stmt.excluded[c] for c in cols})
    else:
        stmt = stmt.on_conflict_do_nothing(index_elements=keys)
    # Rows in key order: harvesters sharing one PostgreSQL then lock the rows they both write in
    # the same order, so two overlapping upserts wait for each other instead of deadlocking.
    rows = sorted(rows, key=lambda r: tuple((r.get(k) is None, str(r.get(k))) for k in keys))
    # Batches keep PostgreSQL's bind-parameter limit out of reach.
    for start in range(0, len(rows), 500):
        conn.execute(stmt, rows[start:start + 500])


# ---------------------------------------------------------------------------
# model <-> row


def repo_row(repo: m.Repo, org: str = "") -> dict[str, Any]:
    return {"full_name": repo.full_name, "platform": repo.platform, "org": org or repo.owner, "owner": repo.owner,
            "name": repo.name, "display_name": repo.display_name, "default_branch": repo.default_branch,
            "html_url": repo.html_url, "description": repo.description, "updated_at": repo.updated_at,
            "raw": _jsonable(repo.raw)}


def issue_row(issue: m.Issue) -> dict[str, Any]:
    return {"repo": issue.repo, "number": issue.number, "title": issue.title, "body": issue.body,
            "state": issue.state, "state_reason": issue.state_reason, "workflow_state": issue.workflow_state,
            "issue_type": issue.issue_type, "author": issue.author, "closed_by": issue.closed_by,
            "labels": list(issue.labels), "comments_count": issue.comments_count, "html_url": issue.html_url,
            "created_at": issue.created_at, "updated_at": issue.updated_at, "closed_at": issue.closed_at,
            "raw": _jsonable(issue.raw)}


def pull_row(pull: m.Pull) -> dict[str, Any]:
    return {"repo": pull.repo, "number": pull.number, "title": pull.title, "body": pull.body, "state": pull.state,
            "merged": pull.merged, "author": pull.author, "head_ref": pull.head_ref, "head_repo": pull.head_repo,
            "base_ref": pull.base_ref, "merge_commit_sha": pull.merge_commit_sha, "html_url": pull.html_url,
            "labels": list(pull.labels), "created_at": pull.created_at, "updated_at": pull.updated_at,
            "merged_at": pull.merged_at, "closed_at": pull.closed_at, "raw": _jsonable(pull.raw)}


def _issue_of(row: Any) -> m.Issue:
    return m.Issue(repo=row.repo, number=row.number, title=row.title, body=row.body, state=row.state,
                   created_at=row.created_at, updated_at=row.updated_at, closed_at=row.closed_at,
                   author=row.author, state_reason=row.state_reason, workflow_state=row.workflow_state,
                   issue_type=row.issue_type, labels=list(row.labels or []), comments_count=row.comments_count,
                   html_url=row.html_url, closed_by=row.closed_by, raw=row.raw or {})


def _pull_of(row: Any) -> m.Pull:
    return m.Pull(repo=row.repo, number=row.number, title=row.title, body=row.body, state=row.state,
                  created_at=row.created_at, updated_at=row.updated_at, merged_at=row.merged_at,
                  closed_at=row.closed_at, author=row.author, head_ref=row.head_ref, head_repo=row.head_repo,
                  base_ref=row.base_ref, merge_commit_sha=row.merge_commit_sha, html_url=row.html_url,
                  labels=list(row.labels or []), raw=row.raw or {})


class StoreWriter:
    """Writes inside one transaction (one repo's work, typically)."""

    def __init__(self, conn: sa.Connection):
        self.conn = conn

    def upsert_repos(self, repos: list[m.Repo], org: str = "") -> None:
        upsert(self.conn, t.repos, [repo_row(r, org) for r in repos])

    def upsert_issues(self, issues: list[m.Issue]) -> None:
        """Insert or refresh list-level fields; detail bookkeeping (details_for, funnel_stage) is kept."""
        upsert(self.conn, t.issues, [issue_row(i) for i in issues])

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
             "body": c.body, "created_at": c.created_at, "raw": _jsonable(c.raw)} for c in comments],
            {"parent_kind": kind})

    def _replace_events(self, repo: str, kind: str, number: int, events: list[m.Event]) -> None:
        self._replace_children(t.events, "repo", "parent_number", repo, number, [
            {"repo": repo, "parent_kind": kind, "parent_number": number, "id": e.id, "action": e.action,
             "actor": e.actor, "created_at": e.created_at, "detail": _jsonable(e.detail), "raw": _jsonable(e.raw)}
            for e in events], {"parent_kind": kind})

    def _replace_links(self, side: str, repo: str, number: int, links: list[m.Link]) -> None:
        table = t.issue_pull_links
        if side == "issue":
            cond = [table.c.issue_repo == repo, table.c.issue_number == number]
        else:
            cond = [table.c.pull_repo == repo, table.c.pull_number == number]
        self.conn.execute(sa.delete(table).where(*cond, table.c.recorded_on == side))
        rows = {(lk.issue_repo, lk.issue_number, lk.pull_repo, lk.pull_number, lk.source): {
            "issue_repo": lk.issue_repo, "issue_number": lk.issue_number, "pull_repo": lk.pull_repo,
            "pull_number": lk.pull_number, "source": lk.source, "recorded_on": side} for lk in links}
        upsert(self.conn, table, list(rows.values()))

    def save_issue_detail(self, issue: m.Issue, detail: Any) -> None:
        """Replace everything fetched for one issue and mark it as detailed at its current updated_at."""
        self._replace_comments(issue.repo, "issue", issue.number, detail.comments)
        self._replace_events(issue.repo, "issue", issue.number, detail.events)
        self._replace_links("issue", issue.repo, issue.number, detail.links)
        self._replace_raw(issue.repo, "issue", issue.number, detail.raw)
        self.conn.execute(sa.update(t.issues).where(t.issues.c.repo == issue.repo, t.issues.c.number == issue.number)
                          .values(details_for=issue.updated_at))

    def save_pull_detail(self, pull: m.Pull, detail: Any) -> None:
        self.upsert_pulls([pull])
        self._replace_children(t.pull_files, "repo", "pull_number", pull.repo, pull.number, [
            {"repo": pull.repo, "pull_number": pull.number, "filename": f.filename, "status": f.status,
             "additions": f.additions, "deletions": f.deletions, "patch": f.patch} for f in detail.files])
        self._replace_children(t.pull_commits, "repo", "pull_number", pull.repo, pull.number, [
            {"repo": pull.repo, "pull_number": pull.number, "sha": c.sha, "message": c.message, "author": c.author,
             "date": c.date} for c in detail.commits])
        self._replace_events(pull.repo, "pull", pull.number, detail.events)
        self._replace_links("pull", pull.repo, pull.number, detail.links)
        self._replace_raw(pull.repo, "pull", pull.number, detail.raw)
        self.conn.execute(sa.update(t.pulls).where(t.pulls.c.repo == pull.repo, t.pulls.c.number == pull.number)
                          .values(details_for=pull.updated_at))

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


class Store:
    """Entry point: ``Store.open("sqlite:///fixlore.db")`` or ``Store.open("postgresql+psycopg://...")``."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self.url = engine.url.render_as_string(hide_password=True)

    @classmethod
    def open(cls, url: str, migrate: bool = True) -> "Store":
        if "://" not in url:
            url = f"sqlite:///{url}"
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            Path(url[len("sqlite:///"):]).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            engine = sa.create_engine(url, future=True, json_serializer=_json_text)
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError) as exc:
            raise ConfigError(f"cannot use database URL {sa.engine.make_url(url).render_as_string(hide_password=True) if '://' in url else url}: {exc}") from None
        if engine.dialect.name == "sqlite":
            @sa.event.listens_for(engine, "connect")
            def _pragmas(dbapi_conn, _record):            # noqa: ANN001
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.close()
        store = cls(engine)
        if migrate:
            try:
                store.migrate()
            except sa.exc.OperationalError as exc:
                raise ConfigError(f"cannot open the store {store.url}: {str(exc.orig).splitlines()[0]}") from None
        return store

    # Any constant: harvesters sharing one PostgreSQL database take this lock to migrate one at a time.
    _MIGRATION_LOCK = 0x6669786C6F7265

    def migrate(self) -> None:
        cfg = Config(str(_HERE / "alembic.ini"))
        cfg.set_main_option("script_location", str(_HERE / "migrations"))
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # Two processes creating the same tables at once collide in the catalog; the second
                # waits here and then finds the schema at head. (SQLite's file lock serialises already.)
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": self._MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def writer(self) -> Iterator[StoreWriter]:
        """One transaction: everything written inside commits together or not at all."""
        with self.engine.begin() as conn:
            yield StoreWriter(conn)

    def http_cache(self) -> SqlHttpCache:
        return SqlHttpCache(self.engine)

    # -- reads
    def watermark(self, repo: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.watermarks).where(t.watermarks.c.repo == repo)).first()
        return dict(row._mapping) if row else None

    def issues(self, repos: Iterable[str] | None = None, updated_since: datetime | None = None) -> list[m.Issue]:
        query = sa.select(t.issues)
        if repos is not None:
            query = query.where(t.issues.c.repo.in_(list(repos)))
        if updated_since is not None:
            query = query.where(t.issues.c.updated_at >= updated_since)
        with self.engine.connect() as conn:
            return [_issue_of(r) for r in conn.execute(query.order_by(t.issues.c.repo, t.issues.c.number))]

    def issue_bookkeeping(self, repo: str) -> dict[int, dict[str, Any]]:
        """number -> {updated_at, details_for, funnel_stage} for one repo."""
        c = t.issues.c
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(c.number, c.updated_at, c.details_for, c.funnel_stage).where(c.repo == repo))
            return {r.number: {"updated_at": r.updated_at, "details_for": r.details_for,
                               "funnel_stage": r.funnel_stage} for r in rows}

    def pulls(self, repo: str | None = None) -> list[m.Pull]:
        query = sa.select(t.pulls)
        if repo is not None:
            query = query.where(t.pulls.c.repo == repo)
        with self.engine.connect() as conn:
            return [_pull_of(r) for r in conn.execute(query.order_by(t.pulls.c.repo, t.pulls.c.number))]

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
                                                            c.parent_number == number))
            return [m.Comment(repo=r.repo, parent_kind=r.parent_kind, parent_number=r.parent_number, id=r.id,
                              author=r.author, body=r.body, created_at=r.created_at, raw=r.raw or {}) for r in rows]

    def links_of_issue(self, repo: str, number: int) -> list[m.Link]:
        c = t.issue_pull_links.c
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.issue_pull_links).where(c.issue_repo == repo, c.issue_number == number))
            return [m.Link(r.issue_repo, r.issue_number, r.pull_repo, r.pull_number, r.source) for r in rows]

    def count(self, table: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(t.metadata.tables[table])).scalar_one()

    def load_corpus(self, repos: Iterable[str] | None = None) -> m.Corpus:
        """Everything in the store as plain model objects (what pure stages read)."""
        wanted = set(repos) if repos is not None else None
        corpus = m.Corpus()
        with self.engine.connect() as conn:
            def rows(table: sa.Table, repo_col: str = "repo", *order: str) -> Iterator[Any]:
                query = sa.select(table)
                if wanted is not None:
                    query = query.where(table.c[repo_col].in_(sorted(wanted)))
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
            corpus.issues = [_issue_of(r) for r in rows(t.issues, "repo", "repo", "number")]
            corpus.pulls = [_pull_of(r) for r in rows(t.pulls, "repo", "repo", "number")]
            corpus.comments = [m.Comment(repo=r.repo, parent_kind=r.parent_kind, parent_number=r.parent_number,
                                         id=r.id, author=r.author, body=r.body, created_at=r.created_at,
                                         raw=r.raw or {})
                               for r in rows(t.comments, "repo", "repo", "parent_kind", "parent_number", "created_at")]
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
        return corpus

    # -- what could not be read (kept until a later run reads it)
    def record_failure(self, repo: str, endpoint: str, status: str, message: str) -> None:
        """Remember that ``endpoint`` of ``repo`` could not be read; a repeat raises ``attempts``."""
        c = t.repo_failures.c
        with self.engine.begin() as conn:
            row = conn.execute(sa.select(c.attempts).where(c.repo == repo, c.endpoint == endpoint)).first()
            attempts = (row.attempts + 1) if row else 1
            upsert(conn, t.repo_failures, [{"repo": repo, "endpoint": endpoint, "status": str(status)[:40],
                                            "message": message, "failed_at": _now(), "attempts": attempts}])

    def clear_failures(self, repo: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.delete(t.repo_failures).where(t.repo_failures.c.repo == repo))

    def failures(self, repos: Iterable[str] | None = None) -> list[dict[str, Any]]:
        query = sa.select(t.repo_failures).order_by(t.repo_failures.c.repo, t.repo_failures.c.endpoint)
        if repos is not None:
            query = query.where(t.repo_failures.c.repo.in_(list(repos)))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    # -- runs and cases (written by later stages)
    def start_harvest_run(self, platform: str, orgs: list[str], window_since: datetime | None) -> int:
        with self.engine.begin() as conn:
            result = conn.execute(sa.insert(t.harvest_runs).values(
                started_at=_now(), status="running", platform=platform, orgs=list(orgs), window_since=window_since,
                summary={"owner": _owner()}))
            return int(result.inserted_primary_key[0])

    def finish_harvest_run(self, run_id: int, status: str, requests: int, summary: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.update(t.harvest_runs).where(t.harvest_runs.c.id == run_id).values(
                finished_at=_now(), status=status, requests=requests, summary=_jsonable(summary)))

    def start_run(self, info: dict[str, Any]) -> int:
        with self.engine.begin() as conn:
            result = conn.execute(sa.insert(t.runs).values(started_at=_now(), status="running",
                                                           info=_jsonable({**info, "owner": _owner()})))
            return int(result.inserted_primary_key[0])

    def finish_run(self, run_id: int, status: str, info: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.update(t.runs).where(t.runs.c.id == run_id).values(
                finished_at=_now(), status=status, info=_jsonable({**info, "owner": _owner()})))

    def mark_abandoned_runs(self) -> int:
        """Mark "died" every run and harvest still "running" whose process is gone (killed, power cut);
        a run of another machine is left alone, as it may still be going. Returns how many."""
        marked = 0
        with self.engine.begin() as conn:
            for table, col in ((t.runs, "info"), (t.harvest_runs, "summary")):
                rows = conn.execute(sa.select(table.c.id, table.c[col]).where(table.c.status == "running")).all()
                dead = [r.id for r in rows if not _owner_alive((r[1] or {}).get("owner"))]
                if dead:
                    conn.execute(sa.update(table).where(table.c.id.in_(dead)).values(status="died"))
                    marked += len(dead)
        return marked

    def save_cases(self, cases: Iterable[m.Case], run_id: int | None = None) -> int:
        rows = [{"repo": c.repo, "number": c.number, "funnel": c.funnel, "export": _jsonable(c.to_export()),
                 "run_id": run_id, "updated_at": _now()} for c in cases]
        with self.engine.begin() as conn:
            upsert(conn, t.cases, rows)
        return len(rows)

    def load_cases(self) -> list[m.Case]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.cases.c.export).order_by(t.cases.c.repo, t.cases.c.number))
            return [m.Case.from_export(r.export) for r in rows if r.export]

    def issue_texts(self, keys: Iterable[tuple[str, int]]) -> dict[tuple[str, int], m.IssueText]:
        """(repo, number) -> the issue's author, body and comments, for the issues named
        (unknown keys are left out); a few queries per repo, whatever the number of issues."""
        wanted: dict[str, set[int]] = {}
        for repo, number in keys:
            wanted.setdefault(repo, set()).add(number)
        out: dict[tuple[str, int], m.IssueText] = {}
        with self.engine.connect() as conn:
            for repo, numbers in sorted(wanted.items()):
                ordered = sorted(numbers)
                for i in range(0, len(ordered), 500):
                    part = ordered[i:i + 500]
                    for row in conn.execute(sa.select(t.issues.c.number, t.issues.c.author, t.issues.c.body).where(
                            t.issues.c.repo == repo, t.issues.c.number.in_(part))):
                        out[(repo, row.number)] = m.IssueText(author=row.author or "", body=row.body or "")
                    for row in conn.execute(
                            sa.select(t.comments.c.parent_number, t.comments.c.id, t.comments.c.author,
                                      t.comments.c.body, t.comments.c.created_at)
                            .where(t.comments.c.repo == repo, t.comments.c.parent_kind == "issue",
                                   t.comments.c.parent_number.in_(part))
                            .order_by(t.comments.c.parent_number, t.comments.c.created_at, t.comments.c.id)):
                        text = out.get((repo, row.parent_number))
                        if text is not None:
                            text.comments.append(m.Comment(repo=repo, parent_kind="issue", parent_number=row.parent_number,
                                                           id=row.id, author=row.author or "", body=row.body or "",
                                                           created_at=row.created_at))
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

    def refresh_fulltext(self, segment: Callable[[str], str]) -> dict[str, Any]:
        """Bring the full-text index of issues and PRs up to date (SQLite; see store/views.py)."""
        with self.engine.begin() as conn:
            return store_views.refresh_fulltext(conn, segment)

    # -- a canonical view for comparing two stores
    VOLATILE = {"raw_payloads": {"fetched_at"}, "watermarks": {"harvested_at"}}
    SKIPPED = ("http_cache", "harvest_runs", "runs", "alembic_version")

    def canonical_dump(self) -> dict[str, list[tuple]]:
        """Every table's rows, sorted, without bookkeeping that differs between equal harvests."""
        dump: dict[str, list[tuple]] = {}
        with self.engine.connect() as conn:
            for name, table in t.metadata.tables.items():
                if name in self.SKIPPED:
                    continue
                cols = [c for c in table.columns if c.name not in self.VOLATILE.get(name, set())]
                out = []
                for row in conn.execute(sa.select(*cols)):
                    out.append(tuple(json.dumps(v, sort_keys=True, default=str) if isinstance(v, (dict, list))
                                     else (v.isoformat() if isinstance(v, datetime) else v) for v in row))
                dump[name] = sorted(out, key=lambda r: json.dumps(r, default=str))
        return dump
