"""The harvester against the real loopback replay server, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fixlore.rules.funnel import cheap_funnel
from fixlore.harvest import harvest
from fixlore.replay.server import ReplayServer
from fixlore.sources import make_source
from fixlore.sources.http import ApiClient
from fixlore.sources.offline import load_world, read_world_meta
from fixlore.store import Store
from fixlore.core.timeutil import parse_time

DETAIL_ENDPOINTS = ("/issues/{number}/comments", "/issues/{number}/operate_logs", "/issues/{number}/timeline",
                    "/issues/{number}/pull_requests", "/pulls/{number}/files", "/pulls/{number}/commits",
                    "/pulls/{number}/issues", "/pulls/{number}/operate_logs", "/pulls/{number}")


def run_harvest(world: Path, db_url: str, server: ReplayServer | None = None, **client_kw):
    meta = read_world_meta(world)
    since = parse_time(meta["window"]["since"])
    store = Store.open(db_url)
    own = server is None
    srv = server or ReplayServer(world).start()
    try:
        client_kw.setdefault("rate_limit", False)
        client = ApiClient(srv.base_url, meta["platform"], cache=store.http_cache(), **client_kw)
        report = harvest(store, make_source(meta["platform"], client), meta["orgs"], since)
        client.close()
    finally:
        if own:
            srv.stop()
    return store, report, client.accounting


class Expected:
    """What a correct harvest of a world holds, computed from the world files independently."""

    def __init__(self, world: Path):
        meta = read_world_meta(world)
        self.platform = meta["platform"]
        self.since = parse_time(meta["window"]["since"])
        corpus = load_world(world)
        self.corpus = corpus
        self.window = [i for i in corpus.issues if i.updated_at >= self.since]
        verdicts = cheap_funnel(self.window, self.since)
        self.pool = {(i.repo, i.number) for i in self.window if verdicts[i.key] == "pool"}
        self.pool_comments = {(c.repo, c.parent_number, c.id) for c in corpus.comments
                              if c.parent_kind == "issue" and (c.repo, c.parent_number) in self.pool}
        self.pool_events = {(e.repo, e.parent_number) for e in corpus.events
                            if e.parent_kind == "issue" and (e.repo, e.parent_number) in self.pool}
        self.candidate_pulls = self._candidates()

    def _candidates(self) -> set[tuple[str, int]]:
        found = set()
        for link in self.corpus.links:
            if (link.issue_repo, link.issue_number) in self.pool:
                found.add((link.pull_repo, link.pull_number))
        for pull in self.corpus.pulls:
            text = f"{pull.title}\n{pull.body}"
            for repo, n in self.pool:
                if repo != pull.repo:
                    continue
                if (re.search(rf"(?:#|/issues/){n}(?!\d)", text) or pull.head_ref == f"bugfix/issue{n}"):
                    found.add((pull.repo, pull.number))
        cite = "!" if self.platform == "gitcode" else "#"
        pulls = {(p.repo, p.number) for p in self.corpus.pulls}
        for c in self.corpus.comments:
            if c.parent_kind == "issue" and (c.repo, c.parent_number) in self.pool:
                for n in re.findall(rf"{cite}(\d+)", c.body):
                    if (c.repo, int(n)) in pulls:
                        found.add((c.repo, int(n)))
        return found


def detail_requests(accounting) -> int:
    return sum(n for ep, n in accounting.by_endpoint.items() if ep.endswith(DETAIL_ENDPOINTS))


@pytest.mark.parametrize("platform", ["gitcode", "github"])
def test_harvest_holds_exactly_what_it_should(make_world, db_url, platform):
    world = make_world(platform=platform, repos=5, closed_in_window=45, other_updated=15, old_issues=40)
    exp = Expected(world)
    store, report, acc = run_harvest(world, db_url)
    corpus = store.load_corpus()
    assert {(i.repo, i.number) for i in corpus.issues} == {(i.repo, i.number) for i in exp.window}
    assert len(corpus.repos) == 5 and report.issues_detailed == len(exp.pool)
    assert {(c.repo, c.parent_number, c.id) for c in corpus.comments if c.parent_kind == "issue"} == exp.pool_comments
    assert {(e.repo, e.parent_number) for e in corpus.events if e.parent_kind == "issue"} == exp.pool_events
    detailed = {(p.repo, p.number) for p in corpus.pulls if (p.repo, p.number) in {
        (f.repo, f.pull_number) for f in corpus.files}}
    same_repo = {k for k in detailed if any(k[0] == r for r, _ in exp.pool)}
    assert exp.candidate_pulls <= detailed
    assert same_repo <= exp.candidate_pulls | {k for k in detailed if k not in exp.candidate_pulls
                                               and _cited_cross_repo(corpus, k)}
    # No detail was fetched for an issue outside the pool.
    by_ep = acc.by_endpoint
    comments_ep = "/repos/{owner}/{repo}/issues/{number}/comments"
    # on GitHub a detailed PR's conversation is read under its issue number too
    conversations = report.pulls_detailed if platform == "github" else 0
    assert by_ep.get(comments_ep, 0) == len(exp.pool) + conversations
    assert report.funnel.get("pool") == len(exp.pool)


def _cited_cross_repo(corpus, key) -> bool:
    repo, number = key
    return any(p.repo != repo and re.search(rf"{re.escape(repo)}/(?:merge_requests|pull)/{number}(?!\d)", p.body)
               for p in corpus.pulls)


def test_no_change_rerun_costs_one_list_request_per_repo(make_world, db_url):
    world = make_world(repos=6, closed_in_window=60, other_updated=20, old_issues=30)
    store, _, _ = run_harvest(world, db_url)
    before = store.canonical_dump()
    store2, report, acc = run_harvest(world, db_url)
    assert acc.by_endpoint["/repos/{owner}/{repo}/issues"] <= 6
    assert set(acc.by_endpoint) == {"/orgs/{org}/repos", "/repos/{owner}/{repo}/issues"}
    assert detail_requests(acc) == 0 and report.issues_detailed == 0
    assert store2.canonical_dump() == before


def test_changed_issues_get_details_again_and_nothing_else(make_world, tmp_path):
    world = make_world(repos=4, closed_in_window=40, other_updated=10, old_issues=10)
    exp = Expected(world)
    db = f"sqlite:///{tmp_path / 'h.db'}"
    with ReplayServer(world) as srv:
        run_harvest(world, db, server=srv)
        changed = sorted(exp.pool)[:3]
        for repo, number in changed:
            owner, name = repo.split("/")
            path = world / "repos" / owner / name / "issues" / f"{number}.json"
            obj = json.loads(path.read_text())
            obj["updated_at"] = "2026-09-20T23:00:00+08:00"
            path.write_text(json.dumps(obj))
            cpath = path.with_name(f"{number}.comments.json")
            comments = json.loads(cpath.read_text()) if cpath.exists() else []
            comments.append({"id": 777000 + number, "body": "still broken?", "user": {"login": "late"},
                             "created_at": "2026-09-20T23:00:00+08:00"})
            cpath.write_text(json.dumps(comments))
        srv.reload()
        store, report, acc = run_harvest(world, db, server=srv)
    assert report.issues_detailed == 3
    assert acc.by_endpoint["/repos/{owner}/{repo}/issues/{number}/comments"] == 3
    assert not any(ep.startswith("/repos/{owner}/{repo}/pulls/{number}") for ep in acc.by_endpoint)
    late = {(c.repo, c.parent_number) for c in store.load_corpus().comments if c.author == "late"}
    assert late == set(changed)


def test_faults_leave_the_same_store_as_a_clean_run(make_world, tmp_path):
    world = make_world(repos=4, closed_in_window=50, other_updated=10, old_issues=20, seed=11)
    clean, _, _ = run_harvest(world, f"sqlite:///{tmp_path / 'clean.db'}")
    faults = "429:0.05,429-retry-after:0.03,500:0.02,502:0.02,503:0.02,stall:0.01,cutoff:0.03,malformed:0.03,repeat-page:0.05"
    with ReplayServer(world, faults=faults, fault_seed=3, stall_seconds=1.5) as srv:
        # time_scale 20: a Retry-After of 1 s waits 1/20 s (3% of the requests ask for one)
        faulty, _, acc = run_harvest(world, f"sqlite:///{tmp_path / 'faulty.db'}", server=srv, read_timeout=0.5,
                                     backoff_base=0.01, backoff_max=0.05, time_scale=20.0)
        injected = srv.stats()["faults_injected"]
    assert sum(injected.values()) > 5 and acc.retries > 0
    assert faulty.canonical_dump() == clean.canonical_dump()


BUNDLED = Path(__file__).resolve().parents[1] / "worlds"


@pytest.mark.parametrize("name", ["demo", "github-mini"])
def test_bundled_world_fix_prs_of_pool_issues_are_fetched(name, tmp_path):
    import yaml

    world = BUNDLED / name
    if not (world / "world.yaml").is_file():
        pytest.skip(f"worlds/{name} is not in this checkout")
    exp = Expected(world)
    store, report, _ = run_harvest(world, f"sqlite:///{tmp_path / 'b.db'}")
    corpus = store.load_corpus()
    assert {(i.repo, i.number) for i in corpus.issues} == {(i.repo, i.number) for i in exp.window}
    detailed = {(f.repo, f.pull_number) for f in corpus.files} | {(c.repo, c.pull_number) for c in corpus.commits}
    truth = yaml.safe_load((world / "truth.yaml").read_text(encoding="utf-8"))
    wanted = {(f["repo"], f["number"]) for item in truth["issues"] if (item["repo"], item["number"]) in exp.pool
              for f in item.get("fix") or []}
    assert wanted and wanted <= detailed
