"""dcp_utils: Helpers around torch.distributed.checkpoint save and load."""
from __future__ import annotations


class dcp_utils:
    """Helpers around torch.distributed.checkpoint save and load."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("dcp_utils is configured through cfg")
