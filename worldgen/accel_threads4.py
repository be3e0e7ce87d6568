"""Generate worlds/accel-threads4: a fourth held-out batch of real public issue/PR threads, of projects no other world uses.

    python worldgen/accel_threads4.py [OUT_DIR]     (default: worlds/accel-threads4 next to this folder)

The threads (modelscope/evalscope, microsoft/onnxruntime, intel/onnxruntime), their hand labels and every source URL are in
``worldgen/data/accel_threads4.yaml``; collected after accel-threads3 was measured, labelled by hand and committed
before the batch was first run through the pipeline (issue #23). The world is written by the machinery of
``worldgen/npu_threads.py`` (``write_held_out``): the same fixed rules fill what the stored excerpts do not show
(times of day, merge and close times, closers, cross-reference events), listed in that module's docstring and in
worlds/README.md.

Split: every issue is ``heldout``. Its per-case results are deliberately not written down anywhere. No rule was
written with these threads in view; a later round that reads them must say so and call what it read ``tune``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import npu_threads  # noqa: E402  (a sibling script, not a package)

DATA = HERE / "data" / "accel_threads4.yaml"
SINCE = "2025-07-01T00:00:00Z"      # npu-threads' window, as for accel-threads, accel-threads2 and accel-threads3


def write(out: Path, data_path: Path = DATA) -> None:
    npu_threads.write_held_out(out, data_path, SINCE, description=(
        "Real public issue/PR threads of ML-infrastructure and accelerator projects no other world uses "
        "(EvalScope, ONNX Runtime, Intel's OpenVINO EP tracker), labelled by hand; times of day are synthetic."))


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else HERE.parent / "worlds" / "accel-threads4"
    write(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
