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

from fixlore.core.model import Comment
from fixlore.rules.answers import ASKS_REPORTER, closing_note
from fixlore.rules.bots import STALE_NOTICE, is_bot

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
# A no-reply sweep: a maintainer walks the tracker's "waiting for the reporter" list and closes the
# tickets whose reporter never answered a request for logs, versions or a reproduction. Projects write
# this pass into their triage process (GitHub Desktop's first responder: "review the needs-reproduction
# issues and close any that have gone 2 weeks with no new activity"; eslint, ember.js and
# microsoft/ebpf-for-windows: close when the filer has not answered a request for information within one
# or two weeks), and it is done by hand, one ticket after another, minutes apart. Such closes are few
# per pass, so two in one run are a sweep where two ordinary closes are not: each close's own thread
# shows why it was closed then, and none of it is a fix. Not fitted: two is the least a run can be.
SWEEP_MIN_CLOSES = 2


def awaits_reporter(opener: str, comments: Iterable[Comment], closed_at: datetime, min_wait_s: float) -> bool:
    """Whether the issue was closed waiting on its reporter: someone else asked the opener for
    something (rules.answers.ASKS_REPORTER) at least `min_wait_s` before the close, and after that
    request the opener wrote nothing and nobody else wrote more than a stale notice or a bare
    closing note. An unknown opener never waits (who would have answered is not known)."""
    if not opener:
        return False
    asked: datetime | None = None
    for c in sorted((c for c in comments if c.created_at is not None and c.created_at <= closed_at),
                    key=lambda c: c.created_at):
        body = c.body or ""
        if own_close(c.author, opener):
            asked = None
        elif not c.author or is_bot(c.author) or STALE_NOTICE.search(body) or closing_note(body):
            continue
        else:
            asked = c.created_at if ASKS_REPORTER.search(body) else None
    return asked is not None and (closed_at - asked).total_seconds() >= min_wait_s


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
