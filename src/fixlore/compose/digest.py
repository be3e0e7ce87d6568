"""The digest as data, in one language: overview, per-repo tables, themes, troubleshooting guide,
methods and disclosure (`disclosure.py`). Issue-derived text (problem, answer, symptom ...) stays
in the case's own language; the framing around it follows `lang`, and so do the fact sentences the
analysts append to an answer (fix, landing, close, kb ref: `facts.py`). Every number is read from
`compute_figures`."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from fixlore.compose import editorial
from fixlore.compose.charts import funnel_chart, repo_chart, timing_chart
from fixlore.compose.disclosure import disclosure
from fixlore.compose.editorial import Editorial
from fixlore.compose.figures import Refs, compute_figures
from fixlore.compose.frame import backlog_by_repo, backlog_rest, frame_of, holdings, introduction, numbered, pointer, tagline
from fixlore.compose.guide import guide
from fixlore.compose.insights import insights
from fixlore.compose.language import MARK as QUOTE_MARK
from fixlore.compose.language import answer_of, facts_in, quote
from fixlore.compose.links import doc_parts, doc_url, pr_links
from fixlore.compose.render import safe_url
from fixlore.compose.themes import heading as themes_heading, themes
from fixlore.compose.wording import date as _date, j as _j, t as _t
from fixlore.wording.sentence import capital as _capital
from fixlore.core.enums import FunnelStage
from fixlore.core.model import Case
from fixlore.wording.facts import cited_doc, close_sentence, fix_sentence, kb_sentence


def answer_in(case: Case, lang: str) -> str:
    """The case's answer with the pipeline's own fact sentences in `lang`: the analysts write
    them in the case's language, and a reader of the other digest should not need it for the
    facts (what was extracted from the issue stays as written)."""
    answer = case.answer or ""
    to_zh = lang == "zh"
    stop_in, stop_out = (". ", "。") if to_zh else ("。", ". ")
    for make in (fix_sentence, close_sentence, kb_sentence):
        source, target = make(case, not to_zh).rstrip("。. "), make(case, to_zh).rstrip("。. ")
        if not source or not target or source == target:
            continue
        if not to_zh:       # an English sentence starts with a capital, as the analysts write it
            target = _capital(target)
        for variant in dict.fromkeys((_capital(source), source)):
            answer = answer.replace(variant + stop_in.strip(), target + stop_out).replace(variant, target)
    return answer.rstrip()


def without_kb(answer: str, case: Case) -> str:
    """The answer without the analysts' KB sentence (document, chunk id, score): a reader gets
    the document as a citation beside the prose instead (`kb_cites`)."""
    for zh in (True, False):
        sentence = kb_sentence(case, zh).rstrip("。. ")
        if sentence:
            for variant in dict.fromkeys((sentence, _capital(sentence))):
                answer = re.sub(re.escape(variant) + r"[。.]?", "", answer)
    return re.sub(r"\s{2,}", " ", answer).strip()


def kb_cites(case: Case, repo_web: dict[str, Any]) -> list[dict[str, Any]]:
    """The document the answer cites (the best-scoring kb_ref, as the analysts cite it), with its
    platform URL when the run knows the repository's; chunk id and score for a tooltip."""
    best = cited_doc(case)
    if best is None:
        return []
    _, path = doc_parts(best.doc)
    return [{"doc": best.doc, "path": path, "name": path.split("/")[-1], "url": doc_url(best.doc, repo_web),
             "chunk": best.chunk, "score": round(best.score, 3)}]


# ---------------------------------------------------------------------------------------------
def _title(cases: list[Case], run: dict, fig: dict, lang: str) -> str:
    """The run's own title (a series edition's carries its number), else the orgs and the window,
    numbered when the run was given one (`frame.number`)."""
    if run.get("title"):
        return str(run["title"])
    orgs = list(run.get("orgs") or sorted({c.repo.split("/")[0] for c in cases if "/" in c.repo}))
    named = _j(lang, orgs)
    if len(orgs) > 3:      # a title names three organisations, then how many there are
        named = _j(lang, orgs[:3]) + _t(lang, f" 等 {len(orgs)} 个组织的", f" and others ({len(orgs)} organisations)")
    win = fig["window"]
    since = _date(win["since"]) or _date(win["first_close"])
    until = _date(win["until"]) or _date(win["last_close"])
    span = f"{since} ~ {until}" if since and until and since != until else (since or until)
    tail = f" · {span}" if span else ""
    number = frame_of(run).get("number")
    return _t(lang, numbered(f"{named}{'' if named.endswith('的') else ' '}开源仓 Issue 分析解答", number, lang) + tail,
              numbered(f"{named} resolved issues digest", number, lang) + tail).strip()


def digest_links(cases: list[Case], ref: Refs) -> dict[str, str]:
    """Labels the digest's own sentences use → web page: every analysed case by its short name
    (`infer-serve#31`) and its PRs by their labels (`!57`), for the themes' paragraphs and the
    methods. A PR label that would point at two pages (the same number in two repositories)
    links nowhere."""
    out: dict[str, str] = {}
    seen: dict[str, set[str]] = defaultdict(set)
    for c in cases:
        if c.funnel not in (FunnelStage.SELECTED, FunnelStage.ANALYSIS):
            continue
        if safe_url(c.url):
            out[ref(c)] = safe_url(c.url)
        for label, url in pr_links(c).items():
            seen[label].add(url)
    out.update({label: next(iter(urls)) for label, urls in seen.items() if len(urls) == 1 and label not in out})
    return out


def _row(c: Case, ref: Refs, lang: str, ed: Editorial) -> dict[str, Any]:
    """A table row: the problem and the analyst's words as written (quoted in the other language,
    or as the editorial pass translated them), the pipeline's facts in `lang`."""
    said: list[str] = []
    problem = ed.case_text(c, "problem", lang) or quote(c.problem or c.title, lang, said)
    own = ed.case_text(c, "answer", lang)
    if own is not None:
        facts = facts_in(c, lang, said)
        sep = "。" if lang == "zh" else ". "
        answer = sep.join(p.rstrip("。. ") for p in [own, *facts] if p) + ("。" if lang == "zh" else ".")
    else:
        answer = answer_of(c, lang, said)
    if answer is None:   # an export from before the analysts' words were kept apart
        answer = quote(answer_in(c, lang), lang, said)
    return {"ref": f"#{c.number}", "case": ref(c), "url": safe_url(c.url), "problem": problem,
            "answer": answer, "prose": without_kb(answer, c), "untranslated": said}


def build_digest(cases: list[Case], run: dict | None = None, lang: str = "zh", figures: dict | None = None) -> dict[str, Any]:
    run = run or {}
    fig = figures or compute_figures(cases, run)
    ref = Refs(cases)
    kept = [c for c in cases if c.funnel == FunnelStage.SELECTED]
    per_repo: dict[str, list[Case]] = defaultdict(list)
    for c in kept:
        per_repo[c.repo].append(c)
    order = sorted(per_repo, key=lambda r: (-len(per_repo[r]), r))
    ed = Editorial.of_run(run)
    sections = themes(kept, ref, lang, ed)
    descriptions = run.get("repo_descriptions") or {}
    repo_web = run.get("repo_web") or {}
    overview, repos = [], []
    for repo in order:
        cs = sorted(per_repo[repo], key=lambda c: c.number)
        said: list[str] = []
        mine = ed.repo(repo, lang)
        what = editorial.what_it_is(descriptions.get(repo) or "", lang, said)
        positioning = (mine.get("positioning") or "").strip() or introduction(
            cs, descriptions.get(repo) or "", lang, said, sections, ref)
        overview.append({"repo": ref.repo(repo), "full_name": repo, "positioning": positioning, "count": len(cs),
                         "untranslated": said})
        subtitle = (mine.get("subtitle") or "").strip() or holdings(cs, sections, ref, lang)
        heading = ref.repo(repo) + ((f"（{what}）" if lang == "zh" else f" ({what})") if what else "")
        repos.append({"repo": ref.repo(repo), "full_name": repo, "untranslated": list(said),
                      "heading": heading,
                      "subtitle": subtitle,
                      "rows": [_row(c, ref, lang, ed) | {
                                "links": pr_links(c), "kb": kb_cites(c, repo_web),
                                "kb_refs": [k.to_export() for k in c.kb_refs],
                                "analysed_by": c.analysed_by} for c in cs]})
    return {
        "lang": lang,
        "title": _title(cases, run, fig, lang),
        "frame": {"tagline": tagline(kept, len(per_repo), run, lang), "pointer": pointer(run, lang),
                  "backlog": (waiting := backlog_by_repo(cases, ref, lang, waiting_said := [])),
                  "untranslated": waiting_said,
                  "backlog_rest": backlog_rest(cases, waiting, lang),
                  "backlog_heading": _t(lang, "候选余量（按仓）", "Backlog by repository")},
        "headings": {
            "overview": _t(lang, "总览", "Overview"),
            "overview_cols": [_t(lang, "仓库", "Repository"), _t(lang, "定位", "Positioning"), _t(lang, "收录条数", "Cases")],
            "table_cols": [_t(lang, "编号", "No."), _t(lang, "Issue 问题内容", "Issue"), _t(lang, "解答总结", "Answer")],
            "themes": themes_heading(kept, sections, ref, lang),
            "insights": _t(lang, "跨案线索", "Across cases"),
            "guide": _t(lang, "排错指引（从这批 issue 提炼）", "Troubleshooting guide (from these issues)"),
            "guide_cols": [_t(lang, "症状", "Symptom"), _t(lang, "第一优先动作", "First action"), _t(lang, "本篇相关案例", "Cases")],
            "disclosure": _t(lang, "考据与口径披露", "Methods and disclosure"),
            "quotes": _t(lang, "", f"Text marked {QUOTE_MARK} is quoted from the issues in Chinese and left untranslated "
                                   + ("(the translation failed or was not grounded for it)" if ed.record.get("backend")
                                      else "(no translation backend ran)") + "; everything else is written in English."),
        },
        "overview": overview,
        "charts": [funnel_chart(fig["funnel"], lang), timing_chart(fig["timing"]["by_timing"], lang),
                   repo_chart(overview, lang)],
        "repos": repos,
        "themes": sections,
        "insights": insights(kept, ref, lang),
        "guide": guide(kept, ref, order, lang, ed),
        "links": digest_links(cases, ref),
        "disclosure": disclosure(fig, run, lang, ed.disclosure(lang)),
    }
