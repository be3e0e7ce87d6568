"""MoEDispatcher: Builds all_to_all dispatch and combine nodes from routing results."""
from __future__ import annotations


class MoEDispatcher:
    """Builds all_to_all dispatch and combine nodes from routing results."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("MoEDispatcher is configured through cfg")
