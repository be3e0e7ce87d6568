"""What a harvest tells its caller: the run's summary (`HarvestReport`, written to run.json; the warnings
naming what was not read, on the harvester's log) and its progress phase by phase (`Progress`, drawn by
the CLI through a callback; the library draws nothing)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from fixlore.sources.http import HostDown

HOST_DOWN = HostDown.STATUS   # the status of a repo not read because the host stopped answering


@dataclass
class HarvestReport:
    orgs: list[str] = field(default_factory=list)
    repos: int = 0
    issues_listed: int = 0
    issues_in_window: int = 0
    funnel: dict[str, int] = field(default_factory=dict)      # cheap funnel stage -> count
    issues_detailed: int = 0
    repos_with_work: int = 0
    pulls_listed: int = 0
    pull_candidates: int = 0
    pulls_detailed: int = 0
    phase_seconds: dict[str, float] = field(default_factory=dict)
    # What could not be read: {repo, endpoint, status, message, failed_at, attempts} per repo and endpoint.
    unreadable: list[dict[str, Any]] = field(default_factory=list)
    # Parts of single issues and PRs that could not be read (fixlore.rules.unread): {repo, kind, number,
    # part, endpoint, status, message, failed_at, attempts}; the rest of their repo was read.
    unread_items: list[dict[str, Any]] = field(default_factory=list)
    # Event (operation-log) action types the source met and does not know, with counts.
    unknown_actions: dict[str, int] = field(default_factory=dict)
    # Lists whose update order could not be proven past the window: {list, remedy} ("since" /
    # "updated_after" when asked again with the platform's filter, "walked" when walked to the end).
    unsorted: list[dict[str, str]] = field(default_factory=list)
    # How the source asked its lists (the ordering form in use, forms refused) and what paging met
    # (a page longer than asked taken whole, a repeated page that ended a list): sources.listforms, paging.
    list_forms: list[dict[str, Any]] = field(default_factory=list)
    paging: list[dict[str, Any]] = field(default_factory=list)
    # Repos whose GitHub closing references (the Development sidebar) could not be read: {repo, issues, why}.
    closing_refs_unread: list[dict[str, Any]] = field(default_factory=list)
    # Repos with issues disabled (the repo object's has_issues false, or their issue list answered 410 Gone):
    # {repo, why}. Not asked for their issues, not unreadable: there is nothing to read.
    without_issues: list[dict[str, str]] = field(default_factory=list)
    # Issues seen deleted on the platform when their details were asked for (sources.base.deleted_issue):
    # {repo, number, why}. Left out of the store's reads from now on: no case, no unread part, no new ask.
    issues_deleted: list[dict[str, Any]] = field(default_factory=list)
    # With --reconcile (each repo listed from the window start): {repos, issues_checked, issues_asked}, the repos
    # whose listing ended without an error, the stored live issues of the window held against it, those it did not
    # carry (asked for by number, sources.base.left_the_listing). None on a plain run (not in the summary then).
    reconcile: dict[str, int] | None = None
    # Issue.key -> cheap funnel stage of every issue updated in the window: the run's funnel
    # verdict (the funnel and link stages read it; not part of the summary)
    verdicts: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def repos_unreadable(self) -> int:
        return len({f["repo"] for f in self.unreadable})

    def as_dict(self) -> dict[str, Any]:
        return {"orgs": self.orgs, "repos": self.repos, "issues_listed": self.issues_listed,
                "issues_in_window": self.issues_in_window, "funnel": dict(self.funnel),
                "issues_detailed": self.issues_detailed, "repos_with_work": self.repos_with_work,
                "pulls_listed": self.pulls_listed, "pull_candidates": self.pull_candidates,
                "pulls_detailed": self.pulls_detailed, "repos_unreadable": self.repos_unreadable,
                "unreadable": [{**f, "failed_at": str(f.get("failed_at") or "")} for f in self.unreadable],
                "items_unreadable": len({(f["repo"], f["kind"], f["number"]) for f in self.unread_items}),
                "unread_items": [{**f, "failed_at": str(f.get("failed_at") or "")} for f in self.unread_items],
                "unknown_actions": dict(sorted(self.unknown_actions.items())),
                "unsorted_lists": len(self.unsorted), "unsorted": list(self.unsorted),
                "list_forms": list(self.list_forms), "paging": list(self.paging),
                "closing_refs_unread": list(self.closing_refs_unread),
                "repos_without_issues": list(self.without_issues),
                "issues_deleted": list(self.issues_deleted),
                **({"reconcile": dict(self.reconcile)} if self.reconcile is not None else {}),
                "phase_seconds": {k: round(v, 3) for k, v in self.phase_seconds.items()}}

    def count_reconciled(self, stored: list[Any], listed: set[int] | None) -> None:
        """With a reconcile, one repo's listing that ended without an error (`listed`: None when it broke off,
        or on a plain run): its stored live issues of the window (`stored`) were held against it."""
        if self.reconcile is None or listed is None:
            return
        self.reconcile["repos"] += 1
        self.reconcile["issues_checked"] += len(stored)
        self.reconcile["issues_asked"] += sum(1 for i in stored if i.number not in listed)

    def take_source_findings(self, source: Any) -> None:
        """What the source met on its own: action types it does not know, lists whose order it could not
        prove, the list forms it asked in, what paging met."""
        self.unknown_actions = dict(getattr(source, "unknown_actions", {}) or {})
        self.unsorted = [{"list": path, "remedy": remedy} for path, remedy in getattr(source, "unsorted", []) or []]
        self.list_forms = [forms.report() for forms in (getattr(source, "order_forms", None) or {}).values()]
        client = getattr(source, "client", None)
        self.paging = client.paging_report() if hasattr(client, "paging_report") else []

    def log_unread(self, log: logging.Logger) -> None:
        """Name on the harvester's `log` what was not read: unknown action types, each unreadable repo
        endpoint (one line for the repos the host stopped answering for), each item part."""
        if self.unknown_actions:
            log.warning("operation-log action types not known to fixlore: %s", self.unknown_actions)
        down = [f for f in self.unreadable if f["status"] == HOST_DOWN]
        for failure in self.unreadable:
            if failure["status"] != HOST_DOWN:
                log.warning("could not read %s (%s): %s %s", failure["repo"], failure["endpoint"], failure["status"],
                            failure["message"])
        if down:        # one line for the lot: the host said why once already
            log.warning("not read, the host having stopped answering: %s", ", ".join(sorted({f["repo"] for f in down})))
        for item in self.unread_items:      # the CLI names each at the end of the run
            log.info("could not read %s %s#%s %s (%s): %s %s", item["kind"], item["repo"], item["number"],
                     item["part"], item["endpoint"], item["status"], item["message"])


class Progress:
    """Counts per phase, reported through the ``report(phase, done, total)`` callback the caller
    gives (the CLI draws it; the library draws nothing)."""

    def __init__(self, report: Callable[[str, int, int | None], None] | None):
        self.report = report
        self.done: dict[str, int] = {}
        self.total: dict[str, int | None] = {}

    def task(self, phase: str, total: int | None) -> str:
        self.done[phase], self.total[phase] = 0, total
        if self.report is not None:
            self.report(phase, 0, total)
        return phase

    def advance(self, phase: str, n: int = 1) -> None:
        self.done[phase] += n
        if self.report is not None:
            self.report(phase, self.done[phase], self.total[phase])

    def finish(self, phase: str) -> None:
        if self.report is not None:
            self.report(phase, self.done[phase], self.done[phase] if self.total[phase] is None else self.total[phase])
