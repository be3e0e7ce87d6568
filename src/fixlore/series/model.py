"""The series: set once (a config file or `fixlore series create`), stored in the ledger."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from fixlore.core.errors import ConfigError
from fixlore.settings.config import load_file, parse_since

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
_REPO = re.compile(r"^[^/\s]+/[^/\s]+$")
OWN_MCP = "mcp"          # the pointer for agents is our own `fixlore serve mcp`


@dataclass
class Series:
    name: str
    title: str
    tagline: str = ""
    agent_pointer: str = ""            # an http(s) URL, or "mcp" for our own `fixlore serve mcp`
    agent_label: str = ""              # the words before the pointer, e.g. "接入知识图谱"
    orgs: list[str] = field(default_factory=list)
    orgs_out: list[str] = field(default_factory=list)      # organisations this series leaves out (said in the disclosure)
    repos: list[str] = field(default_factory=list)         # owner/repo; empty: every repo of the orgs
    repos_out: list[str] = field(default_factory=list)
    since: str = ""                    # where the first edition's window starts (ISO)
    top_k: int | None = None           # cases analysed per edition (default: the run's rank_top_k)
    first_number: int = 1              # the number of the first edition recorded here (a series may predate fixlore)

    def check(self) -> "Series":
        if not _NAME.match(self.name or ""):
            raise ConfigError(f"series name must be letters, digits, '.', '_' or '-' (up to 100), not '{self.name}'")
        if not str(self.title or "").strip():
            raise ConfigError("a series needs a title")
        p = self.agent_pointer
        if p and p != OWN_MCP and not re.match(r"^https?://[^\s\"'<>]+$", p):
            raise ConfigError(f"agent_pointer must be an http(s) URL or '{OWN_MCP}', not '{p}'")
        for repo in [*self.repos, *self.repos_out]:
            if not _REPO.match(repo):
                raise ConfigError(f"repos are written owner/name, not '{repo}'")
        if self.since:
            self.since = parse_since(self.since, "series since").isoformat()
        if self.top_k is not None and int(self.top_k) < 0:
            raise ConfigError("top_k must be zero or more")
        if int(self.first_number) < 1:
            raise ConfigError("first_number must be 1 or more")
        return self

    def in_scope(self, repo: str) -> bool:
        low = repo.lower()
        org = low.split("/", 1)[0]
        if low in {r.lower() for r in self.repos_out} or org in {o.lower() for o in self.orgs_out}:
            return False
        if self.repos:
            return low in {r.lower() for r in self.repos}
        return not self.orgs or org in {o.lower() for o in self.orgs}

    def pointer_text(self) -> str:
        # the series folder by name (OUT), not by its path on the machine that published it
        return "fixlore serve mcp --out OUT" if self.agent_pointer == OWN_MCP else self.agent_pointer

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Series":
        known = {k: v for k, v in (data or {}).items() if k in cls.__dataclass_fields__}
        unknown = sorted(set(data or {}) - set(known))
        if unknown:
            raise ConfigError(f"unknown series setting '{unknown[0]}' (known: {', '.join(cls.__dataclass_fields__)})")
        for key in ("orgs", "orgs_out", "repos", "repos_out"):
            value = known.get(key)
            if isinstance(value, str):
                known[key] = [value]
            elif value is not None:
                known[key] = [str(v) for v in value]
        try:
            if known.get("top_k") is not None:
                known["top_k"] = int(known["top_k"])
            if known.get("first_number") is not None:
                known["first_number"] = int(known["first_number"])
        except (TypeError, ValueError):
            raise ConfigError("top_k and first_number must be whole numbers") from None
        if "name" not in known:
            raise ConfigError("a series needs a name")
        return cls(**known).check()


def series_from_file(path: str) -> list[Series]:
    """Series from a TOML/YAML file: either one series at the top level or a [series.NAME] table per series."""
    data = load_file(path)
    block = data.get("series")
    if isinstance(block, dict):
        return [Series.from_dict({"name": name, **(body or {})}) for name, body in block.items()]
    return [Series.from_dict(data)]


_DIGITS = "零一二三四五六七八九"


def zh_number(n: int) -> str:
    """An edition number as the seed writes it: 16 -> 十六, 21 -> 二十一, 100 -> 100."""
    if n < 0 or n >= 100:
        return str(n)
    tens, ones = divmod(n, 10)
    if tens == 0:
        return _DIGITS[ones]
    return ("" if tens == 1 else _DIGITS[tens]) + "十" + ("" if ones == 0 else _DIGITS[ones])
