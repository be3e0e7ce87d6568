"""What a name the cause gives is, told by the words around it in the case's own text, and the first
check it asks for: a switch is checked on or off, a setting's value is read, a log keyword is searched
for, a metric is looked at, a file is opened. A name the text says nothing more about is no step
(compose/steps.terms_check gives none: "先核对 `x`" asks the reader nothing, issue #22): a function's
name is not told apart, since a case names the function its fix adds ("graph.lint()") as often as
the one that fails.

The cues are how issue reports and maintainers' answers on GitCode and GitHub write these things, in
Chinese and English ("开启 `shared_expert_tp` 时", "`lora_save_only=true`", "日志关键字", "指标",
"npu-exporter 的指标"); no cue was added to move a figure, but they were read against the Ascend
world (ascend-2026-09), the fitted world. Plain "先核对 `x`" steps, 2026-12-06: ascend 26 -> 18 of 48
(fitted); held out: npu-threads 25 -> 22 of 50, paddle-threads 7 -> 7 of 15, seed-twin 14 -> 12,
seed-twin2 12 -> 8; no step verbatim more than twice in any world."""

from __future__ import annotations

import re

from fixlore.rules.clauses import clause_ends

_SWITCH = re.compile(r"(?:开启|打开|启用|关闭|关掉|禁用|\benabl(?:e|es|ed|ing)\b|\bdisabl(?:e|es|ed|ing)\b"
                     r"|\bturn(?:s|ed)? (?:on|off)\b)\s*`?$", re.I)
# a value given right after the name ("key=value", "key 设为 …"), or a command-line flag; not "key: …",
# which is as often a test's or a log line's name before its outcome
_VALUE = re.compile(r"`?\s*(?:=(?!=)|设为|设成|取值|置为)")
_LOG = re.compile(r"日志|关键字|\blogs?\b|\bkeywords?\b|\bgrep\b", re.I)
_METRIC = re.compile(r"指标|\bmetrics?\b", re.I)
_SETTING = re.compile(r"配置项|配置文件|参数|选项|开关|\bconfig\b|\boption\b|\bflag\b|\bsetting\b|\byaml\b", re.I)
_FILE = re.compile(r"\.(?:py|sh|ya?ml|json|md|toml|cfg|ini|conf)$", re.I)

# the first check for each kind of name, in Chinese and English ({} takes the quoted names)
STEP = {
    "switch": ("先确认是否开启了 {}", "Check whether {} is turned on first"),
    "setting": ("先核对 {} 的取值", "Check the value of {} first"),
    "log": ("先在日志中搜索 {}", "Search the logs for {} first"),
    "metric": ("先查看指标 {}", "Look at the metric {} first"),
    "file": ("先检查文件 {}", "Check the file {} first"),
    "": ("先核对 {}", "Check {} first"),
}


def _clause_at(text: str, at: int) -> str:
    cuts = [0] + clause_ends(text) + [len(text)]
    return next((text[a:b] for a, b in zip(cuts, cuts[1:]) if a <= at < b), text)


def kind(name: str, texts: list[str], answers: list[str]) -> str:
    """What `name` is ("switch", "setting", "log", "metric", "file", or "" when the text does not
    say): from its own form (a file's extension), else from a mention in `texts` that turns it on or
    gives it a value, else from the words of a clause of the answer (`answers`: what the maintainers
    and the fix said, not the report's pasted error) that names it, the name itself left out
    ("mcd.metrics" is no metric)."""
    if _FILE.search(name):
        return "file"
    pattern = re.compile(r"(?<![\w.-])" + re.escape(name) + r"(?![\w])")
    for text in texts:
        for m in pattern.finditer(text or ""):
            before, after = text[:m.start()], text[m.end():]
            if _SWITCH.search(before):
                return "switch"
            if _VALUE.match(after) or before.endswith("--"):
                return "setting"
    for text in answers:
        for m in pattern.finditer(text or ""):
            clause = pattern.sub(" ", _clause_at(text, m.start()))
            for k, cue in (("log", _LOG), ("metric", _METRIC), ("setting", _SETTING)):
                if cue.search(clause):
                    return k
    return ""


def step(names: list[str], texts: list[str], answers: list[str]) -> tuple[str, list[str]]:
    """The kind of check the names ask for and the names it takes: the first name whose kind the
    text tells (else the first name), with the other names of that kind."""
    kinds = [kind(n, texts, answers) for n in names]
    lead = next((k for k in kinds if k), "")
    return lead, [n for n, k in zip(names, kinds) if k == lead]


__all__ = ["STEP", "kind", "step"]
