"""The pipeline as a list of named stages, each reading and writing the store.

A stage is a module ``fixlore.<name>.stage`` with ``run(ctx: RunContext) -> dict``; the
dict it returns is that stage's summary in run.json. Stages are found by name at run
time, so a stage plugs in by adding its ``stage.py`` (no edit here); a stage whose module
does not exist yet is reported as "absent" and skipped. ``STAGE_ORDER`` is the order.
"""

from __future__ import annotations

import importlib
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from fixlore import interrupts
from fixlore.config import Settings
from fixlore.errors import FixloreError
from fixlore.store import Store

STAGE_ORDER = ("harvest", "funnel", "link", "kb", "analyse", "compose", "serve")

log = logging.getLogger(__name__)

StageFn = Callable[["RunContext"], dict[str, Any] | None]


@dataclass
class RunContext:
    """What every stage gets: the store, the settings, the output folder and the run record."""
    store: Store
    settings: Settings
    out_dir: Path
    since: datetime
    world: Path | None = None           # the world folder when replaying one (docs/ for kb live there)
    client: Any = None                  # fixlore.sources.http.ApiClient (harvest, re-verification)
    source: Any = None                  # fixlore.sources.base.Source
    quiet: bool = True
    naive: bool = False
    run_id: int | None = None
    info: dict[str, Any] = field(default_factory=dict)       # run.json under construction
    # progress(stage, done, total): given by the CLI; stages that take a while report through it
    progress: Callable[[str, int, int | None], None] | None = None
    results: dict[str, dict[str, Any]] = field(default_factory=dict)   # stage name -> its summary


@dataclass
class Stage:
    name: str
    run: StageFn


def find_stage(name: str) -> Stage | None:
    try:
        module = importlib.import_module(f"fixlore.{name}.stage")
    except ModuleNotFoundError as exc:
        if exc.name in (f"fixlore.{name}.stage", f"fixlore.{name}"):
            return None
        raise
    fn = getattr(module, "run", None)
    return Stage(name, fn) if callable(fn) else None


def discover_stages(names: tuple[str, ...] | list[str] = STAGE_ORDER) -> tuple[list[Stage], list[str]]:
    found, absent = [], []
    for name in names:
        stage = find_stage(name)
        (found.append(stage) if stage else absent.append(name))
    return found, absent


def run_stages(ctx: RunContext, stages: list[Stage]) -> dict[str, Any]:
    """Run ``stages`` in order, timing each; a FixloreError stops the run (recorded, then re-raised)."""
    ctx.info.setdefault("stages", [])
    ctx.info.setdefault("stage_seconds", {})
    for stage in stages:
        interrupts.check()
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
