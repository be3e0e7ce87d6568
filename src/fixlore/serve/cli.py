"""`fixlore serve http|mcp` and `fixlore cases search|status|related`: the knowledge base of a run.

Each command is a thin wrapper over the `Knowledge` call of the same name. Case text is hostile
input: it reaches the terminal through `fixlore.wording.terminal` only (cleaned as pages are, never read
as console markup; JSON with the characters a terminal would obey escaped).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fixlore.serve.limits import MAX_K, MIN_COSINE, MIN_COVERAGE
from fixlore.wording.terminal import json_text, plain, text

serve_app = typer.Typer(help="Serve a run's knowledge base (cases + documents), read-only: HTTP API and MCP tools.",
                        no_args_is_help=True)
cases_app = typer.Typer(help="Ask a run's knowledge base: cases by symptom, fix status, related cases.",
                        no_args_is_help=True)

OutOpt = typer.Option(None, "--out", envvar="FIXLORE_OUT",
                      help="A `fixlore run` output folder (its fixlore.db, kb/ and cases-index/; env FIXLORE_OUT).")
DbOpt = typer.Option(None, "--db", envvar="FIXLORE_DB",
                     help="Store URL instead of --out's (sqlite:///path or postgresql+psycopg://...; env FIXLORE_DB).")
DocsOpt = typer.Option(None, "--index", help="Document index folder (default: OUT/kb).")
CaseIdxOpt = typer.Option(None, "--case-index", help="Case index folder (default: OUT/cases-index; built if missing).")


def register(app: typer.Typer) -> None:
    app.add_typer(serve_app, name="serve")
    app.add_typer(cases_app, name="cases")


def _open(out: Path | None, db: str | None, index: Path | None, case_index: Path | None) -> Any:
    from fixlore.serve.knowledge import Knowledge, Locations

    from fixlore.edges.inputs import check_db_url

    err = Console(stderr=True)
    if db is not None:
        db = check_db_url(db, must_exist=True)
    if index is not None:
        from fixlore.edges.inputs import check_index
        from fixlore.retrieval.schema import DB_NAME

        check_index(index, DB_NAME)
    if case_index is not None:
        from fixlore.edges.inputs import check_out_dir

        check_out_dir(case_index, "--case-index")          # built there if missing
    where = Locations.of(out=out, db=db, docs=index, cases=case_index)
    _reachable(where.db)
    if not (where.cases / "kb.sqlite").is_file():
        err.print(Text(f"indexing the cases for search (once) -> {where.cases}"), highlight=False)
    return Knowledge.open(where)


def _reachable(db: str) -> None:
    """A database server that does not answer is the store failing (exit 5), said before any
    index is built; a SQLite file was checked to exist already."""
    if db.startswith("sqlite"):
        return
    import sqlalchemy as sa

    from fixlore.core.errors import StoreError
    from fixlore.edges.inputs import redact_url

    engine = sa.create_engine(db)
    try:
        with engine.connect():
            pass
    except sa.exc.OperationalError as exc:
        first = (str(exc.orig).strip().splitlines() or [type(exc.orig).__name__])[0]
        raise StoreError(f"cannot open the store {redact_url(db)}: {first}") from None
    finally:
        engine.dispose()


def _loopback_check(host: str, console: Console) -> bool:
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        console.print(Text(f"note: serving on {host}, not only on this machine (read-only, no authentication)",
                           style="yellow"), highlight=False)
    return loopback


@serve_app.command("http")
def serve_http(out: Optional[Path] = OutOpt, db: Optional[str] = DbOpt, index: Optional[Path] = DocsOpt,
               case_index: Optional[Path] = CaseIdxOpt,
               host: str = typer.Option("127.0.0.1", help="Address to listen on (loopback by default)."),
               port: int = typer.Option(8765, min=1, max=65535, help="Port (1-65535)."),
               workers: Optional[int] = typer.Option(None, min=1, max=64,
                                                     help="Serving processes, forked once the knowledge base is open "
                                                          "(default: one per core this process may run on); each "
                                                          "memoises its own answers (docs/serve.md)."),
               ) -> None:
    """JSON API under /api (OpenAPI at /api/openapi.json) and a search page at /."""
    from fixlore.serve import forked
    from fixlore.serve.http import LOOPBACK_HOSTS, create_app

    workers = workers or forked.default_workers()
    console = Console(stderr=True)
    loopback = _loopback_check(host, console)
    knowledge = _open(out, db, index, case_index)
    console.print(Text(f"serving {knowledge.stats()['searchable_cases']} cases on http://{host}:{port}/ "
                       f"({workers} process{'es' if workers > 1 else ''})"), highlight=False)
    try:
        app = create_app(knowledge, allowed_hosts=LOOPBACK_HOSTS if loopback else None)
        forked.serve(knowledge, app, host, port, workers)
    finally:
        knowledge.close()


@serve_app.command("mcp")
def serve_mcp(out: Optional[Path] = OutOpt, db: Optional[str] = DbOpt, index: Optional[Path] = DocsOpt,
              case_index: Optional[Path] = CaseIdxOpt,
              transport: str = typer.Option("stdio", help="stdio (an agent starts this command) or http "
                                                          "(streamable HTTP at http://HOST:PORT/mcp)."),
              host: str = typer.Option("127.0.0.1", help="With --transport http: address (loopback by default)."),
              port: int = typer.Option(8766, min=1, max=65535, help="With --transport http: port (1-65535)."),
              ) -> None:
    """MCP tools: search_cases, get_case, fix_status, related_cases, search_docs."""
    from fixlore.core.errors import ConfigError
    from fixlore.serve.mcp_server import build_server

    if transport not in ("stdio", "http"):
        raise ConfigError(f"--transport must be stdio or http, not {transport!r}")
    console = Console(stderr=True)
    knowledge = _open(out, db, index, case_index)
    try:
        server = build_server(knowledge)
        if transport == "stdio":
            server.run("stdio")
        else:
            _loopback_check(host, console)
            console.print(Text(f"MCP (streamable HTTP) on http://{host}:{port}/mcp"), highlight=False)
            server.run("streamable-http", host=host, port=port)
    finally:
        knowledge.close()


def _print_cards(cards: list[dict[str, Any]], title: str) -> None:
    if not cards:
        Console().print(text(f"{title}: no case past the relevance cut-off (key-term coverage {MIN_COVERAGE} "
                             f"or cosine {MIN_COSINE}: docs/serve.md)"), highlight=False)
        return
    table = Table(title=text(title), title_justify="left", show_lines=True)
    for col in ("case", "status", "fix", "problem / answer"):
        table.add_column(col, overflow="fold")
    for c in cards:
        fixes = ", ".join(f"{f['pr']} ({f['role']}{', ' + f['base_ref'] if f['base_ref'] else ''})" for f in c["fix"])
        head = text(c["key"], style="bold")
        head.append("\n" + plain(c["title"]))
        if c.get("why"):
            head.append("\n" + plain(c["why"]), style="dim")
        if c.get("score") is not None:
            head.append(f"\nscore {c['score']:.3f}", style="dim")
        status = text(c["status"])
        for trap in c["traps"]:
            status.append("\n⚠ " + plain(trap["name"]), style="yellow")
        body = text(c["problem"])
        if c["problem_from"] == "fix_pr":
            body = Text("fix PR: ", style="dim") + body
        if c["answer"]:
            body.append("\n" if body else "")
            if c["answer_from"] == "best_reply":
                body.append("reply: ", style="dim")
            body.append(plain(c["answer"]))
        table.add_row(head, status, text(fixes), body)
    Console().print(table)


@cases_app.command("search")
def cases_search(symptom: str = typer.Argument(..., help="The symptom: an error message, what you did."),
                 k: int = typer.Option(5, "-k", min=1, max=MAX_K, help=f"How many cases (1..{MAX_K})."),
                 repo: Optional[str] = typer.Option(None, help="Only this repository (OWNER/REPO)."),
                 out: Optional[Path] = OutOpt, db: Optional[str] = DbOpt, index: Optional[Path] = DocsOpt,
                 case_index: Optional[Path] = CaseIdxOpt,
                 as_json: bool = typer.Option(False, "--json", help="JSON instead of a table."),
                 ) -> None:
    """Closed issues that match a symptom, with their fix status and answer, best first by score
    (nothing under the relevance cut-off: see docs/serve.md)."""
    with _open(out, db, index, case_index) as knowledge:
        cards = _ask(lambda: knowledge.search_cases(symptom, k=k, repo=repo))
    if as_json:
        typer.echo(json_text(cards, indent=1))
    else:
        _print_cards(cards, f"cases for: {symptom}")


@cases_app.command("status")
def cases_status(key: str = typer.Argument(..., help="OWNER/REPO#N or the issue's URL."),
                 out: Optional[Path] = OutOpt, db: Optional[str] = DbOpt, index: Optional[Path] = DocsOpt,
                 case_index: Optional[Path] = CaseIdxOpt,
                 as_json: bool = typer.Option(False, "--json", help="JSON instead of text."),
                 ) -> None:
    """Was the issue really fixed: the fix PRs, where they landed, the traps."""
    with _open(out, db, index, case_index) as knowledge:
        status = _ask(lambda: knowledge.fix_status(key))
    if as_json:
        typer.echo(json_text(status, indent=1))
        return
    console = Console()
    line = text(f"{status['key']}  ", style="bold")
    line.append(plain(status["status"]), style="green" if status["status"] == "fixed" else "yellow")
    line.append(plain(f"\n{status['title']}\n{status['url']}"))
    console.print(line)
    for label, rows in (("fix", status["fix"]), ("backport", status["backports"]), ("not landed", status["not_landed"])):
        for f in rows:
            console.print(text(f"  {label}: {f['pr']} {f['state']} {f['merged_at']} on {f['base_ref'] or '?'}  {f['url']}"))
    console.print(text(f"  timing: {status['timing']}" + (f" — {status['timing_note']}" if status["timing_note"] else "")))
    for trap in status["traps"]:
        console.print(text(f"  ⚠ {trap['name']}: {trap['note']}", style="yellow"))
    if status.get("editions"):
        seen = ", ".join(f"{e['series']} No. {e['edition']}" + (f" ({e['role']})" if e["role"] != "new" else "")
                         for e in status["editions"])
        console.print(text(f"  editions: {seen}"))


@cases_app.command("related")
def cases_related(key: str = typer.Argument(..., help="OWNER/REPO#N or the issue's URL."),
                  k: int = typer.Option(5, "-k", min=1, max=MAX_K, help=f"How many cases (1..{MAX_K})."),
                  out: Optional[Path] = OutOpt, db: Optional[str] = DbOpt, index: Optional[Path] = DocsOpt,
                  case_index: Optional[Path] = CaseIdxOpt,
                  as_json: bool = typer.Option(False, "--json", help="JSON instead of a table."),
                  ) -> None:
    """Cases fixed by the same PR, of the same theme, or with a similar report: why, and the score."""
    with _open(out, db, index, case_index) as knowledge:
        cards = _ask(lambda: knowledge.related_cases(key, k=k))
    if as_json:
        typer.echo(json_text(cards, indent=1))
    else:
        _print_cards(cards, f"related to {key}")


def _ask(call):
    from fixlore.core.errors import ConfigError

    try:
        return call()
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
