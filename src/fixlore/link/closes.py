"""Who closed an issue and how: stale processes and close storms.

A stale close is a close by a process rather than by a person acting on a fix: the closing
account looks like a bot (and the close is not an auto-close right after a merge, nor the bot
closing a ticket it opened itself), or a
stale notice ("no activity for N days … will be closed", "4 天无更新，自动关闭" …) was posted
by a bot, or posted after days of silence as a warning at least a day before the close (what
a bot account and a stale notice look like: `rules.bots`).

A close storm is one actor closing many issues in a short run; computed over every close in
the corpus, leaving out closes explained by a linked fix merging just before them and closes of
an actor's own issues (a person tidying up the tickets they opened is not sweeping anyone's
tracker), and counting a run only when its issues come from at least `storm_min_openers`
people (`rules.bursts.MIN_OPENERS`). A no-reply sweep is one too: a shorter run (two closes) of
issues each closed waiting on its reporter, a request for information left unanswered
(`rules.bursts.awaits_reporter`).

The thresholds are in link.config, each with the world it was fitted on.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from fixlore.core.model import Comment, Issue, pickled_as_arguments
from fixlore.link.config import LinkConfig
from fixlore.link.stale_label import stale_label
from fixlore.rules.bots import STALE_NOTICE, is_bot
from fixlore.rules.bursts import distinct_openers, own_close


def stale_note(issue: Issue, actor: str, comments: list[Comment], lag_s: int | None, cfg: LinkConfig) -> str:
    """Why this close is a stale close ("" when it is not)."""
    close = issue.closed_at
    if close is None:
        return ""
    if is_bot(actor) and own_close(actor, issue.author):
        # A process closing the ticket it opened itself (a release checklist, a CI failure
        # report, a tracking issue it filed) closes its own bookkeeping, not someone's report.
        return ""
    latest = close + timedelta(seconds=cfg.clock_slack_s)
    notice: Comment | None = None
    previous: datetime | None = issue.created_at
    for c in comments:
        if c.created_at is None or c.created_at > latest:
            continue
        if STALE_NOTICE.search(c.body or ""):
            notice = c
        elif notice is None:
            previous = c.created_at if previous is None or c.created_at > previous else previous
    explained = lag_s is not None and -cfg.clock_slack_s <= lag_s <= cfg.auto_close_s
    if notice is not None:
        idle_days = (notice.created_at - previous).total_seconds() / 86400 if previous else 0.0
        warned_days = (close - notice.created_at).total_seconds() / 86400
        # A person writing "no updates for long, closing" as they close is a manual close with
        # a reason; a stale process posts by bot, or warns first and closes days later.
        if is_bot(notice.author) or (idle_days >= cfg.stale_idle_days and warned_days >= cfg.stale_warning_days):
            snippet = " ".join((notice.body or "").split())[:80]
            who = f"closed by {actor}" if actor else "closed"
            return (f"{who} at {close.isoformat()}; stale notice by {notice.author} at "
                    f"{notice.created_at.isoformat()} after {idle_days:.1f} days without activity: '{snippet}'")
    if actor and is_bot(actor) and not explained:
        return f"closed by bot account {actor} at {close.isoformat()}, not within {cfg.auto_close_s}s of a fix merge"
    label = stale_label(issue, cfg.funnel)
    if label and not explained:
        return f"closed at {close.isoformat()} carrying the stale process's label '{label}', no fix merge explains it"
    return ""


@pickled_as_arguments
@dataclass(slots=True)
class Close:
    key: str
    actor: str
    at: datetime
    explained: bool
    opener: str = ""          # who opened the issue ("" when unknown)
    awaited: bool = False     # closed waiting on its reporter (rules.bursts.awaits_reporter)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_NAIVE_EPOCH = datetime(1970, 1, 1)
_MICROSECOND = timedelta(microseconds=1)


def _instant_us(at: datetime) -> int:
    return (at - (_EPOCH if at.tzinfo is not None else _NAIVE_EPOCH)) // _MICROSECOND


def close_storms(closes: list[Close], cfg: LinkConfig) -> dict[str, str]:
    """Issue key -> note, for every close inside a run of >= storm_min_closes closes by one
    actor within storm_window_s of issues opened by >= storm_min_openers people, or inside a
    no-reply sweep: a run of >= sweep_min_closes such closes of issues each closed waiting on
    its reporter (`Close.awaited`, rules.bursts.awaits_reporter); an actor's closes of their own
    issues are not counted."""
    by_actor: dict[str, list[Close]] = defaultdict(list)
    for c in closes:
        if c.actor and not c.explained and not own_close(c.actor, c.opener):
            by_actor[c.actor].append(c)
    notes: dict[str, str] = {}
    window_us = cfg.storm_window_s * 1_000_000
    for actor, items in by_actor.items():
        # Exact instants as integer microseconds: closes gathered from forked workers carry
        # equal but distinct tzinfo objects, which makes every datetime comparison and
        # subtraction take the slow path through utcoffset().
        unsorted = [_instant_us(c.at) for c in items]
        order = sorted(range(len(items)), key=unsorted.__getitem__)
        items = [items[k] for k in order]
        us = [unsorted[k] for k in order]
        marked = _marked(items, us, window_us, cfg.storm_min_closes, cfg.storm_min_openers)
        awaited = [k for k, c in enumerate(items) if c.awaited]
        swept = _marked([items[k] for k in awaited], [us[k] for k in awaited], window_us,
                        cfg.sweep_min_closes, cfg.storm_min_openers)
        for k, m in zip(awaited, swept):
            marked[k] = marked[k] or m
        run: list[Close] = []
        for c, m in zip(items + [None], marked + [False]):
            if m:
                run.append(c)
                continue
            if run:
                span = int((run[-1].at - run[0].at).total_seconds())
                names = ", ".join(x.key for x in run[:8]) + (" …" if len(run) > 8 else "")
                # A run shorter than a storm is a no-reply sweep: the note says what made it one.
                what = "issues" if len(run) >= cfg.storm_min_closes else "issues waiting on their reporters"
                note = (f"{actor} closed {len(run)} {what} within {span}s "
                        f"({run[0].at.isoformat()} – {run[-1].at.isoformat()}): {names}")
                for x in run:
                    notes[x.key] = note
            run = []
    return notes


def _marked(items: list[Close], us: list[int], window_us: int, min_closes: int, min_openers: int) -> list[bool]:
    """Which of one actor's closes (sorted, `us` their instants) fall in a run of >= min_closes
    within window_us whose issues >= min_openers people opened."""
    marked = [False] * len(items)
    j = 0
    for i in range(len(items)):
        while us[i] - us[j] > window_us:
            j += 1
        if i - j + 1 >= min_closes and distinct_openers(x.opener for x in items[j:i + 1]) >= min_openers:
            for k in range(j, i + 1):
                marked[k] = True
    return marked
