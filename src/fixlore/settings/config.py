"""Run settings. One precedence rule: command-line flags (`SettingFlags`) over the config file
(TOML or YAML) over a world's own settings (world.yaml, truth.yaml's window) over the built-in
defaults; `load_settings` applies it, once per command, and returns the typed `Settings`.

Example ``fixlore.toml``::

    platform = "gitcode"
    orgs = ["cann", "Ascend"]
    since = "2026-09-17T00:00:00+08:00"
    db = "sqlite:///fixlore.db"
    token_env = "GITCODE_TOKEN"      # the name of the variable, never the token itself
    rank_top_k = 63                  # or: value_min = 0.5 (every pool issue of value >= 0.5)
    lookback_days = 60
    kb_docs = ["../msmodeling=docs/Ascend/msmodeling"]   # local clones whose docs explain the cases
    link_workers = 2                 # fork the link stage over two cores (large stores; bench/link.py)

The token is read from the environment at run time and is never part of this object's
printable form.
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field, fields
from datetime import date, datetime
from pathlib import Path
from typing import Any

from fixlore.core.enums import Platform
from fixlore.core.errors import ConfigError
from fixlore.core.timeutil import has_offset, in_platform_zone, parse_user_time
from fixlore.edges.inputs import (check_db_url, check_http_url, load_yaml_mapping, read_text, redact_url,
                            without_userinfo)
from fixlore.rules.funnel.config import FunnelConfig
from fixlore.sources import DEFAULT_BASE_URLS, DEFAULT_TOKEN_ENV

PLATFORMS = tuple(p.value for p in Platform)
log = logging.getLogger(__name__)


@dataclass
class Settings:
    platform: str = "gitcode"
    orgs: list[str] = field(default_factory=list)
    base_url: str = ""
    since: datetime | None = None
    token_env: str = ""
    db: str = "sqlite:///fixlore.db"
    rank_top_k: int | None = None
    value_min: float | None = None     # the cut by value instead of top-K (`settings_from` decides)
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
    # the funnel's rules: the `funnel` mapping with the run's top-K cut (`settings_from` decides it)
    funnel_rules: FunnelConfig = field(default_factory=FunnelConfig, repr=False, compare=False)

    def resolved(self) -> "Settings":
        """Fill platform defaults and check the values; raises ConfigError naming the bad one."""
        if self.platform not in PLATFORMS:
            raise ConfigError(f"platform must be one of {', '.join(PLATFORMS)}, not '{self.platform}'")
        if not self.base_url:
            self.base_url = DEFAULT_BASE_URLS[self.platform]
        if not self.token_env:
            self.token_env = DEFAULT_TOKEN_ENV[self.platform]
        check_http_url(self.base_url, "base_url")
        self.base_url, had_userinfo = without_userinfo(self.base_url)
        if had_userinfo:
            log.warning("the user:password@ in base_url is ignored: fixlore authenticates with the token in "
                        "$%s only", self.token_env)
        self.db = check_db_url(self.db, check_folder=False)    # the command checks the folder
        if not _ENV_NAME.match(self.token_env):
            raise ConfigError(f"token_env names an environment variable (such as GITCODE_TOKEN), "
                              f"not '{self.token_env}'; the token itself goes in that variable")
        if any(not org.strip() or "/" in org or any(ch.isspace() for ch in org) for org in self.orgs):
            raise ConfigError(f"orgs are organisation names such as 'Ascend', not {self.orgs!r}")
        if self.lookback_days < 0:
            raise ConfigError("lookback_days must be zero or more")
        if self.rank_top_k is not None and self.rank_top_k < 0:
            raise ConfigError("rank_top_k must be zero or more")
        if self.link_workers < 1:
            raise ConfigError("link_workers must be 1 or more")
        if self.max_attempts < 1:
            raise ConfigError("max_attempts must be 1 or more")
        for key in ("time_scale", "connect_timeout", "read_timeout"):
            value = getattr(self, key)
            if not value > 0 or value == float("inf"):
                raise ConfigError(f"{key} must be a positive number, not {value}")
        for spec in self.kb_docs:
            check_kb_docs(spec)
        if self.value_min is not None and not 0.0 <= self.value_min <= 1.0:
            raise ConfigError(f"value_min must be between 0 and 1, not {self.value_min}")
        cut = {} if self.rank_top_k is None else {"rank_top_k": self.rank_top_k}
        # the cut settings_from decided (it lifts the mapping's own value_min into value_min)
        rules = {k: v for k, v in self.funnel.items() if k != "value_min"}
        self.funnel_rules = FunnelConfig.from_mapping({**rules, **cut, "value_min": self.value_min})
        return self

    def token(self) -> str | None:
        return os.environ.get(self.token_env) or None if self.token_env else None

    def public(self) -> dict[str, Any]:
        """What may be written to run.json: names and values, never a secret (URLs lose their user:password@)."""
        data = asdict(self)
        del data["funnel_rules"]               # the `funnel` mapping and `rank_top_k` say it
        data["since"] = self.since.isoformat() if self.since else None
        data["base_url"] = redact_url(self.base_url)
        data["db"] = redact_url(self.db)
        return data


def check_kb_docs(spec: str) -> tuple[Path, str]:
    """A ``kb_docs`` entry (``PATH`` or ``PATH=docs/<owner>/<repo>``): an existing folder and a
    relative prefix that stays inside the index's names."""
    path_text, sep, prefix = str(spec).partition("=")
    what = f"kb_docs (--kb-docs) {spec!r}"
    if not path_text.strip():
        raise ConfigError(f"{what} names no folder; give PATH or PATH=docs/<owner>/<repo>")
    path = Path(path_text).expanduser()
    if not path.is_dir():
        raise ConfigError(f"{what}: {path} is not a folder" + (" (it is a file)" if path.exists() else
                                                              " (it does not exist)"))
    if sep and (not prefix.strip() or prefix.startswith("/") or ".." in prefix.split("/")):
        raise ConfigError(f"{what}: the prefix after '=' must be a relative name such as docs/<owner>/<repo>")
    return path, prefix or "docs"


def parse_since(value: Any, what: str = "since") -> datetime:
    """A window start or moment the user gave (flag or file), strictly (`timeutil.parse_user_time`)."""
    if isinstance(value, date) and not isinstance(value, datetime):
        value = value.isoformat()             # YAML reads `since: 2026-09-17` as a date
    try:
        return parse_user_time(value)
    except ValueError as exc:
        raise ConfigError(f"{what} must be an ISO date or time such as 2026-09-17T00:00:00+08:00, not "
                          f"'{value}': {exc}") from None


def load_file(path: str | Path) -> dict[str, Any]:
    """The settings in a TOML (``.toml``) or YAML file, as a mapping."""
    path = Path(path)
    if path.suffix != ".toml":
        return load_yaml_mapping(path, "config file")
    text = read_text(path, "config file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {str(exc).splitlines()[0]}") from None


@dataclass(frozen=True)
class SettingFlags:
    """The settings a command was given as flags (None or empty: not given); they win over the
    config file. ``since`` is the text as typed: without an offset it is the platform's zone."""
    platform: str | None = None
    orgs: tuple[str, ...] = ()
    since: str | datetime | None = None
    db: str | None = None
    base_url: str | None = None
    token_env: str | None = None
    time_scale: float | None = None
    lookback_days: int | None = None
    rank_top_k: int | None = None
    value_min: float | None = None
    read_timeout: float | None = None
    rate_limit: bool | None = None
    max_attempts: int | None = None
    kb_docs: tuple[str, ...] = ()

    def given(self) -> dict[str, Any]:
        """The flags given, by setting name."""
        given = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in given.items() if v not in (None, (), [])}


_KEYS = {f.name for f in fields(Settings)} - {"funnel_rules"}
_ALIASES = {"db_url": "db", "token_env_var": "token_env", "window_since": "since", "org": "orgs"}


_INTS = ("lookback_days", "max_attempts", "link_workers", "rank_top_k")
_FLOATS = ("time_scale", "connect_timeout", "read_timeout", "value_min")
_LISTS = ("orgs", "kb_docs")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _coerce(key: str, value: Any) -> Any:
    """A setting's value in its type; what a file could mean two ways (``rate_limit = "no"``) is refused."""
    if key == "since":
        return parse_since(value) if value is not None else None
    if key in ("rank_top_k", "value_min") and value is None:
        return None
    if key in _LISTS:
        if isinstance(value, str):
            return [value]
        if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int)) for v in value):
            return [str(v) for v in value]
        raise ValueError
    if key in _INTS:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, int):
            return value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise ValueError
    if key in _FLOATS:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError
        return float(value)
    if key == "rate_limit":
        if not isinstance(value, bool):
            raise ValueError
        return value
    if key == "funnel":
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ValueError
        return dict(value)
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise ValueError
    return str(value)


_EXPECTED = {"rate_limit": "true or false", "funnel": "a mapping", "since": "an ISO time",
             **{k: "a whole number" for k in _INTS}, **{k: "a number" for k in _FLOATS},
             **{k: "a list of names" for k in _LISTS}}


def _mapping(data: dict[str, Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in (data or {}).items():
        key = _ALIASES.get(key, key)
        if key == "window" and isinstance(value, dict):
            key, value = "since", value.get("since")
        if key not in _KEYS:
            raise ConfigError(f"unknown setting '{key}' in {where} (known: {', '.join(sorted(_KEYS))})")
        out[key] = value
    return out


def settings_from(data: dict[str, Any], flags: SettingFlags | None = None,
                  defaults: dict[str, Any] | None = None) -> Settings:
    """Settings by one precedence rule: ``flags`` over ``data`` (the config file) over
    ``defaults`` (a world's own settings and the run's) over the built-in defaults.

    The run's cut is decided here and nowhere else: a value threshold (``value_min``: every pool
    issue whose value is at least X) or the top K (``rank_top_k``). Each is read as before (the
    flag, else the ``funnel`` mapping's own, else the top-level setting, file then world); a
    threshold set anywhere is the cut unless a ``--rank-top-k`` flag asks for top-K. Both flags
    at once is an error.
    A ``since`` flag without an offset is read in the platform's zone (GitCode +08:00)."""
    given = (flags or SettingFlags()).given()
    merged: dict[str, Any] = {}
    for layer, where in ((defaults, "the world"), (data, "the config file")):
        merged.update(_mapping(layer or {}, where))
    merged.update(given)
    settings = Settings()
    for key, value in merged.items():
        setattr(settings, key, _checked(key, value))
    if "rank_top_k" not in given and "rank_top_k" in settings.funnel:
        settings.rank_top_k = _checked("rank_top_k", settings.funnel["rank_top_k"])
    if "value_min" in given and "rank_top_k" in given:
        raise ConfigError("give either --rank-top-k (the top K) or --value-min (a value threshold), not both")
    if "value_min" not in given and "value_min" in settings.funnel:
        settings.value_min = _checked("value_min", settings.funnel["value_min"])
    if "rank_top_k" in given:
        settings.value_min = None
    raw_since = given.get("since")
    if isinstance(raw_since, str) and settings.since is not None and not has_offset(raw_since):
        settings.since = in_platform_zone(settings.since, settings.platform)
    return settings


def _checked(key: str, value: Any) -> Any:
    try:
        return _coerce(key, value)
    except (TypeError, ValueError):
        raise ConfigError(f"setting '{key}' must be {_EXPECTED.get(key, 'text')}, not {value!r}") from None


def load_settings(path: str | Path | None, flags: SettingFlags | None = None,
                  defaults: dict[str, Any] | None = None) -> Settings:
    """The typed settings of a command: ``flags`` over the config file at ``path`` over
    ``defaults`` (a world's settings and the run's), checked (`Settings.resolved`)."""
    return settings_from(load_file(path) if path else {}, flags, defaults).resolved()
