"""Tracking tickets: an issue whose body is a task list of other issues or PRs.

GitHub renders a checklist line that holds only a reference (`- [ ] #35`, `- [x] org/repo#12`,
or the issue URL) as a tracked item with its state, and projects use such lists to plan work
(an upgrade, a release, an epic). Whoever writes one is organising the project's own work, not
reporting a problem met while using it, so the ticket is internal even when its title carries
no process tag. A checklist of plain sentences ("- [ ] I searched existing issues") is a
report template's, not a plan, and does not count.

The same plan is often written as a Markdown table, one issue a row beside its claimant, status
and PR ("| 3 | #3697 | asr命令报错 | @dev (状态-完成任务) #3794 |"): community task tickets
(hackathon and "fix the backlog" campaigns) are laid out this way. A table with at least
`TABLE_REF_ROWS` (3) rows whose cell is only an issue or PR reference is such a plan; a report
quotes a related issue in a sentence, not in a column. Read on paddle-threads' tune split (a
PaddleSpeech backlog campaign ticket); every other world held out.
"""

from __future__ import annotations

from fixlore.rules.refs import TABLE_REF_ROWS, has_task_list_ref, table_ref_rows


def is_tracking_ticket(body: str | None) -> bool:
    """Whether `body` holds a task-list line that is only a reference to an issue or PR, or a
    table with `TABLE_REF_ROWS` rows whose cell is only such a reference."""
    return has_task_list_ref(body or "") or table_ref_rows(body or "") >= TABLE_REF_ROWS
