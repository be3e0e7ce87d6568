"""Commands that judge a run against a world's truth: `fixlore score` (a case export, key by
key) and `fixlore kb calibrate` (the citation threshold, fitted on the truth's kb_refs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from fixlore.core.enums import FunnelStage
from fixlore.core.errors import ConfigError
from fixlore.kb.cli import IndexOpt, OutOpt, _index, kb_app


def register(app: typer.Typer) -> None:
    @app.command("score")
    def score_cmd(
        truth: Optional[Path] = typer.Option(None, "--truth", help="A world's truth.yaml (with --cases or --out)."),
        cases: Optional[Path] = typer.Option(None, "--cases", help="A case export (jsonl); default OUT/cases.jsonl."),
        out: Optional[Path] = typer.Option(None, "--out", envvar="FIXLORE_OUT",
                                           help="A `fixlore run` folder: score its cases.jsonl (env FIXLORE_OUT)."),
        world: list[Path] = typer.Option([], "--world", help="A world folder: link it and score it against its "
                                                             "truth.yaml; repeat for one report per world."),
        split: Optional[str] = typer.Option(None, "--split", help="Score only truth rows with this `split` "
                                                                  "(e.g. tune, tune2, heldout2; a truth naming "
                                                                  "none is split tune / heldout by the SHA-1 rule). "
                                                                  "A run made with --value-weights learned from a "
                                                                  "split is held out only on the others (the report "
                                                                  "says which)."),
        as_json: bool = typer.Option(False, "--json", help="Print the full report as JSON."),
        show: int = typer.Option(15, "--show", min=0, help="How many mismatching keys to list."),
        overrides: Optional[Path] = typer.Option(None, "--overrides", help="Score --cases / --out against the "
                                                 "editors' corrections (an overrides file) instead of a truth.yaml."),
        splits: bool = typer.Option(False, "--splits", help="With --world: one row per world and truth split, each "
                                                           "beside the keyword baseline (closing keywords only)."),
        all_worlds: Optional[Path] = typer.Option(None, "--all-worlds", help="Every world folder with a truth.yaml "
                                                                             "under this folder (e.g. worlds); "
                                                                             "implies --splits."),
    ) -> None:
        """Compare case exports with truth, key by key, one report per world."""
        from fixlore.edges.caseexport import read_cases_jsonl

        if overrides is not None:
            from fixlore.evaluate.editors import score_overrides
            from fixlore.settings.overrides import load_overrides

            if truth is not None or world:
                raise ConfigError("--overrides scores a case export (--cases or --out), not with --truth or --world")
            path = cases if cases is not None else Path(out) / "cases.jsonl" if out is not None else None
            if path is None:
                raise ConfigError("give --cases FILE or --out DIR with --overrides")
            report = score_overrides(load_overrides(overrides), read_cases_jsonl(path))
            if not as_json:
                report = {**report, "mismatches": report["mismatches"][:show]}
            typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
            return
        from fixlore.evaluate.score import load_truth, score, selection_agreement, split_truth
        from fixlore.link.cli import load_or_build_cases

        if all_worlds is not None:
            if not all_worlds.is_dir():
                raise ConfigError(f"--all-worlds {all_worlds} is not a folder")
            world = world + sorted(p for p in all_worlds.iterdir() if (p / "truth.yaml").is_file())
            splits = True
        if splits:
            if not world:
                raise ConfigError("--splits needs --world (repeatable) or --all-worlds")
            rows = split_rows(world)
            if as_json:
                typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
            else:
                print_split_rows(Console(), rows)
            return
        if cases is None and out is not None and not world:
            cases = Path(out) / "cases.jsonl"
        if world and (truth is not None or cases is not None):
            raise ConfigError("give --world (repeatable) or --truth with --cases / --out, not both")
        if not world and (truth is None or cases is None):
            raise ConfigError("give --truth with --cases FILE or --out DIR (a `fixlore run` folder), or one or more --world")
        for w in world:
            if not (w / "world.yaml").is_file() or not (w / "truth.yaml").is_file():
                raise ConfigError(f"--world {w} is not a world folder with a truth.yaml")
        runs: dict[str, tuple[dict, list]] = {}
        if world:
            for w in world:
                runs[w.name] = (load_truth(w / "truth.yaml"), load_or_build_cases(world=w))
        else:
            runs[truth.parent.name or str(truth)] = (load_truth(truth), read_cases_jsonl(cases))
        reports = {name: score(split_truth(t, split), c).as_dict()
                   | {"selection_agreement": round(selection_agreement(split_truth(t, split), c), 4)}
                   for name, (t, c) in runs.items()}
        if out is not None and not world and len(reports) == 1:
            note = weights_note(Path(out), split)
            if note:
                next(iter(reports.values()))["value_weights"] = note
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

    @kb_app.command("calibrate")
    def calibrate_cmd(world: Path = typer.Argument(..., help="A world with truth.yaml (kb_refs are the labels)."),
                      index: Optional[Path] = IndexOpt, out: Optional[Path] = OutOpt,
                      folds: int = typer.Option(2, min=2, help="Cross-validation folds for the held-out figures (2 or more)."),
                      ) -> None:
        """Fit the score threshold on a world's truth, report cross-validated figures, save it with the index."""
        from fixlore.kb.cli import existing_index

        if not (world / "truth.yaml").is_file():
            raise ConfigError(f"{world} is not a world folder with a truth.yaml")
        existing_index(_index(index, out))
        from fixlore.evaluate.kb_truth import labelled_cases
        from fixlore.kb.calibrate import calibrate, cross_validate, evaluate, rank_labelled
        from fixlore.retrieval.base import KnowledgeBase

        index = _index(index, out)
        kb = KnowledgeBase.open(index, create=False)
        labelled = [(lc.query, lc.expected or None) for lc in labelled_cases(world)]
        rows = rank_labelled(kb, labelled)
        cv = cross_validate(rows, folds=folds)
        t = calibrate(kb, labelled, source=f"{world} truth.yaml ({len(labelled)} selected cases)")
        fitted = evaluate(rows, t)
        kb.close()
        console = Console()
        console.print(f"threshold {t:.4f} saved in {index}", highlight=False, markup=False)
        console.print(f"in-sample: {fitted['right_doc_first']}/{fitted['with_doc']} right doc first, "
                      f"{fitted['none_when_none']}/{fitted['without_doc']} none when none", highlight=False)
        console.print(f"{folds}-fold held-out (mean of {cv['repeats']} shuffles): {cv['right_doc_first']}/{cv['with_doc']} "
                      f"right doc first, {cv['none_when_none']}/{cv['without_doc']} none when none", highlight=False)


def weights_note(out: Path, split: str | None) -> dict[str, Any] | None:
    """What a run folder's value weights were learned from, and whether the scored split is held
    out from them (run.json's ``value_weights``, `fixlore run --value-weights`); None without."""
    try:
        info = json.loads((out / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    vw = info.get("value_weights") if isinstance(info, dict) else None
    if not isinstance(vw, dict) or not vw.get("file"):
        return None
    learned_on = [str(s) for s in vw.get("splits") or []]
    held = bool(split) and bool(learned_on) and split not in learned_on
    return {"file": vw.get("file"), "learned_on": learned_on, "gate": bool(vw.get("gate")),
            "scored_split": split, "held_out": held,
            "reading": "held out: the weights never saw these rows" if held else
                       "NOT held out: score a split the weights were not learned from (--split)"}


def split_rows(worlds: list[Path]) -> list[dict[str, Any]]:
    """One row per (world, split, linker): the linker as `fixlore run` links, and the keyword baseline."""
    from fixlore.evaluate.baseline import keyword_cases
    from fixlore.evaluate.score import load_truth, score, selection_agreement, split_truth, splits_of
    from fixlore.link.cli import load_or_build_cases
    from fixlore.sources.offline import load_world

    rows = []
    for w in worlds:
        if not (w / "world.yaml").is_file() or not (w / "truth.yaml").is_file():
            raise ConfigError(f"--world {w} is not a world folder with a truth.yaml")
        truth = load_truth(w / "truth.yaml")
        linked = load_or_build_cases(world=w)
        runs = {"fixlore": linked, "keyword": keyword_cases(load_world(w), linked)}
        for split in splits_of(truth):
            part = split_truth(truth, split)
            for linker, found in runs.items():
                r = score(part, found).as_dict()
                rows.append({"world": w.name, "split": split or "all", "linker": linker, "keys": r["keys"],
                             "fix": r["fix"]["repo_number_role"], "traps": r["traps"],
                             "timing": r["timing_accuracy"], "timing_total": r["timing_total"],
                             "selection": round(selection_agreement(part, found, coarse=True), 4)})
    return rows


def print_split_rows(console: Console, rows: list[dict[str, Any]]) -> None:
    table = Table(title="per world and split (keyword = closing keywords only; selection before deep analysis, "
                        "analysis≡selected)", title_justify="left")
    for col in ("world", "split", "linker", "keys", "fix P", "fix R", "traps P", "traps R", "timing", "selection"):
        table.add_column(col, justify="left" if col in ("world", "split", "linker") else "right")
    for r in rows:
        table.add_row(r["world"], r["split"], r["linker"], str(r["keys"]), f"{r['fix']['precision']:.3f}",
                      f"{r['fix']['recall']:.3f}", f"{r['traps']['precision']:.3f}", f"{r['traps']['recall']:.3f}",
                      f"{r['timing']:.3f}", f"{r['selection']:.3f}")
    console.print(table)


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
    if "selection_agreement" in report:
        summary.add_row("selection agreement (selected or not)", f"{report['selection_agreement']:.3f}")
    vw = report.get("value_weights")
    if vw:
        summary.add_row("value weights", f"{vw['file']} (learned on {', '.join(vw['learned_on']) or '?'}; "
                        f"gate {'applied' if vw['gate'] else 'not applied'}): {vw['reading']}")
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
        from fixlore.wording.terminal import text

        for row in report["mismatches"][:show]:
            mm.add_row(text(row["key"]), text("\n".join(row["problems"])))
        console.print(mm)
