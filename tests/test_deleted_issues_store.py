"""Issues deleted on the platform in the store (migration 0009, `issues.deleted_at`): a store of the revision
before keeps every issue, one marked deleted is left out of every read and asked nothing again, and going back
from 0009 keeps the issues' search box."""

from __future__ import annotations

from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import command

from fixlore.core import model as m
from fixlore.store import Store

from test_who_speaks_data import _store_at

WHEN = datetime(2026, 9, 18, tzinfo=timezone.utc)


def test_an_issue_marked_deleted_is_left_out_of_every_read_and_its_gaps_forgotten(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 's.db'}")
    try:
        with store.writer() as w:
            w.upsert_repos([m.Repo("gitcode", "o/r", "o", "r")])
            w.upsert_issues([m.Issue("o/r", n, f"#{n}", "", "closed", WHEN, WHEN, WHEN) for n in (1, 2)])
        store.record_item_failure("o/r", "issue", 2, "comments", "/x", "410", "gone")
        with store.writer() as w:
            w.mark_deleted("o/r", 2)
        assert [i.number for i in store.issues()] == [1] == [i.number for i in store.load_corpus().issues]
        assert list(store.issue_bookkeeping("o/r")) == [1] and store.item_failures() == []
        assert set(store.issue_texts([("o/r", 1), ("o/r", 2)])) == {("o/r", 1)}      # its text is not served
        with store.writer() as w:                   # a page of a listing saved: still marked until the listing ends
            w.upsert_issues([m.Issue("o/r", 2, "#2", "", "closed", WHEN, WHEN, WHEN)])
        assert [i.number for i in store.issues()] == [1]
        with store.writer() as w:                   # listed again: not deleted (a deleted issue leaves every list)
            w.listed_again("o/r", {1, 2, 3})
        assert [i.number for i in store.issues()] == [1, 2]
        assert store.issue_bookkeeping("o/r")[2]["details_for"] is None      # its details are asked again
    finally:
        store.close()


def test_0009_keeps_the_issues_stored_before_and_going_back_keeps_the_search_box(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    with _store_at(url, "0008_who_speaks", "gitcode") as (conn, cfg):
        conn.execute(sa.text("INSERT INTO issues (id, repo, number, title, raw) VALUES ('o/r#1', 'o/r', 1, "
                             "'偶发超时 before', '{}')"))
        command.upgrade(cfg, "0009_deleted_issues")
        assert conn.execute(sa.text("SELECT number, deleted_at FROM issues")).all() == [(1, None)]
        command.downgrade(cfg, "0008_who_speaks")
        assert "deleted_at" not in {r[1] for r in conn.execute(sa.text("PRAGMA table_info(issues)"))}
        conn.execute(sa.text("INSERT INTO issues (id, repo, number, title, raw) VALUES ('o/r#2', 'o/r', 2, "
                             "'多卡部署 after', '{}')"))
        found = {r[0] for r in conn.execute(sa.text(
            "SELECT number FROM issues WHERE rowid IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH :q)"),
            {"q": '"偶发超时" OR "多卡部署"'})}
    assert found == {1, 2}


class _Killed(Exception):
    """The run stopped (Ctrl-C, a kill) in the middle of a listing."""


class _Lister:
    """An issue list of 250 issues on o/r, newest first; `stop_at` stops it after that many."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.stop_at = stop_at

    def iter_issues(self, repo, since):
        for at, n in enumerate(range(250, 0, -1)):
            if at == self.stop_at:
                raise _Killed
            yield m.Issue(repo, n, f"#{n}", "", "closed", WHEN, WHEN, WHEN)


def test_a_listing_takes_the_deleted_marks_off_once_it_ends_and_a_killed_one_leaves_them_for_the_next(tmp_path):
    """The marks of issues a listing carried go at its end, in one write (not on every saved page); killed
    after some pages were saved, the marks stay, and the next run's listing (from the same watermark: it
    moves only after every listing ended) takes them off."""
    from fixlore.harvest.harvester import Harvester, _Progress

    store = Store.open(f"sqlite:///{tmp_path / 's.db'}")
    repo = m.Repo("gitcode", "o/r", "o", "r")
    try:
        with store.writer() as w:
            w.upsert_repos([repo])
            w.upsert_issues([m.Issue("o/r", n, f"#{n}", "", "closed", WHEN, WHEN, WHEN) for n in (240, 3)])
            w.mark_deleted("o/r", 240)
            w.mark_deleted("o/r", 3)
        killed = Harvester(store, _Lister(stop_at=180), since=WHEN)
        try:
            killed._list_issues([repo], _Progress(None))
        except _Killed:
            pass
        # the first page (#250..#151) was saved; #240 on it keeps its mark until a listing ends
        assert {i.number for i in store.issues()} == set(range(151, 251)) - {240}
        Harvester(store, _Lister(), since=WHEN)._list_issues([repo], _Progress(None))
        book = store.issue_bookkeeping("o/r")
        assert len(book) == 250 and book[240]["details_for"] is None and book[3]["details_for"] is None
    finally:
        store.close()
