from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from fixlore.core import model as m
from fixlore.sources.base import IssueDetail, PullDetail
from fixlore.store import Store

CST = timezone(timedelta(hours=8))


def _issue(number, updated, **kw):
    return m.Issue(repo="o/r", number=number, title=f"t{number}", body="b", state="closed",
                   created_at=updated - timedelta(days=1), updated_at=updated, closed_at=updated, **kw)


def test_open_applies_migrations_and_names_tables(db_url):
    store = Store.open(db_url)
    names = set(sa.inspect(store.engine).get_table_names())
    assert {"repos", "issues", "pulls", "comments", "events", "issue_pull_links", "pull_files", "pull_commits",
            "raw_payloads", "http_cache", "watermarks", "harvest_runs", "runs", "cases",
            "alembic_version"} <= names
    Store.open(db_url)   # a second open is a no-op upgrade


def test_upserts_are_idempotent_and_times_compare_across_offsets(db_url):
    store = Store.open(db_url)
    # 10:00+08:00 is 02:00Z: earlier than 03:00Z although its wall-clock digits are larger.
    early = _issue(1, datetime(2026, 9, 17, 10, 0, tzinfo=CST), labels=["bug"])
    late = _issue(2, datetime(2026, 9, 17, 3, 0, tzinfo=timezone.utc))
    with store.writer() as w:
        w.upsert_issues([early, late])
    with store.writer() as w:
        w.upsert_issues([early, late])
    assert store.count("issues") == 2
    since = datetime(2026, 9, 17, 2, 30, tzinfo=timezone.utc)
    assert [i.number for i in store.issues(updated_since=since)] == [2]
    loaded = {i.number: i for i in store.load_corpus().issues}
    assert loaded[1].updated_at == early.updated_at and loaded[1].labels == ["bug"]


def test_details_replace_children_and_mark_the_version(db_url):
    store = Store.open(db_url)
    when = datetime(2026, 9, 18, tzinfo=CST)
    issue = _issue(5, when)
    detail = IssueDetail(
        comments=[m.Comment("o/r", "issue", 5, "c1", "a", "see !7", when)],
        events=[m.Event("o/r", "issue", 5, "e1", m.EV_CLOSED, "bot", when)],
        links=[m.Link("o/r", 5, "o/r", 7, "issue_pulls")], raw={"comments": [{"id": "c1"}]})
    with store.writer() as w:
        w.upsert_issues([issue])
        w.save_issue_detail(issue, detail)
        w.save_issue_detail(issue, detail)
    pull = m.Pull("o/r", 7, "fix", "Fixes #5", "merged", when, when, when, None)
    with store.writer() as w:
        w.save_pull_detail(pull, PullDetail(pull=pull, files=[m.FileChange("o/r", 7, "a.py", "modified", 1, 1, "@@")],
                                            commits=[m.Commit("o/r", 7, "abc", "fix")],
                                            links=[m.Link("o/r", 5, "o/r", 7, "pull_issues")]))
    corpus = store.load_corpus()
    assert [c.id for c in corpus.comments] == ["c1"]
    assert {(lk.source, lk.pull_number) for lk in corpus.links} == {("issue_pulls", 7), ("pull_issues", 7)}
    assert corpus.pulls[0].merged and [f.filename for f in corpus.files] == ["a.py"]
    assert store.issue_bookkeeping("o/r")[5]["details_for"] == when
    # A second fetch with fewer comments leaves exactly those.
    with store.writer() as w:
        w.save_issue_detail(issue, IssueDetail())
    assert store.load_corpus().comments == []


def test_cases_and_runs_round_trip(db_url):
    store = Store.open(db_url)
    run_id = store.start_run({"platform": "gitcode"})
    case = m.Case(repo="o/r", number=3, funnel="selected", fix=[m.FixRef("o/r", 7, "fix")], timing="same_second")
    store.save_cases([case], run_id)
    store.save_cases([case], run_id)
    store.finish_run(run_id, "ok", {"platform": "gitcode", "requests": {"total": 1}})
    assert [c.to_export() for c in store.load_cases()] == [case.to_export()]
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("select status from runs")).scalar_one() == "ok"


def test_watermarks(db_url):
    store = Store.open(db_url)
    when = datetime(2026, 9, 19, 8, tzinfo=CST)
    with store.writer() as w:
        w.set_watermark("o/r", issues_updated_at=when, window_since=when - timedelta(days=2))
    with store.writer() as w:
        w.set_watermark("o/r", pulls_updated_at=when)
    mark = store.watermark("o/r")
    assert mark["issues_updated_at"] == when and mark["pulls_updated_at"] == when


def _schema(path) -> list[tuple]:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        return sorted(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")) + \
            [("alembic", *row) for row in db.execute("SELECT version_num FROM alembic_version")]
    finally:
        db.close()


def test_the_suites_migrated_copy_is_what_the_migrations_make(tmp_path, request):
    """tests/conftest.py starts a new SQLite store as a copy of one migrated once: the copy has
    every table, view, index and trigger the migrations make, at their head revision."""
    import conftest

    copied = Store.open(f"sqlite:///{tmp_path / 'copied.db'}")
    copied.close()
    assert conftest._TEMPLATE, "a new store was not made from the suite's copy"
    conftest._REAL_MIGRATIONS[0] = True
    try:
        migrated = Store.open(f"sqlite:///{tmp_path / 'migrated.db'}")
        migrated.close()
    finally:
        conftest._REAL_MIGRATIONS[0] = False
    assert _schema(tmp_path / "copied.db") == _schema(tmp_path / "migrated.db")
    assert len(_schema(tmp_path / "copied.db")) > 20
    Store.open(f"sqlite:///{tmp_path / 'copied.db'}").close()       # at head: the upgrade is a no-op


def test_a_schema_change_stopped_half_way_leaves_nothing_half_done(tmp_path):
    """SQLite's driver committed each CREATE or ALTER alone: a run stopped inside a migration (Ctrl-C in
    its first second) left tables without a version stamp, and every later open failed with 'table cases
    already exists' (exit 5). Every transaction is an explicit BEGIN now, DDL included."""
    import sqlalchemy as sa

    store = Store.open(f"sqlite:///{tmp_path / 'ddl.db'}")
    try:
        with pytest.raises(KeyboardInterrupt):
            with store.engine.begin() as conn:
                conn.execute(sa.text("CREATE TABLE half_done (x INTEGER)"))
                conn.execute(sa.text("ALTER TABLE issues ADD COLUMN half_done_too TEXT"))
                raise KeyboardInterrupt
        with store.engine.connect() as conn:
            tables = {r[0] for r in conn.execute(sa.text("SELECT name FROM sqlite_master WHERE type = 'table'"))}
            columns = {r[1] for r in conn.execute(sa.text("PRAGMA table_info(issues)"))}
        assert "half_done" not in tables and "half_done_too" not in columns and "issues" in tables
    finally:
        store.close()
    Store.open(f"sqlite:///{tmp_path / 'ddl.db'}").close()      # and it opens again
