"""The end-of-run summary: what each stage left, in pipeline order, then requests, time and the
paths written. ``summary_lines`` is pure (run.json in, lines out); the CLI prints them."""

from __future__ import annotations

from typing import Any

import typer
from fixlore.core.enums import FunnelStage

# The funnel's steps in order: (count left after the step, the drops that step made).
_FUNNEL_STEPS = (
    ("closed_in_window", "closed in the window", (FunnelStage.WINDOW,)),
    ("after_filters", "resolved by users",
     (FunnelStage.UNRESOLVED, FunnelStage.INTERNAL, FunnelStage.CVE, FunnelStage.EMPTY_TITLE)),
    ("pool", "pool (floods removed)", (FunnelStage.NOISE,)),
    ("analysis_candidates", "sent to analysis", (FunnelStage.RANK,)),
)


_DROP_NAMES = {FunnelStage.WINDOW: "closed outside it", FunnelStage.UNRESOLVED: "not resolved",
               FunnelStage.INTERNAL: "internal tasks", FunnelStage.CVE: "CVE reports",
               FunnelStage.EMPTY_TITLE: "empty titles", FunnelStage.NOISE: "template floods",
               FunnelStage.RANK: "below the top K"}


def _stage(info: dict[str, Any], name: str) -> dict[str, Any]:
    for stage in info.get("stages") or []:
        if stage.get("name") == name:
            return stage.get("summary") or {}
    return {}


_REMEDIES = {"since": "asked again with since", "updated_after": "asked again with updated_after",
             "walked": "walked to the end"}


def unsorted_note(unsorted: list[dict[str, Any]]) -> str:
    """"3 (2 asked again with since, 1 walked to the end)": lists whose update order was not proven."""
    counts: dict[str, int] = {}
    for entry in unsorted:
        remedy = str(entry.get("remedy") or "walked")
        counts[remedy] = counts.get(remedy, 0) + 1
    return f"{len(unsorted)} (" + ", ".join(f"{n} {_REMEDIES.get(r, r)}" for r, n in counts.items()) + ")"


def summary_lines(info: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) rows: harvest, each funnel step as count left and what it dropped, analysis
    kept and dropped, documents, requests, time, then the outputs."""
    rows: list[tuple[str, str]] = []
    harvest = _stage(info, "harvest")
    if harvest:
        rows.append(("repos harvested", str(harvest.get("repos", 0))))
        rows.append(("issues listed", str(harvest.get("issues_listed", 0))))
        rows.append(("issue details fetched", str(harvest.get("issues_detailed", 0))))
        rows.append(("PRs listed / detailed", f"{harvest.get('pulls_listed', 0)} / {harvest.get('pulls_detailed', 0)}"))
        if harvest.get("unreadable"):
            rows.append(("repos not read", str(len({f.get("repo") for f in harvest["unreadable"]}))))
        if harvest.get("repos_without_issues"):      # not a gap: their issues are disabled
            rows.append(("repos with issues disabled", ", ".join(x.get("repo", "") for x in harvest["repos_without_issues"])))
        if harvest.get("issues_deleted"):            # gone on the platform: left out from now on, no gap
            rows.append(("issues deleted on the platform", ", ".join(f"{x.get('repo')}#{x.get('number')}"
                                                                     for x in harvest["issues_deleted"])))
        if harvest.get("reconcile") is not None:      # the whole window listed again: what it held against
            rec = harvest["reconcile"]
            rows.append(("reconcile (window listed again)", f"{rec.get('issues_checked', 0)} stored issues checked in "
                         f"{rec.get('repos', 0)} repos, {rec.get('issues_asked', 0)} not listed and asked for"))
        if harvest.get("unread_items"):
            rows.append(("issues / PRs read in part", str(len(_items(harvest["unread_items"])))))
        if harvest.get("unsorted_lists"):
            rows.append(("lists in unproven order", unsorted_note(harvest.get("unsorted") or [])))
    funnel = info.get("funnel") or {}
    if funnel:
        rows.append(("issues considered", str(funnel.get("considered", 0))))
        for key, label, drops in _FUNNEL_STEPS:
            if key not in funnel:
                continue
            dropped = {d: funnel.get(d, 0) for d in drops if funnel.get(d)}
            note = ", ".join(f"{_DROP_NAMES.get(d, d.replace('_', ' '))} {n}" for d, n in dropped.items())
            rows.append((f"→ {label}", f"{funnel[key]}" + (f"  (dropped {note})" if note else "")))
    analyse = _stage(info, "analyse")
    if "kept" in analyse:
        reasons = ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in (analyse.get("drop_reasons") or {}).items())
        rows.append(("→ kept for the digest", f"{analyse['kept']}  (dropped {analyse.get('dropped', 0)}"
                                               + (f": {reasons}" if reasons else "") + ")"))
    kb = _stage(info, "kb")
    if "documents" in kb:
        rows.append(("documents indexed", f"{kb['documents']} ({kb.get('chunks', 0)} passages); "
                                          f"{kb.get('with_refs', 0)} of {kb.get('cases', 0)} cases cite one"))
    req = info.get("requests") or {}
    if req:
        statuses = ", ".join(f"{s}: {n}" for s, n in (req.get("by_status") or {}).items())
        rows.append(("API requests", f"{req.get('total', 0)}" + (f"  ({statuses}; {req.get('retries', 0)} retries)"
                                                                 if statuses else "")))
    seconds = info.get("stage_seconds") or {}
    if seconds:
        per = ", ".join(f"{name} {s:.1f}" for name, s in seconds.items())
        rows.append(("time (s)", f"{sum(seconds.values()):.1f}  ({per})"))
    rows.append(("status", str(info.get("status", ""))))
    for name, path in (info.get("outputs") or {}).items():
        rows.append((f"wrote {name.replace('_', ' ')}", str(path)))
    return rows


def print_summary(info: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    from fixlore.wording.terminal import text

    table = Table(title=text(f"fixlore run: {info.get('platform', '')} {', '.join(info.get('orgs') or [])} "
                             f"since {(info.get('window') or {}).get('since', '')}"), title_justify="left",
                  show_header=False)
    table.add_column("what")
    table.add_column("value", overflow="fold")
    for label, value in summary_lines(info):
        table.add_row(text(label), text(value))
    console = Console()
    console.print(table)
    harvest = next((st.get("summary", {}) for st in info.get("stages", []) if st.get("name") == "harvest"), {})
    for failure in harvest.get("unreadable") or []:     # one unbroken line each: what could not be read
        console.print(text(unreadable_line(failure)), soft_wrap=True, highlight=False)


def _items(unread_items: list[dict[str, Any]]) -> dict[tuple[str, str, int], list[dict[str, Any]]]:
    """Item failures grouped by item: (repo, kind, number) -> its unread parts."""
    out: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    for f in unread_items:
        out.setdefault((str(f.get("repo")), str(f.get("kind")), int(f.get("number") or 0)), []).append(f)
    return out


def item_line(repo: str, kind: str, number: int, parts: list[dict[str, Any]]) -> str:
    """One issue or PR read in part, on one line: what is missing and why, and what it costs."""
    what = "; ".join(f"{p.get('part')} ({_why(p)})" for p in parts)
    name = f"{repo}#{number}" if kind == "issue" else f"{repo} PR {number}"
    return (f"could not read all of {name}: {what} — only this item lacks it; "
            f"no conclusion rests on the missing part; retried on the next run")


ITEM_LINES = 20      # past this many items, stderr says how many more run.json lists


def _why(failure: dict[str, Any]) -> str:
    """"HTTP 403 issue module is closed"; when retries gave up, their own words say it all."""
    status, message = str(failure.get("status", "")), str(failure.get("message", "") or "")
    if status.isdigit():
        return f"HTTP {status} {message}".strip()
    return message or status


def unreadable_line(failure: dict[str, Any]) -> str:
    status = failure.get("status", "")
    status = f"HTTP {status}" if str(status).isdigit() else status
    return (f"could not read {failure.get('repo')} ({failure.get('endpoint')}): {status} {failure.get('message', '')}"
            .rstrip() + " — recorded, retried on the next run")


def unreadable_exit(failures: list[dict[str, Any]], unread_items: list[dict[str, Any]] | None = None) -> None:
    """End with EXIT_SOME_UNREADABLE when some repos, issues or PRs could not be read: a line on
    stderr per item read in part (the first ITEM_LINES), then one line that sums it up."""
    from fixlore.core.errors import EXIT_SOME_UNREADABLE

    items = _items(unread_items or [])
    for (repo, kind, number), parts in list(items.items())[:ITEM_LINES]:
        typer.echo(item_line(repo, kind, number, parts), err=True)
    if len(items) > ITEM_LINES:
        typer.echo(f"... and {len(items) - ITEM_LINES} more issues or PRs read in part (run.json: unread_items)", err=True)
    what = []
    if failures:
        what.append(f"{len({f.get('repo') for f in failures})} repo(s) could not be read")
    if items:
        what.append(f"{len(items)} issue(s) or PR(s) could not be read in full")
    if what:
        typer.echo(f"finished, but {' and '.join(what)} (exit {EXIT_SOME_UNREADABLE}); "
                   f"see run.json and the digest's methods section", err=True)
        raise typer.Exit(EXIT_SOME_UNREADABLE)
