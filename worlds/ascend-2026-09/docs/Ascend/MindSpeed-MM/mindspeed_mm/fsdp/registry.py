"""model_register: Registry of FSDP2 model plugins."""
from __future__ import annotations


class model_register:
    """Registry of FSDP2 model plugins."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("model_register is configured through cfg")
