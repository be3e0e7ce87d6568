"""Which split a measured row belongs to, the one rule both row benches (bench/rows.py,
bench/facts_reader.py) read, so that a figure is reported per split and the held-out rows are
never read while a rule is tuned.

A world's truth names the split of each issue it encodes (`split:` in truth.yaml; seed-twin and
seed-twin2 by the SHA-1 rule of worldgen/seed_twin.py). A world whose truth names none
(ascend-2026-09) is split by that same rule: `tune` when the SHA-1 of "owner/repo#n" starts with
0-4, else `heldout`. Only the split is shared: each bench reads rows and facts its own way.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from fixlore.evaluate.splits import by_hash   # the SHA-1 rule, kept in the library (`fixlore score --split`)

SPLITS = ("tune", "heldout", "all")


def full_names(world: Path) -> dict[str, str]:
    """{repo name, casefolded: "owner/name"} of the repositories a world holds (and each full name to itself)."""
    out: dict[str, str] = {}
    for repo in sorted(p for p in world.glob("repos/*/*") if p.is_dir()):
        full = f"{repo.parent.name}/{repo.name}"
        out.setdefault(repo.name.casefold(), full)
        out[full.casefold()] = full
    return out


class Splits:
    """The split of each (repo, number) of one world; `repo` as the world's folder names it or in full."""

    def __init__(self, world: Path):
        self.names = full_names(world)
        self.named: dict[tuple[str, int], str] = {}
        truth = world / "truth.yaml"
        if truth.exists():
            data = yaml.safe_load(truth.read_text(encoding="utf-8")) or {}
            for row in data.get("issues") or []:
                if isinstance(row, dict) and row.get("split"):
                    self.named[(str(row["repo"]).casefold(), int(row["number"]))] = str(row["split"])

    def of(self, repo: str, number: int) -> str:
        full = self.names.get(repo.casefold(), repo)
        return self.named.get((full.casefold(), number)) or by_hash(full, number)

    def keep(self, repo: str, number: int, split: str) -> bool:
        """Whether a row is in `split` ("all" keeps every row)."""
        return split == "all" or self.of(repo, number) == split


__all__ = ["SPLITS", "Splits", "by_hash", "full_names"]
