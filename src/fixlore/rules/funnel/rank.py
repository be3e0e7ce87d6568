"""Value of a pool issue for the digest, and the top-K cut.

A digest case is worth reading for what it teaches: a maintainer's explanation, or a fix
whose report says enough to learn from. The score (0..1) is

  0.60 knowledge    max(answer, fix x report size, 0.6 x report for a documented failure)
                    answer: the longest reply by someone other than the reporter that is not
                      a bot, a stale notice, a bare closing note or a canned reply (the same
                      text posted on several issues), saturating at 80 characters; a reporter's
                      own follow-up that explains a cause counts at 0.8
                    fix: 1.0 merged with strong evidence (keyword, link, branch, commit),
                      0.8 merged on weaker evidence, 0.6 a fix that has not landed;
                      scaled by what the case says (saturating at 150 characters): the longer
                      of the report and the fix's own explanation (its PR bodies and the
                      review comments of people, not bots). The mechanism of a case often
                      sits in the PR, not in a one-line report; a one-line typo fix with a
                      bare PR still teaches little
                    documented failure: a report of at least 150 characters that carries
                      logs, a traceback or code and drew at least two human comments: its
                      symptom and conditions are what a troubleshooting guide is made of
  0.20 report       body length (saturating at 300 characters) and the presence of
                    reproduction steps, logs/tracebacks/code, versions/environment
  0.10 discussion   human comments that say something (saturating at 3): "thanks", "ok", an
                    emoji do not count
  0.10 closure      1.0 when the close is explained by the fix (auto-close / minutes), 0.6 when
                    there is an answer or a merged fix
  -0.15             a bare question: body under 80 characters, a question title, no merged
                    fix and no reply of 60 characters or more
  -0.15             a thin exchange: the reporter's last comment contains a "thanks / solved /
                    ok" and there is neither a merged fix nor a reply of 60 characters or more
                    (replies that only ask for more information never count as answers)

Ties are broken by more comments, then later close, then key, so the cut is deterministic.
No term names a product, a repository or one tracker's wording.

Weights and saturation points (0.60/0.20/0.10/0.10, 80/150/300 characters, -0.15) were set by
judgement and checked on ascend-2026-09 (the seed's 63 analysis candidates); demo and
github-mini agree. They were not fitted on any other world.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass

# Report cues, tested on the lower-cased body: literals as substring tests (one C scan each;
# an alternation of literals enters the regex engine at every position of a long body).
_REPRO_WORDS = ("复现", "重现", "步骤", "reproduc", "steps to", "运行命令", "执行命令", "command", "脚本", "script")
_LOGS_WORDS = ("traceback", "error", "exception", "报错", "错误", "失败", "fail", "```", "stack", "core dump",
               "segmentation", "日志")
_LOG_WORD = re.compile(r"\blog\b")
_VERSION_WORDS = ("版本", "version", "环境", "environment", "driver", "固件")
_DOTTED_NUMBER = re.compile(r"\d\.\d")
_PYTHON_VERSION = re.compile(r"python\s*\d")


def _has_repro(low: str) -> bool:
    return any(w in low for w in _REPRO_WORDS)


def _has_logs(low: str) -> bool:
    return any(w in low for w in _LOGS_WORDS) or ("log" in low and _LOG_WORD.search(low) is not None)


def _has_version(low: str) -> bool:
    return any(w in low for w in _VERSION_WORDS) or _DOTTED_NUMBER.search(low) is not None \
        or ("python" in low and _PYTHON_VERSION.search(low) is not None)


_QUESTION = re.compile(r"[?？]\s*$|^(?:如何|怎么|怎样|请问|是否|能否|可否|how|what|why|is there|can i|does)|怎么|如何|吗\s*$|"
                       r"多少|是什么|有没有|哪些|哪个",
                       re.IGNORECASE)
_THANKS = re.compile(r"谢谢|感谢|已解决|解决了|可以了|好了|好的|搞定|收到|thanks|thank you|solved|works now|resolved|"
                     r"👍|🙏|^\s*(?:ok|okay|got it|\+1)\W*$", re.IGNORECASE)
_ACK_MAX_CHARS = 12            # fitted on ascend-2026-09


def is_acknowledgement(text: str) -> bool:
    """A short "thanks / ok / solved" that adds nothing to the discussion."""
    squashed = "".join((text or "").split())
    return len(squashed) <= _ACK_MAX_CHARS and (not squashed or _THANKS.search(squashed) is not None
                                                or not any(ch.isalnum() for ch in squashed))


CAUSE = re.compile(r"根因|原因|导致|引起|由于|因为|查到|定位|发现是|所致|root cause|caused by|because|due to|turned out|"
                   r"the problem (?:is|was)", re.IGNORECASE)


@dataclass(slots=True)
class ValueInputs:
    title: str
    body: str
    author: str
    answer_chars: int                     # longest substantive non-reporter reply (0 if none)
    human_comments: int                   # comments by people that say something (no bots, stale
                                          # notices or bare acknowledgements)
    reporter_last: str                    # the reporter's last comment ("" if none)
    fix_merged: bool
    fix_strong: bool                      # keyword / linked / branch_name / commit evidence
    fix_pending: bool                     # a fix candidate exists but did not land
    close_explained: bool                 # auto_close or minutes evidence
    answered: bool                        # "answer" evidence
    self_explained_chars: int = 0         # longest reporter follow-up that explains a cause
    fix_text_chars: int = 0               # the fix PRs' bodies + human review comments (no spaces)


def value_score(v: ValueInputs) -> float:
    body = (v.body or "").strip()[:4000]
    size = min(1.0, max(len(body), v.fix_text_chars) / 150)
    answer = max(min(1.0, v.answer_chars / 80), 0.8 * min(1.0, v.self_explained_chars / 80))
    fix = 1.0 if v.fix_merged and v.fix_strong else 0.8 if v.fix_merged else 0.6 if v.fix_pending else 0.0
    low = body.lower()
    logs = _has_logs(low)
    cues = (_has_repro(low) + logs + _has_version(low)) / 3
    report = 0.5 * min(1.0, len(body) / 300) + 0.5 * cues
    documented_failure = 0.6 * report if logs and len(body) >= 150 and v.human_comments >= 2 else 0.0
    knowledge = max(answer, fix * size, documented_failure)

    discussion = min(1.0, v.human_comments / 3)
    closure = 1.0 if v.close_explained else 0.6 if (v.answered or v.fix_merged) else 0.0

    score = 0.60 * knowledge + 0.20 * report + 0.10 * discussion + 0.10 * closure
    # The cheap conditions first: the patterns are searched only when they can matter.
    if len(body) < 80 and v.answer_chars < 60 and not v.fix_merged and _QUESTION.search((v.title or "").strip()):
        score -= 0.15
    if v.reporter_last and not v.fix_merged and v.answer_chars < 60 and _THANKS.search(v.reporter_last):
        score -= 0.15
    return max(0.0, min(1.0, score))


def _rank_key(kv: tuple[str, float, int, float]) -> tuple[float, int, float, str]:
    return (-kv[1], -kv[2], -kv[3], kv[0])


def top_k(keys_values: list[tuple[str, float, int, float]], k: int) -> tuple[list[str], list[str]]:
    """(key, value, n_comments, closed_ts) items -> (top K keys, the rest), best first."""
    ordered = sorted(keys_values, key=_rank_key)
    keys = [kv[0] for kv in ordered]
    return keys[:k], keys[k:]


def top_keys(keys_values: list[tuple[str, float, int, float]], k: int) -> list[str]:
    """The first part of `top_k` alone (a heap of K instead of sorting every item)."""
    if k < 0:                       # a slice's meaning, as top_k gives it
        return top_k(keys_values, k)[0]
    return [kv[0] for kv in heapq.nsmallest(k, keys_values, key=_rank_key)]
