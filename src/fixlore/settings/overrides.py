"""Read an overrides file (`fixlore.rules.overrides` says what it holds and how it applies):
a missing file, bad YAML or a bad entry is one ConfigError line (exit 2) before a run starts."""

from __future__ import annotations

from pathlib import Path

from fixlore.core.errors import ConfigError
from fixlore.edges.inputs import load_yaml_mapping
from fixlore.rules.overrides import Overrides, parse_overrides

SERIES_FILE = "overrides.yaml"        # beside a series' ledger (OUT/fixlore.db)


def load_overrides(path: str | Path) -> Overrides:
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"overrides file not found: {path}")
    return parse_overrides(load_yaml_mapping(path, "overrides file"), str(path))


def series_overrides(out: Path) -> Path | None:
    """The overrides file beside a series' ledger, when the editors wrote one."""
    path = Path(out) / SERIES_FILE
    return path if path.is_file() else None
