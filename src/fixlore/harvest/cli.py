"""`fixlore harvest`: the harvest stage alone, against the real site or any API base URL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from fixlore.core.errors import EXIT_CODES_HELP, ConfigError, Interrupted


def register(app: typer.Typer) -> None:
    @app.command("harvest", epilog=EXIT_CODES_HELP)
    def harvest_cmd(
        org: list[str] = typer.Option([], "--org", help="Organisation to harvest (repeatable)."),
        since: Optional[str] = typer.Option(None, "--since", help="Window start, ISO; a bare date or time without offset is in the platform's zone (GitCode +08:00, GitHub UTC)."),
        platform: Optional[str] = typer.Option(None, "--platform", help="gitcode or github."),
        db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB",
                                         help="Store URL: sqlite:///path or postgresql+psycopg://... (env FIXLORE_DB)."),
        config: Optional[Path] = typer.Option(None, "--config", envvar="FIXLORE_CONFIG",
                                              help="TOML or YAML settings file; flags override it (env FIXLORE_CONFIG)."),
        base_url: Optional[str] = typer.Option(None, "--base-url", help="API base URL (defaults per platform)."),
        token_env: Optional[str] = typer.Option(None, "--token-env", help="Name of the variable holding the token."),
        lookback_days: Optional[int] = typer.Option(None, "--lookback-days",
                                                    help="PRs merged this many days before the window still count "
                                                         "as fixes (default 60)."),
        rate_limit: Optional[bool] = typer.Option(None, "--rate-limit/--no-rate-limit",
                                                  help="Pace requests to the platform's quota."),
        time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Compress quota time (replay benchmarks)."),
        max_attempts: Optional[int] = typer.Option(None, "--max-attempts", help="Tries per request before giving up."),
        naive: bool = typer.Option(False, "--naive", help="Fetch every window issue's details (baseline)."),
        reconcile: bool = typer.Option(False, "--reconcile", envvar="FIXLORE_RECONCILE", help="Each repo's issues listed from the window start, not its watermark: every stored issue of the window "
                                       "the list no longer carries is asked for and marked deleted if gone. Costs the "
                                       "whole window's issue-list pages again (env FIXLORE_RECONCILE)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress and no report."),
        probe: Optional[Path] = typer.Option(None, "--probe", help="A `fixlore probe` report (JSON): ask the "
                                             "lists in the ordering forms it saw work."),
        out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT",
                                           help="Run folder, as for `fixlore run`: the store is OUT/fixlore.db "
                                                "unless --db names one (env FIXLORE_OUT)."),
    ) -> None:
        """List every repo's issues updated in the window and fetch details for the cheap funnel's pool.

        The store is OUT/fixlore.db (--out, as `fixlore run` writes it), or the one --db or the
        config file names; nothing is created until every input has passed its check."""
        from fixlore.edges import interrupts, logs
        from fixlore.edges.inputs import check_db_url, check_out_dir, url_passwords
        from fixlore.harvest.connect import connect
        from fixlore.harvest.harvester import harvest
        from fixlore.sources.listforms import check_probe_platform, read_probe
        from fixlore.settings.config import SettingFlags, load_file, load_settings, parse_since
        from fixlore.store import Store

        probe_forms = read_probe(probe) if probe is not None else None
        if since is not None:
            parse_since(since, "--since")           # a bad date is one clear line, before anything starts
        flags = SettingFlags(platform=platform, orgs=tuple(org), db=db, base_url=base_url, token_env=token_env,
                             lookback_days=lookback_days, rate_limit=rate_limit, time_scale=time_scale,
                             max_attempts=max_attempts, since=since)
        defaults: dict[str, Any] = {}
        if out is not None:
            check_out_dir(out)
            defaults["db"] = f"sqlite:///{(out / 'fixlore.db').resolve()}"
        settings = load_settings(config, flags, defaults)
        from fixlore.harvest.connect import missing_token_warning

        if settings.since is None:
            raise ConfigError("give --since (or `since` in the config file)")
        if not settings.orgs:
            raise ConfigError("give at least one --org (or `orgs` in the config file)")
        if out is None and not db and not (config is not None and {"db", "db_url"} & set(load_file(config))):
            raise ConfigError("give --out DIR (the store goes in DIR/fixlore.db, as `fixlore run` puts it) "
                              "or --db URL")
        check_db_url(settings.db, made_here=out)
        check_probe_platform(probe_forms, settings.platform)
        logs.hide(settings.token(), *url_passwords(settings.base_url, settings.db))
        store = Store.open(settings.db)
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
        store.mark_abandoned_runs()
        warning = missing_token_warning(settings, settings.token())
        if warning:
            typer.echo(warning, err=True)
        client, source = connect(settings, store, token=settings.token(), probe=probe_forms)
        run_id = store.start_harvest_run(settings.platform, settings.orgs, settings.since)
        status, report = "failed", None
        from fixlore.edges.progress import StageProgress

        try:
            with interrupts.kept(), StageProgress(enabled=not quiet) as bar:
                report = harvest(store, source, settings.orgs, settings.since, lookback_days=settings.lookback_days,
                                 funnel_config=settings.funnel_rules, naive=naive, reconcile=reconcile,
                                 progress=None if quiet else bar.update)
                interrupts.check()
            status = "done"
        except KeyboardInterrupt:
            status = "interrupted"
            raise Interrupted(f"interrupted, {client.accounting.total} requests spent, "
                              f"rerun the same command to resume") from None
        finally:
            store.finish_harvest_run(run_id, status, client.accounting.total,
                                     {**(report.as_dict() if report else {}), "requests": client.accounting.snapshot()})
            client.close()
            store.close()
        if not quiet:
            from fixlore.wording.terminal import escape_json

            typer.echo(escape_json(client.redact(json.dumps({**report.as_dict(), "requests": client.accounting.snapshot()},
                                                            ensure_ascii=False, indent=2))))
        from fixlore.edges.summary import unreadable_exit

        unreadable_exit(report.as_dict()["unreadable"], report.as_dict()["unread_items"])
