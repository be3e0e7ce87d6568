"""Generate worlds/seed-twin2: the seed digest's analysed cases that worlds/seed-twin leaves out, in GitCode's format.

    python worldgen/seed_twin2.py [OUT_DIR]      (default: worlds/seed-twin2 next to this folder)

The threads live in ``worldgen/data/seed_twin2.yaml``. They were written from the seed digest
(``ascend-digest-16-2026-09``: rows, themes, guide and 考据与口径披露) and the shared references only,
without opening the project's Ascend encoding or the seed-twin data; of seed-twin only the list of
issue numbers it holds was read, to leave those out. Repo paths and issue / PR numbers are the seed's,
so ``bench/rows.py`` can measure our rows against the seed's rows for the same issues.

The writer is worldgen/seed_twin.py's (same GitCode shapes, same fixed rules: operate_logs end with a
``closed`` entry by ``closed_by``; platform links on both sides; merged PRs ``state: merged`` with
``merged_at`` and no ``merged`` key; ``lag_s`` from the first ``role: fix`` PR; ``split`` by the SHA-1
of "owner/repo#n": ``tune`` when it starts with 0-4, else ``heldout``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "seed_twin2.yaml"


def _writer():
    spec = importlib.util.spec_from_file_location("worldgen_seed_twin_writer", HERE / "seed_twin.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


st = _writer()
ORG, SINCE = st.ORG, st.SINCE

WORLD_YAML = f"""platform: gitcode
snapshot_at: '{st.SNAPSHOT}'
orgs: [{ORG}]
description: 'seed-twin2: the seed digest''s analysed cases that seed-twin does not hold (25 rows, 8 worker-layer drops) and 13 fillers, re-told as GitCode threads by other hands.'
window: {{since: '{SINCE}'}}
# The pool's head that deep analysis reads: every entry the truth labels selected (25) or analysis (8).
# The seed read 63 of a 243 pool deeply and kept 50; this world holds the 33 of those 63 that seed-twin
# leaves out and only one rank entry below the cut, so the cut is the number analysed, not a share.
rank_top_k: 33
"""


NOTES = ("Written from the seed digest's rows and disclosure only, without opening the other encodings "
         "(see worlds/README.md, seed-twin2). Each entry's `why` names the seed statement it follows; "
         "`split` is tune / heldout by the SHA-1 rule in worldgen/seed_twin.py.")


def write(out: Path) -> None:
    st.write(out, DATA, WORLD_YAML, NOTES)


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else HERE.parent / "worlds" / "seed-twin2"
    write(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
