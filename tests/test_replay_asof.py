"""A world as of a moment (fixlore.replay.asof): property tests of the pure filters, and the
demo world served through the replay server as of an earlier time."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx2 as httpx
from hypothesis import given, settings, strategies as st

from fixlore.replay.asof import WorldAsOf, issue_as_of, item_time, items_as_of, pull_as_of
from fixlore.replay.server import ReplayServer
from fixlore.replay.world import World
from fixlore.core.timeutil import parse_time

DEMO = Path(__file__).resolve().parents[1] / "worlds" / "demo"
CST = timezone(timedelta(hours=8))
BASE = datetime(2026, 9, 1, tzinfo=CST)

minutes = st.integers(min_value=0, max_value=60 * 24 * 30)


def at(m: int | None) -> str:
    return "" if m is None else (BASE + timedelta(minutes=m)).isoformat()


@st.composite
def gitcode_issue(draw):
    created = draw(minutes)
    closed = draw(st.one_of(st.none(), st.integers(min_value=created, max_value=created + 60 * 24 * 20)))
    comment_times = draw(st.lists(st.integers(min_value=created, max_value=created + 60 * 24 * 25), max_size=5))
    toggles = []
    if closed is not None:
        toggles.append(("closed", closed))
        if draw(st.booleans()):              # reopened later, maybe closed again
            reopen = draw(st.integers(min_value=closed, max_value=closed + 60 * 24 * 5))
            toggles.append(("reopened", reopen))
            if draw(st.booleans()):
                closed = draw(st.integers(min_value=reopen, max_value=reopen + 60 * 24 * 5))
                toggles.append(("closed", closed))
            else:
                closed = None
    last = max([created, *comment_times, *(t for _, t in toggles)])
    issue = {"number": "7", "state": "closed" if closed is not None else "open", "created_at": at(created),
             "updated_at": at(last), "finished_at": at(closed), "comments": len(comment_times)}
    events = [{"action_type": a, "created_at": at(t)} for a, t in toggles]
    comments = [{"id": i, "body": "x", "created_at": at(t)} for i, t in enumerate(comment_times)]
    return issue, events, comments


@settings(max_examples=200, deadline=None)
@given(gitcode_issue(), minutes)
def test_issue_as_of_shows_nothing_later(data, offset):
    issue, events, comments = data
    before = copy.deepcopy(issue)
    when = BASE + timedelta(minutes=offset)
    got = issue_as_of(issue, when, "gitcode", events=events, comments=comments)
    assert issue == before                                       # the input is never changed
    if parse_time(issue["created_at"]) > when:
        assert got is None
        return
    assert parse_time(got["updated_at"]) <= when
    assert got["comments"] == sum(1 for c in comments if parse_time(c["created_at"]) <= when)
    toggles = [(parse_time(e["created_at"]), e["action_type"]) for e in events if parse_time(e["created_at"]) <= when]
    closed_then = bool(toggles) and sorted(toggles, key=lambda ta: ta[0])[-1][1] == "closed"
    assert (got["state"] == "closed") == closed_then
    if closed_then:
        assert parse_time(got["finished_at"]) <= when
    else:
        assert got["finished_at"] == ""


@settings(max_examples=100, deadline=None)
@given(gitcode_issue())
def test_issue_as_of_the_last_moment_is_the_issue(data):
    issue, events, comments = data
    last = max(parse_time(t) for t in [issue["updated_at"], issue["created_at"]])
    assert issue_as_of(issue, last + timedelta(days=1), "gitcode", events=events, comments=comments) == issue


@settings(max_examples=200, deadline=None)
@given(minutes, st.one_of(st.none(), minutes), st.one_of(st.none(), minutes), minutes, st.booleans())
def test_pull_as_of_never_merged_early(created, merged_after, closed_after, offset, closed_variant):
    merged = None if merged_after is None else created + merged_after
    closed = None if closed_after is None else created + closed_after
    if merged is not None:
        closed = merged
    state = "merged" if merged is not None and not closed_variant else "closed" if closed is not None else "open"
    pull = {"number": 3, "state": state, "created_at": at(created), "merged_at": at(merged), "closed_at": at(closed),
            "updated_at": at(max(t for t in (created, merged, closed) if t is not None))}
    when = BASE + timedelta(minutes=offset)
    got = pull_as_of(pull, when)
    if created > offset:
        assert got is None
        return
    merged_then = merged is not None and merged <= offset
    assert bool(got["merged_at"]) == merged_then
    assert (got["state"] == "open") == (not merged_then and not (closed is not None and closed <= offset))
    assert parse_time(got["updated_at"]) <= when


@given(st.lists(st.one_of(st.none(), minutes), max_size=8), minutes)
def test_items_as_of_keeps_exactly_the_earlier_ones(times, offset):
    items = [{"id": i} if t is None else {"id": i, "created_at": at(t)} for i, t in enumerate(times)]
    kept = items_as_of(items, BASE + timedelta(minutes=offset))
    assert [x["id"] for x in kept] == [i for i, t in enumerate(times) if t is None or t <= offset]


def test_commit_time_is_read_from_the_commit():
    commit = {"sha": "a", "commit": {"author": {"date": "2026-09-15T13:01:07+08:00"},
                                     "committer": {"date": "2026-09-15T14:00:00+08:00"}}}
    assert item_time(commit) == datetime(2026, 9, 15, 14, 0, tzinfo=CST)


def test_demo_as_of_snapshot_is_the_world():
    world, late = World(DEMO), WorldAsOf(DEMO, datetime(2030, 1, 1, tzinfo=timezone.utc))
    for owner, repo in world.repos():
        assert late.issue_numbers(owner, repo) == world.issue_numbers(owner, repo)
        for n in world.issue_numbers(owner, repo):
            assert late.issue(owner, repo, n) == world.issue(owner, repo, n)
        for n in world.pull_numbers(owner, repo):
            assert late.pull(owner, repo, n) == world.pull(owner, repo, n)


def test_demo_as_of_an_earlier_day_hides_later_events():
    when = datetime(2026, 9, 18, 0, 0, tzinfo=CST)
    world, then = World(DEMO), WorldAsOf(DEMO, when)
    hidden = reverted = 0
    for owner, repo in world.repos():
        for n in world.issue_numbers(owner, repo):
            now, past = world.issue(owner, repo, n), then.issue(owner, repo, n)
            if parse_time(now["created_at"]) > when:
                assert past is None and n not in then.issue_numbers(owner, repo)
                hidden += 1
                continue
            closed = parse_time(past["finished_at"])
            assert closed is None or closed <= when
            if now["state"] == "closed" and past["state"] == "open":
                reverted += 1
            for c in then.issue_file(owner, repo, n, "comments") or []:
                assert parse_time(c["created_at"]) <= when
            for p in then.issue_file(owner, repo, n, "pulls") or []:
                assert not p.get("merged_at") or parse_time(p["merged_at"]) <= when
        for n in then.pull_numbers(owner, repo):
            p = then.pull(owner, repo, n)
            assert parse_time(p["created_at"]) <= when
            assert not p.get("merged_at") or parse_time(p["merged_at"]) <= when
    assert reverted > 0          # the demo world closes issues on 09-18 and later


def test_replay_server_as_of_serves_the_earlier_world():
    when = datetime(2026, 9, 18, 0, 0, tzinfo=CST)
    with ReplayServer(DEMO, as_of=when) as srv, ReplayServer(DEMO) as full:
        path = "/repos/demo-ai/infer-serve/issues?state=closed&per_page=100"
        past = httpx.get(srv.base_url + path).json()
        now = httpx.get(full.base_url + path).json()
        assert len(past) < len(now)
        assert all(parse_time(i["finished_at"]) <= when for i in past)
        one = httpx.get(srv.base_url + "/repos/demo-ai/infer-serve/issues/31").json()
        assert one["state"] == "open" and one["finished_at"] == ""      # closed on 09-18 10:00


def test_replay_cli_serves_as_of_and_refuses_a_bad_time():
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "fixlore", "replay", str(DEMO), "--as-of", "2026-09-18T00:00:00+08:00"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert "as of 2026-09-18T00:00:00+08:00" in first
        base = first.split(" at ")[-1].strip()
        issue = httpx.get(base + "/repos/demo-ai/infer-serve/issues/31").json()
        assert issue["state"] == "open"
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    bad = subprocess.run([sys.executable, "-m", "fixlore", "replay", str(DEMO), "--as-of", "yesterday"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--as-of must be an ISO date" in bad.stderr and "Traceback" not in bad.stderr
