"""Commands of the link stage: `fixlore export cases`, `fixlore explain` (`fixlore score` is in
fixlore.evaluate)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console

from fixlore.core.errors import ConfigError, NotFoundError

export_app = typer.Typer(help="Export the run's conclusions.", no_args_is_help=True)


def _since(value: str | None, meta: dict[str, Any]) -> Any:
    from fixlore.settings.config import parse_since

    if value is not None:
        return parse_since(value, "--since")
    raw = (meta.get("window") or {}).get("since") or meta.get("since")
    if not raw:
        raise ConfigError("give --since (ISO time of the window start)")
    return parse_since(raw, "the world's window.since")


def _link_config(meta: dict[str, Any], top_k: int | None, config: Path | None) -> Any:
    """The link settings of a run's settings (`fixlore.settings.config.load_settings`): ``--top-k`` over the
    config file over the world's own ``rank_top_k``."""
    from fixlore.link.stage import link_config
    from fixlore.settings.config import SettingFlags, load_settings

    world = {"rank_top_k": meta["rank_top_k"]} if meta.get("rank_top_k") is not None else {}
    return link_config(load_settings(config, SettingFlags(rank_top_k=top_k), world))


def load_or_build_cases(*, db: str | None = None, world: Path | None = None, cases: Path | None = None,
                        since: str | None = None, top_k: int | None = None, config: Path | None = None,
                        rebuild: bool = False, out: Path | None = None) -> list:
    """Cases from a case export, a store (its cases table, else built from its corpus), a world,
    or a `fixlore run` folder (``out``: its store)."""
    from fixlore.edges.caseexport import read_cases_jsonl
    from fixlore.link import build_cases

    if out is not None and not (db or world or cases):
        if not Path(out).is_dir():
            raise ConfigError(f"--out {out} is not a folder; give the folder of a `fixlore run`")
        db = f"sqlite:///{(Path(out) / 'fixlore.db').resolve()}"
    if cases is not None:
        return read_cases_jsonl(cases)
    if db:
        from fixlore.edges.inputs import check_db_url
        from fixlore.store import Store

        store = Store.open(check_db_url(db, must_exist=True))
        try:
            if not rebuild:
                saved = store.load_cases()
                if saved:
                    return saved
            corpus = store.load_corpus()
        finally:
            store.close()
        meta: dict[str, Any] = {}
    elif world is not None:
        from fixlore.sources.offline import load_world, read_world_meta

        meta = read_world_meta(world)
        corpus = load_world(world)
    else:
        raise ConfigError("give --out DIR (a `fixlore run` folder), --db URL, --world PATH or --cases FILE")
    built, _counts = build_cases(corpus, _since(since, meta), _link_config(meta, top_k, config))
    return built


def register(app: typer.Typer) -> None:
    @export_app.command("cases")
    def export_cases(
        fmt: str = typer.Option("jsonl", "--format", help="Only jsonl."),
        db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB",
                                         help="Store URL (sqlite:///path or postgresql+psycopg://...; env FIXLORE_DB)."),
        world: Optional[Path] = typer.Option(None, "--world", help="Build from a world folder instead of a store."),
        out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT", help="A `fixlore run` folder to export from (its store; env "
                                           "FIXLORE_OUT, a folder only); a path given here that is not a folder is the "
                                           "output file, as --to."),
        to: Optional[Path] = typer.Option(None, "--to", help="Output file (default: stdout)."),
        since: Optional[str] = typer.Option(None, "--since", help="Window start, ISO (default: the world's)."),
        top_k: Optional[int] = typer.Option(None, "--top-k", help="Pool cases sent to deep analysis."),
        config: Optional[Path] = typer.Option(None, "--config", envvar="FIXLORE_CONFIG", help="YAML with a `funnel:` section (env FIXLORE_CONFIG)."),
        rebuild: bool = typer.Option(False, "--rebuild", help="Ignore cases saved in the store; link its corpus again."),
    ) -> None:
        """One JSON object a line for every issue the run considered (case-export.md)."""
        from fixlore.edges.caseexport import write_cases_jsonl

        from fixlore.edges.inputs import check_new_file, check_number, from_environment

        if fmt != "jsonl":
            raise ConfigError(f"unknown format {fmt!r} (only jsonl)")
        check_number(top_k, "--top-k", low=0)
        if since is not None:
            _since(since, {})
        run_folder = out if out is not None and out.is_dir() else None
        if run_folder is None and from_environment("out"):
            raise ConfigError(f"FIXLORE_OUT={out} is not a run folder (give an output file as --to)")
        if out is not None and run_folder is None:
            if to is not None:
                raise ConfigError(f"--out {out} is not a run folder; give the output file as --to only")
            to = out                          # the older meaning of --out: the file to write
        if to is not None:
            check_new_file(to, "--to")
        cases = load_or_build_cases(db=db, world=world, since=since, top_k=top_k, config=config, rebuild=rebuild,
                                    out=run_folder)
        n = write_cases_jsonl(cases, to if to is not None else sys.stdout)
        if to is not None:
            Console(stderr=True).print(f"wrote {n} cases to {to}", highlight=False, markup=False)

    app.add_typer(export_app, name="export")

    @app.command("explain")
    def explain_cmd(
        key: str = typer.Argument(..., help="OWNER/REPO#N"),
        out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT",
                                           help="A `fixlore run` folder: read its store (env FIXLORE_OUT)."),
        db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB",
                                         help="Store URL instead of --out's (env FIXLORE_DB)."),
        world: Optional[Path] = typer.Option(None, "--world", help="Link a world folder instead of reading a store."),
        cases: Optional[Path] = typer.Option(None, "--cases", help="A case export (jsonl)."),
        since: Optional[str] = typer.Option(None, "--since", help="Window start, ISO (with --world; default the world's)."),
        as_json: bool = typer.Option(False, "--json", help="Print the case's export line instead."),
    ) -> None:
        """The evidence chain of one case: fix, evidence, timing, traps, every candidate PR considered."""
        from fixlore.link.explain import render_case
        from fixlore.rules.refs import issue_key
        from fixlore.wording.terminal import json_text

        wanted = issue_key(key)
        if wanted is None:
            raise ConfigError(f"expected OWNER/REPO#N, got {key!r}")
        if since is not None:
            _since(since, {})
        found = [c for c in load_or_build_cases(db=db, world=world, cases=cases, since=since, out=out)
                 if (c.repo, c.number) == wanted]
        if not found:
            raise NotFoundError(f"{key} is not among the run's cases")
        if as_json:
            typer.echo(json_text(found[0].to_export(), indent=2))
        else:
            Console().print(render_case(found[0]))
