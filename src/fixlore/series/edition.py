"""An edition's files: the digest of its own cases, framed by the series (title with the edition
number, tagline and pointer for agents, update rows, the series' disclosure, the next-edition
line). ``build_files`` is a function of what the ledger stores (the inputs and the rows as
published), so rebuilding an edition from the ledger gives the same bytes."""

from __future__ import annotations

import copy
import json
from typing import Any

from fixlore.compose.digest import build_digest
from fixlore.compose.gate import mark
from fixlore.compose.figures import Refs, compute_figures
from fixlore.compose.render import html, markdown, safe_url, to_json
from fixlore.core.enums import FunnelStage
from fixlore.core.model import Case
from fixlore.series.model import Series, zh_number
from fixlore.series.plan import change_text, next_edition_line

LANGS = ("zh", "en")
FILES = ("digest.zh.md", "digest.en.md", "digest.html", "digest.json")


def _t(lang: str, zh: str, en: str) -> str:
    return zh if lang == "zh" else en


def edition_title(series: Series, edition: dict[str, Any], lang: str) -> str:
    n = int(edition["number"])
    since, until = (edition.get("since") or "")[:10], (edition.get("until") or "")[:10]
    focus = edition.get("focus") or {}
    what = "、".join([r.split("/")[-1] for r in focus.get("repos", [])] + list(focus.get("themes", [])))
    if lang == "zh":
        tail = f"{what} 专刊" if what else f"{until[:7]} 增量"
        return f"{series.title}（{zh_number(n)}）·{tail}"
    tail = f"special edition: {what.replace('、', ', ')}" if what else f"{since} to {until}"
    return f"{series.title} — No. {n} · {tail}"


def _header(series: Series, lang: str) -> str:
    bits = [series.tagline.strip()]
    if series.agent_pointer:
        bits.append(f"{series.agent_label or _t(lang, '接入', 'For agents:')} {series.pointer_text()}".strip())
    return " ".join(b for b in bits if b)


def _footer(series: Series, backlog: list[dict[str, Any]], lang: str, ref: Refs) -> list[str]:
    lines = []
    if series.agent_pointer:
        lines.append(f"{series.agent_label or _t(lang, '接入', 'For agents:')} {series.pointer_text()}".strip())
    lines.append(next_edition_line(backlog, lang, ref.repo))
    return lines


_ROLE_ORDER = {"new": 0, "considered": 0, "backlog": 1, "returned": 1, "update": 2}


def ordered_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The one order an edition's rows are built in (at publication and at every rebuild)."""
    return sorted(rows, key=lambda r: (_ROLE_ORDER.get(r["role"], 3), r["row"]["repo"], int(r["row"]["number"])))


def counts_of(rows: list[dict[str, Any]], inputs: dict[str, Any]) -> dict[str, int]:
    """The edition's own figures of where its rows came from and what waits after it."""
    prior = inputs.get("prior_backlog") or {}
    def n(role: str, funnel: str | None = None, published: bool | None = None) -> int:
        return sum(1 for r in rows if r["role"] == role and (funnel is None or r["row"].get("funnel") == funnel)
                   and (published is None or bool(r.get("published")) == published))
    return {
        "rows": sum(1 for r in rows if r.get("published")),
        "rows_new": n("new", published=True), "rows_backlog": n("backlog", published=True),
        "rows_update": n("update", published=True),
        "backlog_in": int(prior.get("count", 0)),
        "backlog_in_selected": n("backlog", FunnelStage.SELECTED),
        "backlog_in_dropped": n("backlog", FunnelStage.ANALYSIS),
        "backlog_in_waiting": n("backlog", FunnelStage.RANK),
        "backlog_in_left_pool": len(prior.get("left_pool", [])),
        "backlog_in_taken_elsewhere": len(prior.get("taken_elsewhere", [])),
        "backlog_in_outside": len(prior.get("outside", [])),
        "new_pool": n("new"), "new_waiting": n("new", FunnelStage.RANK),
        "backlog_out": len(inputs.get("backlog") or []),
        "returned": n("returned"), "rows_returned": n("returned", published=True),
        "returned_waiting": n("returned", "rank"),
    }


def _series_item(series: Series, edition: dict[str, Any], c: dict[str, int], lang: str) -> dict[str, str]:
    n = int(edition["number"])
    since, until = (edition.get("since") or "")[:10], (edition.get("until") or "")[:10]
    focus = edition.get("focus") or {}
    if lang == "zh":
        text = (f"本篇为《{series.title}》第 {n} 期，窗口 {since} ~ {until}（按关单时间）。本篇表格 {c['rows']} 行："
                f"新关单 {c['rows_new']} 行、来自往期余量 {c['rows_backlog']} 行、往期案例更新 {c['rows_update']} 行。"
                f"上期余量 {c['backlog_in']} 条：本期入选 {c['backlog_in_selected']}、深析弃 {c['backlog_in_dropped']}、"
                f"仍待续 {c['backlog_in_waiting']}、已出池 {c['backlog_in_left_pool']}、已由他期收录 {c['backlog_in_taken_elsewhere']}"
                + (f"、不在本专刊范围 {c['backlog_in_outside']}" if focus else "") + "；"
                + (f"往期深析弃而后有变、重回候选 {c['returned']} 条（入选 {c['rows_returned']}）；" if c.get("returned") else "")
                + f"本期余量 {c['backlog_out']} 条（本期新入池未深析 {c['new_waiting']} + 往期仍待续 {c['backlog_in_waiting']}"
                + (f" + 专刊范围外 {c['backlog_in_outside']}" if focus else "")
                + (f" + 重回候选未深析 {c['returned_waiting']}" if c.get("returned_waiting") else "") + "）。")
        if focus:
            text += "专刊范围：" + "、".join(list(focus.get("repos", [])) + list(focus.get("themes", []))) + "。"
        if series.orgs_out:
            text += "、".join(series.orgs_out) + " 组织本系列不采。"
        return {"label": "系列与本篇构成", "text": text}
    text = (f"Edition {n} of \"{series.title}\", window {since} to {until} (by close time). This edition's tables hold "
            f"{c['rows']} rows: {c['rows_new']} new closes, {c['rows_backlog']} from an earlier backlog, "
            f"{c['rows_update']} updates of cases published before. The previous backlog held {c['backlog_in']}: "
            f"{c['backlog_in_selected']} kept here, {c['backlog_in_dropped']} dropped by analysis, {c['backlog_in_waiting']} still "
            f"waiting, {c['backlog_in_left_pool']} left the pool, {c['backlog_in_taken_elsewhere']} taken by another edition"
            + (f", {c['backlog_in_outside']} outside this special edition" if focus else "") + "; "
            + (f"{c['returned']} cases dropped before are candidates again because they changed ({c['rows_returned']} kept); "
               if c.get("returned") else "")
            + f"the backlog now holds {c['backlog_out']} ({c['new_waiting']} new pool cases not analysed + "
            f"{c['backlog_in_waiting']} still waiting" + (f" + {c['backlog_in_outside']} outside the focus" if focus else "")
            + (f" + {c['returned_waiting']} returned, not analysed" if c.get("returned_waiting") else "") + ").")
    if focus:
        text += " Focus: " + ", ".join(list(focus.get("repos", [])) + list(focus.get("themes", []))) + "."
    if series.orgs_out:
        text += " Left out of this series: " + ", ".join(series.orgs_out) + "."
    return {"label": "Series and this edition", "text": text}


def _add_updates(d: dict[str, Any], updates: list[tuple[Case, dict[str, Any]]], ref: Refs, lang: str) -> None:
    """Update rows join their repository's table (a section of its own when the repo has no new case)."""
    by_repo = {r["full_name"]: r for r in d["repos"]}
    for case, change in sorted(updates, key=lambda u: (u[0].repo, u[0].number)):
        section = by_repo.get(case.repo)
        if section is None:
            section = {"repo": ref.repo(case.repo), "full_name": case.repo, "heading": ref.repo(case.repo),
                       "subtitle": _t(lang, "往期案例更新", "updates of cases published before"), "rows": []}
            by_repo[case.repo] = section
            d["repos"].append(section)
            d["overview"].append({"repo": ref.repo(case.repo), "full_name": case.repo,
                                  "positioning": section["subtitle"], "count": 0})
        section["rows"].append({"ref": f"#{case.number}", "case": ref(case), "url": safe_url(case.url),
                                "problem": case.problem or case.title,
                                "answer": _t(lang, "【更新】", "[Update] ") + change_text(change, lang),
                                "kb_refs": [], "analysed_by": "update"})
        for o in d["overview"]:
            if o["full_name"] == case.repo:
                o["count"] += 1


# Editions published since issue #24 say so in their inputs: their methods section counts over
# the edition's own window and scope. Earlier editions rebuild as they were published.
METHODS_OWN = "edition-window"


def own_run(run: dict[str, Any], edition: dict[str, Any]) -> dict[str, Any]:
    """The run summary as the edition's methods section reads it: the edition's window (not the
    series' span the pipeline ran over), and for a special edition on repos, those repos only."""
    run = dict(run)
    run["window"] = {"since": edition.get("since") or "", "until": edition.get("until") or ""}
    repos = [r.lower() for r in (edition.get("focus") or {}).get("repos", [])]
    if repos:
        stages = []
        for st in run.get("stages") or []:
            st = copy.deepcopy(st)
            if st.get("name") == "harvest" and isinstance(st.get("summary"), dict):
                summ = st["summary"]
                summ["repos"] = len(repos)
                for k in ("unreadable", "closing_refs_unread", "repos_without_issues"):
                    if isinstance(summ.get(k), list):
                        summ[k] = [u for u in summ[k] if not isinstance(u, dict)
                                   or str(u.get("repo") or "").lower() in repos]
            stages.append(st)
        run["stages"] = stages
    return run


def backlog_of(backlog: list[dict[str, Any]], ref: Refs, top: int = 5) -> dict[str, Any]:
    """The methods section's "what waits" figure from the edition's own backlog (the cases of its
    pool not analysed, plus, in a special edition, the earlier backlog outside its focus)."""
    from collections import Counter

    per_repo = Counter(ref.repo(b["repo"]) for b in backlog)
    best = sorted(backlog, key=lambda b: (-float(b.get("value") or 0), b["repo"], int(b["number"])))[:top]
    return {"count": len(backlog), "per_repo": dict(per_repo.most_common()),
            "top": [{"case": ref.repo(b["repo"]) + "#" + str(b["number"]), "title": b.get("title") or "",
                     "value": round(float(b.get("value") or 0), 3)} for b in best]}


def build_files(inputs: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, bytes]:
    """The edition's files from the ledger's inputs and rows ({role, published, row, change})."""
    series = Series.from_dict(inputs["series"])
    edition = inputs["edition"]
    cases = [Case.from_export(copy.deepcopy(r["row"])) for r in rows if r["role"] != "update"]
    updates = [(Case.from_export(copy.deepcopy(r["row"])), r.get("change") or {}) for r in rows if r["role"] == "update"]
    ref = Refs(cases + [u[0] for u in updates])
    counts = counts_of(rows, inputs)
    digests = {}
    run = copy.deepcopy(inputs.get("run") or {})
    own = inputs.get("methods") == METHODS_OWN
    if own:
        run = own_run(run, edition)
    figures = None
    for lg in LANGS:
        run["title"] = edition_title(series, edition, lg)
        figures = compute_figures(cases, run)
        if own:
            figures["backlog"] = backlog_of(inputs.get("backlog") or [], ref)
        d = build_digest(cases, run, lg, figures)
        _add_updates(d, updates, ref, lg)
        d["disclosure"].append(_series_item(series, edition, counts, lg))
        d["series"] = {"name": series.name, "edition": int(edition["number"]), "kind": edition.get("kind", "regular"),
                       "header": _header(series, lg), "footer": _footer(series, inputs.get("backlog") or [], lg, ref),
                       "counts": counts}
        digests[lg] = d
    if (inputs.get("check") or {}).get("found"):     # published marked (--on-findings mark)
        mark(digests, inputs["check"]["found"])
    files: dict[str, str] = {}
    for lg in LANGS:
        files[f"digest.{lg}.md"] = markdown(digests[lg])       # the templates frame it: tagline, footer
    files["digest.html"] = html([digests[lg] for lg in LANGS])
    kept = [c.to_export() for c in sorted(cases, key=lambda c: (c.repo, c.number))
            if c.funnel in (FunnelStage.SELECTED, FunnelStage.ANALYSIS)]
    doc = json.loads(to_json(digests, figures or {}, kept))
    doc["edition"] = {"series": series.name, **edition, "counts": counts,
                      "updates": [{"case": ref(c), "change": ch} for c, ch in updates],
                      "backlog": inputs.get("backlog") or []}
    files["digest.json"] = json.dumps(doc, ensure_ascii=False, indent=1, default=str)
    return {name: text.encode("utf-8") for name, text in files.items()}
