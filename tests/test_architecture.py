"""The architecture contracts in .importlinter hold (import-linter, run on the installed package)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    lint = Path(sys.executable).parent / "lint-imports"
    assert lint.exists() or shutil.which("lint-imports"), "import-linter is a pinned test dependency"
    done = subprocess.run([str(lint if lint.exists() else "lint-imports"), str(ROOT / ".importlinter"), "--no-cache"],
                          cwd=ROOT / "src", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Contracts: 2 kept, 0 broken" in done.stdout


def test_no_stage_is_excused_from_the_independence_contract():
    """A rule two stages need moves to a floor below them; no sideways import is let through."""
    config = (ROOT / ".importlinter").read_text(encoding="utf-8")
    assert "ignore_imports" not in config
