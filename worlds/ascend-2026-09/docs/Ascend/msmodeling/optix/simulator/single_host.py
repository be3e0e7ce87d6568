"""SingleHostSimulator: Built-in simulator; health is answered in process."""
from __future__ import annotations


class SingleHostSimulator:
    """Built-in simulator; health is answered in process."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("SingleHostSimulator is configured through cfg")
