"""`fixlore replay WORLD`: serve a world on loopback through the platform's REST endpoints."""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import typer

from fixlore.core.errors import ConfigError


def replay(
    world: Path = typer.Argument(..., help="World folder (has world.yaml), e.g. worlds/demo."),
    port: int = typer.Option(0, min=0, max=65535, help="Port to listen on; 0 picks a free one (printed)."),
    host: str = typer.Option("127.0.0.1", help="Address to bind. Keep the loopback default unless you must share it."),
    rate_limit: bool = typer.Option(False, "--rate-limit", help="Enforce the platform's rate limit "
                                    "(GitCode: 429 past 50/min or 4000/h; GitHub: 5000/h with X-RateLimit-* headers)."),
    time_scale: float = typer.Option(1.0, help="Compress time for the rate limit: 60 makes a one-minute window last one second."),
    faults: str = typer.Option("", help="Faults to inject, e.g. '429:0.05,500:0.02,stall:0.01,cutoff@7'. Kinds: 429, "
                               "429-retry-after, 500, 502, 503, 404, 202, stall, cutoff, malformed, repeat-page, empty-page; "
                               "'500=*/issues/101/comments' fails every request whose path matches, for good."),
    fault_seed: int = typer.Option(0, help="Seed for the fault draws; the same seed and request order give the same faults."),
    stall_seconds: float = typer.Option(10.0, help="How long a 'stall' fault holds its response."),
    token: str = typer.Option("", help="Accept only this token (others get 401). Visible in `ps`: prefer --token-env."),
    token_env: str = typer.Option("", help="Read the accepted token from this environment variable."),
    as_of: str = typer.Option("", "--as-of", help="Serve the world as it stood at this ISO time: later issues, "
                              "comments, closes, merges and PRs hidden, issues closed later shown open."),
    strict: bool = typer.Option(False, "--strict", help="Play the platform's documented and observed quirks: GitCode "
                                "orders only by order_by, caps per_page at 50, repeats pages, refuses one repo's issues "
                                "(403), marks merged PRs closed, names close events otherwise; GitHub adds 410 on one "
                                "repo and secondary rate limits without Retry-After."),
    quirks: str = typer.Option("", help="A named quirk set (gitcode, gitcode-no-totals, github) or comma-separated "
                               "quirk names (see fixlore/replay/strict.py); implies --strict."),
) -> None:
    """Serve WORLD on loopback as the platform's REST API until Ctrl-C (or SIGTERM), then print request counts.

    The harvester (or curl) points at the printed base URL exactly as at the real site.
    """
    from fixlore.replay.server import ReplayServer

    if token and token_env:
        raise ConfigError("give either --token or --token-env, not both")
    if token_env:
        token = os.environ.get(token_env, "")
        if not token:
            raise ConfigError(f"environment variable {token_env} is empty or unset")
    from fixlore.edges.inputs import check_number

    check_number(time_scale, "--time-scale", above=0)
    check_number(stall_seconds, "--stall-seconds", low=0)
    from fixlore.replay.faults import parse_spec
    from fixlore.settings.config import parse_since

    parse_spec(faults)
    when = parse_since(as_of, "--as-of") if as_of else None

    server = ReplayServer(world, port=port, host=host, rate_limit=rate_limit, time_scale=time_scale,
                          faults=faults or None, fault_seed=fault_seed, token=token or None,
                          stall_seconds=stall_seconds, as_of=when, strict=quirks or strict)
    server.start()
    # Plain echo, not rich: a wrapped line would break scripts that read the URL.
    moment = f" as of {when.isoformat()}" if when else ""
    typer.echo(f"serving {server.world.platform} world {world}{moment} at {server.base_url}"
               + (f" (strict: {', '.join(sorted(server.quirks.names))})" if server.quirks else ""))
    typer.echo(f"stats: http://{server.host}:{server.port}/__replay__/stats  (Ctrl-C to stop)")
    done = threading.Event()
    # Stop cleanly on Ctrl-C and on `kill` (a shell starts background jobs with SIGINT ignored).
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: done.set())
    try:
        while not done.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        typer.echo(json.dumps(server.stats(), indent=2, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    """Add this stage's commands to the `fixlore` app."""
    app.command("replay")(replay)
