"""GitCode's documented quotas (50 a minute, 4,000 an hour, sliding windows) hold on a clock that
moves only when the caller waits, at the magnitudes a monotonic or wall clock has."""

from __future__ import annotations

import bisect

import pytest

from fixlore.sources.ratelimit import SlidingWindow


@pytest.mark.parametrize("start", [0.0, 1_000_000.0, 1_765_000_000.0])
def test_a_full_window_never_says_go_at_the_instant_it_would_expire(start):
    now = [start]
    windows = [SlidingWindow(50, 60.0, clock=lambda: now[0]), SlidingWindow(4000, 3600.0, clock=lambda: now[0])]
    sent: list[float] = []
    while len(sent) < 400:
        wait = max(w.wait_time() for w in windows)
        if wait > 0:
            now[0] += wait
            continue
        for w in windows:
            w.take()
        sent.append(now[0])
    worst = max(bisect.bisect_left(sent, t + 60.0) - i for i, t in enumerate(sent))
    assert worst == 50
    assert sent[-1] - sent[0] >= 7 * 60.0          # eight full minutes' worth went out over seven minutes and more
