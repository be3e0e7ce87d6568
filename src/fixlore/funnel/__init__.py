"""Funnel stage: which issues of the window deserve a look, in pipeline order.

`cheap_funnel` decides from the issue list alone (window, unresolved, internal, cve,
empty_title, noise, else "pool"); `rank` (funnel.rank) scores the pool by value and
keeps the top K for deep analysis. `own_change_ticket` (funnel.bookkeeping) is the internal
test that needs the fix PR, so the link stage applies it.
"""

from fixlore.funnel.bookkeeping import own_change_ticket, template_lines

from fixlore.funnel.cheap import CHEAP_STAGES, POOL, cheap_funnel, closed_in_window, is_pull_item
from fixlore.funnel.config import DEFAULT_TEMPLATES, FunnelConfig
from fixlore.funnel.rank import ValueInputs, top_k, value_score

__all__ = ["CHEAP_STAGES", "DEFAULT_TEMPLATES", "POOL", "FunnelConfig", "ValueInputs", "cheap_funnel",
           "closed_in_window", "is_pull_item", "own_change_ticket", "template_lines", "top_k", "value_score"]
