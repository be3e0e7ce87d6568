"""MindieConfig: Reads and writes MindIE config.json by dotted path."""
from __future__ import annotations


class MindieConfig:
    """Reads and writes MindIE config.json by dotted path."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("MindieConfig is configured through cfg")
