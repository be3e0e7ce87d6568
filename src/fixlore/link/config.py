"""Link settings: timing thresholds, close-storm and stale-close detection.

Timing thresholds are the vocabulary's (world-format.md): same_second |lag| <= 1 s,
auto_close <= 180 s, minutes <= 1 h.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fixlore.funnel.config import FunnelConfig


@dataclass(slots=True)
class LinkConfig:
    funnel: FunnelConfig = field(default_factory=FunnelConfig)
    # False: only the top-K analysis candidates carry fix/evidence/timing/traps (the others
    # keep their candidates and a close storm, if any), as truth.yaml records them.
    conclude_all: bool = False
    same_second_s: int = 1
    auto_close_s: int = 180
    minutes_s: int = 3600
    # A close more than this many seconds before the merge is "before_merge"; timestamps
    # are second-precision, so a merge and its auto-close may swap by a second.
    clock_slack_s: int = 1
    # Close storms: one actor's closes, chained while consecutive closes are at most
    # storm_gap_s apart. A chain is a storm when it holds >= storm_burst_n closes within
    # storm_burst_s (a bot sweeping), or >= storm_batch_n closes in all (a manual batch).
    # Closes that are explained by a linked PR merging within auto_close_s are left out:
    # a maintainer merging several fixes in a row is not a storm.
    storm_gap_s: int = 300
    storm_burst_n: int = 3
    storm_burst_s: int = 10
    storm_batch_n: int = 4
    # Stale closes: the closing account looks like a bot (and the close is no auto-close), or
    # a bot posted a stale notice, or a stale notice was posted after >= stale_idle_days
    # without activity and >= stale_warning_days before the close.
    stale_idle_days: float = 3.0
    stale_warning_days: float = 1.0
    # A timing-only candidate (no text, link or branch) is accepted only when it merged
    # within this many seconds of the close and shares vocabulary with the issue.
    timing_only_s: int = 1
    timing_only_overlap: float = 0.25
    # linked_unrelated: vocabulary overlap below unrelated_overlap, together with the PR
    # naming another issue as the one it fixes, means the link is not about this issue;
    # without such a naming, only near-zero overlap (unrelated_no_overlap) does.
    unrelated_overlap: float = 0.3
    unrelated_no_overlap: float = 0.05
    # An official answer: a comment by someone other than the reporter (not a bot, not a
    # stale notice, not a bare "closing" note, not a refusal) with at least this many
    # non-space characters.
    answer_min_chars: int = 12
    # Backport twins: title similarity (rapidfuzz ratio after removing branch tags).
    backport_title_similarity: float = 85.0
    backport_window_days: int = 60
