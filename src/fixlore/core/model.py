"""Platform-neutral domain objects.

Every source (GitCode, GitHub, a replayed world) normalises its payloads into these
objects; every later stage (funnel, link, kb, analyse, compose) reads only these.
Times are timezone-aware ``datetime`` values (``None`` when the platform left them
unset: ``""``, null or a missing key). ``raw`` keeps the platform's own JSON for the store;
no stage reads it (tests/test_architecture_facts.py).
Facts a stage needs are fields or properties of the objects (platform, `is_pull`, `head_sha`,
`forge_host`, `web_url`, `label`), derived once here: `pull_label` is the one PR-label rule.
It is over 400 lines because every domain object lives here, one dataclass each, with the few
functions their derived facts share, so that the ground floor is one import; none of them is long.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime
from operator import attrgetter
from enum import StrEnum
from typing import Any, TypedDict
from urllib.parse import urlsplit

from fixlore.core.enums import DropReason, EvidenceKind, FixState, FunnelStage, Platform, Timing, Trap

# Normalised issue close reasons (GitHub state_reason, GitCode issue_state / labels).
REASON_COMPLETED = "completed"
REASON_NOT_PLANNED = "not_planned"
REASON_DUPLICATE = "duplicate"
REASON_REJECTED = "rejected"
REASON_UNKNOWN = ""

# Normalised event actions.
EV_CLOSED = "closed"
EV_REOPENED = "reopened"
EV_MERGED = "merged"
EV_LINKED = "linked"                # platform issue<->PR link made (GitCode add_issue_mr_link)
EV_CROSS_REF = "cross_referenced"   # GitHub timeline cross-reference
EV_REFERENCED = "referenced"        # GitHub: a commit referenced the issue
EV_COMMENTED = "commented"
EV_LABELED = "labeled"
EV_OTHER = "other"

# How a platform writes a pull request's number: `!N` for a GitCode merge request, `#N` for a
# GitHub pull request (GitHub writes issues `#N` as well). In prose a bare `#N` reads as an issue,
# so a sentence names a GitHub PR `PR#N` (and any PR whose platform is unknown: `PROSE_SIGILS`).
PR_SIGILS = {Platform.GITCODE.value: "!", Platform.GITHUB.value: "#"}
PROSE_SIGILS = {Platform.GITCODE.value: "!", Platform.GITHUB.value: "PR#"}

# Where each platform's web pages live (an item's own html_url says otherwise for a replayed or
# self-hosted forge), and the path of a PR's page under its repo.
FORGE_HOSTS = {Platform.GITCODE.value: "gitcode.com", Platform.GITHUB.value: "github.com"}
PULL_PATHS = {Platform.GITCODE.value: "merge_requests", Platform.GITHUB.value: "pull"}


def pr_sigil(platform: str, prose: bool = False) -> str:
    """The PR sigil of `platform` ("gitcode" | "github"): GitCode's for any other name, and in
    prose (`prose=True`) GitHub's `PR#` for any name but GitCode."""
    if prose:
        return PROSE_SIGILS.get(platform, PROSE_SIGILS[Platform.GITHUB.value])
    return PR_SIGILS.get(platform, "!")


def pull_label(key: tuple[str, int], issue_repo: str, platform: str, *, prose: bool = False,
               name: Callable[[str], str] | None = None) -> str:
    """A PR as its platform writes it, seen from `issue_repo`: `!N` / `#N` (`PR#N` in prose), with
    the repo in front when the PR lives elsewhere than the issue (`owner/repo!N`, or however
    `name` names that repo). The one place a PR's label is made."""
    repo, number = key
    mark = f"{pr_sigil(platform, prose)}{number}"
    if repo == issue_repo:
        return mark
    return f"{name(repo) if name else repo}{mark}"


def forge_host(html_url: str, platform: str) -> str:
    """The web host an item lives on: its own page's host, else its platform's (`FORGE_HOSTS`;
    GitCode's for an unknown platform)."""
    host = urlsplit(html_url).netloc if html_url else ""
    return host or FORGE_HOSTS.get(platform, FORGE_HOSTS[Platform.GITCODE.value])


def web_url(html_url: str, platform: str, repo: str, kind: str, number: int) -> str:
    """The page of an issue (`kind` "issue") or PR (`kind` "pull"): the platform's own html_url,
    else built on the forge host (`/issues/N`; `/merge_requests/N` or `/pull/N`)."""
    if html_url:
        return html_url
    path = "issues" if kind == "issue" else PULL_PATHS.get(platform, PULL_PATHS[Platform.GITCODE.value])
    return f"https://{forge_host('', platform)}/{repo}/{path}/{number}"


def platform_of_url(url: str) -> str:
    """The platform a PR's page belongs to, from its path (`/merge_requests/` GitCode, `/pull/`
    GitHub; the host does not say: a forge may be replayed or self-hosted anywhere), or ""."""
    if "/merge_requests/" in url:
        return Platform.GITCODE
    if "/pull/" in url:
        return Platform.GITHUB
    return ""


@dataclass(slots=True)
class Repo:
    platform: str            # "gitcode" | "github"
    full_name: str           # "owner/path" as used in API paths and web URLs
    owner: str
    name: str                # the path part
    display_name: str = ""
    default_branch: str = ""
    html_url: str = ""
    description: str = ""
    updated_at: datetime | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    # False when the repo object says its issues are disabled (``has_issues: false``, GitHub's for a fork
    # by default, Gitee's and GitCode's repo objects alike): its issue list is not asked for.
    issues_enabled: bool = True


class OnTheForge:
    """The derived facts of an item that has a page on its forge (an issue, a PR): its host and URL."""
    __slots__ = ()
    PAGE_KIND = ""                      # "issue" or "pull": which path `web_url` builds

    @property
    def forge_host(self) -> str:
        return forge_host(self.html_url, self.platform)

    @property
    def web_url(self) -> str:
        return web_url(self.html_url, self.platform, self.repo, self.PAGE_KIND, self.number)


@dataclass(slots=True)
class Issue(OnTheForge):
    PAGE_KIND = "issue"
    repo: str                # Repo.full_name
    number: int
    title: str
    body: str
    state: str               # "open" | "closed"
    created_at: datetime | None
    updated_at: datetime | None
    closed_at: datetime | None          # GitCode finished_at, GitHub closed_at
    author: str = ""
    state_reason: str = REASON_UNKNOWN  # REASON_*
    workflow_state: str = ""            # GitCode issue_state ("DONE", "已完成", ...)
    issue_type: str = ""
    labels: list[str] = field(default_factory=list)
    comments_count: int = 0
    html_url: str = ""
    closed_by: str = ""                 # from the issue (GitHub) or its events
    assignees: list[str] = field(default_factory=list)   # logins the issue is assigned to
    platform: str = ""                  # "gitcode" | "github" (the source that normalised it)
    is_pull: bool = False               # a PR item of GitHub's issue list, not an issue
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def key(self) -> str:
        return f"{self.repo}#{self.number}"


MERGED_STATE = "merged"                 # the seed's rule: state merged with merged_at set
MERGED_CLOSED = "closed_with_merged_at"  # repos that mark auto-merged MRs closed (mark_auto_merged_mr_as_closed)


def merge_variant(state: str, merged_at: datetime | None) -> str:
    """Which form of "merged" a PR shows, or "" when it is not merged.

    The one merge rule: merged needs the merge time (GitCode's `merged` field is null), and the
    state reads `merged`, or `closed` on repos that mark auto-merged MRs closed.
    """
    if merged_at is None:
        return ""
    if state == "merged":
        return MERGED_STATE
    if state == "closed":
        return MERGED_CLOSED
    return ""


def is_merged(state: str, merged_at: datetime | None) -> bool:
    return bool(merge_variant(state, merged_at))


@dataclass(slots=True)
class Pull(OnTheForge):
    PAGE_KIND = "pull"
    repo: str                # the target (base) repository
    number: int
    title: str
    body: str
    state: str               # "open" | "closed" | "merged" (GitHub merged PRs normalised to "merged")
    created_at: datetime | None
    updated_at: datetime | None
    merged_at: datetime | None
    closed_at: datetime | None
    author: str = ""
    head_ref: str = ""       # source branch
    head_repo: str = ""      # fork full name, if any
    base_ref: str = ""       # target branch
    merge_commit_sha: str = ""
    html_url: str = ""
    labels: list[str] = field(default_factory=list)
    head_sha: str = ""       # the source branch's last commit
    platform: str = ""       # "gitcode" | "github" (the source that normalised it)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    def label(self, issue_repo: str = "") -> str:
        """`!N` / `#N` as seen from `issue_repo` (`pull_label`)."""
        return pull_label((self.repo, self.number), issue_repo, self.platform)

    @property
    def merged(self) -> bool:
        """Merged only when the platform gives the merge time (see :func:`merge_variant`)."""
        return is_merged(self.state, self.merged_at)

    @property
    def merge_variant(self) -> str:
        return merge_variant(self.state, self.merged_at)

    @property
    def key(self) -> str:
        return f"{self.repo}!{self.number}"


@dataclass(slots=True)
class Comment:
    repo: str
    parent_kind: str         # "issue" | "pull"
    parent_number: int
    id: str
    author: str
    body: str
    created_at: datetime | None
    # how the platform says the author is tied to the repo (GitHub's author_association: "OWNER",
    # "MEMBER", "COLLABORATOR", "CONTRIBUTOR", "NONE", ...; "" where the platform says nothing,
    # as GitCode); kept for telling a project's answer from a bystander's, which no rule does yet
    association: str = ""
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(slots=True)
class Event:
    """One entry of an issue's or PR's history (GitCode operate_logs, GitHub timeline)."""
    repo: str
    parent_kind: str         # "issue" | "pull"
    parent_number: int
    id: str
    action: str              # EV_*
    actor: str
    created_at: datetime | None
    detail: dict[str, Any] = field(default_factory=dict)   # e.g. {"pull": 795, "pull_repo": "o/r", "commit_id": "..."}
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(slots=True)
class Link:
    """A platform-recorded issue<->PR link (not a text mention)."""
    issue_repo: str
    issue_number: int
    pull_repo: str
    pull_number: int
    source: str              # "issue_pulls" | "pull_issues" | "timeline" | "operate_log"


@dataclass(slots=True)
class FileChange:
    repo: str
    pull_number: int
    filename: str
    status: str = ""
    additions: int = 0
    deletions: int = 0
    patch: str = ""


@dataclass(slots=True)
class Commit:
    repo: str
    pull_number: int
    sha: str
    message: str
    author: str = ""
    date: datetime | None = None


@dataclass(slots=True)
class Corpus:
    """Everything a run knows, as plain objects: what the store loads and pure stages read."""
    platform: str = "gitcode"
    repos: list[Repo] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    pulls: list[Pull] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    files: list[FileChange] = field(default_factory=list)
    commits: list[Commit] = field(default_factory=list)
    # (kind "issue" | "pull", repo, number) -> parts that could not be read (fixlore.rules.unread)
    unread: dict[tuple[str, str, int], list[str]] = field(default_factory=dict)


# ---------------------------------------------------------------------------
# Conclusions: what link, kb and analyse decide about one issue. `Case.to_export()`
# is one line of the case export (shared/reference/case-export.md).

FUNNEL_STAGES = tuple(s.value for s in FunnelStage)
DROP_REASONS = tuple(r.value for r in DropReason)
EVIDENCE_KINDS = tuple(k.value for k in EvidenceKind)
TIMINGS = tuple(t.value for t in Timing)
TRAPS = tuple(t.value for t in Trap)


def pickled_as_arguments(cls):
    """Pickle a slotted dataclass as its constructor arguments: the state functions that
    dataclasses generate for slots are Python code, several times slower (forked link workers
    send their cases back to the parent this way)."""
    get = attrgetter(*[f.name for f in fields(cls)])

    def __reduce__(self):
        return (cls, get(self))

    cls.__reduce__ = __reduce__
    return cls


@dataclass(slots=True)
class IssueText:
    """An issue's words as people wrote them: what a symptom search matches besides the analysis."""
    author: str = ""
    body: str = ""
    comments: list["Comment"] = field(default_factory=list)            # oldest first


@pickled_as_arguments
@dataclass(slots=True)
class FixRef:
    repo: str
    number: int
    role: str                # "fix" | "backport"
    state: str = ""
    merged_at: datetime | None = None
    url: str = ""
    base_ref: str = ""

    @property
    def merged(self) -> bool:
        return is_merged(self.state, self.merged_at)

    @property
    def platform(self) -> str:
        """From the PR's page (`platform_of_url`): the export keeps a fix's URL, not its platform."""
        return platform_of_url(self.url or "")

    def label(self, issue_repo: str = "", *, prose: bool = False, name: Callable[[str], str] | None = None) -> str:
        """The PR as `pull_label` writes it; with no repo on either side, the mark alone."""
        return pull_label((self.repo, self.number), issue_repo if issue_repo and self.repo else self.repo,
                          self.platform, prose=prose, name=name)

    def to_export(self) -> dict[str, Any]:
        return {"repo": self.repo, "number": self.number, "role": self.role, "state": self.state,
                "merged_at": self.merged_at.isoformat() if self.merged_at else "", "url": self.url,
                "base_ref": self.base_ref}

    @classmethod
    def from_export(cls, row: dict[str, Any]) -> "FixRef":
        from fixlore.core.timeutil import parse_time

        return cls(repo=row["repo"], number=int(row["number"]), role=row.get("role", "fix"),
                   state=row.get("state", ""), merged_at=parse_time(row.get("merged_at")),
                   url=row.get("url", ""), base_ref=row.get("base_ref", ""))


@pickled_as_arguments
@dataclass(slots=True)
class Evidence:
    kind: EvidenceKind
    detail: str              # what was seen, quoted briefly
    source: str              # where: "pulls/795", "issues/390/comments/12", ...

    def to_export(self) -> dict[str, Any]:
        return {"kind": self.kind, "detail": self.detail, "source": self.source}


@dataclass(slots=True)
class KbRef:
    doc: str                 # world-relative path: docs/<owner>/<repo>/<path>
    chunk: str               # "part0003"
    score: float

    def to_export(self) -> dict[str, Any]:
        return {"doc": self.doc, "chunk": self.chunk, "score": round(self.score, 3)}


class SignalRow(TypedDict):
    """One signal a candidate PR showed, as the case export writes it (`link.candidates.Signal`)."""
    kind: str
    detail: str
    source: str
    claim: str


class CandidateRow(TypedDict):
    """One PR the linker considered for a case, as the case export writes it, keys in this order
    (`link.conclude.candidate_row`)."""
    repo: str
    number: int
    verdict: str
    state: str
    merged_at: str
    base_ref: str
    title: str
    unrelated: str
    set_aside: str
    signals: list[SignalRow]


def _member(enum: type[StrEnum], value: Any) -> Any:
    """`value` as a member of `enum`; a value the enum does not name (an export written by
    another version) is kept as its string rather than refusing the whole file."""
    try:
        return enum(value)
    except ValueError:
        return str(value)


@pickled_as_arguments
@dataclass(slots=True)
class Written:
    """What an analyst wrote about a case, apart from the pipeline's own facts (fix PRs and where
    they landed, dates, timing, traps, cited documents), which stay structured on the case and are
    worded per language when a digest is composed. `lang` is the language it is written in."""
    lang: str = ""              # "zh" | "en"
    mechanism: str = ""         # the root cause as a mechanism
    change: str = ""            # what the fix changes
    workaround: str = ""        # what to do without the fix, or the official advice
    scope: str = ""             # who is affected, versions, requirements
    numbers: list[str] = field(default_factory=list)    # measured numbers with their meaning
    # the first thing a reader with the symptom should do, in the analyst's words, without the
    # pipeline's own step (take the landed fix, watch the open one): the digest words that per language
    action: str = ""
    # what the grounding check removed from a model's reply, each "claim: why" ("!1008: credited as the
    # fix, not this issue's"), so the reader is told what the row no longer says
    removed: list[str] = field(default_factory=list)

    FIELDS = ("mechanism", "change", "workaround", "scope")

    def text(self) -> str:
        """The written fields as one passage, in reading order (mechanism, change, workaround, scope)."""
        parts = [getattr(self, f).strip().rstrip("。. ") for f in self.FIELDS if getattr(self, f).strip()]
        if not parts:
            return ""
        return "。".join(parts) + "。" if self.lang == "zh" else ". ".join(parts) + "."

    def __bool__(self) -> bool:
        return any(getattr(self, f).strip() for f in self.FIELDS)

    def to_export(self) -> dict[str, Any]:
        if not self and not self.action.strip():
            return {}
        out = {"lang": self.lang, "mechanism": self.mechanism, "change": self.change,
               "workaround": self.workaround, "scope": self.scope, "numbers": list(self.numbers),
               "action": self.action}
        if self.removed:
            out["removed"] = list(self.removed)
        return out

    @classmethod
    def from_export(cls, row: dict[str, Any] | None) -> "Written":
        row = row or {}
        return cls(lang=row.get("lang", ""), mechanism=row.get("mechanism", ""), change=row.get("change", ""),
                   workaround=row.get("workaround", ""), scope=row.get("scope", ""),
                   numbers=[str(n) for n in row.get("numbers", [])], action=row.get("action", ""),
                   removed=[str(r) for r in row.get("removed", [])])


@dataclass(slots=True)
class Case:
    repo: str
    number: int
    title: str = ""
    url: str = ""
    closed_at: datetime | None = None
    funnel: FunnelStage = FunnelStage.WINDOW
    drop_reason: DropReason | str = ""   # "" while the case is not dropped
    fix: list[FixRef] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    timing: Timing = Timing.NO_FIX
    lag_s: int | None = None
    traps: list[Trap] = field(default_factory=list)
    trap_notes: dict[str, str] = field(default_factory=dict)   # trap -> what shows it
    kb_refs: list[KbRef] = field(default_factory=list)
    theme: str = ""
    problem: str = ""
    answer: str = ""
    symptom: str = ""
    first_action: str = ""
    value: float = 0.0
    # the value's named features, each in [0, 1] (rules.funnel.rank.value_features); pool cases only
    value_features: dict[str, float] = field(default_factory=dict)
    analysed_by: str = ""    # which analysis backend wrote problem/answer ("offline", "llm:<model>", ...)
    written: Written = field(default_factory=Written)   # the analyst's own words, apart from the pipeline's facts
    # Link-stage extras (the reader's trail; not in truth.yaml):
    provisional: bool = False    # True: funnel "selected" awaits deep analysis (link.analysis_candidates)
    closed_by: str = ""          # who closed the issue (issue field or close event)
    timing_note: str = ""        # what the timing class rests on: times, actor, which PR
    pending_fix: list[FixRef] = field(default_factory=list)   # fix candidates that did not land before the close
    candidates: list[CandidateRow] = field(default_factory=list)  # every PR considered, signals and verdict
    audit: dict[str, Any] = field(default_factory=dict)       # timing re-check against the source, if sampled
    # parts of the issue and its candidate PRs that could not be read ("issues/104/comments";
    # fixlore.rules.unread says what they leave open); exported only when there are some
    unread: list[str] = field(default_factory=list)
    # the editor's corrections this run applied ({kind, what, source}: fixlore.rules.overrides);
    # exported only when there are some
    overrides: list[dict[str, str]] = field(default_factory=list)
    # learned value weights' part in the cut (`fixlore run --value-weights`, series.weights.cut_note):
    # {p, file, gate, analysed, why}; exported only when the run used weights
    value_weights: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.repo}#{self.number}"

    @property
    def unread_claims(self) -> list[tuple[str, int]]:
        """The PRs a comment or a text claims as this case's fix that could not be read (verdict
        `missing`: a 404, another repository not harvested): the fix may exist, so a row must not say
        there is none."""
        return [(c["repo"], c["number"]) for c in self.candidates
                if c.get("verdict") == "missing" and any(s.get("claim") for s in c.get("signals", []))]

    @property
    def landed_fixes(self) -> list[FixRef]:
        """The PRs the links make this case's fix (or a backport of it) that merged. The linker keeps
        a fix merged after the issue was closed in `pending_fix` (the close is not back-filled), and
        it is still the fix (issue #23): a reader asking "is it fixed" counts it."""
        return [f for f in [*self.fix, *self.pending_fix] if f.merged]

    @property
    def fix_state(self) -> FixState:
        """The one rule every count of "merged / not landed / no code fix" reads (themes, repo
        lines, tagline, disclosure): landed when a fix PR merged, not landed when a fix PR exists
        but none merged (or the linker's trap says so), else no code fix."""
        if self.landed_fixes:
            return FixState.LANDED
        if self.fix or self.pending_fix or Trap.FIX_NOT_LANDED in self.traps:
            return FixState.NOT_LANDED
        return FixState.NO_FIX

    @property
    def platform(self) -> str:
        """The platform the case lives on, as a case export shows it: from its PRs' pages
        (`FixRef.platform`: any GitCode one decides), else from the issue's URL."""
        seen = {f.platform for f in [*self.fix, *self.pending_fix]}
        if Platform.GITCODE in seen:
            return Platform.GITCODE
        github = Platform.GITHUB in seen or "github" in (self.url or "").lower()
        return Platform.GITHUB if github else Platform.GITCODE

    def to_export(self) -> dict[str, Any]:
        return {
            "repo": self.repo, "number": self.number, "title": self.title, "url": self.url,
            "closed_at": self.closed_at.isoformat() if self.closed_at else "",
            "funnel": self.funnel, "drop_reason": self.drop_reason,
            "fix": [f.to_export() for f in self.fix],
            "evidence": [e.to_export() for e in self.evidence],
            "timing": self.timing, "lag_s": self.lag_s,
            "traps": list(self.traps), "trap_notes": dict(self.trap_notes),
            "kb_refs": [k.to_export() for k in self.kb_refs],
            "theme": self.theme, "problem": self.problem, "answer": self.answer,
            "symptom": self.symptom, "first_action": self.first_action,
            "value": round(self.value, 4),
            **({"value_features": dict(self.value_features)} if self.value_features else {}),
            "analysed_by": self.analysed_by, "written": self.written.to_export(),
            "provisional": self.provisional, "closed_by": self.closed_by, "timing_note": self.timing_note,
            "pending_fix": [f.to_export() for f in self.pending_fix],
            "candidates": [dict(c) for c in self.candidates], "audit": dict(self.audit),
            **({"unread": list(self.unread)} if self.unread else {}),
            **({"overrides": [dict(o) for o in self.overrides]} if self.overrides else {}),
            **({"value_weights": dict(self.value_weights)} if self.value_weights else {}),
        }

    @classmethod
    def from_export(cls, row: dict[str, Any]) -> "Case":
        from fixlore.core.timeutil import parse_time

        return cls(
            repo=row["repo"], number=int(row["number"]), title=row.get("title", ""),
            url=row.get("url", ""), closed_at=parse_time(row.get("closed_at")),
            funnel=_member(FunnelStage, row.get("funnel", "window")),
            drop_reason=_member(DropReason, row["drop_reason"]) if row.get("drop_reason") else "",
            fix=[FixRef.from_export(f) for f in row.get("fix", [])],
            evidence=[Evidence(kind=_member(EvidenceKind, e["kind"]), detail=e.get("detail", ""),
                               source=e.get("source", ""))
                      if isinstance(e, dict) else Evidence(kind=_member(EvidenceKind, e), detail="", source="")
                      for e in row.get("evidence", [])],
            timing=_member(Timing, row.get("timing", "no_fix")), lag_s=row.get("lag_s"),
            traps=[_member(Trap, t) for t in row.get("traps", [])], trap_notes=dict(row.get("trap_notes", {})),
            kb_refs=[KbRef(doc=k["doc"], chunk=k.get("chunk", ""), score=float(k.get("score", 0)))
                     if isinstance(k, dict) else KbRef(doc=str(k), chunk="", score=0.0)
                     for k in row.get("kb_refs", [])],
            theme=row.get("theme", ""), problem=row.get("problem", ""), answer=row.get("answer", ""),
            symptom=row.get("symptom", ""), first_action=row.get("first_action", ""),
            value=float(row.get("value", 0.0)),
            value_features={str(k): float(x) for k, x in (row.get("value_features") or {}).items()},
            analysed_by=row.get("analysed_by", ""),
            written=Written.from_export(row.get("written")),
            provisional=bool(row.get("provisional", False)), closed_by=row.get("closed_by", ""),
            timing_note=row.get("timing_note", ""),
            pending_fix=[FixRef.from_export(f) for f in row.get("pending_fix", [])],
            candidates=[dict(c) for c in row.get("candidates", [])], audit=dict(row.get("audit", {})),
            unread=[str(u) for u in row.get("unread", [])],
            overrides=[dict(o) for o in row.get("overrides", [])],
            value_weights=dict(row.get("value_weights") or {}),
        )
