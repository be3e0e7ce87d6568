"""Generate worlds/accel-threads5: a fifth held-out batch of real public issue/PR threads, of projects no other world uses.

    python worldgen/accel_threads5.py [OUT_DIR]     (default: worlds/accel-threads5 next to this folder)

The threads (NVIDIA/TensorRT-LLM, vllm-project/tpu-inference), their hand labels and every source URL are in
``worldgen/data/accel_threads5.yaml``; collected after accel-threads4 was measured, labelled by hand and committed
before the batch was first run through the pipeline (issue #23). The world is written by ``npu_threads.held_out_batch`` (the fixed rules listed there and in worlds/README.md).

Split: every issue is ``heldout``. Its per-case results are deliberately not written down anywhere. No rule was
written with these threads in view; a later round that reads them must say so and call what it read ``tune``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import npu_threads  # noqa: E402  (a sibling script, not a package)

write, main = npu_threads.held_out_batch("accel-threads5", (
    "Real public issue/PR threads of ML-infrastructure and accelerator projects no other world uses "
    "(TensorRT-LLM's AutoDeploy team tracker, vLLM's TPU backend), labelled by hand; times of day are synthetic."))

if __name__ == "__main__":
    main(sys.argv)
