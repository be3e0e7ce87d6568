"""A sentence of the thread in the tense the fix's state allows.

People write while the work is under way: "计划拆成 A 与 B", "准备统一成三种语义", "修复中",
"PR#810 检视中", "PR 合入后请按新格式迁移配置". A reader of the digest reads them after the fact,
beside the fix's state: once the PR merged, the plan is what the change did (the plan word goes,
"拆成 A 与 B" stays), the progress note is stale (the clause goes), a condition on the merge is met
(the condition goes, the advice stays), and so is a note that a PR is up ("我提了 PR#810"), a
to-do the change did ("资料也需要补") and a request to backport ("cherry-pick !870 到 release/26.2.0":
the fix sentence names a backport that merged). While no fix landed, a clause saying it merged or was fixed
is false beside "待合入" and goes. Clause by clause (analyse/fit.clause_ends), so the mechanism in
the same sentence stays ("check_model_type_transformers 校验和权重转换流程冲突，修复中" keeps its
cause). The word lists are how maintainers on GitCode and GitHub report progress (read in the
threads of the bundled worlds and in the `search` corpus of issue threads); no figure was fitted."""

from __future__ import annotations

from fixlore.analyse.fit import clause_ends
from fixlore.rules.words import has_cue

# a clause that only reports work in progress
IN_PROGRESS = ("修复中", "检视中", "评审中", "审核中", "开发中", "提交中", "处理中", "跟进中", "定位中", "排查中", "验证中",
               "待合入", "待检视", "待评审", "under review", "in review", "in progress", "work in progress",
               "wip", "pending review", "being fixed", "working on")
# a plan word at the start of a clause ("计划拆成…", "准备统一成…")
PLAN_LEADS = ("后续会", "后续将", "下一步会", "下一步将", "我们计划", "我们准备", "我们会", "计划", "准备", "打算", "拟")
PLAN_EN = ("we plan to", "we will", "we'll", "i will", "i'll", "plan to", "going to")
# a note that a PR is up ("我提了 PR#810", "opened a PR"): news while it was under review
PR_UP = ("提了 pr", "提了pr", "提了一个 pr", "提交了 pr", "提交了pr", "已提 pr", "已提pr", "submitted a pr",
         "opened a pr", "raised a pr", "pr is up", "pr submitted", "pr opened")
# what was still to do ("资料也需要补", "needs to be fixed"): the merged change did it, or says what it did
TO_DO = ("需要补", "需补", "需要修复", "需要修改", "需要更新", "需要完善", "需要补充", "待补", "待修复", "待完善",
         "needs to be fixed", "needs a fix", "needs to be updated", "should be fixed", "should be updated")
# asking for a backport ("cherry-pick !870 到 release/26.2.0"): the fix sentence names a backport that merged
BACKPORT_ASK = ("cherry-pick", "cherry pick", "backport to", "回合到", "回合至")
# a condition on the merge that the merge has met ("PR 合入后请…", "once merged, …")
ON_MERGE = ("合入后", "合并后", "合入以后", "合并以后", "once merged", "after it merges", "after merging", "when merged")
# a clause saying the fix landed
DONE = ("已合入", "已合并", "已修复", "已经合入", "已经修复", "has been merged", "was merged", "is merged",
        "merged in", "fixed in", "fixed by")


def _split(text: str) -> list[str]:
    """The clauses of `text`, each with its closing mark."""
    cuts = [0] + clause_ends(text) + [len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]


def _mark(clause: str) -> tuple[str, str]:
    body = clause.rstrip()
    if body and body[-1] in "，；：、,;:":
        return body[:-1], body[-1]
    return body, ""


def _landed(clause: str) -> str:
    """`clause` read after the merge: "" for a progress note, without its plan word or its
    condition on the merge otherwise."""
    body, mark = _mark(clause)
    low = body.lower()
    if has_cue(body, IN_PROGRESS) or any(w in low for w in PR_UP + TO_DO) or low.lstrip().startswith(BACKPORT_ASK):
        return ""
    for cue in ON_MERGE:
        at = low.find(cue)
        if at >= 0:
            body = body[at + len(cue):].lstrip(" ，,")
            low = body.lower()
            break
    stripped = body.lstrip()
    for lead in PLAN_LEADS:
        if stripped.startswith(lead) and len(stripped) > len(lead) + 1:
            body = stripped[len(lead):].lstrip(" ：:")
            break
    else:
        if any(stripped.lower().startswith(p) for p in PLAN_EN):
            return ""
    return body + mark if body.strip() else ""


def _pending(clause: str) -> str:
    """`clause` read while the fix has not landed: "" when it says the fix merged."""
    body, _ = _mark(clause)
    return "" if has_cue(body, DONE) else clause


def in_tense(sentence: str, merged: bool, pending: bool) -> str:
    """`sentence` as the fix's state allows it: `merged` (a fix of the case landed) or `pending`
    (a fix was proposed and none landed). Clauses that contradict the state go, plan words of a
    landed change go; "" when nothing is left. A case with no fix at all keeps every sentence."""
    if not merged and not pending:
        return sentence
    keep = [(_landed if merged else _pending)(c) for c in _split(sentence)]
    out = "".join(k for k in keep if k).strip().rstrip("，；：、,;:").strip()
    return out


__all__ = ["BACKPORT_ASK", "DONE", "IN_PROGRESS", "ON_MERGE", "PLAN_LEADS", "PR_UP", "TO_DO", "in_tense"]
