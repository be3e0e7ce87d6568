"""The digest's frame: the title with its number, a tagline, the pointer for agents, a one-line
introduction per repository and the backlog grouped by repository.

A plain `fixlore run` or `fixlore digest` reads its framing from the run summary's `frame`
({number, tagline, agent_pointer, agent_label, serve_out}, all optional); a series edition
passes its own title (with the edition number) and header. Without a number the title has none.
The default pointer is the run's own knowledge base: `fixlore serve mcp --out DIR` and
`fixlore serve http --out DIR` on the folder the run wrote. Every count is read from the cases."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from fixlore.compose import lessons
from fixlore.compose.figures import Refs
from fixlore.compose.language import quote
from fixlore.compose.render import safe_url
from fixlore.compose.wording import j as _j, t as _t
from fixlore.core.enums import FunnelStage
from fixlore.core.model import Case
from fixlore.wording.sentence import capital


def frame_of(run: dict[str, Any]) -> dict[str, Any]:
    fr = run.get("frame")
    return fr if isinstance(fr, dict) else {}


def numbered(title: str, number: Any, lang: str) -> str:
    """`title` with the edition number `number` (a positive int), or as it is without one."""
    try:
        n = int(number)
    except (TypeError, ValueError):
        return title
    if n < 1:
        return title
    return _t(lang, f"{title}（第 {n} 期）", f"{title} — No. {n}")


def tagline(kept: list[Case], repos: int, run: dict[str, Any], lang: str) -> str:
    """The line under the title: the run's own (`frame.tagline`), else what this number holds, each
    claim one the cases support: how many landed a fix (whose PR and merge date the rows give), how
    many closed before their fix landed, how many without a code fix (`Case.fix_state`)."""
    own = str(frame_of(run).get("tagline") or "").strip()
    if own:
        return own
    if not kept:
        return _t(lang, "本期没有入选案例。", "No case was kept in this number.")
    landed = sum(1 for c in kept if lessons.landed(c))
    pending = sum(1 for c in kept if lessons.pending(c))
    none = len(kept) - landed - pending
    parts = [p for n, p in (
        (landed, _t(lang, f"{landed} 条修复已合入（写明 PR 与合入时间）", f"{landed} with a merged fix (its PR and merge date given)")),
        (pending, _t(lang, f"{pending} 条关单时修复未落地", f"{pending} closed before the fix landed")),
        (none, _t(lang, f"{none} 条无代码修复", f"{none} without a code fix"))) if n]
    return _t(lang, f"{len(kept)} 个已关单问题、{repos} 个仓：{_j(lang, parts)}；附排错指引，供人查阅，也供 Agent 检索。",
              f"{len(kept)} closed issues from {repos} repositories: {', '.join(parts)}; with a troubleshooting "
              f"guide, for people and for agents.")


def pointer(run: dict[str, Any], lang: str) -> dict[str, Any]:
    """Where an agent reads this digest's cases: the configured pointer (`frame.agent_pointer`, a URL
    or a command) or this run's own `fixlore serve mcp` / `fixlore serve http` commands."""
    fr = frame_of(run)
    label = str(fr.get("agent_label") or "").strip() or _t(lang, "接入 Agent", "For agents")
    own = str(fr.get("agent_pointer") or "").strip()
    if own:
        url = safe_url(own) if own.startswith(("http://", "https://")) else ""
        return {"label": label, "items": [{"text": own, "url": url}]}
    # the run's folder by name, not by its path on this machine (a digest does not depend on where it
    # was written): `--out OUT`, the note saying what OUT is, so the command runs as printed once it is
    out = str(fr.get("serve_out") or "").strip() or "OUT"
    what = "" if out != "OUT" else _t(lang, "；OUT 为本次运行的输出目录", "; OUT is this run's output folder")
    return {"label": label, "items": [
        {"text": f"fixlore serve mcp --out {out}", "url": "",
         "note": _t(lang, "MCP，由 Agent 启动此命令", "MCP: an agent starts this command") + what},
        {"text": f"fixlore serve http --out {out}", "url": "", "note": _t(lang, "HTTP 接口", "HTTP API")}]}


def _what(description: str) -> str:
    return re.split(r"[，,。；;.(（]", description or "", maxsplit=1)[0].strip()


def _short(c: Case) -> str:
    return (c.problem or c.title or "").strip().rstrip("。.？?")


def _themes_of(cs: list[Case], sections: list[dict[str, Any]], ref: Refs) -> list[tuple[int, int, str]]:
    """(how many of `cs`, theme number, the theme's short name) for each theme holding some of
    `cs`, most first; read from the themes section."""
    mine = {ref(c) for c in cs}
    found = []
    for i, t in enumerate(sections, 1):
        n = len({b.get("ref") for b in t.get("bullets") or ()} & mine)
        if n:
            found.append((n, i, str(t.get("short") or "")))
    return sorted(found, key=lambda p: (-p[0], p[1]))


def fix_counts(cs: list[Case], lang: str) -> str:
    """How many landed a fix, closed before it landed, went without a code fix (`Case.fix_state`)."""
    landed = sum(1 for c in cs if lessons.landed(c))
    pending = sum(1 for c in cs if lessons.pending(c))
    answered = len(cs) - landed - pending
    parts = [p for n, p in ((landed, _t(lang, f"{landed} 条修复已合入", f"{landed} with a merged fix")),
                            (pending, _t(lang, f"{pending} 条修复未落地", f"{pending} whose fix has not landed")),
                            (answered, _t(lang, f"{answered} 条无代码修复", f"{answered} without a code fix"))) if n]
    return _j(lang, parts)


def introduction(cs: list[Case], description: str, lang: str, said: list[str],
                 sections: list[dict[str, Any]] = (), ref: Refs | None = None) -> str:
    """One line, as a reader of the overview wants it: what the repository is (its own
    description's first clause) and what its cases in this number are about, from their content:
    the failure modes (themes) most of them show, else the case that leads (highest value) in its
    own words; then how many. The fix counts are the repository's subtitle (`holdings`)."""
    what = _what(description)
    n = len(cs)
    found = [short for _, _, short in _themes_of(cs, list(sections), ref)][:2] if ref is not None else []
    found = [f for f in found if f]
    lead = sorted(cs, key=lambda c: (-c.value, c.number))
    shown = next((c for c in lead[:3] if len(_short(c)) <= 48), None)
    if found:
        about = _t(lang, "、".join(found), " / ".join(found))
    elif shown is not None:
        about = _t(lang, f"“{_short(shown)}”", f"“{quote(_short(shown), lang, said)}”")
    else:
        about = ""
    if lang == "zh":
        body = (f"{about} {n} 案" if about else f"{n} 案")
        return (f"{what}，" if what else "") + body
    head = quote(what, lang, said) + "; " if what else ""
    body = f"{about}, {n} case{'s' if n > 1 else ''}" if about else f"{n} case{'s' if n > 1 else ''}"
    return capital(head + body)


def holdings(cs: list[Case], sections: list[dict[str, Any]], ref: Refs, lang: str) -> str:
    """What this number holds for one repository, under its heading: how many of its cases and
    their fix counts, the themes they fall in (the theme's short name, its number, how many of the
    repository's cases), read from the themes section, and how many of its cases are in no theme."""
    mine = {ref(c) for c in cs}
    found = _themes_of(cs, sections, ref)
    themed = {b.get("ref") for t in sections for b in t.get("bullets") or ()} & mine
    head = _t(lang, f"本期 {len(cs)} 条（{fix_counts(cs, lang)}）",
              f"{len(cs)} case{'s' if len(cs) > 1 else ''} in this number ({fix_counts(cs, lang)})")
    left = len(mine - themed)
    if not found:      # named, so that two such repositories do not get the same line
        names = _j(lang, sorted(mine)[:3]) + (_t(lang, " 等", " and others") if len(mine) > 3 else "")
        return head + _t(lang, f"，{names} 不属于任何主题。", f"; {names} in no theme.")
    named = [(_t(lang, f"{short} {n}（主题 {i}）", f"{short} {n} (theme {i})") if short
              else _t(lang, f"主题 {i} {n} 条", f"theme {i}: {n}")) for n, i, short in found]
    rest = _t(lang, f"；另 {left} 条不属于任何主题", f"; {left} in no theme") if left else ""
    return _t(lang, f"{head}，分在 {len(found)} 个主题：{_j(lang, named)}{rest}。",
              f"{head}, in {len(found)} theme{'s' if len(found) > 1 else ''}: {', '.join(named)}{rest}.")


def backlog_by_repo(cases: list[Case], ref: Refs, lang: str, said: list[str], per_repo: int = 3,
                    repos: int = 8) -> list[dict[str, Any]]:
    """The cases of the pool not analysed this time (funnel `rank`), by repository (most waiting
    first, the first `repos` of them), each with its most valued titles."""
    groups: dict[str, list[Case]] = defaultdict(list)
    for c in cases:
        if c.funnel == FunnelStage.RANK:
            groups[c.repo].append(c)
    out = []
    for repo, cs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        best = sorted(cs, key=lambda c: (-c.value, c.number))[:per_repo]
        out.append({"repo": ref.repo(repo), "full_name": repo, "count": len(cs),
                    "top": [{"case": ref(c), "title": quote(c.title, lang, said), "url": safe_url(c.url)} for c in best]})
    return out[:repos]


def backlog_rest(cases: list[Case], shown: list[dict[str, Any]], lang: str) -> str:
    """What waits in the repositories `backlog_by_repo` did not show, as one line ('' when none)."""
    names = {b["full_name"] for b in shown}
    rest = [c for c in cases if c.funnel == FunnelStage.RANK and c.repo not in names]
    if not rest:
        return ""
    n_repos = len({c.repo for c in rest})
    return _t(lang, f"其余 {n_repos} 个仓共 {len(rest)} 条。", f"{len(rest)} more in {n_repos} other repositories.")
