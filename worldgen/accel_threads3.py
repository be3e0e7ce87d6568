"""Generate worlds/accel-threads3: a third held-out batch of real public issue/PR threads, of projects no other world uses.

    python worldgen/accel_threads3.py [OUT_DIR]     (default: worlds/accel-threads3 next to this folder)

The threads (InternLM/lmdeploy, ROCm/TheRock, google-ai-edge/LiteRT), their hand labels and every source URL are in
``worldgen/data/accel_threads3.yaml``; collected after accel-threads2 was measured, labelled by hand and committed
before the batch was first run through the pipeline (issue #23). The world is written by ``npu_threads.held_out_batch`` (the fixed rules listed there and in worlds/README.md).

Split: every issue is ``heldout``. Its per-case output was read after its first measure and four rules were
written from it (2026-12-07, third session): it is fitted for those (worlds/README.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import npu_threads  # noqa: E402  (a sibling script, not a package)

write, main = npu_threads.held_out_batch("accel-threads3", (
    "Real public issue/PR threads of AI-serving and accelerator projects no other world uses (LMDeploy, "
    "TheRock, LiteRT), labelled by hand; times of day are synthetic."))

if __name__ == "__main__":
    main(sys.argv)
