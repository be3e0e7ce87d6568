"""`fixlore series create|show|list|publish|rebuild`: thin calls of fixlore.series."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from fixlore.settings.config import SettingFlags, parse_since
from fixlore.core.errors import ConfigError
from fixlore.wording.terminal import json_text, plain

series_app = typer.Typer(help="A digest series: editions, the published ledger, the backlog carried forward.",
                         no_args_is_help=True)


def _store(db: Optional[str], out: Optional[Path], *, create: bool = False):
    """The store holding the ledger; only `series create` may start one (in an --out folder that
    exists or can be made): the others read a store that must be there already."""
    from fixlore.edges.inputs import check_db_url, check_out_dir
    from fixlore.series.publish import default_db
    from fixlore.store import Store

    if not db and not out:
        raise ConfigError("give --db URL or --out FOLDER (its fixlore.db)")
    if out is not None and not db:
        if create:
            check_out_dir(out)
        elif not Path(out).is_dir():
            raise ConfigError(f"--out {out} is not a folder; give the run folder whose fixlore.db keeps the ledger")
    url = check_db_url(db or default_db(out), must_exist=not create,
                       made_here=Path(out) if create and out is not None and not db else None)
    return Store.open(url)


def _echo(data: Any) -> None:
    typer.echo(json_text(data, indent=2))


@series_app.command("create")
def create_cmd(
    name: Optional[str] = typer.Argument(None, help="Series name (letters, digits, . _ -)."),
    title: Optional[str] = typer.Option(None, "--title", help="The series' title, before the edition number."),
    tagline: str = typer.Option("", "--tagline", help="One line under the title of every edition."),
    agent_pointer: str = typer.Option("", "--agent-pointer", help="An http(s) URL, or 'mcp' for our own `fixlore serve mcp`."),
    agent_label: str = typer.Option("", "--agent-label", help="The words before the pointer."),
    org: list[str] = typer.Option([], "--org", help="Organisation in scope (repeatable)."),
    org_out: list[str] = typer.Option([], "--org-out", help="Organisation left out (repeatable)."),
    repo: list[str] = typer.Option([], "--repo", help="owner/repo in scope (repeatable; default: every repo of the orgs)."),
    repo_out: list[str] = typer.Option([], "--repo-out", help="owner/repo left out (repeatable)."),
    since: Optional[str] = typer.Option(None, "--since", help="Where the first edition's window starts (ISO)."),
    top_k: Optional[int] = typer.Option(None, "--top-k", help="Cases analysed per edition."),
    first_number: int = typer.Option(1, "--first-number", help="Number of the first edition recorded here."),
    config: Optional[Path] = typer.Option(None, "--config", help="TOML/YAML holding the series (or [series.NAME] tables)."),
    db: Optional[str] = typer.Option(None, "--db", help="The store holding the ledger (URL; default OUT/fixlore.db)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Run folder whose fixlore.db keeps the ledger."),
) -> None:
    """Set a series (or update its framing) in the store's ledger."""
    from fixlore.series.model import Series, series_from_file
    from fixlore.store.ledger import Ledger

    if config:
        found = series_from_file(str(config))
        if name:
            found = [s for s in found if s.name == name] or [Series.from_dict({"name": name, "title": ""})]
        for s in found:
            s.check()
    else:
        if not name or not title:
            raise ConfigError("give NAME and --title (or --config FILE)")
        found = [Series.from_dict({"name": name, "title": title, "tagline": tagline, "agent_pointer": agent_pointer,
                                   "agent_label": agent_label, "orgs": list(org), "orgs_out": list(org_out),
                                   "repos": list(repo), "repos_out": list(repo_out), "since": since or "",
                                   "top_k": top_k, "first_number": first_number}).check()]
    store = _store(db, out, create=True)
    try:
        for s in found:
            Ledger(store).save_series(s.to_dict())
            typer.echo(f"series {s.name}: saved")
    finally:
        store.close()


@series_app.command("show")
def show_cmd(name: str = typer.Argument(..., help="Series name."), db: Optional[str] = typer.Option(None, "--db", help="The store holding the ledger (URL; default OUT/fixlore.db)."),
             out: Optional[Path] = typer.Option(None, "--out", help="Run folder whose fixlore.db keeps the ledger.")) -> None:
    """The series and its editions (window, kind, counts)."""
    from fixlore.store.ledger import Ledger

    store = _store(db, out)
    try:
        ledger = Ledger(store)
        data = ledger.series(name)
        if data is None:
            from fixlore.core.errors import NotFoundError

            raise NotFoundError(f"no series '{name}' in this store")
        editions = [{k: e[k] for k in ("number", "kind", "focus", "window_since", "window_until", "counts", "published_at")}
                    for e in ledger.editions(name)]
        _echo({"series": data, "editions": editions})
    finally:
        store.close()


@series_app.command("list")
def list_cmd(db: Optional[str] = typer.Option(None, "--db", help="The store holding the ledger (URL; default OUT/fixlore.db)."), out: Optional[Path] = typer.Option(None, "--out", help="Run folder whose fixlore.db keeps the ledger.")) -> None:
    """Every series in the store, with its number of editions."""
    from fixlore.store.ledger import Ledger

    store = _store(db, out)
    try:
        ledger = Ledger(store)
        for s in ledger.all_series():
            eds = ledger.editions(s["name"])
            last = eds[-1]["number"] if eds else "-"
            typer.echo(plain(f"{s['name']}\t{s['title']}\teditions: {len(eds)}\tlast: {last}"))
    finally:
        store.close()


@series_app.command("publish")
def publish_cmd(
    name: str = typer.Argument(..., help="Series name."),
    out: Path = typer.Option(..., "--out", help="Run folder (fixlore.db keeps the ledger; editions/ gets the files)."),
    world: Optional[Path] = typer.Option(None, "--world", help="Replay this world folder on loopback."),
    as_of: Optional[str] = typer.Option(None, "--as-of", help="With --world: the world as it stood then; the window ends there."),
    since: Optional[str] = typer.Option(None, "--since", help="Window start (default: where the last edition ended)."),
    repo: list[str] = typer.Option([], "--repo", help="Special edition: only these owner/repo (repeatable)."),
    theme: list[str] = typer.Option([], "--theme", help="Special edition: only cases whose theme contains this (repeatable)."),
    db: Optional[str] = typer.Option(None, "--db", help="The store holding the ledger (URL; default OUT/fixlore.db)."),
    config: Optional[Path] = typer.Option(None, "--config", help="Run settings (TOML/YAML), as for `fixlore run`."),
    platform: Optional[str] = typer.Option(None, "--platform", help="gitcode or github (default: the config's or the world's)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress and no summary."),
) -> None:
    """Make the next edition of series NAME: harvest, choose its cases (new closes, the backlog, update rows), analyse, write OUT/editions/NAME-NNN/ and record it in the ledger."""
    from fixlore.series.publish import publish_edition

    if world is None and not platform and not config:
        raise ConfigError("give --world PATH, or --platform/--config for the real site")
    if as_of is not None and world is None:
        raise ConfigError("--as-of needs --world (a live site cannot be asked about the past)")
    when = parse_since(as_of, "--as-of") if as_of is not None else None
    start = parse_since(since, "--since") if since is not None else None
    result = publish_edition(name, out=out, world=world, db=db, config=config, as_of=when, since=start,
                             focus={"repos": list(repo), "themes": list(theme)},
                             flags=SettingFlags(platform=platform), quiet=quiet)
    _echo(result)


@series_app.command("rebuild")
def rebuild_cmd(
    name: str = typer.Argument(..., help="Series name."), number: int = typer.Argument(..., help="Edition number."),
    to: Path = typer.Option(..., "--to", help="Folder for the rebuilt files."),
    db: Optional[str] = typer.Option(None, "--db", help="The store holding the ledger (URL; default OUT/fixlore.db)."), out: Optional[Path] = typer.Option(None, "--out", help="Run folder whose fixlore.db keeps the ledger."),
) -> None:
    """Build edition NUMBER again from the ledger alone; fail unless every file matches its published hash."""
    from fixlore.edges.inputs import check_out_dir
    from fixlore.series.publish import rebuild_edition, write_files

    if number < 1:
        raise ConfigError(f"edition NUMBER starts at 1, not {number}")
    check_out_dir(to, "--to")
    store = _store(db, out)
    try:
        files = rebuild_edition(store, name, number)
    finally:
        store.close()
    write_files(to, files)
    typer.echo(f"edition {number} of {name}: {len(files)} files rebuilt byte for byte into {to}")


def register(app: typer.Typer) -> None:
    app.add_typer(series_app, name="series")
