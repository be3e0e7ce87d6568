"""What the user hands the CLI, checked before any work: files, folders, URLs, database URLs.

Every check raises ConfigError naming the input and what to do, and none of them creates
anything: a command that fails on its input leaves no empty store and no folder behind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import yaml

from fixlore.errors import ConfigError

# Database URL schemes the store speaks (SQLAlchemy dialect names).
DB_SCHEMES = ("sqlite", "postgresql+psycopg")


def read_text(path: str | Path, what: str) -> str:
    """The UTF-8 text of a file the user named; binary or undecodable files are refused."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{what} {path} is a folder; give a file")
    if not path.is_file():
        raise ConfigError(f"{what} not found: {path}")
    data = path.read_bytes()
    if b"\x00" in data:
        raise ConfigError(f"{what} {path} is a binary file, not text; give the right file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what} {path} is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None


def load_yaml_mapping(path: str | Path, what: str) -> dict[str, Any]:
    """A YAML file that must hold a mapping (world.yaml, truth.yaml, a YAML config)."""
    text = read_text(path, what)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{what} {path} is not valid YAML{where}: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{what} {path} must hold a mapping (key: value lines), not a {type(data).__name__}")
    return data


def check_http_url(url: str, what: str = "base URL") -> str:
    """An http(s) URL with a host (and a valid port when one is given); returned unchanged."""
    try:
        parts = urlsplit(url)
        parts.port                      # raises on a port that is not a number in range
    except ValueError as exc:
        raise ConfigError(f"{what} {strip_userinfo(url)!r} is malformed ({exc}); "
                          f"give a URL such as https://api.gitcode.com/api/v5") from None
    if parts.scheme not in ("http", "https"):
        raise ConfigError(f"{what} must start with http:// or https://, not {strip_userinfo(url)!r}")
    if not parts.hostname:
        raise ConfigError(f"{what} {strip_userinfo(url)!r} names no host; give a URL such as "
                          f"https://api.gitcode.com/api/v5")
    return url


def strip_userinfo(url: str) -> str:
    """``url`` without ``user:password@``: what may be logged, stored or shown."""
    try:
        parts = urlsplit(url)
    except ValueError:                  # malformed, yet it may still carry a password
        scheme, sep, rest = url.partition("://")
        return f"{scheme}{sep}{rest.rsplit('@', 1)[-1]}" if sep else url.rsplit("@", 1)[-1]
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def url_passwords(*urls: str) -> list[str]:
    """The passwords in the ``user:password@`` of ``urls`` (for masking in logs)."""
    found = []
    for url in urls:
        try:
            password = urlsplit(url).password
        except ValueError:
            continue
        if password:
            found.append(password)
    return found


def check_db_url(url: str, *, must_exist: bool = False, check_folder: bool = True,
                 made_here: Path | None = None) -> str:
    """A database URL the store can open: ``sqlite:///PATH`` in an existing folder, or PostgreSQL
    (``postgresql://`` and ``postgres://`` are read as ``postgresql+psycopg://``, the driver installed).

    ``must_exist``: for commands that only read, a SQLite file that is not there is an error
    (they would otherwise create an empty store before failing). ``check_folder``: the file's
    folder must exist, unless it is ``made_here`` (the run folder the command creates).
    """
    shown = _db_shown(url)
    if "://" not in url:
        raise ConfigError(f"database {shown!r} is not a URL; give sqlite:///PATH or postgresql+psycopg://HOST/DB")
    scheme, rest = url.split("://", 1)
    scheme = scheme.lower()
    if scheme in ("postgresql", "postgres"):
        scheme, url = "postgresql+psycopg", f"postgresql+psycopg://{rest}"
    if scheme not in DB_SCHEMES:
        raise ConfigError(f"unsupported database {shown!r}: give sqlite:///PATH or postgresql+psycopg://HOST/DB")
    if scheme == "sqlite":
        rest = url[len("sqlite://"):]
        if not rest.startswith("/"):
            raise ConfigError(f"database {shown!r}: a SQLite URL is sqlite:///PATH (three slashes)")
        path_text = rest[1:].split("?", 1)[0]
        if path_text in ("", ":memory:"):
            return url
        path = Path(path_text).expanduser()
        if path.is_dir():
            raise ConfigError(f"database {shown!r} is a folder; give a file path")
        if must_exist and not path.is_file():
            raise ConfigError(f"no store at {path}; give the --db (or --out) of a finished run")
        if check_folder and not path.parent.is_dir() and not (
                made_here is not None and path.parent.resolve() == made_here.resolve()):
            raise ConfigError(f"database {shown!r}: folder {path.parent} does not exist; create it or choose another")
    return url


def _db_shown(url: str) -> str:
    return strip_userinfo(url) if "://" in url else url


def check_out_dir(path: Path, what: str = "--out") -> Path:
    """An output folder that exists or can be made (nothing is created here)."""
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{what} {path} is a file, not a folder; give a folder")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ConfigError(f"{what} {path}: {parent} is a file, not a folder")
            break
    return path
