"""Which split a truth row belongs to, the one rule `fixlore score --split`, `fixlore weights
learn --split` and the benches (bench/splits.py) share.

A world's truth names the split of each issue it encodes (`split:` in truth.yaml: npu-threads
tune, tune2, heldout2..5; paddle-threads, pytest-threads, seed-twin, seed-twin2, accel-threads9,
accel-threads10, accel-threads11, accel-threads12 tune and heldout; accel-threads, accel-threads2 … accel-threads6,
accel-threads8 heldout only;
accel-threads7 tune only). A truth that names none is split by the SHA-1 rule of
worldgen/seed_twin.py: `tune` when the SHA-1 of "owner/repo#n" starts with 0-4, else `heldout`
(ascend-2026-09, demo, github-mini name none). In a truth that names splits, a row naming none is in no split.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any


def by_hash(full_repo: str, number: int) -> str:
    """The SHA-1 rule of worldgen/seed_twin.py."""
    first = hashlib.sha1(f"{full_repo}#{number}".encode("utf-8")).hexdigest()[0]
    return "tune" if first in "01234" else "heldout"


def splits_by_key(truth: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Truth key ("owner/repo#n") -> its split: the row's own `split:`; the SHA-1 rule on the key
    when the truth names no split at all; "" (no split) for a row naming none beside rows that do."""
    if any(row.get("split") for row in truth.values()):
        return {k: str(row.get("split") or "") for k, row in truth.items()}
    return {k: "tune" if hashlib.sha1(k.encode("utf-8")).hexdigest()[0] in "01234" else "heldout" for k in truth}


__all__ = ["by_hash", "splits_by_key"]
