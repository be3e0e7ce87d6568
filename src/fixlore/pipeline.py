"""The pipeline: an explicit list of named stages run in order over one store.

`STAGES` names every stage of `fixlore run` and the function that runs it, in order (a reader
or a tool follows the pipeline from here). A stage is ``run(ctx: RunContext) -> Summary``
(`fixlore.settings.runcontext`); the summary, a TypedDict each stage declares beside its ``run``, is
stored under the stage's name in run.json. A run of some stages only (`--stage`) takes them
by name with `select_stages`; an orchestrator with a stage of its own (a series edition adds
`series` between link and kb) passes its own list to `run_stages`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from fixlore.edges import interrupts, killpoints
from fixlore.analyse import stage as analyse
from fixlore.compose import stage as compose
from fixlore.core.errors import FixloreError
from fixlore.funnel import stage as funnel
from fixlore.harvest import stage as harvest
from fixlore.kb import stage as kb
from fixlore.link import stage as link
from fixlore.settings.runcontext import RunContext, Summary
from fixlore.serve import stage as serve

__all__ = ["STAGES", "STAGE_ORDER", "RunContext", "Stage", "run_stages", "select_stages", "utc_now_iso"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Stage:
    name: str
    run: Callable[[RunContext], Summary | None]


STAGES: tuple[Stage, ...] = (
    Stage("harvest", harvest.run),     # list issues, cheap funnel, details for the pool only
    Stage("funnel", funnel.run),       # the cheap funnel's counts, each issue's stage in the store
    Stage("link", link.run),           # cases: fixes, evidence, timing, traps, value and the top-K cut
    Stage("kb", kb.run),               # documents that explain each analysed case
    Stage("analyse", analyse.run),     # problem, answer, theme; keep or drop
    Stage("compose", compose.run),     # cases.jsonl and the digests
    Stage("serve", serve.run),         # the case index for `fixlore serve` and `fixlore cases`
)
STAGE_ORDER = tuple(s.name for s in STAGES)


def select_stages(names: Iterable[str] | None = None,
                  stages: Iterable[Stage] = STAGES) -> tuple[list[Stage], list[str]]:
    """The stages of ``stages`` named in ``names``, in the order named (all of them when None),
    and the names that are no stage (run.json lists them as ``stages_absent``)."""
    by_name = {s.name: s for s in stages}
    if names is None:
        return list(by_name.values()), []
    wanted = list(names)
    return [by_name[n] for n in wanted if n in by_name], [n for n in wanted if n not in by_name]


def run_stages(ctx: RunContext, stages: Iterable[Stage]) -> dict[str, Any]:
    """Run ``stages`` in order, timing each; a FixloreError stops the run (recorded, then re-raised)."""
    ctx.info.setdefault("stages", [])
    ctx.info.setdefault("stage_seconds", {})
    for stage in stages:
        interrupts.check()
        killpoints.enter(stage.name)
        log.info("stage %s: started", stage.name)
        if ctx.progress is not None:
            ctx.progress(stage.name, 0, 1)          # every stage shows it is running; phases report on their own
        start = time.perf_counter()
        status = "ok"
        try:
            summary = stage.run(ctx) or {}
        except FixloreError:
            status = "failed"
            raise
        finally:
            killpoints.enter(killpoints.OUTSIDE)
            seconds = round(time.perf_counter() - start, 3)
            ctx.info["stage_seconds"][stage.name] = seconds
            if status == "failed":
                ctx.info["stages"].append({"name": stage.name, "status": status, "seconds": seconds})
        log.info("stage %s: done in %.1f s", stage.name, ctx.info["stage_seconds"][stage.name])
        if ctx.progress is not None:
            ctx.progress(stage.name, 1, 1)
        ctx.results[stage.name] = summary
        ctx.info["stages"].append({"name": stage.name, "status": status, "seconds": seconds, "summary": summary})
    interrupts.check()
    return ctx.info


def utc_now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
