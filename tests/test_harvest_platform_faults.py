"""Platform behaviours the docs describe, served by the loopback replay server through a whole harvest:
each one heals (the store is the clean run's) or is named in the run's report, never quietly wrong.

- ``empty-page``: a list page answered empty while its totals (GitCode ``total_count``/``total_page``,
  gitcode-api.md §5) or its ``Link: rel="next"`` (GitHub) say more follow; GitCode's changelog fixed
  "occasional incomplete pages" on 2024-11-22 and a 500-page paging cap on 2024-11-14.
- ``202``: 202 Accepted with nothing yet (GitHub's statistics endpoints while they compute,
  docs.github.com/en/rest/metrics/statistics; GitCode lists 202 among its status codes, DOC-INTRO).
- ``451``: a repository blocked by a DMCA takedown answers 451 "Repository access blocked" on every
  endpoint (GitHub's REST docs list 451 on repository endpoints).
- ``clock_skew``: the server's clock off ours; the moments it names (``x-ratelimit-reset``) are read
  against its own ``Date``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fixlore.core.timeutil import parse_time
from fixlore.harvest import harvest
from fixlore.replay.server import ReplayServer
from fixlore.sources import make_source
from fixlore.sources.http import ApiClient
from fixlore.sources.offline import read_world_meta
from fixlore.store import Store


def _harvest(world: Path, db: str, faults: str = "", **client_kw):
    meta = read_world_meta(world)
    store = Store.open(db)
    with ReplayServer(world, faults=faults or None, fault_seed=5) as srv:
        client = ApiClient(srv.base_url, meta["platform"], cache=store.http_cache(), rate_limit=False,
                           backoff_base=0.01, backoff_max=0.05, **client_kw)
        report = harvest(store, make_source(meta["platform"], client), meta["orgs"], parse_time(meta["window"]["since"]))
        client.close()
        injected = srv.stats()["faults_injected"]
    return store, report, injected


@pytest.mark.parametrize("platform", ["gitcode", "github"])
def test_empty_pages_and_202s_now_and_then_heal_to_the_clean_store(make_world, tmp_path, platform):
    # one big list per repo, so later pages exist to be emptied
    world = make_world(platform=platform, repos=2, closed_in_window=130, other_updated=30, old_issues=20, seed=9)
    clean, _, _ = _harvest(world, f"sqlite:///{tmp_path / 'clean.db'}")
    faulty, report, injected = _harvest(world, f"sqlite:///{tmp_path / 'faulty.db'}", faults="empty-page:0.3,202:0.1")
    assert injected.get("empty-page", 0) > 0 and injected.get("202", 0) > 0
    assert report.unreadable == [] and report.unread_items == []
    assert faulty.canonical_dump() == clean.canonical_dump()


def test_a_list_that_stays_empty_before_its_announced_end_is_named_against_its_repo(make_world, tmp_path):
    """A paging cap: every issue-list page of one repo comes back empty while its totals say
    otherwise. Before, paging ended there and the repo looked as if it had no issues (its
    watermark advanced); now the repo's failure is named and its watermark stays put."""
    world = make_world(platform="gitcode", repos=2, closed_in_window=20, other_updated=5, old_issues=5, seed=3)
    meta = read_world_meta(world)
    clean, _, _ = _harvest(world, f"sqlite:///{tmp_path / 'clean.db'}")
    repos = sorted({i.repo for i in clean.issues()})
    broken = repos[0]
    store, report, _ = _harvest(world, f"sqlite:///{tmp_path / 'capped.db'}",
                                faults=f"empty-page=*/repos/{broken}/issues")
    named = [f for f in report.as_dict()["unreadable"] if f["repo"] == broken]
    assert named and named[0]["status"] == "truncated" and "the list would be incomplete" in named[0]["message"]
    assert store.watermark(broken) is None or store.watermark(broken).get("issues_updated_at") is None
    # the other repo is the clean run's
    other = repos[1]
    assert {i.number for i in store.issues([other])} == {i.number for i in clean.issues([other])}
    assert meta["platform"] == "gitcode"


def test_a_202_that_never_turns_into_an_answer_is_named_per_item(make_world, tmp_path):
    world = make_world(platform="github", repos=1, closed_in_window=15, other_updated=3, old_issues=3, seed=4)
    store, report, injected = _harvest(world, f"sqlite:///{tmp_path / 'g.db'}", faults="202=*/timeline",
                                       max_attempts=3)
    assert injected.get("202", 0) > 0
    unread = report.as_dict()["unread_items"]
    assert unread and all(u["part"] == "events" and "202 Accepted" in u["message"] for u in unread)
    assert report.unreadable == []


@pytest.mark.parametrize("platform, part, glob", [("github", "events", "*/issues/*/timeline"),
                                                 ("gitcode", "events", "*/issues/*/operate_logs"),
                                                 ("gitcode", "links", "*/issues/*/pull_requests")])
def test_a_detail_endpoint_answering_404_for_an_issue_just_listed_is_named_not_read_as_empty(
        make_world, tmp_path, platform, part, glob):
    """The issue was just listed, so a 404 on its history says the endpoint cannot be read here (an
    endpoint the server does not serve, GitCode's transient "project not found"), not "no history":
    read as empty it made a fixed issue look like one with no fix evidence."""
    world = make_world(platform=platform, repos=1, closed_in_window=12, other_updated=3, old_issues=3, seed=6)
    _store, report, _ = _harvest(world, f"sqlite:///{tmp_path / 'n.db'}", faults=f"404={glob}")
    unread = report.as_dict()["unread_items"]
    assert unread and {u["part"] for u in unread} == {part} and all(u["status"] == "404" for u in unread)
    assert report.issues_detailed == len({u["number"] for u in unread if u["kind"] == "issue"})


@pytest.mark.parametrize("skew", [0.0, -120.0])
def test_github_primary_limit_is_waited_out_until_its_reset_under_a_compressed_clock(make_world, tmp_path, skew):
    """GitHub's primary limit (403, x-ratelimit-remaining 0, x-ratelimit-reset in epoch seconds:
    docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api) with time compressed as
    `--time-scale` does for replay benchmarks: the reset is a moment on the wall clock, not a span of
    platform time, so the client waits until it whatever the scale. Before, the wait was divided by
    the scale, every retry came back before the reset, and the resources were lost.

    ``skew`` -120: the server's clock two minutes behind ours (its Date header and its resets). The wait
    is the reset less the server's Date; before, it was the reset less our clock, always past: a wait
    of 0, 8 attempts inside the same spent window, and issues and PRs given up (status "retries")."""
    from fixlore.replay.limits import FixedWindow

    world = make_world(platform="github", repos=1, closed_in_window=25, other_updated=5, old_issues=5, seed=8)
    meta = read_world_meta(world)
    clean, _, _ = _harvest(world, f"sqlite:///{tmp_path / 'clean.db'}")
    scale = 3600.0                                # an hour's window lasts one second
    store = Store.open(f"sqlite:///{tmp_path / 'limited.db'}")
    with ReplayServer(world, rate_limit=True, time_scale=scale, clock_skew=skew) as srv:
        # 25 requests a (scaled) hour: two resets
        srv._github_limit = FixedWindow(limit=25, period=3600.0 / scale, clock=srv.now)
        client = ApiClient(srv.base_url, "github", cache=store.http_cache(), rate_limit=True, time_scale=scale)
        report = harvest(store, make_source("github", client), meta["orgs"], parse_time(meta["window"]["since"]))
        client.close()
        limited = srv.stats()["by_status"].get("403", 0)
        served = sum(srv.stats()["by_status"].values())
    assert served > 2 * 25                        # the harvest spans three of the limit's windows
    assert report.unreadable == [] and report.unread_items == []
    assert store.canonical_dump() == clean.canonical_dump()
    assert limited <= 3                           # the low-water pause keeps most requests from the wall


@pytest.mark.parametrize("platform", ["gitcode", "github"])
def test_a_repository_blocked_for_legal_reasons_is_named_and_the_others_harvested(make_world, tmp_path, platform):
    world = make_world(platform=platform, repos=2, closed_in_window=20, other_updated=5, old_issues=5, seed=3)
    clean, clean_report, _ = _harvest(world, f"sqlite:///{tmp_path / 'clean.db'}")
    repos = sorted({i.repo for i in clean.issues()})
    blocked, readable = repos[0], repos[1]
    store, report, injected = _harvest(world, f"sqlite:///{tmp_path / 'dmca.db'}", faults=f"451=*/repos/{blocked}*")
    assert injected.get("451", 0) > 0
    named = [f for f in report.as_dict()["unreadable"] if f["repo"] == blocked]
    assert named and named[0]["status"] == "451" and "blocked" in named[0]["message"]
    assert {f["repo"] for f in report.as_dict()["unreadable"]} == {blocked}
    assert {i.number for i in store.issues([readable])} == {i.number for i in clean.issues([readable])}


@pytest.mark.parametrize("platform", ["gitcode", "github"])
def test_an_issue_deleted_after_it_was_listed_is_left_out_and_never_asked_again(make_world, tmp_path, platform):
    """An issue deleted on the platform answers 410 Gone on GitHub ("This issue was deleted"), 404 on GitCode,
    on itself and its parts, while a list may still carry it. Before: its parts were named unread
    (`unread_items`, exit 6) on this run and on every later one, and it stayed a case. Now on GitHub: asked
    for itself, it is named deleted (`issues_deleted`) and left out of every read of the store; GitCode's
    404 is also its transient "project not found", so there the parts stay named unread."""
    from fixlore.link.build import build_cases

    world = make_world(platform=platform, repos=2, closed_in_window=20, other_updated=5, old_issues=5, seed=3)
    since = parse_time(read_world_meta(world)["window"]["since"])
    clean, _, _ = _harvest(world, f"sqlite:///{tmp_path / 'clean.db'}")
    repo, number = min((r, n) for r in sorted({i.repo for i in clean.issues()})
                       for n, b in clean.issue_bookkeeping(r).items() if b["details_for"] is not None)
    owner, name = repo.split("/")
    faults = f"deleted=*/{repo}/issues/{number},deleted=*/{repo}/issues/{number}/*,deleted=*/{owner}/issues/{number}/*"
    db = f"sqlite:///{tmp_path / 'deleted.db'}"
    if platform == "gitcode":
        # GitCode says a deleted issue with a 404, which is also its transient "project not found": never
        # hidden on that word, its parts are named unread and asked again
        store, report, _ = _harvest(world, db, faults=faults)
        assert report.as_dict()["issues_deleted"] == [] and report.unread_items
        assert (repo, number) in {(i.repo, i.number) for i in store.load_corpus().issues}
        return
    for run in (1, 2):
        store, report, injected = _harvest(world, db, faults=faults)
        assert report.unreadable == [] and report.unread_items == [], run
        # the second run asks it nothing, unless a list still carries it (then it is asked and named again)
        assert report.as_dict()["issues_deleted"] in (
            [{"repo": repo, "number": number, "why": "HTTP 410 This issue was deleted"}], [] if run == 2 else None)
        assert run == 2 or injected.get("deleted", 0) > 0
        assert (repo, number) not in {(i.repo, i.number) for i in store.load_corpus().issues}
        assert number not in store.issue_bookkeeping(repo) and store.item_failures() == []
        cases, _ = build_cases(store.load_corpus(), since, {"conclude_all": True})
        assert (repo, number) not in {(c.repo, c.number) for c in cases} and cases
