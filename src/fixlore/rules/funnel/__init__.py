"""The funnel's rules: which issues of the window deserve a look, in pipeline order.

`cheap_funnel` decides from the issue list alone (window, unresolved, internal, cve,
empty_title, noise, else "pool"); `rank` (rules.funnel.rank) scores the pool by value and
keeps the top K for deep analysis. `own_change_ticket` (rules.funnel.bookkeeping) is the
internal test that needs the fix PR, so the linker applies it. The harvester, the funnel
stage and the linker all run these rules; none of them owns them.
"""

from fixlore.rules.funnel.bookkeeping import own_change_ticket, template_lines

from fixlore.rules.funnel.cheap import CHEAP_STAGES, POOL, cheap_funnel, closed_in_window, is_pull_item
from fixlore.rules.funnel.config import DEFAULT_TEMPLATES, FunnelConfig
from fixlore.rules.funnel.rank import ValueInputs, top_k, value_score

__all__ = ["CHEAP_STAGES", "DEFAULT_TEMPLATES", "POOL", "FunnelConfig", "ValueInputs", "cheap_funnel",
           "closed_in_window", "is_pull_item", "own_change_ticket", "template_lines", "top_k", "value_score"]
