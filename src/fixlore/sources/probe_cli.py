"""`fixlore probe`: ask a live API what it really does (sources/probe.py) and save the answers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

import typer
from rich.console import Console
from rich.table import Table

from fixlore.wording.terminal import text

from fixlore.core.errors import ConfigError, FixloreError, SourceError


def make_fetch(base_url: str, token: str | None, timeout: float = 15.0):
    """A probe fetch over httpx2: one try per request, no cache, the token in a header only
    (``base_url`` has been checked and stripped of any user:password@ by the command)."""
    import httpx2

    from fixlore.sources.probe import Reply

    headers = {"Accept": "application/json", "User-Agent": "fixlore-probe"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    client = httpx2.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout)
    host = urlsplit(base_url).netloc.rsplit("@", 1)[-1]

    def fetch(path: str, params: dict[str, str], extra: dict[str, str]) -> Reply:
        try:
            resp = client.get(path, params=params, headers=extra)
        except httpx2.HTTPError as exc:
            raise SourceError(f"cannot reach {host}: {type(exc).__name__}; check the base URL and the network") from None
        try:
            body = resp.json() if resp.content else None
        except ValueError:
            body = None
        return Reply(resp.status_code, {k.lower(): v for k, v in resp.headers.items()}, body)

    return fetch, client


def register(app: typer.Typer) -> None:
    @app.command("probe")
    def probe_cmd(
        platform: str = typer.Option(..., "--platform", help="gitcode or github."),
        org: str = typer.Option(..., "--org", help="Organisation whose repos are probed."),
        base_url: Optional[str] = typer.Option(None, "--base-url", help="API root (default: the platform's)."),
        token_env: Optional[str] = typer.Option(None, "--token-env", help="Name of the variable holding the token."),
        out: Path = typer.Option(Path("probe.json"), "--out", help="Where the findings are saved as JSON."),
        budget: int = typer.Option(40, "--budget", min=1, help="Most requests the probe may send (1 or more)."),
    ) -> None:
        """What this API really does: ordering forms, per_page cap, paging headers, ETag/304, rate-limit
        headers, a closed issue's history, a merged PR's shape. A few dozen requests."""
        import os

        from fixlore.sources import DEFAULT_BASE_URLS, DEFAULT_TOKEN_ENV
        from fixlore.sources.probe import run_probe

        from fixlore.edges import logs
        from fixlore.edges.inputs import check_http_url, check_new_file, without_userinfo

        if platform not in DEFAULT_BASE_URLS:
            raise ConfigError(f"--platform must be one of {', '.join(sorted(DEFAULT_BASE_URLS))}, not '{platform}'")
        env = token_env or DEFAULT_TOKEN_ENV[platform]
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", env):
            raise ConfigError(f"--token-env names an environment variable (such as GITCODE_TOKEN), not '{env}'")
        if "/" in org or any(ch.isspace() for ch in org):
            raise ConfigError(f"--org is an organisation name such as 'Ascend', not {org!r}")
        url = check_http_url(base_url or DEFAULT_BASE_URLS[platform], "--base-url")
        url, had_userinfo = without_userinfo(url)
        check_new_file(out, "--out")
        token = os.environ.get(env) or None
        logs.hide(token)
        err = Console(stderr=True, highlight=False)
        if had_userinfo:                  # plain lines: rich would wrap them
            typer.echo(f"fixlore: the user:password@ in --base-url is ignored: the probe sends the token in "
                       f"${env} only", err=True)
        if token is None:
            typer.echo(f"warning: ${env} is not set; probing without a token (public data, lower limits)", err=True)
        fetch, client = make_fetch(url, token)
        try:
            report = run_probe(platform, org, fetch, budget=budget)
        finally:
            client.close()
        table = Table(title=text(f"probe {platform} {org} {report.repo} ({report.requests} requests)"))
        for col in ("check", "verdict", "what showed it"):
            table.add_column(col)
        for f in report.findings:
            table.add_row(text(f.check), text(f.verdict), text(logs.redact(f.detail)))
        Console().print(table)
        out.parent.mkdir(parents=True, exist_ok=True)
        document = logs.redact(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
        out.write_text(document + "\n", encoding="utf-8")
        err.print(f"saved {out}")
        if report.verdict("org repos") == "failed":
            raise FixloreError(f"probe: {report.findings[0].detail} (org '{org}')")
