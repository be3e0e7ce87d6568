"""`--reconcile`: an issue deleted on the platform between two runs and not updated since the watermark is asked
about only when the listing starts again at the window start (docs/harvest.md, "Deleted between two runs").

Real components: the loopback replay server over a synthetic world (a folder of JSON files), the platform
client and source, one SQLite store harvested twice. Between the runs one issue's files are removed from the
world, so the second listing no longer carries it and the server answers 404 for it by number."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixlore.core.timeutil import parse_time
from fixlore.harvest.harvester import harvest
from fixlore.replay.server import ReplayServer
from fixlore.sources.offline import read_world_meta
from fixlore.sources import make_source
from fixlore.sources.http import ApiClient
from fixlore.store import Store


def _harvest(world: Path, store: Store, *, reconcile: bool = False, faults: str = ""):
    meta = read_world_meta(world)
    with ReplayServer(world, faults=faults or None, fault_seed=5) as srv:
        client = ApiClient(srv.base_url, meta["platform"], cache=store.http_cache(), rate_limit=False,
                           backoff_base=0.01, backoff_max=0.05)
        report = harvest(store, make_source(meta["platform"], client), meta["orgs"],
                         parse_time(meta["window"]["since"]), reconcile=reconcile)
        client.close()
    return report


def _delete_from_world(world: Path, store: Store) -> tuple[str, int]:
    """Remove from the world an issue of the window that is not its repo's newest (so a plain re-run's
    listing, bounded by the watermark, never reaches it); return it."""
    since = parse_time(read_world_meta(world)["window"]["since"])
    picks = []
    for repo in sorted({i.repo for i in store.issues()}):
        issues = store.issues([repo], since)
        newest = max(i.updated_at for i in issues)
        picks += [(repo, i.number) for i in issues if i.updated_at < newest]
    repo, number = min(picks)
    folder = world / "repos" / repo / "issues"
    files = [folder / f"{number}.json", *folder.glob(f"{number}.*.json")]
    assert files[0].is_file()
    for path in files:
        path.unlink()
    return repo, number


def _live(store: Store) -> set[tuple[str, int]]:
    return {(i.repo, i.number) for i in store.load_corpus().issues}


@pytest.mark.parametrize("platform", ["gitcode", "github"])
def test_an_issue_deleted_between_runs_is_marked_only_by_a_reconcile(make_world, tmp_path, platform):
    world = make_world(platform=platform, repos=2, closed_in_window=20, other_updated=5, old_issues=5, seed=3)
    store = Store.open(f"sqlite:///{tmp_path / 'runs.db'}")
    first = _harvest(world, store)
    assert first.reconcile is None and "reconcile" not in first.as_dict()
    repo, number = _delete_from_world(world, store)
    in_window = len(store.issues(None, parse_time(read_world_meta(world)["window"]["since"])))

    # a plain re-run lists from the watermark: the old issue is never asked about (the documented gap)
    plain = _harvest(world, store)
    assert plain.issues_deleted == [] and (repo, number) in _live(store)

    # GitCode's transient whole-project "project not found" on every issue asked by number (the list reads):
    # the deleted issue's 404 is not believed, the control issue the listing carried 404s too
    owner, name = repo.split("/")
    faulty = _harvest(world, store, reconcile=True, faults=f"404=*/{owner}/{name}/issues/*")
    assert faulty.issues_deleted == [] and (repo, number) in _live(store)
    assert faulty.reconcile["issues_asked"] == 1

    # the reconcile lists the whole window again and marks it deleted
    before = _live(store)
    rec = _harvest(world, store, reconcile=True)
    assert rec.as_dict()["issues_deleted"] == [{"repo": repo, "number": number,
                                                "why": rec.issues_deleted[0]["why"]}]
    assert rec.issues_deleted[0]["why"].startswith("left the issue list; HTTP 404")
    assert rec.reconcile == {"repos": 2, "issues_checked": in_window, "issues_asked": 1}
    assert (repo, number) not in _live(store) and number not in store.issue_bookkeeping(repo)
    assert _live(store) == before - {(repo, number)}      # the rest stays

    # a later reconcile finds nothing more to mark
    again = _harvest(world, store, reconcile=True)
    assert again.issues_deleted == [] and again.reconcile["issues_asked"] == 0
    store.close()


def test_a_reconcile_whose_listing_breaks_off_marks_nothing(make_world, tmp_path):
    """Every issue-list page of the repo answers 500 (a permanent fault): the listing broke off, so its
    silence says nothing and the repo is not counted as reconciled."""
    world = make_world(platform="github", repos=2, closed_in_window=20, other_updated=5, old_issues=5, seed=3)
    store = Store.open(f"sqlite:///{tmp_path / 'runs.db'}")
    _harvest(world, store)
    repo, number = _delete_from_world(world, store)
    owner, name = repo.split("/")
    broken = _harvest(world, store, reconcile=True, faults=f"500=*/repos/{owner}/{name}/issues")
    assert broken.issues_deleted == [] and (repo, number) in _live(store)
    assert repo in {f["repo"] for f in broken.unreadable} and broken.reconcile["repos"] == 1
    store.close()


def test_fixlore_run_takes_the_reconcile_from_its_env_var_and_says_so_in_its_summary(make_world, tmp_path):
    """`fixlore run --stage harvest` twice into one run folder; the second with FIXLORE_RECONCILE=1 (the option's
    env var): run.json's harvest summary names the deleted issue and the reconcile, and so does the summary table."""
    import json

    from conftest import fixlore_here

    from fixlore.edges.summary import summary_lines

    world = make_world(platform="gitcode", repos=2, closed_in_window=20, other_updated=5, old_issues=5, seed=3)
    out = tmp_path / "out"
    args = ("run", "--world", str(world), "--out", str(out), "--stage", "harvest", "-q")
    assert fixlore_here(*args).returncode == 0
    info = json.loads((out / "run.json").read_text("utf-8"))
    assert not any(label.startswith("reconcile") for label, _ in summary_lines(info))
    store = Store.open(f"sqlite:///{out / 'fixlore.db'}")
    repo, number = _delete_from_world(world, store)
    store.close()
    proc = fixlore_here(*args, env={"FIXLORE_RECONCILE": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    info = json.loads((out / "run.json").read_text("utf-8"))
    harvest_summary = next(s["summary"] for s in info["stages"] if s["name"] == "harvest")
    assert [(d["repo"], d["number"]) for d in harvest_summary["issues_deleted"]] == [(repo, number)]
    assert harvest_summary["reconcile"]["repos"] == 2 and harvest_summary["reconcile"]["issues_asked"] == 1
    rows = dict(summary_lines(info))
    assert rows["issues deleted on the platform"] == f"{repo}#{number}"
    checked = harvest_summary["reconcile"]["issues_checked"]
    assert rows["reconcile (window listed again)"].startswith(f"{checked} stored issues checked in 2 repos")


def test_a_reconcile_pages_past_the_first_page_when_the_replay_has_moved_to_a_new_port(make_world, tmp_path):
    """Each `fixlore run --world` starts the replay on a new port. A listing's first page answers 304 from the
    ETag cache, whose Link header named the old port: before, page 2 went there (connection refused, the
    repo unreadable, the reconcile marking nothing, measured on 2 repos of 350 window issues). The cached
    Link now names the API root and is read against the current one."""
    world = make_world(platform="github", repos=2, closed_in_window=600, other_updated=100, old_issues=20, seed=3)
    store = Store.open(f"sqlite:///{tmp_path / 'runs.db'}")
    first = _harvest(world, store)
    assert first.issues_listed > 2 * 100              # more than one page per repo
    rec = _harvest(world, store, reconcile=True)      # another ReplayServer: another port
    assert rec.unreadable == [] and rec.reconcile["repos"] == 2
    assert rec.reconcile["issues_checked"] == rec.issues_listed == first.issues_listed
    store.close()


def test_series_publish_passes_the_reconcile_on_from_its_flag_and_its_env_var(monkeypatch, tmp_path):
    """`fixlore series publish` takes --reconcile / FIXLORE_RECONCILE as `fixlore run --series` does."""
    from typer.testing import CliRunner

    import fixlore.series.publish as publish
    from fixlore.cli.commands import app

    seen = []
    monkeypatch.setattr(publish, "publish_edition", lambda name, **kw: seen.append(kw["reconcile"]) or {"ok": True})
    world = tmp_path / "w"
    world.mkdir()
    for args, env in ((["--reconcile"], {}), ([], {"FIXLORE_RECONCILE": "1"}), ([], {})):
        result = CliRunner().invoke(app, ["series", "publish", "s", "--out", str(tmp_path / "o"), "--world", str(world),
                                          "-q", *args], env=env)
        assert result.exit_code == 0, result.output
    assert seen == [True, True, False]


def test_the_digest_of_a_run_that_marked_an_issue_deleted_names_it(make_world, tmp_path):
    """A reader of the last edition would look for the issue and not know why it is gone: the disclosure's
    scope paragraph names each issue the run found deleted on the platform, in both languages."""
    from conftest import fixlore_here

    world = make_world(platform="github", repos=2, closed_in_window=20, other_updated=5, old_issues=5, seed=3)
    out = tmp_path / "out"
    args = ("run", "--world", str(world), "--out", str(out), "-q")
    assert fixlore_here(*args).returncode == 0
    assert "deleted or moved away" not in (out / "digest.en.md").read_text("utf-8")
    store = Store.open(f"sqlite:///{out / 'fixlore.db'}")
    repo, number = _delete_from_world(world, store)
    store.close()
    proc = fixlore_here(*args, "--reconcile")
    assert proc.returncode == 0, proc.stderr[-2000:]
    ref = f"{repo.split('/')[-1]}#{number}"
    assert f"1 issue was found deleted or moved away on the platform this run ({ref}) and is left out" in (
        out / "digest.en.md").read_text("utf-8")
    assert f"本次确认平台上已删除或迁走的问题 1 条：{ref}" in (out / "digest.zh.md").read_text("utf-8")
