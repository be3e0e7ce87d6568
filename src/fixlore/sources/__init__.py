"""Platform sources: one HTTP client (``http``), one Source per platform, and an offline world reader."""

from __future__ import annotations

from fixlore.errors import ConfigError
from fixlore.sources.base import IssueDetail, PullDetail, Source
from fixlore.sources.http import ApiClient

DEFAULT_BASE_URLS = {"gitcode": "https://api.gitcode.com/api/v5", "github": "https://api.github.com"}
DEFAULT_TOKEN_ENV = {"gitcode": "GITCODE_TOKEN", "github": "GITHUB_TOKEN"}


def make_source(platform: str, client: ApiClient) -> Source:
    if platform == "gitcode":
        from fixlore.sources.gitcode import GitCodeSource
        return GitCodeSource(client)
    if platform == "github":
        from fixlore.sources.github import GitHubSource
        return GitHubSource(client)
    raise ConfigError(f"unknown platform '{platform}' (expected gitcode or github)")


__all__ = ["ApiClient", "IssueDetail", "PullDetail", "Source", "make_source", "DEFAULT_BASE_URLS",
           "DEFAULT_TOKEN_ENV"]
