"""Harvest stage: walk the orgs' repos and fill the store, fetching details only for the funnel's pool."""

import importlib

_EXPORTS = {"Harvester": "harvester", "HarvestReport": "report", "harvest": "harvester",
            "select_candidates": "candidates"}


def __getattr__(name: str):
    # Loaded on first use (PEP 562): the store and HTTP stack only when harvesting.
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"fixlore.harvest.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'fixlore.harvest' has no attribute {name!r}")

__all__ = ["Harvester", "HarvestReport", "harvest", "select_candidates"]
