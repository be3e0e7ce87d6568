"""The moved_repos quirk's addresses (replay.moved.RepoIds): a repository's name to its id and back, with the
world's folders listed once when it is loaded, not on every request."""

from __future__ import annotations

from fixlore.replay.moved import RepoIds


class _World:
    """Two repositories; counts how often its folders are listed."""

    def __init__(self) -> None:
        self.listed = 0

    def repos(self) -> list[tuple[str, str]]:
        self.listed += 1
        return [("Ascend", "a"), ("Ascend", "b")]

    def canonical(self, owner: str, repo: str) -> tuple[str, str] | None:
        return next((r for r in [("Ascend", "a"), ("Ascend", "b")] if (r[0].lower(), r[1].lower())
                     == (owner.lower(), repo.lower())), None)


def test_names_and_ids_go_both_ways_and_the_world_is_listed_once():
    world = _World()
    ids = RepoIds(world)
    assert ids.new_address("/repos/ascend/B/issues") == "/repositories/2/issues"
    assert ids.new_address("/repos/Ascend/a") == "/repositories/1"
    assert ids.new_address("/repos/Ascend/none/issues") is None and ids.new_address("/user") is None
    assert ids.by_name("/repositories/2/pulls?page=2") == "/repos/Ascend/b/pulls?page=2"
    assert ids.by_name("/repositories/3") is None and ids.by_name("/repositories/0") is None
    assert world.listed == 1
