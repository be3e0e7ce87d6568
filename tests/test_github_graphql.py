"""GitHub closing references through GraphQL: the replay's POST /graphql, the client module, and a
harvest that finds a Development-sidebar fix the REST timeline no longer shows (closed.commit_id null)."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from fixlore.harvest import harvest
from fixlore.link.build import build_cases
from fixlore.replay.server import ReplayServer
from fixlore.sources import make_source
from fixlore.sources.github_graphql import LINK_SOURCE, closing_query, graphql_url, parse_closing
from fixlore.sources.http import ApiClient
from fixlore.sources.offline import read_world_meta
from fixlore.store import Store
from fixlore.core.timeutil import parse_time

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "worlds" / "github-mini"
TOKEN = "graphql-test-token"


def _ask(srv: ReplayServer, numbers: list[int], token: str | None = TOKEN, repo: str = "widgets") -> httpx2.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx2.post(f"{srv.base_url}/graphql", json={"query": closing_query("minilab", repo, numbers)},
                       headers=headers, timeout=10)


def test_graphql_url_for_github_and_enterprise():
    assert graphql_url("https://api.github.com") == "https://api.github.com/graphql"
    assert graphql_url("https://ghe.example/api/v3/") == "https://ghe.example/api/graphql"


def test_replay_answers_closing_references_from_the_world():
    # REST hides the closing commit; GraphQL still knows.
    with ReplayServer(MINI, token=TOKEN, strict="null_commit_id") as srv:
        got = _ask(srv, [96, 102, 103])
        anonymous = _ask(srv, [96], token=None)
        unknown = _ask(srv, [1], repo="no-such-repo")
        timeline = httpx2.get(f"{srv.base_url}/repos/minilab/widgets/issues/102/timeline",
                              headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10).json()
    assert got.status_code == 200
    links = parse_closing(got.json(), "minilab/widgets")
    assert {n: [lk.pull_number for lk in v] for n, v in links.items()} == {96: [97], 102: [103]}
    assert all(lk.source == LINK_SOURCE for v in links.values() for lk in v)
    # 103 is a PR: GitHub answers null for it, with an error beside the data.
    assert got.json()["data"]["repository"]["i103"] is None and got.json()["errors"]
    assert anonymous.status_code == 401
    assert unknown.json()["data"]["repository"] is None
    assert [e["commit_id"] for e in timeline if e.get("event") == "closed"] == [None]


def test_replay_refuses_other_queries_and_methods():
    with ReplayServer(MINI, token=TOKEN) as srv:
        other = httpx2.post(f"{srv.base_url}/graphql", json={"query": "{ viewer { login } }"},
                            headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
        broken = httpx2.post(f"{srv.base_url}/graphql", content=b"{not json",
                             headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
        elsewhere = httpx2.post(f"{srv.base_url}/repos/minilab/widgets/issues", json={},
                                headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
    assert other.status_code == 200 and other.json()["errors"] and "data" not in other.json()
    assert broken.status_code == 400
    assert elsewhere.status_code == 405


def _fixes_of(world: Path, base_url: str, token: str | None, db: str) -> tuple[dict, dict]:
    meta = read_world_meta(world)
    since = parse_time(meta["window"]["since"])
    store = Store.open(db)
    client = ApiClient(base_url, "github", token, cache=store.http_cache(), rate_limit=False)
    try:
        harvest(store, make_source("github", client), meta["orgs"], since)
    finally:
        client.close()
    cases, _ = build_cases(store.load_corpus(), since, {"conclude_all": True})
    store.close()
    found = {(c.repo, c.number): (sorted(f.number for f in c.fix), {e.kind for e in c.evidence}) for c in cases}
    return found, dict(client.accounting.by_endpoint)


@pytest.mark.parametrize("token,expect_graphql", [(TOKEN, True), (None, False)])
def test_harvest_uses_graphql_when_the_token_allows(tmp_path, token, expect_graphql):
    with ReplayServer(MINI, token=token, strict="null_commit_id") as srv:
        fixes, endpoints = _fixes_of(MINI, srv.base_url, token, f"sqlite:///{tmp_path / 'h.db'}")
        served = srv.stats()["by_endpoint"]
    fix, kinds = fixes[("minilab/widgets", 102)]
    # #102 was linked to #103 in the Development sidebar; with closed.commit_id null the REST timeline only
    # shows the close one second after the merge (timing), GraphQL names the PR as the platform's link.
    assert fix == [103] and "auto_close" in kinds
    if expect_graphql:
        assert "linked" in kinds
        # One query per repo with pool issues: batched, never one per issue.
        assert 0 < served["POST /graphql"] <= 2 and endpoints["POST /graphql"] == served["POST /graphql"]
    else:
        assert "linked" not in kinds
        assert "POST /graphql" not in served


def test_graphql_refused_falls_back_to_rest(tmp_path):
    """A token the GraphQL API refuses (401 there, REST still open): the REST harvest goes on unchanged."""
    with ReplayServer(MINI) as srv:        # REST takes any token; GraphQL wants one that matches nothing here
        meta = read_world_meta(MINI)
        store = Store.open(f"sqlite:///{tmp_path / 'f.db'}")
        client = ApiClient(srv.base_url, "github", "some-token", cache=store.http_cache(), rate_limit=False)
        original = srv.handle_graphql
        srv.handle_graphql = lambda path, body, headers: original(path, body, {})   # as if no token reached it
        try:
            report = harvest(store, make_source("github", client), meta["orgs"], parse_time(meta["window"]["since"]))
        finally:
            client.close()
        served = srv.stats()["by_endpoint"]
        store.close()
    assert served.get("POST /graphql") == 1          # tried once, then not again this run
    assert report.issues_detailed > 0


def test_a_connection_lists_its_first_nodes_and_counts_them_all_and_the_client_names_the_rest(monkeypatch):
    """pytest-dev/pytest#12444 is closed by two PRs (12445, 13815): asked for the first one, the replay
    answers one node and totalCount 2, as GitHub's connections do, and the client keeps that one and names
    the issue unread rather than cut its closing PRs short in silence."""
    import fixlore.sources.github_graphql as gq
    world = ROOT / "worlds" / "pytest-threads"
    monkeypatch.setattr(gq, "PRS_PER_ISSUE", 1)
    with ReplayServer(world, token=TOKEN) as srv:
        raw = httpx2.post(f"{srv.base_url}/graphql", json={"query": gq.closing_query("pytest-dev", "pytest", [12444])},
                          headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10).json()
        client = ApiClient(srv.base_url, "github", TOKEN, rate_limit=False)
        try:
            read = gq.closing_refs(make_source("github", client), "pytest-dev/pytest", [12444])
        finally:
            client.close()
    refs = raw["data"]["repository"]["i12444"]["closedByPullRequestsReferences"]
    assert refs["totalCount"] == 2 and [n["number"] for n in refs["nodes"]] == [12445]
    assert [lk.pull_number for lk in read.links[12444]] == [12445] and read.unread == [12444]


def _node(n: int) -> dict:
    return {"number": n, "merged": True, "repository": {"nameWithOwner": "o/a"}}


def test_an_answer_part_failed_is_asked_again_and_one_that_cannot_be_had_is_named():
    """GraphQL nulls a field that failed and names its path (spec, "Handling Field Errors"): a list
    node nulled leaves its issue part-read (asked again), not read with a PR lost; the repository field
    failing on a timeout leaves every issue to ask again; one that does not exist leaves them named."""
    from fixlore.sources.github_graphql import _verdict, read_answer

    timeout = {"message": "Something went wrong while executing your query. This may be the result of a timeout"}
    nulled = {"data": {"repository": {
        "i1": {"number": 1, "closedByPullRequestsReferences": {"totalCount": 2, "nodes": [_node(11), None]}},
        "i2": {"number": 2, "closedByPullRequestsReferences": {"totalCount": 1, "nodes": [_node(12)]}}}},
        "errors": [{**timeout, "path": ["repository", "i1", "closedByPullRequestsReferences", "nodes", 1]}]}
    read = read_answer(nulled, "o/a", [1, 2])
    assert read.left == [1] and read.kept == [] and "timeout" in read.why
    assert [lk.pull_number for lk in read.links[2]] == [12]
    whole = read_answer({"data": {"repository": None}, "errors": [{**timeout, "path": ["repository"]}]}, "o/a", [1, 2])
    assert whole.left == [1, 2] and whole.kept == []
    missing = read_answer({"data": {"repository": None}, "errors": [
        {"type": "NOT_FOUND", "path": ["repository"], "message": "Could not resolve to a Repository"}]}, "o/a", [1, 2])
    assert missing.left == [] and missing.kept == [1, 2] and "did not resolve" in missing.why
    # a secondary limit answered as 200 is this batch's failure, not the host given up for the run
    limited = {"data": None, "errors": [{"message": "You have exceeded a secondary rate limit. Please wait."}]}
    assert _verdict(200, limited) == "failed"
    assert _verdict(200, {"data": None, "errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]}) == "gone"


def test_a_final_error_on_a_node_is_named_not_asked_again_and_both_budget_types_give_graphql_up():
    from fixlore.sources.github_graphql import _verdict, read_answer

    saml = {"data": {"repository": {
        "i7": {"number": 7, "closedByPullRequestsReferences": {"totalCount": 2, "nodes": [_node(11), None]}}}},
        "errors": [{"type": "FORBIDDEN", "message": "Resource protected by organization SAML enforcement.",
                    "path": ["repository", "i7", "closedByPullRequestsReferences", "nodes", 1]}]}
    read = read_answer(saml, "o/a", [7])
    assert read.left == [] and read.kept == [7] and [lk.pull_number for lk in read.links[7]] == [11]
    for kind in ("RATE_LIMITED", "RATE_LIMIT"):
        assert _verdict(200, {"data": None, "errors": [{"type": kind, "code": "graphql_rate_limit",
                                                        "message": "API rate limit exceeded"}]}) == "gone"
        assert _verdict(403, {"errors": [{"type": kind, "message": "API rate limit exceeded"}]}) == "gone"
