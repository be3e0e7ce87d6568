"""Link stage: trace each closed issue to the change that really fixed it.

    cases, counts = build_cases(corpus, since, config)

gives one Case per issue of the run (every issue updated in the window) with its funnel
stage, fix set (roles fix/backport), evidence (kind, what was seen, where), timing class and
lag, traps with notes, and value. The top-K pool cases carry funnel "selected" with
`provisional=True` until the analysis stage decides them (`analysis_candidates(cases)`).
"""

from fixlore.link.build import FunnelCounts, analysis_candidates, build_cases
from fixlore.link.config import LinkConfig
from fixlore.link.refs import Ref, find_refs, refs_from_branch

__all__ = ["FunnelCounts", "LinkConfig", "Ref", "analysis_candidates", "build_cases", "find_refs",
           "refs_from_branch"]
