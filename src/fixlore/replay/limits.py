"""Rate limits as the platforms apply them, with time compressed by ``time_scale``.

GitCode documents 50 requests a minute and 4,000 an hour; we model both as sliding
windows over the requests admitted. GitHub gives 5,000 an hour in a fixed window that
resets at a known moment and reports it in ``X-RateLimit-*`` headers.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque


class SlidingWindows:
    """Admit a request only when every (limit, seconds) window has room."""

    def __init__(self, windows: list[tuple[int, float]], clock=time.monotonic) -> None:
        self.windows = windows
        self._clock = clock
        self._times: deque[float] = deque()
        self._lock = threading.Lock()
        self._longest = max(s for _, s in windows)

    def admit(self) -> bool:
        with self._lock:
            now = self._clock()
            while self._times and now - self._times[0] >= self._longest:
                self._times.popleft()
            for limit, seconds in self.windows:
                recent = sum(1 for t in self._times if now - t < seconds)
                if recent >= limit:
                    return False
            self._times.append(now)
            return True

    def reset(self) -> None:
        with self._lock:
            self._times.clear()


def gitcode_limiter(time_scale: float = 1.0) -> SlidingWindows:
    return SlidingWindows([(50, 60.0 / time_scale), (4000, 3600.0 / time_scale)])


class FixedWindow:
    """GitHub's primary limit: ``limit`` requests per period, the counter resets at a fixed moment."""

    def __init__(self, limit: int = 5000, period: float = 3600.0, clock=time.time, resource: str = "core") -> None:
        self.limit = limit
        self.resource = resource          # GitHub's budget name: "core" (REST), "graphql", ...
        self.period = period
        self._clock = clock
        self._start: float | None = None
        self.used = 0
        self._lock = threading.Lock()

    def _roll(self, now: float) -> None:
        if self._start is None or now >= self._start + self.period:
            self._start = now
            self.used = 0

    def take(self) -> bool:
        """Count one request; False (and nothing counted) when the window is exhausted."""
        with self._lock:
            self._roll(self._clock())
            if self.used >= self.limit:
                return False
            self.used += 1
            return True

    def give_back(self) -> None:
        """Un-count a request (GitHub does not charge an authorised 304)."""
        with self._lock:
            self.used = max(0, self.used - 1)

    def headers(self) -> dict[str, str]:
        with self._lock:
            self._roll(self._clock())
            reset = math.ceil(self._start + self.period)
            return {
                "X-RateLimit-Limit": str(self.limit),
                "X-RateLimit-Remaining": str(max(0, self.limit - self.used)),
                "X-RateLimit-Reset": str(reset),
                "X-RateLimit-Used": str(self.used),
                "X-RateLimit-Resource": self.resource,
            }

    def reset(self) -> None:
        with self._lock:
            self._start = None
            self.used = 0


def github_limiter(time_scale: float = 1.0, clock=time.time) -> FixedWindow:
    return FixedWindow(5000, 3600.0 / time_scale, clock=clock)


def github_graphql_limiter(points: int, time_scale: float = 1.0, clock=time.time) -> FixedWindow:
    """GitHub's GraphQL budget, apart from REST's (``X-RateLimit-Resource: graphql``); one point a query here."""
    return FixedWindow(points, 3600.0 / time_scale, clock=clock, resource="graphql")
