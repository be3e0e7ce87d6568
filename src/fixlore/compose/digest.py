"""The digest as data, in one language: overview, per-repo tables, themes, troubleshooting guide,
methods and disclosure. Issue-derived text (problem, answer, symptom ...) stays in the case's own
language; the framing around it follows `lang`, and so do the fact sentences the analysts append
to an answer (fix, landing, close, kb ref: `facts.py`). Every number is read from `compute_figures`.

It is over 400 lines because the methods-and-disclosure section (`_disclosure`) alone is
130 lines of bilingual wording; moving it to its own module is still to do (issue #10)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any

from fixlore.facts import close_sentence, fix_sentence, kb_sentence, note_in, pr_label
from fixlore.compose.charts import funnel_chart, repo_chart, timing_chart
from fixlore.compose.figures import AUTO_CLOSE_TIMINGS, Refs, compute_figures, merged
from fixlore.compose.links import doc_parts, doc_url, pr_links
from fixlore.compose.language import MARK as QUOTE_MARK
from fixlore.compose.language import answer_of, mark_runs, quote
from fixlore.compose.render import safe_url
from fixlore.units import human_lag
from fixlore.model import Case

REASON_TEXT = {
    "not_adopted": ("官方不采纳", "officially not adopted"),
    "no_fix_evidence": ("零修复证据", "no fix evidence"),
    "internal_process": ("内部流程单", "internal process ticket"),
    "consultation_only": ("咨询无缺陷", "consultation only"),
    "env_workaround": ("环境类 workaround", "environment workaround only"),
    "fix_pending": ("修复 PR 未合入，留观", "fix PR still open, watch"),
    "self_answered": ("自带答案", "self-answered"),
    "merged_into_other": ("并入他单", "merged into another issue"),
    "not_a_problem": ("官方核验非问题", "officially not a problem"),
    "unspecified": ("未注明", "unspecified"),
}
CARRIER_TEXT = {
    "fix_not_landed": ("resolved 但修复未落地", "resolved but the fix never landed"),
    "claimed_unmerged": ("评论称已合入的 PR 实为 closed 未合", "a PR cited as merged was closed unmerged"),
    "linked_unrelated": ("页面关联的 merged PR 与本单无关", "a linked merged PR is unrelated"),
    "closed_before_merge": ("关单早于修复合入，不倒填", "closed before the fix merged, not back-filled"),
}


def _t(lang: str, zh: str, en: str) -> str:
    return zh if lang == "zh" else en


def _j(lang: str, items) -> str:
    return ("、" if lang == "zh" else ", ").join(str(i) for i in items)


def _date(iso: str) -> str:
    return iso[:10] if iso else ""


def _theme_words(theme: str, cs: list[Case], ref: Refs) -> str:
    """A theme id made readable: without the repository names it may start with."""
    words = [w for w in re.sub(r"-\d+$", "", theme.split(":", 1)[-1]).split("-") if w]
    repo_words = {w for c in cs for w in re.split(r"[-_]", ref.repo(c.repo).lower())}
    while words and words[0] in repo_words:
        words = words[1:]
    return "/".join(words[:4]) or theme


def _repo_words(cs: list[Case], ref: Refs, k: int = 5) -> list[str]:
    """What a repository's kept cases are about, by keyword frequency (its own name left out)."""
    from fixlore.rules.text import keywords

    own = {w for c in cs for w in re.split(r"[-_]", ref.repo(c.repo).lower())}
    counts: Counter = Counter()
    for c in cs:
        counts.update(w for w in dict.fromkeys(keywords(f"{c.title} {c.problem}", 8)) if w not in own)
    return [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:k]


def _common_words(cs: list[Case], k: int = 4) -> list[str]:
    """Keywords that at least two cases of a group share (what ties the group together)."""
    if len(cs) < 2:
        return []
    from fixlore.rules.text import keywords

    counts: Counter = Counter()
    for c in cs:
        # each case counts a word once; first-seen order breaks ties (a set's order changes per run)
        counts.update(dict.fromkeys(keywords(f"{c.title} {c.problem}", 8), 1))
    shared = [w for w, n in counts.most_common() if n >= 2]
    return shared[:k]


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
    if not case.kb_refs:
        return []
    best = max(case.kb_refs, key=lambda k: k.score)
    _, path = doc_parts(best.doc)
    return [{"doc": best.doc, "path": path, "name": path.split("/")[-1], "url": doc_url(best.doc, repo_web),
             "chunk": best.chunk, "score": round(best.score, 3)}]


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _gist(answer: str) -> str:
    first = re.split(r"(?<=[。；])|(?<=[.;])\s", answer or "", maxsplit=1)[0].strip()
    return first if len(first) <= 90 else first[:89] + "…"


def _fix_labels(c: Case, ref: Refs) -> list[str]:
    out = []
    for f in c.fix:
        mark = f"!{f.number}" if "merge_requests" in (f.url or "") else f"PR#{f.number}"
        mark = mark if f.repo == c.repo else f"{ref.repo(f.repo)}{mark}"
        out.append(mark + ("" if merged(f) else "(open)" if f.state == "open" else f"({f.state or '?'})"))
    return out


# ---------------------------------------------------------------------------------------------
def _title(cases: list[Case], run: dict, fig: dict, lang: str) -> str:
    if run.get("title"):
        return str(run["title"])
    orgs = run.get("orgs") or sorted({c.repo.split("/")[0] for c in cases if "/" in c.repo})
    win = fig["window"]
    since = _date(win["since"]) or _date(win["first_close"])
    until = _date(win["until"]) or _date(win["last_close"])
    span = f"{since} ~ {until}" if since and until and since != until else (since or until)
    tail = f" · {span}" if span else ""
    return _t(lang, f"{_j(lang, orgs)} 开源仓 Issue 分析解答{tail}".strip(),
              f"{_j(lang, orgs)} resolved issues digest{tail}".strip())


def _themes(kept: list[Case], ref: Refs, lang: str) -> list[dict[str, Any]]:
    by_theme: dict[str, list[Case]] = defaultdict(list)
    for c in kept:
        by_theme[c.theme or f"{ref.repo(c.repo)}:misc"].append(c)
    groups, singles = [], defaultdict(list)
    for theme, cs in by_theme.items():
        if len(cs) >= 2:
            groups.append((theme, cs))
        else:
            singles[cs[0].repo].append(cs[0])
    rest = []
    for repo, cs in singles.items():
        if len(cs) >= 2:     # cases without a sibling: one section per repo, after the real themes
            rest.append(("", cs))
        else:
            groups.append((cs[0].theme, cs))
    order = lambda g: (-len(g[1]), sorted(ref(c) for c in g[1]))  # noqa: E731
    groups = sorted(groups, key=order) + sorted(rest, key=order)
    out = []
    for i, (theme, cs) in enumerate(groups, 1):
        repos = sorted({ref.repo(c.repo) for c in cs})
        where = "/".join(repos) if len(repos) <= 3 else _t(lang, f"{len(repos)} 个小仓", f"{len(repos)} small repos")
        label = _theme_words(theme, cs, ref) if theme else _t(lang, "其他单案", "other single cases")
        cs = sorted(cs, key=lambda c: (ref.repo(c.repo), c.number))
        n = len(cs)
        landed = [c for c in cs if any(merged(f) for f in c.fix)]
        chains = [c for c in cs if c.timing in AUTO_CLOSE_TIMINGS]
        pending = [c for c in cs if "fix_not_landed" in c.traps or (c.fix and not any(merged(f) for f in c.fix))]
        answered = [c for c in cs if not c.fix]
        stale = [c for c in cs if c.timing == "stale"]
        prs = Counter(lbl for c in cs for lbl in _fix_labels(c, ref))
        shared = [p for p, k in prs.items() if k > 1]
        dates = sorted(f.merged_at for c in cs for f in c.fix if merged(f))
        docs = sorted({k.doc.split("/")[-1] for c in cs for k in c.kb_refs})
        bits = []
        if landed:
            bits.append(_t(lang, f"{len(landed)} 案修复已合入", f"{len(landed)} with a merged fix"))
        if chains:
            bits.append(_t(lang, f"{len(chains)} 条合入即关单", f"{len(chains)} closed by the merge"))
        if pending:
            bits.append(_t(lang, f"{len(pending)} 案修复未落地", f"{len(pending)} whose fix has not landed"))
        if answered:
            bits.append(_t(lang, f"{len(answered)} 案为官方答复无代码修复", f"{len(answered)} answered without a code change"))
        said: list[str] = []
        headline = _headline(i, where, label, n, bits, lang, said)
        para = [_t(lang, f"本组 {n} 案：{_j(lang, bits) or '均无修复'}。",
                   f"{n} case{'s' if n > 1 else ''}: {_j(lang, bits) or 'none with a fix'}.")]
        common = _common_words(cs)
        if common:
            para.append(_t(lang, f"共同线索：{_j(lang, common)}。",
                           "common threads: " + ", ".join(quote(w, lang, said) for w in common) + "."))
        if dates:
            span = dates[0].strftime("%m-%d") + ("" if dates[0].date() == dates[-1].date() else "~" + dates[-1].strftime("%m-%d"))
            para.append(_t(lang, f"修复合入时间 {span}。", f"fixes merged {span}."))
        if shared:
            para.append(_t(lang, f"{_j(lang, shared)} 一 PR 修多单。", f"{_j(lang, shared)} fixed several issues at once."))
        if stale:
            para.append(_t(lang, f"{_j(lang, [ref(c) for c in stale])} 为 stale 关单，以 merged_at 为准。",
                           f"{_j(lang, [ref(c) for c in stale])} closed by a stale process: the merge time counts."))
        if docs:
            para.append(_t(lang, f"KB 佐证：{_j(lang, docs)}。", f"KB: {_j(lang, docs)}."))
        bullets = []
        for c in cs:
            labels = _fix_labels(c, ref)
            b_said: list[str] = []
            gist = quote(_gist(c.written.text() if c.written else without_kb(answer_in(c, lang), c)), lang, b_said)
            tail = "" if not labels or all(lb.split("(")[0] in gist for lb in labels) else _t(lang, f"（{_j(lang, labels)}）", f" ({_j(lang, labels)})")
            bullets.append({"ref": ref(c), "url": safe_url(c.url), "problem": quote(c.problem or c.title, lang, b_said),
                            "text": gist + tail, "links": pr_links(c), "untranslated": b_said})
        paragraph = mark_runs(" ".join(para) if lang == "en" else "".join(para), lang, said)
        out.append({"headline": headline, "untranslated": said, "paragraph": paragraph,
                    "bullets": bullets, "themes": sorted({c.theme for c in cs}), "repos": sorted({c.repo for c in cs})})
    return out


def _headline(i: int, where: str, label: str, n: int, bits: list[str], lang: str, said: list[str]) -> str:
    """A theme's headline as a sentence: where, about what, and what the cases have in common."""
    about = quote(label, lang, said)
    what = _j(lang, bits[:2])
    if lang == "zh":
        return f"{i}. {where} 的 {n} 案集中在「{about}」" + (f"：{what}。" if what else "。")
    cases = f"{n} case{'s' if n > 1 else ''}"
    return f"{i}. {cases} in {where} turn on {about}" + (f": {what}." if what else ".")


_ACTION_TEMPLATE = re.compile(r"^(?:升级到含 .+? 的版本|关注 .+? 合入|upgrade to a build with .+?|watch .+? until it merges)(?:[；;]\s*|$)")


def _first_action(c: Case, lang: str, said: list[str]) -> str:
    """The first thing to do, as an imperative in `lang`: take the landed fix (or watch the open
    one), then what the analyst found to do, quoted as written."""
    labels = [pr_label(f, c.repo) for f in c.fix if merged(f)]
    pending = [pr_label(f, c.repo) for f in c.fix + c.pending_fix if not merged(f) and f.state == "open"]
    own = _ACTION_TEMPLATE.sub("", (c.first_action or "").strip()).strip()
    if labels:
        step = _t(lang, f"升级到含 {'、'.join(labels)} 的版本", f"Upgrade to a build with {', '.join(labels)}")
    elif pending:
        step = _t(lang, f"关注 {'、'.join(pending)} 合入", f"Watch {', '.join(pending)} until it merges")
    else:
        return quote(own, lang, said)
    return step + (_t(lang, "；", "; ") + quote(own, lang, said) if own else "")


def _guide(kept: list[Case], ref: Refs, repo_order: list[str], lang: str) -> list[dict[str, Any]]:
    """One row per cause: cases fixed by the same merged PR share a row (the same change cures
    them), as do cases with the same symptom and first action."""
    rows: list[dict[str, Any]] = []
    by_key: dict[Any, dict[str, Any]] = {}
    for c in sorted(kept, key=lambda c: (repo_order.index(c.repo), c.number)):
        said: list[str] = []
        symptom = c.symptom or c.problem or c.title
        fixes = sorted((f.repo, f.number) for f in c.fix if merged(f) and f.role == "fix")
        keys = [("pr", k) for k in fixes] + [("same", re.sub(r"\s+", "", symptom.lower()), c.first_action)]
        row = next((by_key[k] for k in keys if k in by_key), None)
        if row is None:
            row = {"symptom": quote(symptom, lang, said), "first_action": _first_action(c, lang, said),
                   "cases": [], "untranslated": said, "symptoms": [symptom]}
            rows.append(row)
        elif symptom not in row["symptoms"]:
            row["symptoms"].append(symptom)
            row["symptom"] += " / " + quote(symptom, lang, row["untranslated"])
        for k in keys:
            by_key.setdefault(k, row)
        row["cases"].append({"ref": ref(c), "url": safe_url(c.url)})
    for row in rows:
        del row["symptoms"]
    return rows


def _unreadable_note(api: dict, repos: int, lang: str) -> str:
    """What the harvest could not read, so no reader takes the tables for the whole ecosystem."""
    failures = api.get("unreadable") or []
    if not failures:
        return ""
    by_repo: dict[str, list[str]] = defaultdict(list)
    for fl in failures:
        status = f"HTTP {fl['status']}" if str(fl.get("status", "")).isdigit() else str(fl.get("status", ""))
        by_repo[fl["repo"]].append(f"{status} {fl.get('message') or ''}".strip())
    names = _j(lang, [f"{r}（{'；'.join(v)}）" if lang == "zh" else f"{r} ({'; '.join(v)})"
                      for r, v in sorted(by_repo.items())])
    return _t(lang, f"另有 {len(by_repo)}/{repos} 仓未能读取：{names}，其问题未计入，下次运行重试。",
              f" {len(by_repo)} of {repos} repos could not be read: {names}; their issues are not counted "
              f"and will be retried on the next run.")


def _disclosure(fig: dict, run: dict, lang: str) -> list[dict[str, str]]:
    f, kb, mg, car, ev, tm, dr, bl, an = (fig[k] for k in ("funnel", "kb", "merge", "carriers", "evidence", "timing",
                                                          "drops", "backlog", "analysis"))
    win = fig["window"]
    since = win["since"] or win["first_close"]
    repos = fig["api"].get("repos") or f["repos"]   # repos walked by the harvest, else repos with cases
    items = []
    items.append({"label": _t(lang, "增量口径", "Scope and funnel"), "text": _t(
        lang,
        f"{repos} 仓，窗口起点 {_date(since)}（按关单时间判定，updated_at 近但关单早者不计）：共考察 {f['considered']:,} 条，"
        f"窗口内关单 {f['closed_in_window']:,} 条（窗口外 {f['by_stage']['window']:,} 条）；排除未解决 {f['unresolved']:,}、内部单 {f['internal']:,}、"
        f"CVE {f['cve']:,}、空标题 {f['empty_title']:,} 后，已解决×用户侧 {f['resolved_user_side']:,} 条；再排 {f['noise']:,} 条模板刷屏后有效池 "
        f"{f['pool']:,} 条；按价值取头部 {f['analysed']:,} 条深析，留 {f['kept']:,} 条入选、弃 {f['dropped']:,} 条。",
        f"{repos} repositories, window from {_date(since)} (by close time, not updated_at): {f['considered']:,} issues considered, "
        f"{f['closed_in_window']:,} closed in the window ({f['by_stage']['window']:,} outside); after removing unresolved {f['unresolved']:,}, "
        f"internal {f['internal']:,}, CVE {f['cve']:,} and empty titles {f['empty_title']:,}, {f['resolved_user_side']:,} resolved user-side issues; "
        f"{f['noise']:,} template-flood issues removed leaves a pool of {f['pool']:,}; the top {f['analysed']:,} by value were analysed "
        f"in depth: {f['kept']:,} kept, {f['dropped']:,} dropped.") + _unreadable_note(fig["api"], repos, lang)})
    kb_list = _j(lang, [f"{r['case']}→{r['doc'].split('/')[-1]}" for r in kb["cases"]])   # scores: digest.json
    items.append({"label": _t(lang, "KB 核实", "Knowledge base"), "text": _t(
        lang,
        f"{kb['rows']} 行中 {kb['with_refs']} 行挂 kb_refs" + (f"（{kb_list}）" if kb_list else "")
        + f"；{kb['without_refs']} 行无高于阈值的命中，留空未硬凑。",
        f"{kb['with_refs']} of {kb['rows']} rows carry kb_refs" + (f" ({kb_list})" if kb_list else "")
        + f"; {kb['without_refs']} rows had no passage above the threshold and are left empty, never forced.")})
    carriers = []
    for trap, (zh, en) in CARRIER_TEXT.items():
        if car[trap]:
            names = _j(lang, [x["case"] + note_in(x["note"], lang == "zh") for x in car[trap]])
            carriers.append(_t(lang, f"{zh} {len(car[trap])} 例：{names}", f"{en}: {len(car[trap])} ({names})"))
    n_carriers = sum(len(v) for v in car.values())
    nm = _j(lang, [f"{k} {v}" for k, v in mg["not_merged"].items()]) or "0"
    audit = tm["audit"]
    audit_txt = ""
    if audit["checked"]:
        audit_txt = _t(lang, f"抽 {audit['checked']} 条时序断言对 API 复核，通过 {audit['passed']} 条"
                       + (f"（未通过：{_j(lang, audit['failed'])}）" if audit["failed"] else "") + "。",
                       f" {audit['checked']} timing claims re-checked against the API, {audit['passed']} confirmed"
                       + (f" (failed: {_j(lang, audit['failed'])})" if audit["failed"] else "") + ".")
    items.append({"label": _t(lang, "PR 合并判定", "Merge rule"), "text": _t(
        lang,
        f"一律以 state == merged 且 merged_at 非空判定（平台 merged 字段不可用）。深析案例共引用修复 PR {mg['fix_refs']} 个："
        f"合入 {mg['merged']}，未合入 {nm}。"
        + (f"其中 {mg['closed_with_merged_at']} 个状态为 closed 但 merged_at 非空（自动合入后标记关闭），按合入计。"
           if mg.get("closed_with_merged_at") else "") + f"特殊载体 {n_carriers} 例" + (f"——{'；'.join(carriers)}" if carriers else "") + "。" + audit_txt,
        f"A PR counts as merged only when state == merged and merged_at is set (the platform's merged field is not used). "
        f"The analysed cases cite {mg['fix_refs']} fix PRs: {mg['merged']} merged, not merged: {nm}. "
        + (f"{mg['closed_with_merged_at']} of the merged read closed with merged_at set (auto-merged MRs marked "
           f"closed) and count as merged. " if mg.get("closed_with_merged_at") else "")
        + f"Special carriers: {n_carriers}" + (f" — {'; '.join(carriers)}" if carriers else "") + "." + audit_txt)})
    ch = ev["auto_close_chains"]
    tiers = []
    if ch["count"]:
        tiers.append(_t(lang, f"合入即关单链 {ch['count']} 条（同秒 {ch['same_second']} 条，最长差 {human_lag(ch['max_lag_s'], lang)}：{_j(lang, ch['cases'])}）",
                        f"closed by the merge: {ch['count']} ({ch['same_second']} in the same second, longest gap {human_lag(ch['max_lag_s'], lang)}: {_j(lang, ch['cases'])})"))
    if ev["minutes"]:
        tiers.append(_t(lang, f"分钟级 {len(ev['minutes'])} 条（{_j(lang, [m['case'] + ' ' + human_lag(m['lag_s'], lang) for m in ev['minutes']])}）",
                        f"within the hour: {len(ev['minutes'])} ({_j(lang, [m['case'] + ' ' + human_lag(m['lag_s'], lang) for m in ev['minutes']])})"))
    if ev["one_pr_many_issues"]:
        tiers.append(_t(lang, "一 PR 多单 " + _j(lang, [f"{m['pr']} 修 {_j(lang, m['cases'])}" for m in ev["one_pr_many_issues"]]),
                        "one PR, many issues: " + _j(lang, [f"{m['pr']} fixed {' and '.join(m['cases'])}" for m in ev["one_pr_many_issues"]])))
    if ev["backports"]:
        tiers.append(_t(lang, f"backport {len(ev['backports'])} 例（" + _j(lang, [f"{b['case']} {b['pr']}→{b['branch'] or '?'}" for b in ev["backports"]]) + "）",
                        f"backports: {len(ev['backports'])} (" + _j(lang, [f"{b['case']} {b['pr']}→{b['branch'] or '?'}" for b in ev["backports"]]) + ")"))
    if ev["branch_names"]:
        tiers.append(_t(lang, "分支名实锤 " + _j(lang, [f"{b['case']}（{b['detail']}）" for b in ev["branch_names"]]),
                        "branch names: " + _j(lang, [f"{b['case']} ({b['detail']})" for b in ev["branch_names"]])))
    for kind, zh, en in (("keyword", "PR/提交显式关键字", "closing keywords"), ("linked", "平台关联核对", "platform links checked"),
                         ("comment", "评论引用 PR", "comments citing the PR"), ("answer", "评论解答/官方口径", "official answers")):
        if kind in ev["by_kind"]:
            k = ev["by_kind"][kind]
            tiers.append(_t(lang, f"{zh} {k['count']} 条（{_j(lang, k['cases'])}）", f"{en}: {k['count']} ({_j(lang, k['cases'])})"))
    items.append({"label": _t(lang, "关联依据分层", "Evidence tiers"),
                  "text": ("；" if lang == "zh" else "; ").join(tiers) + ("。" if lang == "zh" else ".") if tiers
                  else _t(lang, "入选案例无关联证据。", "No kept case carries link evidence.")})
    traps = []
    if tm["stale"]:
        traps.append(_t(lang, f"stale 关单 {len(tm['stale'])} 条，关单晚于真实修复（" + _j(lang, [f"{s['case']} 晚 {human_lag(s['lag_s'], lang)}" if s['lag_s'] is not None else f"{s['case']} 修复未合入" for s in tm["stale"]]) + "），判据回到 PR merged_at",
                        f"stale closes: {len(tm['stale'])}, closed after the real fix (" + _j(lang, [f"{s['case']} {human_lag(s['lag_s'], lang)} late" if s['lag_s'] is not None else f"{s['case']} fix never merged" for s in tm["stale"]]) + "); the PR's merged_at is what counts"))
    for st in tm["close_storms"]:
        who = _j(lang, st["actors"]) or (st["notes"][0] if st["notes"] else _t(lang, "同一操作者", "one actor"))
        traps.append(_t(lang, f"关单风暴 {st['start'][:10]} {st['start'][11:19]}~{st['end'][11:19]}（{st['span_s']} 秒内 {st['count']} 单，{who}：{_j(lang, st['cases'])}），关单时刻不说明修复",
                        f"close storm {st['start'][:10]} {st['start'][11:19]}–{st['end'][11:19]} ({st['count']} issues in {st['span_s']} s, {who}: {', '.join(st['cases'])}): the close time says nothing about a fix"))
    if tm["before_merge"]:
        traps.append(_t(lang, "关单早于合入 " + _j(lang, [f"{b['case']}（早 {human_lag(b['lag_s'], lang)}）" for b in tm["before_merge"]]) + "，不倒填",
                        "closed before the merge: " + _j(lang, [f"{b['case']} ({human_lag(b['lag_s'], lang)} early)" for b in tm["before_merge"]]) + ", never back-filled"))
    dist = _j(lang, [f"{k} {v}" for k, v in tm["by_timing"].items()])
    traps.append(_t(lang, f"时序分布：{dist}", f"timing classes: {dist}"))
    items.append({"label": _t(lang, "时序陷阱实录", "Timing traps"),
                  "text": ("；" if lang == "zh" else "; ").join(traps) + ("。" if lang == "zh" else ".")})
    by_reason = defaultdict(list)
    for d in dr["cases"]:
        by_reason[d["reason"]].append(d["case"])
    drops = _j(lang, [f"{REASON_TEXT.get(r, (r, r))[0 if lang == 'zh' else 1]} {len(v)}（{_j(lang, v)}）" if lang == "zh"
                      else f"{REASON_TEXT.get(r, (r, r))[1]} {len(v)} ({', '.join(v)})" for r, v in sorted(by_reason.items())])
    items.append({"label": _t(lang, "诚实弃收", "Honest drops"), "text": _t(
        lang, f"深析层弃 {dr['count']} 条" + (f"——{drops}" if drops else "") + "。",
        f"{dr['count']} dropped by deep analysis" + (f": {drops}" if drops else "") + ".")})
    top = _j(lang, [b["title"] or b["case"] for b in bl["top"]])
    items.append({"label": _t(lang, "候选统计与余量", "Backlog"), "text": _t(
        lang, f"有效池 {f['pool']} 条本轮深析 {f['analysed']} 条，余 {bl['count']} 条留待后续" + (f"，价值靠前：{top}" if top else "") + "。",
        f"Of a pool of {f['pool']}, {f['analysed']} were analysed; {bl['count']} wait for a later digest" + (f"; highest value: {top}" if top else "") + ".")})
    ab = _j(lang, [f"{k} {v}" for k, v in an["by_backend"].items()])
    llm_bits = ""
    if an["llm_fallbacks"] or an["tokens"]:
        tok = an["tokens"] or {}
        llm_bits = _t(lang, f"；LLM 失败回退离线 {an['llm_fallbacks']} 条", f"; {an['llm_fallbacks']} fell back to offline after an LLM failure")
        if tok:
            llm_bits += _t(lang, f"，tokens 输入 {tok.get('prompt', 0)} / 输出 {tok.get('completion', 0)}",
                           f", tokens in {tok.get('prompt', 0)} / out {tok.get('completion', 0)}")
        if an["cost"] is not None:
            llm_bits += _t(lang, f"，成本 {an['cost']}", f", cost {an['cost']}")
        if an["cache_hits"]:
            llm_bits += _t(lang, f"，缓存命中 {an['cache_hits']}", f", cache hits {an['cache_hits']}")
        gr = an.get("grounding") or {}
        if gr.get("checked"):
            llm_bits += _t(
                lang, f"；事实核对 {gr['checked']} 条（标识符、数字、版本、PR 须见于所给材料）：返修后通过 {gr['repaired']} 条，"
                      f"删去无据陈述 {gr['claims_dropped']} 条",
                f"; grounding checked {gr['checked']} rows (identifiers, numbers, versions and PRs must appear in the "
                f"material given): {gr['repaired']} passed after one repair, {gr['claims_dropped']} had unfounded claims removed")
    items.append({"label": _t(lang, "分析方式", "Analysis"), "text": _t(
        lang, f"深析 worker：{ab or '无'}{llm_bits}。", f"Analysis workers: {ab or 'none'}{llm_bits}.")})
    for item in items:
        said: list[str] = []
        item["text"] = mark_runs(item["text"], lang, said)
        item["untranslated"] = said
    return items


def digest_links(cases: list[Case], ref: Refs) -> dict[str, str]:
    """Labels the digest's own sentences use → web page: every analysed case by its short name
    (`infer-serve#31`) and its PRs by their labels (`!57`), for the themes' paragraphs and the
    methods. A PR label that would point at two pages (the same number in two repositories)
    links nowhere."""
    out: dict[str, str] = {}
    seen: dict[str, set[str]] = defaultdict(set)
    for c in cases:
        if c.funnel not in ("selected", "analysis"):
            continue
        if safe_url(c.url):
            out[ref(c)] = safe_url(c.url)
        for label, url in pr_links(c).items():
            seen[label].add(url)
    out.update({label: next(iter(urls)) for label, urls in seen.items() if len(urls) == 1 and label not in out})
    return out


def _row(c: Case, ref: Refs, lang: str) -> dict[str, Any]:
    """A table row: the problem and the analyst's words as written (quoted in the other language),
    the pipeline's facts in `lang`."""
    said: list[str] = []
    problem = quote(c.problem or c.title, lang, said)
    answer = answer_of(c, lang, said)
    if answer is None:   # an export from before the analysts' words were kept apart
        answer = quote(answer_in(c, lang), lang, said)
    return {"ref": f"#{c.number}", "case": ref(c), "url": safe_url(c.url), "problem": problem,
            "answer": answer, "prose": without_kb(answer, c), "untranslated": said}


def build_digest(cases: list[Case], run: dict | None = None, lang: str = "zh", figures: dict | None = None) -> dict[str, Any]:
    run = run or {}
    fig = figures or compute_figures(cases, run)
    ref = Refs(cases)
    kept = [c for c in cases if c.funnel == "selected"]
    per_repo: dict[str, list[Case]] = defaultdict(list)
    for c in kept:
        per_repo[c.repo].append(c)
    order = sorted(per_repo, key=lambda r: (-len(per_repo[r]), r))
    themes = _themes(kept, ref, lang)
    descriptions = run.get("repo_descriptions") or {}
    repo_web = run.get("repo_web") or {}
    overview, repos = [], []
    for repo in order:
        cs = sorted(per_repo[repo], key=lambda c: c.number)
        topics = _repo_words(cs, ref)
        said: list[str] = []
        positioning = quote(descriptions.get(repo) or "", lang, said) or _t(
            lang, f"关键词：{_j(lang, topics)}", "keywords: " + ", ".join(quote(w, lang, said) for w in topics))
        overview.append({"repo": ref.repo(repo), "full_name": repo, "positioning": positioning, "count": len(cs),
                         "untranslated": said})
        chains = sum(1 for c in cs if c.timing in AUTO_CLOSE_TIMINGS)
        bps = sum(1 for c in cs for f in c.fix if f.role == "backport")
        pending = sum(1 for c in cs if "fix_not_landed" in c.traps)
        n_themes = len({c.theme for c in cs})
        bits = [_t(lang, f"{len(cs)} 案 {n_themes} 个主题",
                   f"{len(cs)} case{'s' if len(cs) > 1 else ''} in {n_themes} theme{'s' if n_themes > 1 else ''}")]
        if chains:
            bits.append(_t(lang, f"{chains} 条合入即关单", f"{chains} closed by the merge"))
        if bps:
            bits.append(_t(lang, f"{bps} 个 backport", f"{bps} backport{'s' if bps > 1 else ''}"))
        if pending:
            bits.append(_t(lang, f"{pending} 案修复未落地", f"{pending} fix not landed"))
        repos.append({"repo": ref.repo(repo), "full_name": repo, "untranslated": list(said),
                      "heading": f"{ref.repo(repo)}（{positioning}）" if lang == "zh" else f"{ref.repo(repo)} ({positioning})",
                      "subtitle": ("，" if lang == "zh" else ", ").join(bits),
                      "rows": [_row(c, ref, lang) | {
                                "links": pr_links(c), "kb": kb_cites(c, repo_web),
                                "kb_refs": [k.to_export() for k in c.kb_refs],
                                "analysed_by": c.analysed_by} for c in cs]})
    return {
        "lang": lang,
        "title": _title(cases, run, fig, lang),
        "headings": {
            "overview": _t(lang, "总览", "Overview"),
            "overview_cols": [_t(lang, "仓库", "Repository"), _t(lang, "定位", "Positioning"), _t(lang, "收录条数", "Cases")],
            "table_cols": [_t(lang, "编号", "No."), _t(lang, "Issue 问题内容", "Issue"), _t(lang, "解答总结", "Answer")],
            "themes": _t(lang, f"组合解读：这 {len(kept)} 条里的共性规律", f"Themes: what the {len(kept)} cases have in common"),
            "guide": _t(lang, "排错指引（从这批 issue 提炼）", "Troubleshooting guide (from these issues)"),
            "guide_cols": [_t(lang, "症状", "Symptom"), _t(lang, "第一优先动作", "First action"), _t(lang, "本篇相关案例", "Cases")],
            "disclosure": _t(lang, "考据与口径披露", "Methods and disclosure"),
            "quotes": _t(lang, "", f"Text marked {QUOTE_MARK} is quoted from the issues in Chinese and left untranslated "
                                   "(no translation backend ran); everything else is written in English."),
        },
        "overview": overview,
        "charts": [funnel_chart(fig["funnel"], lang), timing_chart(fig["timing"]["by_timing"], lang),
                   repo_chart(overview, lang)],
        "repos": repos,
        "themes": themes,
        "guide": _guide(kept, ref, order, lang),
        "links": digest_links(cases, ref),
        "disclosure": _disclosure(fig, run, lang),
    }
