"""One API client for every platform: retries, rate limits, conditional requests, paging, accounting.

The transport is a seam (``transport=``): an ``httpx2.MockTransport`` in unit tests, the
loopback replay server in integration tests, the real site in production. Nothing above
this module knows which one it talks to.

The token travels in a request header only. It is never placed in a URL, and every
message this module produces passes through :func:`ApiClient.redact` first.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import logging
import random
import re
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol
from urllib.parse import urlencode, urlsplit

import httpx2
import tenacity

from fixlore.errors import SourceError

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_SECONDARY = re.compile(r"secondary rate limit", re.IGNORECASE)


# ---------------------------------------------------------------------------
# Rate limiting


class TokenBucket:
    """``capacity`` tokens refilled evenly over ``period`` seconds (divided by ``time_scale``)."""

    def __init__(self, capacity: int, period: float, time_scale: float = 1.0,
                 clock: Callable[[], float] = time.monotonic):
        self.capacity = float(capacity)
        self.rate = capacity / (period / max(time_scale, 1e-9))   # tokens per real second
        self.tokens = float(capacity)
        self.clock = clock
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait_time(self) -> float:
        self._refill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self) -> None:
        self._refill()
        self.tokens -= 1


class SlidingWindow:
    """At most ``limit`` requests in any ``period`` seconds (divided by ``time_scale``).

    A token bucket whose tokens come back exactly ``period`` after they were spent: it allows
    the documented burst yet never exceeds the quota in any window, whether the server
    counts in fixed or sliding windows.
    """

    def __init__(self, limit: int, period: float, time_scale: float = 1.0,
                 clock: Callable[[], float] = time.monotonic, margin: float = 0.02):
        self.limit = limit
        self.period = period * (1 + margin) / max(time_scale, 1e-9)
        self.clock = clock
        self.spent: deque[float] = deque()

    def wait_time(self) -> float:
        now = self.clock()
        while self.spent and now - self.spent[0] >= self.period:
            self.spent.popleft()
        if len(self.spent) < self.limit:
            return 0.0
        return self.spent[0] + self.period - now

    def take(self) -> None:
        self.spent.append(self.clock())


class RateLimiter:
    """Client-side pacing: token buckets for documented quotas plus server-announced pauses.

    GitCode documents 50 requests a minute and 4,000 an hour and sends no headers, so
    buckets pace us. GitHub announces its quota in ``X-RateLimit-*``; when the remaining
    count runs low we sleep until the announced reset.
    """

    def __init__(self, buckets: list[TokenBucket | SlidingWindow] | None = None, time_scale: float = 1.0,
                 sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.time,
                 low_water: int = 1):
        self.buckets = buckets or []
        self.time_scale = max(time_scale, 1e-9)
        self.sleep = sleep
        self.clock = clock
        self.low_water = low_water
        self.pause_until = 0.0            # wall-clock time before which no request is sent
        self.slept = 0.0
        self._lock = threading.Lock()

    @classmethod
    def for_platform(cls, platform: str, time_scale: float = 1.0, enabled: bool = True,
                     sleep: Callable[[float], None] = time.sleep) -> "RateLimiter":
        if not enabled:
            return cls(time_scale=time_scale, sleep=sleep)
        if platform in ("gitcode", "gitee"):
            buckets = [SlidingWindow(50, 60.0, time_scale), SlidingWindow(4000, 3600.0, time_scale)]
        else:
            buckets = []                  # GitHub tells us its budget in headers
        return cls(buckets, time_scale=time_scale, sleep=sleep)

    def acquire(self) -> None:
        with self._lock:
            delay = max([b.wait_time() for b in self.buckets] + [self.pause_until - self.clock(), 0.0])
            if delay > 0:
                self._sleep(delay)
            for b in self.buckets:
                b.take()

    def pause(self, seconds: float) -> None:
        """Hold every request for ``seconds`` of platform time (server asked us to)."""
        self.pause_until = max(self.pause_until, self.clock() + seconds / self.time_scale)

    def observe(self, headers: httpx2.Headers) -> None:
        """Honour GitHub-style ``X-RateLimit-Remaining`` / ``X-RateLimit-Reset``."""
        remaining = headers.get("x-ratelimit-remaining")
        reset = headers.get("x-ratelimit-reset")
        if remaining is None or reset is None:
            return
        try:
            remaining_n, reset_at = int(remaining), float(reset)
        except ValueError:
            return
        if remaining_n <= self.low_water:
            wait = max(0.0, reset_at - self.clock()) + 1.0
            self.pause_until = max(self.pause_until, self.clock() + wait / self.time_scale)

    def _sleep(self, seconds: float) -> None:
        self.slept += seconds
        self.sleep(seconds)


# ---------------------------------------------------------------------------
# Conditional-request cache and accounting


class HttpCache(Protocol):
    """Where ETags and bodies live between runs (the store's ``http_cache`` table)."""

    def get(self, url: str) -> tuple[str, str, dict[str, str]] | None: ...   # (etag, body, headers)

    def put(self, url: str, etag: str, body: str, headers: dict[str, str]) -> None: ...


class MemoryCache:
    def __init__(self) -> None:
        self.entries: dict[str, tuple[str, str, dict[str, str]]] = {}

    def get(self, url: str) -> tuple[str, str, dict[str, str]] | None:
        return self.entries.get(url)

    def put(self, url: str, etag: str, body: str, headers: dict[str, str]) -> None:
        self.entries[url] = (etag, body, headers)


@dataclass
class Accounting:
    """Every HTTP attempt, by endpoint template and by status (``"error"`` for transport failures)."""

    by_endpoint: Counter = field(default_factory=Counter)
    by_status: Counter = field(default_factory=Counter)
    by_endpoint_status: Counter = field(default_factory=Counter)
    retries: int = 0
    not_modified: int = 0

    @property
    def total(self) -> int:
        return sum(self.by_endpoint.values())

    def record(self, endpoint: str, status: int | str) -> None:
        self.by_endpoint[endpoint] += 1
        self.by_status[str(status)] += 1
        self.by_endpoint_status[f"{endpoint} {status}"] += 1

    def snapshot(self) -> dict[str, Any]:
        return {"total": self.total, "by_endpoint": dict(sorted(self.by_endpoint.items())),
                "by_status": dict(sorted(self.by_status.items())),
                "by_endpoint_status": dict(sorted(self.by_endpoint_status.items())), "retries": self.retries,
                "not_modified": self.not_modified}


# What an error status means when the body does not say.
_REASONS = {400: "bad request", 403: "forbidden", 404: "not found", 409: "conflict",
            410: "gone (on GitHub: issues disabled for this repo)", 422: "unprocessable",
            451: "unavailable for legal reasons"}

# Headers worth keeping with a cached body (paging needs them after a 304).
_KEPT_HEADERS = ("link", "total_page", "total_count", "x-total-pages", "x-total", "x-next-page")


@dataclass
class ApiResponse:
    status: int
    data: Any
    headers: dict[str, str]
    url: str
    from_cache: bool = False


class NotFound(Exception):
    """404 on an endpoint; the source decides whether that is an error or an empty answer."""

    def __init__(self, endpoint: str, message: str):
        super().__init__(f"{endpoint}: {message}")
        self.endpoint = endpoint
        self.message = message


class TokenRefused(SourceError):
    """The token itself is refused (401, or a 403 before any request was answered): the run stops."""


class ApiError(SourceError):
    """One endpoint could not be read, for a reason that concerns that resource only.

    A 403 on one repo ("issue module is closed"), GitHub's 404/410/451 for a repo whose
    issues are disabled, a server that kept failing or kept repeating a page: the harvest
    records it against the repo and goes on. ``status`` is the HTTP status, or a word for
    what went wrong when there is none ("retries", "repeated-page", "page-cap").
    """

    def __init__(self, endpoint: str, status: int | str, message: str):
        super().__init__(f"{endpoint}: {_status_words(status)}{': ' + message if message else ''}")
        self.endpoint = endpoint
        self.status = str(status)
        self.message = message


def repo_pages(pages: Iterator[list[dict]]) -> Iterator[list[dict]]:
    """Pages of a repo's own issue or PR list, where a 404 means the repo cannot be read, never "empty".

    (GitHub answers 404 for a repo gone or hidden, 410 when its issues are disabled; both are
    recorded against the repo.)
    """
    try:
        yield from pages
    except NotFound as exc:
        raise ApiError(exc.endpoint, 404, exc.message) from None


def _status_words(status: int | str) -> str:
    return f"HTTP {status}" if str(status).isdigit() else str(status)


class _Retryable(Exception):
    def __init__(self, why: str, retry_after: float | None = None, cause: BaseException | None = None):
        super().__init__(why)
        self.why = why
        self.retry_after = retry_after
        self.cause = cause


def error_message(body: Any) -> str:
    """The human text of an error body in any of the shapes GitCode/GitHub use."""
    if isinstance(body, dict):
        for key in ("message", "error_message", "error", "error_code_name", "error_code"):
            value = body.get(key)
            if value:
                return str(value)[:200]
    if isinstance(body, str):
        return body.strip().splitlines()[0][:200] if body.strip() else ""
    return ""


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (now if now is not None else time.time()))


_LINK_RE = re.compile(r'<([^>]+)>\s*;\s*rel="?([a-z]+)"?')


def parse_link_header(value: str | None) -> dict[str, str]:
    return {rel: url for url, rel in _LINK_RE.findall(value or "")}


class ApiClient:
    """HTTP GET with everything a harvester over a rate-limited API needs.

    ``platform`` chooses the auth header and the rate-limit policy; ``transport`` is the seam.
    """

    def __init__(self, base_url: str, platform: str = "gitcode", token: str | None = None, *,
                 transport: httpx2.BaseTransport | None = None, cache: HttpCache | None = None,
                 limiter: RateLimiter | None = None, rate_limit: bool = True, time_scale: float = 1.0,
                 connect_timeout: float = 10.0, read_timeout: float = 30.0, max_attempts: int = 8,
                 backoff_base: float = 1.0, backoff_max: float = 60.0,
                 sleep: Callable[[float], None] = time.sleep, user_agent: str = "fixlore-harvester",
                 token_env: str = "", unreachable_budget: float = 10.0,
                 secondary_wait: float = 60.0, secondary_wait_max: float = 960.0):
        self.base_url = base_url.rstrip("/")
        self.platform = platform
        self._token = token or None
        self.cache = cache
        self.time_scale = max(time_scale, 1e-9)
        self.limiter = limiter or RateLimiter.for_platform(platform, time_scale, enabled=rate_limit, sleep=sleep)
        self.max_attempts = max_attempts
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.sleep = sleep
        self.accounting = Accounting()
        self.answered = False             # has any request succeeded yet? (a 403 before that is the token)
        self.secondary_wait = secondary_wait
        self.secondary_wait_max = secondary_wait_max
        self._secondary_hits = 0          # secondary-limit answers in a row (the back-off doubles each time)
        # (endpoint, per_page asked) -> the page size the server was seen to really use there.
        self.page_sizes: dict[tuple[str, int], int] = {}
        headers = {"User-Agent": user_agent, "Accept": "application/json"}
        if platform == "github":
            headers["Accept"] = "application/vnd.github+json"
            headers["X-GitHub-Api-Version"] = "2022-11-28"
        self._client = httpx2.Client(
            headers=headers, transport=transport, follow_redirects=True, trust_env=False,
            timeout=httpx2.Timeout(read_timeout, connect=connect_timeout, read=read_timeout,
                                   write=read_timeout, pool=read_timeout))
        parts = urlsplit(self.base_url)
        # Never the user:password@ of the URL: the host appears in messages and logs.
        self.host = (parts.netloc.rsplit("@", 1)[-1] or self.base_url) if parts.netloc else self.base_url
        self._url_password = parts.password or None
        self.token_env = token_env
        self.unreachable_budget = unreachable_budget
        self._answered = False                    # has the host ever answered?
        self._unreachable_since: float | None = None

    # -- lifecycle
    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> "ApiClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- secrets
    def redact(self, text: str) -> str:
        for secret in (self._token, self._url_password):
            if secret and text:
                text = text.replace(secret, "***")
        return text

    def _auth_headers(self) -> dict[str, str]:
        if not self._token:
            return {}
        if self.platform in ("gitcode", "gitee"):
            return {"Authorization": f"Bearer {self._token}", "PRIVATE-TOKEN": self._token}
        return {"Authorization": f"Bearer {self._token}"}

    # -- requests
    def url_for(self, path: str, params: dict[str, Any] | None = None) -> str:
        url = path if path.startswith(("http://", "https://")) else f"{self.base_url}{path}"
        if params:
            clean = {k: v for k, v in params.items() if v is not None}
            url = f"{url}{'&' if '?' in url else '?'}{urlencode(sorted(clean.items()))}"
        return url

    def get(self, path: str, params: dict[str, Any] | None = None, *, endpoint: str | None = None,
            conditional: bool = True, not_found_ok: bool = False) -> ApiResponse:
        """GET one resource and decode its JSON, retrying what retries can fix.

        Raises :class:`NotFound` on 404 (or returns ``ApiResponse(404, None, ...)`` when
        ``not_found_ok``) and :class:`SourceError` for what the user must fix.
        """
        endpoint = endpoint or path
        url = self.url_for(path, params)
        cached = self.cache.get(self._cache_key(url)) if (conditional and self.cache is not None) else None

        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.max_attempts),
            retry=tenacity.retry_if_exception_type(_Retryable),
            wait=self._wait,
            sleep=self.sleep,
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    if attempt.retry_state.attempt_number > 1:
                        self.accounting.retries += 1
                    return self._attempt(url, endpoint, cached, not_found_ok)
        except _Retryable as exc:
            raise self._give_up(exc, endpoint) from None
        raise AssertionError("unreachable")  # pragma: no cover

    @property
    def has_token(self) -> bool:
        return self._token is not None

    def post_json(self, url: str, payload: dict[str, Any], *, endpoint: str) -> tuple[int, Any]:
        """One POST of a JSON body, paced like every request, counted, not retried: for optional
        extras (GraphQL) whose caller falls back to REST. Transport errors come back as status 0."""
        self.limiter.acquire()
        try:
            resp = self._client.post(url, json=payload, headers=self._auth_headers())
        except httpx2.HTTPError:
            self.accounting.record(endpoint, "error")
            return 0, None
        self.accounting.record(endpoint, resp.status_code)
        self.limiter.observe(resp.headers)
        try:
            return resp.status_code, resp.json()
        except ValueError:
            return resp.status_code, None

    def _cache_key(self, url: str) -> str:
        """The URL relative to the API root, so a replay server on a new port still hits the cache."""
        return url[len(self.base_url):] if url.startswith(self.base_url) else url

    def _wait(self, state: tenacity.RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, _Retryable) and exc.retry_after is not None:
            delay = exc.retry_after
        else:
            n = state.attempt_number
            delay = min(self.backoff_max, self.backoff_base * (2 ** (n - 1)))
            delay = random.uniform(delay / 2, delay)          # jitter: spread out synchronized retries
        if self._unreachable_since is not None and not self._answered:
            left = self.unreachable_budget - (time.monotonic() - self._unreachable_since)
            delay = min(delay, max(left, 0.0) * self.time_scale)
        log.info("retrying after %s (attempt %d): waiting %.2fs", exc.why if isinstance(exc, _Retryable) else exc,
                 state.attempt_number, delay / self.time_scale)
        return delay / self.time_scale

    def _attempt(self, url: str, endpoint: str, cached: tuple[str, str, dict[str, str]] | None,
                 not_found_ok: bool) -> ApiResponse:
        self.limiter.acquire()
        headers = self._auth_headers()
        if cached and cached[0]:
            headers["If-None-Match"] = cached[0]
        try:
            resp = self._client.get(url, headers=headers)
            body = resp.content                       # reads the whole body: cut-offs surface here
        except httpx2.TimeoutException as exc:
            self.accounting.record(endpoint, "timeout")
            raise _Retryable("timed out", cause=exc) from None
        except httpx2.ConnectError as exc:
            self.accounting.record(endpoint, "connect_error")
            self._check_reachable()
            raise _Retryable("connection refused or host unreachable", cause=exc) from None
        except (httpx2.TransportError, httpx2.DecodingError) as exc:
            self.accounting.record(endpoint, "cut_off")
            raise _Retryable("connection dropped mid-response", cause=exc) from None

        self._answered = True
        status = resp.status_code
        if not 200 <= status < 300:
            self.accounting.record(endpoint, status)
        self.limiter.observe(resp.headers)

        if status == 304 and cached:
            self.answered = True
            self.accounting.not_modified += 1
            return ApiResponse(200, json.loads(cached[1]), dict(cached[2]), url, from_cache=True)
        if status in RETRY_STATUSES or self._is_github_rate_limited(resp):
            retry_after = parse_retry_after(resp.headers.get("retry-after"))
            secondary = status in (403, 429) and _SECONDARY.search(resp.text or "") is not None
            if retry_after is not None:
                self.limiter.pause(retry_after)
            elif secondary:
                # GitHub: without Retry-After wait at least a minute, then back off exponentially;
                # a client that keeps retrying sooner risks being banned.
                retry_after = min(self.secondary_wait * 2 ** self._secondary_hits, self.secondary_wait_max)
                self._secondary_hits += 1
                log.warning("%s: secondary rate limit on %s; waiting %.0fs", self.host, endpoint, retry_after)
                self.limiter.pause(retry_after)
            elif status == 403 or status == 429:
                retry_after = self._github_reset_wait(resp)
                if retry_after is not None:
                    self.limiter.pause(retry_after)
            raise _Retryable(f"HTTP {status}", retry_after=0.0 if retry_after is not None else None)
        if status >= 400:
            message = self.redact(error_message(_try_json(body) if body else ""))
            if status == 404:
                if not_found_ok:
                    return ApiResponse(404, None, {}, url)
                raise NotFound(endpoint, message or "not found")
            if status == 401 or (status == 403 and not self.answered):
                if not self._token:
                    where = f"${self.token_env}" if self.token_env else "the token variable (--token-env)"
                    raise TokenRefused(f"{self.host} requires an API token (HTTP {status}) and none is set; "
                                       f"put one in {where}")
                raise TokenRefused(
                    f"{self.host} refused the API token (HTTP {status}{': ' + message if message else ''}); "
                    f"check the token and its read permissions")
            # Anything else concerns this resource only (a closed issue module, issues disabled, ...).
            raise ApiError(endpoint, status, message or _REASONS.get(status, "refused"))
        try:
            data = json.loads(body) if body else None
        except ValueError as exc:
            self.accounting.record(endpoint, "malformed")
            raise _Retryable("malformed JSON", cause=exc) from None
        self.accounting.record(endpoint, status)
        self.answered = True
        self._secondary_hits = 0
        kept = {k: resp.headers[k] for k in _KEPT_HEADERS if k in resp.headers}
        etag = resp.headers.get("etag")
        if etag and self.cache is not None:
            self.cache.put(self._cache_key(url), etag, body.decode("utf-8", "replace"), kept)
        return ApiResponse(status, data, kept, url)

    def _check_reachable(self) -> None:
        """A host that never answered is given ``unreachable_budget`` seconds, not the whole retry
        schedule: a wrong URL or a host that is down is reported in seconds. Once it has answered,
        a lost connection is a blip and the usual retries apply."""
        if self._answered:
            return
        now = time.monotonic()
        if self._unreachable_since is None:
            self._unreachable_since = now
        elif now - self._unreachable_since >= self.unreachable_budget:
            raise SourceError(f"cannot reach {self.host}: connection refused or name not found "
                              f"(gave up after {now - self._unreachable_since:.0f} s); "
                              f"check the base URL and the network")

    def _is_github_rate_limited(self, resp: httpx2.Response) -> bool:
        if resp.status_code != 403:
            return False
        if resp.headers.get("x-ratelimit-remaining") == "0" or "retry-after" in resp.headers:
            return True
        return "rate limit" in resp.text.lower()          # GitHub's secondary limit says so in the body

    def _github_reset_wait(self, resp: httpx2.Response) -> float | None:
        reset = resp.headers.get("x-ratelimit-reset")
        if resp.headers.get("x-ratelimit-remaining") == "0" and reset:
            try:
                return max(0.0, float(reset) - time.time()) + 1.0
            except ValueError:
                return None
        return None

    def _give_up(self, exc: _Retryable, endpoint: str) -> SourceError:
        if isinstance(exc.cause, httpx2.ConnectError):
            return SourceError(f"cannot reach {self.host}: {exc.why} (after {self.max_attempts} attempts)")
        # The host answers, just not this resource: the caller records it and goes on.
        if exc.why == "malformed JSON":
            return ApiError(endpoint, "retries", f"{self.host} kept sending malformed JSON "
                                                 f"(after {self.max_attempts} attempts)")
        return ApiError(endpoint, "retries", f"{self.host} kept failing: {exc.why} "
                                             f"(after {self.max_attempts} attempts)")

    # -- paging
    def paginate(self, path: str, params: dict[str, Any] | None = None, *, endpoint: str | None = None,
                 per_page: int = 100, style: str = "page", id_key: Callable[[Any], Any] | None = None,
                 max_pages: int = 10_000, not_found_ok: bool = False,
                 repeat_budget: int = 4) -> Iterator[list[dict]]:
        """Yield pages of new items until the list provably ends; never stop silently short of it.

        ``style="page"``: page numbers, ended by ``total_page`` (or ``total_count``) when the server
        sends them, else by a page shorter than the server's real page size. A first page shorter
        than asked while more pages are announced sets that size (GitCode caps ``per_page``). With
        no totals a short first page is followed by one probe of page 2, since a silent cap and a
        short list look the same.
        ``style="link"``: GitHub ``Link: rel="next"``.
        A page that brings nothing new (a repeated page) is fetched again, up to ``repeat_budget``
        fetches, and then :class:`ApiError` is raised: a truncated list is a failure, never an end.
        The caller may stop early by breaking out of the loop (e.g. at the window start).
        """
        endpoint = endpoint or path
        params = dict(params or {})
        params["per_page"] = per_page
        seen: set[Any] = set()
        key = id_key or item_key
        # What this endpoint was seen to do (caps may differ between endpoints: never borrowed).
        learned = self.page_sizes.get((endpoint, per_page))
        size = learned or per_page         # the page size the server really uses
        received = 0                       # items received, repeats included (compared with total_count)
        first_keys: list[Any] | None = None
        probing = False                    # asking page 2 after a short first page without totals
        next_url: str | None = None
        page = 1
        while True:
            if page > max_pages:
                raise ApiError(endpoint, "page-cap", f"more than {max_pages} pages without an end; stopped "
                                                     f"rather than loop")
            fetches = 0
            while True:
                fetches += 1
                conditional = fetches == 1
                if style == "link" and next_url:
                    resp = self.get(next_url, endpoint=endpoint, not_found_ok=not_found_ok, conditional=conditional)
                else:
                    resp = self.get(path, {**params, "page": page}, endpoint=endpoint,
                                    not_found_ok=not_found_ok, conditional=conditional)
                if resp.status == 404:
                    return
                items = resp.data if isinstance(resp.data, list) else _list_in(resp.data)
                keys = [key(item) for item in items]
                fresh = [item for item, k in zip(items, keys) if k not in seen]
                if not items or fresh:
                    break
                if fetches >= repeat_budget:
                    if probing and keys == first_keys:
                        return             # page 2 stays page 1: the server ignores `page`; all is here
                    raise ApiError(endpoint, "repeated-page",
                                   f"page {page} kept repeating items already seen ({fetches} fetches); "
                                   f"the list would be incomplete")
            seen.update(keys)
            received += len(items)
            if first_keys is None:
                first_keys = keys
            if fresh:
                yield fresh
            if not items:
                return
            if style == "link":
                next_url = parse_link_header(resp.headers.get("link")).get("next")
                if not next_url:
                    return
                page += 1
                continue
            total_page = _int_header(resp.headers, "total_page", "x-total-pages")
            total_count = _int_header(resp.headers, "total_count", "x-total")
            if page == 1 and len(items) < per_page and (
                    (total_page is not None and total_page > 1)
                    or (total_page is None and total_count is not None and total_count > len(items))):
                size = len(items)          # the server caps per_page: its pages are this long
            if len(items) == per_page:
                self.page_sizes[(endpoint, per_page)] = per_page      # per_page honoured here
            if total_page is not None:
                if page >= total_page:
                    return
            elif total_count is not None:
                if received >= total_count:
                    return
            elif probing:
                probing = False
                size = len(first_keys)     # page 2 brought new items: page 1 was a capped page
                self.page_sizes[(endpoint, per_page)] = size
                if len(items) < size:
                    return
            elif len(items) < size:
                if page != 1 or learned:
                    return                 # shorter than the size this endpoint is known to use: the end
                probing = True             # short first page, no totals: a cap or the end? ask page 2
            page += 1


def item_key(item: Any) -> Any:
    """What identifies a list item for the repeat guard: ``id``, else ``sha``, else ``number``, else its content."""
    if isinstance(item, dict):
        for name in ("id", "sha", "number"):
            value = item.get(name)
            if value not in (None, ""):
                return (name, str(value))
    digest = hashlib.sha256(json.dumps(item, sort_keys=True, default=str).encode("utf-8")).hexdigest()
    return ("content", digest)


def _int_header(headers: dict[str, str], *names: str) -> int | None:
    for name in names:
        value = str(headers.get(name, "")).strip()
        if value.isdigit():
            return int(value)
    return None


def _try_json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")


def _list_in(data: Any) -> list:
    """Some list endpoints wrap the array ({"events": [...]}, {"items": [...]})."""
    if isinstance(data, dict):
        for key in ("items", "events", "data"):
            if isinstance(data.get(key), list):
                return data[key]
    return []
