"""A circuit breaker and a retry budget for one remote host (a platform API, a model endpoint), per run.

Two things grow without bound when a host dies or one of its endpoints breaks, and each has a
bound here:

- **Retries.** A request may retry a failure (a transport error, a timeout, a 5xx, a malformed
  answer) only while the host's current *failure streak* (every failed attempt since the last
  answer that proved the host alive) has cost less than ``give_up_after`` seconds, and only
  while the run's *retry budget* has a token left: ``retry_floor`` tokens to start with, and
  ``retry_ratio`` more for every request that succeeded, never more than ``retry_floor`` banked
  (Finagle's retry budget: retries may add a fraction to the load a healthy host carries, never
  multiply it). A quarter leaves room for a host that fails one attempt in eight (the replay's
  heaviest fault mix) and still bounds what broken endpoints cost: a few retries each until the
  floor is spent, then one retry per four answers, whatever the number of endpoints.
- **Failing requests.** The breaker opens when the streak spans ``open_after`` distinct requests
  (a request that gave up, then the next ones failing too, with no success between), or two when
  the streak has already cost ``give_up_after`` seconds. A single broken URL retried over and
  over never opens it: that costs its item only. Once open, every request fails at once with the
  reason it opened, said once; it stays open for the rest of the run (a run lasts minutes; a
  host that died mid-run is retried by the next run, which records what this one could not read).

A rate-limit answer (429, an announced pause) is the host telling us to wait: it proves the
host alive, ends the streak, and neither spends the budget nor counts as a failure.

Times are the caller's: each failed attempt reports what it cost (the time it took plus the
wait before the next), so a test's fake sleeps give the same verdicts as real ones.
"""

from __future__ import annotations

import threading
from typing import Any


class Breaker:
    def __init__(self, host: str, *, give_up_after: float = 20.0, open_after: int = 3,
                 retry_floor: float = 20.0, retry_ratio: float = 0.25):
        self.host = host
        self.give_up_after = give_up_after
        self.open_after = max(2, open_after)
        self.retry_floor = retry_floor
        self.retry_ratio = retry_ratio
        self.tokens = retry_floor
        self.reason = ""                 # why it opened ("" while closed)
        self.short_circuited = 0         # requests refused at once while open
        self.retries = 0                 # retries allowed
        self.retries_refused = 0         # retries the budget or the streak refused
        self._streak_cost = 0.0          # seconds the current failure streak has cost
        self._streak_keys: set[str] = set()
        self._announced = False
        self._lock = threading.Lock()
        # a client that checks the host before its first request does it once, under this lock
        self.probe_lock = threading.Lock()
        self.probed = False

    @property
    def is_open(self) -> bool:
        return bool(self.reason)

    # -- what happened
    def succeeded(self) -> None:
        """A request got its answer: the streak ends and the budget earns a fraction of a retry."""
        with self._lock:
            self._streak_cost, self._streak_keys = 0.0, set()
            self.tokens = min(self.retry_floor, self.tokens + self.retry_ratio)

    def answered(self) -> None:
        """The host answered, if only to say wait (a rate limit): alive, so the streak ends."""
        with self._lock:
            self._streak_cost, self._streak_keys = 0.0, set()

    def failed(self, key: str, cost: float) -> bool:
        """One failed attempt of request ``key`` that took ``cost`` seconds; True when it opened the breaker."""
        with self._lock:
            self._streak_cost += max(cost, 0.0)
            self._streak_keys.add(key)
            if self.reason:
                return False
            spread = len(self._streak_keys)
            if spread >= self.open_after or (spread >= 2 and self._streak_cost >= self.give_up_after):
                self.reason = (f"{spread} requests in a row failed over {self._streak_cost:.0f} s "
                               f"with no answer between")
                return True
            return False

    def trip(self, reason: str) -> bool:
        """Open at once (a probe found nothing answering); True when this call opened it."""
        with self._lock:
            if self.reason:
                return False
            self.reason = reason
            return True

    # -- what may happen next
    def may_retry(self, delay: float) -> str:
        """"" when a failed request may wait ``delay`` seconds and try again (a token is spent),
        else why not (for the request's error message)."""
        with self._lock:
            if self.reason:
                why = "the host stopped answering"
            elif self._streak_cost + delay > self.give_up_after:
                why = f"the host failing for {self._streak_cost:.0f} s"
            elif self.tokens < 1:
                why = "the run's retry budget spent"
            else:
                self.tokens -= 1
                self.retries += 1
                self._streak_cost += max(delay, 0.0)
                return ""
            self.retries_refused += 1
            return why

    def refuse(self) -> str | None:
        """The reason to refuse a request now (None: send it); counts the refusal."""
        with self._lock:
            if not self.reason:
                return None
            self.short_circuited += 1
            return self.reason

    def announce(self) -> bool:
        """True exactly once after the breaker opened: the caller says so, once."""
        with self._lock:
            if not self.reason or self._announced:
                return False
            self._announced = True
            return True

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {"host": self.host, "state": "open" if self.reason else "closed", "reason": self.reason,
                    "short_circuited": self.short_circuited, "retries": self.retries,
                    "retries_refused": self.retries_refused, "retry_tokens_left": round(self.tokens, 1)}


class Circuits:
    """One breaker per host for a run, so every client of the same host (the kb check, the
    analysis, the editorial pass) shares what the others learned."""

    def __init__(self, **settings: Any):
        self.settings = settings
        self._by_host: dict[str, Breaker] = {}
        self._lock = threading.Lock()

    def get(self, host: str) -> Breaker:
        with self._lock:
            if host not in self._by_host:
                self._by_host[host] = Breaker(host, **self.settings)
            return self._by_host[host]

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return [b.snapshot() for b in self._by_host.values()]
