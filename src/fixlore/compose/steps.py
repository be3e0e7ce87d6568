"""What a guide row says, from a case's facts: the symptom as a user would search it (the error
text, else the clause of the problem that tells what goes wrong, never a raw log line), the first
check (the analyst's imperative step, else the identifiers the cause names), and texts fitted to a
length by choosing a sentence or clause that fits, never by cutting one.

The failure words and imperative openings are how people write issue reports and maintainers'
advice on GitCode and GitHub (Chinese and English); they are not fitted to a bundled world."""

from __future__ import annotations

import re

from fixlore.core.model import Case
from fixlore.rules.clauses import clause_ends, dangles

# an exception's name or a platform's error code: what a user pastes into a search box
ERROR_NAME = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|\bCode \d{3}\b")
ERROR_TEXT = re.compile(r"^[A-Z][A-Za-z]*(?:Error|Exception): \S")
# code identifiers: snake_case, camelCase, CamelCase with an inner capital, dotted names
IDENT = re.compile(r"(?<![A-Za-z0-9_./-])(?:[A-Za-z_][A-Za-z0-9_]*_[A-Za-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9_]*"
                   r"|[A-Z][a-z]+[A-Z][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_.]*)")
FAILURE = ("报错", "失败", "失效", "超时", "越界", "溢出", "oom", "虚高", "高估", "泄漏", "发散", "重复", "不一致",
           "矛盾", "无法", "不能", "不支持", "缺少", "缺", "误判", "误报", "残留", "飙", "卡住", "杀掉", "污染",
           "读不出", "冲突", "不符", "错误", "异常", "崩溃", "挂死", "失真", "退化", "pending", "error", "fail",
           "crash", "timeout", "hang", "leak", "wrong", "missing", "cannot", "broken")
IMPERATIVE = ("请", "先", "查", "确认", "检查", "核对", "设", "去掉", "删除", "升级", "按", "在宿主机", "换", "改用",
              "避免", "关闭", "开启", "打开", "补充", "参考", "重装", "使用", "不要", "勿", "等待", "以镜像",
              "use ", "set ", "check ", "upgrade ", "remove ", "add ", "avoid ", "disable ", "enable ", "run ",
              "install ", "pin ", "switch ", "replace ", "confirm ", "verify ", "pass ", "provide ", "read ", "try ")
DESCRIBES_A_CHANGE = ("改为", "改成", "已", "新增", "计划", "准备", "修复", "增加", "统一")
CONNECTIVES = ("与", "和", "且", "并", "导致", "致", "无法", "不能", "但", "and ", "but ", "so ")
# words that describe a change still to come: not said of a fix that merged
PLANNED = ("计划", "准备", "修复中", "检视中", "后续会", "will ", "plan to", "going to")
PIPELINE_STEP = ("关注 ", "升级到含", "watch ", "upgrade to")
LOG_LINE = re.compile(r"^\s*\[|\d{5,}|\bpid\b|total-vm", re.I)


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
    if len(first) <= limit:
        return first
    # the first whole clause, never one ending inside brackets ("拆成 network_bandwidth（带宽类")
    ends = clause_ends(first)
    clause = first[:ends[0]].rstrip(" ，,、：:；;").strip() if ends else ""
    return clause if 6 <= len(clause) <= limit and not dangles(clause) else ""


def error_name(c: Case) -> str:
    for text in (c.symptom, c.title, c.problem, c.written.mechanism):
        m = ERROR_NAME.search(text or "")
        if m:
            return m.group(0)
    return ""


def searchable(c: Case) -> str:
    """The symptom as a user would search it: the error text when the case quotes one (short and
    not a log line), else the clause of the problem that tells what goes wrong, with the error's
    name when the case names one."""
    raw = (c.symptom or "").strip()
    if ERROR_TEXT.match(raw) and len(raw) <= 70 and not LOG_LINE.search(raw):
        return raw
    title = (c.problem or c.title or raw).strip().rstrip("。.？?")
    clauses = [x.strip() for x in re.split(r"[，,；;：:]", title) if x.strip()]
    failing = [i for i, x in enumerate(clauses) if any(w in x.lower() for w in FAILURE)]
    if len(clauses) < 2 or not failing:
        behaviour = title
    else:
        i = failing[0]
        behaviour = clauses[i]
        # a clause that leans on the one before ("与内存中…不一致", "无法…") keeps it
        if i and (len(behaviour) < 14 or behaviour.startswith(CONNECTIVES)):
            behaviour = f"{clauses[i - 1]}，{behaviour}"
    token = error_name(c)
    if token and token not in behaviour:
        behaviour += f"（{token}）"
    return behaviour


def imperative(text: str) -> bool:
    """Does `text` tell the reader what to do (not what a fix changed)?"""
    t = (text or "").strip().lower()
    if not t or t.startswith(DESCRIBES_A_CHANGE):
        return False
    return t.startswith(IMPERATIVE) or "请" in t


def identifiers(c: Case, k: int = 2) -> list[str]:
    """The first `k` code identifiers the cause names (mechanism, then problem), in order; the
    product's own name left out."""
    own = re.sub(r"[^a-z0-9]", "", c.repo.split("/")[-1].lower())
    out: list[str] = []
    for text in (c.written.mechanism, c.problem, c.title):
        for m in IDENT.finditer(text or ""):
            name = m.group(0).rstrip(".")
            if len(name) >= 5 and name.lower() != own and name not in out and not ERROR_NAME.fullmatch(name):
                out.append(name)
    # names with an underscore or a dot are the code's own; a CamelCase word may be a product name
    return sorted(out, key=lambda n: not re.search(r"[_.]", n))[:k]
