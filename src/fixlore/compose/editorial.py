"""The digest's editorial words: theme headlines and paragraphs, repository subtitles and
positioning, and English versions of the issue-derived cells.

Two sources. The editorial pass of the analyse stage (`analyse.editorial`, with a model) records
its grounded text in the run summary (`analyse.editorial`): `Editorial` reads it, so `fixlore
digest --run run.json` writes the same digest again. Whatever it did not write (no model, a
failure, a claim it could not ground) is written here offline, from what the cases share: their
fix status, a PR that fixed several, a trap they have in common, the identifiers and words they
share, always as a sentence, never as a list of keywords."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fixlore.compose.figures import AUTO_CLOSE_TIMINGS, Refs, stage_summary
from fixlore.compose.language import cjk_count, quote
from fixlore.compose.wording import j as _j, t as _t
from fixlore.core.enums import FixState, Timing
from fixlore.core.model import Case


class Editorial:
    """The model-written editorial text of a run, by part; `None` where it wrote nothing."""

    def __init__(self, record: dict[str, Any] | None = None):
        self.record = record or {}

    @classmethod
    def of_run(cls, run: dict[str, Any]) -> "Editorial":
        rec = stage_summary(run, "analyse").get("editorial") or run.get("editorial") or {}
        return cls(rec if isinstance(rec, dict) else {})

    def _part(self, kind: str, key: str, lang: str) -> dict[str, Any]:
        part = (self.record.get(kind) or {}).get(key) or {}
        return part.get(lang) or {} if isinstance(part, dict) else {}

    def theme(self, theme: str, lang: str) -> dict[str, Any]:
        return self._part("themes", theme, lang)

    def repo(self, full_name: str, lang: str) -> dict[str, Any]:
        return self._part("repos", full_name, lang)

    def case_text(self, c: Case, field: str, lang: str) -> str | None:
        """The editorial pass's `lang` version of a case's field (problem, answer, symptom, action)."""
        text = self._part("cases", c.key, lang).get(field)
        return text.strip() if isinstance(text, str) and text.strip() else None

    def disclosure(self, lang: str) -> str:
        """What the model wrote and what fell back, for the methods section ('' when no pass ran)."""
        rec = self.record
        if not rec.get("backend"):
            return ""
        wrote = rec.get("wrote") or {}
        parts = [f"{k} {v}" for k, v in wrote.items() if v]
        falls = Counter(f.get("reason", "?").split(":")[0] for f in rec.get("fallbacks") or [])
        gr = rec.get("grounding") or {}
        tok = rec.get("tokens") or {}
        zh = _t(lang, f"编辑（主题标题与段落、仓库副标题与定位、英文译文）：{rec['backend']} 写 {_j(lang, parts) or '0'}",
                f"Editorial (theme headlines and paragraphs, repository subtitles and positioning, English "
                f"translations): {rec['backend']} wrote {_j(lang, parts) or '0'}")
        if falls:
            zh += _t(lang, f"；回退离线 {sum(falls.values())} 处（{_j(lang, [f'{k} {v}' for k, v in falls.items()])}）",
                     f"; {sum(falls.values())} parts fell back to offline wording "
                     f"({_j(lang, [f'{k} {v}' for k, v in falls.items()])})")
        if gr.get("checked"):
            zh += _t(lang, f"；事实核对 {gr['checked']} 次，返修后通过 {gr.get('repaired', 0)}，仍无据而弃用 {gr.get('dropped', 0)}",
                     f"; grounding checked {gr['checked']} replies, {gr.get('repaired', 0)} passed after one repair, "
                     f"{gr.get('dropped', 0)} still unfounded and not used")
        if tok:
            zh += _t(lang, f"；tokens 输入 {tok.get('prompt', 0)} / 输出 {tok.get('completion', 0)}",
                     f"; tokens in {tok.get('prompt', 0)} / out {tok.get('completion', 0)}")
        if rec.get("cache_hits"):
            zh += _t(lang, f"，缓存命中 {rec['cache_hits']}", f", cache hits {rec['cache_hits']}")
        if rec.get("cost") is not None:
            zh += _t(lang, f"，成本 {rec['cost']}", f", cost {rec['cost']}")
        return zh + _t(lang, "。", ".")


# -- offline wording ---------------------------------------------------------------------------
# words any issue report uses (a document, a version, a scenario, a failure): they tie no cases together
GENERIC = {"文档", "版本", "场景", "失败", "报错", "问题", "支持", "功能", "使用", "运行", "执行", "需要", "配置",
           "error", "failed", "version", "support", "docs", "doc", "using"}
def shared_words(cs: list[Case], k: int = 3) -> list[str]:
    """Keywords that at least two cases of a group share (what ties the group together)."""
    if len(cs) < 2:
        return []
    from fixlore.rules.topics import topic_words

    counts: Counter = Counter()
    for c in cs:
        # each case counts a word once; first-seen order breaks ties (a set's order changes per run)
        counts.update(dict.fromkeys(topic_words(f"{c.title} {c.problem}", 8), 1))
    return [w for w, n in counts.most_common() if n >= 2 and w not in GENERIC][:k]


def _pending(c: Case) -> bool:
    return c.fix_state == FixState.NOT_LANDED


def insight(cs: list[Case], ref: Refs, lang: str) -> str:
    """The one thing the group's cases show together, from their structure, as a clause."""
    n = len(cs)
    prs = Counter(f.label(c.repo, prose=True, name=ref.repo)
                  for c in cs for f in c.landed_fixes if f.role == "fix")
    shared = [p for p, k in prs.items() if k > 1]
    pending = [c for c in cs if _pending(c)]
    stale = [c for c in cs if c.timing == Timing.STALE]
    chains = [c for c in cs if c.timing in AUTO_CLOSE_TIMINGS]
    answered = [c for c in cs if c.fix_state == FixState.NO_FIX]
    landed = [c for c in cs if c.fix_state == FixState.LANDED]
    if shared:
        return _t(lang, f"{_j(lang, shared)} 一个改动同修多单", f"{', '.join(shared)} fixed several of them with one change")
    if pending:
        return _t(lang, f"{_j(lang, [ref(c) for c in pending])} 关单时修复并未落地，关单不等于修好",
                  f"{', '.join(ref(c) for c in pending)} closed before the fix landed: closed is not fixed")
    if stale:
        return _t(lang, f"{_j(lang, [ref(c) for c in stale])} 由 stale 流程关单，晚于修复，合入时间才是修复时间",
                  f"{', '.join(ref(c) for c in stale)} closed by a stale process after the fix: the merge time is the fix time")
    if answered and len(answered) * 2 > n:
        return _t(lang, "多以官方答复收口，没有代码改动，答案在配置与用法里",
                  "most were settled by an official answer without a code change: the answer lies in configuration and usage")
    if landed and len(chains) == len(landed) and len(landed) >= 2:
        return _t(lang, "修复合入即自动关单，关单时刻就是修复时刻",
                  "each closed with its fix's merge, so the close time is the fix time")
    if landed and len(chains) * 2 >= len(landed) and len(chains) >= 2:
        return _t(lang, "多数修复合入即自动关单，其余看 PR 合入时间",
                  "most closed with their fix's merge; for the rest the merge time tells when the fix landed")
    if landed and len(landed) == n:
        return _t(lang, "修复全部合入，按 PR 合入时间判断落地", "every fix merged: the merge time tells when it landed")
    if landed and answered:
        return _t(lang, "有的靠代码修复、有的靠官方答复收口，先看根因再决定是否升级",
                  "some needed a code fix, others an official answer: read the cause before upgrading")
    return _t(lang, "修复与答复并存，先看各案根因", "fixes and answers side by side: read each root cause first")


def headline(i: int, cs: list[Case], ref: Refs, lang: str, said: list[str]) -> str:
    """A theme's headline as a sentence: where, what the cases share, and what they show."""
    repos = sorted({ref.repo(c.repo) for c in cs})
    where = "/".join(repos) if len(repos) <= 3 else _t(lang, f"{len(repos)} 个小仓", f"{len(repos)} small repos")
    what = insight(cs, ref, lang)
    n = len(cs)
    # what the cases show, not the keywords they share ("7 案都涉及 fsdp2、dcp" teaches nothing)
    if lang == "zh":
        return f"{i}. {where} {n} 案：{what}。"
    return f"{i}. {n} case{'s' if n > 1 else ''} in {where}: {what}."


def repo_topics(cs: list[Case], ref: Refs, k: int = 3) -> list[str]:
    """What a repository's kept cases are about, by keyword frequency (its own name left out)."""
    import re

    from fixlore.rules.topics import topic_words

    # the repository's and organisation's own names, and model sizes ("35b"), say nothing about the cases
    own = {w for c in cs for w in re.split(r"[-_/]", c.repo.lower())}
    counts: Counter = Counter()
    for c in cs:
        counts.update(w for w in dict.fromkeys(topic_words(f"{c.title} {c.problem}", 8))
                      if w not in own and w not in GENERIC and not re.fullmatch(r"\d+(?:\.\d+)?[a-z]?", w))
    return [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:k]


def positioning(cs: list[Case], ref: Refs, lang: str, said: list[str], description: str = "") -> str:
    """What the repository is (its description, shortened to its first clause) and what its cases in
    this digest are about, by the words they share (not a count)."""
    import re

    what = re.split(r"[，,。；;.(（]", description or "", maxsplit=1)[0].strip()[:40]
    topics = repo_topics(cs, ref)
    if lang == "zh":
        about = f"本批集中在 {'、'.join(topics)}" if topics else ""
        return "，".join(p for p in (what, about) if p)
    latin = [w for w in topics if not cjk_count(w)]
    about = "here: " + ", ".join(latin) if latin else ""
    return "; ".join(p for p in (quote(what, lang, said) if what else "", about) if p)


def what_it_is(description: str, lang: str, said: list[str]) -> str:
    """What the repository is: its own description's first clause (quoted in English)."""
    import re

    what = re.split(r"[，,。；;.(（]", description or "", maxsplit=1)[0].strip()
    return quote(what, lang, said) if what else ""
