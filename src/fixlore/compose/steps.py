"""What a guide row says, from a case's facts: the symptom as a user would search it (the
exception and message the report quotes, the log's noise left out; else the clause of the problem
that tells what goes wrong, cut to its outcome when long, with the names and the error it gives in
brackets), the checks a first step is made of (the versions an answer asks to install, whether
the cause the case found holds, the code the cause names when the case says what it is), what a
fix PR's title says it does, and texts fitted to a length by choosing a sentence or clause that
fits, never by cutting one.

The failure words and imperative openings are how people write issue reports and maintainers'
advice on GitCode and GitHub (Chinese and English); they are not fitted to a bundled world."""

from __future__ import annotations

import re

from fixlore.compose.kinds import STEP as KIND_STEP, step as kind_step
from fixlore.compose.language import TERM_CHARS, cjk_count, foreign_prose, term
from fixlore.compose.roles import restates
from fixlore.compose.wording import t as _t
from fixlore.core.model import Case, FixRef
from fixlore.rules.clauses import announces, clause_ends, leaves_open
from fixlore.rules.refs import find_refs, title_without_lead_ref, title_without_tail_ref
from fixlore.rules.text import overlap, tokens
from fixlore.wording.sentence import within

# an exception's name or a platform's error code: what a user pastes into a search box
ERROR_NAME = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|\bCode \d{3}\b")
# code identifiers: snake_case, camelCase, CamelCase with an inner capital, dotted names
IDENT = re.compile(r"(?<![A-Za-z0-9_./-])(?:[A-Za-z_][A-Za-z0-9_]*_[A-Za-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9_]*"
                   r"|[A-Z][a-z]+[A-Z][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_.]*)")
FAILURE = ("报错", "失败", "失效", "超时", "越界", "溢出", "oom", "虚高", "高估", "泄漏", "发散", "重复", "不一致",
           "矛盾", "无法", "不能", "不支持", "缺少", "缺", "误判", "误报", "残留", "飙", "卡住", "杀掉", "污染",
           "读不出", "冲突", "不符", "不匹配", "错误", "异常", "崩溃", "挂死", "失真", "退化", "pending", "error", "fail",
           "crash", "timeout", "hang", "leak", "wrong", "missing", "cannot", "broken")
IMPERATIVE = ("请", "先", "查", "确认", "检查", "核对", "设", "去掉", "删除", "升级", "按", "在宿主机", "换", "改用",
              "避免", "关闭", "开启", "打开", "补充", "参考", "重装", "使用", "不要", "勿", "等待", "以镜像",
              "use ", "set ", "check ", "upgrade ", "remove ", "add ", "avoid ", "disable ", "enable ", "run ",
              "install ", "pin ", "switch ", "replace ", "confirm ", "verify ", "pass ", "provide ", "read ", "try ")
DESCRIBES_A_CHANGE = ("改为", "改成", "已", "新增", "计划", "准备", "修复", "增加", "统一")
CONNECTIVES = ("与", "和", "且", "并", "导致", "致", "无法", "不能", "但", "and ", "but ", "so ")
# words that describe a change still to come: not said of a fix that merged
PLANNED = ("计划", "准备", "打算", "修复中", "检视中", "后续会", "will ", "plan to", "going to")
PIPELINE_STEP = ("关注 ", "升级到含", "watch ", "upgrade to")


def sentences(text: str) -> list[str]:
    # not at "!" or "?": "!3054" is a merge request
    return [s.strip() for s in re.split(r"(?<=[。；;！？])|(?<=[.?])\s", text or "") if s.strip()]


LABEL = re.compile(r"^(?:定位|根因|原因|方案|确认|结论|评估结论|说明|答复|官方|Root cause|Cause|Fix)\s*[：:]\s*")


def fit(text: str, limit: int) -> str:
    """The first sentence of `text` (its label "定位：" dropped) if it fits `limit`, else its first
    clause if that fits and says something, else ''. Never a cut."""
    first = LABEL.sub("", next(iter(sentences(text)), "")).rstrip("。；;. ")
    if "…" in first or first.endswith("..."):        # cut already: not said again
        return ""
    if len(first) <= limit and not leaves_open(first):    # "主要原因是：1" promises its list
        return first
    # the first whole clause, never one ending inside brackets ("拆成 network_bandwidth（带宽类")
    ends = clause_ends(first)
    clause = first[:ends[0]].rstrip(" ，,、：:；;").strip() if ends else ""
    return clause if 6 <= len(clause) <= limit and not leaves_open(first[:ends[0]]) else ""


def error_name(c: Case) -> str:
    for text in (c.symptom, c.title, c.problem, c.written.mechanism):
        m = ERROR_NAME.search(text or "")
        if m:
            return m.group(0)
    return ""


def searchable(c: Case) -> str:
    """The symptom as a user would search it: the exception and its message when the case quotes
    one (`error_message`: the log's noise left out, shortened at a word boundary), after the
    failing clause when that is short; else the clause of the problem that tells what goes wrong, with the error's
    name when the case names one."""
    raw = (c.symptom or "").strip()
    title = (c.problem or c.title or raw).strip().rstrip("。.？?")
    clauses = [x.strip() for x in re.split(r"[，,；;：:]", title) if x.strip()]
    failing = [i for i, x in enumerate(clauses) if any(w in x.lower() for w in FAILURE)]
    if len(clauses) < 2 or not failing:
        behaviour = title
    else:
        i = failing[0]
        behaviour = clauses[i]
        # a clause that leans on the one before ("与内存中…不一致", "无法…") keeps it; a short one that
        # names what goes wrong ("cpu_blocks 虚高") is what a user searches, on its own, a bare error
        # name ("RuntimeError") is not
        alone = _NAME.search(behaviour) and not ERROR_NAME.fullmatch(behaviour)
        if i and (behaviour.startswith(CONNECTIVES) or (len(behaviour) < 14 and not alone)):
            behaviour = f"{clauses[i - 1]}，{behaviour}"
    behaviour, names = outcome(behaviour)
    name, said = error_message(c)
    if message := term(f"{name}: {said}" if name else said):
        # the error as the report quotes it is what a user searches; the behaviour goes before it
        # when it is short and does not name the error already, the error's name after a message
        # too long to carry it
        named = name or error_name(c)
        message += f"（{named}）" if named and named not in message else ""
        if len(behaviour) > OUTCOME_AT or (named and named.lower() in behaviour.lower()):
            return message
        return behaviour + ("：" if cjk_count(behaviour) else ": ") + message
    token = error_name(c)
    names += [token] if token and token not in behaviour and token not in names else []
    return behaviour + (f"（{'、'.join(names)}）" if names else "")


# where a report's condition ends and what went wrong begins ("…改成 X 后建链信息解析失效", "扫描时…超时")
_CONDITION_END = re.compile(r"(?:之后|以后|期间|(?<![然最落滞延前])后|(?<![超实同及临暂定按小准计])时)(?=\s*\S)")
_NAME = re.compile(IDENT.pattern + r"|(?<![\w.-])[A-Za-z][A-Za-z0-9.]*-[A-Za-z0-9.-]*[A-Za-z0-9](?![\w-])")
OUTCOME_AT = 24         # a clause longer than a glance (characters) is cut to its outcome
OUTCOME_LEAST = 8       # an outcome shorter than this ("把自己杀掉了") no longer says what was doing it


def outcome(behaviour: str) -> tuple[str, list[str]]:
    """A long clause as a user searches it: what went wrong after its condition ("hccl 建链日志关键字
    改成 DetectRankTableImpl 后建链信息解析失效" -> "建链信息解析失效"), with the names the condition
    gave (["DetectRankTableImpl"]); the clause whole when it is short or has no such split."""
    if len(behaviour) <= OUTCOME_AT:
        return behaviour, []
    for mark in reversed(list(_CONDITION_END.finditer(behaviour))):
        rest = behaviour[mark.end():].strip(" ，,")
        if len(rest) >= OUTCOME_LEAST and any(w in rest.lower() for w in FAILURE):
            names = list(dict.fromkeys(m.group(0) for m in _NAME.finditer(behaviour[:mark.start()])
                                       if m.group(0) not in rest))
            return rest, names[:2]
    return behaviour, []


def imperative(text: str) -> bool:
    """Does `text` tell the reader what to do (not what a fix changed)?"""
    t = (text or "").strip().lower()
    if not t or t.startswith(DESCRIBES_A_CHANGE):
        return False
    return t.startswith(IMPERATIVE) or "请" in t


def identifiers(c: Case, k: int = 2) -> list[str]:
    """The first `k` code identifiers the cause names (mechanism, then problem), then the answer
    (the setting it asks for: "set MINERU_DEVICE_MODE=npu"), in order; the product's own name left out."""
    own = re.sub(r"[^a-z0-9]", "", c.repo.split("/")[-1].lower())
    out: list[str] = []
    for text in (c.written.mechanism, c.problem, c.title, c.written.action, c.written.workaround):
        for m in IDENT.finditer(text or ""):
            name = m.group(0).rstrip(".")
            if len(name) >= 5 and name.lower() != own and name not in out and not ERROR_NAME.fullmatch(name):
                out.append(name)
    # names with an underscore or a dot are the code's own; a CamelCase word may be a product name
    return sorted(out, key=lambda n: not re.search(r"[_.]", n))[:k]


# how a stated cause opens ("原因是…", "根因：…"): the check asks about the cause itself
CAUSE_LEAD = re.compile(r"^(?:根因|原因|问题)(?:是|在于|出在)?\s*[：:]?\s*|^(?:因为|由于|是因为)\s*"
                        r"|^(?:the\s+)?(?:root\s+)?cause\s+(?:is|was)\s+(?:that\s+)?|^(?:because|since)\s+(?!of\b)",
                        re.IGNORECASE)
# a measured result ("误差 0.25%，性能 1.3×bf16"): what the fix achieved, not what to check or change
RESULT = re.compile(r"\d(?:\.\d+)?\s?(?:%|×|x\b|倍)")
CHECK_CLAUSE = 50       # a check is read at a glance: a clause of the cause, not its paragraph
# a clause that leans on the one before it ("而 topk_ids 仍为 N×k", "它与…叠加后超限", "导致…"): not a
# check on its own
LEANS = ("而", "但", "它", "其", "则", "所以", "因此", "导致", "致使", "并", "且", "和", "与", "以及", "从而", "或",
         "and ", "but ", "so ", "which ", "it ", "this ", "then ", "or ")
# a clause that tells what the change does ("新增…", "改为…", "避免…", "no longer …"): the fix, not the cause
CHANGE_WORDS = ("改为", "改成", "改回", "新增", "增加", "不再", "修复", "统一", "避免", "删除", "删掉", "去掉", "适配",
                "放宽", "精简", "生成", "扩到", "扩为", "接入", "详见", "参见", "added", "see ", "adds", "now ", "no longer", "changed", "fixed", "removes", "removed")
# a sentence labelled as the plan or the change ("方案：…", "Fix: …")
CHANGE_LABEL = re.compile(r"^(?:方案|修复|修改|改动|Fix)\s*[：:]", re.I)


def ours(text: str, lang: str) -> bool:
    """May `text` stand in a `lang` guide cell as it is? The Chinese digest's steps are Chinese
    (the thread's English only as a quoted term, compose/language.TERM); the English digest marks a
    Chinese quote instead (compose/language.quote), so any text may stand there."""
    return lang != "zh" or (cjk_count(text) >= 2 and not foreign_prose(text, lang))


# a sentence that states a cause or what goes wrong: only its clauses are checks
CAUSE_CUES = ("根因", "原因", "定位", "问题在于", "问题出在", "导致", "因为", "由于", "引起", "造成", "所致", "毁",
              "覆盖", "误判", "静默", "阻塞", "短路", "未对齐", "不对称", "没释放", "未释放", "because", "caused", "due to", "root cause")


def _clauses(text: str) -> list[tuple[str, bool]]:
    """The clauses of `text`'s sentences, each with whether its sentence states a cause or a failure;
    a sentence labelled as the plan or the change gives none, and neither does a clause that announces
    what follows its colon ("nightly 20260908 失败两项：<the two failures>"): the reader checks what
    follows, not the heading (Ascend #405's guide step was its lead-in; every other world held out)."""
    out = []
    for sentence in sentences(text):
        if CHANGE_LABEL.match(sentence.strip()):
            continue
        causal = any(w in sentence.lower() for w in CAUSE_CUES + FAILURE)
        body = LABEL.sub("", sentence).rstrip("。；;. ")
        cuts = [0] + clause_ends(body) + [len(body)]
        out += [(body[a:b].strip(" ，,、：:；;"), causal) for a, b in zip(cuts, cuts[1:]) if not announces(body[a:b])]
    return [(c, k) for c, k in out if c]


def _has_subject(clause: str) -> bool:
    """An English clause "Check whether" can take: more than a name ("AssertionError" alone is none),
    not opening in lower case on an adverb ("currently results in …" lost its subject to a code line;
    "Early stopping fails" keeps its). Written after pytest-threads' guide (fitted); every other
    world's guide held out."""
    words = clause.split()
    return len(words) >= 2 and not (words[0].islower() and words[0].endswith("ly"))


def cause_check(c: Case, lang: str) -> str:
    """The first check drawn from the case's stated cause: does the cause hold for the reader
    ("先确认是否 Init 配置里把标签写成了下划线")? The clause of the mechanism that names what goes wrong
    and the code it is in, else one of the two, in the digest's language and short; '' when the
    mechanism has none (a measured result is not a cause)."""
    best: tuple[int, str] | None = None
    for clause, causal in _clauses(c.written.mechanism):
        clause = CAUSE_LEAD.sub("", clause).strip()
        low = clause.lower()
        if not 6 <= len(clause) <= CHECK_CLAUSE or RESULT.search(clause) or leaves_open(clause) or find_refs(clause, c.repo, c.platform):
            continue
        if low.startswith(LEANS) or any(w in low for w in CHANGE_WORDS):
            continue
        if ERROR_NAME.search(c.title or "") and restates(clause, c.title, verb=False):
            continue        # the error the title quotes is no cause to check
        if (lang == "zh" and not ours(clause, lang)) or (lang != "zh" and (cjk_count(clause) or not _has_subject(clause))):
            continue
        failing, named = any(w in low for w in FAILURE), bool(IDENT.search(clause))
        rank = 2 * failing + named
        if (failing or (named and causal)) and (best is None or rank > best[0]):
            best = (rank, clause)
    if best is None:
        return ""
    clause = best[1]
    if lang == "zh":
        return "先确认是否" + (" " if clause[:1].isascii() else "") + clause
    return "Check whether " + within(clause)


def terms_check(c: Case, names: list[str], lang: str) -> tuple[str, str]:
    """The first check when the cause is not in the digest's language: the code it names, quoted as
    terms, with what the case's words say each is (only when they say it: '' otherwise) (compose/kinds.py: a switch to check, a setting's
    value, a log keyword to search for, ...), and the error the reader sees when the case names one;
    with the kind of name it checks (compose/kinds.STEP's key: "switch", "setting", ...)."""
    answers = [c.written.mechanism, c.written.change, c.written.workaround, c.written.action]
    what, named = kind_step(names, answers + [c.problem, c.title, c.symptom], answers)
    if not what:      # the case says nothing of what the name is: "先核对 `x`" asks the reader nothing
        return "", ""
    quoted = [q for q in (term(n) for n in named) if q]
    if not quoted:
        return "", ""
    err = term(error_name(c))
    zh, en = KIND_STEP[what]
    if lang == "zh":
        return (f"报 {err} 时" if err else "") + zh.format("、".join(quoted)), what
    text = en.format(" and ".join(quoted))
    return (f"On {err}, {text[0].lower()}{text[1:]}" if err else text), what


def closest(texts: list[str], problem: str) -> list[str]:
    """`texts` by how much of the problem they speak to (the change that fixes what the reader
    sees before a side change of the same PR), first said first on a tie."""
    words = tokens(problem)
    return [t for _, _, t in sorted((-overlap(words, tokens(t)), i, t) for i, t in enumerate(texts))]


# a product and its version as an answer names them ("cann 9.0.0", "vllm v0.22.0", "torch_npu 2.5.1")
VERSIONED = re.compile(r"(?<![\w.])([A-Za-z][\w.+-]*)[ \t]+(v?\d+(?:\.\d+){1,3}(?:\.?rc\d+|\.post\d+)?)(?![\w.%×倍])", re.I)


# words that ask the reader to put a version in place ("please upgrade to", "配套", "需要 … 以上")
INSTALL_CUES = ("升级", "安装", "装 ", "换成", "换用", "改用", "配套", "需要", "要求", "以上", "≥", ">=",
                "upgrade", "install", "pin ", "use ", "requires", "require ", "or later", "or newer")
# what stands before a version without being a product ("to 0.27.0", "the v0.29.0", "RFC 26.1.0")
NOT_A_PRODUCT = {"to", "from", "the", "a", "an", "fix", "fixed", "version", "versions", "v", "upgrade", "release",
                 "rfc", "and", "or", "with", "is", "at", "in", "on", "of", "for", "since", "before", "after", "than"}


def version_check(c: Case, lang: str) -> str:
    """The reader's step when the answer asks for versions ("please upgrade to: cann 9.0.0, vllm
    v0.22.0", "需要 CANN 9.2.0 以上"): install them, quoted as terms ('' when it asks for none).
    Only sentences of the answer (and, with no fix, the scope) that ask to install, upgrade or
    require: the mechanism, the change and the report name the version that fails as often as the
    one that works, and beside a fix the scope's bound ("支持 Python 3.8 及以上") is what it supports."""
    # the analyst's action when it is what the change did ("…支持 Python 3.8 及以上") is no step
    action = "" if c.written.action.strip().rstrip("。. ") in c.written.change else c.written.action
    text = [x for f in (c.written.workaround, action) + (() if c.fix else (c.written.scope, c.first_action))
            for x in sentences(f) if any(w in x.lower() for w in INSTALL_CUES)]
    pairs = [q for q in dict.fromkeys(term(f"{m.group(1)} {m.group(2)}") for x in text for m in VERSIONED.finditer(x)
                                      if m.group(1).lower() not in NOT_A_PRODUCT) if q][:2]
    if not pairs:
        return ""
    return _t(lang, f"先装 {'、'.join(pairs)}", f"Install {' and '.join(pairs)} first")


# a PR title's decorations: tags ("[Bug Fix]:", "【Feature】"), a conventional-commit type
# ("fix(build):"); the issue it closes in front and a trailing "(#123)" are read by rules.refs
_TITLE_TAGS = re.compile(r"^(?:\s*(?:\[[^\]]*\]|【[^】]*】)\s*[:：]?\s*)+")
_TITLE_TYPE = re.compile(r"^(?:fix|feat|bugfix|hotfix|chore|docs?|refactor|perf|test|build|ci|style)(?:\([^)]*\))?!?\s*[:：]\s*", re.I)
TITLE_LEAST = 8      # a title shorter than this ("fix bug", "update") says nothing


def _without_decorations(title: str) -> str:
    for rule in (_TITLE_TAGS, _TITLE_TYPE):
        title = rule.sub("", title.strip())
    return title.strip()


def pr_title(c: Case, fix: FixRef) -> str:
    """What the fix PR says it does, from its title as the case's candidates keep it, without its
    tags and references; '' for a revert, a title that only says the issue is fixed (its other words
    mostly the issue's own), or one too short to say anything."""
    title = next((str(r.get("title") or "") for r in c.candidates
                  if r.get("number") == fix.number and r.get("repo", fix.repo) == fix.repo), "")
    title = _without_decorations(title_without_lead_ref(_without_decorations(title)))
    title = title_without_tail_ref(title).strip().rstrip("。.")
    if len(title) < TITLE_LEAST or title.lower().startswith("revert") or "…" in title or title.endswith("..."):
        return ""
    if restates(title, f"{c.title} {c.problem}"):    # "Fix <the title>", "修复…之后的三条回归"
        return ""
    words = re.findall(r"[A-Za-z]+|[\u4e00-\u9fff]", title)
    return title if len(words) >= 3 else ""


# an exception with its message, as a report pastes it ("RuntimeError: Node pow_2 used before it is defined")
ERROR_MESSAGE = re.compile(r"\b((?:[A-Za-z_][\w.]*\.)?[A-Z][A-Za-z]*(?:Error|Exception))\s*[:：]\s*([^\n]+)")
# what a pasted line carries besides the message: file paths, addresses, timestamps, pids, log tags
_LOG_NOISE = re.compile(r"(?:/[\w.-]+){2,}|\b0x[0-9a-f]+\b|\d{4}-\d{2}-\d{2}[ T][\d:.,]+|\[(?:pid|rank|tid)?\s*=?\d+\]"
                        r"|\b(?:pid|rank|tid)=\d+|\[(?:ERROR|WARNING|INFO|DEBUG)\]", re.I)
def error_message(c: Case) -> tuple[str, str]:
    """The exception and its message as the report quotes it, the log's noise (paths, addresses,
    timestamps, pids) left out: (name, message), the message fitting one quoted term with its name
    ("RuntimeError", "Node pow_2 used before it is defined"), else on its own (name "") ("No module
    named 'paddlespeech.s2t.transform'"); a long one to its first clause, else shortened at a word
    boundary, to what a user pastes into a search box. ("", "") when the case quotes none."""
    for text in (c.symptom, c.title, c.problem):
        m = ERROR_MESSAGE.search(text or "")
        if not m:
            continue
        name = m.group(1).split(".")[-1]
        message = _LOG_NOISE.sub(" ", m.group(2))
        message = re.split(r"\s+(?:at|in|File)\s+[\"'/]|[。；;]|\s{2,}", message)[0]
        message = re.sub(r"\s+", " ", message).strip(" ,，:：.`()（）")
        if message.count("'") % 2:
            message = message.strip("'")
        if cjk_count(message) or len(re.findall(r"[A-Za-z]+", message)) < 2:
            continue
        first = re.split(r",\s+|\s+(?:but|while|when)\s+", message)[0].strip()
        for said in (message, first):
            if len(name) + 2 + len(said) <= TERM_CHARS:
                return name, said
        for said in (message, first):
            if len(said) <= TERM_CHARS:
                return "", said
        cut = first[:TERM_CHARS + 1].rsplit(" ", 1)[0].rstrip(" ,;:'\"(")
        if len(cut.split()) >= 3:
            return "", cut
    return "", ""

