"""`fixlore run`: the whole pipeline, against a replayed world or the real site."""

from __future__ import annotations

import json
import logging
import os
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from fixlore.edges import interrupts
from fixlore.edges.atomicfile import write_atomic
from fixlore.settings.config import Settings, load_settings, parse_since
from fixlore.core.errors import EXIT_CODES_HELP, ConfigError, Interrupted
from fixlore.edges.inputs import check_db_url, check_http_url, check_out_dir, redact_url, url_passwords
from fixlore.wording.terminal import escape_json, json_text

log = logging.getLogger(__name__)


def _world_defaults(world: Path) -> dict[str, Any]:
    from fixlore.sources.offline import read_world_meta

    meta = read_world_meta(world)
    defaults = {"platform": meta.get("platform"), "orgs": meta.get("orgs"),
                "since": (meta.get("window") or {}).get("since"), "rank_top_k": meta.get("rank_top_k")}
    return {k: v for k, v in defaults.items() if v not in (None, [], "")}


def plan_run(*, world: Path | None, out: Path, overrides: dict[str, Any], config: Path | None = None,
             server_rate_limit: bool = False, faults: str | None = None, strict: Any = None,
             stage_names: list[str] | None = None) -> Settings:
    """The run's settings, every input checked, nothing created yet.

    One precedence rule: flags (``overrides``) over the config file over the world's own
    settings and the run's (the store in OUT/fixlore.db; with a world, pacing as the replay
    server paces).
    """
    check_out_dir(out)
    if faults and world is None:
        raise ConfigError("--faults needs --world (faults are played by the replay server)")
    if faults:
        from fixlore.replay.faults import parse_spec

        parse_spec(faults)
    if stage_names:
        from fixlore.pipeline import STAGE_ORDER

        unknown = [n for n in stage_names if n not in STAGE_ORDER]
        if unknown:
            raise ConfigError(f"--stage {', '.join(unknown)}: no such stage (stages: {', '.join(STAGE_ORDER)})")
    if config is not None and not Path(config).is_file():
        raise ConfigError(f"config file not found: {config}")
    defaults: dict[str, Any] = {"db": f"sqlite:///{(out / 'fixlore.db').resolve()}"}
    if world is not None:
        if not (world / "world.yaml").is_file():
            raise ConfigError(f"{world} is not a world folder (no world.yaml)")
        defaults.update(_world_defaults(world), rate_limit=server_rate_limit)
    settings = load_settings(config, overrides, defaults)
    from fixlore.harvest.connect import since_for_platform

    raw_since = overrides.get("since") if isinstance(overrides.get("since"), str) else None
    settings.since = since_for_platform(raw_since, settings)   # a bare date is the platform's own zone
    if settings.since is None:
        raise ConfigError("no window start: give --since (or a world whose truth.yaml has window.since)")
    if not settings.orgs:
        raise ConfigError("no organisations: give --org (one or more) or a world")
    check_db_url(settings.db, made_here=out)
    from fixlore.edges.llmclient import endpoint_setting

    if llm_url := endpoint_setting(settings, "llm_base_url"):
        check_http_url(llm_url, "FIXLORE_LLM_BASE_URL")       # the analysis would fail on it only after the harvest
    if strict and world is not None:
        from fixlore.replay.strict import Quirks

        Quirks.of(strict, settings.platform)
    return settings


def run_pipeline(*, world: Path | None, out: Path, overrides: dict[str, Any], config: Path | None = None,
                 faults: str | None = None, fault_seed: int = 0, server_rate_limit: bool = False,
                 quiet: bool = True, naive: bool = False, stage_names: list[str] | None = None,
                 stages: list[Any] | None = None, console: Any = None, as_of: datetime | None = None,
                 extra_info: dict[str, Any] | None = None,
                 progress: Callable[[str, int, int | None], None] | None = None,
                 strict: Any = None, probe: Any = None) -> dict[str, Any]:
    """Library form of `fixlore run`; returns the run.json content (also written to out/run.json).

    ``stage_names`` runs only the stages of `fixlore.pipeline.STAGES` so named; ``stages``, a
    list of `fixlore.pipeline.Stage`, runs those instead (a series edition's, with its own stage).
    `as_of` replays the world as it stood then; `extra_info` joins run.json (a series edition's
    plan); `strict` makes the replay play the platform's quirks (a quirk set's name or True); `probe`,
    a read probe file (`sources.listforms.read_probe`), chooses how the lists are ordered.
    ``progress(stage, done, total)`` is called by the stages that take a while (total None
    when unknown). Ctrl-C marks the run interrupted (run.json, ``runs``, ``harvest_runs``)
    and raises :class:`Interrupted` saying how many requests were spent.
    """
    from fixlore.core import formats
    from fixlore.edges import logs
    from fixlore.harvest.connect import connect, missing_token_warning
    from fixlore.pipeline import STAGES, RunContext, run_stages, select_stages, utc_now_iso
    from fixlore.store import Store

    settings = plan_run(world=world, out=out, overrides=overrides, config=config, server_rate_limit=server_rate_limit,
                        faults=faults, strict=strict, stage_names=stage_names if stages is None else None)
    from fixlore.edges.llmclient import endpoint_setting
    from fixlore.sources.listforms import check_probe_platform

    check_probe_platform(probe, settings.platform)

    logs.hide(settings.token(), *url_passwords(settings.base_url, settings.db),
              os.environ.get(endpoint_setting(settings, "llm_key_env") or "OPENAI_API_KEY"))
    stages, absent = select_stages(stage_names or None, STAGES if stages is None else stages)
    info: dict[str, Any] = {
        "format": formats.RUN, "started_at": utc_now_iso(), "status": "running", "world": str(world) if world else None,
        "platform": settings.platform, "orgs": settings.orgs, "window": {"since": settings.since.isoformat(), **(
            {"until": as_of.isoformat()} if as_of is not None else {})},
        "faults": faults or "", "settings": {k: v for k, v in settings.public().items() if k != "funnel"},
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
            typer.echo(warning, err=True)
        if world is not None:
            from fixlore.replay.server import ReplayServer

            server = stack.enter_context(ReplayServer(world, port=0, rate_limit=server_rate_limit,
                                                      time_scale=settings.time_scale, faults=faults,
                                                      fault_seed=fault_seed, token=None, as_of=as_of,
                                                      strict=strict))
            base_url, token = server.base_url, None
            info["settings"]["base_url"] = base_url
        client, source = connect(settings, store, token=token, base_url=base_url, probe=probe)
        stack.callback(client.close)
        log.info("run: %s %s since %s from %s into %s, outputs in %s", settings.platform, ",".join(settings.orgs),
                 settings.since.isoformat(), redact_url(base_url), info["settings"]["db"], out)
        ctx = RunContext(store=store, settings=settings, out_dir=out, since=settings.since, world=world,
                         client=client, source=source, quiet=quiet, naive=naive, info=info, progress=progress)
        ctx.run_id = store.start_run(json.loads(logs.redact(client.redact(json.dumps(info, default=str)))))
        interrupted = False
        try:
            with interrupts.kept():
                run_stages(ctx, stages)
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


def register(app: typer.Typer) -> None:
    from fixlore.edges.summary import print_summary

    @app.command("run", epilog=EXIT_CODES_HELP)
    def run_cmd(
        out: Path = typer.Option(..., "--out", envvar="FIXLORE_OUT", file_okay=True,
                                 help="Folder for run.json, cases.jsonl, the digests, the store and the indexes "
                                      "(env FIXLORE_OUT)."),
        world: Optional[Path] = typer.Option(None, "--world", help="Replay this world folder on loopback."),
        since: Optional[str] = typer.Option(None, "--since", help="Window start (ISO); default: the world's truth.yaml. A bare date or time without offset is in the platform's zone (GitCode +08:00, GitHub UTC)."),
        platform: Optional[str] = typer.Option(None, "--platform", help="gitcode or github (real site)."),
        org: list[str] = typer.Option([], "--org", help="Organisation to harvest (repeatable)."),
        db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB",
                                         help="Store URL: sqlite:///path or postgresql+psycopg://... "
                                              "(default OUT/fixlore.db with --world; env FIXLORE_DB)."),
        config: Optional[Path] = typer.Option(None, "--config", envvar="FIXLORE_CONFIG",
                                              help="TOML or YAML settings file; flags override it "
                                                   "(env FIXLORE_CONFIG)."),
        base_url: Optional[str] = typer.Option(None, "--base-url", help="API base URL (defaults per platform)."),
        token_env: Optional[str] = typer.Option(None, "--token-env", help="Name of the variable holding the token."),
        faults: Optional[str] = typer.Option(None, "--faults", help="Replay faults, e.g. '429:0.05,500:0.02'."),
        fault_seed: int = typer.Option(0, "--fault-seed", help="Seed of the replay's fault draws."),
        rate_limit: Optional[bool] = typer.Option(None, "--rate-limit/--no-rate-limit",
                                                  help="Pace requests to the platform's quota."),
        time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Compress quota time (replay benchmarks)."),
        lookback_days: Optional[int] = typer.Option(None, "--lookback-days",
                                                    help="PRs merged this many days before the window still "
                                                         "count as fixes (default 60)."),
        rank_top_k: Optional[int] = typer.Option(None, "--rank-top-k",
                                                 help="Pool cases sent to deep analysis (default: the world's, "
                                                      "else all)."),
        read_timeout: Optional[float] = typer.Option(None, "--read-timeout",
                                                     help="Seconds to wait for a response before retrying "
                                                          "(default 30)."),
        max_attempts: Optional[int] = typer.Option(None, "--max-attempts", help="Tries per request before giving up."),
        naive: bool = typer.Option(False, "--naive", help="Fetch every window issue's details (baseline)."),
        kb_docs: list[str] = typer.Option([], "--kb-docs", help="Documents for the knowledge base: PATH or "
                                          "PATH=docs/<owner>/<repo> for a local clone (repeatable)."),
        stage: list[str] = typer.Option([], "--stage", help="Run only these stages (repeatable)."),
        as_json: bool = typer.Option(False, "--json", help="Print run.json on stdout instead of the summary."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress and no summary."),
        as_of: Optional[str] = typer.Option(None, "--as-of", help="With --world: replay the world as it stood at "
                                            "this ISO time (later events hidden); the window ends there."),
        series: Optional[str] = typer.Option(None, "--series", help="Make the next edition of this series "
                                             "(same as `fixlore series publish NAME`; --since overrides its window start)."),
        allow_empty: bool = typer.Option(False, "--allow-empty", help="With --series: publish even an edition with no rows."),
        dry_run: bool = typer.Option(False, "--dry-run", help="With --series: show what the edition would hold; record nothing."),
        strict: bool = typer.Option(False, "--strict", help="With --world: the replay plays the platform's "
                                    "documented and observed quirks (see `fixlore replay --help`)."),
        quirks: Optional[str] = typer.Option(None, "--quirks", help="With --world: a named quirk set "
                                             "(gitcode, gitcode-no-totals, github) or quirk names; implies --strict."),
        probe: Optional[Path] = typer.Option(None, "--probe", help="A `fixlore probe` report (JSON): ask the "
                                             "lists in the ordering forms it saw work (default: the documented "
                                             "order, docs/harvest.md)."),
    ) -> None:
        """Harvest, funnel, link, enrich, analyse, compose and index the cases for serving; write OUT/run.json, OUT/cases.jsonl and the digests.

        Offline: --world PATH replays a world on a loopback port (no token, no network). Live: --platform gitcode|github with one --org per organisation; the token is read from the variable named by --token-env (default GITCODE_TOKEN / GITHUB_TOKEN).

        Settings: a flag wins over the --config file, which wins over the world's own settings.

        The analysis workers use an OpenAI-compatible endpoint when FIXLORE_LLM_BASE_URL and FIXLORE_LLM_MODEL are set (key in OPENAI_API_KEY), else the offline backend.

        Ctrl-C stops the run, marks it interrupted and says how many requests it spent; the same command resumes it."""
        from fixlore.edges.progress import StageProgress

        if world is None and not platform and not config:
            raise ConfigError("give --world PATH, or --platform with --org for the real site")
        from fixlore.sources.listforms import read_probe

        probe_forms = read_probe(probe) if probe is not None else None    # a bad file: one line, exit 2, nothing made
        if probe_forms is not None and series:
            raise ConfigError("--probe cannot be combined with --series (an edition harvests as its series does)")
        overrides: dict[str, Any] = {"platform": platform, "orgs": list(org) or None, "db": db, "base_url": base_url,
                                     "token_env": token_env, "time_scale": time_scale, "lookback_days": lookback_days,
                                     "rank_top_k": rank_top_k, "read_timeout": read_timeout, "rate_limit": rate_limit,
                                     "max_attempts": max_attempts, "kb_docs": list(kb_docs) or None,
                                     "since": since if since else None}
        if since is not None:
            parse_since(since, "--since")           # a bad date is one clear line, before anything starts
        overrides = {k: v for k, v in overrides.items() if v is not None}
        if as_of is not None and world is None:
            raise ConfigError("--as-of needs --world (a live site cannot be asked about the past)")
        when = parse_since(as_of, "--as-of") if as_of is not None else None
        if (allow_empty or dry_run) and not series:
            raise ConfigError("--allow-empty and --dry-run go with --series (a series edition)")
        if series:
            from fixlore.series.publish import publish_edition

            result = publish_edition(series, out=out, world=world, db=db, config=config,
                                     as_of=when, since=parse_since(overrides.pop("since"), "--since") if since else None,
                                     overrides=overrides, quiet=quiet, allow_empty=allow_empty, dry_run=dry_run)
            if not quiet or dry_run:
                typer.echo(json_text(result, indent=2))
            return
        show = not quiet and not as_json
        with StageProgress(enabled=show) as bar:
            info = run_pipeline(world=world, out=out, overrides=overrides, config=config, faults=faults,
                                fault_seed=fault_seed, server_rate_limit=bool(rate_limit), quiet=not show,
                                naive=naive, stage_names=list(stage) or None, progress=bar.update if show else None,
                                as_of=when, strict=quirks or strict, probe=probe_forms)
        if as_json:
            typer.echo(escape_json((out / "run.json").read_text(encoding="utf-8")), nl=False)
        elif show:
            print_summary(info)
        from fixlore.edges.summary import unreadable_exit

        unreadable_exit(unreadable_repos(info), unread_items(info))
