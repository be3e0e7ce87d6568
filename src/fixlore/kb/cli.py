"""`fixlore kb ...`: build, search, inspect and calibrate the knowledge base.

Each command is a thin wrapper over the `KnowledgeBase` call of the same name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from fixlore.wording.terminal import json_text, text

DEFAULT_INDEX = ".fixlore/kb"

kb_app = typer.Typer(help="Knowledge base: documents, code and cases behind a hybrid (BM25 + vector) index.",
                     no_args_is_help=True)

IndexOpt = typer.Option(None, "--index", envvar="FIXLORE_KB_INDEX",
                        help=f"Index directory (env FIXLORE_KB_INDEX; default OUT/kb with --out, else {DEFAULT_INDEX}).")
OutOpt = typer.Option(None, "--out", envvar="FIXLORE_OUT",
                      help="A `fixlore run` folder: use its index, OUT/kb (env FIXLORE_OUT).")


def _index(index: Optional[Path], out: Optional[Path]) -> Path:
    """--index, else the run folder's kb/, else the default folder."""
    if index is not None:
        return index
    return Path(out) / "kb" if out is not None else Path(DEFAULT_INDEX)


def existing_index(index: Path) -> Path:
    """An index a reading command opens: it must be there (nothing is created for a search)."""
    from fixlore.edges.inputs import check_index
    from fixlore.retrieval.schema import DB_NAME

    return check_index(index, DB_NAME)


KINDS = ("doc", "code", "case")


def register(app: typer.Typer) -> None:
    """Add this stage's commands to the `fixlore` app."""
    app.add_typer(kb_app, name="kb")


def _progress_bar(console: Console) -> tuple[Progress, callable]:
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=console, transient=False)
    tasks: dict[str, int] = {}

    def update(phase: str, done: int, total: int) -> None:
        if phase not in tasks:
            label = {"index": "chunk + index", "embed": "embed"}.get(phase, phase)
            tasks[phase] = bar.add_task(label, total=total)
        bar.update(tasks[phase], completed=done, total=total)

    return bar, update


@kb_app.command("build")
def build(docs_dir: Path = typer.Argument(..., help="Folder of documents/code (a world's docs/ or a clone)."),
          index: Optional[Path] = IndexOpt, out: Optional[Path] = OutOpt,
          prefix: str = typer.Option("docs", help="Path prefix of the documents' names, e.g. docs/<owner>/<repo> "
                                                  "for a clone."),
          ) -> None:
    """Ingest a folder: chunk, index words, embed. Unchanged files cost nothing."""
    from fixlore.retrieval.base import KnowledgeBase

    from fixlore.core.errors import ConfigError

    from fixlore.edges.inputs import check_out_dir

    if not docs_dir.is_dir():
        raise ConfigError(f"{docs_dir} is not a folder; give the folder of documents to index")
    console = Console(stderr=True)
    index = check_out_dir(_index(index, out), "--index")
    kb = KnowledgeBase.open(index)
    bar, update = _progress_bar(console)
    with bar:
        stats = kb.ingest_folder(docs_dir, prefix=prefix, progress=update)
    console.print(f"{stats.seen} files: {stats.added} added, {stats.updated} updated, {stats.unchanged} unchanged, "
                  f"{stats.removed} removed, {stats.skipped} skipped; {stats.chunks} chunks, "
                  f"{stats.embedded} embedded in {stats.seconds:.1f}s -> {index}", highlight=False, markup=False)
    kb.close()


@kb_app.command("search")
def search(query: str = typer.Argument(..., help="What to look for (Chinese or English)."),
           index: Optional[Path] = IndexOpt, out: Optional[Path] = OutOpt,
           k: int = typer.Option(10, "-k", min=1, help="How many passages (1 or more)."),
           kind: Optional[str] = typer.Option(None, help="doc | code | case"),
           as_json: bool = typer.Option(False, "--json", help="JSON lines instead of a table."),
           ) -> None:
    """Search passages, best first by score (0..1); a score at or above the index's threshold is what
    the digest would cite (bold)."""
    from fixlore.edges.inputs import check_choice
    from fixlore.retrieval.base import KnowledgeBase

    check_choice(kind, "--kind", KINDS)
    kb = KnowledgeBase.open(existing_index(_index(index, out)), create=False)
    hits = kb.best(query, k=k, kind=kind)
    threshold = kb.threshold()
    kb.close()
    if as_json:
        for p in hits:
            typer.echo(json_text(p.to_dict(), indent=None))
        return
    citable = sum(1 for p in hits if p.score >= threshold)
    table = Table(title=f"{len(hits)} passages by score; {citable or 'none'} at or above the citation threshold "
                        f"{threshold:.3f}", show_lines=False)
    for col in ("doc", "chunk", "score", "snippet"):
        table.add_column(col, overflow="fold")
    for p in hits:
        snippet = " ".join(p.text.split())[:160]
        style = "bold" if p.score >= threshold else "dim"
        table.add_row(text(p.doc), text(p.chunk), text(f"{p.score:.3f}", style=style),
                      text((f"[{p.heading}] " if p.heading else "") + snippet))
    Console().print(table)


@kb_app.command("stats")
def stats(index: Optional[Path] = IndexOpt, out: Optional[Path] = OutOpt) -> None:
    """What the index holds."""
    from fixlore.retrieval.base import KnowledgeBase

    kb = KnowledgeBase.open(existing_index(_index(index, out)), create=False)
    info = kb.stats()
    kb.close()
    table = Table(show_header=False)
    for key, value in info.items():
        table.add_row(Text(key), Text(json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else str(value)))
    Console().print(table)
