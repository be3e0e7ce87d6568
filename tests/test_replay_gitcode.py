"""GitCode endpoints of the replay server, against worlds/demo over real loopback HTTP.

Expected results are computed here from the world's single objects, independently of the server.
"""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from fixlore.replay.server import ReplayServer
from fixlore.core.timeutil import parse_time

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
MK = "/repos/demo-ai/modelkit"
IS = "/repos/demo-ai/infer-serve"
REPLAY_WORLD = DEMO          # conftest's replay_server, replay_client and replay_world serve it



def numbers(resp) -> list[int]:
    return [int(str(it["number"])) for it in resp.json()]


def test_base_url_has_the_api_prefix(replay_server):
    assert replay_server.base_url == f"http://127.0.0.1:{replay_server.port}/api/v5"


def test_org_repos_hide_non_code_repos_by_default(replay_client):
    default = replay_client.get("/orgs/demo-ai/repos").json()
    assert {r["path"] for r in default} == {"modelkit", "infer-serve"}
    every = replay_client.get("/orgs/demo-ai/repos", params={"repo_type": "all"}).json()
    assert "qwen-mini-weights" in {r["path"] for r in every}
    page = replay_client.get("/orgs/demo-ai/repos", params={"per_page": 1, "page": 2})
    assert len(page.json()) == 1 and page.headers["total_count"] == "2" and page.headers["total_page"] == "2"


def test_unknown_things_answer_404_in_gitcode_shapes(replay_client):
    r = replay_client.get("/repos/demo-ai/no-such-repo/issues")
    assert r.status_code == 404 and r.json()["error_message"] == "Project Not Found"
    r = replay_client.get(f"{MK}/issues/99999")
    assert r.status_code == 404 and r.json() == {"message": "404 Not Found"}
    assert replay_client.get(f"{MK}/issues/%23101").status_code == 404  # "do not add #"
    assert replay_client.get(f"{MK}/pulls/99999/files").status_code == 404
    assert replay_client.get("/orgs/no-such-org/repos").status_code == 404
    assert replay_client.get("/no/such/endpoint").json() == {"message": "404 Not Found"}


def test_issue_list_defaults_all_states_20_per_page_created_desc(replay_client, replay_world):
    stored = replay_world.issues("demo-ai", "modelkit")
    r = replay_client.get(f"{MK}/issues")
    assert r.status_code == 200
    assert r.headers["total_count"] == str(len(stored))
    assert r.headers["total_page"] == str((len(stored) + 19) // 20)
    expected = sorted(stored, key=lambda it: (parse_time(it["created_at"]), int(it["number"])), reverse=True)
    assert numbers(r) == [int(it["number"]) for it in expected][:20]
    assert {it["state"] for it in r.json()} == {"open", "closed"}
    assert all(isinstance(it["number"], str) for it in r.json())


def test_issue_list_pages_with_a_short_last_page(replay_client, replay_world):
    total = len(replay_world.issues("demo-ai", "modelkit"))
    seen = []
    page = 1
    while True:
        r = replay_client.get(f"{MK}/issues", params={"per_page": 4, "page": page})
        assert r.headers["total_page"] == str((total + 3) // 4)
        seen += numbers(r)
        if len(r.json()) < 4:
            break
        page += 1
    assert len(seen) == total == len(set(seen))
    assert len(r.json()) == total % 4 or (total % 4 == 0 and r.json() == [])


def _big_world(root: Path, count: int) -> Path:
    """A bare GitCode world with ``count`` issues, for paging limits the demo world is too small to reach."""
    import json

    (root / "orgs").mkdir(parents=True)
    (root / "world.yaml").write_text("platform: gitcode\nsnapshot_at: '2026-09-21T00:00:00+08:00'\norgs: [big]\n")
    (root / "orgs" / "big.json").write_text(json.dumps([{"full_name": "big/repo", "path": "repo"}]))
    issues = root / "repos" / "big" / "repo" / "issues"
    issues.mkdir(parents=True)
    for n in range(1, count + 1):
        stamp = f"2026-09-{1 + n // 10:02d}T{n % 10:02d}:00:00+08:00"
        (issues / f"{n}.json").write_text(json.dumps({"number": str(n), "state": "open", "title": f"issue {n}",
                                                       "created_at": stamp, "updated_at": stamp, "finished_at": ""}))
    return root


def test_per_page_is_capped_at_100_and_nonsense_falls_back_to_20(tmp_path):
    with ReplayServer(_big_world(tmp_path / "big", 130)) as srv, httpx2.Client(base_url=srv.base_url) as c:
        r = c.get("/repos/big/repo/issues", params={"per_page": 500})
        assert len(r.json()) == 100 and r.headers["total_page"] == "2" and r.headers["total_count"] == "130"
        last = c.get("/repos/big/repo/issues", params={"per_page": 500, "page": 2})
        assert len(last.json()) == 30
        assert c.get("/repos/big/repo/issues", params={"per_page": 100, "page": 3}).json() == []
        assert len(c.get("/repos/big/repo/issues", params={"per_page": 0}).json()) == 20


@pytest.mark.parametrize("state", ["open", "closed"])
def test_issue_state_filter(replay_client, replay_world, state):
    expected = sorted(int(it["number"]) for it in replay_world.issues("demo-ai", "modelkit") if it["state"] == state)
    got = sorted(numbers(replay_client.get(f"{MK}/issues", params={"state": state, "per_page": 100})))
    assert got == expected and got


def test_documented_and_undocumented_sort_forms_agree(replay_client, replay_world):
    stored = replay_world.issues("demo-ai", "infer-serve")
    by_updated = [int(it["number"]) for it in sorted(stored, key=lambda it: (parse_time(it["updated_at"]), int(it["number"])))]
    documented = numbers(replay_client.get(f"{IS}/issues", params={"sort": "updated", "direction": "asc", "per_page": 100}))
    order_by = numbers(replay_client.get(f"{IS}/issues", params={"order_by": "updated_at", "sort": "asc", "per_page": 100}))
    assert documented == order_by == by_updated
    desc = numbers(replay_client.get(f"{IS}/issues", params={"order_by": "updated_at", "sort": "desc", "per_page": 100}))
    assert desc == by_updated[::-1]


def test_issue_time_filters(replay_client, replay_world):
    since = "2026-09-17T00:00:00+08:00"
    stored = replay_world.issues("demo-ai", "modelkit")
    want = sorted(int(it["number"]) for it in stored if parse_time(it["updated_at"]) >= parse_time(since))
    assert sorted(numbers(replay_client.get(f"{MK}/issues", params={"since": since, "per_page": 100}))) == want
    assert sorted(numbers(replay_client.get(f"{MK}/issues", params={"updated_after": since, "per_page": 100}))) == want
    lo, hi = "2026-09-16T00:00:00+08:00", "2026-09-17T23:59:59+08:00"
    want_created = sorted(int(it["number"]) for it in stored
                          if parse_time(lo) <= parse_time(it["created_at"]) <= parse_time(hi))
    got = numbers(replay_client.get(f"{MK}/issues", params={"created_after": lo, "created_before": hi, "per_page": 100}))
    assert sorted(got) == want_created and got
    before = numbers(replay_client.get(f"{MK}/issues", params={"updated_before": "2026-09-01T00:00:00+08:00"}))
    assert before and all(parse_time(replay_world.issue("demo-ai", "modelkit", n)["updated_at"]) <= parse_time("2026-09-01T00:00:00+08:00")
                          for n in before)


def test_label_filter_needs_every_label(replay_client):
    both = numbers(replay_client.get(f"{MK}/issues", params={"labels": "bug,quantization"}))
    assert both == [106]
    bugs = numbers(replay_client.get(f"{MK}/issues", params={"labels": "bug", "per_page": 100}))
    assert 106 in bugs and 101 in bugs and 111 not in bugs


def test_single_issue_carries_custom_fields_list_items_do_not(replay_client):
    one = replay_client.get(f"{MK}/issues/101").json()
    assert one["number"] == "101" and "custom_fields" in one
    assert one["finished_at"].endswith("+08:00")
    listed = next(it for it in replay_client.get(f"{MK}/issues", params={"per_page": 100}).json() if it["number"] == "101")
    assert "custom_fields" not in listed
    assert replay_client.get(f"{MK}/issues/109").json()["finished_at"] == ""


def test_issue_comments_page_and_order(replay_client, replay_world):
    stored = replay_world.issue_file("demo-ai", "modelkit", 102, "comments")
    asc = replay_client.get(f"{MK}/issues/102/comments", params={"per_page": 2})
    assert [c["id"] for c in asc.json()] == [c["id"] for c in stored[:2]]
    assert asc.headers["total_count"] == str(len(stored))
    desc = replay_client.get(f"{MK}/issues/102/comments", params={"order": "desc", "per_page": 100}).json()
    assert [c["id"] for c in desc] == [c["id"] for c in stored][::-1]
    assert replay_client.get(f"{MK}/issues/111/comments").json() == []


def test_issue_operate_logs_take_repo_as_query_parameter(replay_client):
    logs = replay_client.get("/repos/demo-ai/issues/102/operate_logs", params={"repo": "modelkit"}).json()
    assert [e["action_type"] for e in logs] == ["closed", "reopened", "closed"]
    r = replay_client.get("/repos/demo-ai/issues/102/operate_logs")
    assert r.status_code == 400 and "repo" in r.json()["error_message"]
    assert replay_client.get("/repos/demo-ai/issues/102/operate_logs", params={"repo": "nope"}).status_code == 404


def test_issue_linked_pull_requests(replay_client):
    linked = replay_client.get(f"{IS}/issues/31/pull_requests").json()
    assert [p["number"] for p in linked] == [57] and linked[0]["state"] == "merged"
    assert replay_client.get(f"{MK}/issues/101/pull_requests").json() == []


def test_pull_list_state_filters(replay_client, replay_world):
    stored = replay_world.pulls("demo-ai", "modelkit")
    for state in ("merged", "open", "closed"):
        got = sorted(p["number"] for p in replay_client.get(f"{MK}/pulls", params={"state": state}).json())
        assert got == sorted(p["number"] for p in stored if p["state"] == state)
    assert len(replay_client.get(f"{MK}/pulls").json()) == len(stored)  # default all
    merged = replay_client.get(f"{MK}/pulls", params={"state": "merged"}).json()
    assert all("merged" not in p and p["merged_at"] for p in merged)


def test_pull_sort_desc_is_a_400_like_the_live_site(replay_client):
    r = replay_client.get(f"{MK}/pulls", params={"sort": "desc"})
    assert r.status_code == 400 and "direction" in r.json()["error_message"]


def test_pull_order_and_time_filters(replay_client, replay_world):
    stored = replay_world.pulls("demo-ai", "modelkit")
    asc = [p["number"] for p in replay_client.get(f"{MK}/pulls", params={"order_by": "updated_at", "direction": "asc"}).json()]
    assert asc == [p["number"] for p in sorted(stored, key=lambda p: (parse_time(p["updated_at"]), p["number"]))]
    lo = "2026-09-18T00:00:00+08:00"
    got = sorted(p["number"] for p in replay_client.get(f"{MK}/pulls", params={"merged_after": lo}).json())
    assert got == sorted(p["number"] for p in stored if p["merged_at"] and parse_time(p["merged_at"]) >= parse_time(lo))
    assert [p["number"] for p in replay_client.get(f"{MK}/pulls", params={"base": "release/2.1"}).json()] == [207]
    created = replay_client.get(f"{MK}/pulls", params={"sort": "created", "direction": "asc"}).json()
    assert [p["number"] for p in created] == [p["number"] for p in sorted(stored, key=lambda p: (parse_time(p["created_at"]), p["number"]))]


def test_org_wide_pull_list_spans_repos(replay_client, replay_world):
    r = replay_client.get("/org/demo-ai/pull_requests", params={"state": "merged", "per_page": 100})
    repos = {p["base"]["repo"]["full_name"] for p in r.json()}
    assert repos == {"demo-ai/modelkit", "demo-ai/infer-serve"}
    expected = sum(1 for o, n in replay_world.repos() if o == "demo-ai" for p in replay_world.pulls(o, n) if p["state"] == "merged")
    assert r.headers["total_count"] == str(expected)
    assert replay_client.get("/org/no-such-org/pull_requests").status_code == 404


def test_pull_sub_resources(replay_client):
    pr = replay_client.get(f"{IS}/pulls/57").json()
    assert pr["state"] == "merged" and "merged" not in pr and pr["html_url"].endswith("/merge_requests/57")
    issues = replay_client.get(f"{IS}/pulls/57/issues").json()
    assert sorted(int(i["number"]) for i in issues) == [31, 32] and "issue_created_at" in issues[0]
    files = replay_client.get(f"{MK}/pulls/201/files")
    assert files.json()[0]["filename"] == "modelkit/quant/calibrate.py"
    assert int(files.headers["total_added_lines"]) == sum(int(f["additions"]) for f in files.json())
    commits = replay_client.get(f"{MK}/pulls/201/commits").json()
    assert "Closes #101" in commits[0]["commit"]["message"]
    logs = replay_client.get("/repos/demo-infra/commlib/pulls/47/operate_logs").json()
    assert [e["action_type"] for e in logs] == ["closed", "opened"]  # newest first by default
    assert replay_client.get("/repos/demo-infra/commlib/pulls/47/comments").json()[0]["comment_type"] == "pr_comment"
    assert replay_client.get(f"{MK}/pulls/201/comments").json() == []  # no file: empty list


def test_etag_and_conditional_request(replay_client):
    first = replay_client.get(f"{MK}/issues/101")
    etag = first.headers["etag"]
    again = replay_client.get(f"{MK}/issues/101", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    other = replay_client.get(f"{MK}/issues/102", headers={"If-None-Match": etag})
    assert other.status_code == 200
    page2 = replay_client.get(f"{MK}/issues", params={"page": 2})
    assert page2.headers["etag"] != replay_client.get(f"{MK}/issues", params={"page": 1}).headers["etag"]


def test_requests_are_counted_by_endpoint_and_status():
    with ReplayServer(DEMO) as srv, httpx2.Client(base_url=srv.base_url) as c:
        c.get(f"{MK}/issues")
        c.get(f"{MK}/issues", params={"page": 2})
        etag = c.get(f"{MK}/issues/101").headers["etag"]
        c.get(f"{MK}/issues/101", headers={"If-None-Match": etag})
        c.get(f"{MK}/issues/99999")
        c.get("/repos/demo-ai/issues/101/operate_logs", params={"repo": "modelkit"})
        admin = httpx2.get(f"http://127.0.0.1:{srv.port}/__replay__/stats").json()
        stats = srv.stats()
        assert admin == stats  # the admin endpoint itself is not counted
        assert stats["total"] == 6
        assert stats["by_endpoint"] == {
            "GET /repos/{owner}/{repo}/issues": 2,
            "GET /repos/{owner}/{repo}/issues/{number}": 3,
            "GET /repos/{owner}/issues/{number}/operate_logs": 1,
        }
        assert stats["by_status"] == {"200": 4, "304": 1, "404": 1}
        srv.reset_stats()
        assert srv.stats()["total"] == 0
