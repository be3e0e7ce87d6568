"""GitHub endpoints of the replay server, against worlds/github-mini over real loopback HTTP."""

from __future__ import annotations

import re
from pathlib import Path

import httpx2

from fixlore.replay.server import ReplayServer
from fixlore.core.timeutil import parse_time

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "worlds" / "github-mini"
W = "/repos/minilab/widgets"
REPLAY_WORLD = MINI          # conftest's replay_server, replay_client and replay_world serve it



def links(resp) -> dict[str, str]:
    out = {}
    for part in resp.headers.get("link", "").split(","):
        m = re.match(r'\s*<([^>]+)>;\s*rel="(\w+)"', part)
        if m:
            out[m.group(2)] = m.group(1)
    return out


def test_base_url_has_no_prefix(replay_server):
    assert replay_server.base_url == f"http://127.0.0.1:{replay_server.port}"


def test_issue_list_defaults_to_open_and_mixes_in_prs(replay_client, replay_world):
    stored = replay_world.issues("minilab", "widgets")
    got = replay_client.get(f"{W}/issues", params={"per_page": 100}).json()
    assert sorted(i["number"] for i in got) == sorted(i["number"] for i in stored if i["state"] == "open")
    every = replay_client.get(f"{W}/issues", params={"state": "all", "per_page": 100}).json()
    assert any("pull_request" in i for i in every) and any("pull_request" not in i for i in every)
    assert all(isinstance(i["number"], int) for i in every)


def test_link_header_walks_every_page_exactly_once(replay_client, replay_world):
    total = len(replay_world.issues("minilab", "widgets"))
    assert total > 100
    first = replay_client.get(f"{W}/issues", params={"state": "all"})
    assert len(first.json()) == 30  # default page size
    rels = links(first)
    assert set(rels) == {"next", "last"}
    assert "page=4" in rels["last"] and rels["next"].startswith("http://127.0.0.1:")
    seen = [i["number"] for i in first.json()]
    url = rels["next"]
    while url:
        resp = replay_client.get(url)
        seen += [i["number"] for i in resp.json()]
        rels = links(resp)
        assert "first" in rels and "prev" in rels
        url = rels.get("next")
    assert sorted(seen) == sorted(i["number"] for i in replay_world.issues("minilab", "widgets"))
    assert len(seen) == len(set(seen)) == total


def test_link_header_ignores_an_odd_host_header(replay_server, replay_client):
    r = replay_client.get(f"{W}/issues", params={"state": "all"}, headers={"Host": "evil.example/x"})
    assert links(r)["next"].startswith(f"http://127.0.0.1:{replay_server.port}/")


def test_per_page_max_100(replay_client, replay_world):
    r = replay_client.get(f"{W}/issues", params={"state": "all", "per_page": 1000})
    assert len(r.json()) == 100
    assert "page=2" in links(r)["last"]
    last = replay_client.get(f"{W}/issues", params={"state": "all", "per_page": 100, "page": 2})
    assert len(last.json()) == len(replay_world.issues("minilab", "widgets")) - 100
    assert "next" not in links(last)


def test_issue_sorts_and_since(replay_client, replay_world):
    stored = [i for i in replay_world.issues("minilab", "widgets")]
    asc = replay_client.get(f"{W}/issues", params={"state": "all", "sort": "updated", "direction": "asc", "per_page": 100}).json()
    want = sorted(stored, key=lambda i: (parse_time(i["updated_at"]), i["number"]))[:100]
    assert [i["number"] for i in asc] == [i["number"] for i in want]
    by_comments = replay_client.get(f"{W}/issues", params={"state": "all", "sort": "comments", "per_page": 5}).json()
    assert by_comments[0]["comments"] == max(i["comments"] for i in stored)
    since = "2026-09-14T00:00:00Z"
    recent = replay_client.get(f"{W}/issues", params={"state": "all", "since": since, "per_page": 100}).json()
    assert sorted(i["number"] for i in recent) == sorted(
        i["number"] for i in stored if parse_time(i["updated_at"]) >= parse_time(since))
    labelled = replay_client.get(f"{W}/issues", params={"state": "all", "labels": "question"}).json()
    assert [i["number"] for i in labelled] == [108]


def test_closed_by_only_on_the_single_issue(replay_client):
    listed = next(i for i in replay_client.get(f"{W}/issues", params={"state": "closed", "per_page": 100}).json()
                  if i["number"] == 96)
    assert "closed_by" not in listed
    single = replay_client.get(f"{W}/issues/96").json()
    assert single["closed_by"]["login"] == "mara" and single["state_reason"] == "completed"


def test_pull_list_defaults_open_and_hides_merged_flag(replay_client, replay_world):
    stored = replay_world.pulls("minilab", "widgets")
    open_prs = replay_client.get(f"{W}/pulls", params={"per_page": 100}).json()
    assert sorted(p["number"] for p in open_prs) == sorted(p["number"] for p in stored if p["state"] == "open")
    closed = replay_client.get(f"{W}/pulls", params={"state": "closed", "per_page": 100}).json()
    assert closed and all("merged" not in p for p in closed)
    single = replay_client.get(f"{W}/pulls/97").json()
    assert single["merged"] is True and single["merged_at"] and single["state"] == "closed"
    assert [p["number"] for p in replay_client.get(f"{W}/pulls", params={"state": "all", "base": "release-1.x"}).json()] == [99]


def test_pull_sorts(replay_client, replay_world):
    stored = replay_world.pulls("minilab", "widgets")
    created = replay_client.get(f"{W}/pulls", params={"state": "all", "per_page": 100}).json()
    assert [p["number"] for p in created] == [p["number"] for p in
                                              sorted(stored, key=lambda p: (parse_time(p["created_at"]), p["number"]), reverse=True)]
    updated = replay_client.get(f"{W}/pulls", params={"state": "all", "sort": "updated", "per_page": 100}).json()
    # GitHub: direction defaults to asc for any sort other than created.
    assert [p["number"] for p in updated] == [p["number"] for p in
                                              sorted(stored, key=lambda p: (parse_time(p["updated_at"]), p["number"]))]
    popular = replay_client.get(f"{W}/pulls", params={"state": "all", "sort": "popularity", "direction": "desc"}).json()
    assert popular[0]["number"] in {p["number"] for p in stored
                                    if p["comments"] == max(q["comments"] for q in stored)}


def test_timeline_and_events(replay_client):
    timeline = replay_client.get(f"{W}/issues/96/timeline").json()
    kinds = [e["event"] for e in timeline]
    assert {"commented", "cross-referenced", "referenced", "closed"} <= set(kinds)
    closed = next(e for e in timeline if e["event"] == "closed")
    assert closed["commit_id"]
    xref = next(e for e in timeline if e["event"] == "cross-referenced")
    assert xref["source"]["issue"]["number"] == 97 and "pull_request" in xref["source"]["issue"]
    events = [e["event"] for e in replay_client.get(f"{W}/issues/96/events").json()]
    assert "commented" not in events and "cross-referenced" not in events and "closed" in events
    connected = [e["event"] for e in replay_client.get(f"{W}/issues/102/timeline").json()]
    assert "connected" in connected


def test_comments_files_commits(replay_client):
    comments = replay_client.get(f"{W}/issues/104/comments").json()
    assert any("#105" in c["body"] for c in comments)
    files = replay_client.get(f"{W}/pulls/97/files").json()
    assert files[0]["filename"] == "src/config/load.ts" and isinstance(files[0]["additions"], int)
    assert "Fixes #96" in replay_client.get(f"{W}/pulls/97/commits").json()[0]["commit"]["message"]
    assert replay_client.get(f"{W}/pulls/97/comments").json() == []


def test_not_found_in_github_shape(replay_client):
    r = replay_client.get(f"{W}/issues/4242")
    assert r.status_code == 404 and r.json()["message"] == "Not Found" and "documentation_url" in r.json()
    assert replay_client.get("/repos/minilab/nope").status_code == 404
    assert replay_client.get("/orgs/minilab/repos").json()[0]["full_name"].startswith("minilab/")


def test_rate_limit_headers_on_every_answer(replay_client):
    a = replay_client.get(f"{W}/issues/96")
    b = replay_client.get(f"{W}/issues/4242")
    for r in (a, b):
        assert r.headers["x-ratelimit-limit"] == "5000" and r.headers["x-ratelimit-resource"] == "core"
    assert int(b.headers["x-ratelimit-remaining"]) == int(a.headers["x-ratelimit-remaining"]) - 1
    assert int(b.headers["x-ratelimit-used"]) == int(a.headers["x-ratelimit-used"]) + 1
    assert int(a.headers["x-ratelimit-reset"]) > 0


def test_authorised_304_is_not_charged():
    with ReplayServer(MINI, token="t0k") as srv, httpx2.Client(base_url=srv.base_url,
                                                               headers={"Authorization": "token t0k"}) as c:
        first = c.get(f"{W}/issues/96")
        again = c.get(f"{W}/issues/96", headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304
        assert again.headers["x-ratelimit-used"] == first.headers["x-ratelimit-used"]
