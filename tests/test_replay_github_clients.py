"""The replay speaks enough of GitHub's API for other clients: always-present fields, the endpoints
they call, the Enterprise prefix; and Perceval's GitHub backend, unmodified, harvests github-mini."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import httpx2

from fixlore.replay import github_shape
from fixlore.replay.server import ReplayServer

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "worlds" / "github-mini"
W = "/repos/minilab/widgets"
REPLAY_WORLD = MINI          # conftest's replay_server, replay_client and replay_world serve it



def _every_page(replay_client, path: str, **params) -> list:
    out, page = [], 1
    while True:
        got = replay_client.get(path, params={**params, "per_page": 100, "page": page})
        assert got.status_code == 200, (path, got.status_code)
        items = got.json()
        out.extend(items)
        if 'rel="next"' not in got.headers.get("link", ""):
            return out
        page += 1


def test_issues_and_comments_carry_reaction_rollups(replay_client):
    issues = _every_page(replay_client, f"{W}/issues", state="all")
    assert issues and all(i["reactions"]["total_count"] == 0 and "+1" in i["reactions"] for i in issues)
    assert all("active_lock_reason" in i for i in issues)
    commented = next(i for i in issues if i["comments"] > 0)
    comments = replay_client.get(f"{W}/issues/{commented['number']}/comments").json()
    assert comments and all(c["reactions"]["url"].endswith("/reactions") for c in comments)


def test_repo_has_license_key_even_when_null(replay_client, replay_world):
    stored = replay_world.repo("minilab", "widgets")
    got = replay_client.get(W).json()
    assert "license" in got and got["license"] == stored.get("license")
    listed = replay_client.get("/orgs/minilab/repos").json()
    assert listed and all("license" in r and "forks_count" in r for r in listed)


def test_pulls_carry_links_and_lock_reason(replay_client):
    pulls = replay_client.get(f"{W}/pulls", params={"state": "all", "per_page": 100}).json()
    assert pulls
    for p in pulls:
        assert p["active_lock_reason"] is None
        assert p["_links"]["self"]["href"].endswith(f"/pulls/{p['number']}")
        assert p["_links"]["issue"]["href"].endswith(f"/issues/{p['number']}")
        assert p["requested_reviewers"] == [] or all("login" in u for u in p["requested_reviewers"])
    single = replay_client.get(f"{W}/pulls/{pulls[0]['number']}").json()
    assert single["merged"] is (single["merged_at"] is not None)


def test_world_values_win_over_generated_defaults():
    stored = {"url": "https://ghe.example/api/v3/repos/o/r/issues/3", "number": 3,
              "reactions": {"url": "x", "total_count": 4, "+1": 4}, "locked": True, "active_lock_reason": "spam"}
    got = github_shape.issue(stored)
    assert got["reactions"]["total_count"] == 4 and got["active_lock_reason"] == "spam" and got["locked"] is True
    assert got["timeline_url"] == "https://ghe.example/api/v3/repos/o/r/issues/3/timeline"
    assert "timeline_url" not in stored  # the replay_world's object is left as it was
    assert github_shape.repo({"full_name": "o/r", "license": {"key": "mit"}})["license"] == {"key": "mit"}
    assert github_shape.pull({"url": "https://ghe.example/api/v3/repos/o/r/pulls/9", "number": 9})["_links"][
        "review_comment"]["href"] == "https://ghe.example/api/v3/repos/o/r/pulls/comments{/number}"


def test_timeline_closed_always_has_commit_id(replay_client, replay_world):
    numbers = replay_world.issue_numbers("minilab", "widgets")
    seen = 0
    for n in numbers:
        for e in replay_client.get(f"{W}/issues/{n}/timeline", params={"per_page": 100}).json():
            if e.get("event") == "closed":
                assert "commit_id" in e and "commit_url" in e
                seen += 1
    assert seen > 0


def test_repo_issue_comments_lists_every_conversation_comment(replay_client, replay_world):
    expected = sorted(c["id"] for n in replay_world.issue_numbers("minilab", "widgets")
                      for c in replay_world.issue_file("minilab", "widgets", n, "comments") or [])
    got = _every_page(replay_client, f"{W}/issues/comments")
    assert sorted(c["id"] for c in got) == expected
    created = [c["created_at"] for c in got]
    assert created == sorted(created)  # oldest first without sort
    one = replay_client.get(f"{W}/issues/comments/{got[0]['id']}").json()
    assert one["id"] == got[0]["id"]
    assert replay_client.get(f"{W}/issues/comments/{got[0]['id']}/reactions").json() == []
    assert replay_client.get(f"{W}/issues/comments/1/reactions").status_code == 404


def test_reviews_requested_reviewers_and_reactions(replay_client, replay_world):
    number = replay_world.pull_numbers("minilab", "widgets")[0]
    assert replay_client.get(f"{W}/pulls/{number}/reviews").json() == []
    assert replay_client.get(f"{W}/pulls/{number}/requested_reviewers").json() == {"users": [], "teams": []}
    assert replay_client.get(f"{W}/pulls/999999/reviews").status_code == 404
    assert replay_client.get(f"{W}/issues/{number}/reactions").json() == []
    assert replay_client.get(f"{W}/pulls/comments").status_code == 200


def test_users_and_orgs_known_from_the_world(replay_client, replay_world):
    author = replay_world.issue("minilab", "widgets", replay_world.issue_numbers("minilab", "widgets")[0])["user"]["login"]
    got = replay_client.get(f"/users/{author}").json()
    assert got["login"] == author and "followers" in got and got["created_at"]
    assert replay_client.get(f"/users/{author}/orgs").json() == []
    assert replay_client.get("/users/nobody-in-this-world").status_code == 404
    assert replay_client.get("/orgs/minilab").json()["login"] == "minilab"


def test_rate_limit_reports_the_core_window_without_charging_it(replay_client):
    before = replay_client.get("/rate_limit")
    replay_client.get(W)
    after = replay_client.get("/rate_limit").json()
    core_before = before.json()["resources"]["core"]
    assert after["resources"]["core"]["used"] == core_before["used"] + 1
    assert after["rate"] == after["resources"]["core"]
    assert int(before.headers["x-ratelimit-remaining"]) == core_before["remaining"]


def test_enterprise_prefix_serves_the_same_api(replay_server, replay_client):
    plain = replay_client.get(f"{W}/issues", params={"state": "all", "per_page": 5})
    with httpx2.Client(base_url=f"http://127.0.0.1:{replay_server.port}/api/v3", timeout=10) as ghe:
        prefixed = ghe.get(f"{W}/issues", params={"state": "all", "per_page": 5})
    assert prefixed.status_code == 200 and prefixed.json() == plain.json()
    assert "/api/v3/repos/minilab/widgets/issues" in prefixed.headers["link"]


def test_perceval_github_backend_gets_every_issue_and_pull(replay_world, caplog):
    from perceval.backends.core.github import GitHub

    caplog.set_level(logging.WARNING)
    expected_issues = {(r, i["number"]) for o, r in replay_world.repos() for i in replay_world.issues(o, r)}
    expected_pulls = {(r, p["number"]) for o, r in replay_world.repos() for p in replay_world.pulls(o, r)}
    got_issues, got_pulls = set(), set()
    with ReplayServer(MINI) as srv:
        base = f"http://{srv.host}:{srv.port}"  # Perceval adds /api/v3 to a base_url
        for owner, repo in replay_world.repos():
            for category, sink in (("issue", got_issues), ("pull_request", got_pulls)):
                backend = GitHub(owner=owner, repository=repo, api_token=["replay-token"], base_url=base,
                                 sleep_time=0, max_retries=1)
                for item in backend.fetch(category=category):
                    data = item["data"]
                    sink.add((repo, data["number"]))
                    if category == "issue" and data["comments"]:
                        assert len(data["comments_data"]) == data["comments"]
                    if category == "pull_request":
                        assert data["commits_data"], data["number"]
        stats = srv.stats()
    assert got_issues == expected_issues
    assert got_pulls == expected_pulls
    assert stats["by_status"].get("404", 0) == 0, json.dumps(stats["by_endpoint"])
    assert not [r for r in caplog.records if r.name.startswith("perceval") and r.levelno >= logging.ERROR]
