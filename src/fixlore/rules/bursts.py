"""Close bursts: several issues of one repository closed within minutes of one another.

A stale process or a person tidying a tracker closes issues in runs (a bot sweeping a handful in
seconds, a batch by hand over minutes); the linker calls one actor's run a close storm and, when
the closer is a stale process, each close a stale close (link.closes). Both are traps at any
funnel stage inside the window (issue #13: a stale bot closes unresolved issues too), but the
funnel-first harvest fetches who closed an issue only for the pool. The issue list already
carries every close instant, so a burst is visible before any detail is fetched: the harvester
fetches the closer of the issues of a burst outside the pool, and nothing more.

A burst is counted per repository, or across the organisation only when it is a sweep of
seconds: across the 187 repositories of ascend-2026-09, three closes within ten minutes happen
all the time without being anyone's sweep (measured: per repository, 12 issues of that world
fall in a burst, 2 of them outside the pool). The two numbers are the
close storm's (`link.config`: storm_min_closes, storm_window_s), fitted on ascend-2026-09; they
live here so that the harvester and the linker read the same ones.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Iterable

STORM_MIN_CLOSES = 3
STORM_WINDOW_S = 600
# A storm sweeps other people's tickets: an opener closing the issues they filed themselves (an
# author withdrawing a batch of their own reports, a maintainer closing the tracking issues they
# opened) is tidying up, not a sweep, and a run whose every issue one person opened is that
# person's batch. Not fitted: how a sweep differs from tidying one's own tickets.
MIN_OPENERS = 2


def own_close(actor: str, opener: str) -> bool:
    """Whether `actor` closed an issue they opened themselves (logins compare without case)."""
    return bool(actor) and bool(opener) and actor.lower() == opener.lower()


def distinct_openers(openers: Iterable[str]) -> int:
    """How many people opened the issues of a run; an unknown opener ("") counts as a distinct one
    (the run is not shown to be one person's)."""
    known: set[str] = set()
    unknown = 0
    for o in openers:
        if o:
            known.add(o.lower())
        else:
            unknown += 1
    return len(known) + unknown
# A bot sweeps a whole organisation in seconds (ascend-2026-09's stale bot: 3 closes in 4 s over two
# repositories); across repositories only a run this tight counts (within 60 s, 57 issues of that
# world would, 37 of them outside the pool). Read off ascend-2026-09, checked on seed-twin (read): it
# costs 12 requests on ascend-2026-09 and none on demo, github-mini or npu-threads, and changes traps
# only on seed-twin (19/1/4 -> 22/0/1 with the claim rule) and seed-twin2 (7/0/5 -> 10/0/2).
SWEEP_WINDOW_S = 10


def _runs(items: list[tuple[datetime, str]], min_closes: int, window_s: int) -> set[str]:
    items = sorted(items)
    marked: set[str] = set()
    j = 0
    for i in range(len(items)):
        while (items[i][0] - items[j][0]).total_seconds() > window_s:
            j += 1
        if i - j + 1 >= min_closes:
            marked.update(key for _, key in items[j:i + 1])
    return marked


def in_bursts(closes: Iterable[tuple[str, str, datetime]], min_closes: int = STORM_MIN_CLOSES,
              window_s: int = STORM_WINDOW_S, sweep_s: int = SWEEP_WINDOW_S) -> set[str]:
    """`closes`: (repository, issue key, close instant). The keys whose close falls in a run of at
    least `min_closes` closes of one repository within `window_s`, or of the whole organisation
    within `sweep_s`, whoever closed them."""
    closes = list(closes)
    by_repo: dict[str, list[tuple[datetime, str]]] = defaultdict(list)
    for repo, key, at in closes:
        by_repo[repo].append((at, key))
    marked = _runs([(at, key) for _, key, at in closes], min_closes, sweep_s)
    for items in by_repo.values():
        marked |= _runs(items, min_closes, window_s)
    return marked
