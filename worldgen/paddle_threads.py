"""Generate worlds/paddle-threads: a GitHub world of real public issue/PR threads of the PaddlePaddle projects.

    python worldgen/paddle_threads.py [OUT_DIR]     (default: worlds/paddle-threads next to this folder)

The threads (PaddleOCR, PaddleSpeech, PaddleNLP, FastDeploy: a Chinese-speaking community's conventions), their
hand labels and every source URL are in ``worldgen/data/paddle_threads.yaml``. The world is written by the
machinery of ``worldgen/npu_threads.py`` (``load``, ``write_world``): the same fixed rules fill what the stored
excerpts do not show (times of day, merge and close times, closers, cross-reference events), listed in that
module's docstring and in worlds/README.md.

Split: the key ``owner/repo#N`` of each issue, SHA-1, first hex digit 0-7 -> ``tune``, 8-f -> ``heldout``
(about half each). The whole world is held out from rule writing for the session that collected it (issue #23):
``tune`` is the half a later round may read for failure classes, ``heldout`` the half it must not.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import npu_threads  # noqa: E402  (a sibling script, not a package)

DATA = HERE / "data" / "paddle_threads.yaml"
SINCE = "2021-01-01T00:00:00Z"


def split_of(repo: str, number: int) -> str:
    """``tune`` when the SHA-1 of ``owner/repo#N`` starts with 0-7, else ``heldout``."""
    return "tune" if hashlib.sha1(f"{repo}#{number}".encode("utf-8")).hexdigest()[0] in "01234567" else "heldout"


def write(out: Path, data_path: Path = DATA) -> None:
    data, threads = npu_threads.load(data_path, later={})
    for t in threads:
        t.split = split_of(t.repo, t.number)
    npu_threads.write_world(out, data, threads, since=SINCE, description=(
        "Real public issue/PR threads of the PaddlePaddle projects (PaddleOCR, PaddleSpeech, PaddleNLP, FastDeploy): "
        "a Chinese-speaking community's conventions; labelled by hand; times of day are synthetic."), notes=(
        "Hand labels of real public threads (worldgen/data/paddle_threads.yaml; guide in worlds/README.md, "
        "npu-threads). Each entry names its source URL, the fix PR URLs and the evidence (why). split: SHA-1 of "
        "'owner/repo#N' starts with 0-7 -> tune, else heldout. Times of day, merge and close times are synthetic "
        "(rules in worldgen/npu_threads.py); lag_s follows from them. rank_top_k is {top_k}: every selected and "
        "analysis entry."))


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else HERE.parent / "worlds" / "paddle-threads"
    write(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
