"""The digest's methods-and-disclosure section (考据与口径披露): scope and funnel, knowledge-base
checks, the merge rule and special carriers, evidence tiers, timing traps, drops, backlog and how
the rows were written. Every number is read from `compute_figures`."""

from __future__ import annotations

from collections import defaultdict

from fixlore.compose.figures import stage_summary
from fixlore.compose.gaps import (closing_refs_note, deleted_note, items_note, unread_repos, unreadable_note, without_issues,
                                  without_issues_note)
from fixlore.compose.language import mark_runs
from fixlore.compose.wording import date as _date, j as _j, t as _t
from fixlore.core.enums import EvidenceKind
from fixlore.core.units import human_lag
from fixlore.wording.facts import format_lag, note_in

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
    "fix_unknown": ("修复未知（材料未能读全）", "fix unknown (part of the thread could not be read)"),
    "unspecified": ("未注明", "unspecified"),
}
# the timing classes, PR states and analysis backends as a reader of each language names them
TIMING_TEXT = {
    "same_second": ("合入同秒关单", "closed in the merge's second"),
    "auto_close": ("合入后数分钟内自动关单", "closed automatically within minutes of the merge"),
    "minutes": ("合入后一小时内关单", "closed within the hour"),
    # who closed is not known from timing alone (a bot may close a day after the merge): the lag is
    "later": ("合入一小时后关单", "closed over an hour after the merge"),
    "stale": ("stale 流程关单", "closed by a stale process"),
    "before_merge": ("关单早于合入", "closed before the merge"),
    "no_fix": ("无代码修复", "no code fix"),
    "not_landed": ("关单时修复未落地", "closed before the fix landed"),      # figures.timing_class
}
STATE_TEXT = {"closed": ("已关闭", "closed unmerged"), "open": ("仍开启", "still open"),
              "unknown": ("状态未知", "state unknown")}
BACKEND_TEXT = {"offline": ("离线规则", "offline rules")}


def named(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    pair = table.get(key)
    return (pair[0] if lang == "zh" else pair[1]) if pair else key


CARRIER_TEXT = {
    "fix_not_landed": ("已解决关单但修复未落地", "resolved but the fix never landed"),
    "claimed_unmerged": ("评论称已合入的 PR 实为关闭未合入", "a PR cited as merged was closed unmerged"),
    "linked_unrelated": ("页面关联的已合入 PR 与本单无关", "a linked merged PR is unrelated"),
    "closed_before_merge": ("关单早于修复合入，不倒填", "closed before the fix merged, not back-filled"),
}



def _fallback_note(check: dict, lang: str, what_zh: str, what_en: str) -> str:
    """What fell back because the model endpoint failed: "the passage check failed for 14 of 14
    cases (endpoint down 12, timeout 2) ...", with the endpoint that stopped answering, if one did."""
    if not check or not check.get("failed"):
        return ""
    why = ", ".join(f"{k} {v}" for k, v in sorted((check.get("failures") or {}).items()))
    down = check.get("endpoint_down") or {}
    return _t(lang, f"模型核对引文 {check['cases']} 例中 {check['failed']} 例失败" + (f"（{why}）" if why else "")
              + (f"，模型端点 {down['host']} 停止应答后不再询问" if down else "") + f"，{what_zh}",
              f" The model's passage check failed for {check['failed']} of {check['cases']} cases"
              + (f" ({why})" if why else "") + (f"; the model endpoint {down['host']} stopped answering "
                                                f"({down['reason']}) and was not asked again" if down else "")
              + f"; {what_en}.")


def _endpoint_note(an: dict, lang: str) -> str:
    down = an.get("endpoint_down") or {}
    if not down:
        return ""
    return _t(lang, f"；模型端点 {down['host']} 停止应答，熔断后余下案例不再询问、直接离线分析",
              f"; the model endpoint {down['host']} stopped answering ({down['reason']}): the breaker opened and "
              f"the remaining cases went to the offline analyst without asking it")


def _stale_closes(tm: dict, lang: str) -> str:
    """The stale closes, those after the real fix (with their lag) apart from those whose fix never
    merged: a close without a landed fix is not "late"."""
    late = [s for s in tm["stale"] if s["lag_s"] is not None]
    # each lag reads as the case's row reads it ("stale 关单，晚于合入 9 天", `format_lag`): a reader who
    # meets "晚 8 天 23 小时" here and "9 天" in the row sees two figures for one fact (ascend-2026-09)
    lag = lambda s: format_lag(s["lag_s"], lang == "zh")  # noqa: E731
    never = [s["case"] for s in tm["stale"] if s["lag_s"] is None]
    zh = [f"{len(late)} 条晚于真实修复（" + _j(lang, [f"{s['case']} 晚 {lag(s)}" for s in late]) + "）"] if late else []
    en = [f"{len(late)} after the real fix (" + _j(lang, [f"{s['case']} {lag(s)} late" for s in late]) + ")"] if late else []
    if not never:                    # all late: said once
        return _t(lang, f"stale 关单 {len(late)} 条，均晚于真实修复（{zh[0].split('（', 1)[1]}；判据回到 PR 的合入时间",
                  f"stale closes: {len(late)}, all after the real fix ({en[0].split('(', 1)[1]}; the PR's merge time is what counts")
    zh.append(f"{len(never)} 条修复未合入（{_j(lang, never)}）")
    en.append(f"{len(never)} whose fix never merged ({', '.join(never)})")
    return _t(lang, f"stale 关单 {len(tm['stale'])} 条：{'，'.join(zh)}；判据回到 PR 的合入时间",
              f"stale closes: {len(tm['stale'])}: {'; '.join(en)}; the PR's merge time is what counts")


def _stale_reconciled(tm: dict, lang: str) -> str:
    """Why the stale closes listed and the stale timing class differ: a stale close whose fix never
    merged is timed "no code fix", one not published is not in the published distribution."""
    published = (tm.get("by_timing_published") or tm["by_timing"]).get("stale", 0)
    other = [s for s in tm["stale"] if s.get("published", True) and s.get("timing", "stale") != "stale"]
    unpublished = [s for s in tm["stale"] if not s.get("published", True)]
    bits = [_t(lang, f"{s['case']} 时序记为{named(TIMING_TEXT, s.get('timing', ''), lang)}",
               f"{s['case']} is timed {named(TIMING_TEXT, s.get('timing', ''), lang)}") for s in other]
    if unpublished:
        bits.append(_t(lang, f"{_j(lang, [s['case'] for s in unpublished])} 未入选",
                       f"{', '.join(s['case'] for s in unpublished)} not published"))
    if not bits:
        return _t(lang, f"上述 stale 关单即时序分布中的 stale {published} 条",
                  f"these stale closes are the {published} of the stale timing class below")
    return _t(lang, f"上述 stale 关单 {len(tm['stale'])} 条中，{_j(lang, bits)}，故时序分布中 stale 为 {published} 条",
              f"of the {len(tm['stale'])} stale closes above, {'; '.join(bits)}, so the timing classes below count "
              f"{published} stale")
_OVERRIDE_KINDS = {"keep": ("保留", "kept"), "drop": ("剔除", "dropped"), "fix": ("改定修复 PR", "fix named"),
                   "not_fix": ("否认修复 PR", "fix rejected"), "theme": ("改定主题", "theme set")}


def _removed_zh(claim: str) -> str:
    """"!1008: credited as the fix, not this issue's" in the Chinese disclosure's words."""
    what, _, why = claim.partition(": ")
    return f"{what}（" + ("被写成修复，但链接不认其为本 issue 的修复" if why.startswith("credited") else "材料中没有") + "）"


def _editors_note(run: dict, lang: str) -> str:
    """The editors' corrections the run applied, by kind, and the value weights learned from
    their decisions (a series edition), from run.json; "" when neither."""
    parts = []
    ov = run.get("overrides") or {}
    if ov:
        n: dict[str, int] = {}
        for a in ov.get("applied") or []:
            n[a["kind"]] = n.get(a["kind"], 0) + 1
        kinds = [f"{_OVERRIDE_KINDS[k][0 if lang == 'zh' else 1]} {v}" for k, v in n.items() if k in _OVERRIDE_KINDS]
        unknown = len(ov.get("unknown") or [])
        parts.append(_t(lang, f"编辑更正文件 {ov.get('entries', 0)} 条，本期施用 {sum(n.values())} 处"
                        + (f"（{'，'.join(kinds)}）" if kinds else "") + (f"；{unknown} 条所指案例不在本期运行中" if unknown else "") + "。",
                        f"The editors' overrides file holds {ov.get('entries', 0)} entries; {sum(n.values())} changes applied"
                        + (f" ({', '.join(kinds)})" if kinds else "") + (f"; {unknown} name no case of this run" if unknown else "") + "."))
    learned = run.get("value_weights") or {}
    if "gate" in learned:                  # `fixlore run --value-weights`: say what the weights did to the cut
        parts.append(_weights_note(learned, lang))
    elif learned.get("decisions"):
        parts.append(_t(lang, f"价值权重学自 {learned['decisions']} 个编辑决定（逻辑回归，留出集 AUC {learned.get('heldout_auc', '—')}）。",
                        f"Value weights learned from {learned['decisions']} editors' decisions (logistic regression, "
                        f"held-out AUC {learned.get('heldout_auc', '—')})."))
    return "".join(parts) if lang == "zh" else " ".join(parts)


def _weights_note(learned: dict, lang: str) -> str:
    """The value weights a run was given (`fixlore weights learn`), and whether their check
    let them cut the pool (the gate) or only rank it."""
    check = learned.get("check") or {}
    splits = "/".join(learned.get("splits") or []) or "?"
    counts = (f"{check['gate']} / {check['default']} / {check.get('rows', '?')}" if "gate" in check else "")
    left = (learned.get("pool") or 0) - (learned.get("analysed") or 0)
    cut_zh, cut_en = (f"，{left} 条被截下", f", {left} were cut") if "pool" in learned else ("", "")
    if learned.get("gate"):
        return _t(lang, f"本期候选池按学得价值权重（学自 {learned.get('decisions', '—')} 个编辑决定，{splits} 划分，逻辑回归）排序并截断："
                        f"学得概率 ≥ {learned.get('threshold', 0.5)} 者送深析{cut_zh}；该截断经 {splits} 划分自检"
                        f"（门控 / 默认 / 总行数 = {counts}）优于默认截断才启用。",
                  f"The pool was ranked and cut by value weights learned from {learned.get('decisions', '—')} editors' "
                  f"decisions ({splits} split, logistic regression): cases of learned probability ≥ "
                  f"{learned.get('threshold', 0.5)} went to deep analysis{cut_en}; the gate is used because "
                  f"its check on the {splits} split (rows agreeing, gate / default / all: {counts}) favoured it.")
    why = (f"该文件对门控的 {splits} 划分自检（门控 / 默认 / 总行数 = {counts}）未优于默认截断" if counts else "该文件未含门控自检")
    why_en = (f"its check on the {splits} split (rows agreeing, gate / default / all: {counts}) did not favour the gate"
              if counts else "the file holds no check of the gate")
    return _t(lang, f"本期候选池按学得价值权重（学自 {learned.get('decisions', '—')} 个编辑决定，逻辑回归）排序，未按其截断：{why}。",
              f"The pool was ranked by value weights learned from {learned.get('decisions', '—')} editors' decisions "
              f"(logistic regression), not cut by them: {why_en}.")


def disclosure(fig: dict, run: dict, lang: str, editorial: str = "") -> list[dict[str, str]]:
    f, kb, mg, car, ev, tm, dr, bl, an = (fig[k] for k in ("funnel", "kb", "merge", "carriers", "evidence", "timing",
                                                          "drops", "backlog", "analysis"))
    win = fig["window"]
    since = win["since"] or win["first_close"]
    walked = fig["api"].get("repos") or f["repos"]   # repos walked by the harvest, else repos with cases
    # a repo whose issue list failed is not counted as read, nor one whose issues are disabled
    repos = walked - len(unread_repos(fig["api"]) | without_issues(fig["api"]))
    value_min = (stage_summary(run, "link").get("funnel") or {}).get("value_min")
    learned = run.get("value_weights") or {}
    if learned.get("gate"):
        cut_zh, cut_en = (f"取学得概率 ≥ {learned.get('threshold', 0.5)} 者 {f['analysed']:,} 条",
                          f"the {f['analysed']:,} of learned probability ≥ {learned.get('threshold', 0.5)}")
    elif "gate" in learned and value_min is None:
        cut_zh, cut_en = f"按学得概率取头部 {f['analysed']:,} 条", f"the top {f['analysed']:,} by learned probability"
    elif value_min is None:
        cut_zh, cut_en = f"按价值取头部 {f['analysed']:,} 条", f"the top {f['analysed']:,} by value"
    else:
        cut_zh, cut_en = (f"取价值 ≥ {value_min:.2f} 者 {f['analysed']:,} 条",
                          f"the {f['analysed']:,} of value ≥ {value_min:.2f}")
    items = []
    items.append({"label": _t(lang, "增量口径", "Scope and funnel"), "text": _t(
        lang,
        f"{repos} 仓，窗口起点 {_date(since)}（按关单时间判定，近期有更新但关单更早者不计）：共考察 {f['considered']:,} 条，"
        f"窗口内关单 {f['closed_in_window']:,} 条（窗口外 {f['by_stage']['window']:,} 条）；排除未解决 {f['unresolved']:,}、内部单 {f['internal']:,}、"
        f"CVE {f['cve']:,}、空标题 {f['empty_title']:,} 后，已解决×用户侧 {f['resolved_user_side']:,} 条；再排 {f['noise']:,} 条模板刷屏后有效池 "
        f"{f['pool']:,} 条；{cut_zh}深析，留 {f['kept']:,} 条入选、弃 {f['dropped']:,} 条。",
        f"{repos} repositories, window from {_date(since)} (by close time, not by last update): {f['considered']:,} issues considered, "
        f"{f['closed_in_window']:,} closed in the window ({f['by_stage']['window']:,} outside); after removing unresolved {f['unresolved']:,}, "
        f"internal {f['internal']:,}, CVE {f['cve']:,} and empty titles {f['empty_title']:,}, {f['resolved_user_side']:,} resolved user-side issues; "
        f"{f['noise']:,} template-flood issues removed leaves a pool of {f['pool']:,}; {cut_en} were analysed "
        f"in depth: {f['kept']:,} kept, {f['dropped']:,} dropped.") + unreadable_note(fig["api"], walked, lang)
        + without_issues_note(fig["api"], walked, lang) + closing_refs_note(fig["api"], lang)
        + deleted_note(fig["api"], lang)})
    if (partly := items_note(fig.get("unread") or {}, lang)):
        items.append({"label": _t(lang, "逐条未读全", "Read in part"), "text": partly})
    scores = [r["score"] for r in kb["cases"]] or [0.0]
    low, high = min(scores), max(scores)
    kb_list = _j(lang, [f"{r['case']}→{r['doc'].split('/')[-1]}" for r in kb["cases"]])   # scores: digest.json
    items.append({"label": _t(lang, "KB 核实", "Knowledge base"), "text": _t(
        lang,
        f"{kb['rows']} 行中 {kb['with_refs']} 行挂知识库文档" + (f"（{kb_list}）" if kb_list else "")
        + (f"，所挂文档相似度 {low:.3f}~{high:.3f}" if kb["cases"] else "")
        + ((f"；{kb['without_refs']} 行无高于阈值的命中，留空。" if kb.get("searched", True)
            else f"；本次运行没有文档可检索（未建文档索引），{kb['without_refs']} 行未做文档检索。")
           if kb["without_refs"] else "。"),
        f"{kb['with_refs']} of {kb['rows']} rows cite a knowledge-base document" + (f" ({kb_list})" if kb_list else "")
        + (f", the documents cited scoring {low:.3f} to {high:.3f}" if kb["cases"] else "")
        + ((f"; {kb['without_refs']} rows had no passage above the threshold and are left empty." if kb.get("searched", True)
            else f"; this run had no documents to search (no document index), so {kb['without_refs']} rows were not "
                 "searched against documents.") if kb["without_refs"] else "."))
        + _fallback_note(kb.get("check") or {}, lang, "这些例沿用阈值命中。", "they keep the threshold's references")})
    carriers, elsewhere = [], []
    for trap, (zh, en) in CARRIER_TEXT.items():
        shown = [x for x in car[trap] if x.get("funnel", "selected") == "selected"]
        if shown:
            names = _j(lang, [x["case"] + note_in(x["note"], lang == "zh", x.get("own_fix", ())) for x in shown])
            carriers.append(_t(lang, f"{zh} {len(shown)} 例：{names}", f"{en}: {len(shown)} ({names})"))
        elsewhere += [(x["case"], zh, en) for x in car[trap] if x.get("funnel", "selected") != "selected"]
    n_carriers = sum(1 for v in car.values() for x in v if x.get("funnel", "selected") == "selected")
    unpublished = "" if not elsewhere else _t(
        lang, "未入选的深析案例另有 " + _j(lang, [f"{c}（{zh}）" for c, zh, _ in elsewhere]) + "，见“诚实弃收”。",
        " Among the analysed cases not published: " + "; ".join(f"{c} ({en})" for c, _, en in elsewhere) + " (see the drops).")
    mg = fig.get("merge_published") or mg
    nm = _j(lang, [f"{named(STATE_TEXT, k, lang)} {v}" for k, v in mg["not_merged"].items()]) or "0"
    audit = tm["audit"]
    audit_txt = ""
    if audit["checked"]:
        reused, since = audit.get("reused", 0), audit.get("reused_since", "")
        audit_txt = _t(lang, f"抽 {audit['checked']} 条时序断言对 API 复核，通过 {audit['passed']} 条"
                       + (f"（未通过：{_j(lang, audit['failed'])}）" if audit["failed"] else "")
                       + (f"（其中 {audit['unpublished']} 条未入选）" if audit.get("unpublished") else "")
                       + (f"（其中 {reused} 条沿用前次运行{' ' + since + ' ' if since else ''}的复核：本次列表显示其 issue 与 PR 此后未更新）"
                          if reused else "") + "。",
                       f" {audit['checked']} timing claims re-checked against the API, {audit['passed']} confirmed"
                       + (f" (failed: {_j(lang, audit['failed'])})" if audit["failed"] else "")
                       + (f" ({audit['unpublished']} of them not published)" if audit.get("unpublished") else "")
                       + (f" ({reused} of them checked by an earlier run{' on ' + since if since else ''}: this run's "
                          f"listing shows their issue and PR not updated since)" if reused else "") + ".")
    items.append({"label": _t(lang, "PR 合并判定", "Merge rule"), "text": _t(
        lang,
        f"PR 是否合入，一律以其状态为已合并且记有合入时间为准（平台的 merged 字段不可用）。入选 {f['kept']} 条共引用修复 PR {mg['fix_refs']} 个："
        f"合入 {mg['merged']}，未合入 {nm}。"
        + (f"其中 {mg['closed_with_merged_at']} 个状态为已关闭但记有合入时间（自动合入后标记关闭），按合入计。"
           if mg.get("closed_with_merged_at") else "") + f"特殊载体 {n_carriers} 例" + (f"——{'；'.join(carriers)}" if carriers else "") + "。"
        + unpublished + audit_txt,
        f"A PR counts as merged only when its state is merged and it records a merge time (the platform's merged "
        f"field is not used). "
        f"The {f['kept']} published cases cite {mg['fix_refs']} fix PRs: {mg['merged']} merged, not merged: {nm}. "
        + (f"{mg['closed_with_merged_at']} of the merged read closed yet record a merge time (auto-merged MRs "
           f"marked closed) and count as merged. " if mg.get("closed_with_merged_at") else "")
        + f"Special carriers: {n_carriers}" + (f" — {'; '.join(carriers)}" if carriers else "") + "." + unpublished + audit_txt)})
    ch = ev["auto_close_chains"]
    tiers = []
    if ch["count"]:
        tiers.append(_t(lang, f"合入即关单链 {ch['count']} 条（同秒 {ch['same_second']} 条，最长差 {human_lag(ch['max_lag_s'], lang)}：{_j(lang, ch['cases'])}）",
                        f"closed by the merge: {ch['count']} ({ch['same_second']} in the same second, longest gap {human_lag(ch['max_lag_s'], lang)}: {_j(lang, ch['cases'])})"))
    if ev["minutes"]:
        tiers.append(_t(lang, f"分钟级 {len(ev['minutes'])} 条（{_j(lang, [m['case'] + ' ' + human_lag(m['lag_s'], lang) for m in ev['minutes']])}）",
                        f"within the hour: {len(ev['minutes'])} ({_j(lang, [m['case'] + ' ' + human_lag(m['lag_s'], lang) for m in ev['minutes']])})"))
    if ev["one_pr_many_issues"]:
        tiers.append(_t(lang, "一 PR 多单 " + _j(lang, [f"{m['pr']} 修 {_j(lang, m['cases'])}"
                                                  + (f"（{_j(lang, m['unpublished'])} 未入选）" if m.get("unpublished") else "")
                                                  for m in ev["one_pr_many_issues"]]),
                        "one PR, many issues: " + _j(lang, [f"{m['pr']} fixed {' and '.join(m['cases'])}"
                                                            + (f" ({', '.join(m['unpublished'])} not published)" if m.get("unpublished") else "")
                                                            for m in ev["one_pr_many_issues"]])))
    if ev["backports"]:
        tiers.append(_t(lang, f"backport {len(ev['backports'])} 例（" + _j(lang, [f"{b['case']} {b['pr']}→{b['branch'] or '?'}" for b in ev["backports"]]) + "）",
                        f"backports: {len(ev['backports'])} (" + _j(lang, [f"{b['case']} {b['pr']}→{b['branch'] or '?'}" for b in ev["backports"]]) + ")"))
    if ev["branch_names"]:
        tiers.append(_t(lang, "分支名实锤 " + _j(lang, [f"{b['case']}（{(b['pr'] + ' 的') if b.get('pr') else ''}源分支 {b['branch']} 含 #{b['issue']}）"
                                                     if b.get("branch") else f"{b['case']}（{b['detail']}）" for b in ev["branch_names"]]),
                        "branch names: " + _j(lang, [f"{b['case']} ({b['detail']})" for b in ev["branch_names"]])))
    for kind, zh, en in ((EvidenceKind.KEYWORD, "PR/提交显式关键字", "closing keywords"),
                         (EvidenceKind.LINKED, "平台关联核对", "platform links checked"),
                         (EvidenceKind.COMMENT, "评论引用 PR", "comments citing the PR"),
                         (EvidenceKind.ANSWER, "评论解答/官方口径", "official answers")):
        if kind in ev["by_kind"]:
            k = ev["by_kind"][kind]
            tiers.append(_t(lang, f"{zh} {k['count']} 条（{_j(lang, k['cases'])}）", f"{en}: {k['count']} ({_j(lang, k['cases'])})"))
    items.append({"label": _t(lang, "关联依据分层", "Evidence tiers"),
                  "text": ("；" if lang == "zh" else "; ").join(tiers) + ("。" if lang == "zh" else ".") if tiers
                  else _t(lang, "入选案例无关联证据。", "No kept case carries link evidence.")})
    traps = []
    if tm["stale"]:
        traps.append(_stale_closes(tm, lang))
        traps.append(_stale_reconciled(tm, lang))
    for st in tm["close_storms"]:
        who = _j(lang, st["actors"]) or (st["notes"][0] if st["notes"] else _t(lang, "同一操作者", "one actor"))
        off = st.get("unpublished") or []
        traps.append(_t(lang, f"关单风暴 {st['start'][:10]} {st['start'][11:19]}~{st['end'][11:19]}（{st['span_s']} 秒内 {st['count']} 单，{who}：{_j(lang, st['cases'])}"
                              + (f"，其中 {_j(lang, off)} 未入选" if off else "") + "），关单时刻不说明修复",
                        f"close storm {st['start'][:10]} {st['start'][11:19]}–{st['end'][11:19]} ({st['count']} issues in {st['span_s']} s, {who}: {', '.join(st['cases'])}"
                        + (f"; {', '.join(off)} not published" if off else "") + "): the close time says nothing about a fix"))
    if tm["before_merge"]:
        traps.append(_t(lang, "关单早于合入 " + _j(lang, [f"{b['case']}（早 {human_lag(b['lag_s'], lang)}" + ("，未入选" if not b.get("published", True) else "") + "）"
                                                       for b in tm["before_merge"]]) + "，不倒填",
                        "closed before the merge: " + _j(lang, [f"{b['case']} ({human_lag(b['lag_s'], lang)} early" + (", not published" if not b.get("published", True) else "") + ")"
                                                                for b in tm["before_merge"]]) + ", never back-filled"))
    published = tm.get("by_timing_published") or tm["by_timing"]
    dist = _j(lang, [f"{named(TIMING_TEXT, k, lang)} {v}" for k, v in sorted(published.items(), key=lambda kv: (-kv[1], kv[0]))])
    traps.append(_t(lang, f"入选 {sum(published.values())} 条的时序分布：{dist}",
                    f"timing of the {sum(published.values())} published cases: {dist}"))
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
    per_repo = list((bl.get("per_repo") or {}).items())
    shown = _j(lang, [f"{r} {n}" for r, n in per_repo[:8]])
    rest = sum(n for _, n in per_repo[8:])
    more = _t(lang, f"，其余 {len(per_repo) - 8} 仓 {rest} 条", f", {rest} in {len(per_repo) - 8} other repositories") if rest else ""
    items.append({"label": _t(lang, "候选统计与余量", "Backlog"), "text": _t(
        lang, f"有效池 {f['pool']} 条本轮深析 {f['analysed']} 条，余 {bl['count']} 条留待后续" + (f"，按仓：{shown}{more}" if shown else "") + "。",
        f"Of a pool of {f['pool']}, {f['analysed']} were analysed; {bl['count']} wait for a later digest" + (f", by repository: {shown}{more}" if shown else "") + ".")})
    ab = _j(lang, [f"{named(BACKEND_TEXT, k, lang)} {v}" for k, v in an["by_backend"].items()])
    llm_bits = ""
    if an["llm_fallbacks"] or an["tokens"]:
        tok = an["tokens"] or {}
        llm_bits = _t(lang, f"；LLM 失败回退离线 {an['llm_fallbacks']} 条", f"; {an['llm_fallbacks']} fell back to offline after an LLM failure")
        why = sorted((an.get("llm_failures") or {}).items())
        if an["llm_fallbacks"] and why:      # which failures, so a reader can tell a timeout from a bad reply
            llm_bits += _t(lang, "（" + "、".join(f"{k} {v}" for k, v in why) + "）", " (" + ", ".join(f"{k} {v}" for k, v in why) + ")")
        llm_bits += _endpoint_note(an, lang)
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
        removed = an.get("removed") or []
        if removed:     # what each row no longer says, so a reader can tell a short row from a cut one
            llm_bits += _t(lang, "（删去：" + "；".join(f"{r['case']} " + "、".join(_removed_zh(x) for x in r["claims"])
                                                     for r in removed) + "）",
                           " (removed: " + "; ".join(f"{r['case']} " + ", ".join(r["claims"]) for r in removed) + ")")
    if an.get("widened"):       # rows that run longer than the rest, and why the median did not move
        n, extra = len(an["widened"]), an.get("widen_chars") or 0
        llm_bits += _t(lang, f"；事实较多的 {n} 条解答放宽至多 {extra} 字（只放宽长度在中位以上的，中位不变：{_j(lang, an['widened'])}）",
                       f"; {n} answers with more facts were given up to {extra} more characters (only those above the "
                       f"median length, so the median does not move: {_j(lang, an['widened'])})")
    if an.get("widened_below"):  # rows below the middle: these move the median, within the bound
        n, extra, bound = len(an["widened_below"]), an.get("widen_chars") or 0, an.get("widen_bound") or 0
        llm_bits += _t(lang, f"；中位以下 {n} 条解答也放宽至多 {extra} 字（中位行仍不超过 {bound} 字：{_j(lang, an['widened_below'])}）",
                       f"; {n} answers below the median length were also given up to {extra} more characters (the "
                       f"median row stays within {bound} characters: {_j(lang, an['widened_below'])})")
    items.append({"label": _t(lang, "分析方式", "Analysis"), "text": _t(
        lang, f"深析方式：{ab or '无'}{llm_bits}；以上计的是深析的 {f['analysed']} 条（入选 {f['kept']}、弃 {f['dropped']}）。",
        f"Analysis workers: {ab or 'none'}{llm_bits}; counted over the {f['analysed']} analysed cases "
        f"({f['kept']} published, {f['dropped']} dropped).")})
    items.append({"label": _t(lang, "编辑与译文", "Editorial and translation"), "text": editorial or _t(
        lang, "主题标题与段落、仓库副标题与定位、排错指引由离线规则从案例共性写成（未配置模型）；英文版未翻译问题原文。",
        "Theme headlines and paragraphs, repository subtitles and positioning and the guide were worded offline "
        "from what the cases share (no model configured); the English digest leaves issue text untranslated, marked [zh].")})
    if (editors := _editors_note(run, lang)):
        items.append({"label": _t(lang, "编辑更正", "Editors' corrections"), "text": editors})
    for item in items:
        said: list[str] = []
        item["text"] = mark_runs(item["text"], lang, said)
        item["untranslated"] = said
    return items

