"""`fixlore digest`: a thin wrapper over write_digests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from fixlore.core.errors import ConfigError


def read_run(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    from fixlore.edges.inputs import read_text

    try:
        data = json.loads(read_text(path, "run summary"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a JSON object")
    return data


def frame_options(run: dict[str, Any], number: int | None, tagline: str | None,
                  agent_pointer: str | None) -> dict[str, Any]:
    """The run's frame (compose/frame.py) with the options given on the command line over it."""
    frame = dict(run.get("frame") or {}) if isinstance(run.get("frame"), dict) else {}
    given = {"number": number, "tagline": tagline, "agent_pointer": agent_pointer}
    frame.update({k: v for k, v in given.items() if v is not None})
    return frame
def _apply_overrides(cases: list, summary: dict, path: Path) -> dict:
    """The editor's corrections over a case export (no corpus here: a PR the export does not
    already name is recorded by its number alone); the run record gains what was applied."""
    import sys

    from fixlore.rules import overrides as ov
    from fixlore.settings.overrides import load_overrides

    found = load_overrides(path)
    known = {(f.repo, f.number): f for c in cases for f in [*c.fix, *c.pending_fix]}
    applied = [*ov.apply_links(cases, found, lambda repo, n: known.get((repo, n))),
               *ov.apply_keep(cases, found), *ov.apply_themes(cases, found)]
    unknown = ov.unknown_keys(found, cases)
    if unknown:
        print(f"overrides {found.source}: {len(unknown)} entries name no case of this export: "
              f"{', '.join(unknown[:5])}", file=sys.stderr)
    return {**summary, "overrides": {"source": found.source, "entries": len(found.cases), "applied": applied,
                                     "unknown": unknown}}


def register(app: typer.Typer) -> None:
    @app.command("digest")
    def digest_cmd(
        cases: Path = typer.Option(None, "--cases", help="the run's case export (jsonl; default OUT/cases.jsonl)"),
        run: Path = typer.Option(None, "--run", help="the run summary (run.json; default OUT/run.json when it is there)"),
        out: Path = typer.Option(..., "--out", envvar="FIXLORE_OUT", help="output folder (env FIXLORE_OUT)."),
        lang: str = typer.Option("both", "--lang", help="zh | en | both"),
        number: int = typer.Option(None, "--number", min=1, help="The digest's number, shown in its title."),
        tagline: str = typer.Option(None, "--tagline", help="The line under the title (default: what this number holds)."),
        agent_pointer: str = typer.Option(None, "--agent-pointer", help="Where agents read these cases: a URL or a "
                                          "command (default: `fixlore serve mcp|http --out` on the run's folder)."),
        overrides: Path = typer.Option(None, "--overrides", help="The editor's corrections (YAML, docs/series.md): "
                                       "keep/drop, fix/not_fix, theme per OWNER/REPO#N, applied before writing."),
        on_findings: str = typer.Option("mark", "--on-findings", help="the editorial check on a finding: mark "
                                        "(the row marked, the finding disclosed) or fail (nothing written, exit 1)"),
    ) -> None:
        """Write the digest (Markdown per language, one HTML page, JSON) from a case export."""
        from fixlore.compose import write_digests

        from fixlore.edges.inputs import check_out_dir

        langs = {"zh": ("zh",), "en": ("en",), "both": ("zh", "en")}.get(lang)
        if langs is None:
            raise ConfigError(f"--lang must be zh, en or both, not '{lang}'")
        from fixlore.compose.gate import mode_of
        from fixlore.edges.caseexport import read_cases_jsonl

        mode = mode_of(on_findings, "mark")
        check_out_dir(out)
        # --out may be the run's own folder: its export and summary are then the input
        if cases is None:
            cases = out / "cases.jsonl"
            if not cases.is_file():
                raise ConfigError(f"give --cases FILE ({out} holds no cases.jsonl)")
        if run is None and (out / "run.json").is_file():
            run = out / "run.json"
        found, summary = read_cases_jsonl(cases), read_run(run)      # both read before the folder is made
        summary["frame"] = frame_options(summary, number, tagline, agent_pointer)
        if overrides is not None:
            summary = _apply_overrides(found, summary, overrides)
        paths = write_digests(found, summary, out, langs, on_findings=mode)
        console = Console()
        for name, path in paths.items():
            console.print(f"{name:6} {path}", highlight=False, markup=False)

    @app.command("check")
    def check_cmd(
        digest: Path = typer.Argument(..., envvar="FIXLORE_OUT", show_envvar=True,
                                      help="a digest.json, or a run folder holding one (the .md and .html pages are "
                                           "made from it; env FIXLORE_OUT: the run folder)"),
        as_json: bool = typer.Option(False, "--json", help="print the findings as JSON"),
    ) -> None:
        """Run the editorial check on a digest: exit 0 clean, 1 findings, 2 bad input."""
        from fixlore.compose.check import by_class, check_digest
        from fixlore.edges.inputs import read_text

        path = digest / "digest.json" if digest.is_dir() else digest
        if path.suffix.lower() in (".md", ".html", ".htm"):
            # the rendered pages are made from the JSON and carry less of it (PR states, links)
            raise ConfigError(f"{path} is a rendered page; the check reads the digest it was made from: "
                              f"fixlore check {path.with_name('digest.json')} (or the run folder)")
        try:
            data = json.loads(read_text(path, "digest"))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path} is not JSON: {exc.msg} (line {exc.lineno})") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path} must hold a JSON object (a fixlore-digest/1 digest)")
        try:
            findings = check_digest(data)
        except ValueError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        if as_json:
            typer.echo(json.dumps({"digest": str(path), "by_class": by_class(findings),
                                   "findings": [f.to_dict() for f in findings]}, ensure_ascii=False, indent=2))
        else:
            from rich.table import Table

            console = Console()
            if findings:
                table = Table("where", "class", "why", "text", title=f"{len(findings)} findings in {path}")
                for f in findings:
                    table.add_row(f.where, f.kind, f.why, f.text[:120])
                console.print(table)
            else:
                console.print(f"clean: {path}", highlight=False, markup=False)
        if findings:
            raise typer.Exit(1)
