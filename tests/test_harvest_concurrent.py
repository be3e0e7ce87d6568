"""More tokens, more harvesters: several harvest processes writing one PostgreSQL store at once
lose and double nothing. The store they leave equals the one a single harvester leaves."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from fixlore.harvest import harvest
from fixlore.replay.server import ReplayServer
from fixlore.sources import make_source
from fixlore.sources.http import ApiClient
from fixlore.sources.offline import read_world_meta
from fixlore.store import Store
from fixlore.core.timeutil import parse_time

pytestmark = pytest.mark.postgres


def _harvest_into(url: str, world: Path, base_url: str, orgs: list[str], token: str, start=None) -> None:
    meta = read_world_meta(world)
    if start is not None:
        start.wait(timeout=60)      # open the store (migrations included) at the same moment
    store = Store.open(url)
    try:
        # No pacing: the replay enforces no quota here, and the test is about the store, not the limiter.
        client = ApiClient(base_url, meta["platform"], token, cache=store.http_cache(), rate_limit=False)
        try:
            harvest(store, make_source(meta["platform"], client), orgs, parse_time(meta["window"]["since"]))
        finally:
            client.close()
    finally:
        store.close()


def _concurrently(url: str, world: Path, base_url: str, shares: list[list[str]]) -> None:
    """One process per share of the orgs, each with its own token, as the README describes: forked
    from this one (a new interpreter would spend ~1 s of CPU importing before its harvest), with
    no store open here (each opens its own, migrations included, at the barrier)."""
    ctx = multiprocessing.get_context("fork")
    start = ctx.Barrier(len(shares))
    procs = [ctx.Process(target=_harvest_into, args=(url, world, base_url, orgs, f"token-{n}", start))
             for n, orgs in enumerate(shares)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=300)
    stuck = [proc for proc in procs if proc.is_alive()]
    for proc in stuck:
        proc.kill()
    assert not stuck, "a harvester did not finish"
    assert [proc.exitcode for proc in procs] == [0] * len(procs)


def _dump(url: str) -> dict[str, list[tuple]]:
    store = Store.open(url)
    try:
        return store.canonical_dump()
    finally:
        store.close()


def _fresh_db(postgres_server, name: str) -> str:
    import psycopg

    host, port = postgres_server
    with psycopg.connect(host=host, port=port, user="postgres", dbname="postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql+psycopg://postgres@{host}:{port}/{name}"


@pytest.fixture()
def world(make_world):
    return make_world("two-orgs", orgs=("alpha", "beta"), repos=4, closed_in_window=20, other_updated=6,
                      old_issues=6, seed=11)


@pytest.mark.parametrize("shares", [
    pytest.param([["alpha"], ["beta"]], id="different-orgs"),
    pytest.param([["alpha", "beta"], ["beta", "alpha"]], id="overlapping-orgs"),
    pytest.param([["alpha", "beta"], ["beta"], ["alpha"]], id="three-overlapping"),
])
def test_concurrent_harvesters_leave_the_store_a_single_one_leaves(world, postgres_server, shares, request):
    suffix = request.node.callspec.id.replace("-", "_")
    single = _fresh_db(postgres_server, f"single_{suffix}")
    shared = _fresh_db(postgres_server, f"shared_{suffix}")
    with ReplayServer(world) as srv:
        _harvest_into(single, world, srv.base_url, ["alpha", "beta"], "token-0")
        _concurrently(shared, world, srv.base_url, shares)
    want, got = _dump(single), _dump(shared)
    assert want["issues"] and want["comments"] and want["pulls"], "the world gave the harvest nothing to do"
    for table in want:
        assert got[table] == want[table], f"table {table} differs"


def test_a_rerun_after_concurrent_harvest_has_nothing_to_do(world, postgres_server):
    shared = _fresh_db(postgres_server, "shared_rerun")
    with ReplayServer(world) as srv:
        _concurrently(shared, world, srv.base_url, [["alpha"], ["beta"]])
        before = _dump(shared)
        srv.reset_stats()
        _harvest_into(shared, world, srv.base_url, ["alpha", "beta"], "token-0")
        stats = srv.stats()
    assert _dump(shared) == before
    # Each repo's watermark was earned by one shard: the re-run only lists (one page a repo, plus the orgs).
    listing = {k: v for k, v in stats["by_endpoint"].items() if not k.endswith(("/issues", "/repos"))}
    assert listing == {}, listing
