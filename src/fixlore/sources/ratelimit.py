"""Client-side pacing: documented quotas as token buckets or sliding windows, and pauses a server announces."""

from __future__ import annotations

import email.utils
import threading
import time
from collections import deque
from typing import Callable

import httpx2

REST_RESOURCE = "core"          # GitHub's name for the REST API's primary budget


def server_now(headers: httpx2.Headers | dict[str, str] | None) -> float | None:
    """The moment the server answered, by its own clock (its ``Date`` header, RFC 9110 §6.6.1), as epoch
    seconds; None when it sent none or one that does not parse. A moment the server names (GitHub's
    ``x-ratelimit-reset``, a ``Retry-After`` date) is measured against this, not against our clock: a
    clock of ours that runs ahead would otherwise find every such moment already past."""
    value = (headers or {}).get("date")
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


# GitHub's rate-limit windows are an hour long: a reset further away than that is a misread header
RESET_WINDOW_S = 3600.0

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
        # One expression decides both "expired" and "how long": `now - spent[0] < period` and
        # `spent[0] + period - now` round differently, and a wait of 0.0 on a full window let a
        # caller on a clock that only moves when it sleeps send unlimited requests at one instant.
        now = self.clock()
        while self.spent and self.spent[0] + self.period <= now:
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
    def for_quotas(cls, quotas: tuple[tuple[int, float], ...], time_scale: float = 1.0, enabled: bool = True,
                   sleep: Callable[[float], None] = time.sleep) -> "RateLimiter":
        """One sliding window per documented (requests, seconds) quota (a platform's `PlatformPolicy`);
        none for a platform that announces its budget in headers (GitHub)."""
        if not enabled:
            return cls(time_scale=time_scale, sleep=sleep)
        return cls([SlidingWindow(limit, period, time_scale) for limit, period in quotas],
                   time_scale=time_scale, sleep=sleep)

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

    def pause_until_reset(self, reset_at: float, answered_at: float | None = None) -> float:
        """Hold every request until ``reset_at``, the epoch second a server announced its quota comes
        back (GitHub's ``x-ratelimit-reset``), plus a second of platform time. A moment on the wall
        clock, never divided by ``time_scale`` as a span of platform time is: a compressed clock
        moves the reset nearer, not the wait shorter. Returns the real seconds from now.

        The wait is ``reset_at`` less ``answered_at``, the server's own time of the answer (`server_now`)
        when it said it, so a skew between its clock and ours changes nothing; else our clock's now.
        Never less than that second: a reset already past by our clock (ours ahead of the server's) once
        gave a wait of 0, and the 8 attempts came back within the same exhausted window and gave up."""
        now = self.clock()
        wait = max(0.0, reset_at - (now if answered_at is None else answered_at))
        if wait > RESET_WINDOW_S and answered_at is not None:
            # a Date header far from the reset (a proxy's stale or zero Date): the window is an hour at
            # most, so our clock says more than such a header does
            wait = max(0.0, reset_at - now)
        wait = min(wait, RESET_WINDOW_S) + 1.0 / self.time_scale
        self.pause_until = max(self.pause_until, now + wait)
        return wait

    def pause_for_reset(self, headers: httpx2.Headers) -> float | None:
        """`pause_until_reset` from an answer's ``x-ratelimit-reset`` and ``Date`` (None: no reset named)."""
        try:
            reset_at = float(headers.get("x-ratelimit-reset") or "")
        except ValueError:
            return None
        return self.pause_until_reset(reset_at, server_now(headers))

    def observe(self, headers: httpx2.Headers) -> None:
        """Honour GitHub-style ``X-RateLimit-Remaining`` / ``X-RateLimit-Reset`` of the budget the REST
        requests spend. GitHub keeps budgets apart (REST's ``core``, ``graphql``, ``search``...) and names
        the one an answer counted in ``X-RateLimit-Resource``: another budget spent holds up no REST request
        (GraphQL's own answer says it is limited: `sources.github_graphql`)."""
        resource = headers.get("x-ratelimit-resource")
        if resource and resource.strip().lower() != REST_RESOURCE:
            return
        try:
            remaining = int(headers.get("x-ratelimit-remaining") or "")
        except ValueError:
            return
        if remaining <= self.low_water:
            self.pause_for_reset(headers)

    def _sleep(self, seconds: float) -> None:
        self.slept += seconds
        self.sleep(seconds)
