"""Link stage: trace each closed issue to the change that really fixed it.

    from fixlore.link import build_cases, analysis_candidates, LinkConfig
    cases, counts = build_cases(corpus, since, LinkConfig(funnel=FunnelConfig(rank_top_k=63)))

`build_cases` gives one Case per issue the run considered (every issue updated or closed
inside the window) with its funnel stage, fix set (roles fix/backport, merged PRs only),
evidence (kind, what was seen, where), timing class and lag with a `timing_note`, traps with
`trap_notes`, the PRs that did not land (`pending_fix`), every candidate PR considered with
its signals (`candidates`), and a value (pool issues). `counts` is every funnel stage's count.

Hand-off to deep analysis: the top-K pool cases carry funnel "selected" with
`provisional=True` (`analysis_candidates(cases)` lists them); the analysis stage sets funnel
"selected" or "analysis" + drop_reason and clears `provisional`. The rest of the pool is
funnel "rank" (the backlog).

The rules it shares with other stages (references in text, bots, the best answer) live in
`fixlore.rules`. Also here: `audit.audit_timing` (re-check a sample of timing claims against the
source), `export.write_cases_parallel` (a large case export in forked processes; the format is
`fixlore.edges.caseexport`), `explain.render_case` (scoring against truth: fixlore.evaluate).
"""

import importlib

# Loaded on first use (PEP 562), so `fixlore --help` does not pay for the whole stage.
_EXPORTS = {"FunnelCounts": "build", "analysis_candidates": "build", "build_cases": "build",
            "LinkConfig": "config"}


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"fixlore.link.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'fixlore.link' has no attribute {name!r}")


__all__ = ["FunnelCounts", "LinkConfig", "analysis_candidates", "build_cases"]
