"""Rate limits, injected faults, token checks and reload, over real loopback HTTP."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import httpx2
import pytest

from fixlore.core.errors import FixloreError
from fixlore.replay.faults import FaultPlan, parse_spec
from fixlore.replay.limits import FixedWindow, SlidingWindows
from fixlore.replay.server import ReplayServer

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
MINI = ROOT / "worlds" / "github-mini"
ISSUE = "/repos/demo-ai/modelkit/issues/101"
LIST = "/repos/demo-ai/modelkit/issues"


# ---------- rate limits

def test_gitcode_429_past_50_in_a_scaled_minute_then_recovers():
    # time_scale 30: the one-minute window lasts two seconds.
    with ReplayServer(DEMO, rate_limit=True, time_scale=30) as srv, httpx2.Client(base_url=srv.base_url) as c:
        codes = [c.get(ISSUE).status_code for _ in range(55)]
        assert codes[:50] == [200] * 50
        assert set(codes[50:]) == {429}
        limited = c.get(ISSUE)
        assert limited.json() == {"message": "Too Many Requests"}
        assert "retry-after" not in limited.headers  # GitCode is not known to send it
        time.sleep(2.1)
        assert c.get(ISSUE).status_code == 200
        assert srv.stats()["by_status"]["429"] == 6


def test_sliding_windows_every_window_must_have_room():
    # GitCode's own numbers (50/min, 4000/h) never let the hour bind, so check the logic with smaller ones.
    now = [0.0]
    lim = SlidingWindows([(5, 60.0), (12, 3600.0)], clock=lambda: now[0])
    admitted = []
    for _ in range(6):
        admitted.append(sum(lim.admit() for _ in range(8)))
        now[0] += 61.0
    assert admitted == [5, 5, 2, 0, 0, 0]  # minute cap, minute cap, then the hour cap
    now[0] = 3600.0 + 1.0
    assert lim.admit()  # the first minute's requests have left the hour window


def test_github_primary_limit_403_with_remaining_zero():
    with ReplayServer(MINI, rate_limit=True) as srv, httpx2.Client(base_url=srv.base_url) as c:
        srv._github_limit = FixedWindow(limit=3, period=3600)  # a small limit instead of 5,000 requests
        codes = [c.get("/repos/minilab/widgets/issues/96").status_code for _ in range(3)]
        blocked = c.get("/repos/minilab/widgets/issues/96")
        assert codes == [200, 200, 200]
        assert blocked.status_code == 403
        assert blocked.headers["x-ratelimit-remaining"] == "0"
        assert "rate limit" in blocked.json()["message"]


def test_github_window_resets_after_the_scaled_hour():
    now = [1000.0]
    win = FixedWindow(limit=2, period=3600 / 3600, clock=lambda: now[0])  # time_scale 3600: one second
    assert win.take() and win.take() and not win.take()
    assert win.headers()["X-RateLimit-Reset"] == "1001"
    now[0] += 1.0
    assert win.take()
    assert win.headers()["X-RateLimit-Remaining"] == "1"


# ---------- faults

@pytest.mark.parametrize("kind, status", [("429", 429), ("500", 500), ("502", 502), ("503", 503)])
def test_status_faults(kind, status):
    with ReplayServer(DEMO, faults=f"{kind}@2") as srv, httpx2.Client(base_url=srv.base_url) as c:
        assert c.get(ISSUE).status_code == 200
        r = c.get(ISSUE)
        assert r.status_code == status
        assert "retry-after" not in r.headers
        assert c.get(ISSUE).status_code == 200
        assert srv.stats()["faults_injected"] == {kind: 1}
        assert srv.stats()["by_status"][str(status)] == 1


def test_retry_after_fault_on_both_platforms():
    with ReplayServer(DEMO, faults="429-retry-after@1") as srv:
        r = httpx2.get(srv.base_url + ISSUE)
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
    with ReplayServer(MINI, faults="429-retry-after@1") as srv:
        r = httpx2.get(srv.base_url + "/repos/minilab/widgets/issues/96")
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert "secondary rate limit" in r.json()["message"]


def test_stall_holds_the_answer_past_the_client_timeout():
    with ReplayServer(DEMO, faults="stall@1", stall_seconds=3) as srv, httpx2.Client(base_url=srv.base_url) as c:
        started = time.monotonic()
        with pytest.raises(httpx2.ReadTimeout):
            c.get(ISSUE, timeout=0.5)
        assert time.monotonic() - started < 2.5
        assert c.get(ISSUE, timeout=5).status_code == 200
        assert srv.stats()["faults_injected"] == {"stall": 1}


def test_stop_does_not_wait_for_a_stalled_answer():
    srv = ReplayServer(DEMO, faults="stall@1", stall_seconds=30).start()
    t = threading.Thread(target=lambda: _swallow(lambda: httpx2.get(srv.base_url + ISSUE, timeout=60)), daemon=True)
    t.start()
    time.sleep(0.3)
    started = time.monotonic()
    srv.stop()
    assert time.monotonic() - started < 5


def _swallow(fn):
    try:
        fn()
    except httpx2.HTTPError:
        pass


def test_cutoff_sends_less_body_than_promised():
    with ReplayServer(DEMO, faults="cutoff@1") as srv, httpx2.Client(base_url=srv.base_url) as c:
        with pytest.raises(httpx2.RemoteProtocolError):
            c.get(ISSUE)
        assert c.get(ISSUE).json()["number"] == "101"


def test_malformed_is_a_200_that_is_not_json():
    with ReplayServer(DEMO, faults="malformed@1") as srv, httpx2.Client(base_url=srv.base_url) as c:
        r = c.get(ISSUE)
        assert r.status_code == 200
        with pytest.raises(json.JSONDecodeError):
            json.loads(r.content)
        assert c.get(ISSUE).json()["number"] == "101"


def test_repeat_page_answers_the_previous_page():
    with ReplayServer(DEMO, faults="repeat-page@2,repeat-page@1") as srv, httpx2.Client(base_url=srv.base_url) as c:
        # Request 1 is a first page: repeat-page does not apply, so nothing is injected.
        p1 = c.get(LIST, params={"per_page": 5})
        p2 = c.get(LIST, params={"per_page": 5, "page": 2})
        assert p2.json() == p1.json()
        clean = c.get(LIST, params={"per_page": 5, "page": 2})
        assert clean.json() != p1.json()
        assert srv.stats()["faults_injected"] == {"repeat-page": 1}


def test_never_more_than_two_faults_in_a_row_on_one_url():
    with ReplayServer(DEMO, faults="500:1.0") as srv, httpx2.Client(base_url=srv.base_url) as c:
        codes = [c.get(ISSUE).status_code for _ in range(9)]
        assert codes == [500, 500, 200] * 3
        # Another URL has its own streak.
        assert c.get("/repos/demo-ai/modelkit/issues/102").status_code == 500


def test_probabilistic_faults_are_reproducible_and_counted():
    spec = "429:0.05,429-retry-after:0.03,500:0.02,502:0.02,503:0.02,cutoff:0.02,malformed:0.02,repeat-page:0.05"

    def run(seed: int) -> tuple[list, dict]:
        seq = []
        with ReplayServer(DEMO, faults=spec, fault_seed=seed) as srv, httpx2.Client(base_url=srv.base_url) as c:
            for i in range(60):
                try:
                    r = c.get(LIST, params={"per_page": 3, "page": 1 + i % 4})
                    seq.append(r.status_code)
                except httpx2.HTTPError as exc:
                    seq.append(type(exc).__name__)
            return seq, srv.stats()

    a, stats_a = run(7)
    b, _ = run(7)
    c, _ = run(8)
    assert a == b
    assert a != c
    injected = sum(stats_a["faults_injected"].values())
    assert injected > 0
    assert stats_a["total"] == 60
    assert set(stats_a["faults_injected"]) <= set(spec.replace(":", ",").split(",")[::2])


@pytest.mark.parametrize("spec, message", [
    ("boom:0.1", "unknown kind"), ("500:2", "between 0 and 1"), ("500@x", "request number"),
    ("500:0.6,502:0.6", "more than 1"), ("500", "kind:probability"),
])
def test_bad_fault_specs(spec, message):
    with pytest.raises(FixloreError, match=message):
        parse_spec(spec)


def test_fault_plan_skips_kinds_that_do_not_apply():
    plan = FaultPlan("repeat-page@1,cutoff@2", seed=0)
    assert plan.choose(1, "u", {"500"}) is None
    assert plan.choose(2, "u", {"cutoff"}) == "cutoff"


# ---------- token

@pytest.mark.parametrize("headers, params", [
    ({"Authorization": "Bearer s3cret"}, {}),
    ({"PRIVATE-TOKEN": "s3cret"}, {}),
    ({}, {"access_token": "s3cret"}),
])
def test_gitcode_accepts_its_three_token_forms(headers, params):
    with ReplayServer(DEMO, token="s3cret") as srv:
        assert httpx2.get(srv.base_url + ISSUE, headers=headers, params=params).status_code == 200


@pytest.mark.parametrize("headers, params", [
    ({}, {}),
    ({"Authorization": "Bearer wrong"}, {}),
    ({"Authorization": "token s3cret"}, {}),  # GitHub's form, not GitCode's
    ({}, {"access_token": "s3cre"}),
])
def test_gitcode_refuses_anything_else(headers, params):
    with ReplayServer(DEMO, token="s3cret") as srv:
        r = httpx2.get(srv.base_url + ISSUE, headers=headers, params=params)
        assert r.status_code == 401 and r.json() == {"message": "401 Unauthorized"}
        assert srv.stats()["by_status"] == {"401": 1}


def test_github_token_forms():
    with ReplayServer(MINI, token="ghp_x") as srv:
        url = srv.base_url + "/repos/minilab/widgets/issues/96"
        assert httpx2.get(url, headers={"Authorization": "token ghp_x"}).status_code == 200
        assert httpx2.get(url, headers={"Authorization": "Bearer ghp_x"}).status_code == 200
        refused = httpx2.get(url, headers={"PRIVATE-TOKEN": "ghp_x"})
        assert refused.status_code == 401 and refused.json()["message"] == "Bad credentials"
        assert httpx2.get(url, params={"access_token": "ghp_x"}).status_code == 401


def test_token_never_appears_in_stats_or_output(capsys):
    with ReplayServer(DEMO, token="s3cret-value") as srv:
        httpx2.get(srv.base_url + ISSUE, params={"access_token": "s3cret-value"})
        httpx2.get(srv.base_url + ISSUE, params={"access_token": "wrong-value"})
        dumped = json.dumps(srv.stats())
    out = capsys.readouterr()
    assert "s3cret-value" not in dumped + out.out + out.err
    assert "wrong-value" not in out.out + out.err


# ---------- reload

def test_reload_serves_the_changed_world(tmp_path):
    world = tmp_path / "demo"
    shutil.copytree(DEMO, world)
    with ReplayServer(world) as srv, httpx2.Client(base_url=srv.base_url) as c:
        assert c.get(ISSUE).json()["title"].startswith("[Bug] W8A8")
        path = world / "repos" / "demo-ai" / "modelkit" / "issues" / "101.json"
        obj = json.loads(path.read_text(encoding="utf-8"))
        obj["title"] = "changed title"
        path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
        assert c.get(ISSUE).json()["title"].startswith("[Bug] W8A8")  # cached until reload
        srv.reload()
        assert c.get(ISSUE).json()["title"] == "changed title"


def test_a_broken_world_file_is_a_500_not_a_dropped_connection(tmp_path):
    world = tmp_path / "demo"
    shutil.copytree(DEMO, world)
    (world / "repos" / "demo-ai" / "modelkit" / "issues" / "101.json").write_text("{broken", encoding="utf-8")
    with ReplayServer(world) as srv, httpx2.Client(base_url=srv.base_url) as c:
        r = c.get(ISSUE)
        assert r.status_code == 500 and "101.json" in r.json()["message"]
        assert c.get("/repos/demo-ai/modelkit/issues/102").status_code == 200
        assert srv.stats()["by_status"] == {"200": 1, "500": 1}


def test_context_manager_and_explicit_start_stop():
    srv = ReplayServer(DEMO)
    srv.start()
    try:
        assert httpx2.get(srv.base_url + ISSUE).status_code == 200
    finally:
        srv.stop()
    with pytest.raises(httpx2.ConnectError):
        httpx2.get(srv.base_url + ISSUE, timeout=2)
