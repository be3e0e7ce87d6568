"""A stale close seen from the issue list alone: the stale process's own label.

A stale process (actions/stale, a project's own cleanup bot) labels an issue before it closes
it, and the label stays on the closed issue. GitHub's issue list carries labels but not who
closed an issue, and the harvester fetches no details for issues the funnel drops as
unresolved, so for those the label is the one trace of the process the run holds. A close of
a labelled issue that no fix merge explains is the process's close, at whatever funnel stage
the issue ends; a labelled issue closed right after its fix merged was fixed, whatever the bot
had said before.
"""

from __future__ import annotations

from fixlore.core.model import Issue


def stale_label(issue: Issue, funnel_cfg) -> str:
    """The stale process's label on `issue` ("" if none); the vocabulary is the funnel's
    (`FunnelConfig.stale_labels`, folded like every label)."""
    return funnel_cfg.stale_label(issue.labels)
