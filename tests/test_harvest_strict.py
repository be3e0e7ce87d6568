"""The harvester against the strict replay: the platforms as documented and observed, quirk by quirk.

Each test runs in the default mode and in strict mode (or with the one quirk it is about), and
checks the same outcome: every in-window issue of every readable repo is stored; what could not
be read is recorded and reported.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from fixlore.harvest import harvest
from fixlore.replay.server import ReplayServer
from fixlore.sources import make_source
from fixlore.sources.http import ApiClient
from fixlore.sources.offline import load_world, read_world_meta
from fixlore.store import Store
from fixlore.core.model import Corpus
from fixlore.core.timeutil import parse_time


def harvest_world(world: Path, db: str, strict=None, time_scale: float = 1.0, **client_kw):
    meta = read_world_meta(world)
    since = parse_time(meta["window"]["since"])
    store = Store.open(db)
    client_kw.setdefault("rate_limit", False)
    with ReplayServer(world, strict=strict, time_scale=time_scale) as srv:
        client = ApiClient(srv.base_url, meta["platform"], cache=store.http_cache(), time_scale=time_scale,
                           **client_kw)
        report = harvest(store, make_source(meta["platform"], client), meta["orgs"], since)
        client.close()
        refused = srv.quirks.refused_repos(srv.world)
        stats = srv.stats()
    return store, report, client.accounting, refused, stats


@functools.lru_cache(maxsize=8)
def loaded(world: Path) -> Corpus:
    """The world as a run reads it, once per world (the tests' worlds are shared and never written:
    conftest.shared_world)."""
    return load_world(world)


def window_issues(world: Path, skip: set[str] = frozenset()) -> set[tuple[str, int]]:
    since = parse_time(read_world_meta(world)["window"]["since"])
    return {(i.repo, i.number) for i in loaded(world).issues if i.updated_at >= since and i.repo not in skip}


@pytest.mark.parametrize("platform", ["gitcode", "github"])
@pytest.mark.parametrize("strict", [None, "closed_module", "module_closed_late"])
def test_a_repo_with_its_issues_switched_off_is_named_and_the_rest_harvested(shared_world, tmp_path, platform, strict):
    """A repo whose listing says ``has_issues: false`` (GitHub's default for a fork) is not asked for its
    issues and is named, not unreadable; so is a GitHub repo whose issue list answers 410 Gone after the
    listing said otherwise. GitCode's 403 "issue module is closed" without that word stays unreadable (a 403
    may be the token's or a blip: asked again next run). Before: every such repo was unreadable (exit 6)."""
    world = shared_world(platform=platform, repos=4, closed_in_window=30, other_updated=10, old_issues=10)
    store, report, acc, refused, _ = harvest_world(world, f"sqlite:///{tmp_path / 'h.db'}", strict)
    assert bool(refused) == bool(strict)
    stored = {(i.repo, i.number) for i in store.load_corpus().issues}
    assert window_issues(world, refused) <= stored
    unreadable = strict == "module_closed_late" and platform == "gitcode"
    assert {f["repo"] for f in report.unreadable} == (refused if unreadable else set())
    assert report.repos_unreadable == (len(refused) if unreadable else 0)
    named = report.as_dict()["repos_without_issues"]
    assert {x["repo"] for x in named} == (set() if unreadable else refused)
    if strict == "closed_module":               # the listing said so: its issue list was never asked for
        assert [x["why"] for x in named] == ["has_issues: false"]
        assert acc.by_endpoint_status["/repos/{owner}/{repo}/issues " + ("403" if platform == "gitcode" else "410")] == 0
    elif strict and not unreadable:
        assert [x["why"] for x in named] == ["HTTP 410 Issues are disabled for this repo"]
    for failure in report.unreadable:           # status, message and time, as the platform said it
        assert failure["endpoint"] == "/repos/{owner}/{repo}/issues" and failure["failed_at"] is not None
        assert (failure["status"], failure["message"]) == ("403", "issue module is closed")
    # Its details and PRs were still fetched for every other repo.
    assert report.issues_detailed > 0 and report.repos == 4


def test_unreadable_repo_is_retried_next_run_and_cleared_once_readable(shared_world, tmp_path):
    world = shared_world(repos=3, closed_in_window=20, other_updated=5, old_issues=5)
    db = f"sqlite:///{tmp_path / 'h.db'}"
    _, first, _, refused, _ = harvest_world(world, db, "module_closed_late")
    (repo,) = refused
    store, second, acc, _, _ = harvest_world(world, db, "module_closed_late")
    assert second.unreadable[0]["attempts"] == 2               # tried again, still closed
    owner, name = repo.split("/")
    store, third, _, _, _ = harvest_world(world, db, None)     # the module was opened again
    assert third.unreadable == [] and store.failures() == []
    assert {(r, n) for r, n in window_issues(world) if r == repo} <= {
        (i.repo, i.number) for i in store.load_corpus([repo]).issues}


def test_a_repo_named_unreadable_once_is_cleared_when_its_listing_says_issues_are_off(shared_world, tmp_path):
    world = shared_world(repos=3, closed_in_window=20, other_updated=5, old_issues=5)
    db = f"sqlite:///{tmp_path / 'h.db'}"
    _, first, _, refused, _ = harvest_world(world, db, "module_closed_late")     # 403: unreadable
    assert {f["repo"] for f in first.unreadable} == refused
    store, second, _, _, _ = harvest_world(world, db, "closed_module")          # the listing says has_issues false
    assert second.unreadable == [] and store.failures() == []
    assert {x["repo"] for x in second.without_issues} == refused


def test_run_with_an_unreadable_repo_exits_3_and_the_digest_says_so(shared_world, tmp_path):
    import json

    from conftest import fixlore_here

    world = shared_world(repos=3, closed_in_window=20, other_updated=5, old_issues=5)
    out = tmp_path / "out"
    proc = fixlore_here("run", "--world", str(world), "--out", str(out), "--quirks", "module_closed_late")
    assert proc.returncode == 6, proc.stderr
    assert "1 repo(s) could not be read" in proc.stderr and "Traceback" not in proc.stderr
    assert "HTTP 403 issue module is closed" in proc.stdout        # the end-of-run summary names it
    info = json.loads((out / "run.json").read_text())
    harvest_summary = next(s["summary"] for s in info["stages"] if s["name"] == "harvest")
    assert harvest_summary["repos_unreadable"] == 1
    (failure,) = harvest_summary["unreadable"]
    assert failure["status"] == "403" and failure["message"] == "issue module is closed"
    digest_en = next(out.rglob("*.en.md")).read_text()
    digest_zh = next(p for p in out.rglob("*.md") if not p.name.endswith(".en.md") and "digest" in p.name).read_text()
    assert f"1 of 3 repos could not be read: {failure['repo']} (HTTP 403 issue module is closed)" in digest_en
    assert f"1/3 仓未能读取：{failure['repo']}" in digest_zh


@pytest.mark.parametrize("quirk", ["closed_module", "module_closed_late"])
def test_a_run_with_a_repo_whose_issues_are_off_is_whole_and_the_digest_names_it(shared_world, tmp_path, quirk):
    """GitHub: a fork's issues are off by default (has_issues false; 410 Gone when switched off later). The
    run is whole (exit 0, not 6 "partial"); run.json and the digest name the repo, not among the repos read."""
    import json

    from conftest import fixlore_here

    world = shared_world(platform="github", repos=3, closed_in_window=20, other_updated=5, old_issues=5)
    out = tmp_path / "out"
    proc = fixlore_here("run", "--world", str(world), "--out", str(out), "--quirks", quirk)
    assert proc.returncode == 0, proc.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["status"] != "partial"
    harvest_summary = next(s["summary"] for s in info["stages"] if s["name"] == "harvest")
    assert harvest_summary["repos_unreadable"] == 0 and harvest_summary["unreadable"] == []
    (off,) = harvest_summary["repos_without_issues"]
    digest_en = next(out.rglob("*.en.md")).read_text()
    digest_zh = next(p for p in out.rglob("*.md") if not p.name.endswith(".en.md") and "digest" in p.name).read_text()
    assert f"1 of 3 repos have issues disabled: {off['repo']}" in digest_en
    assert f"1/3 仓未开启问题功能：{off['repo']}" in digest_zh
    assert "2 repositories," in digest_en and "2 仓，" in digest_zh


PAGING_QUIRKS = ["per_page_cap", "per_page_cap,no_totals", "repeat_page", "repeat_page,no_totals",
                 "commits_ignore_page", "commits_ignore_page,no_totals", "gitcode", "gitcode-no-totals"]


@pytest.mark.parametrize("strict", [None, *PAGING_QUIRKS])
def test_paging_quirks_lose_nothing(shared_world, tmp_path, strict):
    # 130 issues updated in a repo's window: three pages of 50 when per_page is capped.
    world = shared_world(repos=2, closed_in_window=200, other_updated=60, old_issues=120, seed=5)
    store, report, acc, refused, _ = harvest_world(world, f"sqlite:///{tmp_path / 'h.db'}", strict)
    stored = {(i.repo, i.number) for i in store.load_corpus().issues}
    assert window_issues(world, refused) <= stored
    assert report.unreadable == [] and {x["repo"] for x in report.without_issues} == refused   # has_issues false
    corpus = store.load_corpus()
    truth = loaded(world)
    detailed = {p for p in {(c.repo, c.pull_number) for c in corpus.commits}}
    assert detailed, "no PR detailed: the test would prove nothing"
    want = {(c.repo, c.pull_number, c.sha) for c in truth.commits if (c.repo, c.pull_number) in detailed}
    assert {(c.repo, c.pull_number, c.sha) for c in corpus.commits} == want
    # Nothing was paged to the cap: at most a few requests per listed page.
    assert acc.total < 2000


def test_repeated_pages_from_faults_lose_nothing(shared_world, tmp_path):
    world = shared_world(repos=1, closed_in_window=130, other_updated=30, old_issues=20, seed=7)   # 160 in one list
    clean, _, _, _, _ = harvest_world(world, f"sqlite:///{tmp_path / 'clean.db'}")
    db = f"sqlite:///{tmp_path / 'faulty.db'}"
    meta = read_world_meta(world)
    store = Store.open(db)
    every = ",".join(f"repeat-page@{n}" for n in range(1, 1000))    # every later page: twice repeated, then clean
    with ReplayServer(world, faults=every) as srv:
        client = ApiClient(srv.base_url, meta["platform"], cache=store.http_cache(), rate_limit=False)
        report = harvest(store, make_source(meta["platform"], client), meta["orgs"],
                         parse_time(meta["window"]["since"]))
        client.close()
        assert srv.stats()["faults_injected"].get("repeat-page", 0) > 0
    assert report.unreadable == []
    assert store.canonical_dump() == clean.canonical_dump()


@pytest.mark.parametrize("platform", ["gitcode", "github"])
@pytest.mark.parametrize("strict", [None, "sort_ignored", "order_ignored", "order_ignored,per_page_cap"])
def test_order_is_proven_before_stopping_early(shared_world, tmp_path, platform, strict):
    if platform == "github" and strict == "sort_ignored":
        pytest.skip("a GitCode quirk")
    world = shared_world(platform=platform, repos=2, closed_in_window=150, other_updated=60, old_issues=150, seed=9)
    store, report, acc, _, _ = harvest_world(world, f"sqlite:///{tmp_path / 'h.db'}", strict)
    stored = {(i.repo, i.number) for i in store.load_corpus().issues}
    assert window_issues(world) <= stored
    since = parse_time(read_world_meta(world)["window"]["since"])
    in_window_pulls = {(p.repo, p.number) for p in loaded(world).pulls
                       if p.updated_at >= since - __import__("datetime").timedelta(days=60)}
    assert in_window_pulls <= {(p.repo, p.number) for p in store.load_corpus().pulls}


def test_an_unsorted_list_is_filtered_by_the_server_or_walked_to_the_end(shared_world, tmp_path):
    world = shared_world(repos=1, closed_in_window=60, other_updated=30, old_issues=400, seed=9)
    ep = "/repos/{owner}/{repo}/issues"
    asked = {}
    for quirks in ("sort_ignored", "order_ignored", "order_ignored,filter_ignored"):
        store, _, acc, _, _ = harvest_world(world, f"sqlite:///{tmp_path / (quirks + '.db')}", quirks)
        assert window_issues(world) <= {(i.repo, i.number) for i in store.load_corpus().issues}
        asked[quirks] = acc.by_endpoint[ep]
    # Sorted: stops at the window. Unsorted: one page to see it, then the filtered list (one page here).
    assert asked["sort_ignored"] <= 2 and asked["order_ignored"] <= asked["sort_ignored"] + 1
    # Neither sort nor filter honoured: 490 issues, 100 a page, walked to the end (and the filtered pass again).
    assert asked["order_ignored,filter_ignored"] >= 5 + 1


BUNDLED = Path(__file__).resolve().parents[1] / "worlds"


def _cases(out: Path) -> dict[str, dict]:
    import json

    return {f"{c['repo']}#{c['number']}": c for c in map(json.loads, (out / "cases.jsonl").read_text().splitlines())}


def test_merged_prs_served_as_closed_with_merged_at_still_count_and_say_so(tmp_path):
    from fixlore.pipeline import RunRequest, run_pipeline

    stages = ()                         # the whole pipeline: cases.jsonl is its export
    run_pipeline(RunRequest(world=BUNDLED / "demo", out=tmp_path / "plain", stage_names=stages))
    run_pipeline(RunRequest(world=BUNDLED / "demo", out=tmp_path / "strict", stage_names=stages,
                            strict="merged_as_closed"))
    plain, strict = _cases(tmp_path / "plain"), _cases(tmp_path / "strict")
    fixes = lambda c: sorted((f["repo"], f["number"], f["role"]) for f in c["fix"])  # noqa: E731
    assert {k: fixes(c) for k, c in strict.items()} == {k: fixes(c) for k, c in plain.items()}
    assert {k: c["traps"] for k, c in strict.items()} == {k: c["traps"] for k, c in plain.items()}
    closed_fixes = [(k, f) for k, c in strict.items() for f in c["fix"] if f["state"] == "closed"]
    assert closed_fixes, "the quirk changed no fix PR: the test would prove nothing"
    for key, fix in closed_fixes:
        assert fix["merged_at"]
        assert any("the PR reads closed, merged_at is set" in e["detail"] for e in strict[key]["evidence"])


def test_close_events_under_other_names_are_recognised_and_reported(tmp_path):
    world = BUNDLED / "demo"
    plain, _, _, _, _ = harvest_world(world, f"sqlite:///{tmp_path / 'a.db'}")
    strict, report, _, _, _ = harvest_world(world, f"sqlite:///{tmp_path / 'b.db'}", "close_actions")

    def closes(store):
        return {(e.repo, e.parent_number, e.actor, e.created_at) for e in store.load_corpus().events
                if e.parent_kind == "issue" and e.action == "closed"}

    assert closes(plain) and closes(strict) == closes(plain)
    signals = {e.detail.get("close_signal") for e in strict.load_corpus().events if e.action == "closed"}
    assert {"text", "finished_at"} <= signals
    # What a live run would tell us it saw: the unknown names, counted; known ones are not listed.
    assert report.unknown_actions and set(report.unknown_actions) <= {"issue_close", "update_state", "state_change"}


def test_github_secondary_limits_are_waited_out_never_retried_early(shared_world, tmp_path):
    world = shared_world(platform="github", repos=3, closed_in_window=30, other_updated=10, old_issues=10)
    meta = read_world_meta(world)
    store = Store.open(f"sqlite:///{tmp_path / 'h.db'}")
    scale = 3000.0                      # a minute lasts 20 ms: the test waits, but not for real minutes
    with ReplayServer(world, strict="secondary_limit", time_scale=scale) as srv:
        client = ApiClient(srv.base_url, "github", cache=store.http_cache(), rate_limit=False, time_scale=scale)
        report = harvest(store, make_source("github", client), meta["orgs"], parse_time(meta["window"]["since"]))
        client.close()
        refused = srv.stats()["by_status"].get("403", 0)
        too_soon = srv.quirks.retried_too_soon
    assert refused > 0 and too_soon == 0
    assert report.unreadable == []
    assert window_issues(world) <= {(i.repo, i.number) for i in store.load_corpus().issues}


def test_a_live_run_stores_in_out_warns_without_token_and_reads_bare_dates_in_the_platform_zone(shared_world, tmp_path,
                                                                                               monkeypatch):
    import json

    from conftest import fixlore_here

    world = shared_world(repos=2, closed_in_window=10, other_updated=3, old_issues=3)
    out = tmp_path / "live"
    monkeypatch.chdir(tmp_path)
    with ReplayServer(world, strict=True) as srv:
        proc = fixlore_here("run", "--platform", "gitcode", "--base-url", srv.base_url, "--org", "acme", "--org", "beta",
                            "--since", "2026-09-17", "--out", str(out), "--no-rate-limit", "--quiet",
                            env={"GITCODE_TOKEN": None, "GITHUB_TOKEN": None})
        first_request_seen = srv.stats()["total"] > 0
    # the strict server's repo with issues off (has_issues false) is named, not unreadable: no exit 6
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("warning: no API token ($GITCODE_TOKEN")   # said before anything else
    assert first_request_seen and (out / "fixlore.db").is_file() and not (tmp_path / "fixlore.db").exists()
    info = json.loads((out / "run.json").read_text())
    assert info["window"]["since"] == "2026-09-17T00:00:00+08:00"
    assert info["settings"]["db"].endswith("live/fixlore.db")


@pytest.mark.parametrize("raw,platform,expected", [
    ("2026-09-17", "gitcode", "2026-09-17T00:00:00+08:00"),
    ("2026-09-17T08:30:00", "gitcode", "2026-09-17T08:30:00+08:00"),
    ("2026-09-17", "github", "2026-09-17T00:00:00+00:00"),
    ("2026-09-17T00:00:00+08:00", "github", "2026-09-17T00:00:00+08:00"),
    ("2026-09-17T00:00:00Z", "gitcode", "2026-09-17T00:00:00+00:00"),
])
def test_bare_dates_mean_the_platform_zone(raw, platform, expected):
    from fixlore.settings.config import SettingFlags, load_settings

    settings = load_settings(None, SettingFlags(platform=platform, since=raw))
    assert settings.since.isoformat() == expected


@pytest.mark.parametrize("platform,strict", [("gitcode", None), ("gitcode", "gitcode"), ("gitcode", "gitcode-no-totals"),
                                             ("github", None), ("github", "github")])
def test_every_readable_repo_is_harvested_whole_under_each_named_quirk_set(shared_world, tmp_path, platform, strict):
    """The acceptance in one test: every in-window issue of every readable repo, its pool details, the
    repo with issues off named; against the default replay and each platform's strict set."""
    from fixlore.rules.funnel import cheap_funnel

    world = shared_world(platform=platform, repos=4, closed_in_window=160, other_updated=40, old_issues=80, seed=13)
    store, report, acc, refused, stats = harvest_world(world, f"sqlite:///{tmp_path / 'h.db'}", strict,
                                                       time_scale=3000.0)
    assert bool(refused) == bool(strict)
    corpus = store.load_corpus()
    expected = window_issues(world, refused)
    assert expected <= {(i.repo, i.number) for i in corpus.issues}
    since = parse_time(read_world_meta(world)["window"]["since"])
    window = [i for i in loaded(world).issues if (i.repo, i.number) in expected]
    verdicts = cheap_funnel(window, since)
    pool = {(i.repo, i.number) for i in window if verdicts[i.key] == "pool"}
    detailed = {(repo, n) for repo in {r for r, _ in pool}
                for n, b in store.issue_bookkeeping(repo).items() if b["details_for"] is not None}
    assert pool and pool <= detailed
    assert report.unreadable == []               # the refused repo's listing says has_issues false: named
    assert [x["repo"] for x in report.without_issues] == sorted(refused)


def test_github_issue_list_whose_order_cannot_be_proven_is_asked_again_with_since(shared_world, tmp_path):
    """GitHub documents ``since`` on the issue list (not on the pull list): when the list comes in
    creation order whatever is asked, the harvester asks it filtered rather than walking every page."""
    from fixlore.replay.strict import NAMED, Quirks
    from fixlore.edges.summary import summary_lines

    world = shared_world(platform="github", repos=2, closed_in_window=20, other_updated=5, old_issues=400)
    meta = read_world_meta(world)
    since = parse_time(meta["window"]["since"])
    lists: dict[str, int] = {}
    for label, extra in (("since honoured", set()), ("since ignored too", {"filter_ignored"})):
        quirks = Quirks(frozenset(NAMED["github"] - {"closed_module", "secondary_limit"}) | {"order_ignored"} | extra)
        store = Store.open(f"sqlite:///{tmp_path / (label.replace(' ', '_') + '.db')}")
        with ReplayServer(world, strict=quirks) as srv:
            client = ApiClient(srv.base_url, "github", cache=store.http_cache(), rate_limit=False)
            source = make_source("github", client)
            report = harvest(store, source, meta["orgs"], since)
            client.close()
            lists[label] = srv.stats()["by_endpoint"]["GET /repos/{owner}/{repo}/issues"]
        # run.json's harvest summary tallies them, and the end-of-run summary says what was done.
        summary = report.as_dict()
        assert summary["unsorted_lists"] == len(source.unsorted) == len(summary["unsorted"])
        rows = dict(summary_lines({"stages": [{"name": "harvest", "summary": summary}]}))
        walked = sum(1 for _, how in source.unsorted if how == "walked")
        parts = [f"{len(source.unsorted) - walked} asked again with since"] + (
            [f"{walked} walked to the end"] if walked else [])
        assert rows["lists in unproven order"] == f"{len(source.unsorted)} ({', '.join(parts)})"
        stored = {(i.repo, i.number) for i in store.load_corpus().issues}
        assert window_issues(world) <= stored, label
        repos = sorted({i.repo for i in loaded(world).issues})
        assert sorted(x for x in source.unsorted if x[0].endswith("/issues")) == [
            (f"/repos/{r}/issues", "since") for r in repos], label
        # No `since` on GitHub's pull list: an unproven one is walked, and said so.
        assert all(how == "walked" for path, how in source.unsorted if path.endswith("/pulls")), label
        store.close()
    # With the filter honoured the second walk is the window's few pages; ignored, it is the whole list again.
    assert lists["since honoured"] < lists["since ignored too"]
