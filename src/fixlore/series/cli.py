"""`fixlore series create|update|show|list|publish|rebuild`: thin calls of fixlore.series."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

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


_FRAMING_HELP = {
    "title": "The series' title, before the edition number.",
    "tagline": "One line under the title of every edition.",
    "agent_pointer": "An http(s) URL, or 'mcp' for our own `fixlore serve mcp`.",
    "agent_label": "The words before the pointer.",
}


def _given(**fields: Any) -> dict[str, Any]:
    """The settings named on the command line: an option left out is None (a list option: [])
    and changes nothing, so updating one field never resets another."""
    return {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in fields.items()
            if v is not None and not (isinstance(v, (list, tuple)) and not v)}


def _save(found: list[Any], db: Optional[str], out: Optional[Path], *, create: bool, merge: dict[str, Any] | None) -> None:
    """Save each series; with `merge`, an existing series keeps every field not given."""
    from fixlore.core.errors import NotFoundError
    from fixlore.series.model import Series
    from fixlore.store.ledger import Ledger

    store = _store(db, out, create=create)
    try:
        ledger = Ledger(store)
        for s in found:
            before = ledger.series(s.name)
            if before is None and not create:
                raise NotFoundError(f"no series '{s.name}' in this store; create it with `fixlore series create`")
            if before is not None and merge is not None:
                s = Series.from_dict({**before, **merge, "name": s.name}).check()
            changed = sorted(k for k, v in s.to_dict().items() if (before or {}).get(k) != v)
            ledger.save_series(s.to_dict())
            typer.echo(f"series {s.name}: " + ("saved" if before is None else
                                              "updated: " + (", ".join(changed) if changed else "nothing changed")))
    finally:
        store.close()


@series_app.command("create")
def create_cmd(
    name: Optional[str] = typer.Argument(None, help="Series name (letters, digits, . _ -)."),
    title: Optional[str] = typer.Option(None, "--title", help=_FRAMING_HELP["title"]),
    tagline: Optional[str] = typer.Option(None, "--tagline", help=_FRAMING_HELP["tagline"]),
    agent_pointer: Optional[str] = typer.Option(None, "--agent-pointer", help=_FRAMING_HELP["agent_pointer"]),
    agent_label: Optional[str] = typer.Option(None, "--agent-label", help=_FRAMING_HELP["agent_label"]),
    org: list[str] = typer.Option([], "--org", help="Organisation in scope (repeatable)."),
    org_out: list[str] = typer.Option([], "--org-out", help="Organisation left out (repeatable)."),
    repo: list[str] = typer.Option([], "--repo", help="owner/repo in scope (repeatable; default: every repo of the orgs)."),
    repo_out: list[str] = typer.Option([], "--repo-out", help="owner/repo left out (repeatable)."),
    since: Optional[str] = typer.Option(None, "--since", help="Where the first edition's window starts (ISO)."),
    top_k: Optional[int] = typer.Option(None, "--top-k", help="Cases analysed per edition."),
    first_number: Optional[int] = typer.Option(None, "--first-number", help="Number of the first edition recorded here (default 1)."),
    config: Optional[Path] = typer.Option(None, "--config", envvar="FIXLORE_CONFIG", help="TOML/YAML holding the series (or [series.NAME] tables) (env FIXLORE_CONFIG)."),
    db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB", help="The store holding the ledger (URL; default OUT/fixlore.db) (env FIXLORE_DB)."),
    out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT", help="Run folder whose fixlore.db keeps the ledger (env FIXLORE_OUT)."),
) -> None:
    """Set a series in the store's ledger. On a series that exists, only the settings given change
    (as `series update`): leaving an option out never empties it."""
    from fixlore.series.model import Series, series_from_file

    given = _given(title=title, tagline=tagline, agent_pointer=agent_pointer, agent_label=agent_label, orgs=org,
                   orgs_out=org_out, repos=repo, repos_out=repo_out, since=since, top_k=top_k, first_number=first_number)
    if config:
        found = series_from_file(str(config))
        if name:
            found = [s for s in found if s.name == name] or [Series.from_dict({"name": name, "title": ""})]
        for s in found:
            s.check()
        _save(found, db, out, create=True, merge=None)          # a file states the whole series
        return
    if not name:
        raise ConfigError("give NAME and --title (or --config FILE)")
    store_has = _existing(name, db, out)
    if not store_has and not title:
        raise ConfigError("give NAME and --title (or --config FILE)")
    found = [Series.from_dict({"name": name, "title": title or store_has.get("title", ""), **given}).check()]
    _save(found, db, out, create=True, merge=given)


def _existing(name: str, db: Optional[str], out: Optional[Path]) -> dict[str, Any]:
    """The series as the store has it, or {} (no store yet, or no such series)."""
    from fixlore.series.publish import default_db

    url = db or (default_db(out) if out is not None else None)
    if not url or (url.startswith("sqlite:///") and not Path(url[len("sqlite:///"):].split("?", 1)[0]).is_file()):
        return {}
    from fixlore.store.ledger import Ledger

    store = _store(db, out)
    try:
        return Ledger(store).series(name) or {}
    finally:
        store.close()


@series_app.command("update")
def update_cmd(
    name: str = typer.Argument(..., help="Series name."),
    title: Optional[str] = typer.Option(None, "--title", help=_FRAMING_HELP["title"]),
    tagline: Optional[str] = typer.Option(None, "--tagline", help=_FRAMING_HELP["tagline"] + " '' empties it."),
    agent_pointer: Optional[str] = typer.Option(None, "--agent-pointer", help=_FRAMING_HELP["agent_pointer"] + " '' removes it."),
    agent_label: Optional[str] = typer.Option(None, "--agent-label", help=_FRAMING_HELP["agent_label"]),
    org: list[str] = typer.Option([], "--org", help="Organisations in scope (repeatable; replaces the list)."),
    org_out: list[str] = typer.Option([], "--org-out", help="Organisations left out (repeatable; replaces the list)."),
    repo: list[str] = typer.Option([], "--repo", help="owner/repo in scope (repeatable; replaces the list)."),
    repo_out: list[str] = typer.Option([], "--repo-out", help="owner/repo left out (repeatable; replaces the list)."),
    top_k: Optional[int] = typer.Option(None, "--top-k", help="Cases analysed per edition."),
    db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB", help="The store holding the ledger (URL; default OUT/fixlore.db) (env FIXLORE_DB)."),
    out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT", help="Run folder whose fixlore.db keeps the ledger (env FIXLORE_OUT)."),
) -> None:
    """Change a series' framing field by field: only the options given change, the rest stays."""
    from fixlore.series.model import Series

    given = _given(title=title, tagline=tagline, agent_pointer=agent_pointer, agent_label=agent_label, orgs=org,
                   orgs_out=org_out, repos=repo, repos_out=repo_out, top_k=top_k)
    if not given:
        raise ConfigError("give at least one setting to change (see `fixlore series update --help`)")
    _save([Series(name=name, title="-")], db, out, create=False, merge=given)


@series_app.command("show")
def show_cmd(name: str = typer.Argument(..., help="Series name."), db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB", help="The store holding the ledger (URL; default OUT/fixlore.db) (env FIXLORE_DB)."),
             out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT", help="Run folder whose fixlore.db keeps the ledger (env FIXLORE_OUT).")) -> None:
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


@series_app.command("weights")
def weights_cmd(name: str = typer.Argument(..., help="Series name."),
                out: Path = typer.Option(..., "--out", envvar="FIXLORE_OUT", help="Series folder (its fixlore.db keeps the ledger; the weights are saved there) (env FIXLORE_OUT)."),
                db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB", help="The store holding the ledger (URL; default OUT/fixlore.db) (env FIXLORE_DB)."),
                overrides: Optional[Path] = typer.Option(None, "--overrides", help="The editors' file (default OUT/overrides.yaml)."),
                show_only: bool = typer.Option(False, "--dry-run", help="Fit and print the figures; save nothing.")) -> None:
    """Learn the value weights from the editors' past decisions (published / dropped cases and
    their keep / drop overrides); print the held-out figures; save them beside the ledger, where
    the next edition's plan uses them."""
    from fixlore.edges.atomicfile import write_atomic
    from fixlore.settings.overrides import load_overrides, series_overrides
    from fixlore.rules.funnel.learned import case_features
    from fixlore.series import weights as w
    from fixlore.store.ledger import Ledger

    path = overrides or series_overrides(out)
    found = load_overrides(path) if path is not None else None
    store = _store(db, out)
    try:
        ledger = Ledger(store)
        if ledger.series(name) is None:
            from fixlore.core.errors import NotFoundError

            raise NotFoundError(f"no series '{name}' in this store")
        decided = w.decisions(ledger.rows(name), found.keys_of("keep") if found else (),
                              found.keys_of("drop") if found else ())
    finally:
        store.close()
    saved = w.fit({k: (case_features(c), y) for k, (c, y) in decided.items()})
    if not show_only:
        write_atomic(w.weights_file(out, name), json.dumps(saved, ensure_ascii=False, indent=2) + "\n")
    _echo({k: v for k, v in saved.items() if k not in ("mean", "scale")}
          | {"saved": None if show_only else str(w.weights_file(out, name))})


@series_app.command("list")
def list_cmd(db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB", help="The store holding the ledger (URL; default OUT/fixlore.db) (env FIXLORE_DB)."), out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT", help="Run folder whose fixlore.db keeps the ledger (env FIXLORE_OUT).")) -> None:
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
    out: Path = typer.Option(..., "--out", envvar="FIXLORE_OUT", help="Run folder (fixlore.db keeps the ledger; editions/ gets the files) (env FIXLORE_OUT)."),
    world: Optional[Path] = typer.Option(None, "--world", help="Replay this world folder on loopback."),
    as_of: Optional[str] = typer.Option(None, "--as-of", help="With --world: the world as it stood then; the window ends there."),
    since: Optional[str] = typer.Option(None, "--since", help="Window start (default: where the last edition ended)."),
    repo: list[str] = typer.Option([], "--repo", help="Special edition: only these owner/repo (repeatable)."),
    theme: list[str] = typer.Option([], "--theme", help="Special edition: only cases whose theme contains this (repeatable)."),
    db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB", help="The store holding the ledger (URL; default OUT/fixlore.db) (env FIXLORE_DB)."),
    config: Optional[Path] = typer.Option(None, "--config", envvar="FIXLORE_CONFIG", help="Run settings (TOML/YAML), as for `fixlore run` (env FIXLORE_CONFIG)."),
    platform: Optional[str] = typer.Option(None, "--platform", help="gitcode or github (default: the config's or the world's)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what the edition would hold; write no files, record nothing, use no number."),
    allow_empty: bool = typer.Option(False, "--allow-empty", help="Publish even an edition with no rows, or a focus on repos the harvest does not know."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing on success (no JSON)."),
    on_findings: str = typer.Option("fail", "--on-findings", help="The editorial check on a finding: fail "
                                    "(nothing published, no number used, exit 1) or mark (published with the "
                                    "rows marked and the findings disclosed)."),
    reconcile: bool = typer.Option(False, "--reconcile", envvar="FIXLORE_RECONCILE", help="Each repo's issues listed from the window start, not its watermark: every stored issue of the window "
                                   "the list no longer carries is asked for and marked deleted if gone. Costs the "
                                   "whole window's issue-list pages again (env FIXLORE_RECONCILE)."),
) -> None:
    """Make the next edition of series NAME: harvest, choose its cases (new closes, the backlog, update rows), analyse, write OUT/editions/NAME-NNN/ and record it in the ledger."""
    from fixlore.compose.gate import mode_of
    from fixlore.series.publish import publish_edition
    from fixlore.settings.config import SettingFlags, parse_since

    mode_of(on_findings, "fail")
    if world is None and not platform and not config:
        raise ConfigError("give --world PATH, or --platform/--config for the real site")
    if as_of is not None and world is None:
        raise ConfigError("--as-of needs --world (a live site cannot be asked about the past)")
    when = parse_since(as_of, "--as-of") if as_of is not None else None
    start = parse_since(since, "--since") if since is not None else None
    result = publish_edition(name, out=out, world=world, db=db, config=config, as_of=when, since=start,
                             focus={"repos": list(repo), "themes": list(theme)},
                             flags=SettingFlags(platform=platform), quiet=quiet, dry_run=dry_run,
                             allow_empty=allow_empty, on_findings=mode_of(on_findings, "fail"), reconcile=reconcile)
    if not quiet or dry_run:
        _echo(result)


@series_app.command("rebuild")
def rebuild_cmd(
    name: str = typer.Argument(..., help="Series name."), number: int = typer.Argument(..., help="Edition number."),
    to: Path = typer.Option(..., "--to", help="Folder for the rebuilt files."),
    db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB", help="The store holding the ledger (URL; default OUT/fixlore.db) (env FIXLORE_DB)."), out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT", help="Run folder whose fixlore.db keeps the ledger (env FIXLORE_OUT)."),
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
