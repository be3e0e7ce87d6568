"""Value of a pool issue for the digest, and the top-K cut.

value = clip(0..1) of a weighted sum of general signals, read from the issue, its comments
and the linker's verdict (none of them names a product, a repo or one world's words):

  fix evidence    0.30  a merged fix with strong evidence (keyword, link, branch, commit);
                  0.20  a merged fix on weaker evidence; 0.12 a fix that has not landed
  explanation     0.20  a non-reporter comment with root-cause cues (根因/原因/because/root cause/
                        caused by/导致/定位 …), scaled by its length; 0.08 a substantive answer without cues
  body substance  0.20  reproduction steps, logs/tracebacks/code blocks, versions/environment,
                        and body length (each a share)
  discussion      0.10  comments and distinct participants (log-scaled)
  labels          0.05  a bug/defect label or issue type
  closure         0.15  the close is explained by the fix (auto-close / minutes) or an answer
  penalties       -0.15 a bare question (short body) answered by one short reply
                  -0.15 a reporter's own "thanks / solved" close without a fix or an answer
                  -0.10 a near-empty body

Ties are broken by more comments, then later close, then key, so the cut is deterministic.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_ROOT = re.compile(r"根因|原因|根本原因|导致|引起|由于|因为|定位|排查|root cause|caused by|because|due to|the reason|"
                   r"the problem is|stems from|regression", re.IGNORECASE)
_REPRO = re.compile(r"复现|重现|步骤|reproduc|steps to|to reproduce|运行命令|执行命令|command|脚本", re.IGNORECASE)
_LOGS = re.compile(r"traceback|error|exception|报错|错误|失败|fail|```|stack|core dump|segmentation|日志|log", re.IGNORECASE)
_VERSION = re.compile(r"\b\d+\.\d+(?:\.\w+)?\b|版本|version|环境|environment|CANN|driver|固件|python\s*\d", re.IGNORECASE)
_QUESTION = re.compile(r"[?？]\s*$|^(?:如何|怎么|怎样|请问|是否|能否|可否|how|what|why|is there|can i|does)", re.IGNORECASE)
_THANKS = re.compile(r"谢谢|感谢|已解决|解决了|可以了|搞定|thanks|thank you|solved|works now|resolved", re.IGNORECASE)
_BUG = re.compile(r"bug|defect|缺陷|故障|regression", re.IGNORECASE)


@dataclass(slots=True)
class ValueInputs:
    title: str
    body: str
    labels: list[str]
    issue_type: str
    author: str
    comments: list[tuple[str, str]]      # (author, body), oldest first
    fix_merged: bool
    fix_strong: bool                      # keyword / linked / branch_name / commit evidence
    fix_pending: bool                     # a fix candidate exists but did not land
    close_explained: bool                 # auto_close or minutes evidence
    answered: bool                        # "answer" evidence
    closer: str = ""


def value_score(v: ValueInputs) -> float:
    score = 0.0
    if v.fix_merged:
        score += 0.30 if v.fix_strong else 0.20
    elif v.fix_pending:
        score += 0.12

    others = [(a, b or "") for a, b in v.comments if a and a != v.author]
    cue_len = max((len(b) for _, b in others if _ROOT.search(b)), default=0)
    if cue_len:
        score += 0.10 + 0.10 * min(1.0, cue_len / 400)
    elif any(len(b.strip()) >= 40 for _, b in others):
        score += 0.08

    body = v.body or ""
    substance = 0.0
    substance += 0.25 if _REPRO.search(body) else 0.0
    substance += 0.25 if _LOGS.search(body) else 0.0
    substance += 0.25 if _VERSION.search(body) else 0.0
    substance += 0.25 * min(1.0, len(body) / 800)
    score += 0.20 * substance

    participants = {a for a, _ in v.comments if a}
    score += 0.05 * min(1.0, math.log1p(len(v.comments)) / math.log1p(8))
    score += 0.05 * min(1.0, len(participants) / 3)

    if any(_BUG.search(x) for x in [*v.labels, v.issue_type]):
        score += 0.05
    if v.close_explained:
        score += 0.15
    elif v.answered or v.fix_merged:
        score += 0.07

    short_body = len(body.strip()) < 80
    if _QUESTION.search((v.title or "").strip()) and short_body and len(others) <= 1 \
            and all(len(b.strip()) < 80 for _, b in others) and not v.fix_merged:
        score -= 0.15
    own = [b for a, b in v.comments if a == v.author]
    if own and _THANKS.search(own[-1]) and not v.fix_merged and not v.answered \
            and (not v.closer or v.closer == v.author):
        score -= 0.15
    if len(body.strip()) < 15:
        score -= 0.10
    return max(0.0, min(1.0, score))


def top_k(keys_values: list[tuple[str, float, int, float]], k: int) -> tuple[list[str], list[str]]:
    """(key, value, n_comments, closed_ts) items -> (top K keys, the rest), best first."""
    ordered = sorted(keys_values, key=lambda kv: (-kv[1], -kv[2], -kv[3], kv[0]))
    keys = [kv[0] for kv in ordered]
    return keys[:k], keys[k:]
