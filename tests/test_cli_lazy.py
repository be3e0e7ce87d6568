"""The command line imports only what the command it runs needs (issue #26): the typer app, the
commands' signatures and their --help live in light modules; the pipeline, the store, the
retrieval index, the analyst, the digest and the servers are imported inside the command bodies.
Each check runs in a fresh interpreter, as a user's `fixlore ...` does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What a `fixlore --help`, a usage error or a typo must not load.
HEAVY = ("numpy", "sqlalchemy", "fastapi", "jieba", "httpx2", "markdown_it", "fixlore.pipeline", "fixlore.store",
         "fixlore.retrieval", "fixlore.kb.calibrate", "fixlore.analyse.backend", "fixlore.analyse.offline",
         "fixlore.compose.digest", "fixlore.rules.funnel.bookkeeping", "fixlore.settings.config",
         "fixlore.series.publish", "fixlore.serve.http")


def _loaded_after(code: str) -> set[str]:
    script = (f"import sys, json\n{code}\n"
              "sys.stdout = sys.__stdout__\nprint(json.dumps(sorted(sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.splitlines()[-1]))


def _heavy(loaded: set[str]) -> list[str]:
    return sorted(name for name in loaded if any(name == h or name.startswith(h + ".") for h in HEAVY))


def test_importing_the_cli_loads_no_stage():
    loaded = _loaded_after("import fixlore.cli.commands")
    assert "typer" in loaded and "fixlore.cli.run" in loaded      # the app and its commands are there
    assert _heavy(loaded) == []


@pytest.mark.parametrize("argv", [["--help"], ["run", "--help"], ["kb", "search", "--help"],
                                  ["serve", "http", "--help"], ["series", "publish", "--help"], ["bogus"]])
def test_help_and_a_typo_load_no_stage(argv):
    code = ("import io, contextlib\nfrom fixlore.cli.commands import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            f"    try:\n        main({argv!r})\n    except SystemExit:\n        pass")
    assert _heavy(_loaded_after(code)) == []


def test_a_command_body_still_reaches_its_stage():
    # the lazy package exports resolve as the eager ones did, even a name its submodule shares
    # (fixlore.kb.enrich, fixlore.kb.calibrate) once that submodule is loaded
    import fixlore.kb.calibrate
    import fixlore.kb.enrich
    import fixlore.kb.stage  # noqa: F401
    from fixlore.analyse import OfflineAnalyst, analyse_cases
    from fixlore.analyse.backend import EMBED, THEME_SIZE, WORKERS
    from fixlore.analyse.defaults import EMBED as E, THEME_SIZE as T, WORKERS as W
    from fixlore.compose import write_digests
    from fixlore.kb import calibrate, case_query, enrich
    from fixlore.rules.funnel import FunnelConfig, cheap_funnel

    assert enrich is fixlore.kb.enrich is sys.modules["fixlore.kb.enrich"].enrich
    assert calibrate is sys.modules["fixlore.kb.calibrate"].calibrate
    assert all(callable(f) for f in (OfflineAnalyst, analyse_cases, write_digests, case_query, FunnelConfig,
                                     cheap_funnel))
    assert (EMBED, THEME_SIZE, WORKERS) == (E, T, W)
    with pytest.raises(AttributeError):
        fixlore.kb.no_such_name
