"""The pipeline's vocabulary as `StrEnum`s: funnel stages, timing classes, traps, evidence
kinds, drop reasons and platforms (world-format.md names them; case-export.md uses them).

A member is its string (`FunnelStage.SELECTED == "selected"`, `f"{FunnelStage.SELECTED}"` is
"selected", JSON writes "selected"), so exports read the same whichever a value was set from;
a misspelt member fails at import instead of silently never matching. The tuples in
`fixlore.core.model` (`FUNNEL_STAGES`, `TIMINGS`, `TRAPS`, ...) are these values in this order.
One caution: orjson refuses non-`str` dict keys, so a member used as a key in something the
case export writes (`trap_notes`) goes in as `.value`.
"""

from __future__ import annotations

from enum import StrEnum


class FunnelStage(StrEnum):
    """Where an issue of the window ended, in pipeline order (the cheap funnel's stages, then
    the pool's: `rank` backlog, `analysis` analysed and dropped, `selected` in the digest)."""
    WINDOW = "window"
    UNRESOLVED = "unresolved"
    INTERNAL = "internal"
    CVE = "cve"
    EMPTY_TITLE = "empty_title"
    NOISE = "noise"
    RANK = "rank"
    ANALYSIS = "analysis"
    SELECTED = "selected"


class DropReason(StrEnum):
    NOT_ADOPTED = "not_adopted"
    NO_FIX_EVIDENCE = "no_fix_evidence"
    INTERNAL_PROCESS = "internal_process"
    CONSULTATION_ONLY = "consultation_only"
    ENV_WORKAROUND = "env_workaround"
    FIX_PENDING = "fix_pending"
    SELF_ANSWERED = "self_answered"
    MERGED_INTO_OTHER = "merged_into_other"
    NOT_A_PROBLEM = "not_a_problem"
    # a part that may name the fix could not be read (rules/unread.py): not "no fix evidence"
    FIX_UNKNOWN = "fix_unknown"


class EvidenceKind(StrEnum):
    AUTO_CLOSE = "auto_close"
    MINUTES = "minutes"
    KEYWORD = "keyword"
    BRANCH_NAME = "branch_name"
    LINKED = "linked"
    COMMENT = "comment"
    ANSWER = "answer"
    BACKPORT = "backport"


class Timing(StrEnum):
    SAME_SECOND = "same_second"
    AUTO_CLOSE = "auto_close"
    MINUTES = "minutes"
    LATER = "later"
    STALE = "stale"
    BEFORE_MERGE = "before_merge"
    NO_FIX = "no_fix"


class Trap(StrEnum):
    STALE_CLOSE = "stale_close"
    CLOSE_STORM = "close_storm"
    LINKED_UNRELATED = "linked_unrelated"
    CLAIMED_UNMERGED = "claimed_unmerged"
    FIX_NOT_LANDED = "fix_not_landed"
    ONE_PR_MANY_ISSUES = "one_pr_many_issues"
    CLOSED_BEFORE_MERGE = "closed_before_merge"


class FixState(StrEnum):
    """Where a case's fix stands, exactly one of three (`Case.fix_state`): a PR the links make its
    fix merged (before the close or after it), a fix PR that did not merge, or no code fix."""
    LANDED = "landed"
    NOT_LANDED = "not_landed"
    NO_FIX = "no_fix"


class Platform(StrEnum):
    GITCODE = "gitcode"
    GITHUB = "github"
