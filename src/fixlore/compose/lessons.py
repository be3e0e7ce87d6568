"""Themes across repositories: each kept case is put under the failure mode its facts share with
other cases (what went wrong and where: an earlier change it followed, wrong numbers without an
error, distributed state and timeouts, the observations themselves, documents behind the code,
configuration against a convention, the edge of what is supported, a loud error), and each mode
carries the sentence a reader learns from it.

A theme is what cases share, never their fix status: whether a fix landed is said inside each
theme (its count sentence, and the cases closed before their fix landed by name), from the one
rule `Case.fix_state`. The modes and their words are how maintainers and reporters describe these
failures in issue threads (GitCode, GitHub, Chinese and English), written from how people report
them; their reading was judged on the Ascend world (ascend-2026-09), the fitted world.
A clause that only points at attached material ("日志见附件", "log attached") is not read for cues
(issue #22; written, not fitted: on all 19 worlds no case moved): a case's mode is what its report
says about the failure. A case matching no mode, or left alone in every mode it shows, stays in no theme (the themes' heading
says how many): a theme is what at least two cases share, never a bucket of leftovers. The order of `ORDER` is the order
of the questions: what the report tells first (a regression, silent wrong numbers, distributed
state, the observations), then where the fault sits (documents, configuration, the support
boundary), then a loud error.

Cue words are matched as words (`rules.words`: an English cue where a word starts and ends). The
modes false alarm, cost, request and how-to question were added after reading the unthemed cases of
npu-threads and ascend-2026-09 (both fitted for them); held out: demo, paddle-threads,
pytest-threads, seed-twin, seed-twin2, github-mini. Themed/kept 2026-12-07 (step: no catch-all,
then these modes): ascend 47/50 -> 47/50 (8 -> 10 themes), npu-threads 30/56 -> 44/56 (5 -> 7);
held out paddle 9/17 -> 11/17, seed-twin 18/24 -> 17/24, seed-twin2 20/23 -> 21/23, demo 6/10.

Measured once (2026-12-06, editorial check, `fixlore check`): ascend-2026-09 (fitted) theme
arithmetic findings 2 -> 0, 8 themes each from 2-5 repositories; held out: demo 2 -> 0 arithmetic,
npu-threads 6 -> 0 cut bullets, seed-twin, seed-twin2, paddle-threads, pytest-threads, github-mini
0 -> 0. A colleague's hand read of the fitted world still finds members that fit their heading
loosely (MindSpeed-MM#574 under wrong numbers)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from fixlore.compose.steps import ERROR_NAME
from fixlore.core.enums import FixState
from fixlore.core.model import Case
from fixlore.rules.refs import find_refs
from fixlore.rules.words import has_cue, without_pointers


@dataclass(frozen=True)
class Mode:
    key: str
    zh: str          # the lesson, one sentence
    en: str
    short_zh: str    # the mode's name in a line that lists themes ("观测与采集 4")
    short_en: str
    words: tuple[str, ...] = ()
    told_only: bool = False     # the words count in the report (title, problem) only, not in the fix
    answer_words: tuple[str, ...] = ()     # words that count anywhere, the answer included, for a told_only mode


REGRESSION = Mode("regression", "上一个改动埋的雷由下一个修复收：前一个改动改了路径、关键字、断言或数据结构，下游没跟上，回归测试或解析最先发现",
                  "one change's leftovers are the next fix's work: an earlier change moved a path, a keyword, an "
                  "assertion or a data layout the code downstream did not follow, and a regression test or a parser "
                  "caught it first", "回归与上游改动", "regressions after a change",
                  ("回归", "regression", "nightly", "沿用", "改成", "改为", "升级后", "之后", "后失效", "不再生效",
                   "after upgrad*", "no longer work*", "since upgrad*", "broke", "broken"), told_only=True)
# words that say the earlier PR named in a cause brought the fault in
BROUGHT_IN = ("引入", "之后", "使 ", "导致", "introduced", "since", "after")
SILENT = Mode("silent", "数值错了却不报错：计数、掩码、标志位或维度的语义对不上时程序照常跑完，只有对账、指标或 loss 曲线能发现",
              "wrong numbers raise no error: when a count, a mask, a flag or a dimension means something else on one "
              "side, the program runs to the end and only a cross-check, a metric or the loss curve shows it",
              "静默的数值错误", "silent wrong numbers",
              ("虚高", "高估", "失真", "发散", "重复回答", "loss 飙", "grad_norm", "不对称", "静默", "泄漏", "精度问题",
               "精度异常", "结果错误", "inflated", "overestimat*", "diverg*", "silently", "wrong result", "incorrect result",
               "wrong value", "corrupted value", "precision issue", "accuracy drop", "nan"))
FALSE_ALARM = Mode("false_alarm", "误报也是故障：告警、校验或检测把正常当成异常时，先核对判据本身（期望集合、匹配规则、阈值）再查被判的对象",
                   "a false alarm is a fault too: when a check, an alert or a detector takes the healthy for broken, "
                   "check its criterion (the expected set, the match, the threshold) before the thing it judged",
                   "误报与误判", "false alarms",
                   ("误报", "误判", "告警误判", "误告警", "false positive", "false alarm", "spurious", "wrongly report*",
                    "misreport*"), told_only=True)
COST = Mode("cost", "能跑但代价太高：耗时、显存和内存占用多花在多做的一步上（全量写、同步、重复分配），先量出多花在哪一步",
            "it runs but costs too much: time, device memory and host memory go to a step done once too often (a "
            "full write, a sync, a repeated allocation); measure which step spends it first",
            "耗时与占用", "time and memory cost",
            ("耗时", "显存", "内存占用", "占用", "很慢", "变慢", "速度慢", "延迟", "性能差", "性能下降", "退化", "吞吐",
             "slow", "slowdown", "latency", "throughput", "memory usage", "memory footprint", "performance"),
            told_only=True)
DISTRIBUTED = Mode("distributed", "分布式组件的身份、锁与超时要两边一致：谁是主、用哪个 key、等多久，一处定义不同就误判或卡死",
                   "distributed parts must agree on identity, locks and timeouts: who leads, which key, how long to "
                   "wait; where two places define it differently, a healthy peer is judged dead or a lock hangs",
                   "分布式一致性", "distributed agreement",
                   ("心跳", "heartbeat", "超时", "timeout", "双主", "leader", "主节点", "bind", "etcd", "抢锁", "endpoint",
                    "ssh", "端口", "split brain"))
OBSERVE = Mode("observe", "观测数据本身也会出错：指标口径随版本变化、日志关键字一改解析就失效、采集范围或探针会混进别的数据，先确认看到的数是怎么来的",
               "the observations themselves go wrong: a metric's meaning changes with the version, a parser fails "
               "when a log keyword changes, a collector or a probe mixes in other data; first ask how the number "
               "you see was made", "观测与采集", "metrics, logs and collection",
               ("指标", "metric", "日志", "采集", "监控", "monitor", "exporter", "探针", "probe", "观测", "plog",
                "telemetry", "污染测量", "profiling"))
DOCS = Mode("docs", "文档与配套落后于代码：README、支持矩阵和版本号常与镜像实际配套不符，以镜像与发布说明为准",
            "documents lag behind the code: READMEs, support matrices and version numbers often disagree with what "
            "the image ships, so the image and the release notes are what count", "文档与配套", "documents and versions",
            ("readme", "文档", "资料", "支持矩阵", "指南", "docs", "版本不一致", "前后矛盾", "前后冲突", "拼写",
             "typo", "documentation"), told_only=True)
CONFIG = Mode("config", "配置与约定不符就跑不起来：标签写法、示例模板、默认挂载与叠加的参数都带着没写出来的约定，先对照官方示例和默认值核对配置",
              "configuration against a convention fails: label spelling, sample templates, default mounts and stacked "
              "options carry conventions nobody wrote down; compare yours with the official sample and defaults first",
              "配置与约定", "configuration and conventions",
              ("配置", "参数", "标签", "yaml", "示例", "sample", "config*", "挂载", "mount", "只读", "read-only",
               "下划线", "中横线", "环境变量", "权限", "permission", "label", "option", "设置", "叠加", "硬编码",
               "hardcod*", "hard-cod*"))
REQUEST = Mode("request", "需求不是故障：请求的新能力随 PR 落地或进入排期，能不能用看答复里的 PR 合入与排期，而不是关单状态",
               "a request is no fault: a new capability lands with a PR or goes into a plan; whether you can use it "
               "is the PR's merge and the plan in the answer, not the close",
               "需求与新能力", "feature requests",
               ("需求", "希望", "请求", "期望", "社区任务", "何时", "什么时候", "feature request", "feature", "provide",
                "add support", "when will", "roadmap", "would be nice"), told_only=True)
SCOPE = Mode("scope", "问“支不支持”，答案是一条边界：新能力随 PR 落地，迁走或日落的不再跟进，先查所用版本是否含对应 PR，再看官方支持范围",
             "asking whether something is supported gets a boundary for an answer: new capabilities land with a PR, "
             "what moved elsewhere or was sunset is no longer followed; check that your build has the PR, then what is "
             "officially supported",
             "能力边界", "what is supported",
             # the report asks about a capability; "支持 Python 3.8" in a fix is no question of scope
             ("支持", "support", "能否", "是否支持", "迁移至", "unsupported"), told_only=True,
             answer_words=("迁移到", "日落", "不再跟进", "不再投入", "不再维护", "sunset", "deprecat*", "no longer maintained",
                           "moved to"))
SUPPORT = Mode("support", "咨询类问题的答案在用法里：怎么配、为什么这样，答复多指向文档、示例或一条命令，先按答复核对自己的用法",
               "a how-to question is answered by usage: how to set it, why it is so; the answer points to a document, "
               "a sample or a command, so check your usage against it first",
               "用法咨询", "how-to questions",
               ("咨询", "请问", "怎么", "如何", "为啥", "为什么", "求助", "how to", "how do", "how can", "why does",
                "why is", "question", "usage"), told_only=True)
LOUD = Mode("loud", "会报错的故障反而好修：异常名和报错文本直指出错的调用，照报错文本搜同类案例，修复多是一处类型、参数或边界",
            "failures that raise an error are the easy ones: the exception and its text point at the failing call, "
            "a search on that text finds the kin, and the fix is mostly one type, argument or bound",
            "报错直指调用", "loud errors",
            ("报错", "失败", "出错", "越界", "溢出", "oom", "崩溃", "异常", "error", "exception", "crash", "fail*",
             "segfault", "traceback", "abort*", "core dump*"), told_only=True)

ORDER = (REGRESSION, SILENT, FALSE_ALARM, COST, DISTRIBUTED, OBSERVE, DOCS, CONFIG, REQUEST, SCOPE, SUPPORT, LOUD)


def landed(c: Case) -> bool:
    return c.fix_state == FixState.LANDED


def pending(c: Case) -> bool:
    """A fix that did not land (or the trap saying so): each case is landed, pending or without a
    code fix, exactly one of the three (`Case.fix_state`)."""
    return c.fix_state == FixState.NOT_LANDED


def _told(c: Case) -> str:
    """The report (title, problem) cues are read in, without the clauses that only point at attached
    material ("附上完整日志供参考", "log attached": `rules.words.without_pointers`, issue #22)."""
    return " ".join(without_pointers(t) for t in (c.title, c.problem)).lower()


def _text(c: Case) -> str:
    w = c.written
    return " ".join(without_pointers(t) for t in (c.title, c.problem, w.mechanism, w.change, w.workaround)).lower()


_CLAUSE_END = re.compile(r"[，。；;,!?！？\n]|\.(?:\s|$)")


def earlier_prs(c: Case) -> list[int]:
    """The PRs of the case's repository, other than its own fixes, that its cause names as what
    brought the fault in: the PR and a cue word in one clause (`!778 引入 VllmCommand 后 …`, `!754 的
    … 使 matcher 误判`, `after #7230`); [] when the cause says no such thing."""
    own = {f.number for f in [*c.fix, *c.pending_fix]}
    out: list[int] = []
    for text in (c.problem, c.written.mechanism, c.written.change):
        for r in find_refs(text, c.repo, c.platform):
            if r.kind == "issue" or r.number in own or r.number == c.number or r.repo != c.repo:
                continue
            rest, before = text[r.span[1]:], text[:r.span[0]]
            after = rest[:m.start()] if (m := _CLAUSE_END.search(rest)) else rest
            starts = [m.end() for m in _CLAUSE_END.finditer(before)]
            if has_cue(before[starts[-1] if starts else 0:] + " " + after, BROUGHT_IN):
                out.append(r.number)
    return list(dict.fromkeys(out))


def _names_an_earlier_pr(c: Case) -> bool:
    return bool(earlier_prs(c))


def matches(mode: Mode, c: Case) -> bool:
    """The case shows this mode: its report (or, for a mode that is not `told_only`, its analysis
    too) uses the mode's words; a regression is one a fix followed, a loud error one whose report
    names it."""
    if mode is REGRESSION:
        return landed(c) and (_names_an_earlier_pr(c) or has_cue(_told(c), mode.words))
    if mode is LOUD:
        return has_cue(_told(c), mode.words) or bool(ERROR_NAME.search(f"{c.title} {c.problem} {c.symptom}"))
    text = _told(c) if mode.told_only else _text(c)
    return has_cue(text, mode.words) or has_cue(_text(c), mode.answer_words)


def modes_of(c: Case) -> list[Mode]:
    """Every mode the case shows, in `ORDER`."""
    return [m for m in ORDER if matches(m, c)]


def partition(kept: list[Case]) -> list[tuple[Mode, list[Case]]]:
    """The kept cases by failure mode, every case at most once, every theme at least two cases: a
    case goes to the first mode it shows; a mode left with one case gives it to the next mode it
    shows that has others. A case that shows no mode, or is left alone in every mode it shows, is
    in no theme (`unthemed`): no theme is a bucket of leftovers. Largest first."""
    shown = {c.key: modes_of(c) for c in kept}
    by: dict[str, list[Case]] = {}
    for c in kept:
        if shown[c.key]:
            by.setdefault(shown[c.key][0].key, []).append(c)
    # a lone case moves to a later mode it shows that holds others; smallest modes give way first
    changed = True
    while changed:
        changed = False
        for key in sorted((k for k, cs in by.items() if len(cs) == 1), key=lambda k: [m.key for m in ORDER].index(k)):
            if key not in by or len(by[key]) != 1:
                continue
            c = by[key][0]
            other = next((m for m in shown[c.key] if m.key != key and len(by.get(m.key, ())) >= 1), None)
            if other is not None:
                del by[key]
                by[other.key].append(c)
                changed = True
    modes = {m.key: m for m in ORDER}
    order = {m.key: i for i, m in enumerate(ORDER)}
    return sorted(((modes[k], cs) for k, cs in by.items() if len(cs) >= 2), key=lambda g: (-len(g[1]), order[g[0].key]))


def unthemed(kept: list[Case], parts: list[tuple[Mode, list[Case]]]) -> list[Case]:
    """The kept cases no theme holds, in their given order."""
    inside = {c.key for _, cs in parts for c in cs}
    return [c for c in kept if c.key not in inside]


def others_of(mode: Mode, cs: list[Case], kept: list[Case]) -> list[Case]:
    """Kept cases outside the theme, from a repository the theme does not hold, that show its mode:
    what makes a claim "only in this repository" false."""
    inside = {c.key for c in cs}
    repos = {c.repo for c in cs}
    return [c for c in kept if c.key not in inside and c.repo not in repos and matches(mode, c)]
