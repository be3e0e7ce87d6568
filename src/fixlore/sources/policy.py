"""What differs between platforms at the HTTP level: headers, how the token is sent, documented quotas.

The policies live here, as data, so the client and the sources both read them without importing
each other: `ApiClient` asks `policy_for(platform)` and holds no platform branches of its own; each
`Source` class names its own (`GitCodeSource.policy`, `GitHubSource.policy`).
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
    # A 403/429 rate-limit answer naming no time (no retry-after, no x-ratelimit-remaining 0) is waited
    # out for a minute and longer (GitHub documents so); False: the usual short exponential back-off.
    wait_unnamed_limit: bool = False
    # Times a 403 that is no rate limit is asked again before it counts as a refusal (of the token, or
    # of that resource): GitCode's changelog fixed "occasional 403" on its PR list on 2025-03-06.
    forbidden_retries: int = 0

    def auth_headers(self, token: str | None) -> dict[str, str]:
        if not token:
            return {}
        return {name: template.replace("{token}", token) for name, template in self.token_headers}


DEFAULT_POLICY = PlatformPolicy()

# GitCode documents 50 requests a minute and 4,000 an hour and announces neither in headers;
# it reads the token from PRIVATE-TOKEN as well as from Authorization.
GITCODE_POLICY = PlatformPolicy(token_headers=(("Authorization", "Bearer {token}"), ("PRIVATE-TOKEN", "{token}")),
                                quotas=((50, 60.0), (4000, 3600.0)), forbidden_retries=1)
# GitHub announces its budget in X-RateLimit-* headers (no client-side quota) and wants its
# media type and a pinned API version. A rate-limit answer that names no time: "wait for at least one
# minute before retrying" (docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api).
GITHUB_POLICY = PlatformPolicy(headers={"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"},
                               wait_unnamed_limit=True)

POLICIES = {"gitcode": GITCODE_POLICY, "gitee": GITCODE_POLICY, "github": GITHUB_POLICY}


def policy_for(platform: str) -> PlatformPolicy:
    """The platform's policy; a platform without one gets the plain default."""
    return POLICIES.get(platform, DEFAULT_POLICY)
