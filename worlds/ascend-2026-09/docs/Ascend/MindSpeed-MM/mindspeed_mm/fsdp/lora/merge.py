"""merge_lora: Merges LoRA weights into base weights."""
from __future__ import annotations


class merge_lora:
    """Merges LoRA weights into base weights."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("merge_lora is configured through cfg")
