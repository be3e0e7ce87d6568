"""Which split a truth row belongs to, the one rule `fixlore score --split`, `fixlore weights
learn --split` and the benches (bench/splits.py) share.

A world's truth names the split of each issue it encodes (`split:` in truth.yaml: npu-threads
tune, tune2, heldout2..5; paddle-threads, pytest-threads, seed-twin, seed-twin2 tune and
heldout). A row that names none is split by the SHA-1 rule of worldgen/seed_twin.py: `tune`
when the SHA-1 of "owner/repo#n" starts with 0-4, else `heldout` (ascend-2026-09, demo,
github-mini name none).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any


def by_hash(full_repo: str, number: int) -> str:
    """The SHA-1 rule of worldgen/seed_twin.py."""
    first = hashlib.sha1(f"{full_repo}#{number}".encode("utf-8")).hexdigest()[0]
    return "tune" if first in "01234" else "heldout"


def split_of(row: Mapping[str, Any]) -> str:
    """A truth row's split: its own `split:`, else the SHA-1 rule on its "owner/repo#n"."""
    return str(row.get("split") or by_hash(str(row["repo"]), int(row["number"])))


__all__ = ["by_hash", "split_of"]
