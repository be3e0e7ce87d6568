"""`fixlore weights learn`: value weights learned from editors' decisions that are not a series
ledger (a world's truth.yaml), saved in the format `fixlore series weights` saves, with the
check that says whether `fixlore run --value-weights` may cut by them (`fixlore.series.selection`).
A series learns from its own ledger with `fixlore series weights NAME`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from fixlore.core.errors import ConfigError

weights_app = typer.Typer(help="Value weights learned from editors' decisions (see also `fixlore series weights`).",
                          no_args_is_help=True, rich_markup_mode=None)


@weights_app.command("learn")
def learn_cmd(
    truth: Optional[Path] = typer.Option(None, "--truth", help="The editors' decisions: a truth.yaml whose rows "
                                                               "say `funnel: selected` for the cases they published."),
    overrides: Optional[Path] = typer.Option(None, "--overrides", help="Instead of --truth: an overrides file's "
                                             "keep (published) and drop (not) entries are the decisions, all of "
                                             "them (no --split); needs --world."),
    out: Path = typer.Option(..., "--to", help="The weights file to write (JSON; give it to `fixlore run "
                                               "--value-weights`). Named --to as `export cases --to` is: --out "
                                               "names a run folder on every command."),
    split: list[str] = typer.Option([], "--split", help="Learn from the truth rows of this split only "
                                    "(repeatable: npu-threads' past is --split tune --split tune2). A row naming no "
                                    "split is split tune / heldout by the SHA-1 rule. Default: tune."),
    world: Optional[Path] = typer.Option(None, "--world", help="The world the truth describes (default: the "
                                         "truth file's folder)."),
    run_dir: Optional[Path] = typer.Option(None, "--run-dir", help="Make the run that analyses every pool case "
                                           "here and keep it (reused when it already holds one); default a "
                                           "temporary folder."),
) -> None:
    """Learn value weights from the editors' decisions on one split of a truth file (or every keep /
    drop of an overrides file), and check on those decisions alone whether cutting by them (the
    gate) agrees with the editors better than the default cut.

    Decisions: each truth row of the split whose case is in the world's pool, 1 when the truth
    says `selected`, 0 otherwise. Features: what the link stage knows of the case (the value and
    its content features, fix, evidence, traps ...). Model: logistic regression (scikit-learn),
    standardised features, L2 C=1, balanced classes.

    The check: the split's decisions in four parts by key hash, each part judged by weights
    learned on the other three; the rows agreeing with the editors are counted for the gate (a
    case is analysed when its learned probability is at least 0.5) and for the default cut (the
    top K by value). The file says `gate_favoured: true` only when the gate agrees with strictly
    more rows; `fixlore run --value-weights FILE` then cuts by it, otherwise it only ranks by the
    learned probability. Every pool case of the world is analysed once for the check (a full
    run; see --run-dir). The other splits are never read: score them with `fixlore score --split`.
    """
    from fixlore.edges.atomicfile import write_atomic
    from fixlore.evaluate.score import load_truth
    from fixlore.evaluate.splits import splits_by_key
    from fixlore.series.selection import learn_with_check, world_view

    if (truth is None) == (overrides is None):
        raise ConfigError("give --truth FILE (a truth.yaml) or --overrides FILE (keep / drop), one of them")
    if overrides is not None:
        from fixlore.series.selection import OVERRIDES_SPLIT, overrides_truth
        from fixlore.settings.overrides import load_overrides

        if split or world is None:
            raise ConfigError("--overrides learns from every keep / drop entry: give --world, and no --split")
        found = load_overrides(overrides)
        rows, source, split = overrides_truth(found.keys_of("keep"), found.keys_of("drop")), overrides, [OVERRIDES_SPLIT]
    else:
        rows, source, split = load_truth(truth), truth, split or ["tune"]
    world = source.parent if world is None else world
    if not (world / "world.yaml").is_file():
        raise ConfigError(f"{world} is not a world folder (no world.yaml); name it with --world")
    if out.is_dir():
        raise ConfigError(f"--to {out} is a folder; give the weights file to write")
    wanted = sorted(set(split))
    named = set(splits_by_key(rows).values()) - {""}
    missing = [s for s in wanted if s not in named]
    if missing:
        raise ConfigError(f"no row of {source} is in split {', '.join(missing)} (its splits: "
                          f"{', '.join(sorted(named)) or 'none'})")
    view = world_view(world, run_dir)
    saved = learn_with_check(rows, view, wanted, truth_name=str(source),
                             source="overrides" if overrides is not None else "truth")
    write_atomic(out, json.dumps(saved, ensure_ascii=False, indent=2) + "\n")
    c = saved["check"]
    typer.echo(json.dumps({"saved": str(out), "splits": saved["splits"], "decisions": saved["decisions"],
                           "published": saved["published"], "check": c, "gate_favoured": saved["gate_favoured"],
                           "reading": (f"the gate agrees with {c['gate']} of {c['rows']} {'/'.join(wanted)} rows, the "
                                       f"default cut with {c['default']} (the learned ranking alone: {c['ranked']}): "
                                       + ("`fixlore run --value-weights` cuts at learned p >= 0.5"
                                          if saved["gate_favoured"] else
                                          "`fixlore run --value-weights` ranks by the learned probability, no gate"))},
                          ensure_ascii=False, indent=2))


def register(app: typer.Typer) -> None:
    app.add_typer(weights_app, name="weights")
