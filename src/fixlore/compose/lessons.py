"""Themes across repositories: each kept case is put under one failure mode (what went wrong, read
from its facts: an earlier PR its cause names, a fix that never landed, wrong numbers without an
error, distributed state and timeouts, documents behind the code, an answer without a code change,
a capability added), and each failure mode carries the sentence a reader learns from it.

The modes and their words are how maintainers and reporters describe these failures in issue
threads (GitCode, GitHub, Chinese and English), written before measuring on any bundled world; a
mode with a single case folds into the general one of its state, so a theme names at least two.
The order of `ORDER` is the order of the questions: a fix that did not land first, then what the
report tells (a regression, silent wrong numbers, distributed state, documents, a loud error), then
the state alone (answered without a change, a capability added)."""

from __future__ import annotations

from dataclasses import dataclass

from fixlore.compose.figures import merged
from fixlore.compose.steps import ERROR_NAME
from fixlore.core.enums import Trap
from fixlore.core.model import Case
from fixlore.rules.refs import find_refs


@dataclass(frozen=True)
class Mode:
    key: str
    zh: str          # the lesson, one sentence
    en: str
    words: tuple[str, ...] = ()


REGRESSION = Mode("regression", "上一个改动埋的雷由下一个修复收：前一个 PR 改了路径、断言或数据结构，下游没跟上，回归测试最先发现",
                  "one change's leftovers are the next fix's work: an earlier PR changed a path, an assertion or a data "
                  "layout the code downstream did not follow, and the regression tests caught it first",
                  ("回归", "regression", "nightly", "沿用"))
# words that say the earlier PR named in a cause brought the fault in
BROUGHT_IN = ("引入", "之后", "使 ", "导致", "introduced", "since ", "after ")
NOT_LANDED = Mode("not_landed", "关单不等于修好：修复 PR 未合入就关了单，能不能用只看 PR 的合入状态",
                  "closed is not fixed: these issues were closed before their fix merged, so only the PR's merge "
                  "state says whether the fix is there")
SILENT = Mode("silent", "数值错了却不报错：计数、掩码、标志位或维度的语义对不上时程序照常跑完，只有对账、指标或 loss 曲线能发现",
              "wrong numbers raise no error: when a count, a mask, a flag or a dimension means something else on one "
              "side, the program runs to the end and only a cross-check, a metric or the loss curve shows it",
              ("虚高", "高估", "失真", "发散", "重复回答", "loss 飙", "grad_norm", "不对称", "静默", "泄漏",
               "inflated", "overestimat", "diverg", "silently", "wrong result"))
DISTRIBUTED = Mode("distributed", "分布式组件的身份、锁与超时要两边一致：谁是主、用哪个 key、等多久，一处定义不同就误判或卡死",
                   "distributed parts must agree on identity, locks and timeouts: who leads, which key, how long to "
                   "wait; where two places define it differently, a healthy peer is judged dead or a lock hangs",
                   ("心跳", "heartbeat", "超时", "timeout", "双主", "leader", "主节点", "bind", "etcd", "抢锁", "endpoint",
                    "ssh", "端口", "split brain"))
DOCS = Mode("docs", "文档与配套落后于代码：README、支持矩阵和版本号常与镜像实际配套不符，以镜像与发布说明为准",
            "documents lag behind the code: READMEs, support matrices and version numbers often disagree with what "
            "the image ships, so the image and the release notes are what count",
            ("readme", "文档", "资料", "支持矩阵", "指南", "docs", "版本不一致", "前后矛盾", "前后冲突", "拼写",
             "typo", "documentation"))
LOUD = Mode("loud", "会报错的故障反而好修：异常名和报错文本直指出错的调用，照报错文本搜同类案例，修复多是一处类型、参数或边界",
            "failures that raise an error are the easy ones: the exception and its text point at the failing call, "
            "a search on that text finds the kin, and the fix is mostly one type, argument or bound",
            ("报错", "失败", "越界", "溢出", "oom", "崩溃", "异常", "error", "exception", "crash", "failed"))
ANSWERED = Mode("answered", "没有代码改动的案子，答案在配置与用法里：先对照官方答复核对参数、标签和示例，再怀疑代码",
                "cases settled without a code change have their answer in configuration and usage: check the "
                "parameters, labels and samples against the maintainers' answer before suspecting the code")
ADDED = Mode("added", "其余修复补的是能力缺口与工程细节：新参数、新指标、新平台支持，用前先确认所用版本含对应 PR",
             "the other fixes fill capability gaps and engineering details (new options, metrics, platforms): "
             "check that your build has the PR before relying on it")

ORDER = (NOT_LANDED, REGRESSION, SILENT, DISTRIBUTED, DOCS, LOUD, ANSWERED, ADDED)


def landed(c: Case) -> bool:
    return any(merged(f) for f in c.fix)


def pending(c: Case) -> bool:
    """Not landed, with a fix that did not merge (or the trap saying so): each case is landed,
    pending or without a code fix, exactly one of the three."""
    unmerged = [f for f in [*c.fix, *c.pending_fix] if not merged(f)]
    return not landed(c) and bool(unmerged or Trap.FIX_NOT_LANDED in c.traps)


def _text(c: Case) -> str:
    return " ".join((c.title, c.problem, c.written.mechanism, c.written.change)).lower()


def _names_an_earlier_pr(c: Case) -> bool:
    """The cause names a PR other than the case's own fixes as what brought the fault in
    (`!778 引入 VllmCommand 后 …`)."""
    own = {f.number for f in [*c.fix, *c.pending_fix]}
    cause = f"{c.problem} {c.written.mechanism} {c.written.change}"
    refs = find_refs(cause, c.repo)
    named = any(r.number not in own and r.number != c.number for r in refs if r.kind != "issue")
    return named and any(w in cause.lower() for w in BROUGHT_IN)


def mode_of(c: Case) -> Mode:
    if pending(c):
        return NOT_LANDED
    text = _text(c)
    # a regression is told by the report ("回归失败"), not by a fix that added a regression test
    told = f"{c.title} {c.problem}".lower()
    if landed(c) and (_names_an_earlier_pr(c) or any(w in told for w in REGRESSION.words)):
        return REGRESSION
    for mode in (SILENT, DISTRIBUTED):
        if any(w in text for w in mode.words):
            return mode
    # a document's fault is told by the report itself, not by a fix that also touched the docs
    if any(w in told for w in DOCS.words):
        return DOCS
    if landed(c) and (any(w in told for w in LOUD.words) or ERROR_NAME.search(f"{c.title} {c.problem} {c.symptom}")):
        return LOUD
    return ADDED if landed(c) else ANSWERED


def partition(kept: list[Case]) -> list[tuple[Mode, list[Case]]]:
    """The kept cases by failure mode, every case once; a mode with one case folds into the general
    mode of its state (added when its fix landed, answered otherwise); largest first."""
    by: dict[str, list[Case]] = {}
    for c in kept:
        by.setdefault(mode_of(c).key, []).append(c)
    modes = {m.key: m for m in ORDER}
    for key in [k for k, cs in by.items() if len(cs) == 1 and k not in (ADDED.key, ANSWERED.key)]:
        c = by.pop(key)[0]
        by.setdefault((ADDED if landed(c) else ANSWERED).key, []).append(c)
    order = {m.key: i for i, m in enumerate(ORDER)}
    return sorted(((modes[k], cs) for k, cs in by.items()), key=lambda g: (-len(g[1]), order[g[0].key]))
