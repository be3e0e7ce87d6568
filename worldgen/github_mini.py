"""Generate worlds/github-mini: a small GitHub-flavoured world (one org, two repos, ~120 items).

    python worldgen/github_mini.py [OUT_DIR]     (default: worlds/github-mini next to this folder)

Deterministic (a fixed seed drives the filler). GitHub shapes: int numbers shared by issues
and PRs, PRs inside the issue list with a `pull_request` key, UTC `Z` times, `state_reason`,
`closed_by` on the single issue, timelines with `closed` (with `commit_id` for a keyword or
linked close), `cross-referenced` (source.issue carries `pull_request`), `connected` and
`referenced`; merged = `merged_at` set, and `merged: true` only on the single-PR object.
The `widgets` repo has more than 100 items so paging with Link headers is exercised.
"""

from __future__ import annotations

import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from fixlore.replay.worldwrite import reset_dir, stable_hex, write_json, write_text, write_yaml

ORG = "minilab"
SNAPSHOT = "2026-09-21T00:00:00Z"
SINCE = "2026-09-14T00:00:00Z"
API = "https://api.github.com"
WEB = "https://github.com"
SEED = 20260921

MEMBERS = {"mara", "teodor"}
BOTS = {"github-actions[bot]"}
USERS = ["mara", "teodor", "quinn-dev", "lu-ping", "ivana", "okafor", "sam-r", "hideo", "paz", "nilsson",
         "github-actions[bot]"]


def z(stamp: str) -> str:
    return stamp.replace(" ", "T") + "Z"


def _dt(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _fmt(d: datetime) -> str:
    return d.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def latest(*values: str | None) -> str:
    return max((v for v in values if v), key=_dt)


def uid(login: str) -> int:
    return 100000 + int(stable_hex("gh-user", login, length=8), 16) % 900000


def user(login: str) -> dict:
    bot = login in BOTS
    return {"login": login, "id": uid(login), "node_id": "U_" + stable_hex("node", login, length=16),
            "avatar_url": f"https://avatars.githubusercontent.com/u/{uid(login)}?v=4",
            "url": f"{API}/users/{login}", "html_url": f"{WEB}/{'apps/github-actions' if bot else login}",
            "type": "Bot" if bot else "User", "site_admin": False}


def association(login: str) -> str:
    return "MEMBER" if login in MEMBERS else ("NONE" if login in BOTS else "CONTRIBUTOR")


REPOS = {
    "widgets": ("UI widget toolkit for dashboards", 71001),
    "docs-site": ("Documentation website for minilab projects", 71002),
}


def repo_obj(name: str, open_count: int) -> dict:
    desc, rid = REPOS[name]
    return {
        "id": rid, "node_id": "R_" + stable_hex("repo", name, length=16), "name": name, "full_name": f"{ORG}/{name}",
        "private": False,
        "owner": {"login": ORG, "id": 7100, "node_id": "O_minilab", "url": f"{API}/orgs/{ORG}",
                  "html_url": f"{WEB}/{ORG}", "type": "Organization", "site_admin": False},
        "html_url": f"{WEB}/{ORG}/{name}", "description": desc, "fork": False, "url": f"{API}/repos/{ORG}/{name}",
        "created_at": "2024-02-01T09:00:00Z", "updated_at": "2026-09-20T18:00:00Z", "pushed_at": "2026-09-20T18:00:00Z",
        "default_branch": "main", "open_issues_count": open_count, "has_issues": True, "archived": False,
        "disabled": False, "visibility": "public", "language": "TypeScript" if name == "widgets" else "MDX",
    }


class Repo:
    """Items of one repository; issues and PRs share one number sequence."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.full = f"{ORG}/{name}"
        self.issues: dict[int, dict] = {}
        self.pulls: dict[int, dict] = {}
        self.comments: dict[int, list] = {}
        self.timelines: dict[int, list] = {}
        self.pull_files: dict[tuple[int, str], list] = {}
        self._ids = 0

    def next_id(self) -> int:
        self._ids += 1
        return int(REPOS[self.name][1]) * 10000 + self._ids

    # ---- objects

    def _issue_base(self, n: int, title: str, body: str, author: str, created: str, labels: tuple[str, ...]) -> dict:
        url = f"{API}/repos/{self.full}/issues/{n}"
        return {
            "url": url, "repository_url": f"{API}/repos/{self.full}", "labels_url": url + "/labels{/name}",
            "comments_url": url + "/comments", "events_url": url + "/events", "html_url": f"{WEB}/{self.full}/issues/{n}",
            "id": stable_int(self.full, n), "node_id": "I_" + stable_hex("issue", self.full, n, length=16),
            "number": n, "title": title, "user": user(author),
            "labels": [{"id": stable_int("label", l), "node_id": "LA_" + stable_hex("label", l, length=12), "name": l,
                        "color": "d73a4a" if l == "bug" else "a2eeef", "default": l in ("bug", "enhancement"),
                        "description": ""} for l in labels],
            "state": "open", "locked": False, "assignee": None, "assignees": [], "milestone": None, "comments": 0,
            "created_at": created, "updated_at": created, "closed_at": None, "author_association": association(author),
            "active_lock_reason": None, "body": body, "closed_by": None,
            "timeline_url": url + "/timeline", "performed_via_github_app": None, "state_reason": None,
        }

    def issue(self, n: int, title: str, body: str, author: str, created: str, *, labels: tuple[str, ...] = (),
              comments: list[tuple[str, str, str]] = (), events: list[dict] = (), closed: str | None = None,
              closed_by: str | None = None, state_reason: str = "completed", close_commit: str | None = None) -> dict:
        obj = self._issue_base(n, title, body, author, created, labels)
        self._discussion(n, obj, comments, events, closed, closed_by, state_reason, close_commit)
        self.issues[n] = obj
        return obj

    def pull(self, n: int, title: str, body: str, author: str, created: str, head: str, *, base: str = "main",
             merged: str | None = None, closed: str | None = None, merged_by: str | None = None,
             comments: list[tuple[str, str, str]] = (), files: list[tuple[str, str]] = (),
             labels: tuple[str, ...] = ()) -> dict:
        closed = closed or merged
        merge_sha = stable_hex("merge", self.full, n) if merged else None
        head_sha = stable_hex("head", self.full, n)
        url = f"{API}/repos/{self.full}/pulls/{n}"
        html = f"{WEB}/{self.full}/pull/{n}"
        repo_brief = {"id": REPOS[self.name][1], "name": self.name, "full_name": self.full, "default_branch": "main"}
        adds = sum(_count(p, "+") for _, p in files)
        dels = sum(_count(p, "-") for _, p in files)
        # Issue form (what the issue list and /issues/{n} return for a PR).
        form = self._issue_base(n, title, body, author, created, labels)
        form["html_url"] = html
        form["draft"] = False
        form["pull_request"] = {"url": url, "html_url": html, "diff_url": html + ".diff", "patch_url": html + ".patch",
                                "merged_at": merged}
        self._discussion(n, form, comments, [], closed, merged_by or author, None, None)
        pr = {
            "url": url, "id": stable_int("pr", self.full, n), "node_id": "PR_" + stable_hex("pr", self.full, n, length=16),
            "html_url": html, "diff_url": html + ".diff", "patch_url": html + ".patch",
            "issue_url": f"{API}/repos/{self.full}/issues/{n}", "number": n,
            "state": "closed" if closed else "open", "locked": False, "title": title, "user": user(author), "body": body,
            "created_at": created, "updated_at": form["updated_at"], "closed_at": closed, "merged_at": merged,
            "merge_commit_sha": merge_sha, "assignee": None, "assignees": [], "requested_reviewers": [],
            "labels": form["labels"], "milestone": None, "draft": False,
            "head": {"label": f"{author}:{head}", "ref": head, "sha": head_sha, "user": user(author),
                     "repo": dict(repo_brief, full_name=f"{author}/{self.name}") if author not in MEMBERS else repo_brief},
            "base": {"label": f"{ORG}:{base}", "ref": base, "sha": stable_hex("base", self.full, n), "user": user(ORG),
                     "repo": repo_brief},
            "author_association": association(author), "auto_merge": None,
            "merged": bool(merged), "mergeable": None if closed else True, "rebaseable": None if closed else True,
            "mergeable_state": "unknown" if closed else "clean", "merged_by": user(merged_by) if merged and merged_by else None,
            "comments": len(comments), "review_comments": 0, "maintainer_can_modify": False,
            "commits": 1, "additions": adds, "deletions": dels, "changed_files": len(files),
        }
        self.pulls[n] = pr
        if files:
            self.pull_files[(n, "files")] = [{
                "sha": stable_hex("blob", self.full, n, name), "filename": name, "status": "modified",
                "additions": _count(patch, "+"), "deletions": _count(patch, "-"),
                "changes": _count(patch, "+") + _count(patch, "-"),
                "blob_url": f"{WEB}/{self.full}/blob/{head_sha}/{name}", "raw_url": f"{WEB}/{self.full}/raw/{head_sha}/{name}",
                "contents_url": f"{API}/repos/{self.full}/contents/{name}?ref={head_sha}", "patch": patch,
            } for name, patch in files]
        self.pull_files[(n, "commits")] = [{
            "sha": head_sha, "node_id": "C_" + head_sha[:16],
            "commit": {"author": {"name": author, "email": f"{author}@users.noreply.github.com", "date": created},
                       "committer": {"name": author, "email": f"{author}@users.noreply.github.com", "date": created},
                       "message": f"{title}\n\n{body}".strip(), "tree": {"sha": stable_hex("tree", self.full, n)},
                       "comment_count": 0},
            "url": f"{API}/repos/{self.full}/commits/{head_sha}", "html_url": f"{WEB}/{self.full}/commit/{head_sha}",
            "author": user(author), "committer": user(author), "parents": [{"sha": pr["base"]["sha"]}],
        }]
        self.issues[n] = form
        return pr

    def _discussion(self, n: int, obj: dict, comments, events, closed, closed_by, state_reason, close_commit) -> None:
        url = obj["url"]
        comment_objs = [{
            "id": self.next_id(), "node_id": "IC_" + stable_hex("c", self.full, n, when, length=14),
            "url": f"{API}/repos/{self.full}/issues/comments/{stable_int('c', self.full, n, when)}",
            "html_url": f"{obj['html_url']}#issuecomment-{stable_int('c', self.full, n, when)}",
            "body": text, "user": user(who), "created_at": when, "updated_at": when, "issue_url": url,
            "author_association": association(who), "performed_via_github_app": None,
        } for who, when, text in comments]
        timeline = [dict(c, event="commented", actor=c["user"]) for c in comment_objs]
        timeline += [dict(e, id=self.next_id(), node_id="E_" + stable_hex("e", self.full, n, e["created_at"], e["event"], length=14),
                          url=f"{API}/repos/{self.full}/issues/events/{stable_int('e', self.full, n, e['created_at'], e['event'])}")
                     if e["event"] not in ("cross-referenced",) else e for e in events]
        if closed:
            timeline.append({
                "id": self.next_id(), "node_id": "CE_" + stable_hex("close", self.full, n, length=14),
                "url": f"{API}/repos/{self.full}/issues/events/{stable_int('close', self.full, n)}",
                "actor": user(closed_by), "event": "closed", "commit_id": close_commit,
                "commit_url": f"{API}/repos/{self.full}/commits/{close_commit}" if close_commit else None,
                "created_at": closed, "state_reason": state_reason, "performed_via_github_app": None,
            })
            obj.update(state="closed", closed_at=closed, closed_by=user(closed_by), state_reason=state_reason)
        timeline.sort(key=lambda e: _dt(e["created_at"]))
        obj["comments"] = len(comment_objs)
        obj["updated_at"] = latest(obj["created_at"], closed, *[e["created_at"] for e in timeline])
        if comment_objs:
            self.comments[n] = comment_objs
        if timeline:
            self.timelines[n] = timeline

    # ---- timeline events that point at a PR

    def cross_ref(self, pr_n: int, when: str, actor: str) -> dict:
        """A cross-referenced event; its source issue is filled in at write time from the PR's final issue form."""
        return {"event": "cross-referenced", "actor": user(actor), "created_at": when, "updated_at": when,
                "source": {"type": "issue", "issue": {"__pr__": pr_n}}}

    def finish(self) -> None:
        for timeline in self.timelines.values():
            for e in timeline:
                if e["event"] == "cross-referenced" and "__pr__" in e["source"]["issue"]:
                    form = dict(self.issues[e["source"]["issue"]["__pr__"]])
                    form.pop("closed_by", None)
                    form["repository"] = {"id": REPOS[self.name][1], "name": self.name, "full_name": self.full}
                    e["source"]["issue"] = form


def stable_int(*parts: object) -> int:
    return 10_000_000 + int(stable_hex(*parts, length=10), 16) % 90_000_000


def _count(patch: str, sign: str) -> int:
    return sum(1 for l in patch.splitlines() if l.startswith(sign) and not l.startswith(sign * 3))


def event(kind: str, when: str, actor: str, **extra: object) -> dict:
    return {"actor": user(actor), "event": kind, "created_at": when, "performed_via_github_app": None, **extra}


# ---------------------------------------------------------------- filler

ISSUE_TITLES = [
    "Chart legend overlaps the plot area", "Datepicker ignores locale first day of week", "Table sort is unstable",
    "Add keyboard navigation to menus", "Tabs lose focus after rerender", "Modal does not trap focus",
    "Support custom color scales", "Toast stacks in the wrong order", "Sparkline renders blank for a single point",
    "Export to PNG clips long titles", "Badge contrast fails WCAG AA", "Slider step rounding error",
    "Add aria-label to icon buttons", "Dropdown closes on scroll inside it", "Heatmap tooltip shows NaN",
    "Grid virtualization jumps when resizing", "Improve tree-shaking of icons", "Progress ring jitters at 100%",
    "Card shadow missing in high-contrast mode", "Number input accepts letters in Firefox",
]
PR_TITLES = [
    "Bump dev dependencies", "Refactor theme provider", "Add visual regression tests", "Speed up grid rendering",
    "Document slider props", "Fix lint warnings", "Migrate build to esbuild", "Add stories for charts",
]


def filler(repo: Repo, rng: random.Random, first: int, last: int, start: datetime, end: datetime) -> None:
    """Older items, all last touched before the window opens."""
    people = ["quinn-dev", "lu-ping", "ivana", "okafor", "sam-r", "hideo", "paz", "nilsson"]
    span = (end - start).total_seconds()
    for n in range(first, last + 1):
        created = start + timedelta(seconds=int(span * (n - first) / (last - first + 1)) + rng.randint(0, 3600))
        author = rng.choice(people)
        is_pr = rng.random() < 0.3
        closes = rng.random() < 0.85
        closed = created + timedelta(hours=rng.randint(2, 400))
        cutoff = _dt(SINCE) - timedelta(days=3)
        if closed > cutoff:
            closed = cutoff - timedelta(hours=rng.randint(1, 48))
        n_comments = rng.randint(0, 3)
        when = [created + (closed - created) * (i + 1) / (n_comments + 2) for i in range(n_comments)]
        comments = [(rng.choice(["mara", "teodor", author]), _fmt(w), rng.choice(
            ["Thanks for the report, I can reproduce this.", "Could you share a minimal example?",
             "This should be fixed on main now.", "Any update on this one?", "Looks good to me."])) for w in when]
        if is_pr:
            title = rng.choice(PR_TITLES)
            merged = closes and rng.random() < 0.8
            repo.pull(n, title, f"{title}.", author, _fmt(created), f"chore-{n}",
                      merged=_fmt(closed) if merged else None, closed=_fmt(closed) if closes and not merged else None,
                      merged_by="mara" if merged else None, comments=comments,
                      files=[(f"src/chore{n}.ts", f"@@ -1,2 +1,2 @@\n-const v = {n - 1};\n+const v = {n};\n")])
        else:
            title = rng.choice(ISSUE_TITLES)
            labels = (rng.choice(["bug", "enhancement", "a11y"]),)
            repo.issue(n, title, f"{title}. Seen on version 1.{rng.randint(4, 9)}.{rng.randint(0, 5)}.", author,
                       _fmt(created), labels=labels, comments=comments,
                       closed=_fmt(closed) if closes else None, closed_by=rng.choice(["mara", "teodor"]),
                       state_reason="completed" if rng.random() < 0.8 else "not_planned")


# ---------------------------------------------------------------- linking situations

W = f"{ORG}/widgets"
KB_CONFIG = f"docs/{ORG}/widgets/docs/config.md"
KB_EVENTS = f"docs/{ORG}/widgets/docs/events.md"


def cases(r: Repo) -> list[dict]:
    truth: list[dict] = []

    def t(n: int, funnel: str, *, fix=(), evidence=(), timing="no_fix", traps=(), kb=(), theme="", drop="") -> None:
        issue = r.issues[n]
        lag = None
        if fix and timing not in ("no_fix", "before_merge"):
            lag = int((_dt(issue["closed_at"]) - _dt(r.pulls[fix[0][0]]["merged_at"])).total_seconds())
        truth.append({"repo": W, "number": n, "funnel": funnel, "drop_reason": drop,
                      "fix": [{"repo": W, "number": num, "role": role} for num, role in fix],
                      "evidence": list(evidence), "timing": timing, "lag_s": lag, "traps": list(traps),
                      "kb_refs": list(kb), "theme": theme})

    # Keyword close on the default branch: closed by the merge commit in the same second.
    r.pull(97, "Handle an empty config file", "Fixes #96\n\nTreat a zero-byte settings file as defaults instead of "
           "raising `TOMLDecodeError`.", "quinn-dev", z("2026-09-14 16:00:00"), "empty-config",
           merged=z("2026-09-15 10:20:30"), merged_by="mara",
           files=[("src/config/load.ts", "@@ -10,4 +10,6 @@ export function loadConfig(path: string) {\n"
                   "   const text = readFileSync(path, 'utf8');\n+  if (text.trim() === '') {\n+    return DEFAULTS;\n+  }\n"
                   "   return parse(text);\n")])
    r.issue(96, "Crash at startup when settings.toml is empty",
            "Creating an empty `settings.toml` makes the app crash:\n```\nTOMLDecodeError: Expected key at line 1\n```",
            "lu-ping", z("2026-09-14 09:12:00"), labels=("bug",),
            comments=[("mara", z("2026-09-14 11:00:00"), "Confirmed, an empty file should mean defaults.")],
            events=[r.cross_ref(97, z("2026-09-14 16:00:00"), "quinn-dev"),
                    event("referenced", z("2026-09-15 10:20:29"), "quinn-dev",
                          commit_id=stable_hex("head", W, 97),
                          commit_url=f"{API}/repos/{W}/commits/{stable_hex('head', W, 97)}")],
            closed=z("2026-09-15 10:20:30"), closed_by="mara", close_commit=stable_hex("merge", W, 97))
    t(96, "selected", fix=[(97, "fix")], evidence=["keyword", "auto_close"], timing="same_second", kb=[KB_CONFIG],
      theme="config-loading")

    # A closing keyword in a PR to a non-default branch does not close the issue; a maintainer closes it later.
    r.pull(99, "Respect min_size in Widget.resize (1.x)", "Fixes #98\n\nBackport-only change: main already has the new "
           "layout engine.", "ivana", z("2026-09-15 09:00:00"), "resize-min-size-1x", base="release-1.x",
           merged=z("2026-09-15 14:00:00"), merged_by="teodor",
           files=[("src/widget/resize.ts", "@@ -22,3 +22,3 @@ export function resize(w: Widget, size: Size) {\n"
                   "-  w.size = size;\n+  w.size = clampSize(size, w.minSize);\n")])
    r.issue(98, "Widget.resize ignores min_size on 1.x", "On 1.9.2 `resize()` happily shrinks below `minSize`.",
            "okafor", z("2026-09-14 12:30:00"), labels=("bug",),
            comments=[("mara", z("2026-09-17 09:00:00"), "Fixed on release-1.x by #99, will ship in 1.9.3.")],
            events=[r.cross_ref(99, z("2026-09-15 09:00:00"), "ivana")],
            closed=z("2026-09-17 09:00:05"), closed_by="mara")
    t(98, "selected", fix=[(99, "fix")], evidence=["keyword", "comment"], timing="later", theme="layout")

    # Cross-reference only: the PR mentions the issue without a closing keyword; closed by hand minutes later.
    r.pull(101, "Debounce the tooltip hover handler", "Related: #100\n\nSafari fires mouseenter/mouseleave pairs while "
           "the tooltip fades in; debounce by 50 ms.", "hideo", z("2026-09-15 18:00:00"), "tooltip-debounce",
           merged=z("2026-09-16 08:00:00"), merged_by="teodor",
           files=[("src/tooltip/hover.ts", "@@ -5,3 +5,3 @@\n-el.addEventListener('mouseenter', show);\n"
                   "+el.addEventListener('mouseenter', debounce(show, 50));\n")])
    r.issue(100, "Tooltip flickers on hover in Safari", "Hovering a chart point in Safari 18 makes the tooltip blink.",
            "paz", z("2026-09-15 08:40:00"), labels=("bug",),
            events=[r.cross_ref(101, z("2026-09-15 18:00:00"), "hideo")],
            closed=z("2026-09-16 08:25:00"), closed_by="teodor")
    t(100, "selected", fix=[(101, "fix")], evidence=["keyword", "minutes"], timing="minutes", theme="tooltip")

    # Linked through the Development sidebar (connected): merging closes the issue.
    r.pull(103, "Dark theme tokens", "Adds the `dark` token set and a `prefers-color-scheme` switch.", "sam-r",
           z("2026-09-15 11:00:00"), "dark-tokens", merged=z("2026-09-16 12:00:00"), merged_by="mara",
           files=[("src/theme/tokens.ts", "@@ -1,3 +1,8 @@\n export const light = {...};\n+export const dark = {\n"
                   "+  background: '#111418',\n+  foreground: '#e6e8eb',\n+};\n")])
    r.issue(102, "Add dark theme tokens", "Dashboards at night are too bright; a dark token set would help.",
            "nilsson", z("2026-09-14 10:00:00"), labels=("enhancement",),
            events=[event("connected", z("2026-09-15 11:05:00"), "sam-r", commit_id=None, commit_url=None)],
            closed=z("2026-09-16 12:00:01"), closed_by="mara", close_commit=stable_hex("merge", W, 103))
    t(102, "selected", fix=[(103, "fix")], evidence=["linked", "auto_close"], timing="same_second", theme="theming")

    # Stale close: fixed (a comment names the PR) ten days before a bot closed it.
    r.pull(105, "Unsubscribe listeners on dispose", "Listeners registered through `EventBus.subscribe` were kept after "
           "the widget was disposed.", "teodor", z("2026-09-04 15:00:00"), "eventbus-dispose",
           merged=z("2026-09-05 09:30:00"), merged_by="mara",
           files=[("src/events/bus.ts", "@@ -40,3 +40,6 @@ dispose() {\n+  for (const off of this.subscriptions) {\n"
                   "+    off();\n+  }\n   this.disposed = true;\n")])
    r.issue(104, "Memory leak in EventBus.subscribe", "Heap grows by ~2 MB every time a dashboard tab is reopened; "
            "heap snapshots show retained listeners.", "quinn-dev", z("2026-09-02 08:00:00"), labels=("bug",),
            comments=[("teodor", z("2026-09-05 09:40:00"), "Fixed by #105, please try main."),
                      ("github-actions[bot]", z("2026-09-12 00:02:00"),
                       "This issue has been automatically marked as stale because it has not had recent activity. "
                       "It will be closed in 3 days if no further activity occurs.")],
            events=[event("labeled", z("2026-09-12 00:02:00"), "github-actions[bot]", label={"name": "stale", "color": "ededed"})],
            closed=z("2026-09-15 00:03:12"), closed_by="github-actions[bot]")
    t(104, "selected", fix=[(105, "fix")], evidence=["comment"], timing="stale", traps=["stale_close"], kb=[KB_EVENTS],
      theme="memory-leak")

    # Not planned and duplicate: resolved-looking closes that are not fixes.
    r.issue(106, "Publish 32-bit Windows wheels", "Some of our kiosks still run 32-bit Windows.", "paz",
            z("2026-09-13 10:00:00"), labels=("enhancement",),
            comments=[("mara", z("2026-09-16 10:00:00"), "We will not ship 32-bit builds; the toolchain dropped them.")],
            closed=z("2026-09-16 10:00:20"), closed_by="mara", state_reason="not_planned")
    t(106, "unresolved")
    r.issue(107, "App crashes at startup with a blank settings file", "Blank settings -> crash on launch.", "hideo",
            z("2026-09-14 13:00:00"), comments=[("mara", z("2026-09-14 14:00:00"), "Duplicate of #96")],
            closed=z("2026-09-14 14:00:02"), closed_by="mara", state_reason="duplicate")
    t(107, "unresolved")

    # A question answered with no change: dropped by analysis as consultation only.
    r.issue(108, "How do I change the default font of charts?",
            "I want all charts to use Inter instead of the system font. Is there a global setting, or do I have to pass "
            "`font` to every chart? We have about forty charts across several dashboards.",
            "okafor", z("2026-09-16 09:00:00"), labels=("question",),
            comments=[("teodor", z("2026-09-16 11:00:00"), "Set `theme.typography.fontFamily` on the ThemeProvider; charts inherit it."),
                      ("okafor", z("2026-09-16 12:00:00"), "That works, thanks!")],
            closed=z("2026-09-16 12:00:30"), closed_by="okafor")
    t(108, "analysis", drop="consultation_only", theme="theming")

    # Low-value reports: in the pool, below the rank cut.
    for n, title, body, when in ((109, "Typo in README", "'recieve' -> 'receive'", "2026-09-17 08:00:00"),
                                 (110, "Broken link in CONTRIBUTING", "The style guide link 404s.", "2026-09-17 09:00:00"),
                                 (111, "Misspelled word in docstring", "'seperator' in grid.ts", "2026-09-18 10:00:00")):
        r.issue(n, title, body, "lu-ping", z(when), labels=("documentation",),
                closed=_fmt(_dt(z(when)) + timedelta(minutes=30)), closed_by="lu-ping")
        t(n, "rank", theme="docs-typo")

    # Still open.
    r.issue(112, "Grid layout overflows on narrow screens", "Below 360 px the grid overflows horizontally.", "ivana",
            z("2026-09-18 15:00:00"), labels=("bug",),
            comments=[("mara", z("2026-09-19 09:00:00"), "Thanks, we'll look at it for 2.4.")])
    t(112, "window", theme="layout")
    return truth


DOCS = {
    "widgets/docs/config.md": """# Configuration

The app reads `settings.toml` from the working directory. Every key is optional; a missing
file **or an empty one** means the defaults below (empty files are accepted since 2.3.1).

| key | default |
|---|---|
| theme | "light" |
| locale | "en" |
""",
    "widgets/docs/events.md": """# Events

`EventBus.subscribe(name, fn)` returns an unsubscribe function. Widgets keep the functions
they registered and call them from `dispose()`; before 2.3.0 listeners outlived their widget,
which leaked memory whenever a dashboard tab was reopened.
""",
    "widgets/README.md": """# widgets

UI widget toolkit for dashboards: charts, grids, tooltips and a theme provider.

```
npm install @minilab/widgets
```
""",
    "docs-site/README.md": """# docs-site

The documentation website for minilab projects, built with a static site generator.
""",
}


def build() -> tuple[dict[str, Repo], list[dict]]:
    rng = random.Random(SEED)
    widgets, site = Repo("widgets"), Repo("docs-site")
    filler(widgets, rng, 1, 95, datetime(2025, 6, 1, tzinfo=timezone.utc), datetime(2026, 8, 25, tzinfo=timezone.utc))
    truth = cases(widgets)
    filler(site, rng, 1, 10, datetime(2025, 9, 1, tzinfo=timezone.utc), datetime(2026, 8, 1, tzinfo=timezone.utc))
    widgets.finish()
    site.finish()
    return {"widgets": widgets, "docs-site": site}, truth


def write(out: Path) -> None:
    repos, truth = build()
    reset_dir(out)
    write_yaml(out / "world.yaml", {
        "platform": "github", "snapshot_at": SNAPSHOT, "orgs": [ORG],
        "description": "Small GitHub-flavoured world: shared issue/PR numbering, more than 100 items in one repo, "
                       "keyword/cross-reference/connected links, stale, not_planned and duplicate closes.",
        "window": {"since": SINCE},
        "rank_top_k": 6,
    })
    listing = []
    for name, r in repos.items():
        open_count = sum(1 for i in r.issues.values() if i["state"] == "open")
        listing.append(repo_obj(name, open_count))
        write_json(out / "repos" / ORG / name / "repo.json", repo_obj(name, open_count))
        base = out / "repos" / ORG / name
        for n, obj in sorted(r.issues.items()):
            write_json(base / "issues" / f"{n}.json", obj)
        for n, items in sorted(r.comments.items()):
            write_json(base / "issues" / f"{n}.comments.json", items)
        for n, items in sorted(r.timelines.items()):
            write_json(base / "issues" / f"{n}.events.json", items)
        for n, obj in sorted(r.pulls.items()):
            write_json(base / "pulls" / f"{n}.json", obj)
        for (n, kind), items in sorted(r.pull_files.items()):
            write_json(base / "pulls" / f"{n}.{kind}.json", items)
    write_json(out / "orgs" / f"{ORG}.json", listing)
    for rel, text in sorted(DOCS.items()):
        write_text(out / "docs" / ORG / rel, text)
    write_yaml(out / "truth.yaml", {
        "window": {"since": SINCE},
        "notes": "One entry per issue (not PR) updated inside the window. Issues dropped before the link stage carry "
                 "no fix or evidence. rank_top_k is 6: the five linked fixes and the answered question; the three "
                 "one-line documentation reports fall below the cut.",
        "issues": sorted(truth, key=lambda e: e["number"]),
    })


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1] / "worlds" / "github-mini"
    write(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
