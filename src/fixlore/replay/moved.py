"""The strict quirk ``moved_repos``: every repository answers at its new address only.

GitHub answers a request for a renamed or transferred repository by its old name with "301 Moved
Permanently" and a ``Location`` under ``/repositories/{id}/...``, the rest of the path and the query
kept ("Clients should assume that any request may result in a redirection": docs.github.com REST
"Best practices": follow redirects; 302/307 are temporary ones). GitCode lists 301 (Location) among its
status codes (reference/gitcode-api.md §6). The quirk plays it for every repository at once: each
``/repos/{owner}/{repo}...`` request is sent to ``/repositories/{id}...``, which is served, so the
``Link`` headers of its pages name the new address too. Ids are the repositories' places in the world.
"""

from __future__ import annotations

import re

from fixlore.replay.listing import Answer
from fixlore.replay.world import World

_BY_NAME = re.compile(r"^/repos/([^/]+)/([^/]+)(/.*)?$")
_BY_ID = re.compile(r"^/repositories/(\d+)(/.*)?$")


class RepoIds:
    """Each repository's id, its place in the world (from 1), read once when the world is loaded: a
    request is turned by its name to its id and back without listing the world's folders again."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.names = world.repos()
        self.ids = {name: at for at, name in enumerate(self.names, 1)}

    def new_address(self, path: str) -> str | None:
        """``/repositories/{id}...`` for a request of a repository by its name (None: no such request)."""
        m = _BY_NAME.match(path)
        canon = self.world.canonical(m.group(1), m.group(2)) if m else None
        if m is None or canon not in self.ids:
            return None
        return f"/repositories/{self.ids[canon]}{m.group(3) or ''}"

    def by_name(self, path: str) -> str | None:
        """The by-name path a ``/repositories/{id}...`` request stands for (None: no such repository)."""
        m = _BY_ID.match(path)
        if m is None or not 1 <= int(m.group(1)) <= len(self.names):
            return None
        owner, name = self.names[int(m.group(1)) - 1]
        return f"/repos/{owner}/{name}{m.group(2) or ''}"


def moved(location: str) -> Answer:
    return Answer(301, {"message": "Moved Permanently", "url": location,
                        "documentation_url": "https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api"
                                             "#follow-redirects"}, {"Location": location})
