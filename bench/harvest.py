"""Benchmark: what a harvest costs in API requests, funnel-first versus naive.

    .venv/bin/python bench/harvest.py                 # worlds/ascend-2026-09, or a synthetic world of its shape
    .venv/bin/python bench/harvest.py --synthetic     # force the synthetic world
    .venv/bin/python bench/harvest.py --time-scale 120
    .venv/bin/python bench/harvest.py --strict        # also what the strict replay's quirk sets cost
    .venv/bin/python bench/harvest.py --clients       # github-mini: fixlore beside Perceval's GitHub backend

Rate limiting is on at both ends (the replay server enforces GitCode's 50/min and 4000/h,
the client paces itself), with time compressed by --time-scale so the run takes minutes.
Prints requests used, requests per pool issue, hours of GitCode quota (4000/h) implied, the
same for the naive harvester (every window issue's details), their ratio, and the cost of a
no-change re-run per repo. With --strict, the same for the replay's strict quirk sets (the
platform as documented/observed: per_page capped at 50, repeated pages, sort only by order_by,
one repo refused, ...; see fixlore/replay/strict.py), first run and re-run.

``--clients`` replays worlds/github-mini instead and runs fixlore and Perceval's GitHub backend
(unmodified, a test dependency) against it, twice each: requests per run, and how many of the
world's truth fixes each one's data lets fixlore's linker show (Perceval's items are turned
into fixlore's model with the same normalisers fixlore uses; Perceval fetches no timeline,
no files and only the SHAs of commits).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

from fixlore.core import model as m
from fixlore.core.timeutil import parse_time
from fixlore.harvest import harvest
from fixlore.link.build import build_cases
from fixlore.replay.server import ReplayServer
from fixlore.replay.world import World
from fixlore.sources import make_source
from fixlore.sources.http import ApiClient
from fixlore.sources.offline import read_world_meta
from fixlore.sources.synthetic import WorldShape, write_world
from fixlore.store import Store

ROOT = Path(__file__).resolve().parents[1]
ASCEND = ROOT / "worlds" / "ascend-2026-09"
GITHUB_MINI = ROOT / "worlds" / "github-mini"
QUOTA_PER_HOUR = 4000


def pick_world(force_synthetic: bool, tmp: Path) -> tuple[Path, str]:
    if not force_synthetic and (ASCEND / "world.yaml").is_file() and any((ASCEND / "repos").glob("*/*/repo.json")):
        # A private copy: every run of the bench then sees the same world, even if it is regenerated meanwhile.
        copy = tmp / "ascend-2026-09"
        # Leave out the world's own docs/ folder only: repos named "docs" (Ascend/docs, cann/docs) stay.
        shutil.copytree(ASCEND, copy, ignore=lambda folder, names: ["docs"] if Path(folder) == ASCEND else [])
        return copy, "worlds/ascend-2026-09 (copied)"
    shape = WorldShape(orgs=("cann", "Ascend"), repos=187, closed_in_window=1019, other_updated=300,
                       old_issues=1500, seed=20260921)
    return write_world(tmp / "synthetic", shape), "synthetic (187 repos, 1019 closed in window)"


def one_harvest(world: Path, db: str, time_scale: float, naive: bool = False, strict: str | None = None) -> dict:
    meta = read_world_meta(world)
    since = parse_time(meta["window"]["since"])
    store = Store.open(db)
    with ReplayServer(world, rate_limit=True, time_scale=time_scale, strict=strict) as srv:
        client = ApiClient(srv.base_url, meta["platform"], cache=store.http_cache(), rate_limit=True,
                           time_scale=time_scale)
        start = time.perf_counter()
        report = harvest(store, make_source(meta["platform"], client), meta["orgs"], since, naive=naive)
        seconds = time.perf_counter() - start
        client.close()
        server = srv.stats()
    store.close()
    return {"report": report, "requests": client.accounting.total, "server": server, "seconds": seconds,
            "by_endpoint": dict(client.accounting.by_endpoint), "limiter_slept": client.limiter.slept}


def truth_fixes(world: Path) -> set[tuple[str, int, str, int]]:
    """(issue repo, issue number, PR repo, PR number) of every fix the world's truth names."""
    truth = World(world).truth() or {}
    return {(e["repo"], int(e["number"]), f["repo"], int(f["number"]))
            for e in truth.get("issues") or [] for f in e.get("fix") or []}


def fixes_shown(corpus: m.Corpus, since: datetime, truth: set[tuple[str, int, str, int]]) -> int:
    cases, _ = build_cases(corpus, since, {"conclude_all": True})
    found = {(c.repo, c.number, f.repo, f.number) for c in cases for f in c.fix}
    return len(found & truth)


def fixlore_client_run(world: Path, db: str) -> tuple[int, m.Corpus]:
    meta = read_world_meta(world)
    store = Store.open(db)
    with ReplayServer(world) as srv:
        client = ApiClient(srv.base_url, meta["platform"], cache=store.http_cache())
        harvest(store, make_source(meta["platform"], client), meta["orgs"], parse_time(meta["window"]["since"]))
        client.close()
        requests = srv.stats()["total"]
    corpus = store.load_corpus()
    store.close()
    return requests, corpus


def perceval_run(world: Path) -> tuple[int, m.Corpus]:
    """Perceval's GitHub backend over every repo of the world, both categories, as its CLI would run it."""
    from perceval.backends.core.github import GitHub, GitHubClient

    def fresh() -> None:
        # The CLI runs one repo and category per process; in one process the class-level caches of
        # people would carry over and hide those lookups.
        GitHubClient._users.clear()
        GitHubClient._users_orgs.clear()

    from fixlore.sources import github as gh

    corpus = m.Corpus(platform="github")
    w = World(world)
    with ReplayServer(world) as srv:
        base = f"http://{srv.host}:{srv.port}"   # Perceval appends /api/v3 (GitHub Enterprise)
        for owner, name in w.repos():
            full = f"{owner}/{name}"
            corpus.repos.append(m.Repo(platform="github", full_name=full, owner=owner, name=name))
            fresh()
            for item in GitHub(owner=owner, repository=name, api_token=["bench"], base_url=base,
                               sleep_time=0).fetch(category="issue"):
                raw = item["data"]
                if "pull_request" in raw:
                    continue
                corpus.issues.append(gh.normalize_issue(raw, full))
                corpus.comments.extend(gh.normalize_comment(c, full, "issue", raw["number"])
                                       for c in raw.get("comments_data") or [])
            fresh()
            for item in GitHub(owner=owner, repository=name, api_token=["bench"], base_url=base,
                               sleep_time=0).fetch(category="pull_request"):
                raw = item["data"]
                corpus.pulls.append(gh.normalize_pull(raw, full))
                corpus.commits.extend(m.Commit(repo=full, pull_number=raw["number"], sha=sha, message="")
                                      for sha in raw.get("commits_data") or [])
        requests = srv.stats()["total"]
    return requests, corpus


def compare_clients(console: Console) -> int:
    world = GITHUB_MINI
    since = parse_time(read_world_meta(world)["window"]["since"])
    truth = truth_fixes(world)
    with tempfile.TemporaryDirectory(prefix="fixlore-bench-") as tmp_name:
        db = f"sqlite:///{Path(tmp_name) / 'fixlore.db'}"
        first, corpus = fixlore_client_run(world, db)
        again, _ = fixlore_client_run(world, db)
    p_first, p_corpus = perceval_run(world)
    p_again, _ = perceval_run(world)
    table = Table(title=f"clients on {world.name} (replayed on loopback)")
    for col in ("client", "requests, first run", "requests, re-run", "issues", "PRs",
                f"truth fixes shown (of {len(truth)})"):
        table.add_column(col, justify="left" if col == "client" else "right")
    table.add_row("fixlore", str(first), str(again), str(len(corpus.issues)), str(len(corpus.pulls)),
                  str(fixes_shown(corpus, since, truth)))
    table.add_row("Perceval GitHub backend", str(p_first), str(p_again), str(len(p_corpus.issues)),
                  str(len(p_corpus.pulls)), str(fixes_shown(p_corpus, since, truth)))
    console.print(table)
    console.print("fixlore lists issues updated in the window and details only the funnel's pool, then re-runs on "
                  "ETags; Perceval fetches every issue's comments, every PR with its commits and reviews, and each "
                  "person, on every run.")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", action="store_true", help="use a synthetic world of the Ascend shape")
    parser.add_argument("--time-scale", type=float, default=60.0, help="quota time compression (default 60)")
    parser.add_argument("--skip-naive", action="store_true")
    parser.add_argument("--strict", action="store_true", help="also run the strict replay's quirk sets")
    parser.add_argument("--clients", action="store_true", help="fixlore beside Perceval on worlds/github-mini")
    args = parser.parse_args(argv)
    console = Console(width=120)
    if args.clients:
        return compare_clients(console)
    with tempfile.TemporaryDirectory(prefix="fixlore-bench-") as tmp_name:
        tmp = Path(tmp_name)
        world, label = pick_world(args.synthetic, tmp)
        console.print(f"world: {label}; rate limits on, time scale x{args.time_scale:g}")
        smart = one_harvest(world, f"sqlite:///{tmp / 'smart.db'}", args.time_scale)
        rerun = one_harvest(world, f"sqlite:///{tmp / 'smart.db'}", args.time_scale)
        naive = None if args.skip_naive else one_harvest(world, f"sqlite:///{tmp / 'naive.db'}", args.time_scale,
                                                         naive=True)
        strict_runs = []
        if args.strict:
            from fixlore.sources.offline import read_world_meta as _meta

            for name in ("gitcode", "gitcode-no-totals") if _meta(world)["platform"] == "gitcode" else ("github",):
                db = f"sqlite:///{tmp / f'strict-{name}.db'}"
                strict_runs.append((name, one_harvest(world, db, args.time_scale, strict=name),
                                    one_harvest(world, db, args.time_scale, strict=name)))
    rep = smart["report"]
    pool = rep.funnel.get("pool", 0)
    table = Table(title="harvest cost")
    for col in ("mode", "requests", "429s", "issues detailed", "PRs detailed", "req / pool issue",
                "quota hours (4000/h)", "wall s"):
        table.add_column(col, justify="right" if col != "mode" else "left")

    def row(name: str, run: dict) -> None:
        r = run["report"]
        table.add_row(name, str(run["requests"]), str(run["server"]["by_status"].get("429", 0)),
                      str(r.issues_detailed), str(r.pulls_detailed),
                      f"{run['requests'] / max(pool, 1):.2f}", f"{run['requests'] / QUOTA_PER_HOUR:.2f}",
                      f"{run['seconds']:.0f}")

    row("funnel-first", smart)
    if naive:
        row("naive", naive)
    row("no-change re-run", rerun)
    for name, first, again in strict_runs:
        row(f"strict {name}", first)
        row(f"strict {name} re-run", again)
    console.print(table)
    for name, first, again in strict_runs:
        r = first["report"]
        console.print(f"strict {name}: {first['requests']} requests = {first['requests'] / max(smart['requests'], 1):.2f}x "
                      f"the default mode; {r.repos_unreadable} repo(s) unreadable "
                      f"({', '.join(sorted({f['repo'] for f in r.unreadable}))}); issues listed {r.issues_listed} "
                      f"(default {rep.issues_listed}); re-run {again['requests']} requests "
                      f"(by endpoint: {again['by_endpoint']})")
    console.print(f"repos {rep.repos}; issues in window {rep.issues_in_window}; pool {pool}; "
                  f"funnel {dict(sorted(rep.funnel.items()))}")
    if naive:
        console.print(f"naive / funnel-first requests: {naive['requests'] / max(smart['requests'], 1):.2f}x")
    console.print(f"no-change re-run: {rerun['requests']} requests = {rerun['requests'] / max(rep.repos, 1):.3f} "
                  f"per repo (by endpoint: {rerun['by_endpoint']})")
    list_requests = rerun["by_endpoint"].get("/repos/{owner}/{repo}/issues", 0)
    ok = smart["requests"] <= QUOTA_PER_HOUR and list_requests <= rep.repos and set(rerun["by_endpoint"]) <= {
        "/orgs/{org}/repos", "/repos/{owner}/{repo}/issues"}
    console.print(f"goal (increment <= 4000 requests, re-run <= 1 list request per repo + org listing): "
                  f"{'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
