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

    def get_issue(self, repo, number):
        """#300 is deleted (a 404, which the client answers None); any other number asked for is there."""
        return None if number == 300 else m.Issue(repo, number, f"#{number}", "", "closed", WHEN, WHEN, WHEN)


def test_a_listing_takes_the_deleted_marks_off_once_it_ends_and_a_killed_one_leaves_them_for_the_next(tmp_path):
    """The marks of issues a listing carried go at its end, in one write (not on every saved page); killed
    after some pages were saved, the marks stay, and the next run's listing (from the same watermark: it
    moves only after every listing ended) takes them off."""
    from fixlore.harvest.harvester import Harvester
    from fixlore.harvest.report import Progress

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
            killed._list_issues([repo], Progress(None))
        except _Killed:
            pass
        # the first page (#250..#151) was saved; #240 on it keeps its mark until a listing ends
        assert {i.number for i in store.issues()} == set(range(151, 251)) - {240}
        Harvester(store, _Lister(), since=WHEN)._list_issues([repo], Progress(None))
        book = store.issue_bookkeeping("o/r")
        assert len(book) == 250 and book[240]["details_for"] is None and book[3]["details_for"] is None
    finally:
        store.close()


def _searched(store: Store, words: str) -> set[int]:
    """The issue numbers the issues' search box (issues_fts, what Datasette's box asks) finds for `words`."""
    with store.engine.connect() as conn:
        return {r[0] for r in conn.execute(sa.text(
            "SELECT number FROM issues WHERE rowid IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH :q)"),
            {"q": f'"{words}"'})}


def test_a_deleted_issue_is_in_no_read_its_comments_events_and_links_neither_nor_any_search(tmp_path):
    from fixlore.sources.base import IssueDetail, PullDetail

    store = Store.open(f"sqlite:///{tmp_path / 's.db'}")
    try:
        with store.writer() as w:
            w.upsert_repos([m.Repo("gitcode", "o/r", "o", "r")])
            issues = [m.Issue("o/r", n, f"偶发超时 #{n}", f"多卡部署 body {n}", "closed", WHEN, WHEN, WHEN) for n in (1, 2)]
            w.upsert_issues(issues)
            for i in issues:
                w.save_issue_detail(i, IssueDetail(
                    comments=[m.Comment("o/r", "issue", i.number, f"c{i.number}", "a", "reply", WHEN)],
                    events=[m.Event("o/r", "issue", i.number, f"e{i.number}", "closed", "a", WHEN)],
                    links=[m.Link("o/r", i.number, "o/r", 2, "issue_pulls")]))
            w.save_pull_detail(m.Pull("o/r", 2, "偶发超时 fix", "", "merged", WHEN, WHEN, WHEN, WHEN),
                               PullDetail(events=[m.Event("o/r", "pull", 2, "p2", "merged", "a", WHEN)]))
        assert store.refresh_fulltext(str)["rows"] == 3
        assert _searched(store, "偶发超时") == {1, 2}
        with store.writer() as w:
            w.mark_deleted("o/r", 2)
        corpus = store.load_corpus()
        assert [i.number for i in corpus.issues] == [1]
        assert {(c.parent_kind, c.parent_number) for c in corpus.comments} == {("issue", 1)}
        # the PR numbered 2 keeps its history: only an issue's go with it
        assert {(e.parent_kind, e.parent_number) for e in corpus.events} == {("issue", 1), ("pull", 2)}
        # its link to PR 2 goes too: the PR would still read as fixing two issues
        assert [(lk.issue_number, lk.pull_number) for lk in corpus.links] == [(1, 2)]
        assert store.links_of_issue("o/r", 2) == [] and len(store.links_of_issue("o/r", 1)) == 1
        assert store.comments_of("o/r", "issue", 2) == [] and len(store.comments_of("o/r", "issue", 1)) == 1
        assert set(store.issue_texts([("o/r", 1), ("o/r", 2)])) == {("o/r", 1)}       # the case index's text
        assert _searched(store, "偶发超时") == {1} and _searched(store, "多卡部署") == {1}
        assert store.refresh_fulltext(str) == {"indexed": 0, "removed": 1, "rows": 2}
        with store.engine.connect() as conn:
            assert {tuple(r) for r in conn.execute(sa.text("SELECT kind, CAST(number AS INT) FROM fulltext"))} == {
                ("issue", 1), ("pull", 2)}
        with store.writer() as w:                   # listed again: searched again
            w.listed_again("o/r", [2])
        assert _searched(store, "偶发超时") == {1, 2}
        assert store.refresh_fulltext(str)["indexed"] == 1
    finally:
        store.close()


def test_0010_takes_a_deleted_issue_out_of_the_search_box_and_going_back_puts_it_in(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    find = "SELECT number FROM issues WHERE rowid IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH '\"偶发超时\"')"
    with _store_at(url, "0009_deleted_issues", "gitcode") as (conn, cfg):
        for n, deleted in ((1, None), (2, "2026-09-18 00:00:00.000000")):
            conn.execute(sa.text("INSERT INTO issues (id, repo, number, title, raw, deleted_at) VALUES "
                                 "(:id, 'o/r', :n, '偶发超时', '{}', :d)"), {"id": f"o/r#{n}", "n": n, "d": deleted})
        assert {r[0] for r in conn.execute(sa.text(find))} == {1, 2}
        command.upgrade(cfg, "0010_search_live_issues")
        assert {r[0] for r in conn.execute(sa.text(find))} == {1}
        conn.execute(sa.text("UPDATE issues SET title = '偶发超时 again' WHERE number = 2"))   # still deleted
        conn.execute(sa.text("DELETE FROM issues WHERE number = 2"))
        assert {r[0] for r in conn.execute(sa.text(find))} == {1}
        conn.execute(sa.text("INSERT INTO issues (id, repo, number, title, raw, deleted_at) VALUES "
                             "('o/r#2', 'o/r', 2, '偶发超时', '{}', '2026-09-18 00:00:00.000000')"))
        command.downgrade(cfg, "0009_deleted_issues")
        assert {r[0] for r in conn.execute(sa.text(find))} == {1, 2}
        assert conn.execute(sa.text("INSERT INTO issues_fts (issues_fts) VALUES ('integrity-check')")) is not None


def test_a_case_of_an_issue_deleted_after_it_was_analysed_is_not_loaded(db_url):
    """A case row stays when its issue is marked deleted (mark_deleted), but no read gives it: the case's
    export quotes the issue and its comments (problem, answer), which `fixlore serve`, the MCP server and a
    stage reading the store's cases (Store.load_cases) would show. On SQLite and PostgreSQL."""
    store = Store.open(db_url)
    try:
        with store.writer() as w:
            w.upsert_repos([m.Repo("gitcode", "o/r", "o", "r")])
            w.upsert_issues([m.Issue("o/r", n, f"#{n}", "", "closed", WHEN, WHEN, WHEN) for n in (1, 2)])
        store.save_cases([m.Case("o/r", n, title=f"#{n}", answer=f"reply {n}") for n in (1, 2, 3)])
        with store.writer() as w:
            w.mark_deleted("o/r", 2)
        # #3 has a case but no issue row (a store written by a stage alone): it is not deleted, so it stays
        assert [c.number for c in store.load_cases()] == [1, 3]
        with store.writer() as w:
            w.listed_again("o/r", [2])
        assert [c.number for c in store.load_cases()] == [1, 2, 3]
        assert store.comments_of("o/r", "issue", 2) == [] and store.load_corpus().comments == []
    finally:
        store.close()


def test_a_comment_looks_its_live_issue_up_by_key_not_by_reading_every_issue(tmp_path):
    """store.live.of_live_issue on SQLite: each comment row finds its issue through the (repo, number) index;
    an IN over every live issue read the whole issues table once per query, and the harvester loads the corpus
    once per repo with work (a 300-repo, 30k-issue store: 100 per-repo load_corpus 3.94 s, with the lookup
    1.27 s, before the live filter 0.78 s)."""
    from fixlore.store import schema as t
    from fixlore.store.live import of_live_issue

    store = Store.open(f"sqlite:///{tmp_path / 's.db'}")
    try:
        query = sa.select(t.comments.c.id).where(t.comments.c.repo.in_(["o/r"]), of_live_issue(t.comments))
        with store.engine.connect() as conn:
            compiled = query.compile(conn, compile_kwargs={"literal_binds": True})
            plan = [r[-1] for r in conn.execute(sa.text(f"EXPLAIN QUERY PLAN {compiled}"))]
        assert not any(step.startswith("SCAN issues") for step in plan), plan
        assert any("issues USING" in step and "number=?" in step for step in plan), plan
    finally:
        store.close()


def test_an_issue_a_complete_listing_no_longer_carries_is_marked_deleted_and_a_broken_one_marks_none(tmp_path):
    """An issue deleted on the platform between two runs leaves the issue list: a listing that ended down to
    its bound carried every issue updated since then, so a stored live issue updated since then that it did
    not carry is asked for by number and marked deleted when it answers 404/410 (left out of every read, in
    the run's report); one still there stays (the list skipped it), one updated before the bound is not
    asked about; a listing killed or failed part-way marks nothing."""
    from datetime import timedelta

    from fixlore.harvest.harvester import Harvester
    from fixlore.harvest.report import Progress
    from fixlore.sources.http import ApiError

    class _Failing(_Lister):
        def iter_issues(self, repo, since):
            yield from list(super().iter_issues(repo, since))[:10]
            raise ApiError("/repos/o/r/issues", 502, "Bad Gateway")

    store = Store.open(f"sqlite:///{tmp_path / 's.db'}")
    repo = m.Repo("gitcode", "o/r", "o", "r")
    older = WHEN - timedelta(days=3)
    try:
        with store.writer() as w:
            w.upsert_repos([repo])
            w.upsert_issues([m.Issue("o/r", 300, "#300", "", "closed", WHEN, WHEN, WHEN),
                             m.Issue("o/r", 301, "#301", "", "closed", WHEN, WHEN, WHEN),
                             m.Issue("o/r", 400, "#400", "", "closed", older, older, older)])
        for broken in (_Lister(stop_at=180), _Failing()):
            try:
                Harvester(store, broken, since=WHEN)._list_issues([repo], Progress(None))
            except _Killed:
                pass
            assert 300 in {i.number for i in store.issues()}
        harvester = Harvester(store, _Lister(), since=WHEN)
        harvester._list_issues([repo], Progress(None))
        assert {i.number for i in store.issues()} == set(range(1, 251)) | {301, 400}
        assert harvester.report.issues_deleted == [{"repo": "o/r", "number": 300, "why": "left the issue list; HTTP 404"}]
    finally:
        store.close()


def test_a_404_counts_as_deleted_only_when_the_repo_answers_for_a_listed_issue_at_the_same_time():
    """GitCode answers a transient 404 "project not found" for a whole project (gitcode-api.md §6): an issue a
    complete listing dropped is marked deleted only when the repo answers for an issue the listing carried
    (the control); with no issue listed, only when it is asked again and is gone again."""
    from fixlore.sources.base import left_the_listing
    from fixlore.sources.http import NotFound

    class _Project:
        def __init__(self, found: bool, gone_for: int = 10**6) -> None:
            self.found, self.gone_for, self.asked = found, gone_for, []

        def get_issue(self, repo, number):
            self.asked.append(number)
            if not self.found:
                raise NotFound("/repos/{owner}/{repo}/issues/{number}", "404 Project Not Found")
            if number == 300 and len([n for n in self.asked if n == 300]) <= self.gone_for:
                return None
            return m.Issue(repo, number, f"#{number}", "", "closed", WHEN, WHEN, WHEN)

    stored = [m.Issue("o/r", n, f"#{n}", "", "closed", WHEN, WHEN, WHEN) for n in (1, 2, 300)]
    present = _Project(found=True)
    assert left_the_listing(present, stored, {1, 2}) == [
        {"repo": "o/r", "number": 300, "why": "left the issue list; HTTP 404"}]
    assert present.asked == [300, 2]                          # the missing one, then the control
    assert left_the_listing(_Project(found=False), stored, {1, 2}) == []      # the whole project 404s: nothing
    once = _Project(found=True, gone_for=1)                   # with none listed: gone once, there when asked again
    assert left_the_listing(once, [stored[2]], set()) == [] and once.asked == [300, 300]
    twice = _Project(found=True)
    assert left_the_listing(twice, [stored[2]], set()) == [
        {"repo": "o/r", "number": 300, "why": "left the issue list; HTTP 404"}] and twice.asked == [300, 300]
