"""Platform sources: one HTTP client (``http``), one Source per platform, and an offline world reader."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from fixlore.core.errors import ConfigError

if TYPE_CHECKING:
    from fixlore.sources.base import Source
    from fixlore.sources.http import ApiClient
    from fixlore.sources.listforms import ProbeForms

DEFAULT_BASE_URLS = {"gitcode": "https://api.gitcode.com/api/v5", "github": "https://api.github.com"}
DEFAULT_TOKEN_ENV = {"gitcode": "GITCODE_TOKEN", "github": "GITHUB_TOKEN"}


_EXPORTS = {"IssueDetail": "base", "PullDetail": "base", "Source": "base", "ApiClient": "http"}


def __getattr__(name: str):
    # Loaded on first use (PEP 562): the HTTP stack only when a source is made.
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"fixlore.sources.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'fixlore.sources' has no attribute {name!r}")


def make_source(platform: str, client: "ApiClient", probe: "ProbeForms | None" = None) -> "Source":
    """The platform's source; ``probe`` (`sources.listforms.read_probe`) chooses its list-ordering forms."""
    if platform == "gitcode":
        from fixlore.sources.gitcode import GitCodeSource
        return GitCodeSource(client, probe)
    if platform == "github":
        from fixlore.sources.github import GitHubSource
        return GitHubSource(client, probe)
    raise ConfigError(f"unknown platform '{platform}' (expected gitcode or github)")


__all__ = ["ApiClient", "IssueDetail", "PullDetail", "Source", "make_source", "DEFAULT_BASE_URLS",
           "DEFAULT_TOKEN_ENV"]
