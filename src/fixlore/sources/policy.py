"""What differs between platforms at the HTTP level: headers, how the token is sent, documented quotas.

Each `Source` class supplies its platform's policy (`GitCodeSource.policy`, `GitHubSource.policy`);
`ApiClient` asks `policy_for(platform)` and holds no platform branches of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PlatformPolicy:
    headers: dict[str, str] = field(default_factory=lambda: {"Accept": "application/json"})
    # (header, template) pairs that carry the token; "{token}" is replaced by it
    token_headers: tuple[tuple[str, str], ...] = (("Authorization", "Bearer {token}"),)
    # (requests, seconds) windows the platform documents but does not announce in headers
    quotas: tuple[tuple[int, float], ...] = ()

    def auth_headers(self, token: str | None) -> dict[str, str]:
        if not token:
            return {}
        return {name: template.replace("{token}", token) for name, template in self.token_headers}


DEFAULT_POLICY = PlatformPolicy()


def policy_for(platform: str) -> PlatformPolicy:
    """The policy of the platform's `Source`; a platform without one gets the plain default."""
    # Imported here: the source modules import the client, which asks this function.
    if platform in ("gitcode", "gitee"):
        from fixlore.sources.gitcode import GitCodeSource
        return GitCodeSource.policy
    if platform == "github":
        from fixlore.sources.github import GitHubSource
        return GitHubSource.policy
    return DEFAULT_POLICY
