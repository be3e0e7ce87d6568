"""The pipeline: an explicit list of named stages run in order over one store, and the library
form of `fixlore run` (`plan_run`, `run_pipeline`) that the CLI and the series call.

`STAGES` names every stage of `fixlore run` and the function that runs it, in order (a reader
or a tool follows the pipeline from here). A stage is ``run(ctx: RunContext) -> Summary``
(`fixlore.settings.runcontext`); the summary, a TypedDict each stage declares beside its ``run``, is
stored under the stage's name in run.json. A run of some stages only (`--stage`) takes them
by name with `select_stages`; an orchestrator with a stage of its own (a series edition adds
`series` between link and kb) passes its own list to `run_stages`.

A run is asked for with a `RunRequest` (what the command was given); `plan_run` turns it into
the run's typed `Settings` once (flags over the config file over the world's own settings),
checking every input before anything is created, and `run_pipeline` runs it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from fixlore.core import formats

from fixlore.analyse import stage as analyse
from fixlore.compose import stage as compose
from fixlore.core.errors import ConfigError, FixloreError, Interrupted
from fixlore.edges import interrupts, killpoints, logs
from fixlore.edges.atomicfile import write_atomic
from fixlore.edges.inputs import check_db_url, check_http_url, check_out_dir, redact_url, url_passwords
from fixlore.funnel import stage as funnel
from fixlore.harvest import stage as harvest
from fixlore.kb import stage as kb
from fixlore.link import stage as link
from fixlore.serve import stage as serve
from fixlore.settings.config import Settings, SettingFlags, load_settings
from fixlore.settings.runcontext import Progress, RunContext, Summary

__all__ = ["STAGES", "STAGE_ORDER", "RunContext", "RunRequest", "Stage", "plan_run", "run_pipeline", "run_stages",
           "select_stages", "unread_items", "unreadable_repos", "utc_now_iso"]

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


@dataclass(frozen=True)
class RunRequest:
    """What a run was asked for: the command's flags, before any setting is worked out.

    ``settings`` are the flags that are settings (they win over the ``config`` file and the
    world's own); ``stage_names`` runs only the stages so named; ``as_of`` replays the world as
    it stood then; ``strict`` makes the replay play the platform's quirks (a quirk set's name or
    True); ``probe``, a read probe file (`sources.listforms.read_probe`), chooses how the lists
    are ordered."""
    out: Path
    world: Path | None = None
    settings: SettingFlags = field(default_factory=SettingFlags)
    config: Path | None = None
    faults: str | None = None
    fault_seed: int = 0
    strict: Any = None
    probe: Any = None
    as_of: datetime | None = None
    stage_names: tuple[str, ...] = ()
    naive: bool = False
    reconcile: bool = False           # harvest: list each repo from the window start, mark what left it and is gone
    on_findings: str = "mark"         # the editorial check's gate: mark the rows, or fail (compose/gate.py)
    quiet: bool = True
    overrides: Path | None = None        # the editor's corrections (fixlore.rules.overrides)
    value_weights: Path | None = None    # learned value weights (`fixlore weights learn`): rank, and gate when favoured

    @property
    def server_rate_limit(self) -> bool:
        """With a world: does the replay server pace as the platform would (``--rate-limit``)?"""
        return bool(self.settings.rate_limit)


def _world_defaults(world: Path) -> dict[str, Any]:
    from fixlore.sources.offline import read_world_meta

    meta = read_world_meta(world)
    defaults = {"platform": meta.get("platform"), "orgs": meta.get("orgs"),
                "since": (meta.get("window") or {}).get("since"), "rank_top_k": meta.get("rank_top_k")}
    return {k: v for k, v in defaults.items() if v not in (None, [], "")}


def plan_run(request: RunRequest, *, check_stages: bool = True) -> Settings:
    """The run's settings, every input checked, nothing created yet: the request's flags over
    the config file over the world's own settings and the run's (the store in OUT/fixlore.db;
    with a world, pacing as the replay server paces)."""
    world, out = request.world, request.out
    check_out_dir(out)
    if request.faults and world is None:
        raise ConfigError("--faults needs --world (faults are played by the replay server)")
    if request.faults:
        from fixlore.replay.faults import parse_spec

        parse_spec(request.faults)
    unknown = [n for n in request.stage_names if n not in STAGE_ORDER] if check_stages else []
    if unknown:
        raise ConfigError(f"--stage {', '.join(unknown)}: no such stage (stages: {', '.join(STAGE_ORDER)})")
    if request.config is not None and not Path(request.config).is_file():
        raise ConfigError(f"config file not found: {request.config}")
    defaults: dict[str, Any] = {"db": f"sqlite:///{(out / 'fixlore.db').resolve()}"}
    if world is not None:
        if not (world / "world.yaml").is_file():
            raise ConfigError(f"{world} is not a world folder (no world.yaml)")
        defaults.update(_world_defaults(world), rate_limit=request.server_rate_limit)
    settings = load_settings(request.config, request.settings, defaults)
    if settings.since is None:
        raise ConfigError("no window start: give --since (or a world whose truth.yaml has window.since)")
    if not settings.orgs:
        raise ConfigError("no organisations: give --org (one or more) or a world")
    check_db_url(settings.db, made_here=out)
    from fixlore.edges.llmclient import endpoint_setting

    if llm_url := endpoint_setting(settings, "llm_base_url"):
        check_http_url(llm_url, "FIXLORE_LLM_BASE_URL")       # the analysis would fail on it only after the harvest
    if request.strict and world is not None:
        from fixlore.replay.strict import Quirks

        Quirks.of(request.strict, settings.platform)
    if request.overrides is not None:
        from fixlore.settings.overrides import load_overrides

        load_overrides(request.overrides)          # a bad file: one line, exit 2, nothing created
    if request.value_weights is not None:
        from fixlore.settings.valueweights import read_weights

        read_weights(request.value_weights, "fixlore weights learn")   # likewise
    return settings


def run_pipeline(request: RunRequest, *, settings: Settings | None = None, stages: list[Stage] | None = None,
                 extra_info: dict[str, Any] | None = None, progress: Progress | None = None) -> dict[str, Any]:
    """Library form of `fixlore run`; returns the run.json content (also written to OUT/run.json).

    ``settings`` are the request's when the caller planned it already (`plan_run`); ``stages``,
    a list of `Stage`, runs those instead of `STAGES` (a series edition's, with its own stage);
    ``extra_info`` joins run.json (a series edition's plan). ``progress(stage, done, total)``
    is called by the stages that take a while (total None when unknown). Ctrl-C marks the run
    interrupted (run.json, ``runs``, ``harvest_runs``) and raises :class:`Interrupted` saying
    how many requests were spent.
    """
    from fixlore.edges.llmclient import endpoint_setting
    from fixlore.harvest.connect import connect, missing_token_warning
    from fixlore.sources.listforms import check_probe_platform
    from fixlore.store import Store

    world, out, as_of = request.world, request.out, request.as_of
    if settings is None:
        settings = plan_run(request, check_stages=stages is None)
    check_probe_platform(request.probe, settings.platform)

    logs.hide(settings.token(), *url_passwords(settings.base_url, settings.db),
              os.environ.get(endpoint_setting(settings, "llm_key_env") or "OPENAI_API_KEY"))
    chosen, absent = select_stages(request.stage_names or None, STAGES if stages is None else stages)
    overrides = None
    if request.overrides is not None:
        from fixlore.settings.overrides import load_overrides

        overrides = load_overrides(request.overrides)
    value_weights = None
    if request.value_weights is not None:
        from fixlore.settings.valueweights import read_weights

        value_weights = read_weights(request.value_weights, "fixlore weights learn")
        value_weights["file"] = str(request.value_weights)
    info: dict[str, Any] = {
        "format": formats.RUN, "started_at": utc_now_iso(), "status": "running", "world": str(world) if world else None,
        "platform": settings.platform, "orgs": settings.orgs, "window": {"since": settings.since.isoformat(), **(
            {"until": as_of.isoformat()} if as_of is not None else {})},
        "faults": request.faults or "", "settings": {k: v for k, v in settings.public().items() if k != "funnel"},
        **({"as_of": as_of.isoformat()} if as_of is not None else {}), **(extra_info or {}),
    }
    info["stages_absent"] = absent
    with ExitStack() as stack:
        store = Store.open(settings.db)       # first: an unreachable database leaves no run folder behind
        stack.callback(store.close)
        out.mkdir(parents=True, exist_ok=True)
        info["settings"]["db"] = redact_url(store.url)
        info["abandoned_runs"] = store.mark_abandoned_runs()
        server = None
        token = settings.token()
        base_url = settings.base_url
        if world is None and (warning := missing_token_warning(settings, token)):
            info["warnings"] = [warning]
            print(warning, file=sys.stderr)
        if world is not None:
            from fixlore.replay.server import ReplayServer

            server = stack.enter_context(ReplayServer(world, port=0, rate_limit=request.server_rate_limit,
                                                      time_scale=settings.time_scale, faults=request.faults,
                                                      fault_seed=request.fault_seed, token=None, as_of=as_of,
                                                      strict=request.strict))
            base_url, token = server.base_url, None
            info["settings"]["base_url"] = base_url
        client, source = connect(settings, store, token=token, base_url=base_url, probe=request.probe)
        stack.callback(client.close)
        log.info("run: %s %s since %s from %s into %s, outputs in %s", settings.platform, ",".join(settings.orgs),
                 settings.since.isoformat(), redact_url(base_url), info["settings"]["db"], out)
        ctx = RunContext(store=store, settings=settings, out_dir=out, since=settings.since, world=world,
                         client=client, source=source, quiet=request.quiet, naive=request.naive, info=info,
                         reconcile=request.reconcile,
                         progress=progress, overrides=overrides, value_weights=value_weights,
                         on_findings=request.on_findings)
        ctx.run_id = store.start_run(json.loads(logs.redact(client.redact(json.dumps(info, default=str)))))
        interrupted = False
        try:
            with interrupts.kept():
                run_stages(ctx, chosen)
            info["status"] = "partial" if unreadable_repos(info) or unread_items(info) else "ok"
        except KeyboardInterrupt:
            info["status"] = interrupted = "interrupted"
        except BaseException:
            info["status"] = "failed"
            raise
        finally:
            info["finished_at"] = utc_now_iso()
            info["requests"] = client.accounting.snapshot()
            if server is not None:
                info["server"] = server.stats()
            info["outputs"] = _outputs(out, settings.db)
            text = logs.redact(client.redact(json.dumps(info, ensure_ascii=False, indent=2, default=str)))
            write_atomic(out / "run.json", text + "\n")
            store.finish_run(ctx.run_id, info["status"], json.loads(text))
        if interrupted:
            raise Interrupted(f"interrupted, {info['requests']['total']} requests spent, "
                              f"rerun the same command to resume")
    return info


def _outputs(out: Path, db: str) -> dict[str, str]:
    """What this run wrote, by name (only what exists)."""
    names = {"run": "run.json", "cases": "cases.jsonl", "digest_zh": "digest.zh.md", "digest_en": "digest.en.md",
             "digest_html": "digest.html", "digest_json": "digest.json", "kb": "kb", "cases_index": "cases-index"}
    found = {"run": str(out / "run.json")}
    for key, name in names.items():
        if (out / name).exists():
            found[key] = str(out / name)
    found["store"] = redact_url(db)
    return found


def _harvest_summary(info: dict[str, Any]) -> dict[str, Any]:
    return next((s.get("summary", {}) for s in info.get("stages", []) if s["name"] == "harvest"), {})


def unreadable_repos(info: dict[str, Any]) -> list[dict[str, Any]]:
    """The harvest's unreadable repositories in a run's info (with `unread_items`, what makes its exit code 6)."""
    return list(_harvest_summary(info).get("unreadable") or [])


def unread_items(info: dict[str, Any]) -> list[dict[str, Any]]:
    """The issues and PRs the harvest read in part (fixlore.rules.unread)."""
    return list(_harvest_summary(info).get("unread_items") or [])
