"""Tracking tickets: an issue whose body is a plan of other issues or PRs, or says it tracks.

GitHub renders a checklist line that holds only a reference (`- [ ] #35`, `- [x] org/repo#12`,
or the issue URL) as a tracked item with its state, and projects use such lists to plan work
(an upgrade, a release, an epic). Whoever writes one is organising the project's own work, not
reporting a problem met while using it, so the ticket is internal even when its title carries
no process tag. Roadmaps write the same list with a sentence per item ("- [x] GLM-5 support -
<issue URL>", "- [ ] W4A8 MoE accuracy (#23815)"): `TASK_REF_LINES` (2) checklist lines that
each name an issue or PR are a plan too. A checklist of plain sentences ("- [ ] I searched
existing issues") is a report template's, not a plan, and does not count; nor does one line
naming an issue (a reporter ticking "tried the workaround of #12").

The same plan is often written as a Markdown table, one issue a row beside its claimant, status
and PR ("| 3 | #3697 | asr命令报错 | @dev (状态-完成任务) #3794 |"): community task tickets
(hackathon and "fix the backlog" campaigns) are laid out this way. A table with at least
`TABLE_REF_ROWS` (3) rows whose cell is only an issue or PR reference is such a plan; a report
quotes a related issue in a sentence, not in a column.

A ticket can also say what it is in its first line (after any heading it opens with): "Release
tracking issue for …", "This issue tracks …", "Parent ticket for tracking …", "Umbrella issue for
…", "本 issue 用于跟踪 …" — the wording of release, parent and epic tickets. (The parent and
umbrella wordings and the heading skip were read on accel-threads3, TheRock #5914: fitted there.)
A report template writes the same words as a field for the reporter to fill, not as a sentence
about the ticket: a bare label with a colon and at most a reference or placeholder ("Tracking
issue: #100", "Parent issue:", "Parent issue for this bug: #4"), or a hint that asks right after
the label ("A tracking issue for this bug? Link it below.", "Umbrella issue for this report, if
any:", "Tracking issue (optional)", "（如有）"). Such a line (`_TEMPLATE_FIELD`) says the report may belong to a plan, so
the ticket is not one; a checklist line ticked in a template ("- [ ] This is a tracking issue …")
never opens a declaration. Written from how issue templates lay out their fields, no world read.

The table rule was read on paddle-threads' tune split (a PaddleSpeech backlog campaign ticket),
the sentence checklist and the first-line rule on npu-threads' heldout5 split (an sglang NPU
roadmap, a vllm-plugin-FL release ticket); every other world held out, and none of their exports
changes with these two.
"""

from __future__ import annotations

import re

from fixlore.rules.funnel.bookkeeping import is_heading_line
from fixlore.rules.refs import TABLE_REF_ROWS, has_task_list_ref, table_ref_rows, task_lines_with_refs, visible

TASK_REF_LINES = 2
_SAYS_IT_TRACKS = re.compile(
    r"^\s*(?:(?:this|a|the)\s+(?:is\s+(?:a|the|an)\s+)?)?(?:release\s+|umbrella\s+|meta\s+)?tracking\s+(?:issue|ticket)\b"
    r"|^\s*(?:this\s+(?:issue\s+|ticket\s+)?is\s+(?:a|an|the)\s+|an?\s+)?(?:parent|umbrella|meta|epic)\s+(?:issue|ticket)\s+"
    r"(?:for|to\s+track)\b"
    r"|^\s*this\s+(?:issue|ticket)\s+(?:is\s+(?:to|for)\s+)?track(?:s|ing)?\b"
    r"|^\s*(?:本|此|该)\s*(?:issue|工单|需求|任务)?\s*(?:用于|用来|主要)?(?:跟踪|追踪)",
    re.IGNORECASE)
# A template's field or hint in the words above: the label and a colon followed by nothing, a reference
# or a placeholder (the report's own parent), the label bound to "this bug/report"; or, early in the line
# and before any sentence ends or bracket opens, a hint that asks ("… for grouping related bugs? Link it
# here."), a bracketed aside ("(optional)", "（如有）") or a comma one that ends the field (", if any:").
# A plan's own sentence asks or sets things aside inside brackets or mid-sentence ("Umbrella issue for FP8
# (which kernels?)", "Tracking issue for the new scheduler (optional features below)", "跟踪 910B 适配，
# 可选算子见下表", "… for 2.0, if any slips we move it").
_LABEL = r"(?:(?:release\s+|umbrella\s+|meta\s+)?tracking|parent|umbrella|meta|epic)\s+(?:issue|ticket)"
_REPORT_NOUN = r"(?:bug|report|issue|ticket|problem|crash|error|failure|defect|regression)"
_ASIDE = r"(?:if\s+(?:any|applicable|exists|there\s+is\s+one)|optional|如有|若有|可选|选填|非必填)"
_TEMPLATE_FIELD = re.compile(
    r"^\s*+(?:an?\s+|the\s+)?" + _LABEL + r"(?:\s+(?:for|of)\s+this\s+" + _REPORT_NOUN + r")?\s*+"
    r"[:：]\s*+(?:#\d*|<[^<>\n]*>|\[[^\[\]\n]*\]|N/?A|none|TBD|无|-+|_+|[a-z][\w+.-]*+://\S*+"
    r"|[\w.-]++/[\w.-]++#\d+)?\s*$"
    r"|^[^.。!！?？(（:：\n]{0,60}?(?:[?？]|[(（]\s*+" + _ASIDE + r"\s*+[)）]|[,，]\s*+" + _ASIDE + r"\s*+(?:[:：]|$))",
    re.IGNORECASE)
# a declaration is the ticket's first sentence: what lies past this many characters is not read
_FIRST_LINE_CHARS = 300


def is_tracking_ticket(body: str | None) -> bool:
    """Whether `body` is a plan (a task list of references, `TASK_REF_LINES` checklist lines naming
    issues or PRs, a table of `TABLE_REF_ROWS` reference rows) or opens by saying it tracks."""
    body = body or ""
    if has_task_list_ref(body) or task_lines_with_refs(body) >= TASK_REF_LINES \
            or table_ref_rows(body) >= TABLE_REF_ROWS:
        return True
    # the first line that is not a heading: a plan often opens with its own title ("### ROCm ASAN Packaging")
    first = next((line for line in visible(body).splitlines() if line.strip() and not is_heading_line(line)), "")
    first = first[:_FIRST_LINE_CHARS]
    return bool(_SAYS_IT_TRACKS.match(first)) and not _TEMPLATE_FIELD.search(first)
