"""`fixlore run`: the whole pipeline, against a replayed world or the real site (the run
itself is `fixlore.pipeline.run_pipeline`; this module turns the flags into its request)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Optional

import typer

from fixlore.core.errors import EXIT_CODES_HELP, ConfigError
from fixlore.wording.terminal import escape_json, json_text


def register(app: typer.Typer) -> None:
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
        value_min: Optional[float] = typer.Option(None, "--value-min",
                                                  help="Instead of the top K: every pool case whose value is at "
                                                       "least this (0..1) goes to deep analysis."),
        read_timeout: Optional[float] = typer.Option(None, "--read-timeout",
                                                     help="Seconds to wait for a response before retrying "
                                                          "(default 30)."),
        max_attempts: Optional[int] = typer.Option(None, "--max-attempts", help="Tries per request before giving up."),
        naive: bool = typer.Option(False, "--naive", help="Fetch every window issue's details (baseline)."),
        reconcile: bool = typer.Option(False, "--reconcile", envvar="FIXLORE_RECONCILE", help="Each repo's issues listed from the window start, not its watermark: every stored issue of the window "
                                       "the list no longer carries is asked for and marked deleted if gone. Costs the "
                                       "whole window's issue-list pages again (env FIXLORE_RECONCILE)."),
        on_findings: Optional[str] = typer.Option(None, "--on-findings", help="What the editorial check does "
                                                  "with a finding before the digest is written: mark (the row marked, "
                                                  "the finding disclosed; default of a plain run) or fail (nothing "
                                                  "written, exit 1; default of a --series edition)."),
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
        number: Optional[int] = typer.Option(None, "--number", min=1, help="The digest's number, shown in its title "
                                             "(a series edition has its own)."),
        tagline: Optional[str] = typer.Option(None, "--tagline", help="The line under the digest's title."),
        agent_pointer: Optional[str] = typer.Option(None, "--agent-pointer", help="Where agents read the cases: a URL "
                                                    "or a command (default: `fixlore serve mcp|http`)."),
        overrides: Optional[Path] = typer.Option(None, "--overrides", help="The editor's corrections (YAML, "
                                                 "docs/series.md): keep/drop, fix/not_fix, theme per OWNER/REPO#N. "
                                                 "A series reads OUT/overrides.yaml."),
        value_weights: Optional[Path] = typer.Option(None, "--value-weights", envvar="FIXLORE_VALUE_WEIGHTS",
                                                     dir_okay=False,
                                                     help="Value weights learned from editors' decisions (`fixlore "
                                                          "weights learn`): the pool is ranked by the learned "
                                                          "probability, and cut at p >= 0.5 only when the file's own "
                                                          "check favours that gate; the analysis still judges every "
                                                          "case sent to it. Said in the digest's methods and by "
                                                          "`fixlore explain` (env FIXLORE_VALUE_WEIGHTS). A series "
                                                          "reads OUT/value-weights-NAME.json instead."),
    ) -> None:
        """Harvest, funnel, link, enrich, analyse, compose and index the cases for serving; write OUT/run.json, OUT/cases.jsonl and the digests.

        Offline: --world PATH replays a world on a loopback port (no token, no network). Live: --platform gitcode|github with one --org per organisation; the token is read from the variable named by --token-env (default GITCODE_TOKEN / GITHUB_TOKEN).

        Settings: a flag wins over the --config file, which wins over the world's own settings.

        The analysis workers use an OpenAI-compatible endpoint when FIXLORE_LLM_BASE_URL and FIXLORE_LLM_MODEL are set (key in OPENAI_API_KEY), else the offline backend.

        Ctrl-C stops the run, marks it interrupted and says how many requests it spent; the same command resumes it."""
        from fixlore.edges.progress import StageProgress
        from fixlore.edges.summary import print_summary
        from fixlore.settings.config import SettingFlags, parse_since

        if world is None and not platform and not config:
            raise ConfigError("give --world PATH, or --platform with --org for the real site")
        probe_forms = None
        if probe is not None:                     # a bad file: one line, exit 2, nothing made
            from fixlore.sources.listforms import read_probe

            probe_forms = read_probe(probe)
        if probe_forms is not None and series:
            raise ConfigError("--probe cannot be combined with --series (an edition harvests as its series does)")
        if since is not None:
            parse_since(since, "--since")           # a bad date is one clear line, before anything starts
        flags = SettingFlags(platform=platform, orgs=tuple(org), since=since or None, db=db, base_url=base_url,
                             token_env=token_env, time_scale=time_scale, lookback_days=lookback_days,
                             rank_top_k=rank_top_k, value_min=value_min, read_timeout=read_timeout, rate_limit=rate_limit,
                             max_attempts=max_attempts, kb_docs=tuple(kb_docs))
        if as_of is not None and world is None:
            raise ConfigError("--as-of needs --world (a live site cannot be asked about the past)")
        when = parse_since(as_of, "--as-of") if as_of is not None else None
        from fixlore.compose.gate import mode_of

        mode_of(on_findings, "mark")          # a bad value refused before anything runs
        if (allow_empty or dry_run) and not series:
            raise ConfigError("--allow-empty and --dry-run go with --series (a series edition)")
        if series and number is not None:
            raise ConfigError("--number goes with a plain run (a series edition takes its number from the series)")
        if series and value_weights is not None:
            raise ConfigError("--value-weights (FIXLORE_VALUE_WEIGHTS) goes with a plain run; a series ranks by "
                              "OUT/value-weights-NAME.json (`fixlore series weights NAME`)")
        if series:
            from fixlore.series.publish import publish_edition

            result = publish_edition(series, out=out, world=world, db=db, config=config, as_of=when,
                                     since=parse_since(since, "--since") if since else None,
                                     flags=replace(flags, since=None), quiet=quiet, allow_empty=allow_empty,
                                     dry_run=dry_run, overrides=overrides,
                                     on_findings=mode_of(on_findings, "fail"), reconcile=reconcile)
            if not quiet or dry_run:
                typer.echo(json_text(result, indent=2))
            return
        from fixlore.pipeline import RunRequest, run_pipeline, unread_items, unreadable_repos

        show = not quiet and not as_json
        request = RunRequest(out=out, world=world, settings=flags, config=config, faults=faults,
                             fault_seed=fault_seed, strict=quirks or strict, probe=probe_forms, as_of=when,
                             stage_names=tuple(stage), naive=naive, reconcile=reconcile, quiet=not show, overrides=overrides,
                             on_findings=mode_of(on_findings, "mark"), value_weights=value_weights)
        frame = {k: v for k, v in {"number": number, "tagline": tagline, "agent_pointer": agent_pointer}.items()
                 if v is not None}
        with StageProgress(enabled=show) as bar:
            info = run_pipeline(request, progress=bar.update if show else None,
                                extra_info={"frame": frame} if frame else None)
        if as_json:
            typer.echo(escape_json((out / "run.json").read_text(encoding="utf-8")), nl=False)
        elif show:
            print_summary(info)
        from fixlore.edges.summary import unreadable_exit

        unreadable_exit(unreadable_repos(info), unread_items(info))
