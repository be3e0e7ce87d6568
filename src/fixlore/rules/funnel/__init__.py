"""The funnel's rules: which issues of the window deserve a look, in pipeline order.

`cheap_funnel` decides from the issue list alone (window, unresolved, internal, cve,
empty_title, noise, else "pool"); `rank` (rules.funnel.rank) scores the pool by value and
keeps the top K for deep analysis. `own_change_ticket` (rules.funnel.bookkeeping) is the
internal test that needs the fix PR, so the linker applies it. The harvester, the funnel
stage and the linker all run these rules; none of them owns them.
"""

import importlib

# Loaded on first use (PEP 562), so a `fixlore` command that does not need these rules does not pay
# for importing it (issue #26).
_EXPORTS = {"own_change_ticket": "bookkeeping", "template_lines": "bookkeeping", "CHEAP_STAGES": "cheap",
            "POOL": "cheap", "cheap_funnel": "cheap", "closed_in_window": "cheap",
            "is_pull_item": "cheap", "DEFAULT_TEMPLATES": "config", "FunnelConfig": "config",
            "ValueInputs": "rank", "top_k": "rank", "value_score": "rank"}


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"fixlore.rules.funnel.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'fixlore.rules.funnel' has no attribute {name!r}")

__all__ = ["CHEAP_STAGES", "DEFAULT_TEMPLATES", "POOL", "FunnelConfig", "ValueInputs", "cheap_funnel",
           "closed_in_window", "is_pull_item", "own_change_ticket", "template_lines", "top_k", "value_score"]
