"""Commands of the link stage: `fixlore export cases`, `fixlore explain`, `fixlore score`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from fixlore.enums import FunnelStage
from fixlore.errors import ConfigError, FixloreError

export_app = typer.Typer(help="Export the run's conclusions.", no_args_is_help=True)


def _since(value: str | None, meta: dict[str, Any]) -> Any:
    from fixlore.timeutil import parse_time

    raw = value or (meta.get("window") or {}).get("since") or meta.get("since")
    since = parse_time(raw) if raw else None
    if since is None:
        raise ConfigError("give --since (ISO time of the window start)")
    return since


def _link_config(meta: dict[str, Any], top_k: int | None, config: Path | None) -> Any:
    from fixlore.rules.funnel import FunnelConfig
    from fixlore.link.config import LinkConfig

    mapping: dict[str, Any] = {}
    if config is not None:
        from fixlore.inputs import load_yaml_mapping

        funnel = load_yaml_mapping(config, "config file").get("funnel") or {}
        if not isinstance(funnel, dict):
            raise ConfigError(f"config file {config}: funnel must be a mapping")
        mapping = dict(funnel)
    if meta.get("rank_top_k") is not None:
        mapping.setdefault("rank_top_k", meta["rank_top_k"])
    if top_k is not None:
        mapping["rank_top_k"] = top_k
    return LinkConfig(funnel=FunnelConfig.from_mapping(mapping))


def load_or_build_cases(*, db: str | None = None, world: Path | None = None, cases: Path | None = None,
                        since: str | None = None, top_k: int | None = None, config: Path | None = None,
                        rebuild: bool = False, out: Path | None = None) -> list:
    """Cases from a case export, a store (its cases table, else built from its corpus), a world,
    or a `fixlore run` folder (``out``: its store)."""
    from fixlore.link import build_cases
    from fixlore.caseexport import read_cases_jsonl

    if out is not None and not (db or world or cases):
        if not Path(out).is_dir():
            raise ConfigError(f"--out {out} is not a folder; give the folder of a `fixlore run`")
        db = f"sqlite:///{(Path(out) / 'fixlore.db').resolve()}"
    if cases is not None:
        return read_cases_jsonl(cases)
    if db:
        from fixlore.inputs import check_db_url
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


_KEY = re.compile(r"^(?P<repo>[^#\s]+/[^#\s]+)#(?P<n>\d+)$")


def register(app: typer.Typer) -> None:
    @export_app.command("cases")
    def export_cases(
        fmt: str = typer.Option("jsonl", "--format", help="Only jsonl."),
        db: Optional[str] = typer.Option(None, "--db", envvar="FIXLORE_DB",
                                         help="Store URL (sqlite:///path or postgresql+psycopg://...; env FIXLORE_DB)."),
        world: Optional[Path] = typer.Option(None, "--world", help="Build from a world folder instead of a store."),
        out: Optional[Path] = typer.Option(None, "--out", help="A `fixlore run` folder to export from (its store); "
                                           "a path that is not a folder is the output file, as --to."),
        to: Optional[Path] = typer.Option(None, "--to", help="Output file (default: stdout)."),
        since: Optional[str] = typer.Option(None, "--since", help="Window start, ISO (default: the world's)."),
        top_k: Optional[int] = typer.Option(None, "--top-k", help="Pool cases sent to deep analysis."),
        config: Optional[Path] = typer.Option(None, "--config", help="YAML with a `funnel:` section."),
        rebuild: bool = typer.Option(False, "--rebuild", help="Ignore cases saved in the store; link its corpus again."),
    ) -> None:
        """One JSON object a line for every issue the run considered (case-export.md)."""
        from fixlore.caseexport import write_cases_jsonl

        if fmt != "jsonl":
            raise ConfigError(f"unknown format {fmt!r} (only jsonl)")
        run_folder = out if out is not None and out.is_dir() else None
        if out is not None and run_folder is None:
            if to is not None:
                raise ConfigError(f"--out {out} is not a run folder; give the output file as --to only")
            to = out                          # the older meaning of --out: the file to write
        if to is not None and to.is_dir():
            raise ConfigError(f"--to {to} is a folder; give a file")
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

        m = _KEY.match(key.strip())
        if not m:
            raise ConfigError(f"expected OWNER/REPO#N, got {key!r}")
        found = [c for c in load_or_build_cases(db=db, world=world, cases=cases, since=since, out=out)
                 if c.repo == m.group("repo") and c.number == int(m.group("n"))]
        if not found:
            raise FixloreError(f"{key} is not among the run's cases")
        if as_json:
            typer.echo(json.dumps(found[0].to_export(), ensure_ascii=False, indent=2))
        else:
            Console().print(render_case(found[0]))

    @app.command("score")
    def score_cmd(
        truth: Optional[Path] = typer.Option(None, "--truth", help="A world's truth.yaml (with --cases or --out)."),
        cases: Optional[Path] = typer.Option(None, "--cases", help="A case export (jsonl); default OUT/cases.jsonl."),
        out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT",
                                           help="A `fixlore run` folder: score its cases.jsonl (env FIXLORE_OUT)."),
        world: list[Path] = typer.Option([], "--world", help="A world folder: link it and score it against its "
                                                             "truth.yaml; repeat for one report per world."),
        split: Optional[str] = typer.Option(None, "--split", help="Score only truth rows with this `split` "
                                                                  "(e.g. tune, tune2, heldout2)."),
        as_json: bool = typer.Option(False, "--json", help="Print the full report as JSON."),
        show: int = typer.Option(15, "--show", help="How many mismatching keys to list."),
    ) -> None:
        """Compare case exports with truth, key by key, one report per world."""
        from fixlore.caseexport import read_cases_jsonl
        from fixlore.link.score import load_truth, score, split_truth

        if cases is None and out is not None and not world:
            cases = Path(out) / "cases.jsonl"
        if world and (truth is not None or cases is not None):
            raise ConfigError("give --world (repeatable) or --truth with --cases / --out, not both")
        if not world and (truth is None or cases is None):
            raise ConfigError("give --truth with --cases FILE or --out DIR (a `fixlore run` folder), or one or more --world")
        runs: dict[str, tuple[dict, list]] = {}
        if world:
            for w in world:
                runs[w.name] = (load_truth(w / "truth.yaml"), load_or_build_cases(world=w))
        else:
            runs[truth.parent.name or str(truth)] = (load_truth(truth), read_cases_jsonl(cases))
        reports = {name: score(split_truth(t, split), c).as_dict() for name, (t, c) in runs.items()}
        if as_json:
            one = len(reports) == 1 and not world
            typer.echo(json.dumps(next(iter(reports.values())) if one else reports, ensure_ascii=False, indent=2))
            return
        console = Console()
        if len(reports) > 1:
            print_worlds(console, reports, split)
        for name, report in reports.items():
            if len(reports) > 1:
                console.print(f"\n[bold]{name}[/bold]")
            print_score(console, report, show)


def print_worlds(console: Console, reports: dict[str, dict[str, Any]], split: str | None = None) -> None:
    """One row per world: the figures a change is judged by."""
    table = Table(title="per world" + (f" (split {split})" if split else ""), title_justify="left")
    for col in ("world", "keys", "funnel", "fix P", "fix R", "traps P", "traps R", "timing"):
        table.add_column(col, justify="left" if col == "world" else "right")
    for name, r in reports.items():
        fix, traps = r["fix"]["repo_number_role"], r["traps"]
        table.add_row(name, str(r["keys"]), f"{r['funnel_accuracy_pre_analysis']:.3f}", f"{fix['precision']:.3f}",
                      f"{fix['recall']:.3f}", f"{traps['precision']:.3f}", f"{traps['recall']:.3f}",
                      f"{r['timing_accuracy']:.3f}")
    console.print(table)


def _pr_row(table: Table, name: str, pr: dict[str, Any]) -> None:
    table.add_row(name, f"{pr['precision']:.3f}", f"{pr['recall']:.3f}", f"{pr['tp']}/{pr['fp']}/{pr['fn']}")


def print_score(console: Console, report: dict[str, Any], show: int = 15) -> None:
    summary = Table(title=f"score over {report['keys']} truth keys", title_justify="left")
    summary.add_column("metric")
    summary.add_column("value", justify="right")
    summary.add_row("funnel accuracy", f"{report['funnel_accuracy']:.3f}")
    summary.add_row("funnel accuracy (analysis≡selected)", f"{report['funnel_accuracy_pre_analysis']:.3f}")
    summary.add_row("timing accuracy", f"{report['timing_accuracy']:.3f} of {report['timing_total']}")
    summary.add_row("theme pair agreement", f"{report['themes']['pair_agreement']:.3f} ({report['themes']['pairs']} pairs)")
    summary.add_row("theme adjusted Rand", f"{report['themes']['adjusted_rand']:.3f}")
    console.print(summary)
    pr = Table(title="precision / recall", title_justify="left")
    for col in ("what", "precision", "recall", "tp/fp/fn"):
        pr.add_column(col, justify="right" if col != "what" else "left")
    _pr_row(pr, "fix (repo, number, role)", report["fix"]["repo_number_role"])
    _pr_row(pr, "fix (repo, number)", report["fix"]["repo_number"])
    _pr_row(pr, "evidence kinds", report["evidence"])
    for kind, v in report["evidence_by_kind"].items():
        _pr_row(pr, f"  {kind}", v)
    _pr_row(pr, "traps", report["traps"])
    for kind, v in report["traps_by_kind"].items():
        _pr_row(pr, f"  {kind}", v)
    _pr_row(pr, "kb_refs (by doc)", report["kb_refs"])
    console.print(pr)
    counts = Table(title="funnel counts", title_justify="left")
    counts.add_column("stage")
    counts.add_column("truth", justify="right")
    counts.add_column("export", justify="right")
    t, e = report["funnel_counts"]["truth"], report["funnel_counts"]["export"]
    for stage in FunnelStage:
        counts.add_row(stage, str(t.get(stage, 0)), str(e.get(stage, 0)))
    console.print(counts)
    if report["mismatches"] and show:
        mm = Table(title=f"mismatches ({len(report['mismatches'])}, first {show})", title_justify="left")
        mm.add_column("key", no_wrap=True)
        mm.add_column("what differs (truth != export)")
        from rich.text import Text

        for row in report["mismatches"][:show]:
            mm.add_row(Text(row["key"]), Text("\n".join(row["problems"])))
        console.print(mm)
