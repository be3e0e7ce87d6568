"""`fixlore replay`: help text, errors, and a real serve-until-Ctrl-C run in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx2
import typer
from typer.testing import CliRunner

from fixlore.core.errors import FixloreError
from fixlore.replay.cli import register

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"

# A group app with only this stage's command, as the real `fixlore` app registers it.
_APP_SOURCE = """
import sys, typer
from fixlore.replay.cli import register
app = typer.Typer()
@app.callback()
def main():
    pass
register(app)
app(sys.argv[1:])
"""


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        pass

    register(app)
    return app


def test_help_explains_the_options():
    result = CliRunner().invoke(_app(), ["replay", "--help"])
    assert result.exit_code == 0
    for option in ("--port", "--host", "--rate-limit", "--time-scale", "--faults", "--fault-seed", "--token-env"):
        assert option in result.output


def test_missing_world_is_a_fixlore_error():
    result = CliRunner().invoke(_app(), ["replay", "/nonexistent/world"])
    assert isinstance(result.exception, FixloreError)


def test_token_env_must_be_set():
    result = CliRunner().invoke(_app(), ["replay", str(DEMO), "--token-env", "FIXLORE_TEST_UNSET_TOKEN"])
    assert isinstance(result.exception, FixloreError) and "FIXLORE_TEST_UNSET_TOKEN" in str(result.exception)


def test_serves_until_interrupted_and_prints_stats():
    env = dict(os.environ, REPLAY_TEST_TOKEN="tok-from-env")
    proc = subprocess.Popen([sys.executable, "-c", _APP_SOURCE, "replay", str(DEMO), "--token-env", "REPLAY_TEST_TOKEN"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stdout.readline()
        base = first.split(" at ")[-1].strip()
        assert base.startswith("http://127.0.0.1:") and base.endswith("/api/v5")
        ok = httpx2.get(base + "/repos/demo-ai/modelkit/issues/101", headers={"PRIVATE-TOKEN": "tok-from-env"})
        refused = httpx2.get(base + "/repos/demo-ai/modelkit/issues/101")
        assert (ok.status_code, refused.status_code) == (200, 401)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    stats = json.loads(out[out.index("{"):])
    assert stats["total"] == 2 and stats["by_status"] == {"200": 1, "401": 1}
    assert "tok-from-env" not in first + out + err


def test_an_unknown_strict_quirk_is_a_fixlore_error_naming_the_sets():
    result = CliRunner().invoke(_app(), ["replay", str(DEMO), "--quirks", "per_page_cap,no_such_quirk"])
    assert isinstance(result.exception, FixloreError)
    assert "no_such_quirk" in str(result.exception) and "gitcode-no-totals" in str(result.exception)


def test_strict_server_says_which_quirks_it_plays():
    from fixlore.replay.server import ReplayServer

    with ReplayServer(DEMO, strict=True) as srv:
        assert "sort_ignored" in srv.quirks.names and "secondary_limit" not in srv.quirks.names
        page = httpx2.get(srv.base_url + "/orgs/demo-ai/repos", params={"per_page": 100})
        assert page.status_code == 200 and page.headers["total_page"] == "1"
    with ReplayServer(DEMO, strict="gitcode-no-totals") as srv:
        page = httpx2.get(srv.base_url + "/orgs/demo-ai/repos", params={"per_page": 100})
        assert "total_page" not in page.headers
