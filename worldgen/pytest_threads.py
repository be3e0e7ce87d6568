"""Generate worlds/pytest-threads: real public issue/PR threads of pytest-dev/pytest, labelled by hand.

    python worldgen/pytest_threads.py [OUT_DIR]     (default: worlds/pytest-threads next to this folder)

The threads, texts, people, days, states and hand labels come from ``worldgen/data/pytest_threads.yaml``
(every entry keeps its URL). Everything the excerpts do not show (times of day, merge and close moments,
timeline events, the JSON shapes) is filled in by the machinery of ``worldgen/npu_threads.py``, imported
here unchanged, so both real-thread worlds follow the same fixed rules (its docstring lists them).

Split: the SHA-1 of the truth key ``owner/repo#N`` (UTF-8); first hex digit 0-7 -> ``tune``, 8-f ->
``heldout`` (about half each). The whole world was labelled and committed before ``fixlore`` first ran on it;
the ``heldout`` half is never read to write a rule.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import npu_threads  # noqa: E402  (the shared real-thread machinery, a sibling script)

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "pytest_threads.yaml"


def split_of(key: str) -> str:
    """``tune`` when the SHA-1 of ``owner/repo#N`` starts with 0-7, else ``heldout``."""
    return "tune" if hashlib.sha1(key.encode("utf-8")).hexdigest()[0] in "01234567" else "heldout"


def write(out: Path, data_path: Path = DATA) -> None:
    data, threads = npu_threads.load(data_path, later={})
    for t in threads:
        t.split = split_of(f"{t.repo}#{t.number}")
    npu_threads.write_world(
        out, data, threads, since=npu_threads.SINCE,
        description="Real public issue/PR threads of pytest-dev/pytest (approx, conftest loading, parametrize and "
                    "re-collection regressions of 9.x), labelled by hand; times of day are synthetic.",
        notes="Hand labels of real public threads (worldgen/data/pytest_threads.yaml; guide in worlds/README.md). "
              "Each entry names its source URL, the fix PR URLs and the evidence (why). split: SHA-1 of the key "
              "owner/repo#N starts with 0-7 -> tune, else heldout (held out for the whole session). Times of day, merge "
              "and close times are synthetic (rules in worldgen/npu_threads.py); lag_s follows from them. rank_top_k is "
              "{top_k}: every selected and analysis entry.")


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else HERE.parent / "worlds" / "pytest-threads"
    write(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
