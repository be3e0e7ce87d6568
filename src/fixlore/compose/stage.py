"""The compose stage of the pipeline (see fixlore.pipeline): the digests from the run's cases
(handed on by the analyse stage, `RunContext.cases`) and the run record so far, plus the final
case export they are a view of."""

from __future__ import annotations

import logging
from typing import Any, TypedDict

from fixlore.compose.links import doc_parts
from fixlore.compose.write import write_digests
from fixlore.core import formats
from fixlore.core.enums import FunnelStage
from fixlore.core.timeutil import cases_in_zone
from fixlore.edges.caseexport import write_cases_jsonl
from fixlore.settings.runcontext import RunContext

log = logging.getLogger(__name__)


class ComposeSummary(TypedDict, total=False):
    skipped: str                      # why nothing was written (then the only key)
    cases: str                        # the case export's path
    files: dict[str, str]             # digest name -> path
    kept: int


def run(ctx: RunContext) -> ComposeSummary:
    cases = ctx.cases()
    if not cases:
        return ComposeSummary(skipped="no cases (the link stage builds them)")
    since = ctx.since
    # every time in the window's own offset (the store keeps UTC): GitCode users read +08:00
    cases_in_zone(cases, since.tzinfo if since else None)
    if ctx.overrides is not None:          # the editor's themes (fixlore.rules.overrides)
        from fixlore.rules.overrides import apply_themes

        ctx.record_overrides(apply_themes(cases, ctx.overrides), "compose")
        ctx.store.save_cases(cases, ctx.run_id)
    export = ctx.out_dir / "cases.jsonl"
    write_cases_jsonl(cases, export)
    try:   # the repos' own descriptions position them in the overview
        kept = [c for c in cases if c.funnel == FunnelStage.SELECTED]
        cited = {doc_parts(k.doc)[0] for c in kept for k in c.kb_refs} - {""}
        wanted = {c.repo for c in kept} | cited
        repos = [r for r in ctx.corpus().repos if r.full_name in wanted]
        # kept in run.json, so that `fixlore digest --run` writes the same digest again
        ctx.info.setdefault("repo_descriptions", {r.full_name: r.description for r in repos if r.description})
        # where cited documents live on the platform (the digest links them)
        ctx.info.setdefault("repo_web", {r.full_name: {"html_url": r.html_url, "default_branch": r.default_branch}
                                         for r in repos if r.html_url})
    except AttributeError:
        pass
    # the digest's pointer for agents defaults to `fixlore serve mcp|http` without this run's folder:
    # a local path means nothing to a reader elsewhere, and a digest must not depend on where it
    # was written (a rerun into another folder, or after a kill, writes the same bytes)
    frame = ctx.info.get("frame") if isinstance(ctx.info.get("frame"), dict) else {}
    ctx.info["frame"] = dict(frame)
    run = dict(ctx.info)
    checked: dict[str, Any] = {}
    try:
        paths = write_digests(cases, run, ctx.out_dir, on_findings=ctx.on_findings, check_out=checked)
    finally:      # run.json discloses the check, also when it stopped the digest
        ctx.info["check"] = checked
    if checked.get("findings"):
        log.warning("editorial check: %d finding(s) (%s), disclosed in the digest (flagged rows marked); "
                    "run.json 'check' names them; `fixlore check OUT` lists them", checked["findings"],
                    ", ".join(f"{k} {n}" for k, n in checked["by_class"].items() if n))
    # the version of each file, for readers of cases.jsonl (whose lines hold cases only)
    ctx.info["formats"] = {"run.json": formats.RUN, export.name: formats.CASES,
                           **{p.name: formats.DIGEST for p in paths.values()}}
    return ComposeSummary(cases=str(export), files={k: str(p) for k, p in paths.items()},
                          kept=sum(1 for c in cases if c.funnel == FunnelStage.SELECTED))
