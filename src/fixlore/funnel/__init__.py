"""Funnel stage: record every issue's cheap-funnel stage in the store (`funnel.stage`).

The funnel's rules (window, unresolved, internal, cve, empty_title, noise, else "pool"; the
value rank and its top K) are shared with the harvester and the linker, so they live below
the stages, in `fixlore.rules.funnel`.
"""
