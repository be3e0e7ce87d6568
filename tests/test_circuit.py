"""The retry budget and circuit breaker per host (issue #21): a dead platform host or model endpoint
is given up on after a few requests, said once, and every later request fails at once; one broken
URL costs its own item only; rate-limit waits never trip it; the digest says what fell back.
Nothing here is timed: the requests the fake servers received are counted instead."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import httpx2
import pytest

from fake_openai import FakeOpenAI, Status
from fixlore.edges.circuit import Breaker
from fixlore.core.errors import SourceError
from fixlore.edges.llmclient import ChatClient, EndpointDown
from fixlore.replay.deadhosts import DyingReplay, SilentPort, closed_port
from fixlore.replay.server import ReplayServer
from fixlore.sources import make_source
from fixlore.sources.http import ApiClient, ApiError, HostDown, RateLimiter
from fixlore.sources.offline import read_world_meta
from fixlore.store import Store
from fixlore.core.timeutil import parse_time

DEMO = Path(__file__).resolve().parents[1] / "worlds" / "demo"


# ---------------------------------------------------------------------------
# The breaker alone


def test_one_url_failing_again_and_again_never_opens_it():
    b = Breaker("h")
    assert not any(b.failed("/a", 1.0) for _ in range(20))
    assert not b.is_open and b.refuse() is None


def test_it_opens_when_several_requests_in_a_row_fail_and_then_refuses_every_one():
    b = Breaker("h", open_after=3)
    assert not b.failed("/a", 0.1) and not b.failed("/b", 0.1)
    assert b.failed("/c", 0.1) is True
    assert b.is_open and "3 requests in a row" in b.reason
    assert b.refuse() == b.reason and b.refuse() == b.reason
    assert b.snapshot()["short_circuited"] == 2 and b.snapshot()["state"] == "open"
    assert b.announce() is True and b.announce() is False        # said once


def test_an_answer_between_failures_or_a_rate_limit_ends_the_streak():
    b = Breaker("h", open_after=3)
    b.failed("/a", 0.1), b.failed("/b", 0.1)
    b.succeeded()
    b.failed("/c", 0.1), b.failed("/d", 0.1)
    b.answered()                                   # a 429: the host is alive, just busy
    assert not b.failed("/e", 0.1) and not b.is_open


def test_a_long_streak_opens_at_the_second_request_and_stops_retries():
    b = Breaker("h", give_up_after=20.0)
    assert not b.failed("/a", 5.0)
    assert b.may_retry(10.0) == ""                 # 15 s of 20
    assert "failing for 15 s" in b.may_retry(8.0)  # would pass 20 s
    assert b.failed("/b", 6.0) is True             # 21 s, two requests


def test_the_retry_budget_is_a_floor_plus_a_share_of_the_answers():
    b = Breaker("h", retry_floor=2, retry_ratio=0.5)
    assert b.may_retry(0.0) == "" and b.may_retry(0.0) == ""
    assert b.may_retry(0.0) == "the run's retry budget spent"
    b.succeeded(), b.succeeded()
    assert b.may_retry(0.0) == "" and b.may_retry(0.0) != ""
    for _ in range(100):
        b.succeeded()
    assert b.tokens == 2                           # never more banked than the floor


# ---------------------------------------------------------------------------
# The platform client (MockTransport; sleeps advance a fake clock)


def client(handler, **kw):
    slept, now = [], [1_000_000.0]

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    seen: list[str] = []

    def transport(request):
        seen.append(request.url.path)
        return handler(request)

    c = ApiClient("https://api.example.test/api/v5", "gitcode", "tok", transport=httpx2.MockTransport(transport),
                  limiter=RateLimiter(clock=lambda: now[0], sleep=sleep), sleep=sleep, backoff_base=1.0, **kw)
    c.slept, c.seen = slept, seen
    return c


def ok(request):
    return httpx2.Response(200, json={"path": request.url.path})


@pytest.mark.parametrize("death", ["500", "refused"])
def test_a_host_that_dies_is_given_up_on_after_a_few_requests(death, caplog):
    alive = [True]

    def handler(request):
        if alive[0]:
            return ok(request)
        if death == "refused":
            raise httpx2.ConnectError("connection refused")
        return httpx2.Response(500, json={"message": "500 Internal Server Error"})

    c = client(handler)
    c.get("/first")
    alive[0] = False
    caplog.set_level(logging.WARNING, logger="fixlore.sources.http")
    outcomes = []
    for n in range(30):                            # 30 items to read: the first few cost retries
        try:
            c.get(f"/item/{n}")
            outcomes.append("ok")
        except HostDown:
            outcomes.append("down")
        except ApiError:                           # not a run-stopping SourceError: the item is named
            outcomes.append("item")
    sent_after_death = len(c.seen) - 1
    assert outcomes[:2] == ["item", "item"] and set(outcomes[2:]) == {"down"}
    assert sent_after_death <= 2 * c.max_attempts + 1                # not 30 x 8 attempts
    assert sum(c.slept) <= c.breaker.give_up_after                    # waits bounded by the streak
    assert c.accounting.snapshot()["circuit"]["short_circuited"] == 27
    said = [r for r in caplog.records if "stopped answering" in r.getMessage()]
    assert len(said) == 1 and "api.example.test" in said[0].getMessage()


def test_host_down_is_an_api_error_so_per_item_handling_records_it():
    assert issubclass(HostDown, ApiError) and issubclass(HostDown, SourceError)
    err = HostDown("/x", "h", "3 requests in a row failed")
    assert err.status == HostDown.STATUS and "stopped answering" in str(err)


def test_one_broken_url_costs_its_own_item_only():
    c = client(lambda r: httpx2.Response(500, json={}) if r.url.path.endswith("/broken") else ok(r))
    for n in range(5):
        with pytest.raises(ApiError) as err:
            c.get("/broken")
        assert not isinstance(err.value, HostDown)
        assert c.get(f"/fine/{n}").data == {"path": f"/api/v5/fine/{n}"}
    assert not c.breaker.is_open
    # the first broken read retried within the streak's 20 s, not the full 8-attempt schedule
    assert c.seen.count("/api/v5/broken") < 5 * c.max_attempts


def test_retries_stop_growing_with_the_number_of_broken_endpoints():
    c = client(lambda r: httpx2.Response(502, text="bad gateway") if "/broken/" in r.url.path else ok(r))
    for n in range(40):
        with pytest.raises(ApiError):
            c.get(f"/broken/{n}")
        c.get(f"/fine/{n}")
    b = c.breaker
    assert not b.is_open                                             # each failure was followed by answers
    assert c.accounting.retries <= b.retry_floor + b.retry_ratio * 40   # 30, not 40 x 7
    assert b.snapshot()["retries_refused"] > 0


@pytest.mark.parametrize("limit", [
    httpx2.Response(429, json={"message": "rate limited"}),
    httpx2.Response(403, json={"message": "API rate limit exceeded"},
                    headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1000005"}),
    httpx2.Response(503, text="maintenance", headers={"Retry-After": "2"}),
])
def test_rate_limit_waits_never_trip_the_breaker(limit):
    c = client(lambda r: limit)
    for n in range(6):
        with pytest.raises(ApiError):
            c.get(f"/item/{n}")
    assert not c.breaker.is_open
    assert len(c.seen) == 6 * c.max_attempts                         # every wait the platform asked for, kept
    assert c.breaker.snapshot()["retries_refused"] == 0


def test_a_host_that_never_answered_still_stops_the_run_with_its_name():
    c = client(lambda r: (_ for _ in ()).throw(httpx2.ConnectError("refused")), max_attempts=3)
    with pytest.raises(SourceError, match="cannot reach api.example.test") as err:
        c.get("/x")
    assert not isinstance(err.value, ApiError)


# ---------------------------------------------------------------------------
# The harvest against a replay server that dies mid-run


def harvest_with(world: Path, db: str, base_url: str, **kw):
    from fixlore.harvest.harvester import harvest

    meta = read_world_meta(world)
    store = Store.open(db)
    c = ApiClient(base_url, meta["platform"], cache=store.http_cache(), rate_limit=False, backoff_base=0.01,
                  backoff_max=0.05, **kw)
    try:
        report = harvest(store, make_source(meta["platform"], c), meta["orgs"], parse_time(meta["window"]["since"]))
    finally:
        c.close()
    return store, report, c


def test_a_platform_dying_mid_harvest_records_the_rest_and_the_next_run_reads_it(make_world, tmp_path, caplog):
    world = make_world(repos=4, closed_in_window=30, other_updated=5, old_issues=5, seed=5)
    with ReplayServer(world) as srv:
        clean, _, _ = harvest_with(world, f"sqlite:///{tmp_path / 'clean.db'}", srv.base_url)
        total = srv.stats()["total"]
    caplog.set_level(logging.WARNING)
    db = f"sqlite:///{tmp_path / 'dying.db'}"
    with DyingReplay(world, after=total // 3, how="500") as dying:
        store, report, c = harvest_with(world, db, dying.base_url)
        sent_after_death = dying.unanswered
    assert c.breaker.is_open
    assert sent_after_death <= 2 * c.max_attempts + 1
    not_read = {f["repo"] for f in report.unreadable}
    assert not_read and {f["status"] for f in report.unreadable} & {HostDown.STATUS}
    said = [r.getMessage() for r in caplog.records if "asks it nothing more" in r.getMessage()]
    assert len(said) == 1 and dying.host in said[0]                  # the host, once
    assert sum("not read, the host having stopped answering" in r.getMessage() for r in caplog.records) == 1
    # a dead host is the run's news, not every remaining item's: no part is noted as unread for it
    assert not [f for f in store.item_failures() if f["status"] == HostDown.STATUS]
    # the next run, the host back, reads what this one could not: nothing is lost
    with ReplayServer(world) as srv:
        store, report, _ = harvest_with(world, db, srv.base_url)
    assert report.unreadable == [] and store.canonical_dump() == clean.canonical_dump()


# ---------------------------------------------------------------------------
# The model endpoint


def test_a_dead_endpoint_is_found_by_one_probe_and_never_asked():
    chat = ChatClient(base_url=f"http://127.0.0.1:{closed_port()}/v1", model="m", api_key="k", timeout=30,
                      attempts=4, backoff_base=0.01)
    for n in range(5):
        with pytest.raises(EndpointDown, match="connection refused"):
            chat.ask([{"role": "user", "content": f"case {n}"}])
    assert chat.requests == 0 and chat.breaker.snapshot()["short_circuited"] == 5


def test_a_hanging_endpoint_costs_one_probe_not_a_timeout_per_case():
    with SilentPort() as silent:
        chat = ChatClient(base_url=silent.base_url, model="m", api_key="k", timeout=60, probe_timeout=0.3)
        for n in range(5):
            with pytest.raises(EndpointDown, match="no answer to GET /models within 0.3 s"):
                chat.ask([{"role": "user", "content": f"case {n}"}])
        assert silent.accepted == 1 and chat.requests == 0


def test_an_endpoint_failing_every_request_opens_after_a_few_and_the_rest_are_not_sent():
    with FakeOpenAI(default=lambda user: Status(500)) as fake:
        chat = ChatClient(base_url=fake.base_url, model="m", api_key="k", timeout=5, attempts=4,
                          backoff_base=0.01, backoff_max=0.02)
        raised = []
        for n in range(10):
            try:
                chat.ask([{"role": "user", "content": f"case {n}"}])
            except Exception as exc:  # noqa: BLE001
                raised.append(type(exc).__name__)
        sent = len(fake.requests)
    assert raised[:2] == ["InternalServerError"] * 2 and set(raised[2:]) == {"EndpointDown"}
    assert sent == 4 + 4 + 1                                         # then nothing more


def test_a_rate_limited_endpoint_is_waited_for_not_given_up_on():
    import openai         # here, not at the top: collecting every test file imported it (~0.4 s a worker)

    with FakeOpenAI(default=lambda user: Status(429, {"retry-after": "0"})) as fake:
        chat = ChatClient(base_url=fake.base_url, model="m", api_key="k", timeout=5, attempts=3, backoff_base=0.01)
        for n in range(5):
            with pytest.raises(openai.RateLimitError):
                chat.ask([{"role": "user", "content": f"case {n}"}])
        assert len(fake.requests) == 5 * 3 and not chat.breaker.is_open


def test_a_run_with_a_dead_endpoint_falls_back_at_once_and_the_digest_says_so(tmp_path, monkeypatch):
    from fixlore.pipeline import RunRequest, run_pipeline

    dead = f"127.0.0.1:{closed_port()}"
    monkeypatch.setenv("FIXLORE_LLM_BASE_URL", f"http://{dead}/v1")
    monkeypatch.setenv("FIXLORE_LLM_MODEL", "m")
    info = run_pipeline(RunRequest(world=DEMO, out=tmp_path / "out"))
    stages = {s["name"]: s.get("summary") or {} for s in info["stages"]}
    llm = stages["analyse"]["llm"]
    assert llm["circuit"]["state"] == "open" and llm["requests"] == 0
    assert set(llm["llm_failures"]) == {"endpoint down"} and llm["llm_failed"] == stages["analyse"]["analysed"]
    check = stages["kb"]["verified"]
    assert check["cases_on_threshold"] == check["cases"] > 0 and check["failures"] == {"endpoint down": check["cases"]}
    en = (tmp_path / "out" / "digest.en.md").read_text("utf-8")
    zh = (tmp_path / "out" / "digest.zh.md").read_text("utf-8")
    kb_line = next(line for line in en.splitlines() if line.startswith("- **Knowledge base**"))
    assert f"passage check failed for {check['cases']} of {check['cases']} cases (endpoint down" in kb_line
    assert f"the model endpoint {dead} stopped answering" in kb_line
    an_line = next(line for line in en.splitlines() if line.startswith("- **Analysis**"))
    assert f"{llm['llm_failed']} fell back to offline" in an_line and "the breaker opened" in an_line
    assert f"模型端点 {dead} 停止应答" in zh
    record = json.loads((tmp_path / "out" / "run.json").read_text("utf-8"))
    assert record["status"] == "ok"
