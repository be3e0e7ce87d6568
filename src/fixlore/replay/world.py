"""A world: an offline snapshot of a code-hosting organisation, one platform JSON object per file.

The layout is described in ``/work/shared/reference/world-format.md``. ``World`` reads it
lazily (each file on first use, then cached) or eagerly (``World(path, eager=True)``
reads and validates every file up front). Payloads are returned exactly as stored, in the
platform's own shape; nothing here normalises them.
"""

from __future__ import annotations

import json
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from fixlore.core.enums import Platform
from fixlore.core.errors import ConfigError
from fixlore.edges.inputs import safe_load_yaml
from fixlore.core.timeutil import parse_time

PLATFORMS = tuple(p.value for p in Platform)

ISSUE_FILES = ("comments", "events", "pulls")
PULL_FILES = ("issues", "files", "comments", "commits", "events")


class World:
    """One world folder. Cheap to create; objects are read on first access and cached."""

    def __init__(self, path: str | Path, *, eager: bool = False) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise ConfigError(f"world not found: {self.path} is not a folder")
        meta_path = self.path / "world.yaml"
        if not meta_path.is_file():
            raise ConfigError(f"not a world: {meta_path} is missing")
        try:
            meta = safe_load_yaml(meta_path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ConfigError(f"invalid world: {meta_path} is not valid YAML ({_first_line(exc)})") from None
        if not isinstance(meta, dict):
            raise ConfigError(f"invalid world: {meta_path} must be a mapping")
        platform = meta.get("platform")
        if platform not in PLATFORMS:
            raise ConfigError(f"invalid world: {meta_path}: platform must be one of {', '.join(PLATFORMS)}, got {platform!r}")
        snapshot = parse_time(meta.get("snapshot_at"))
        if snapshot is None:
            raise ConfigError(f"invalid world: {meta_path}: snapshot_at is missing or not an ISO time")
        orgs = meta.get("orgs") or []
        if not isinstance(orgs, list) or not all(isinstance(o, str) for o in orgs):
            raise ConfigError(f"invalid world: {meta_path}: orgs must be a list of names")

        self.meta: dict[str, Any] = meta
        self.platform: str = platform
        self.snapshot_at: datetime = snapshot
        self.orgs: list[str] = list(orgs)
        self.description: str = str(meta.get("description") or "")
        self.rank_top_k: int | None = meta.get("rank_top_k")

        self._cache: dict[Path, Any] = {}
        self._listings: dict[Path, list[int]] = {}
        self._dirs: dict[tuple[str, str], Path] = {}
        self._lock = threading.Lock()
        if eager:
            self.load_all()

    def __repr__(self) -> str:
        return f"World({str(self.path)!r}, platform={self.platform!r}, orgs={self.orgs!r})"

    # ---------- files ----------

    def _json(self, path: Path, *, default: Any = None) -> Any:
        with self._lock:
            if path in self._cache:
                return self._cache[path]
        if not path.is_file():
            return default
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"invalid world file {path}: {_first_line(exc)}") from None
        with self._lock:
            self._cache[path] = data
        return data

    def _repo_dir(self, owner: str, repo: str) -> Path | None:
        """The folder of owner/repo; exact match first, then case-insensitive (paths are case-insensitive on the web).
        Found once per spelling, as the files are read once (every request of a harvest asks)."""
        key = (owner, repo)
        with self._lock:
            found = self._dirs.get(key)
        if found is None:
            found = self._find_repo_dir(owner, repo)
            if found is not None:
                with self._lock:
                    self._dirs[key] = found
        return found

    def _find_repo_dir(self, owner: str, repo: str) -> Path | None:
        exact = self.path / "repos" / owner / repo
        if exact.is_dir():
            return exact
        root = self.path / "repos"
        if not root.is_dir():
            return None
        for odir in root.iterdir():
            if odir.is_dir() and odir.name.lower() == owner.lower():
                for rdir in odir.iterdir():
                    if rdir.is_dir() and rdir.name.lower() == repo.lower():
                        return rdir
        return None

    # ---------- organisations and repositories ----------

    def org_repos(self, org: str) -> list[dict] | None:
        """The repo listing of an org (orgs/<org>.json), or None when the org is unknown."""
        for name in self._org_names():
            if name.lower() == org.lower():
                listing = self._json(self.path / "orgs" / f"{name}.json")
                if listing is not None:
                    if not isinstance(listing, list):
                        raise ConfigError(f"invalid world file {self.path / 'orgs' / (name + '.json')}: must be an array")
                    return listing
                # An org folder under repos/ without a listing: build one from the repo objects.
                return [self.repo(o, r) for o, r in self.repos() if o == name]
        return None

    def _org_names(self) -> list[str]:
        names = set(self.orgs)
        if (self.path / "orgs").is_dir():
            names.update(p.stem for p in (self.path / "orgs").glob("*.json"))
        if (self.path / "repos").is_dir():
            names.update(p.name for p in (self.path / "repos").iterdir() if p.is_dir())
        return sorted(names)

    def repos(self) -> list[tuple[str, str]]:
        """Every (owner, repo) that has a folder, sorted."""
        root = self.path / "repos"
        if not root.is_dir():
            return []
        out = []
        for odir in sorted(p for p in root.iterdir() if p.is_dir()):
            for rdir in sorted(p for p in odir.iterdir() if p.is_dir()):
                out.append((odir.name, rdir.name))
        return out

    def has_repo(self, owner: str, repo: str) -> bool:
        return self._repo_dir(owner, repo) is not None

    def repo(self, owner: str, repo: str) -> dict | None:
        d = self._repo_dir(owner, repo)
        if d is None:
            return None
        return self._json(d / "repo.json", default=None) or {"full_name": f"{d.parent.name}/{d.name}", "path": d.name}

    def canonical(self, owner: str, repo: str) -> tuple[str, str] | None:
        """The (owner, repo) spelling stored on disk for a request's spelling."""
        d = self._repo_dir(owner, repo)
        return (d.parent.name, d.name) if d else None

    # ---------- issues and pulls ----------

    def _numbers(self, owner: str, repo: str, kind: str) -> list[int]:
        d = self._repo_dir(owner, repo)
        if d is None or not (d / kind).is_dir():
            return []
        key = d / kind
        with self._lock:
            cached = self._listings.get(key)
        if cached is None:
            # <n>.json, not <n>.comments.json; listed once (reload() builds a fresh World).
            cached = sorted(int(p.stem) for p in key.glob("*.json") if p.stem.isdigit())
            with self._lock:
                self._listings[key] = cached
        return list(cached)

    def issue_numbers(self, owner: str, repo: str) -> list[int]:
        return self._numbers(owner, repo, "issues")

    def pull_numbers(self, owner: str, repo: str) -> list[int]:
        return self._numbers(owner, repo, "pulls")

    def issue(self, owner: str, repo: str, number: int) -> dict | None:
        d = self._repo_dir(owner, repo)
        return None if d is None else self._json(d / "issues" / f"{int(number)}.json")

    def pull(self, owner: str, repo: str, number: int) -> dict | None:
        d = self._repo_dir(owner, repo)
        return None if d is None else self._json(d / "pulls" / f"{int(number)}.json")

    def issues(self, owner: str, repo: str) -> list[dict]:
        """Every stored issue object of the repo, by number (on GitHub this includes the issue form of PRs)."""
        return [self.issue(owner, repo, n) for n in self.issue_numbers(owner, repo)]

    def pulls(self, owner: str, repo: str) -> list[dict]:
        return [self.pull(owner, repo, n) for n in self.pull_numbers(owner, repo)]

    def issue_file(self, owner: str, repo: str, number: int, kind: str) -> list | None:
        """An issue's per-object array (comments, events, pulls); None when the file is absent."""
        if kind not in ISSUE_FILES:
            raise ValueError(f"unknown issue file kind {kind!r}")
        d = self._repo_dir(owner, repo)
        return None if d is None else self._json(d / "issues" / f"{int(number)}.{kind}.json")

    def pull_file(self, owner: str, repo: str, number: int, kind: str) -> list | None:
        """A PR's per-object array (issues, files, comments, commits, events); None when absent."""
        if kind not in PULL_FILES:
            raise ValueError(f"unknown pull file kind {kind!r}")
        d = self._repo_dir(owner, repo)
        return None if d is None else self._json(d / "pulls" / f"{int(number)}.{kind}.json")

    # ---------- docs and truth ----------

    def docs(self) -> list[str]:
        """World-relative paths of every document (docs/<owner>/<repo>/...), sorted."""
        root = self.path / "docs"
        if not root.is_dir():
            return []
        return sorted(p.relative_to(self.path).as_posix() for p in root.rglob("*") if p.is_file())

    def truth(self) -> dict | None:
        p = self.path / "truth.yaml"
        if not p.is_file():
            return None
        try:
            data = safe_load_yaml(p.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ConfigError(f"invalid world file {p}: {_first_line(exc)}") from None
        if not isinstance(data, dict):
            raise ConfigError(f"invalid world file {p}: must be a mapping")
        return data

    # ---------- whole-world ----------

    def load_all(self) -> None:
        """Read and parse every file now, so a broken world fails at load time, not mid-harvest."""
        for org in self._org_names():
            self.org_repos(org)
        for owner, repo in self.repos():
            self.repo(owner, repo)
            for n in self.issue_numbers(owner, repo):
                if not isinstance(self.issue(owner, repo, n), dict):
                    raise ConfigError(f"invalid world: issue {owner}/{repo}#{n} is not an object")
                for kind in ISSUE_FILES:
                    self.issue_file(owner, repo, n, kind)
            for n in self.pull_numbers(owner, repo):
                if not isinstance(self.pull(owner, repo, n), dict):
                    raise ConfigError(f"invalid world: pull {owner}/{repo}!{n} is not an object")
                for kind in PULL_FILES:
                    self.pull_file(owner, repo, n, kind)
        self.truth()


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
