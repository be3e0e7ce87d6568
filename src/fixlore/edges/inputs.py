"""What the user hands the CLI, checked before any work: files, folders, URLs, database URLs,
numbers and choices; and the one rule for showing a URL (``redact_url``).

Every check raises ConfigError naming the input and what to do, and none of them creates
anything: a command that fails on its input leaves no empty store and no folder behind.

A URL is shown, logged, stored or written to run.json only through ``redact_url``: without its
``user:password@`` and with the value of every credential-like query parameter (``access_token``,
``private_token``, ``token``, ``key``, ``api_key``, ``secret``, ``password``, ``sig`` ...) as ``***``.
"""

from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import re

import yaml

from fixlore.core.errors import ConfigError

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


# Parsed YAML by its text, the last few documents: PyYAML's pure-Python loader spends about a
# second on a world's 200 KB truth.yaml, which a run reads for its window and a process running
# the same world again (a test, a series publishing edition after edition) reads every time.
# Keyed by the text itself, so an edited file is parsed anew however quickly it was rewritten;
# the result is kept pickled and each caller gets its own copy to change. (The C loader would be
# faster but reads some documents differently: tabs, a lone `!`.)
_YAML_MEMO: "OrderedDict[str, bytes]" = OrderedDict()
_YAML_MEMO_SIZE = 16
_YAML_LOCK = threading.Lock()


def safe_load_yaml(text: str) -> Any:
    """`yaml.safe_load(text)`, parsed once per process for the same text; raises as it does."""
    with _YAML_LOCK:
        kept = _YAML_MEMO.get(text)
        if kept is not None:
            _YAML_MEMO.move_to_end(text)
    if kept is not None:
        return pickle.loads(kept)
    data = yaml.safe_load(text)
    with _YAML_LOCK:
        _YAML_MEMO[text] = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        while len(_YAML_MEMO) > _YAML_MEMO_SIZE:
            _YAML_MEMO.popitem(last=False)
    return data


def load_yaml_mapping(path: str | Path, what: str) -> dict[str, Any]:
    """A YAML file that must hold a mapping (world.yaml, truth.yaml, a YAML config)."""
    text = read_text(path, what)
    try:
        data = safe_load_yaml(text)
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
    """An http(s) URL with a host (and a valid port when one is given), without spaces, control
    characters, a query string or a fragment (an API root is a path: ``?access_token=`` there
    would be sent to the wrong place and shown wherever the URL is); returned unchanged."""
    example = "give a URL such as https://api.gitcode.com/api/v5"
    shown = redact_url(url)
    if any(ch.isspace() for ch in url):
        raise ConfigError(f"{what} {shown!r} contains a space; {example}")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in url):
        raise ConfigError(f"{what} {shown!r} contains a control character; {example}")
    try:
        parts = urlsplit(url)
        parts.port                      # raises on a port that is not a number in range
    except ValueError as exc:
        raise ConfigError(f"{what} {shown!r} is malformed ({exc}); {example}") from None
    if parts.scheme not in ("http", "https"):
        raise ConfigError(f"{what} must start with http:// or https://, not {shown!r}")
    if not parts.hostname:
        raise ConfigError(f"{what} {shown!r} names no host; {example}")
    if parts.query or parts.fragment or url.rstrip("/").endswith(("?", "#")):
        raise ConfigError(f"{what} {shown!r} carries a query string or fragment; give the API root only "
                          f"(a token goes in the variable named by --token-env)")
    return url


def without_userinfo(url: str) -> tuple[str, bool]:
    """``url`` without its ``user:password@``, and whether it had one. fixlore never authenticates
    with a URL's userinfo: the token comes from the environment variable, so a base URL's
    userinfo is dropped (and the user told) rather than let replace the token."""
    clean = _strip_userinfo(url)
    return clean, clean != url


# A query parameter whose value is a credential, by its name (access_token, private_token, token,
# key, api_key, apikey, client_secret, password, sig, signature, auth, ...); "author" is not one.
_SECRET_NAME = re.compile(r"token|secret|passw|pwd|credential|signature|api_?key|(^|[_-])(key|sig|auth)$",
                          re.IGNORECASE)
_QUERY_PARAM = re.compile(r"([?&;])([^=&;#\s]+)=([^&;#\s]*)")
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]+")


def redact_url(url: str) -> str:
    """What may be logged, stored or shown of ``url``: no ``user:password@``, and the value of
    every credential-like query parameter replaced by ``***``."""
    def mask(m: re.Match) -> str:
        return f"{m.group(1)}{m.group(2)}=***" if _SECRET_NAME.search(m.group(2)) else m.group(0)

    return _QUERY_PARAM.sub(mask, _strip_userinfo(url))


def redact_urls(text: str) -> str:
    """``text`` with every URL in it passed through :func:`redact_url` (log lines, error lines, run.json)."""
    if "://" not in text:
        return text
    return _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)


def _strip_userinfo(url: str) -> str:
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
        if path_text == "":
            raise ConfigError(f"database {shown!r} names no file; give sqlite:///PATH")
        if path_text == ":memory:":
            raise ConfigError(f"database {shown!r} would be kept in memory and lost when the command ends, "
                              f"nothing kept; give sqlite:///PATH")
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
    return redact_url(url) if "://" in url else url


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


def check_new_file(path: Path, what: str) -> Path:
    """A file the command will write: not a folder, its folder exists or can be made (nothing made here)."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{what} {path} is a folder; give a file")
    check_out_dir(path.parent, what)
    return path


def check_number(value: float | int | None, what: str, *, low: float | None = None,
                 high: float | None = None, above: float | None = None) -> None:
    """A number in range (``above``: strictly greater); NaN and infinity are refused. None passes."""
    if value is None:
        return
    if value != value or value in (float("inf"), float("-inf")):
        raise ConfigError(f"{what} must be a finite number, not {value}")
    if above is not None and not value > above:
        raise ConfigError(f"{what} must be more than {above:g}, not {value:g}")
    if low is not None and value < low:
        raise ConfigError(f"{what} must be {low:g} or more, not {value:g}")
    if high is not None and value > high:
        raise ConfigError(f"{what} must be {high:g} or less, not {value:g}")


def check_choice(value: str | None, what: str, choices) -> None:
    """One of ``choices`` (None passes)."""
    if value is not None and value not in choices:
        raise ConfigError(f"{what} must be one of {', '.join(choices)}, not {value!r}")


def check_index(index: Path, marker: str) -> Path:
    """An index folder a reading command opens (``marker``: the file every index holds): it must
    be there, as a store must (a search never creates an empty index)."""
    if not (Path(index) / marker).is_file():
        raise ConfigError(f"no knowledge base in {index}: build one with `fixlore kb build DOCS_DIR --index {index}` "
                          f"or give the --out of a finished run")
    return Path(index)


def from_environment(param: str) -> bool:
    """Whether the running command's option `param` took its value from its environment variable:
    a variable names a run folder, never a file to write (a flag given by hand may be either)."""
    # typer 0.29 carries its own click (typer._click): the context lives there, not in `click`
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    return bool(ctx) and ctx.get_parameter_source(param) is ParameterSource.ENVIRONMENT
