"""stable_topo_sort: Stable topological sort that keeps the original order where possible."""
from __future__ import annotations


class stable_topo_sort:
    """Stable topological sort that keeps the original order where possible."""

    def __init__(self, cfg=None):
        self.cfg = cfg or {}

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("stable_topo_sort is configured through cfg")
