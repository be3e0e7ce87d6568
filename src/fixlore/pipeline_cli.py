"""`fixlore run`: the whole pipeline, against a replayed world or the real site."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fixlore.config import load_settings, parse_since
from fixlore.errors import ConfigError


def _world_defaults(world: Path) -> dict[str, Any]:
    from fixlore.sources.offline import read_world_meta

    meta = read_world_meta(world)
    return {"platform": meta.get("platform", "gitcode"), "orgs": list(meta.get("orgs") or []),
            "since": (meta.get("window") or {}).get("since"), "rank_top_k": meta.get("rank_top_k")}


def _config_sets_db(config: Path | None) -> bool:
    from fixlore.config import load_file

    return bool(config) and any(k in load_file(config) for k in ("db", "db_url"))


def run_pipeline(*, world: Path | None, out: Path, overrides: dict[str, Any], config: Path | None = None,
                 faults: str | None = None, fault_seed: int = 0, server_rate_limit: bool = False,
                 quiet: bool = True, naive: bool = False, stage_names: list[str] | None = None,
                 console: Console | None = None, strict: Any = None) -> dict[str, Any]:
    """Library form of `fixlore run`; returns the run.json content (also written to out/run.json)."""
    from fixlore.harvest.connect import connect
    from fixlore.pipeline import RunContext, discover_stages, run_stages, utc_now_iso
    from fixlore.store import Store

    out.mkdir(parents=True, exist_ok=True)
    file_defaults: dict[str, Any] = {}
    if world is not None:
        if not (world / "world.yaml").is_file():
            raise ConfigError(f"{world} is not a world folder (no world.yaml)")
        file_defaults = {k: v for k, v in _world_defaults(world).items() if v not in (None, [], "")}
        overrides = {**{k: v for k, v in file_defaults.items() if overrides.get(k) in (None, [])}, **{
            k: v for k, v in overrides.items() if v not in (None, [])}}
        overrides.setdefault("db", f"sqlite:///{(out / 'fixlore.db').resolve()}")
        if "rate_limit" not in overrides:
            overrides["rate_limit"] = server_rate_limit
    elif "db" not in overrides and not _config_sets_db(config):
        overrides["db"] = f"sqlite:///{(out / 'fixlore.db').resolve()}"   # a live run's store lives with its outputs
    raw_since = overrides.get("since") if isinstance(overrides.get("since"), str) else None
    settings = load_settings(config, overrides)
    from fixlore.harvest.connect import missing_token_warning, since_for_platform

    settings.since = since_for_platform(raw_since, settings)
    if settings.since is None:
        raise ConfigError("no window start: give --since (or a world whose truth.yaml has window.since)")
    if not settings.orgs:
        raise ConfigError("no organisations: give --org (one or more) or a world")
    info: dict[str, Any] = {
        "started_at": utc_now_iso(), "status": "running", "world": str(world) if world else None,
        "platform": settings.platform, "orgs": settings.orgs, "window": {"since": settings.since.isoformat()},
        "faults": faults or "", "settings": {k: v for k, v in settings.public().items() if k != "funnel"},
    }
    stages, absent = discover_stages(stage_names or None) if stage_names else discover_stages()
    info["stages_absent"] = absent
    with ExitStack() as stack:
        store = Store.open(settings.db)
        stack.callback(store.close)
        info["settings"]["db"] = store.url
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
                                                      fault_seed=fault_seed, token=None, strict=strict))
            base_url, token = server.base_url, None
            info["settings"]["base_url"] = base_url
        client, source = connect(settings, store, token=token, base_url=base_url)
        stack.callback(client.close)
        ctx = RunContext(store=store, settings=settings, out_dir=out, since=settings.since, world=world,
                         client=client, source=source, quiet=quiet, naive=naive, info=info)
        ctx.run_id = store.start_run({k: v for k, v in info.items()})
        try:
            run_stages(ctx, stages)
            info["status"] = "ok"
        except BaseException:
            info["status"] = "failed"
            raise
        finally:
            info["finished_at"] = utc_now_iso()
            info["requests"] = client.accounting.snapshot()
            if server is not None:
                info["server"] = server.stats()
            text = client.redact(json.dumps(info, ensure_ascii=False, indent=2, default=str))
            (out / "run.json").write_text(text + "\n", encoding="utf-8")
            store.finish_run(ctx.run_id, info["status"], json.loads(text))
    if console is not None:
        print_summary(console, info)
    return info


def print_summary(console: Console, info: dict[str, Any]) -> None:
    table = Table(title=Text(f"fixlore run: {info['platform']} {', '.join(info['orgs'])} since {info['window']['since']}"))
    table.add_column("what")
    table.add_column("value", justify="right")
    req = info.get("requests", {})
    table.add_row("requests", str(req.get("total", 0)))
    for status, n in sorted((req.get("by_status") or {}).items()):
        table.add_row(f"  status {status}", str(n))
    harvest = next((s.get("summary", {}) for s in info.get("stages", []) if s["name"] == "harvest"), {})
    for key in ("repos", "issues_listed", "issues_in_window", "issues_detailed", "pulls_listed", "pulls_detailed"):
        if key in harvest:
            table.add_row(key.replace("_", " "), str(harvest[key]))
    if harvest.get("repos_unreadable"):
        table.add_row("repos unreadable", str(harvest["repos_unreadable"]))
    for stage, n in sorted((info.get("funnel") or {}).items()):
        table.add_row(f"  funnel {stage}", str(n))
    for name, seconds in (info.get("stage_seconds") or {}).items():
        table.add_row(f"stage {name} (s)", f"{seconds:.1f}")
    console.print(table)
    for failure in harvest.get("unreadable") or []:
        console.print(Text(unreadable_line(failure)), highlight=False, soft_wrap=True)


def unreadable_line(failure: dict[str, Any]) -> str:
    status = failure.get("status", "")
    status = f"HTTP {status}" if str(status).isdigit() else status
    return (f"could not read {failure.get('repo')} ({failure.get('endpoint')}): {status} {failure.get('message', '')}"
            .rstrip() + " — recorded, retried on the next run")


def unreadable_exit(failures: list[dict[str, Any]]) -> None:
    """End with EXIT_SOME_UNREADABLE (one line on stderr) when some repos could not be read."""
    from fixlore.errors import EXIT_SOME_UNREADABLE

    if failures:
        repos = len({f.get("repo") for f in failures})
        typer.echo(f"finished, but {repos} repo(s) could not be read (exit {EXIT_SOME_UNREADABLE}); "
                   f"see run.json and the digest's methods section", err=True)
        raise typer.Exit(EXIT_SOME_UNREADABLE)


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run_cmd(
        out: Path = typer.Option(..., "--out", help="Folder for run.json and the other outputs."),
        world: Optional[Path] = typer.Option(None, "--world", help="Replay this world folder on loopback."),
        since: Optional[str] = typer.Option(None, "--since", help="Window start (ISO); default: the world's truth.yaml. A bare date or time without offset is in the platform's zone (GitCode +08:00, GitHub UTC)."),
        platform: Optional[str] = typer.Option(None, "--platform", help="gitcode or github (real site)."),
        org: list[str] = typer.Option([], "--org", help="Organisation to harvest (repeatable)."),
        db: Optional[str] = typer.Option(None, "--db", help="sqlite:///path or postgresql+psycopg://..."),
        config: Optional[Path] = typer.Option(None, "--config", help="TOML or YAML settings file."),
        base_url: Optional[str] = typer.Option(None, "--base-url", help="API base URL (defaults per platform)."),
        token_env: Optional[str] = typer.Option(None, "--token-env", help="Name of the variable holding the token."),
        faults: Optional[str] = typer.Option(None, "--faults", help="Replay faults, e.g. '429:0.05,500:0.02'."),
        fault_seed: int = typer.Option(0, "--fault-seed"),
        rate_limit: Optional[bool] = typer.Option(None, "--rate-limit/--no-rate-limit",
                                                  help="Pace requests to the platform's quota."),
        time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Compress quota time (replay benchmarks)."),
        lookback_days: Optional[int] = typer.Option(None, "--lookback-days"),
        rank_top_k: Optional[int] = typer.Option(None, "--rank-top-k"),
        read_timeout: Optional[float] = typer.Option(None, "--read-timeout"),
        max_attempts: Optional[int] = typer.Option(None, "--max-attempts", help="Tries per request before giving up."),
        naive: bool = typer.Option(False, "--naive", help="Fetch every window issue's details (baseline)."),
        kb_docs: list[str] = typer.Option([], "--kb-docs", help="Documents for the knowledge base: PATH or "
                                          "PATH=docs/<owner>/<repo> for a local clone (repeatable)."),
        stage: list[str] = typer.Option([], "--stage", help="Run only these stages (repeatable)."),
        strict: bool = typer.Option(False, "--strict", help="With --world: the replay plays the platform's "
                                    "documented and observed quirks (see `fixlore replay --help`)."),
        quirks: Optional[str] = typer.Option(None, "--quirks", help="With --world: a named quirk set "
                                             "(gitcode, gitcode-no-totals, github) or quirk names; implies --strict."),
        quiet: bool = typer.Option(False, "--quiet", "-q"),
    ) -> None:
        """Harvest, funnel, link, enrich, analyse, compose and index the cases for serving; write OUT/run.json, OUT/cases.jsonl and the digests.

        Offline: --world PATH replays a world on a loopback port (no token, no network). Live: --platform gitcode|github with one --org per organisation; the token is read from the variable named by --token-env (default GITCODE_TOKEN / GITHUB_TOKEN).

        The analysis workers use an OpenAI-compatible endpoint when FIXLORE_LLM_BASE_URL and FIXLORE_LLM_MODEL are set (key in OPENAI_API_KEY), else the offline backend."""
        if world is None and not platform and not config:
            raise ConfigError("give --world PATH, or --platform with --org for the real site")
        overrides: dict[str, Any] = {"platform": platform, "orgs": list(org) or None, "db": db, "base_url": base_url,
                                     "token_env": token_env, "time_scale": time_scale, "lookback_days": lookback_days,
                                     "rank_top_k": rank_top_k, "read_timeout": read_timeout, "rate_limit": rate_limit,
                                     "max_attempts": max_attempts, "kb_docs": list(kb_docs) or None,
                                     "since": since if since else None}
        if since:
            parse_since(since)                      # a bad date is one clear line, before anything starts
        overrides = {k: v for k, v in overrides.items() if v is not None}
        console = Console(stderr=False, quiet=quiet)
        info = run_pipeline(world=world, out=out, overrides=overrides, config=config, faults=faults,
                            fault_seed=fault_seed, server_rate_limit=bool(rate_limit), quiet=quiet, naive=naive,
                            stage_names=list(stage) or None, console=None if quiet else console,
                            strict=quirks or strict)
        harvest = next((s.get("summary", {}) for s in info.get("stages", []) if s["name"] == "harvest"), {})
        unreadable_exit(harvest.get("unreadable") or [])
