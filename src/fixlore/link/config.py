"""Link settings: timing thresholds, close-storm and stale-close detection.

Timing thresholds are the vocabulary's (world-format.md): same_second |lag| <= 1 s,
auto_close <= 180 s, minutes <= 1 h. Every other number says which world it was fitted on;
ascend-2026-09 (the seed digest's world) is the one most were set against, so its scores are
fitted figures. Worlds written by others (npu-threads, the lead's held-out worlds) are the
measure; no number here was fitted on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fixlore.rules.answers import ANSWER_MIN_CHARS
from fixlore.rules.bursts import MIN_OPENERS, STORM_MIN_CLOSES, STORM_WINDOW_S, SWEEP_MIN_CLOSES
from fixlore.rules.funnel.config import FunnelConfig


@dataclass(slots=True)
class LinkConfig:
    funnel: FunnelConfig = field(default_factory=FunnelConfig)
    # Learned value weights (`fixlore run --value-weights`; series.weights): the pool is ranked by
    # the learned probability, and cut at series.weights.EVEN when the file's check favours the gate.
    value_weights: dict | None = None
    # True: every issue closed inside the window carries its fix, evidence, timing and traps,
    # whatever its funnel stage (a fix is a fact about the issue). False: only the top-K
    # analysis candidates do; the others keep their candidates and a close storm.
    conclude_all: bool = True
    # Processes that link issues in parallel (forked: they share the index); 1 = in-process.
    workers: int = 1
    # Timing classes (world-format.md's vocabulary, not fitted). A linked PR merged at most
    # minutes_s before the close is an auto-close chain: another issue named in its text does
    # not refute the link then (the platform closed this issue on the PR's claim too).
    same_second_s: int = 1
    auto_close_s: int = 180
    minutes_s: int = 3600
    # A close more than this many seconds before the merge is "before_merge"; timestamps
    # are second-precision, so a merge and its auto-close may swap by a second. Not fitted:
    # the timestamps' resolution.
    clock_slack_s: int = 1
    # Close storms: one actor closing >= storm_min_closes issues within storm_window_s (a bot
    # sweeping in seconds, or a manual batch over minutes); every close of such a run is
    # marked. Closes explained by a fix (for older issues: a linked, mentioned or branch-named
    # PR) merging within auto_close_s before them are left out: a maintainer merging several
    # fixes in a row is not a storm. Fitted on: ascend-2026-09 (the seed's storms: a bot
    # closing 3+ in 4 s, a manual batch over 5 minutes, two closes in 4 minutes that are none).
    storm_min_closes: int = STORM_MIN_CLOSES
    storm_window_s: int = STORM_WINDOW_S
    # ... and whose issues were opened by at least this many people; an actor's closes of their
    # own issues never count (rules.bursts.own_close). Not fitted.
    storm_min_openers: int = MIN_OPENERS
    # A no-reply sweep (rules.bursts.SWEEP_MIN_CLOSES): this many closes within storm_window_s,
    # each of an issue closed waiting on its reporter (a request for information left unanswered
    # for >= stale_warning_days), is a storm too. Not fitted: read off how triage processes close
    # issues whose filer never answered; seed-twin2's 09-20 pair (tune) is the case that asked.
    sweep_min_closes: int = SWEEP_MIN_CLOSES
    # Stale closes: the closing account looks like a bot (and the close is no auto-close), or
    # a bot posted a stale notice, or a stale notice was posted after >= stale_idle_days
    # without activity and >= stale_warning_days before the close. Fitted on: ascend-2026-09
    # (its stale bot closes after 4 days idle); demo and github-mini agree.
    stale_idle_days: float = 3.0
    stale_warning_days: float = 1.0
    # A timing-only candidate (no text, link or branch) is accepted only when it merged
    # within this many seconds of the close and shares vocabulary with the issue. Fitted on:
    # ascend-2026-09 (same-second auto-closes whose PR names nothing).
    timing_only_s: int = 1
    timing_only_overlap: float = 0.25
    # linked_unrelated (link.unrelated.unrelated_reason): vocabulary never refutes a platform
    # link alone; below this share of shared vocabulary, positive contrary evidence (another
    # issue named as the target, a change that touches none of what the issue names or none of
    # its own fix's folders) refutes it. Fitted on: ascend-2026-09 (msmodeling#441 at 26 %) and
    # demo (infer-serve#33 at 0 %); github-mini has no such link.
    unrelated_overlap: float = 0.3
    # An official answer: a comment by someone other than the reporter (not a bot, not a
    # stale notice, not a bare "closing" note) with at least this many
    # non-space characters (rules.answers, fitted on ascend-2026-09).
    answer_min_chars: int = ANSWER_MIN_CHARS
    # Backport twins: title similarity (rapidfuzz ratio after removing branch tags), only for
    # specific titles (link.backport); within backport_window_days of the fix. Fitted on:
    # ascend-2026-09 (msmodeling#443/#438's 26.2.0 backports) and demo (modelkit#104).
    backport_title_similarity: float = 85.0
    backport_window_days: int = 60
    # (rapidfuzz ratio 60 and file Jaccard 0.8 for the shared-files route in link.backport:
    # fitted on ascend-2026-09 as well.)
