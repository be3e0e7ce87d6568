"""One API client for every platform: retries, rate limits, conditional requests, paging, accounting.

The transport is a seam (``transport=``): an ``httpx2.MockTransport`` in unit tests, the
loopback replay server in integration tests, the real site in production. Nothing above
this module knows which one it talks to.

The token travels in a request header only. It is never placed in a URL, and every
message this module produces passes through :func:`ApiClient.redact` first.
"""

from __future__ import annotations

import email.utils
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


# Headers worth keeping with a cached body (paging needs them after a 304).
_KEPT_HEADERS = ("link", "total_page", "total_count", "x-total-pages", "x-next-page")


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
                 sleep: Callable[[float], None] = time.sleep, user_agent: str = "fixlore-harvester"):
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
        headers = {"User-Agent": user_agent, "Accept": "application/json"}
        if platform == "github":
            headers["Accept"] = "application/vnd.github+json"
            headers["X-GitHub-Api-Version"] = "2022-11-28"
        self._client = httpx2.Client(
            headers=headers, transport=transport, follow_redirects=True, trust_env=False,
            timeout=httpx2.Timeout(read_timeout, connect=connect_timeout, read=read_timeout,
                                   write=read_timeout, pool=read_timeout))
        self.host = urlsplit(self.base_url).netloc or self.base_url

    # -- lifecycle
    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> "ApiClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- secrets
    def redact(self, text: str) -> str:
        if self._token and text:
            text = text.replace(self._token, "***")
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
            raise _Retryable("connection refused or host unreachable", cause=exc) from None
        except (httpx2.TransportError, httpx2.DecodingError) as exc:
            self.accounting.record(endpoint, "cut_off")
            raise _Retryable("connection dropped mid-response", cause=exc) from None

        status = resp.status_code
        if not 200 <= status < 300:
            self.accounting.record(endpoint, status)
        self.limiter.observe(resp.headers)

        if status == 304 and cached:
            self.accounting.not_modified += 1
            return ApiResponse(200, json.loads(cached[1]), dict(cached[2]), url, from_cache=True)
        if status in RETRY_STATUSES or self._is_github_rate_limited(resp):
            retry_after = parse_retry_after(resp.headers.get("retry-after"))
            if retry_after is not None:
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
            if status in (401, 403):
                raise SourceError(
                    f"{self.host} refused the API token (HTTP {status}{': ' + message if message else ''}); "
                    f"check the token and its read permissions")
            raise SourceError(f"{self.host} answered HTTP {status} on {endpoint}"
                              f"{': ' + message if message else ''}")
        try:
            data = json.loads(body) if body else None
        except ValueError as exc:
            self.accounting.record(endpoint, "malformed")
            raise _Retryable("malformed JSON", cause=exc) from None
        self.accounting.record(endpoint, status)
        kept = {k: resp.headers[k] for k in _KEPT_HEADERS if k in resp.headers}
        etag = resp.headers.get("etag")
        if etag and self.cache is not None:
            self.cache.put(self._cache_key(url), etag, body.decode("utf-8", "replace"), kept)
        return ApiResponse(status, data, kept, url)

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
        if exc.why == "malformed JSON":
            return SourceError(f"{self.host} kept sending malformed JSON on {endpoint} "
                               f"(after {self.max_attempts} attempts)")
        return SourceError(f"{self.host} kept failing on {endpoint}: {exc.why} "
                           f"(after {self.max_attempts} attempts)")

    # -- paging
    def paginate(self, path: str, params: dict[str, Any] | None = None, *, endpoint: str | None = None,
                 per_page: int = 100, style: str = "page", id_key: Callable[[dict], Any] | None = None,
                 max_pages: int = 10_000, not_found_ok: bool = False) -> Iterator[list[dict]]:
        """Yield pages of items until a short/empty page, the announced last page, or a page with nothing new.

        ``style="page"``: GitCode/Gitee page numbers (``total_page`` header when present).
        ``style="link"``: GitHub ``Link: rel="next"``.
        The caller may stop early by breaking out of the loop (e.g. at the window start).
        """
        params = dict(params or {})
        params["per_page"] = per_page
        seen: set[Any] = set()
        key = id_key or (lambda item: item.get("id") if isinstance(item, dict) else None)
        next_url: str | None = None
        page = 1
        retried_repeat = False
        while page <= max_pages:
            conditional = not retried_repeat
            if style == "link" and next_url:
                resp = self.get(next_url, endpoint=endpoint, not_found_ok=not_found_ok, conditional=conditional)
            else:
                resp = self.get(path, {**params, "page": page}, endpoint=endpoint,
                                not_found_ok=not_found_ok, conditional=conditional)
            if resp.status == 404:
                return
            items = resp.data if isinstance(resp.data, list) else _list_in(resp.data)
            fresh = []
            for item in items:
                k = key(item)
                if k is None or k not in seen:
                    fresh.append(item)
            if items and not fresh:
                # A page with nothing new: a server glitch repeating the previous page, or the
                # true end of a list that ignores paging. Ask once more, then stop.
                if retried_repeat:
                    return
                retried_repeat = True
                continue
            retried_repeat = False
            for item in fresh:
                k = key(item)
                if k is not None:
                    seen.add(k)
            if fresh:
                yield fresh
            if len(items) < per_page:
                return
            if style == "link":
                next_url = parse_link_header(resp.headers.get("link")).get("next")
                if not next_url:
                    return
            else:
                total = resp.headers.get("total_page") or resp.headers.get("x-total-pages")
                if total and total.isdigit() and page >= int(total):
                    return
            page += 1


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
