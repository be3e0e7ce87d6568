"""One API client for every platform: retries, rate limits, conditional requests, paging, accounting.

The transport is a seam (``transport=``): an ``httpx2.MockTransport`` in unit tests, the
loopback replay server in integration tests, the real site in production. Nothing above
this module knows which one it talks to.

The token travels in a request header only. It is never placed in a URL, and every
message this module produces passes through :func:`ApiClient.redact` first.

Its parts live beside it: `sources/ratelimit.py` (pacing), `sources/cache.py` (ETag cache and
accounting), `sources/responses.py` (what an answer means: errors, headers, list items) and
`sources/paging.py` (`ApiClient.paginate`). Their names stay importable from here.

Retries are bounded per run and per host by a `fixlore.edges.circuit.Breaker`: a failure is retried only
within the host's retry budget and the current failure streak's time, and once several requests in
a row fail with no answer between, the breaker opens and every later request raises `HostDown`
at once (said once, as a warning). Rate-limit answers are waits, never failures. The loop in
`ApiClient.get` is written out rather than left to a retry library: between two attempts it asks
the breaker, which is shared by every request to the host, what the failure cost and whether the
run may still spend a retry on it.
"""

from __future__ import annotations

import json
import logging
import random
import re
import ssl
import threading
import time
from typing import Any, Callable
from urllib.parse import urlencode, urlsplit

import httpx2

from fixlore.core.errors import SourceError
from fixlore.edges import interrupts
from fixlore.edges.circuit import Breaker
from fixlore.sources.cache import Accounting, HttpCache, MemoryCache
from fixlore.sources.paging import PagingMixin
from fixlore.sources.policy import policy_for
from fixlore.sources.ratelimit import RateLimiter, SlidingWindow, TokenBucket, server_now
from fixlore.sources.responses import (KEPT_HEADERS, REASONS, ApiError, ApiResponse, HostDown, NotFound,
                                       TokenRefused, error_message, item_key, parse_retry_after,
                                       repo_pages, try_json)

__all__ = ["Accounting", "ApiClient", "ApiError", "ApiResponse", "HostDown", "HttpCache", "MemoryCache", "NotFound",
           "RETRY_STATUSES", "RateLimiter", "SlidingWindow", "TokenBucket", "TokenRefused", "error_message",
           "item_key", "parse_retry_after", "repo_pages"]

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
# GitHub's secondary limit, and its former name ("You have triggered an abuse detection mechanism")
_SECONDARY = re.compile(r"secondary rate limit|abuse detection", re.IGNORECASE)
_NOTHING_YET = (b"", b"{}", b"[]", b"null")      # the body of a 202 that holds no answer yet
# The API root in a cached answer's kept headers (a Link's next page): a replay on a new port follows its own
_API_ROOT = "{api-root}"


# One TLS context for every client of the process: building one reads the system's CA
# certificates (~0.15 s), and a run opens a client per platform, a test many. A context holds
# settings and trusted roots, no connection state; it is built as httpx2 builds its own for a
# client that does not trust the environment (trust_env=False below), so nothing changes but when.
_TLS: ssl.SSLContext | None = None
_TLS_LOCK = threading.Lock()


def shared_tls_context() -> ssl.SSLContext:
    global _TLS
    with _TLS_LOCK:
        if _TLS is None:
            _TLS = httpx2.create_ssl_context(trust_env=False)
        return _TLS


class _Retryable(Exception):
    """An attempt worth repeating; ``limited`` when the host answered "wait" (a rate limit), which
    is no failure of the host."""

    def __init__(self, why: str, retry_after: float | None = None, cause: BaseException | None = None,
                 limited: bool = False):
        super().__init__(why)
        self.why = why
        self.retry_after = retry_after
        self.cause = cause
        self.limited = limited


class ApiClient(PagingMixin):
    """HTTP GET with everything a harvester over a rate-limited API needs.

    ``platform`` names the `PlatformPolicy` (headers, token headers, quotas: `sources.policy`);
    ``transport`` is the seam.
    """

    def __init__(self, base_url: str, platform: str = "gitcode", token: str | None = None, *,
                 transport: httpx2.BaseTransport | None = None, cache: HttpCache | None = None,
                 limiter: RateLimiter | None = None, rate_limit: bool = True, time_scale: float = 1.0,
                 connect_timeout: float = 10.0, read_timeout: float = 30.0, max_attempts: int = 8,
                 backoff_base: float = 1.0, backoff_max: float = 60.0,
                 sleep: Callable[[float], None] = time.sleep, user_agent: str = "fixlore-harvester",
                 token_env: str = "", unreachable_budget: float = 10.0,
                 secondary_wait: float = 60.0, secondary_wait_max: float = 960.0, breaker: Breaker | None = None):
        self.base_url = base_url.rstrip("/")
        self.platform = platform
        self._token = token or None
        self.cache = cache
        self.time_scale = max(time_scale, 1e-9)
        self.policy = policy_for(platform)
        self.limiter = limiter or RateLimiter.for_quotas(self.policy.quotas, time_scale, enabled=rate_limit, sleep=sleep)
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
        headers = {"User-Agent": user_agent, **self.policy.headers}
        self._client = httpx2.Client(
            headers=headers, transport=transport, follow_redirects=True, trust_env=False,
            verify=shared_tls_context() if transport is None else True,
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
        # One per client, so one per run and host: the retry budget and the circuit breaker.
        self.breaker = breaker or Breaker(self.host)
        self.accounting.breaker = self.breaker

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
        return self.policy.auth_headers(self._token)

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
        ``not_found_ok``), :class:`ApiError` for a resource that kept failing or was refused,
        :class:`HostDown` (an ApiError) once the host's breaker is open, and :class:`SourceError`
        for what the user must fix.
        """
        endpoint = endpoint or path
        url = self.url_for(path, params)
        cached = self.cache.get(self._cache_key(url)) if (conditional and self.cache is not None) else None
        attempt = 0
        while True:
            attempt += 1
            if attempt > 1:
                self.accounting.retries += 1
            refused = self.breaker.refuse()
            if refused:
                raise HostDown(endpoint, self.host, refused)
            started, paced = time.monotonic(), self.limiter.slept
            try:
                response = self._attempt(url, endpoint, cached, not_found_ok, attempt)
            except _Retryable as exc:
                # what the failure cost: the attempt's time, not the pacing before it
                took = time.monotonic() - started - (self.limiter.slept - paced)
                if exc.limited:
                    self.breaker.answered()
                elif self.breaker.failed(self._cache_key(url), took):
                    self._say_down()
                    raise HostDown(endpoint, self.host, self.breaker.reason) from None
                delay = self._wait(exc, attempt)
                refused = "" if attempt >= self.max_attempts or exc.limited else self.breaker.may_retry(delay)
                if attempt >= self.max_attempts or refused:
                    raise self._give_up(exc, endpoint, attempt, refused) from None
                self.sleep(delay)
                continue
            except (NotFound, ApiError):
                self.breaker.answered()           # a refusal is an answer: the host is alive
                raise
            self.breaker.succeeded()
            return response

    def _say_down(self) -> None:
        if self.breaker.announce():
            log.warning("%s stopped answering (%s): fixlore asks it nothing more this run and finishes with what "
                        "it has; what was not read is recorded and retried on the next run",
                        self.host, self.breaker.reason)

    @property
    def has_token(self) -> bool:
        return self._token is not None

    def post_json(self, url: str, payload: dict[str, Any], *, endpoint: str) -> tuple[int, Any]:
        """One POST of a JSON body, paced like every request, counted, not retried: for optional
        extras (GraphQL) whose caller falls back to REST. Transport errors come back as status 0."""
        interrupts.check()
        if self.breaker.is_open:
            return 0, None
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

    def _wait(self, exc: _Retryable, attempt: int) -> float:
        """Seconds to sleep before the next attempt (real seconds: platform time over ``time_scale``)."""
        if exc.retry_after is not None:
            delay = exc.retry_after
        else:
            delay = min(self.backoff_max, self.backoff_base * (2 ** (attempt - 1)))
            delay = random.uniform(delay / 2, delay)          # jitter: spread out synchronized retries
        if self._unreachable_since is not None and not self._answered:
            left = self.unreachable_budget - (time.monotonic() - self._unreachable_since)
            delay = min(delay, max(left, 0.0) * self.time_scale)
        log.info("retrying after %s (attempt %d): waiting %.2fs", exc.why, attempt, delay / self.time_scale)
        return delay / self.time_scale

    def _attempt(self, url: str, endpoint: str, cached: tuple[str, str, dict[str, str]] | None,
                 not_found_ok: bool, attempt: int = 1) -> ApiResponse:
        interrupts.check()
        self.limiter.acquire()
        interrupts.check()
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
        except httpx2.TooManyRedirects:          # redirects are followed; one without end: this resource's
            self.accounting.record(endpoint, "redirect_loop")
            raise ApiError(endpoint, "redirects", "redirected again and again without an answer") from None

        self._answered = True
        status = resp.status_code
        if not 200 <= status < 300:
            self.accounting.record(endpoint, status)
        self.limiter.observe(resp.headers)

        if status == 304 and cached:
            self.answered = True
            self.accounting.not_modified += 1
            kept = {k: v.replace(_API_ROOT, self.base_url) for k, v in cached[2].items()}
            return ApiResponse(200, json.loads(cached[1]), kept, url, from_cache=True)
        if status == 202 and body.strip() in _NOTHING_YET:
            # "Accepted, ask again" (GitHub's statistics; a GitCode code): a wait, no empty answer
            self.accounting.record(endpoint, status)
            retry_after = parse_retry_after(resp.headers.get("retry-after"), server_now(resp.headers))
            if retry_after is not None:
                self.limiter.pause(retry_after)
            raise _Retryable("HTTP 202 Accepted with nothing yet", retry_after=0.0 if retry_after is not None else None,
                             limited=True)
        if status in RETRY_STATUSES or self._is_github_rate_limited(resp):
            retry_after = parse_retry_after(resp.headers.get("retry-after"), server_now(resp.headers))
            # the host telling us to wait (a rate limit, an announced pause) is no failure of the host
            limited = status in (403, 429) or retry_after is not None
            secondary = status in (403, 429) and _SECONDARY.search(resp.text or "") is not None
            if retry_after is not None:
                self.limiter.pause(retry_after)
            elif secondary:
                retry_after = self._minute_then_longer(endpoint, "secondary rate limit")
            elif status == 403 or status == 429:
                retry_after = self._github_reset_wait(resp)
                if retry_after is None and self.policy.wait_unnamed_limit:
                    # GitHub: a rate-limit answer that names no time (no retry-after, remaining not 0)
                    # is waited out like a secondary limit, never retried within a second or two.
                    retry_after = self._minute_then_longer(endpoint, f"HTTP {status} rate limit naming no time")
            raise _Retryable(f"HTTP {status}", retry_after=0.0 if retry_after is not None else None,
                             limited=limited)
        if status >= 400:
            message = self.redact(error_message(try_json(body) if body else ""))
            if status == 404:
                if not_found_ok:
                    return ApiResponse(404, None, {}, url)
                raise NotFound(endpoint, message or "not found")
            if status == 403 and attempt <= self.policy.forbidden_retries:
                raise _Retryable("HTTP 403", limited=True)     # asked again before it counts as a refusal
            if status == 401 or (status == 403 and not self.answered):
                if not self._token:
                    where = f"${self.token_env}" if self.token_env else "the token variable (--token-env)"
                    raise TokenRefused(f"{self.host} requires an API token (HTTP {status}) and none is set; "
                                       f"put one in {where}")
                raise TokenRefused(
                    f"{self.host} refused the API token (HTTP {status}{': ' + message if message else ''}); "
                    f"check the token and its read permissions")
            # Anything else concerns this resource only (a closed issue module, issues disabled, ...).
            raise ApiError(endpoint, status, message or REASONS.get(status, "refused"))
        try:
            data = json.loads(body) if body else None
        except ValueError as exc:
            self.accounting.record(endpoint, "malformed")
            raise _Retryable("malformed JSON", cause=exc) from None
        self.accounting.record(endpoint, status)
        self.answered = True
        self._secondary_hits = 0
        kept = {k: resp.headers[k] for k in KEPT_HEADERS if k in resp.headers}
        etag = resp.headers.get("etag")
        if etag and self.cache is not None:
            self.cache.put(self._cache_key(url), etag, body.decode("utf-8", "replace"),
                           {k: v.replace(self.base_url, _API_ROOT) for k, v in kept.items()})
        return ApiResponse(status, data, kept, url)

    def _minute_then_longer(self, endpoint: str, what: str) -> float:
        """GitHub's rule for a rate limit without Retry-After: wait at least a minute, then
        exponentially longer while it lasts; a client that keeps retrying sooner risks being banned."""
        wait = min(self.secondary_wait * 2 ** self._secondary_hits, self.secondary_wait_max)
        self._secondary_hits += 1
        log.warning("%s: %s on %s; waiting %.0fs", self.host, what, endpoint, wait)
        self.limiter.pause(wait)
        return wait

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
        text = resp.text or ""
        return "rate limit" in text.lower() or _SECONDARY.search(text) is not None   # GitHub says so in the body

    def _github_reset_wait(self, resp: httpx2.Response) -> float | None:
        """Remaining 0 with a reset: every request is held until that moment (real seconds returned)."""
        if resp.headers.get("x-ratelimit-remaining") == "0":
            return self.limiter.pause_for_reset(resp.headers)
        return None

    def _give_up(self, exc: _Retryable, endpoint: str, attempts: int, refused: str = "") -> SourceError:
        tries = f"after {attempts} attempt{'s' if attempts > 1 else ''}" + (f", {refused}" if refused else "")
        if isinstance(exc.cause, httpx2.ConnectError) and not self._answered:
            return SourceError(f"cannot reach {self.host}: {exc.why} ({tries})")
        # The host answers (or did), just not this resource: the caller records it and goes on.
        if exc.why == "malformed JSON":
            return ApiError(endpoint, "retries", f"{self.host} kept sending malformed JSON ({tries})")
        return ApiError(endpoint, "retries", f"{self.host} kept failing: {exc.why} ({tries})")
