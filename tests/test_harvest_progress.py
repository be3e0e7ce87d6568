"""The harvester reports its phases through the callback a caller gives and draws nothing itself."""

from __future__ import annotations

from pathlib import Path

from fixlore.harvest.harvester import harvest
from fixlore.replay.server import ReplayServer
from fixlore.sources import make_source
from fixlore.sources.http import ApiClient
from fixlore.sources.offline import read_world_meta
from fixlore.store import Store
from fixlore.core.timeutil import parse_time

DEMO = Path(__file__).resolve().parents[1] / "worlds" / "demo"


def test_harvest_reports_each_phase_to_the_callback_it_is_given(tmp_path, capsys):
    meta = read_world_meta(DEMO)
    store = Store.open(f"sqlite:///{tmp_path / 'h.db'}")
    heard: list[tuple[str, int, int | None]] = []
    with ReplayServer(DEMO) as srv:
        client = ApiClient(srv.base_url, meta["platform"], cache=store.http_cache(), rate_limit=False)
        try:
            report = harvest(store, make_source(meta["platform"], client), meta["orgs"],
                             parse_time(meta["window"]["since"]), progress=lambda *a: heard.append(a))
        finally:
            client.close()
            store.close()
    last = {phase: (done, total) for phase, done, total in heard}
    assert set(last) == {"orgs", "issue lists", "repos with new pool issues", "issue details", "PR details"}
    assert last["orgs"] == (len(meta["orgs"]), len(meta["orgs"]))
    assert last["issue lists"] == (report.repos, report.repos)
    assert last["issue details"] == (report.issues_detailed, report.issues_detailed) and report.issues_detailed > 0
    assert last["PR details"][0] == last["PR details"][1] == report.pulls_detailed > 0
    for phase in last:                         # counts only grow, from 0
        counts = [done for p, done, _ in heard if p == phase]
        assert counts[0] == 0 and counts == sorted(counts)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""     # the library drew nothing
