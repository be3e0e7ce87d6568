"""What the run could not read, as the disclosure says it: repositories whose issue list failed,
issues and PRs read in part (fixlore.rules.unread), closing references a platform would not give, and
issues this run found deleted on the platform (left out of every read from then on)."""

from __future__ import annotations

from collections import defaultdict

from fixlore.compose.wording import j as _j, t as _t


ISSUE_LIST = "/repos/{owner}/{repo}/issues"      # the endpoint whose failure leaves a repo unread


def unread_repos(api: dict) -> set[str]:
    """Repos whose issue list could not be read: not counted among the repos read."""
    return {fl["repo"] for fl in api.get("unreadable") or [] if fl.get("endpoint") == ISSUE_LIST}


def without_issues(api: dict) -> set[str]:
    """Repos whose issues are disabled (has_issues false, or a 410 Gone issue list): nothing to read there,
    so not counted among the repos read, and named."""
    return {x["repo"] for x in api.get("repos_without_issues") or []}


def without_issues_note(api: dict, repos: int, lang: str) -> str:
    """The repos walked whose issues are disabled, named: they hold no issue, and are no gap."""
    off = sorted(without_issues(api))
    if not off:
        return ""
    names = _j(lang, off)
    return _t(lang, f"另有 {len(off)}/{repos} 仓未开启问题功能：{names}，无问题可读，不计入上述仓数。",
              f" {len(off)} of {repos} repos have issues disabled: {names}; they hold no issues to read and are "
              f"not counted among the repositories above.")


def _status(fl: dict) -> str:
    return f"HTTP {fl['status']}" if str(fl.get("status", "")).isdigit() else str(fl.get("status", ""))


def unreadable_note(api: dict, repos: int, lang: str) -> str:
    """What the harvest could not read, so no reader takes the tables for the whole ecosystem:
    repos whose issue list failed (not counted as read), then repos read in part (another list)."""
    failures = api.get("unreadable") or []
    if not failures:
        return ""
    unread = unread_repos(api)
    by_repo: dict[str, list[str]] = defaultdict(list)
    for fl in failures:
        by_repo[fl["repo"]].append(f"{_status(fl)} {fl.get('message') or ''}".strip())
    out = ""
    for counted_out, zh, en in (
            (True, "另有 {n}/{repos} 仓未能读取：{names}，不计入上述仓数，其未能列出的问题亦未计入，下次运行重试。",
             " {n} of {repos} repos could not be read: {names}; they are not counted among the repositories "
             "above, nor are the issues they could not list, and they will be retried on the next run."),
            (False, "{n}/{repos} 仓部分读取：{names}，其余内容照常计入，下次运行重试。",
             " {n} of {repos} repos were read in part: {names}; the rest of them is counted, and what is "
             "missing will be retried on the next run.")):
        group = {r: v for r, v in by_repo.items() if (r in unread) == counted_out}
        if group:
            names = _j(lang, [f"{r}（{'；'.join(v)}）" if lang == "zh" else f"{r} ({'; '.join(v)})"
                              for r, v in sorted(group.items())])
            out += _t(lang, zh.format(n=len(group), repos=repos, names=names),
                      en.format(n=len(group), repos=repos, names=names))
    return out


def items_note(un: dict, lang: str) -> str:
    """Issues and PRs read in part (fixlore.rules.unread): named, with what that leaves open."""
    if not un or not (un.get("items") or un.get("fix_unknown") or un.get("unjudged")):
        return ""
    names = _j(lang, [f"{it['item']}（{'、'.join(it['parts'])}）" if lang == "zh" else f"{it['item']} ({', '.join(it['parts'])})"
                      for it in un["items"]])
    text = "" if not un.get("items") else _t(lang, f"{len(un['items'])} 个问题或 PR 未能读全：{names}；只缺这些条目的这些部分，所在仓其余内容照常读取与计入，下次运行重试。",
              f"{len(un['items'])} issues or PRs could not be read in full: {names}; only those parts of those items "
              f"are missing, the rest of their repositories was read and counted, and they will be retried on the next run.")
    if un.get("fix_unknown"):
        cases = _j(lang, un["fix_unknown"])
        text += _t(lang, f"未见合入修复而缺可能载明修复的部分者记为“修复未知”，不计为零修复证据：{cases}。",
                   f" Where no merged fix was found and a part that may name one is missing, the fix is unknown, "
                   f"never counted as no fix evidence: {cases}.")
    text = text.strip()
    if un.get("unjudged"):
        what = _j(lang, [f"{u['case']}（{'、'.join(u['what'])} 的 files 未读）" if lang == "zh"
                         else f"{u['case']} (files of {', '.join(u['what'])} unreadable)" for u in un["unjudged"]])
        text += _t(lang, f"关联 PR 是否与本单无关未能判断（对比所需的改动文件未读）：{what}。",
                   f" Whether a linked change is unrelated was not judged, the files to compare being unread: {what}.")
    return text


def closing_refs_note(api: dict, lang: str) -> str:
    """Repos whose platform closing references (GitHub's Development sidebar) the harvest could not read."""
    lost = api.get("closing_refs_unread") or []
    if not lost:
        return ""
    names = _j(lang, [f"{x['repo']}（{x['issues']} 条，{x['why']}）" if lang == "zh" else
                      f"{x['repo']} ({x['issues']} issues: {x['why']})" for x in lost])
    return _t(lang, f"平台关联（Development 侧栏的关单 PR）未能读取：{names}；仅在侧栏关联的修复可能缺失。",
              f" The platform's closing references (the Development sidebar) could not be read for {names}; "
              f"a fix linked only there may be missing.")


def deleted_note(api: dict, lang: str) -> str:
    """The issues this run's harvest marked deleted (or moved away) on the platform, named: a reader of the
    last edition would otherwise look for them here and not know why they are gone."""
    gone = api.get("issues_deleted") or []
    if not gone:
        return ""
    names = _j(lang, [f"{x['repo'].split('/')[-1]}#{x['number']}" for x in gone])
    return _t(lang, f"本次确认平台上已删除或迁走的问题 {len(gone)} 条：{names}，不再计入任何统计。",
              f" {len(gone)} {'issue was' if len(gone) == 1 else 'issues were'} found deleted or moved away on "
              f"the platform this run ({names}) and {'is' if len(gone) == 1 else 'are'} left out of every count.")
