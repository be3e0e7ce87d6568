"""Write the part of a truth.yaml whose entries carry ``split: NAME`` (score a split on its own).

    python worldgen/split_truth.py worlds/npu-threads/truth.yaml heldout2 /tmp/npu-heldout2.yaml
    fixlore score --truth /tmp/npu-heldout2.yaml --cases OUT/cases.jsonl

The scorer walks the truth's keys only, so a filtered truth scores exactly that split.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from fixlore.replay.worldwrite import write_yaml


def main(argv: list[str]) -> None:
    if len(argv) != 4:
        sys.exit("usage: split_truth.py TRUTH SPLIT OUT")
    truth = yaml.safe_load(Path(argv[1]).read_text(encoding="utf-8"))
    kept = [e for e in truth["issues"] if e.get("split") == argv[2]]
    if not kept:
        sys.exit(f"no entry has split: {argv[2]}")
    write_yaml(Path(argv[3]), dict(truth, issues=kept))
    print(f"{len(kept)} of {len(truth['issues'])} entries -> {argv[3]}")


if __name__ == "__main__":
    main(sys.argv)
