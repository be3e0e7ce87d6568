"""SamplePacker: Greedy bin packing of samples by length."""
from __future__ import annotations


class SamplePacker:
    """Greedy bin packing of samples by length."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("SamplePacker is configured through cfg")
