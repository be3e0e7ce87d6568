"""Run settings: a TOML or YAML file, overridden by command-line flags.

Example ``fixlore.toml``::

    platform = "gitcode"
    orgs = ["cann", "Ascend"]
    since = "2026-09-17T00:00:00+08:00"
    db = "sqlite:///fixlore.db"
    token_env = "GITCODE_TOKEN"      # the name of the variable, never the token itself
    rank_top_k = 63
    lookback_days = 60
    kb_docs = ["../msmodeling=docs/Ascend/msmodeling"]   # local clones whose docs explain the cases
    link_workers = 2                 # fork the link stage over two cores (large stores; bench/link.py)

The token is read from the environment at run time and is never part of this object's
printable form.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from fixlore.errors import ConfigError
from fixlore.sources import DEFAULT_BASE_URLS, DEFAULT_TOKEN_ENV
from fixlore.timeutil import parse_time

PLATFORMS = ("gitcode", "github")


@dataclass
class Settings:
    platform: str = "gitcode"
    orgs: list[str] = field(default_factory=list)
    base_url: str = ""
    since: datetime | None = None
    token_env: str = ""
    db: str = "sqlite:///fixlore.db"
    rank_top_k: int | None = None
    lookback_days: int = 60
    rate_limit: bool = True
    time_scale: float = 1.0
    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    max_attempts: int = 8
    funnel: dict[str, Any] = field(default_factory=dict)
    kb_docs: list[str] = field(default_factory=list)   # "PATH" or "PATH=docs/<owner>/<repo>" (a local clone)
    kb_index: str = ""                                 # default: <out>/kb
    link_workers: int = 1                              # processes for the link stage (forked; worth it on large stores)

    def resolved(self) -> "Settings":
        """Fill platform defaults and check the values; raises ConfigError naming the bad one."""
        if self.platform not in PLATFORMS:
            raise ConfigError(f"platform must be one of {', '.join(PLATFORMS)}, not '{self.platform}'")
        if not self.base_url:
            self.base_url = DEFAULT_BASE_URLS[self.platform]
        if not self.token_env:
            self.token_env = DEFAULT_TOKEN_ENV[self.platform]
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"base_url must start with http:// or https://, not '{self.base_url}'")
        if self.lookback_days < 0:
            raise ConfigError("lookback_days must be zero or more")
        if self.rank_top_k is not None and self.rank_top_k < 0:
            raise ConfigError("rank_top_k must be zero or more")
        if self.link_workers < 1:
            raise ConfigError("link_workers must be 1 or more")
        if self.time_scale <= 0:
            raise ConfigError("time_scale must be positive")
        return self

    def token(self) -> str | None:
        return os.environ.get(self.token_env) or None if self.token_env else None

    def public(self) -> dict[str, Any]:
        """What may be written to run.json: names and values, never a secret."""
        data = asdict(self)
        data["since"] = self.since.isoformat() if self.since else None
        return data


def parse_since(value: Any, what: str = "since") -> datetime:
    when = parse_time(value)
    if when is None:
        raise ConfigError(f"{what} must be an ISO date or time such as 2026-09-17T00:00:00+08:00, not '{value}'")
    return when


def load_file(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file not found: {path}")
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".toml":
            data = tomllib.loads(text)
        else:
            data = yaml.safe_load(text)
    except (tomllib.TOMLDecodeError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path} is not valid {'TOML' if path.suffix == '.toml' else 'YAML'}: "
                          f"{str(exc).splitlines()[0]}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a mapping of settings")
    return data


_KEYS = {f.name for f in fields(Settings)}
_ALIASES = {"db_url": "db", "token_env_var": "token_env", "window_since": "since", "org": "orgs"}


def settings_from(data: dict[str, Any], overrides: dict[str, Any] | None = None) -> Settings:
    """Settings from a mapping (a config file) with ``overrides`` (CLI flags; None = not given) on top."""
    merged: dict[str, Any] = {}
    for key, value in (data or {}).items():
        key = _ALIASES.get(key, key)
        if key == "window" and isinstance(value, dict):
            key, value = "since", value.get("since")
        if key not in _KEYS:
            raise ConfigError(f"unknown setting '{key}' (known: {', '.join(sorted(_KEYS))})")
        merged[key] = value
    for key, value in (overrides or {}).items():
        if value is not None and value != [] and value != ():
            merged[key] = value
    settings = Settings()
    for key, value in merged.items():
        try:
            if key == "since":
                value = parse_since(value) if value not in (None, "") else None
            elif key in ("orgs", "kb_docs"):
                value = [value] if isinstance(value, str) else [str(v) for v in value]
            elif key in ("lookback_days", "max_attempts", "link_workers"):
                value = int(value)
            elif key == "rank_top_k":
                value = int(value) if value is not None else None
            elif key in ("time_scale", "connect_timeout", "read_timeout"):
                value = float(value)
            elif key == "rate_limit":
                value = bool(value)
            elif key == "funnel":
                value = dict(value or {})
            else:
                value = str(value)
        except (TypeError, ValueError):
            raise ConfigError(f"setting '{key}' has an invalid value: {value!r}") from None
        setattr(settings, key, value)
    return settings


def load_settings(path: str | Path | None, overrides: dict[str, Any] | None = None) -> Settings:
    return settings_from(load_file(path) if path else {}, overrides).resolved()
