"""`fixlore digest`: a thin wrapper over write_digests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from fixlore.core.errors import ConfigError
from fixlore.edges.caseexport import read_cases_jsonl


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


def register(app: typer.Typer) -> None:
    @app.command("digest")
    def digest_cmd(
        cases: Path = typer.Option(..., "--cases", help="the run's case export (jsonl)"),
        run: Path = typer.Option(None, "--run", help="the run summary (run.json)"),
        out: Path = typer.Option(..., "--out", help="output folder"),
        lang: str = typer.Option("both", "--lang", help="zh | en | both"),
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

        mode = mode_of(on_findings, "mark")
        check_out_dir(out)
        found, summary = read_cases_jsonl(cases), read_run(run)      # both read before the folder is made
        paths = write_digests(found, summary, out, langs, on_findings=mode)
        console = Console()
        for name, path in paths.items():
            console.print(f"{name:6} {path}", highlight=False, markup=False)

    @app.command("check")
    def check_cmd(
        digest: Path = typer.Argument(..., help="a digest.json, or a run folder holding one"),
        as_json: bool = typer.Option(False, "--json", help="print the findings as JSON"),
    ) -> None:
        """Run the editorial check on a digest: exit 0 clean, 1 findings, 2 bad input."""
        from fixlore.compose.check import by_class, check_digest
        from fixlore.edges.inputs import read_text

        path = digest / "digest.json" if digest.is_dir() else digest
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
