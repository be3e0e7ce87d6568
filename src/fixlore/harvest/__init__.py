"""Harvest stage: walk the orgs' repos and fill the store, fetching details only for the funnel's pool."""

from fixlore.harvest.harvester import Harvester, HarvestReport, harvest, select_candidates

__all__ = ["Harvester", "HarvestReport", "harvest", "select_candidates"]
