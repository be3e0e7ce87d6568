"""Fault injection for the replay server: which request gets which failure.

A spec is a comma-separated list of ``kind:probability`` and ``kind@N`` items, e.g.
``"429:0.05,500:0.02,stall:0.01,cutoff@7"``. Probabilistic draws depend only on the seed
and the request's ordinal, so a run with the same seed and the same request order meets
the same faults. ``kind@N`` injects on the N-th counted request (1-based) exactly.

A URL never gets more than two faults in a row: the third consecutive request for the
same URL is served cleanly, so a careful client always gets through (this holds for ``kind@N`` too).

``kind=GLOB`` is the exception, a permanent fault: every request whose path (the API prefix
included, the query left out) matches the shell pattern GLOB gets ``kind``, however often it is
asked, e.g. ``"500=*/issues/101/comments"`` for one issue's comments that never read. It plays a
broken endpoint no retry can heal, so the client's handling of one unreadable item can be tested.
"""

from __future__ import annotations

import fnmatch
import random
import threading
from dataclasses import dataclass, field

from fixlore.core.errors import ConfigError

KINDS = (
    "429",             # rate limited, no Retry-After (GitCode is not known to send one)
    "429-retry-after", # rate limited with Retry-After (GitHub's secondary limit)
    "500",
    "502",
    "503",
    "stall",           # hold the response longer than a client's read timeout
    "cutoff",          # full Content-Length, part of the body, then close
    "malformed",       # 200 with a body that is not JSON
    "repeat-page",     # a list page answered with the previous page's items
    "empty-page",      # a list page answered empty, its totals (GitCode) or Link rel=next (GitHub) kept:
                       # GitCode's changelog fixed "occasional incomplete pages" on 2024-11-22
    "404",             # the platform's 404 body: an endpoint the server does not serve, GitCode's transient
                       # "project not found" (gitcode-api.md §6); mostly used as kind=GLOB
    "202",             # 202 Accepted with no body: "not ready, ask again" (GitHub's statistics endpoints
                       # answer so while they compute; GitCode lists 202 among its status codes)
    "deleted",         # an issue deleted on the platform: GitHub 410 "This issue was deleted", GitCode its 404;
                       # as kind=GLOB over one issue's paths (*/issues/104, */issues/104/*), one deleted after it
                       # was listed (the list, another path, still carries it)
    "451",             # 451 Unavailable For Legal Reasons: GitHub's answer for a repository blocked by a DMCA
                       # takedown ("Repository access blocked"); mostly used as kind=GLOB
)

MAX_CONSECUTIVE_PER_URL = 2


@dataclass
class FaultSpec:
    probabilities: dict[str, float] = field(default_factory=dict)
    at: dict[int, str] = field(default_factory=dict)
    always: list[tuple[str, str]] = field(default_factory=list)      # (path glob, kind): permanent faults

    @property
    def empty(self) -> bool:
        return not self.probabilities and not self.at and not self.always


def parse_spec(spec: str | None) -> FaultSpec:
    """Parse ``"kind:p,kind@N,kind=GLOB,..."``; raise ConfigError (exit 2) on an unknown kind or a bad number."""
    out = FaultSpec()
    if not spec:
        return out
    for raw in spec.split(","):
        item = raw.strip()
        if not item:
            continue
        if "=" in item:
            kind, _, pattern = item.partition("=")
            kind, pattern = kind.strip(), pattern.strip()
            _check_kind(kind, item)
            if not pattern.startswith(("/", "*")):
                raise ConfigError(f"bad --faults item {item!r}: expected kind=GLOB with GLOB a path pattern such as "
                                  f"'*/issues/101/comments'")
            out.always.append((pattern, kind))
        elif "@" in item:
            kind, _, n = item.partition("@")
            kind = kind.strip()
            _check_kind(kind, item)
            try:
                index = int(n)
            except ValueError:
                raise ConfigError(f"bad --faults item {item!r}: expected kind@N with N a request number") from None
            if index < 1:
                raise ConfigError(f"bad --faults item {item!r}: request numbers start at 1")
            out.at[index] = kind
        else:
            kind, sep, p = item.rpartition(":")
            kind = kind.strip()
            if not sep:
                raise ConfigError(f"bad --faults item {item!r}: expected kind:probability or kind@N")
            _check_kind(kind, item)
            try:
                prob = float(p)
            except ValueError:
                raise ConfigError(f"bad --faults item {item!r}: probability must be a number") from None
            if not 0.0 <= prob <= 1.0:
                raise ConfigError(f"bad --faults item {item!r}: probability must be between 0 and 1")
            out.probabilities[kind] = out.probabilities.get(kind, 0.0) + prob
    if sum(out.probabilities.values()) > 1.0 + 1e-9:
        raise ConfigError(f"bad --faults {spec!r}: probabilities add up to more than 1")
    return out


def _check_kind(kind: str, item: str) -> None:
    if kind not in KINDS:
        raise ConfigError(f"bad --faults item {item!r}: unknown kind {kind!r} (known: {', '.join(KINDS)})")


class FaultPlan:
    """Decides, request by request, whether to inject a fault, and remembers per-URL streaks."""

    def __init__(self, spec: FaultSpec | str | None, seed: int = 0) -> None:
        self.spec = spec if isinstance(spec, FaultSpec) else parse_spec(spec)
        self.seed = seed
        self._streak: dict[str, int] = {}
        self._lock = threading.Lock()

    def choose(self, ordinal: int, url_key: str, applicable: set[str]) -> str | None:
        """The fault for request number ``ordinal`` (1-based) on ``url_key``, or None.

        ``applicable`` names the kinds that make sense for this request (repeat-page only on a
        list page after the first). A drawn kind that does not apply is not injected.
        """
        path = url_key.partition("?")[0]
        for pattern, permanent in self.spec.always:
            if fnmatch.fnmatchcase(path, pattern) and permanent in applicable:
                return permanent          # no streak limit: this endpoint never heals
        kind = self.spec.at.get(ordinal)
        if kind is None and self.spec.probabilities:
            # One draw per ordinal, independent of thread scheduling.
            u = random.Random(f"{self.seed}:{ordinal}").random()
            acc = 0.0
            for k, p in self.spec.probabilities.items():
                acc += p
                if u < acc:
                    kind = k
                    break
        with self._lock:
            streak = self._streak.get(url_key, 0)
            if kind is not None and kind not in applicable:
                kind = None
            if kind is not None and streak >= MAX_CONSECUTIVE_PER_URL:
                kind = None
            self._streak[url_key] = streak + 1 if kind is not None else 0
        return kind

    def reset(self) -> None:
        with self._lock:
            self._streak.clear()
