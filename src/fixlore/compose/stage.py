"""The compose stage of the pipeline (see fixlore.pipeline): the digests from the run's cases
(handed on by the analyse stage, `RunContext.cases`) and the run record so far, plus the final
case export they are a view of."""

from __future__ import annotations

from typing import TypedDict

from fixlore.compose.links import doc_parts
from fixlore.compose.write import write_digests
from fixlore.core import formats
from fixlore.core.enums import FunnelStage
from fixlore.core.timeutil import cases_in_zone
from fixlore.edges.caseexport import write_cases_jsonl
from fixlore.settings.runcontext import RunContext


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
    # the digest's pointer for agents defaults to this run's own `fixlore serve ... --out DIR`
    frame = ctx.info.get("frame") if isinstance(ctx.info.get("frame"), dict) else {}
    ctx.info["frame"] = {"serve_out": str(ctx.out_dir), **frame}
    run = dict(ctx.info)
    paths = write_digests(cases, run, ctx.out_dir)
    # the version of each file, for readers of cases.jsonl (whose lines hold cases only)
    ctx.info["formats"] = {"run.json": formats.RUN, export.name: formats.CASES,
                           **{p.name: formats.DIGEST for p in paths.values()}}
    return ComposeSummary(cases=str(export), files={k: str(p) for k, p in paths.items()},
                          kept=sum(1 for c in cases if c.funnel == FunnelStage.SELECTED))
