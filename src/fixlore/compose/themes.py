"""The digest's themes section (组合解读). Offline, the kept cases are grouped by what they share
across repositories (`lessons.partition`: mechanism, component, failure mode; never fix status):
each theme's headline is the lesson, its paragraph the arithmetic computed once from the cases it
names by `Case.fix_state` (landed + not landed + no code fix = cases), the repositories they come
from (a theme of one repository says so only when no other repository's case shows its mode, and
names those that do otherwise), the cases closed before their fix landed, and two of their causes;
one bullet per case, whole clauses chosen to fit (`rules.clauses.whole_clauses`), never cut. When
the editorial pass (a model) wrote themes, the analysts' themes are kept as it grouped them and its
words used (`Editorial`), the offline wording where it wrote none. A case that shares its mode (or
its analysts' theme) with no other case is in no theme; the heading says how many (`heading`)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any, Iterator

from fixlore.compose.editorial import Editorial, headline
from fixlore.compose import lessons
from fixlore.compose.figures import Refs
from fixlore.compose.language import cjk_count, mark_runs, quote
from fixlore.compose.links import pr_links
from fixlore.compose.render import safe_url
from fixlore.compose.roles import CAUSE, CAUSE_CUES, role
from fixlore.compose.steps import CAUSE_CUES as READ_CUES, CHANGE_WORDS, FAILURE, LABEL, LEANS, PLANNED, sentences
from fixlore.compose.wording import fix_labels, j as _j, t as _t
from fixlore.core.model import Case
from fixlore.rules.clauses import cut_already, whole_clauses


def groups(kept: list[Case], ref: Refs) -> list[tuple[str, list[Case]]]:
    """(theme id, cases) in reading order, largest first: the analysts' themes that hold at least two
    kept cases. A case alone in its theme is in no theme (never a per-repo bucket of leftovers)."""
    by_theme: dict[str, list[Case]] = defaultdict(list)
    for c in kept:
        if c.theme:
            by_theme[c.theme].append(c)
    out = [(theme, cs) for theme, cs in by_theme.items() if len(cs) >= 2]
    return sorted(out, key=lambda g: (-len(g[1]), sorted(ref(c) for c in g[1])))


def outside(kept: list[Case], sections: list[dict[str, Any]], ref: Refs) -> list[Case]:
    """The kept cases that no theme names."""
    named = {b.get("ref") for t in sections for b in t.get("bullets") or ()}
    return [c for c in kept if ref(c) not in named]


def heading(kept: list[Case], sections: list[dict[str, Any]], ref: Refs, lang: str) -> str:
    """The themes section's heading: what the cases have in common, and how many share nothing
    with another case (they stay in their repositories' tables, in no theme)."""
    n, left = len(kept), len(outside(kept, sections, ref))
    head = _t(lang, f"组合解读：这 {n} 条里的共性规律", f"Themes: what the {n} cases have in common")
    if not left:
        return head
    k = len(sections)
    if not k:
        return head + _t(lang, f"（{n} 条彼此没有共同的失败模式，不成主题）", f" (no failure mode is shared by two of the {n})")
    return head + _t(lang, f"（{n - left} 条分在 {k} 个主题，{left} 条不属于任何主题）",
                     f" ({n - left} in {k} theme{'s' if k != 1 else ''}, {left} in none)")


def _lesson(mode: lessons.Mode, lang: str) -> tuple[str, str]:
    """The mode's lesson split at its first colon: the head for the headline, the rest for the paragraph."""
    text = mode.zh if lang == "zh" else mode.en
    head, _, rest = text.partition("：" if lang == "zh" else ": ")
    return head, rest


def lesson_headline(mode: lessons.Mode, n: int, lang: str) -> str:
    """The mode's name and how many cases it holds, then its lesson: "回归与上游改动 4 案：上一个改动埋的雷由下一个修复收。"."""
    head = _lesson(mode, lang)[0]
    if lang == "zh":
        return f"{mode.short_zh} {n} 案：{head}。"
    return f"{mode.short_en[:1].upper()}{mode.short_en[1:]}, {n} case{'s' if n != 1 else ''}: {head}."


def lesson_detail(mode: lessons.Mode, lang: str) -> str:
    """What the lesson says beyond its headline, as a sentence ('' when nothing)."""
    rest = _lesson(mode, lang)[1].strip()
    if not rest:
        return ""
    return rest + "。" if lang == "zh" else rest[:1].upper() + rest[1:] + "."


def counts(cs: list[Case]) -> dict[str, int]:
    """Each case once: landed, not landed, or without a code fix."""
    landed = sum(1 for c in cs if lessons.landed(c))
    pending = sum(1 for c in cs if lessons.pending(c))
    return {"cases": len(cs), "landed": landed, "pending": pending, "no_fix": len(cs) - landed - pending}


def told(text: str, limit: int) -> str:
    """The first sentence of `text` (its label "定位：" dropped), or its first whole clauses that fit
    `limit`; '' when none ends a clause (a text the analyst already cut is not said again) or the
    clauses stop inside a bracket."""
    # the first sentence that says something: a list's ordinal ("1" of "根因： 1. …"), a greeting or an
    # apology ("Apologies for the delayed response") is none
    first = next((x for x in _said(text) if not _talk(x)), "")
    shown = whole_clauses(first, limit)
    # a clause cut inside a bracket ("(description not in the excerpt") is a cut too: not shown
    for o, c in (("(", ")"), ("（", "）"), ("[", "]"), ("【", "】")):
        if shown.count(o) > shown.count(c):
            return ""
    return shown


ORDINAL = re.compile(r"[(（]?\s*(?:\d{1,2}|[a-zA-Z]|[①-⑩])\s*[.)）、]?\s*")


def _said(text: str) -> Iterator[str]:
    """`text`'s sentences as a bullet or an example reads them: the label ("定位：") dropped, a list's
    ordinal ("1." of "1. 抢锁…") no sentence."""
    for s in sentences(text):
        x = LABEL.sub("", s).strip().rstrip("。；;. ")
        if x and not ORDINAL.fullmatch(x):
            yield x


def said_whole(text: str, limit: int, keep=lambda s: True) -> str:
    """The first sentence of `text` (its label dropped) that `keep` accepts, when it fits `limit`
    whole and closes what it opens; '' otherwise. A paragraph's example is read apart from its row:
    a clause of a longer sentence ("Qwen3VLModel.forward 以 dtype=int32 创建 attention_mask", its
    effect left in the next clause) is half a fact there, so a sentence too long for the paragraph
    is not shown at all. A sentence that leans on the one before it ("它…", "and …") is not first."""
    said = list(_said(text))
    for i, first in enumerate(said):
        if i and first.lower().startswith(LEANS):
            continue
        if keep(first):
            return first if len(first) <= limit and whole_clauses(first, limit) == first else ""
    return ""


# a test's or a check's outcome ("nightly 62 个模型 verify 全部通过", "all 12 tests passed")
VERIFIED = re.compile(r"(?:全部|均|验证|测试|回归|用例|读写|实测)\s*通过|回归测试|单测|\bpass(?:ed|es)\b|\btests?\b", re.I)
# a short label that says the sentence is something else than a cause ("典型用法：", "二轮补修：")
TOLD_AS = re.compile(r"^(?!根因|原因|定位|问题)[^：:，,。\s]{2,6}[：:]")
BRACKETS = (("(", ")"), ("（", "）"), ("[", "]"), ("【", "】"))
TALK = re.compile(r"(?:yeah|yes|hi|hello|thanks?|thank you|apologies|sorry|sure|ok(?:ay)?|we will|i will|i'll)\b", re.I)
# what makes a sentence that opens with talk say something: a figure, a name with its marks, a cause or a fix
_SUBSTANCE = re.compile(r"\d|[_./`]|\b(?:caus\w*|because|root|bug|fix\w*|due\s+to|reason|workaround)\b|原因|根因|修复|因为",
                        re.I)


# Read on npu-threads' and seed-twin's digests (a colleague's reading: bullets "Apologies for the delayed
# response", "1（!1309）"); every world's digest but those two byte-identical with it.
def _talk(sentence: str) -> bool:
    """A sentence that is talk, not a fact: only a greeting or an apology, or one that opens with talk
    ("Yeah, …", "we will …") and names no figure, code, cause or fix."""
    return bool(TALK_ONLY.fullmatch(sentence) or (TALK.match(sentence) and not _SUBSTANCE.search(sentence)))


# a sentence that is only a greeting, thanks or an apology ("Apologies for the delayed response", "感谢反馈"):
# "Thanks, this is caused by …" says something after it
TALK_ONLY = re.compile(
    r"(?:(?:yeah|yes|hi|hello|thanks?|thank\s+you|apologies|sorry|sure|ok(?:ay)?)(?:[\s,!]+(?:a\s+lot|so\s+much|very\s+much"
    r"|for\s+(?:the\s+)?(?:delayed|late|slow)\s+(?:response|reply)|for\s+(?:reporting|the\s+report|your\s+(?:feedback|report|patience))"
    r"|for\s+sharing))*|(?:感谢|谢谢|多谢)(?:您的?|你的?)?(?:反馈|提问|关注|耐心)?|抱歉(?:回复晚了|回复较晚)?)[\s,，!！~]*",
    re.I)
# what is not prose: figures, code, names with their marks (a sigil is a name, whatever follows it)
_FIGURE = re.compile(r"\S*\d\S*|`[^`]*`|\S*[_./()#＃]\S*|[!！]\S+")


def tells_a_cause(sentence: str, c: Case) -> bool:
    """A sentence a reader learns a cause from: not a plan, not a check's result (passed, with no
    failure or cause word), not a change (`roles.role` reads it as a cause), in prose (a few words beside its versions and code
    names), and is no plan. Read on ascend-2026-09, where an analyst's mechanism field held "后续会提供
    Agent 辅助…", "GLM 5.1 / vllm-ascend 0.18.0 / A3 800T", "nightly 62 个模型 verify 全部通过" and
    "新增 `…/magihuman/`，通过 `@model_register` 注册"."""
    low = sentence.lower()
    causal = any(w in low for w in CAUSE_CUES + READ_CUES + FAILURE)
    if any(w in low for w in PLANNED) or TOLD_AS.match(sentence):
        return False
    # a check's outcome, a test added, a pointer or a change, with nothing said of what went wrong
    if not causal and (VERIFIED.search(sentence) or any(w in low for w in CHANGE_WORDS)):
        return False
    if role(sentence, "mechanism", c.repo, f"{c.title} {c.problem}") != CAUSE:
        return False
    if cut_already(sentence) or any(sentence.count(o) != sentence.count(c) for o, c in BRACKETS):
        return False        # the analyst's own cut, or a bracket left open: half a fact
    prose = _FIGURE.sub(" ", sentence)
    if cjk_count(prose) >= 4:
        return True
    # the thread's own English words (an analyst quoting the thread, npu-threads): read as a cause only
    # when they name one ("Yeah, the problem is…", "Apologies for the delayed response" are talk)
    return len(re.findall(r"[A-Za-z][A-Za-z-]+", prose)) >= 3 and causal and not TALK.match(sentence)


def _cause(c: Case, limit: int = 60, whole: bool = False) -> str:
    """What went wrong in the case, as it tells it. `whole`: a paragraph's example, the cause alone
    (its mechanism) as a whole sentence; a plan, a pointer to a design note or a version list from
    the answer is no cause to learn the theme's lesson from (ascend-2026-09: "后续会提供 Agent 辅助",
    "设计见 RFC 26.1.0", "GLM 5.1 / vllm-ascend 0.18.0 / A3 800T" stood as examples)."""
    if whole:
        return said_whole(c.written.mechanism, limit, lambda s: tells_a_cause(s, c))
    for text in (c.written.mechanism, c.written.change, c.written.workaround, c.answer):
        shown = told(text, limit)
        if shown:
            return shown
    return ""


def _pending_note(cs: list[Case], ref: Refs, lang: str) -> str:
    """The theme's cases closed before their fix landed, by name: closed is not fixed."""
    waiting = [c for c in cs if lessons.pending(c)]
    if not waiting:
        return ""
    names = _j(lang, [ref(c) for c in waiting])
    return _t(lang, f"其中 {names} 关单时修复未落地：关单不等于修好，能不能用只看 PR 的合入状态。",
              f"Of these, {names} closed before the fix landed: closed is not fixed, only the PR's merge state says "
              f"whether the fix is there.")


def _where(cs: list[Case], ref: Refs, lang: str, others: list[Case], theme_of: dict[str, int]) -> str:
    """The repositories the theme's cases come from; for one repository, whether any other
    repository's case shows the same mode (computed, `lessons.others_of`), named with its theme."""
    per_repo = Counter(ref.repo(c.repo) for c in cs)
    if len(per_repo) > 1:
        where = _j(lang, [f"{r} {n}" for r, n in sorted(per_repo.items(), key=lambda kv: (-kv[1], kv[0]))])
        return _t(lang, f"跨 {len(per_repo)} 个仓（{where}）。", f"From {len(per_repo)} repositories ({where}).")
    only = next(iter(per_repo))
    if not others:
        return _t(lang, f"仅见于 {only}：本批其他仓没有同类案例。",
                  f"Only in {only}: no other repository has a case of this kind in this batch.")
    kin = _j(lang, [(f"{ref(c)}（主题 {theme_of[c.key]}）" if lang == "zh" else f"{ref(c)} (theme {theme_of[c.key]})")
                    if c.key in theme_of else ref(c) for c in others])
    return _t(lang, f"本组案例仅见于 {only}；其他仓也有同类迹象：{kin}，各归在更贴近的主题。",
              f"Only in {only} within this theme; other repositories show signs of the same kind: {kin}, each "
              f"placed in the theme closer to it.")


def _paragraph(cs: list[Case], ref: Refs, lang: str, said: list[str], others: list[Case] = (),
               theme_of: dict[str, int] | None = None, detail: str = "") -> str:
    k = counts(cs)
    bits = [p for n, p in ((k["landed"], _t(lang, f"{k['landed']} 案修复已合入", f"{k['landed']} with a merged fix")),
                           (k["pending"], _t(lang, f"{k['pending']} 案修复未落地", f"{k['pending']} whose fix has not landed")),
                           (k["no_fix"], _t(lang, f"{k['no_fix']} 案无代码修复", f"{k['no_fix']} without a code fix"))) if n]
    para = [_t(lang, f"{k['cases']} 案：{_j(lang, bits)}。", f"{k['cases']} case{'s' if k['cases'] > 1 else ''}: {_j(lang, bits)}.")]
    if detail:          # the lesson beyond its headline, after the count sentence the check reads first
        para.append(detail)
    para.append(_where(cs, ref, lang, list(others), theme_of or {}))
    # two causes from two repositories, as the cases tell them: what the reader learns the lesson from
    shown, seen = [], set()
    for c in sorted(cs, key=lambda c: (-c.value, c.repo, c.number)):
        cause = _cause(c, 80, whole=True)
        if cause and c.repo not in seen:
            shown.append(f"{ref(c)}：{cause}" if lang == "zh" else f"{ref(c)}: {cause}")   # mark_runs marks it
            seen.add(c.repo)
        if len(shown) == 2:
            break
    if shown:
        para.append(_t(lang, f"如 {'；'.join(shown)}。", f"For example {'; '.join(shown)}."))
    if (waiting := _pending_note(cs, ref, lang)):
        para.append(waiting)
    dates = sorted(f.merged_at for c in cs for f in c.landed_fixes)
    if dates:
        day = "%m-%d" if dates[0].year == dates[-1].year else "%Y-%m-%d"     # a span across a new year names it
        span = dates[0].strftime(day) + ("" if dates[0].date() == dates[-1].date() else "~" + dates[-1].strftime(day))
        para.append(_t(lang, f"修复合入 {span}。", f"Fixes merged {span}."))
    return mark_runs(" ".join(para) if lang == "en" else "".join(para), lang, said)


def _bullet(c: Case, ref: Refs, lang: str, ed: Editorial, written: str | None) -> dict[str, Any]:
    labels = fix_labels(c, ref)
    said: list[str] = []
    text = written or ed.case_text(c, "answer", lang)
    shown = told(text, 90) if text else ""
    shown = shown or quote(_cause(c, 90), lang, said)
    if not labels or all(lb.split("(")[0] in shown for lb in labels):
        tail = ""
    elif shown:
        tail = _t(lang, f"（{_j(lang, labels)}）", f" ({_j(lang, labels)})")
    else:          # nothing whole to say: the PRs alone, not an empty bracket
        tail = _t(lang, f"见 {_j(lang, labels)}", f"see {_j(lang, labels)}")
    problem = ed.case_text(c, "problem", lang) or quote(c.problem or c.title, lang, said)
    return {"ref": ref(c), "url": safe_url(c.url), "problem": problem, "text": shown + tail, "links": pr_links(c),
            "untranslated": said}


def _section(i: int, head: str, paragraph: str, cs: list[Case], ref: Refs, lang: str, ed: Editorial,
             notes: dict[str, str], said: list[str], by: str) -> dict[str, Any]:
    return {"headline": f"{i}. {head}", "untranslated": said, "paragraph": paragraph,
            "bullets": [_bullet(c, ref, lang, ed, notes.get(c.key)) for c in cs], "counts": counts(cs),
            "themes": sorted({c.theme for c in cs}), "repos": sorted({c.repo for c in cs}), "written_by": by}


def themes(kept: list[Case], ref: Refs, lang: str, ed: Editorial | None = None) -> list[dict[str, Any]]:
    ed = ed or Editorial()
    order = lambda c: (ref.repo(c.repo), c.number)  # noqa: E731
    out = []
    if not ed.record.get("themes"):        # offline: failure modes across repositories
        parts = [(mode, sorted(cs, key=order)) for mode, cs in lessons.partition(kept)]
        theme_of = {c.key: i for i, (_, cs) in enumerate(parts, 1) for c in cs}
        for i, (mode, cs) in enumerate(parts, 1):
            said: list[str] = []
            others = lessons.others_of(mode, cs, kept) if len({c.repo for c in cs}) == 1 else []
            out.append(_section(i, lesson_headline(mode, len(cs), lang), _paragraph(cs, ref, lang, said, others, theme_of,
                                                                                lesson_detail(mode, lang)),
                                cs, ref, lang, ed, {}, said, "offline")
                       | {"short": mode.short_zh if lang == "zh" else mode.short_en})
        return out
    for i, (theme, cs) in enumerate(groups(kept, ref), 1):
        cs = sorted(cs, key=order)
        said = []
        llm = ed.theme(theme, lang) if theme else {}
        head = (llm.get("headline") or "").strip()
        if head:
            paragraph = (llm.get("paragraph") or "").strip() or _paragraph(cs, ref, lang, said)
        else:
            head = headline(i, cs, ref, lang, said).split(". ", 1)[1]
            paragraph = _paragraph(cs, ref, lang, said)
        out.append(_section(i, head, paragraph, cs, ref, lang, ed, llm.get("bullets") or {}, said,
                            "llm" if llm.get("headline") else "offline"))
    return out
