"""The facts that tell a project's answer from a bystander's come through harvest and store: GitHub's author_association
on each comment (GitCode's comments carry none) and an issue's assignees, kept in their own
columns (migration 0008, which fills them from the payloads stores already keep)."""

from __future__ import annotations

import json
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from fixlore.core import model as m
from fixlore.sources import gitcode as gc
from fixlore.sources import github as gh
from fixlore.sources.base import IssueDetail
from fixlore.store import Store

ROOT = Path(__file__).resolve().parents[1]
WHEN = datetime(2026, 9, 18, tzinfo=timezone.utc)


def _migrations(conn: sa.Connection) -> Config:
    """The store's alembic configuration, run on `conn`."""
    cfg = Config(str(ROOT / "src" / "fixlore" / "store" / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "src" / "fixlore" / "store" / "migrations"))
    cfg.attributes["connection"] = conn
    return cfg


@contextmanager
def _store_at(url: str, revision: str, platform: str):
    """A SQLite store migrated up to `revision` holding repo o/r: its connection and alembic config."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            cfg = _migrations(conn)
            command.upgrade(cfg, revision)
            conn.execute(sa.text("INSERT INTO repos (full_name, platform, owner, name) VALUES ('o/r', :p, 'o', 'r')"),
                         {"p": platform})
            yield conn, cfg
    finally:
        engine.dispose()


def test_sources_keep_the_platforms_word_and_the_assignees():
    c = gh.normalize_comment({"id": 1, "body": "+1", "user": {"login": "fan"}, "author_association": "member"},
                             "o/r", "issue", 3)
    assert c.association == "MEMBER"
    assert gh.normalize_comment({"id": 2, "body": "x", "user": {"login": "a"}}, "o/r", "issue", 3).association == ""
    assert gc.normalize_comment({"id": 3, "body": "x", "user": {"login": "a"}}, "o/r", "issue", 3).association == ""
    both = {"number": 3, "state": "open", "user": {"login": "rep"}, "assignee": {"login": "lead"},
            "assignees": [{"login": "lead"}, {"login": "second"}]}
    assert gh.normalize_issue(both, "o/r").assignees == ["lead", "second"]
    assert gc.normalize_issue({**both, "assignees": []}, "o/r").assignees == ["lead"]
    assert gc.normalize_issue({"number": 4, "state": "open", "assignee": None, "assignees": None}, "o/r").assignees == []


def test_the_store_keeps_them(db_url):
    store = Store.open(db_url)
    issue = m.Issue(repo="o/r", number=5, title="t", body="b", state="closed", created_at=WHEN, updated_at=WHEN,
                    closed_at=WHEN, author="rep", assignees=["lead"])
    comment = m.Comment("o/r", "issue", 5, "c1", "fan", "+1", WHEN, association="NONE")
    with store.writer() as w:
        w.upsert_issues([issue])
        w.save_issue_detail(issue, IssueDetail(comments=[comment]))
    corpus = store.load_corpus()
    assert corpus.issues[0].assignees == ["lead"] and corpus.comments[0].association == "NONE"
    assert store.comments_of("o/r", "issue", 5)[0].association == "NONE"


def test_the_migration_fills_them_from_the_kept_payloads(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with _store_at(url, "0007_single_keys_search", "github") as (conn, _):
        conn.execute(sa.text("INSERT INTO issues (id, repo, number, raw) VALUES ('o/r#1', 'o/r', 1, :raw)"),
                     {"raw": json.dumps({"assignees": [{"login": "lead"}], "assignee": {"login": "lead"}})})
        conn.execute(sa.text("INSERT INTO issues (id, repo, number, raw) VALUES ('o/r#2', 'o/r', 2, :raw)"),
                     {"raw": json.dumps({"assignee": None})})
        for cid, said in (("c1", "Collaborator"), ("c2", None)):
            conn.execute(sa.text("INSERT INTO comments (repo, parent_kind, parent_number, id, author, raw) "
                                 "VALUES ('o/r', 'issue', 1, :id, 'x', :raw)"),
                         {"id": cid, "raw": json.dumps({"author_association": said} if said else {})})
    store = Store.open(url)
    try:
        corpus = store.load_corpus()
        assert {i.number: i.assignees for i in corpus.issues} == {1: ["lead"], 2: []}
        assert {c.id: c.association for c in corpus.comments} == {"c1": "COLLABORATOR", "c2": ""}
    finally:
        store.close()


def test_going_back_from_0008_keeps_the_issues_search_box(tmp_path):
    url = f"sqlite:///{tmp_path / 'back.db'}"
    with _store_at(url, "0008_who_speaks", "gitcode") as (conn, cfg):
        conn.execute(sa.text("INSERT INTO issues (id, repo, number, title, raw) VALUES ('o/r#1', 'o/r', 1, "
                             "'偶发超时 before', '{}')"))
        command.downgrade(cfg, "0007_single_keys_search")
        # a row written after the downgrade is found too: the triggers are back
        conn.execute(sa.text("INSERT INTO issues (id, repo, number, title, raw) VALUES ('o/r#2', 'o/r', 2, "
                             "'多卡部署 after', '{}')"))
        found = {r[0] for r in conn.execute(sa.text(
            "SELECT number FROM issues WHERE rowid IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH :q)"),
            {"q": '"偶发超时" OR "多卡部署"'})}
        triggers = {r[0] for r in conn.execute(sa.text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))}
    assert found == {1, 2}
    assert {"issues_fts_ai", "issues_fts_ad", "issues_fts_au"} <= triggers
