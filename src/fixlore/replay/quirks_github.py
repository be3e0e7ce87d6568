"""GitHub behaviours a world can be served with on top of its data (set ``ReplayServer.world``).

``NullCloseCommits``: the REST timeline's ``closed`` entries carry ``commit_id: null`` even when
a commit or a merged PR closed the issue, as GitHub does for many closes made through a PR;
GraphQL (``replay/github_graphql.py``) still reads the world's own data through ``underlying``.
"""

from __future__ import annotations

from typing import Any

from fixlore.replay.world import World


class NullCloseCommits:
    """A view of a world whose issue histories say nothing about the commit that closed them."""

    def __init__(self, world: World) -> None:
        self.underlying = world

    def __getattr__(self, name: str) -> Any:
        return getattr(self.underlying, name)

    def issue_file(self, owner: str, repo: str, number: int, kind: str) -> list | None:
        items = self.underlying.issue_file(owner, repo, number, kind)
        if kind != "events" or items is None:
            return items
        return [{**e, "commit_id": None, "commit_url": None} if isinstance(e, dict) and e.get("event") == "closed"
                else e for e in items]
