"""The digest's themes section (组合解读): the kept cases grouped by the analysts' theme (cases
without a sibling one group per repository, after the real themes), each with a headline that
states what its cases show as a sentence, a paragraph, and one bullet per case. The editorial
pass's words are used where it wrote them (`Editorial`), the offline wording elsewhere."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from fixlore.compose.editorial import Editorial, headline, shared_words
from fixlore.compose.figures import AUTO_CLOSE_TIMINGS, Refs, merged
from fixlore.compose.language import mark_runs, quote
from fixlore.compose.links import pr_links
from fixlore.compose.render import safe_url
from fixlore.compose.wording import fix_labels, gist, j as _j, t as _t
from fixlore.core.enums import Timing, Trap
from fixlore.core.model import Case


def groups(kept: list[Case], ref: Refs) -> list[tuple[str, list[Case]]]:
    """(theme id, cases) in reading order: real themes by size, then the per-repo leftovers ('')."""
    by_theme: dict[str, list[Case]] = defaultdict(list)
    for c in kept:
        by_theme[c.theme or f"{ref.repo(c.repo)}:misc"].append(c)
    out, singles = [], defaultdict(list)
    for theme, cs in by_theme.items():
        if len(cs) >= 2:
            out.append((theme, cs))
        else:
            singles[cs[0].repo].append(cs[0])
    rest = []
    for repo, cs in singles.items():
        if len(cs) >= 2:     # cases without a sibling: one section per repo, after the real themes
            rest.append(("", cs))
        else:
            out.append((cs[0].theme, cs))
    order = lambda g: (-len(g[1]), sorted(ref(c) for c in g[1]))  # noqa: E731
    return sorted(out, key=order) + sorted(rest, key=order)


def _paragraph(cs: list[Case], ref: Refs, lang: str, said: list[str]) -> str:
    n = len(cs)
    landed = [c for c in cs if any(merged(f) for f in c.fix)]
    chains = [c for c in cs if c.timing in AUTO_CLOSE_TIMINGS]
    pending = [c for c in cs if Trap.FIX_NOT_LANDED in c.traps or (c.fix and not any(merged(f) for f in c.fix))]
    answered = [c for c in cs if not c.fix]
    stale = [c for c in cs if c.timing == Timing.STALE]
    dates = sorted(f.merged_at for c in cs for f in c.fix if merged(f))
    bits = []
    if landed:
        bits.append(_t(lang, f"{len(landed)} 案修复已合入", f"{len(landed)} with a merged fix"))
    if chains:
        bits.append(_t(lang, f"{len(chains)} 条合入即关单", f"{len(chains)} closed by the merge"))
    if pending:
        bits.append(_t(lang, f"{len(pending)} 案修复未落地", f"{len(pending)} whose fix has not landed"))
    if answered:
        bits.append(_t(lang, f"{len(answered)} 案为官方答复无代码修复", f"{len(answered)} answered without a code change"))
    para = [_t(lang, f"本组 {n} 案：{_j(lang, bits) or '均无修复'}。",
               f"{n} case{'s' if n > 1 else ''}: {_j(lang, bits) or 'none with a fix'}.")]
    common = shared_words(cs, 4)
    if common:
        para.append(_t(lang, f"共同线索：{_j(lang, common)}。",
                       "common threads: " + ", ".join(quote(w, lang, said) for w in common) + "."))
    if dates:
        span = dates[0].strftime("%m-%d") + ("" if dates[0].date() == dates[-1].date() else "~" + dates[-1].strftime("%m-%d"))
        para.append(_t(lang, f"修复合入时间 {span}。", f"fixes merged {span}."))
    if stale:
        para.append(_t(lang, f"{_j(lang, [ref(c) for c in stale])} 为 stale 关单，以 merged_at 为准。",
                       f"{_j(lang, [ref(c) for c in stale])} closed by a stale process: the merge time counts."))
    docs = sorted({k.doc.split("/")[-1] for c in cs for k in c.kb_refs})
    if docs:
        para.append(_t(lang, f"KB 佐证：{_j(lang, docs)}。", f"KB: {_j(lang, docs)}."))
    return mark_runs(" ".join(para) if lang == "en" else "".join(para), lang, said)


def _bullet(c: Case, ref: Refs, lang: str, ed: Editorial, written: str | None) -> dict[str, Any]:
    labels = fix_labels(c, ref)
    said: list[str] = []
    text = written or ed.case_text(c, "answer", lang)
    if text:
        shown = gist(text)
    else:
        shown = quote(gist(c.written.text() if c.written else c.answer), lang, said)
    tail = "" if not labels or all(lb.split("(")[0] in shown for lb in labels) else _t(lang, f"（{_j(lang, labels)}）", f" ({_j(lang, labels)})")
    problem = ed.case_text(c, "problem", lang) or quote(c.problem or c.title, lang, said)
    return {"ref": ref(c), "url": safe_url(c.url), "problem": problem, "text": shown + tail, "links": pr_links(c),
            "untranslated": said}


def themes(kept: list[Case], ref: Refs, lang: str, ed: Editorial | None = None) -> list[dict[str, Any]]:
    ed = ed or Editorial()
    out = []
    for i, (theme, cs) in enumerate(groups(kept, ref), 1):
        cs = sorted(cs, key=lambda c: (ref.repo(c.repo), c.number))
        said: list[str] = []
        llm = ed.theme(theme, lang) if theme else {}
        head = (llm.get("headline") or "").strip()
        if head:
            head = f"{i}. {head}"
            paragraph = (llm.get("paragraph") or "").strip() or _paragraph(cs, ref, lang, said)
        else:
            head = headline(i, cs, ref, lang, said)
            paragraph = _paragraph(cs, ref, lang, said)
        notes = llm.get("bullets") or {}
        out.append({"headline": head, "untranslated": said, "paragraph": paragraph,
                    "bullets": [_bullet(c, ref, lang, ed, notes.get(c.key)) for c in cs],
                    "themes": sorted({c.theme for c in cs}), "repos": sorted({c.repo for c in cs}),
                    "written_by": "llm" if llm.get("headline") else "offline"})
    return out

