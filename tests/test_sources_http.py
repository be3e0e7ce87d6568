import json

import httpx2
import pytest

from fixlore.core.errors import SourceError
from fixlore.sources.http import ApiClient, ApiResponse, MemoryCache, RateLimiter, TokenBucket

TOKEN = "tok-SECRET-123456"


class Script:
    """A MockTransport handler that plays a list of responses (or exceptions) in order."""

    def __init__(self, *steps):
        self.steps = list(steps)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        if isinstance(step, Exception):
            raise step
        return step(request) if callable(step) else step


def ok(data, **headers):
    return httpx2.Response(200, json=data, headers=headers)


def client(handler, platform="gitcode", **kw):
    """A client whose sleeps advance a fake clock instead of waiting."""
    slept, now = [], [1_000_000.0]

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    kw.setdefault("limiter", RateLimiter(clock=lambda: now[0], sleep=sleep))
    c = ApiClient("https://api.example.test/api/v5", platform, TOKEN, transport=httpx2.MockTransport(handler),
                  sleep=sleep, backoff_base=1.0, **kw)
    c.slept = slept
    return c


def test_token_travels_in_headers_only():
    script = Script(ok([]))
    c = client(script)
    c.get("/orgs/x/repos", {"page": 1}, endpoint="/orgs/{org}/repos")
    req = script.requests[0]
    assert req.headers["Authorization"] == f"Bearer {TOKEN}"
    assert req.headers["PRIVATE-TOKEN"] == TOKEN
    assert TOKEN not in str(req.url)
    gh = Script(ok([]))
    client(gh, platform="github").get("/orgs/x/repos")
    assert gh.requests[0].headers["Authorization"] == f"Bearer {TOKEN}" and "PRIVATE-TOKEN" not in gh.requests[0].headers


def test_429_honours_retry_after_and_backs_off_without_it():
    script = Script(httpx2.Response(429, headers={"Retry-After": "7"}), httpx2.Response(429),
                    httpx2.Response(503), ok({"a": 1}))
    c = client(script)
    assert c.get("/x").data == {"a": 1}
    assert c.limiter.pause_until > 0                       # Retry-After paused the limiter
    # Retry-After: no backoff of its own (0.0), the limiter holds every request ~7 s instead.
    assert c.slept[0] == 0.0 and 6.0 <= c.slept[1] <= 7.0
    assert 1.0 <= c.slept[2] <= 2.0 and 2.0 <= c.slept[3] <= 4.0   # jittered exponential backoff
    assert len(c.slept) == 4
    assert c.accounting.by_status == {"429": 2, "503": 1, "200": 1}
    assert c.accounting.retries == 3


def test_cut_off_timeout_and_malformed_json_are_retried():
    script = Script(httpx2.RemoteProtocolError("peer closed connection without sending complete message body"),
                    httpx2.ReadTimeout("stalled"),
                    httpx2.Response(200, content=b'{"broken": ', headers={"content-type": "application/json"}),
                    ok([1, 2]))
    c = client(script)
    assert c.get("/x", endpoint="/x").data == [1, 2]
    assert c.accounting.by_endpoint["/x"] == 4
    assert {"cut_off", "timeout", "malformed"} <= set(c.accounting.by_status)


def test_persistent_malformed_json_is_a_clear_error():
    script = Script(httpx2.Response(200, content=b"<html>oops"))
    with pytest.raises(SourceError, match="malformed JSON"):
        client(script, max_attempts=3).get("/x")


def test_unreachable_host_names_the_host():
    script = Script(httpx2.ConnectError("connection refused"))
    with pytest.raises(SourceError, match="cannot reach api.example.test") as err:
        client(script, max_attempts=2).get("/x")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("status", [401, 403])
def test_bad_token_is_one_line_without_the_token(status):
    script = Script(httpx2.Response(status, json={"message": f"401 Unauthorized token {TOKEN}"}))
    with pytest.raises(SourceError) as err:
        client(script).get("/orgs/x/repos")
    text = str(err.value)
    assert "token" in text and TOKEN not in text and "\n" not in text


def test_error_body_shapes():
    from fixlore.sources.http import error_message

    assert error_message({"message": "401 Unauthorized"}) == "401 Unauthorized"
    assert error_message({"error_code": 400, "error_code_name": "UN_KNOW", "error_message": "bad"}) == "bad"
    assert error_message({"error": "Pull Request不存在或未合并"}) == "Pull Request不存在或未合并"


def test_etag_304_reuses_the_stored_body():
    def handler(request):
        if request.headers.get("If-None-Match") == '"v1"':
            return httpx2.Response(304)
        return httpx2.Response(200, json=[{"id": 1}], headers={"ETag": '"v1"', "total_page": "1"})

    cache = MemoryCache()
    c = client(Script(handler), cache=cache)
    first = c.get("/repos/o/r/issues", {"page": 1})
    second = c.get("/repos/o/r/issues", {"page": 1})
    assert second.data == first.data == [{"id": 1}] and second.from_cache
    assert second.headers.get("total_page") == "1"
    assert c.accounting.by_status == {"200": 1, "304": 1}
    assert all(TOKEN not in json.dumps(v) for v in cache.entries.values())


def _pages(pages, repeat_at=None):
    served = []

    def handler(request):
        page = int(request.url.params["page"])
        served.append(page)
        if repeat_at is not None and page == repeat_at and served.count(page) == 1:
            return ok(pages[page - 2], total_page=str(len(pages)))
        return ok(pages[page - 1] if page <= len(pages) else [], total_page=str(len(pages)))

    return handler, served


def test_gitcode_paging_stops_on_short_page_and_survives_a_repeated_page():
    pages = [[{"id": i} for i in range(k * 100, k * 100 + 100)] for k in range(2)] + [[{"id": 999}]]
    handler, served = _pages(pages, repeat_at=2)
    c = client(handler)
    got = [item["id"] for page in c.paginate("/x", per_page=100) for item in page]
    assert got == list(range(200)) + [999]
    assert served == [1, 2, 2, 3]


def test_a_page_that_keeps_repeating_ends_paging_and_is_named():
    # A full page, whatever page is asked, and no total: the server serves nothing more; the list
    # ends there and the client names it (before, the repo was failed and every item of it lost).
    handler = Script(ok([{"id": i} for i in range(100)]))
    c = client(handler)
    pages = list(c.paginate("/x", per_page=100))
    assert len(pages) == 1 and len(handler.requests) == 1 + 4
    assert all("If-None-Match" not in r.headers for r in handler.requests[2:])   # re-fetches skip the cache
    (note,) = c.paging_report()
    assert note["kind"] == "repeated-page" and note["lists"] == 1 and "page 2 kept repeating" in note["detail"]


def test_a_page_that_keeps_repeating_while_a_total_announces_more_is_a_failure_not_an_end():
    from fixlore.sources.http import ApiError

    handler = Script(ok([{"id": i} for i in range(100)], total_count="250"))
    c = client(handler)
    pages = []
    with pytest.raises(ApiError, match="page 2 kept repeating") as err:
        for page in c.paginate("/x", per_page=100):
            pages.append(page)
    assert len(pages) == 1 and len(handler.requests) == 1 + 4 and err.value.status == "repeated-page"


def _paged_server(total: int, cap: int, totals: bool = True, ignore_page: bool = False, repeat_once: set = (),
                  key=lambda i: {"id": i}):
    """A page-numbered list of ``total`` items, ``per_page`` capped at ``cap``."""
    asked: list[int] = []

    def handler(request):
        page = 1 if ignore_page else int(request.url.params.get("page", 1))
        per_page = min(int(request.url.params.get("per_page", 20)), cap)
        if page in repeat_once and page not in asked:
            page -= 1
        asked.append(int(request.url.params.get("page", 1)))
        items = [key(i) for i in range(total)][(page - 1) * per_page: page * per_page]
        headers = {"total_page": str(-(-total // per_page)), "total_count": str(total)} if totals else {}
        return ok(items, **headers)
    return handler, asked


@pytest.mark.parametrize("totals", [True, False])
@pytest.mark.parametrize("total", [0, 30, 50, 120, 150])
def test_capped_page_size_loses_nothing(total, totals):
    handler, asked = _paged_server(total, cap=50, totals=totals)
    got = [i["id"] for p in client(handler).paginate("/x", per_page=100) for i in p]
    assert got == list(range(total))
    assert len(asked) <= -(-total // 50) + (0 if totals else 1) + (1 if total == 0 else 0)


@pytest.mark.parametrize("totals", [True, False])
def test_a_list_that_ignores_page_and_has_no_id_ends(totals):
    handler, asked = _paged_server(7, cap=100, totals=totals, ignore_page=True, key=lambda i: {"sha": f"c{i}"})
    got = [i["sha"] for p in client(handler).paginate("/x", per_page=100) for i in p]
    assert got == [f"c{i}" for i in range(7)] and len(asked) <= 5


@pytest.mark.parametrize("keyed", ["id", "sha", "number", "none"])
def test_a_repeated_page_is_fetched_again_until_it_changes(keyed):
    make = {"id": lambda i: {"id": i}, "sha": lambda i: {"sha": f"s{i}"}, "number": lambda i: {"number": i},
            "none": lambda i: {"title": f"t{i}"}}[keyed]
    handler, asked = _paged_server(250, cap=100, repeat_once={2, 3}, key=make)
    got = [it for p in client(handler).paginate("/x", per_page=100) for it in p]
    assert got == [make(i) for i in range(250)] and asked == [1, 2, 2, 3, 3]


def test_github_link_paging():
    def handler(request):
        page = int(request.url.params.get("page", 1))
        link = '<https://api.example.test/api/v5/x?page=2&per_page=2>; rel="next"' if page == 1 else ""
        return ok([{"id": page * 10}, {"id": page * 10 + 1}] if page == 1 else [{"id": 99}], Link=link)

    c = client(handler, platform="github")
    assert [i["id"] for p in c.paginate("/x", per_page=2, style="link") for i in p] == [10, 11, 99]
    assert ApiResponse(200, [], {"link": '<u1>; rel="next", <u2>; rel="last"'}, "").links == {"next": "u1", "last": "u2"}


@pytest.mark.parametrize("link, follows", [
    ("garbage", False), ("<>", False), ("<u1>", False), ("<u1>; rel=", False), ('rel="next"', False),
    ("<u1>; rel=a=b; x", False), (";;;,,<", False), ("\x00<\x00>;rel=\x00", False),
    ('<u1>; rel="next"; <u2', True), ('"<u1>; rel=next"', True)])
def test_a_malformed_link_header_does_not_crash_the_paging(link, follows):
    def handler(request):
        if request.url.params.get("page") == "1":
            return ok([{"id": 1}], Link=link)
        return ok([{"id": 99}])

    c = client(handler, platform="github")
    got = [i["id"] for p in c.paginate("/x", per_page=1, style="link") for i in p]
    assert got == ([1, 99] if follows else [1])     # a readable rel="next" is followed, nothing else


def test_a_link_header_survives_a_304_from_the_cache():
    link = '<https://api.example.test/api/v5/x?page=2>; rel="next"'
    script = Script(httpx2.Response(200, json=[1], headers={"ETag": '"e1"', "Link": link}),
                    httpx2.Response(304, headers={"ETag": '"e1"'}))
    c = client(script, cache=MemoryCache())
    c.get("/x")
    again = c.get("/x")
    assert again.from_cache and again.links == {"next": "https://api.example.test/api/v5/x?page=2"}


def test_github_remaining_low_sleeps_until_reset():
    now = [1000.0]
    limiter = RateLimiter(clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    limiter.observe(httpx2.Headers({"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1100"}))
    limiter.acquire()
    assert now[0] >= 1100


@pytest.mark.parametrize("date, waited", [(None, 1.0), (900.0, 31.0), ("not a date", 1.0)])
def test_the_wait_until_a_reset_is_measured_on_the_servers_clock(date, waited):
    """Our clock (1000) runs 100 s ahead of the server's (900), whose reset is 30 s away by its Date:
    the wait is 30 s and a second. Without a Date (or one that does not parse), our clock decides: the
    reset looks past, and the wait is the floor of a second, never 0."""
    from email.utils import formatdate

    now = [1000.0]
    limiter = RateLimiter(clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "930"}
    if date is not None:
        headers["date"] = formatdate(date, usegmt=True) if isinstance(date, float) else date
    limiter.observe(httpx2.Headers(headers))
    limiter.acquire()
    assert now[0] - 1000.0 == pytest.approx(waited)


def test_github_secondary_limit_403_is_retried():
    script = Script(httpx2.Response(403, json={"message": "You have exceeded a secondary rate limit"},
                                    headers={"Retry-After": "3"}), ok({"ok": True}))
    assert client(script, platform="github").get("/x").data == {"ok": True}


def test_gitcode_buckets_pace_50_a_minute_with_time_scale():
    now = [0.0]
    bucket = TokenBucket(50, 60.0, time_scale=60.0, clock=lambda: now[0])
    limiter = RateLimiter([bucket], clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    for _ in range(150):
        limiter.acquire()
    # 50 at once, then 100 more at 50 per (60 s / 60) = one real second each 50.
    assert 1.9 <= now[0] <= 2.1


def test_gitcode_sliding_window_never_exceeds_50_in_any_minute():
    from fixlore.sources.http import SlidingWindow

    now = [0.0]
    window = SlidingWindow(50, 60.0, time_scale=60.0, clock=lambda: now[0], margin=0.0)
    limiter = RateLimiter([window], clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    sent = []
    for _ in range(120):
        limiter.acquire()
        sent.append(now[0])
    assert sent[49] == 0.0 and sent[50] >= 1.0 and sent[100] >= 2.0      # bursts of 50 per scaled minute
    assert all(sum(1 for t in sent if start <= t < start + 1.0) <= 50 for start in sent)


@pytest.mark.parametrize("status,body,words", [
    (403, {"error_code": 403, "error_message": "issue module is closed"}, "issue module is closed"),
    (410, {"message": "Issues are disabled for this repo"}, "Issues are disabled"),
    (451, {"message": "Repository access blocked"}, "Repository access blocked"),
    (404, None, "not found"),
])
def test_a_refusal_after_the_token_was_accepted_concerns_that_resource_only(status, body, words):
    from fixlore.sources.http import ApiError, TokenRefused, repo_pages

    script = Script(ok([{"id": 1}]), httpx2.Response(status, json=body) if body else httpx2.Response(status))
    c = client(script)
    c.get("/orgs/x/repos")
    with pytest.raises(ApiError) as err:
        list(repo_pages(c.paginate("/repos/x/y/issues", endpoint="/repos/{owner}/{repo}/issues")))
    assert not isinstance(err.value, TokenRefused)
    assert err.value.status == str(status) and words in err.value.message
    assert "token" not in str(err.value)


def test_a_403_on_the_first_call_is_the_token():
    from fixlore.sources.http import TokenRefused

    script = Script(httpx2.Response(403, json={"message": "Forbidden"}))
    with pytest.raises(TokenRefused, match="refused the API token"):
        client(script).get("/orgs/x/repos")


@pytest.mark.parametrize("status", [403, 429])
def test_github_secondary_limit_without_retry_after_waits_a_minute_then_backs_off(status):
    limited = httpx2.Response(status, json={"message": "You have exceeded a secondary rate limit. Please wait a few "
                                                      "minutes before you try again."})
    script = Script(limited, limited, limited, ok({"ok": True}), limited, ok({"ok": True}))
    c = client(script, platform="github")
    assert c.get("/x").data == {"ok": True}
    assert [round(s) for s in c.slept if s >= 1] == [60, 120, 240]     # >= 60 s, then doubling
    assert c.get("/y").data == {"ok": True}
    assert round(c.slept[-1]) == 60                                     # a success resets the back-off


def test_github_secondary_limit_honours_retry_after_when_sent():
    script = Script(httpx2.Response(403, json={"message": "You have exceeded a secondary rate limit"},
                                    headers={"Retry-After": "90"}), ok({"ok": True}))
    c = client(script, platform="github")
    assert c.get("/x").data == {"ok": True} and [round(s) for s in c.slept if s >= 1] == [90]


def test_a_learned_page_size_spares_the_probe_on_later_lists():
    long_list, asked_long = _paged_server(120, cap=50, totals=False)
    short_list, asked_short = _paged_server(30, cap=50, totals=False)
    c = client(lambda request: (long_list if request.url.path.endswith("/a") else short_list)(request))
    assert len([i for p in c.paginate("/a", endpoint="/{repo}/issues", per_page=100) for i in p]) == 120
    assert asked_long == [1, 2, 3]                         # the probe of page 2 found the cap of 50
    assert len([i for p in c.paginate("/b", endpoint="/{repo}/issues", per_page=100) for i in p]) == 30
    assert asked_short == [1]                              # 30 < 50 on the same endpoint: the end, no probe


def test_each_source_supplies_its_platform_policy():
    """Headers and quotas come from the platform's Source (`policy`), not from branches in the client."""
    from fixlore.sources.gitcode import GitCodeSource
    from fixlore.sources.github import GitHubSource

    gh, gc = Script(ok([])), Script(ok([]))
    client(gh, "github").get("/repos/o/r/issues")
    client(gc, "gitcode").get("/repos/o/r/issues")
    assert gh.requests[0].headers["X-GitHub-Api-Version"] == GitHubSource.policy.headers["X-GitHub-Api-Version"]
    assert gh.requests[0].headers["Accept"] == "application/vnd.github+json"
    assert gc.requests[0].headers["Accept"] == "application/json" and "X-GitHub-Api-Version" not in gc.requests[0].headers
    paced = ApiClient("https://api.example.test/api/v5", "gitcode", rate_limit=True).limiter.buckets
    assert [(b.limit, round(b.period / 1.02)) for b in paced] == [(q, int(p)) for q, p in GitCodeSource.policy.quotas]
    assert ApiClient("https://api.example.test", "github", rate_limit=True).limiter.buckets == []


def test_clients_of_one_process_share_one_tls_context_built_once(monkeypatch):
    """Building a TLS context reads the CA certificates: built once, then every client's."""
    import ssl

    from fixlore.sources import http

    built = []
    make = httpx2.create_ssl_context

    def counting(**kwargs):
        built.append(kwargs)
        return make(**kwargs)

    monkeypatch.setattr(http, "_TLS", None)
    monkeypatch.setattr(httpx2, "create_ssl_context", counting)
    clients = [ApiClient("https://api.example.test/api/v5", "gitcode") for _ in range(3)]
    try:
        assert built == [{"trust_env": False}]
        ctx = http.shared_tls_context()
        assert isinstance(ctx, ssl.SSLContext) and ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
        assert all(c._client._transport._pool._ssl_context is ctx for c in clients)
    finally:
        for c in clients:
            c.close()


# ---------------------------------------------------------------------------
# A list that stops short of what it announces is never taken as ended (docs: gitcode-api.md §5;
# GitCode changelog 2024-11-22 "occasional incomplete pages"; 2024-11-14 "500 pages" paging cap)


@pytest.mark.parametrize("headers", [{"total_page": "3"}, {"total_count": "250"}, {"x-total": "250"}])
def test_an_empty_page_before_the_announced_end_is_asked_again_and_heals(headers):
    served = []

    def handler(request):
        page = int(request.url.params["page"])
        served.append(page)
        items = [{"id": i} for i in range(250)][(page - 1) * 100: page * 100]
        if page == 2 and served.count(2) == 1:
            items = []                       # the incomplete page, once
        return ok(items, **headers)

    got = [i["id"] for p in client(handler).paginate("/x", per_page=100) for i in p]
    assert got == list(range(250)) and served == [1, 2, 2, 3]


@pytest.mark.parametrize("headers, said", [({"total_page": "600"}, "total_page=600"),
                                           ({"total_count": "60000"}, "total_count=60000")])
def test_an_empty_page_that_stays_empty_before_the_announced_end_is_a_failure_not_an_end(headers, said):
    from fixlore.sources.http import ApiError

    def handler(request):                    # a paging cap: page 3 and later come back empty
        page = int(request.url.params["page"])
        return ok([{"id": page * 1000 + i} for i in range(100)] if page <= 2 else [], **headers)

    pages = []
    with pytest.raises(ApiError, match=f"page 3 answered an empty page while {said}") as err:
        for page in client(handler).paginate("/x", per_page=100):
            pages.append(page)
    assert len(pages) == 2 and err.value.status == "truncated"


def test_an_empty_first_page_with_no_totals_or_a_zero_total_is_an_empty_list():
    assert list(client(Script(ok([]))).paginate("/x")) == []
    assert list(client(Script(ok([], total_count="0", total_page="0"))).paginate("/x")) == []


@pytest.mark.parametrize("body", [{"error_code": 500, "error_message": "system busy"}, {"message": "oops"}, None])
def test_an_object_answered_where_a_list_belongs_is_no_empty_list(body):
    from fixlore.sources.http import ApiError

    handler = Script(httpx2.Response(200, json=body) if body is not None else httpx2.Response(200))
    with pytest.raises(ApiError, match="page 1 answered .* instead of a list") as err:
        list(client(handler).paginate("/x"))
    assert err.value.status == "truncated" and len(handler.requests) == 4
    assert "system busy" not in str(err.value)          # the body's text is not repeated


def test_a_404_past_the_first_page_is_a_failure_not_an_end():
    from fixlore.sources.http import ApiError

    def handler(request):
        page = int(request.url.params["page"])
        if page == 1:
            return ok([{"id": i} for i in range(100)], total_page="2")
        return httpx2.Response(404, json={"message": "404 Not Found"})

    c = client(handler)
    pages = []
    with pytest.raises(ApiError, match="page 2 answered 404 after 100 items"):
        for page in c.paginate("/x", not_found_ok=True, per_page=100):
            pages.append(page)
    assert len(pages) == 1
    # a 404 on the first page is still "no such list" for a caller that allows it
    assert list(client(Script(httpx2.Response(404, json={"message": "x"}))).paginate("/z", not_found_ok=True)) == []


def test_an_empty_github_page_that_still_links_a_next_page_is_asked_again():
    served = []

    def handler(request):
        page = int(request.url.params.get("page", 1))
        served.append(page)
        link = f'<https://api.example.test/api/v5/x?page={page + 1}>; rel="next"' if page < 3 else ""
        items = [] if page == 2 and served.count(2) == 1 else [{"id": page}]
        return ok(items, Link=link)

    got = [i["id"] for p in client(handler, platform="github").paginate("/x", per_page=1, style="link") for i in p]
    assert got == [1, 2, 3] and served == [1, 2, 2, 3]


# ---------------------------------------------------------------------------
# 202 Accepted: "not ready yet, ask again" (docs.github.com/en/rest/metrics/statistics: "a 202 ... Give
# the job a few moments to complete, and then submit the request again"; GitCode lists 202 in its codes)


@pytest.mark.parametrize("empty", [httpx2.Response(202), httpx2.Response(202, json={}),
                                   httpx2.Response(202, json=[]), httpx2.Response(202, json=None)])
def test_202_accepted_with_nothing_yet_is_asked_again(empty):
    script = Script(empty, ok({"number": 7}))
    c = client(script, platform="github")
    assert c.get("/repos/o/r/pulls/7").data == {"number": 7}
    assert len(script.requests) == 2 and c.slept


def test_202_accepted_honours_retry_after():
    script = Script(httpx2.Response(202, headers={"Retry-After": "5"}), ok([{"id": 1}]))
    c = client(script)
    assert [i["id"] for p in c.paginate("/x") for i in p] == [1]
    assert sum(c.slept) >= 5


def test_202_accepted_for_ever_is_named_not_read_as_empty():
    from fixlore.sources.http import ApiError

    c = client(Script(httpx2.Response(202, json={})), max_attempts=3)
    with pytest.raises(ApiError, match="202 Accepted") as err:
        c.get("/repos/o/r/issues/1/timeline")
    assert err.value.status == "retries"
    assert not c.breaker.is_open                       # the host answers: it is no outage


def test_202_with_a_body_is_an_answer():
    assert client(Script(httpx2.Response(202, json=[{"id": 1}]))).get("/x").data == [{"id": 1}]


# ---------------------------------------------------------------------------
# GitHub's rules for a rate-limit answer (docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api,
# "Rate limit errors"): retry-after first; x-ratelimit-remaining 0: not before x-ratelimit-reset;
# "otherwise, wait for at least one minute", then exponentially longer.


@pytest.mark.parametrize("status", [403, 429])
def test_github_primary_limit_waits_until_the_announced_reset(status):
    reset = 1_000_000 + 120                          # the client's fake clock starts at 1,000,000
    script = Script(httpx2.Response(status, json={"message": "API rate limit exceeded for user ID 1."},
                                    headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)}),
                    ok({"ok": True}))
    c = client(script, platform="github")
    assert c.get("/x").data == {"ok": True}
    assert 120 <= sum(c.slept) <= 122                # until the reset (and a second), not a moment less


@pytest.mark.parametrize("body", [None, {"message": "Too Many Requests"}])
def test_a_github_429_that_names_no_time_waits_at_least_a_minute(body):
    script = Script(httpx2.Response(429, json=body, headers={"x-ratelimit-remaining": "4000"}), ok({"ok": True}))
    c = client(script, platform="github")
    assert c.get("/x").data == {"ok": True}
    assert sum(c.slept) >= 60


def test_a_gitcode_429_that_names_no_time_backs_off_as_before():
    # GitCode documents no such rule (gitcode-api.md §6): exponential back-off from a second
    c = client(Script(httpx2.Response(429, json={"message": "Too Many Requests"}), ok({"ok": True})))
    assert c.get("/x").data == {"ok": True} and sum(c.slept) < 5


# ---------------------------------------------------------------------------
# Lists GitCode documents no paging for (issue operate_logs, an issue's PRs, a PR's files): one GET,
# held to paginate's rule


def test_an_unpaged_list_answered_with_an_object_is_unread_not_empty():
    from fixlore.sources.http import ApiError

    handler = Script(ok({"error_code": 500, "error_code_name": "SYSTEM_BUSY", "error_message": "busy"}))
    with pytest.raises(ApiError, match="instead of a list") as err:
        client(handler).get_list("/repos/o/issues/1/operate_logs", {"repo": "r"})
    assert err.value.status == "truncated" and len(handler.requests) == 4


def test_an_unpaged_list_whose_totals_announce_more_is_paged_after_all():
    def handler(request):
        page = int(request.url.params.get("page", 1))
        per_page = int(request.url.params.get("per_page", 20))
        items = [{"id": i} for i in range(45)][(page - 1) * per_page: page * per_page]
        return ok(items, total_count="45", total_page=str(-(-45 // per_page)))

    c = client(handler)
    assert [i["id"] for i in c.get_list("/repos/o/r/issues/1/pull_requests")] == list(range(45))
    (note,) = c.paging_report()
    assert note["kind"] == "paged-after-all"


def test_an_unpaged_list_reads_plain_and_wrapped_lists_and_a_404():
    assert client(Script(ok([{"id": 1}]))).get_list("/x") == [{"id": 1}]
    assert client(Script(ok({"logs": [{"id": 2}]}))).get_list("/x") == [{"id": 2}]
    assert client(Script(httpx2.Response(404, json={"message": "x"}))).get_list("/x", not_found_ok=True) == []


def test_a_gitcode_operation_log_answered_with_an_error_object_leaves_the_issue_unread():
    from datetime import datetime, timezone

    from fixlore.core.model import Issue
    from fixlore.rules.unread import EVENTS
    from fixlore.sources.gitcode import GitCodeSource

    def handler(request):
        if request.url.path.endswith("/operate_logs"):
            return ok({"error_code": 500, "error_message": "system busy"})
        return ok([])

    source = GitCodeSource(client(handler))
    issue = Issue(repo="o/r", number=5, title="t", body="", state="closed",
                  created_at=datetime(2026, 9, 1, tzinfo=timezone.utc), updated_at=datetime(2026, 9, 2, tzinfo=timezone.utc),
                  closed_at=None)
    detail = source.issue_detail(issue)
    assert set(detail.unread) == {EVENTS} and detail.events == []


@pytest.mark.parametrize("message", [
    "You have triggered an abuse detection mechanism. Please wait a few minutes before you try again.",
    "You have triggered an abuse detection mechanism and have been temporarily blocked from calling the API."])
def test_github_abuse_detection_403_is_the_secondary_limit_of_old_not_the_token(message):
    # GitHub's former name for the secondary limit (developer.github.com/v3/#abuse-rate-limits); Perceval's
    # github backend and hub4j's abuse handler wait it out; on the first request it is no refused token
    script = Script(httpx2.Response(403, json={"message": message,
                                               "documentation_url": "https://developer.github.com/v3/#abuse-rate-limits"}),
                    ok({"ok": True}))
    c = client(script, platform="github")
    assert c.get("/x").data == {"ok": True}
    assert sum(c.slept) >= 60


# ---------------------------------------------------------------------------
# One item by number: the object, None for a 404, and never "no such item" for an answer that is no item


@pytest.mark.parametrize("platform", ["gitcode", "github"])
@pytest.mark.parametrize("body", [{"error_code": 500, "error_message": "system busy"}, {}, None, ["x"]])
def test_a_pull_answered_with_no_item_is_an_error_not_a_missing_pull(platform, body):
    from fixlore.sources import make_source
    from fixlore.sources.http import ApiError

    handler = Script(httpx2.Response(200, json=body) if body is not None else httpx2.Response(200))
    source = make_source(platform, client(handler, platform=platform))
    with pytest.raises(ApiError, match="instead of an item") as err:
        source.get_pull("o/r", 5)
    assert err.value.status == "not-an-object" and len(handler.requests) == 4


@pytest.mark.parametrize("platform", ["gitcode", "github"])
def test_a_pull_or_issue_by_number_reads_the_item_or_none_for_a_404(platform):
    from fixlore.sources import make_source

    source = make_source(platform, client(Script(ok({"number": 5, "state": "open", "title": "t"})), platform=platform))
    assert source.get_pull("o/r", 5).number == 5 and source.get_issue("o/r", 5).number == 5
    gone = make_source(platform, client(Script(httpx2.Response(404, json={"message": "Not Found"})), platform=platform))
    assert gone.get_pull("o/r", 5) is None and gone.get_issue("o/r", 5) is None
    gitlab_shaped = make_source("gitcode", client(Script(ok({"iid": 7, "state": "merged"}))))
    assert gitlab_shaped.get_pull("o/r", 7).number == 7


def test_github_422_past_the_paging_cap_is_raised_not_an_end_of_the_list():
    # "In order to keep the API fast for everyone, pagination is limited for this resource" (422, as
    # octokit users report it; and "Pagination with the page parameter is not supported for large
    # datasets"): the repo's list is named unreadable by the harvester, what came before it is kept
    from fixlore.sources.github import GitHubSource
    from fixlore.sources.http import ApiError

    def handler(request):
        page = int(request.url.params.get("page", 1))
        if page >= 2:
            return httpx2.Response(422, json={"message": "In order to keep the API fast for everyone, pagination is "
                                                         "limited for this resource."})
        items = [{"number": n, "state": "closed", "updated_at": f"2026-09-{20 - n // 50:02d}T00:00:00Z",
                  "created_at": "2026-01-01T00:00:00Z"} for n in range(1, 101)]
        return ok(items, Link='<https://api.example.test/api/v5/repos/o/r/issues?page=2>; rel="next"')

    got = []
    with pytest.raises(ApiError, match="pagination is limited") as err:
        for issue in GitHubSource(client(handler, platform="github")).iter_issues("o/r", None):
            got.append(issue.number)
    assert err.value.status == "422" and len(got) == 100


# ---------------------------------------------------------------------------
# GitCode's changelog (AK-REL:202503, gitcode-api.md §2.7): "occasional 403" on the PR list, fixed 2025-03-06


def test_a_gitcode_403_is_asked_once_more_before_it_is_a_refusal():
    from fixlore.sources.http import ApiError

    # an occasional 403 heals ...
    script = Script(ok([]), httpx2.Response(403, json={"message": "403 Forbidden"}), ok([{"id": 1}]))
    c = client(script)
    c.get("/orgs/x/repos")
    assert c.get("/repos/o/r/pulls").data == [{"id": 1}]
    # ... a lasting one is the resource's refusal, as before, after one more ask
    module = {"error_code": 403, "error_code_name": "FORBIDDEN", "error_message": "issue module is closed"}
    script = Script(ok([]), httpx2.Response(403, json=module))
    c = client(script)
    c.get("/orgs/x/repos")
    with pytest.raises(ApiError, match="issue module is closed"):
        c.get("/repos/o/r/issues")
    assert len(script.requests) == 1 + 2


def test_a_github_403_that_is_no_rate_limit_is_not_asked_again():
    from fixlore.sources.http import ApiError

    script = Script(ok([]), httpx2.Response(403, json={"message": "Resource not accessible by personal access token"}))
    c = client(script, platform="github")
    c.get("/user")
    with pytest.raises(ApiError):
        c.get("/repos/o/r/issues")
    assert len(script.requests) == 2


def test_an_unpaged_list_whose_totals_say_it_is_whole_is_read_once():
    script = Script(ok([{"id": 1}, {"id": 2}], total_count="2", total_page="1"))
    c = client(script)
    assert c.get_list("/repos/o/issues/1/operate_logs") == [{"id": 1}, {"id": 2}]
    assert len(script.requests) == 1 and c.paging_report() == []


def test_a_github_page_that_stays_empty_while_linking_a_next_page_is_passed_over_and_named():
    def handler(request):
        page = int(request.url.params.get("page", 1))
        link = f'<https://api.example.test/api/v5/x?page={page + 1}>; rel="next"' if page < 3 else ""
        return ok([] if page == 2 else [{"id": page}], Link=link)

    c = client(handler, platform="github")
    got = [i["id"] for p in c.paginate("/x", per_page=1, style="link") for i in p]
    assert got == [1, 3]
    (note,) = c.paging_report()
    assert note["kind"] == "empty-page" and "page 2 stayed empty" in note["detail"]


def test_a_redirect_that_never_ends_concerns_that_resource_only():
    """GitHub asks clients to follow redirects (301 for a renamed or transferred repository, 302/307
    temporary); one that leads back to itself is that resource's failure, named, never a crash."""
    from fixlore.sources.http import ApiError

    def handler(request):
        if request.url.path.endswith("/loop"):
            return httpx2.Response(301, headers={"Location": str(request.url)}, json={"message": "Moved Permanently"})
        return ok([])

    c = client(handler, platform="github")
    with pytest.raises(ApiError) as err:
        c.get("/repos/o/r/loop")
    assert "redirect" in str(err.value)
    assert c.get("/repos/o/r/issues").data == []          # the host still answers the rest


def test_a_reset_wait_is_never_longer_than_githubs_window():
    """A Date header far off (a proxy's stale or zero Date) once gave a wait of 57 years."""
    from fixlore.sources.ratelimit import RESET_WINDOW_S, RateLimiter

    base = 1_800_000_000.0
    limiter = RateLimiter(clock=lambda: base)
    assert 60 <= limiter.pause_until_reset(base + 60, answered_at=0.0) <= 61 + 1e-6   # a zero Date: our clock
    assert limiter.pause_until_reset(base + 10 * 3600, answered_at=base) <= RESET_WINDOW_S + 1 + 1e-6
    assert 120 <= limiter.pause_until_reset(base + 60, answered_at=base - 60) <= 121 + 1e-6  # skew still read
