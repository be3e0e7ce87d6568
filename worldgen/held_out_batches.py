"""Generate the batches of real public issue/PR threads (worlds/accel-threads, accel-threads2 … 11).

    python worldgen/held_out_batches.py WORLD [OUT_DIR]   (default: worlds/WORLD next to this folder)

Each batch is the threads of projects no other world uses, with their hand labels and every source URL, in
``worldgen/data/<WORLD, '-' as '_'>.yaml`` (its header says when and how it was collected and which threads
were dropped), labelled by hand and committed before the batch was first run through the pipeline (issue
#23). The worlds are written by ``npu_threads.held_out_batch`` (the fixed rules listed there and in
worlds/README.md); every issue is ``heldout``, except in the batches of ``SPLITS`` (accel-threads7: ``tune``,
collected so that its per-case output is read after its first run; accel-threads9: ``hash``, a mixed batch whose issues
are each ``tune`` or ``heldout`` by the SHA-1 of "owner/repo#N", ``npu_threads.hash_split``: about half each).

Which batches a later round read, and so is fitted for (worlds/README.md says which rules):
- accel-threads: its per-case errors were read after its first measure; rules for five of their classes.
- accel-threads3: its per-case output was read after its first measure; four rules and the value's own words.
- accel-threads2, accel-threads4, accel-threads5, accel-threads6, accel-threads8: never read; their per-case results are not
  written down.
- accel-threads7: a tune world from the start (split ``tune``): its per-case output is read after its first run.
- accel-threads9, accel-threads10, accel-threads11, accel-threads12: mixed (split by hash): the per-case output of
  their ``tune`` half may be read after their first run, their ``heldout`` half gives figures only.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import npu_threads  # noqa: E402  (a sibling script, not a package)

# the description each world's world.yaml carries
BATCHES: dict[str, str] = {
    "accel-threads": (
        "Real public issue/PR threads of accelerator-adjacent projects no other world uses (flash-attention-npu, "
        "sherpa-onnx, diffusers, Mooncake, torch-xpu-ops, ComfyUI, GenieX, foundry, Box), labelled by hand; times "
        "of day are synthetic."),
    "accel-threads2": (
        "Real public issue/PR threads of AI-serving and accelerator projects no other world uses (Xinference, "
        "tt-inference-server, AI Playground), labelled by hand; times of day are synthetic."),
    "accel-threads3": (
        "Real public issue/PR threads of AI-serving and accelerator projects no other world uses (LMDeploy, "
        "TheRock, LiteRT), labelled by hand; times of day are synthetic."),
    "accel-threads4": (
        "Real public issue/PR threads of ML-infrastructure and accelerator projects no other world uses "
        "(EvalScope, ONNX Runtime, Intel's OpenVINO EP tracker), labelled by hand; times of day are synthetic."),
    "accel-threads5": (
        "Real public issue/PR threads of ML-infrastructure and accelerator projects no other world uses "
        "(TensorRT-LLM's AutoDeploy team tracker, vLLM's TPU backend), labelled by hand; times of day are synthetic."),
    "accel-threads6": (
        "Real public issue/PR threads of an RL post-training framework no other world uses (THUDM's slime: Chinese "
        "and English reports, Chinese-speaking maintainers), labelled by hand; times of day are synthetic."),
    "accel-threads7": (
        "Real public issue/PR threads of two projects no other world uses (vLLM's Ascend plugin vllm-ascend, Alibaba's "
        "MNN: Chinese and English reports, Chinese-speaking maintainers), labelled by hand, a tune world; times of day "
        "are synthetic."),
    "accel-threads8": (
        "Real public issue/PR threads of two projects no other world uses (Alibaba's speech toolkit FunASR, Tencent's "
        "ncnn: Chinese and English reports, Chinese-speaking maintainers), labelled by hand; times of day are synthetic."),
    "accel-threads9": (
        "Real public issue/PR threads of two projects no other world uses (Hugging Face's accelerate, CuPy: a backport bot "
        "on a release branch, maintainers' CI tickets, issue URLs and markdown links after closing keywords), labelled by "
        "hand, split tune / heldout by a hash of owner/repo#N; times of day are synthetic."),
    "accel-threads10": (
        "Real public issue/PR threads of two projects no other world uses (DeepSpeed; TensorFlow: tensorflow and tfjs: "
        "stale, spam and lack-of-details closes beside keyword and hand-closed fixes), labelled by hand, split tune / "
        "heldout by a hash of owner/repo#N; times of day are synthetic."),
    "accel-threads11": (
        "Real public issue/PR threads of two projects no other world uses (pandas; torchvision: fixes on main with their "
        "backports to release branches, competing closes-PRs closed unmerged, a backport naming an issue it does not "
        "fix, a release-branch cherry-pick naming nothing), labelled by hand, split tune / heldout by a hash of "
        "owner/repo#N; times of day are synthetic."),
    "accel-threads12": (
        "Real public issue/PR threads of a project no other world uses (FlashInfer: a workaround in the report before "
        "an unlinked merged change, a fix PR left unmerged because another change resolved the issue, fixes named only "
        "in other repositories, a keyword fix on main, a CI-health bot report), labelled by hand, split tune / heldout "
        "by a hash of owner/repo#N; times of day are synthetic."),
}
# Batches whose issues are not held out: collected to be read after their first run (every other batch: heldout).
SPLITS: dict[str, str] = {"accel-threads7": "tune", "accel-threads9": npu_threads.HASH_SPLIT,
                          "accel-threads10": npu_threads.HASH_SPLIT, "accel-threads11": npu_threads.HASH_SPLIT,
                          "accel-threads12": npu_threads.HASH_SPLIT}


def writer(world: str):
    """`write(out)` for one batch (what tests/test_worlds_small.py rebuilds)."""
    return npu_threads.held_out_batch(world, BATCHES[world], SPLITS.get(world, "heldout"))[0]


def main(argv: list[str]) -> None:
    if len(argv) < 2 or argv[1] not in BATCHES:
        sys.exit(f"usage: {argv[0]} WORLD [OUT_DIR]; WORLD is one of {', '.join(BATCHES)}")
    npu_threads.held_out_batch(argv[1], BATCHES[argv[1]], SPLITS.get(argv[1], "heldout"))[1]([argv[0], *argv[2:]])


if __name__ == "__main__":
    main(sys.argv)
