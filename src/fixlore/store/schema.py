r"""The store's tables, named for someone opening the file in Datasette.

This module is over 400 lines because every table of the store is declared here, in one place the migrations
and Datasette's metadata read (splitting it would scatter one schema over several files).

Times are stored in UTC: on SQLite as ISO 8601 text ending in ``Z``, always with six decimals
(``2026-09-17T02:02:11.000000Z``, so text order is time order), on PostgreSQL as
``timestamptz``; the platform's original strings (with their ``+08:00``) stay in the ``raw``
JSON. JSON columns hold UTF-8 text (no ``\uXXXX`` escapes; `Store.open` sets the serialiser).
Foreign keys are declared for readers such as Datasette; SQLite does not enforce them (the
store never turns ``PRAGMA foreign_keys`` on) and PostgreSQL does not get them, because the
store does not promise referential integrity: a copy of the cases may outlive its issues,
and a link may name a PR of a repository outside the harvest. The migrations in
``store/migrations`` create exactly these tables; ``store/views.py`` adds two views over
them (``case_conclusions``, ``case_pending_fixes``) and the full-text indexes.

Issues, PRs and cases have a one-column primary key ``id``, ``OWNER/REPO#NUMBER`` (`rows.item_id`);
conclusion rows point at their case by ``case_id``, fixes at their PR by ``pull_id``: Datasette
links only one-column foreign keys to a primary key. Text, not an integer: derived from (repo,
number), writers need no lookup, a fix may name a PR not stored, a reader sees ``o/r#390``.
"""

from __future__ import annotations

from datetime import datetime, timezone

import sqlalchemy as sa
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator):
    """Aware datetimes in, aware UTC datetimes out, whatever the dialect."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect):
        # SQLite has no time type: ISO text with its `Z`, not SQLAlchemy's naive "YYYY-MM-DD hh:mm:ss"
        return dialect.type_descriptor(sa.Text()) if dialect.name == "sqlite" else dialect.type_descriptor(self.impl)

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        value = value.astimezone(timezone.utc)
        return iso_z(value) if dialect.name == "sqlite" else value

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


def iso_z(value: datetime) -> str:
    """An aware time as fixed-width ISO 8601 UTC text: ``2026-09-17T02:02:11.000000Z``."""
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


metadata = sa.MetaData()

repos = sa.Table(
    "repos", metadata,
    sa.Column("full_name", sa.String(300), primary_key=True),
    sa.Column("platform", sa.String(20), nullable=False),
    sa.Column("org", sa.String(200), nullable=False, server_default=""),
    sa.Column("owner", sa.String(200), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("display_name", sa.Text, nullable=False, server_default=""),
    sa.Column("default_branch", sa.String(200), nullable=False, server_default=""),
    sa.Column("html_url", sa.Text, nullable=False, server_default=""),
    sa.Column("description", sa.Text, nullable=False, server_default=""),
    sa.Column("updated_at", UTCDateTime),
    sa.Column("raw", sa.JSON),
)

issues = sa.Table(
    "issues", metadata,
    sa.Column("id", sa.String(320), primary_key=True),
    sa.Column("repo", sa.String(300), sa.ForeignKey("repos.full_name"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False, autoincrement=False),
    sa.Column("title", sa.Text, nullable=False, server_default=""),
    sa.Column("body", sa.Text, nullable=False, server_default=""),
    sa.Column("state", sa.String(20), nullable=False, server_default=""),
    sa.Column("state_reason", sa.String(40), nullable=False, server_default=""),
    sa.Column("workflow_state", sa.Text, nullable=False, server_default=""),
    sa.Column("issue_type", sa.Text, nullable=False, server_default=""),
    sa.Column("author", sa.String(200), nullable=False, server_default=""),
    sa.Column("closed_by", sa.String(200), nullable=False, server_default=""),
    sa.Column("labels", sa.JSON),
    sa.Column("assignees", sa.JSON),             # logins (0008)
    sa.Column("comments_count", sa.Integer, nullable=False, server_default="0"),
    sa.Column("html_url", sa.Text, nullable=False, server_default=""),
    sa.Column("created_at", UTCDateTime),
    sa.Column("updated_at", UTCDateTime),
    sa.Column("closed_at", UTCDateTime),
    sa.Column("funnel_stage", sa.String(40), nullable=False, server_default=""),   # cheap funnel verdict
    sa.Column("is_pull", sa.Boolean, nullable=False, server_default=sa.false()),  # a PR item of GitHub's issue list
    sa.Column("details_for", UTCDateTime),        # the updated_at whose details are stored (null: none)
    sa.Column("raw", sa.JSON),
    sa.Column("deleted_at", UTCDateTime),         # when a harvest saw it deleted on the platform (0009): read by none
    sa.UniqueConstraint("repo", "number", name="uq_issues_repo_number"),
)
sa.Index("ix_issues_updated_at", issues.c.updated_at)

pulls = sa.Table(
    "pulls", metadata,
    sa.Column("id", sa.String(320), primary_key=True),
    sa.Column("repo", sa.String(300), sa.ForeignKey("repos.full_name"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False, autoincrement=False),
    sa.Column("title", sa.Text, nullable=False, server_default=""),
    sa.Column("body", sa.Text, nullable=False, server_default=""),
    sa.Column("state", sa.String(20), nullable=False, server_default=""),
    sa.Column("merged", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("author", sa.String(200), nullable=False, server_default=""),
    sa.Column("head_ref", sa.Text, nullable=False, server_default=""),
    sa.Column("head_repo", sa.String(300), nullable=False, server_default=""),
    sa.Column("base_ref", sa.Text, nullable=False, server_default=""),
    sa.Column("merge_commit_sha", sa.String(80), nullable=False, server_default=""),
    sa.Column("html_url", sa.Text, nullable=False, server_default=""),
    sa.Column("labels", sa.JSON),
    sa.Column("head_sha", sa.String(80), nullable=False, server_default=""),
    sa.Column("created_at", UTCDateTime),
    sa.Column("updated_at", UTCDateTime),
    sa.Column("merged_at", UTCDateTime),
    sa.Column("closed_at", UTCDateTime),
    sa.Column("details_for", UTCDateTime),
    sa.Column("raw", sa.JSON),
    sa.UniqueConstraint("repo", "number", name="uq_pulls_repo_number"),
)

comments = sa.Table(
    "comments", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("parent_kind", sa.String(10), primary_key=True),
    sa.Column("parent_number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("id", sa.String(100), primary_key=True),
    sa.Column("author", sa.String(200), nullable=False, server_default=""),
    sa.Column("body", sa.Text, nullable=False, server_default=""),
    sa.Column("created_at", UTCDateTime),
    # GitHub's author_association ("MEMBER", "NONE", ...); "" where the platform says nothing (0008)
    sa.Column("association", sa.String(40), nullable=False, server_default=""),
    sa.Column("raw", sa.JSON),
)

events = sa.Table(
    "events", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("parent_kind", sa.String(10), primary_key=True),
    sa.Column("parent_number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("id", sa.String(200), primary_key=True),
    sa.Column("action", sa.String(40), nullable=False),
    sa.Column("actor", sa.String(200), nullable=False, server_default=""),
    sa.Column("created_at", UTCDateTime),
    sa.Column("detail", sa.JSON),
    sa.Column("raw", sa.JSON),
)

issue_pull_links = sa.Table(
    "issue_pull_links", metadata,
    sa.Column("issue_repo", sa.String(300), primary_key=True),
    sa.Column("issue_number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("pull_repo", sa.String(300), primary_key=True),
    sa.Column("pull_number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("source", sa.String(30), primary_key=True),
    sa.Column("recorded_on", sa.String(10), primary_key=True),     # "issue" | "pull": whose detail holds it
)

pull_files = sa.Table(
    "pull_files", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("pull_number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("filename", sa.Text, primary_key=True),
    sa.Column("status", sa.String(30), nullable=False, server_default=""),
    sa.Column("additions", sa.Integer, nullable=False, server_default="0"),
    sa.Column("deletions", sa.Integer, nullable=False, server_default="0"),
    sa.Column("patch", sa.Text, nullable=False, server_default=""),
    sa.ForeignKeyConstraint(["repo", "pull_number"], ["pulls.repo", "pulls.number"]),
)

pull_commits = sa.Table(
    "pull_commits", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("pull_number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("sha", sa.String(80), primary_key=True),
    sa.Column("message", sa.Text, nullable=False, server_default=""),
    sa.Column("author", sa.String(200), nullable=False, server_default=""),
    sa.Column("date", UTCDateTime),
    sa.ForeignKeyConstraint(["repo", "pull_number"], ["pulls.repo", "pulls.number"]),
)

raw_payloads = sa.Table(
    "raw_payloads", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("parent_kind", sa.String(10), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("resource", sa.String(40), primary_key=True),        # "comments", "events", "files", ...
    sa.Column("payload", sa.JSON),
    sa.Column("fetched_at", UTCDateTime),
)

http_cache = sa.Table(
    "http_cache", metadata,
    sa.Column("url", sa.Text, primary_key=True),
    sa.Column("etag", sa.Text, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("headers", sa.JSON),
    sa.Column("stored_at", UTCDateTime),
)

watermarks = sa.Table(
    "watermarks", metadata,
    sa.Column("repo", sa.String(300), sa.ForeignKey("repos.full_name"), primary_key=True),
    sa.Column("issues_updated_at", UTCDateTime),    # newest issue updated_at fully processed
    sa.Column("pulls_updated_at", UTCDateTime),     # newest PR updated_at listed
    sa.Column("window_since", UTCDateTime),         # the window start this watermark was earned under
    sa.Column("harvested_at", UTCDateTime),
)

repo_failures = sa.Table(
    "repo_failures", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),        # "owner/name"
    sa.Column("endpoint", sa.String(200), primary_key=True),    # endpoint template that failed
    sa.Column("status", sa.String(40), nullable=False, server_default=""),  # HTTP status or what went wrong
    sa.Column("message", sa.Text, nullable=False, server_default=""),
    sa.Column("failed_at", UTCDateTime),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="1"),  # runs in a row that met it
)

# One part of one issue or PR that could not be read (fixlore.rules.unread), kept until a later
# run reads the item whole; the linker reads them so that no conclusion rests on what is missing.
item_failures = sa.Table(
    "item_failures", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("kind", sa.String(10), primary_key=True),         # "issue" | "pull"
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("part", sa.String(20), primary_key=True),         # comments, events, links, pull, files, commits
    sa.Column("endpoint", sa.String(200), nullable=False, server_default=""),
    sa.Column("status", sa.String(40), nullable=False, server_default=""),
    sa.Column("message", sa.Text, nullable=False, server_default=""),
    sa.Column("failed_at", UTCDateTime),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="1"),  # runs in a row that met it
)

harvest_runs = sa.Table(
    "harvest_runs", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("started_at", UTCDateTime),
    sa.Column("finished_at", UTCDateTime),
    sa.Column("status", sa.String(20), nullable=False, server_default="running"),
    sa.Column("platform", sa.String(20), nullable=False, server_default=""),
    sa.Column("orgs", sa.JSON),
    sa.Column("window_since", UTCDateTime),
    sa.Column("requests", sa.Integer, nullable=False, server_default="0"),
    sa.Column("summary", sa.JSON),
)

runs = sa.Table(
    "runs", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("started_at", UTCDateTime),
    sa.Column("finished_at", UTCDateTime),
    sa.Column("status", sa.String(20), nullable=False, server_default="running"),
    sa.Column("info", sa.JSON),                     # the run.json content
)

cases = sa.Table(
    "cases", metadata,
    sa.Column("id", sa.String(320), sa.ForeignKey("issues.id"), primary_key=True),   # its issue's id
    sa.Column("repo", sa.String(300), nullable=False),
    sa.Column("number", sa.Integer, nullable=False, autoincrement=False),
    sa.Column("funnel", sa.String(40), nullable=False, server_default=""),
    sa.Column("export", sa.JSON),                   # Case.to_export()
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id")),
    sa.Column("updated_at", UTCDateTime),
    # the export's per-case fields as columns (store/conclusions.py `case_columns`)
    sa.Column("title", sa.Text, nullable=False, server_default=""),
    sa.Column("url", sa.Text, nullable=False, server_default=""),
    sa.Column("closed_at", UTCDateTime),
    sa.Column("drop_reason", sa.String(40), nullable=False, server_default=""),
    sa.Column("provisional", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("timing", sa.String(40), nullable=False, server_default=""),
    sa.Column("lag_s", sa.Integer),
    sa.Column("timing_note", sa.Text, nullable=False, server_default=""),
    sa.Column("closed_by", sa.String(200), nullable=False, server_default=""),
    sa.Column("theme", sa.Text, nullable=False, server_default=""),
    sa.Column("value", sa.Float, nullable=False, server_default="0"),
    sa.Column("analysed_by", sa.String(200), nullable=False, server_default=""),
    sa.Column("problem", sa.Text, nullable=False, server_default=""),
    sa.Column("answer", sa.Text, nullable=False, server_default=""),
    sa.Column("symptom", sa.Text, nullable=False, server_default=""),
    sa.Column("first_action", sa.Text, nullable=False, server_default=""),
    sa.ForeignKeyConstraint(["repo", "number"], ["issues.repo", "issues.number"]),
    sa.UniqueConstraint("repo", "number", name="uq_cases_repo_number"),
)
sa.Index("ix_cases_funnel", cases.c.funnel)

# -- a case's conclusions, one row per item of its export's lists (written by the stage that decides them)

case_fixes = sa.Table(
    "case_fixes", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("case_id", sa.String(320), sa.ForeignKey("cases.id"), nullable=False),
    sa.Column("pending", sa.Boolean, primary_key=True),    # True: export's pending_fix (did not land before the close)
    sa.Column("position", sa.Integer, primary_key=True, autoincrement=False),   # order within its list
    sa.Column("pr_repo", sa.String(300), nullable=False),
    sa.Column("pr_number", sa.Integer, nullable=False),
    sa.Column("pull_id", sa.String(320), sa.ForeignKey("pulls.id"), nullable=False),
    sa.Column("role", sa.String(20), nullable=False, server_default="fix"),      # fix | backport
    sa.Column("state", sa.String(20), nullable=False, server_default=""),
    sa.Column("merged", sa.Boolean, nullable=False, server_default=sa.false()),  # model.is_merged
    sa.Column("merged_at", UTCDateTime),
    sa.Column("base_ref", sa.Text, nullable=False, server_default=""),
    sa.Column("url", sa.Text, nullable=False, server_default=""),
    sa.ForeignKeyConstraint(["repo", "number"], ["cases.repo", "cases.number"]),
    sa.ForeignKeyConstraint(["pr_repo", "pr_number"], ["pulls.repo", "pulls.number"]),
)
sa.Index("ix_case_fixes_pr", case_fixes.c.pr_repo, case_fixes.c.pr_number)
sa.Index("ix_case_fixes_pull_id", case_fixes.c.pull_id)

case_traps = sa.Table(
    "case_traps", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("case_id", sa.String(320), sa.ForeignKey("cases.id"), nullable=False),
    sa.Column("trap", sa.String(40), primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("note", sa.Text, nullable=False, server_default=""),
    sa.ForeignKeyConstraint(["repo", "number"], ["cases.repo", "cases.number"]),
)

case_evidence = sa.Table(
    "case_evidence", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("case_id", sa.String(320), sa.ForeignKey("cases.id"), nullable=False),
    sa.Column("position", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("detail", sa.Text, nullable=False, server_default=""),
    sa.Column("source", sa.Text, nullable=False, server_default=""),
    sa.ForeignKeyConstraint(["repo", "number"], ["cases.repo", "cases.number"]),
)

case_kb_refs = sa.Table(
    "case_kb_refs", metadata,
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("case_id", sa.String(320), sa.ForeignKey("cases.id"), nullable=False),
    sa.Column("position", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("doc", sa.Text, nullable=False),
    sa.Column("chunk", sa.String(100), nullable=False, server_default=""),
    sa.Column("score", sa.Float, nullable=False, server_default="0"),
    sa.ForeignKeyConstraint(["repo", "number"], ["cases.repo", "cases.number"]),
)
for _t in (case_fixes, case_traps, case_evidence, case_kb_refs):
    sa.Index(f"ix_{_t.name}_case_id", _t.c.case_id)


# -- the digest series ledger (fixlore.series): what each edition published, immutable once written

series = sa.Table(
    "series", metadata,
    sa.Column("name", sa.String(100), primary_key=True),
    sa.Column("config", sa.JSON, nullable=False),         # title, tagline, agent pointer, scope (fixlore.series.model)
    sa.Column("created_at", UTCDateTime),
    sa.Column("updated_at", UTCDateTime),
)

editions = sa.Table(
    "editions", metadata,
    sa.Column("series", sa.String(100), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(20), nullable=False, server_default="regular"),   # regular | special
    sa.Column("focus", sa.JSON),                           # special editions: {repos: [...], themes: [...]}
    sa.Column("window_since", UTCDateTime),
    sa.Column("window_until", UTCDateTime),
    sa.Column("scope", sa.JSON),                           # the series scope as it stood at publication
    sa.Column("counts", sa.JSON),                          # rows new / from the backlog / updates, backlog in and out
    sa.Column("backlog", sa.JSON),                         # the backlog left at publication: [{repo, number, value, title}]
    sa.Column("inputs", sa.JSON),                          # everything else the files were built from (run summary, framing)
    sa.Column("published_at", UTCDateTime),
)

edition_rows = sa.Table(
    "edition_rows", metadata,
    sa.Column("series", sa.String(100), primary_key=True),
    sa.Column("edition", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("repo", sa.String(300), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("role", sa.String(20), nullable=False),      # new | backlog | update | dropped | considered
    sa.Column("published", sa.Boolean, nullable=False, server_default=sa.false()),   # a row of the digest tables
    sa.Column("row_hash", sa.String(64), nullable=False),  # sha256 of the canonical JSON of `row`
    sa.Column("row", sa.JSON, nullable=False),             # the case export as the edition used it
    sa.Column("change", sa.JSON),                          # update rows: what changed since the case was published
)

edition_files = sa.Table(
    "edition_files", metadata,
    sa.Column("series", sa.String(100), primary_key=True),
    sa.Column("edition", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("sha256", sa.String(64), nullable=False),
    sa.Column("bytes", sa.Integer, nullable=False),
)
