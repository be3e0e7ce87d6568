"""Tracking tickets: an issue whose body is a task list of other issues or PRs.

GitHub renders a checklist line that holds only a reference (`- [ ] #35`, `- [x] org/repo#12`,
or the issue URL) as a tracked item with its state, and projects use such lists to plan work
(an upgrade, a release, an epic). Whoever writes one is organising the project's own work, not
reporting a problem met while using it, so the ticket is internal even when its title carries
no process tag. A checklist of plain sentences ("- [ ] I searched existing issues") is a
report template's, not a plan, and does not count.
"""

from __future__ import annotations

from fixlore.rules.refs import has_task_list_ref


def is_tracking_ticket(body: str | None) -> bool:
    """Whether `body` holds a task-list line that is only a reference to an issue or PR."""
    return has_task_list_ref(body or "")
