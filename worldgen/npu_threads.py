"""Generate worlds/npu-threads: a GitHub world built from real public issue/PR threads of Ascend-adjacent projects.

    python worldgen/npu_threads.py [OUT_DIR]     (default: worlds/npu-threads next to this folder)

The threads, their texts, authors, days, states and labels come from ``worldgen/data/npu_threads.yaml``
(collected from stored public GitHub threads; every entry keeps its URL). So do the hand labels that
become ``truth.yaml``. What the collected excerpts do not show is filled in here by fixed rules, the
same on every run (worlds/README.md, "npu-threads", lists them):

- times of day: an item dated only by its day gets a time from a hash of its URL; the description
  comes first in its day, comments follow in their order;
- a merged PR merged one hour after its last dated activity; a PR closed unmerged closed likewise;
- a PR whose text names an issue filed after the PR was opened (its body was edited later) names it a
  minute after the issue's creation at the earliest, and its merge or close follows that by the hour above;
- an issue closed by a merged PR's closing keyword (``close.how: pr``) closes one second after the
  merge, by the merger, with the merge commit in its ``closed`` event (what GitHub records);
- an issue closed by hand (``close.how: hand``) closes a few minutes after its last comment when
  ``close.by`` names the closer (the thread shows who announced the close), else a day after its last
  activity by ``ghost``, GitHub's placeholder account; the last activity counts every collected PR that
  names the issue (the mention and the PR's merge or close), every collected PR the issue's comments name
  (its merge or close) and every collected PR that gives the issue as a bare ``ISSUE ID: N`` or as ``gh-N``
  (its merge or close; no cross-reference, as GitHub links neither);
- an issue closed by a stale process (``close.how: stale``, its ``stale``/``inactive`` label is real)
  closes thirty days after its last activity, by ``github-actions[bot]``, as ``not_planned`` (the
  stale action's default close reason);
- ``state_reason`` is ``completed`` for keyword closes, ``not_planned`` for stale closes and null
  otherwise (the excerpts do not show it), unless ``close.reason`` gives the one the thread shows
  (``completed``, ``not_planned``, ``duplicate`` or null); a stale close's ``close.by`` names its bot;
- ``cross-referenced`` timeline events are derived from PR titles, bodies and comments that name an
  issue of the same repository (``#N`` or its URL), at the moment of the mention, as GitHub does;
- PR head branches are neutral placeholders and the base branch is ``main`` unless the data gives the
  PR's ``base`` (fourth batch: a release-branch twin of a fix); no changed files or commits are invented,
  so those endpoints answer empty lists.

Splits: in the first batch the issue URL's SHA-1 decides, first hex digit 0-4 -> ``tune2`` (about 5/16;
it was the first held-out split, ``heldout``: measured once, then read for failure classes, so spent),
else ``tune``. Every issue of a later batch (``LATER_SPLITS``) carries that batch's split: ``heldout2``, then
``heldout3`` (the first batch with fix pairs collected after all linker rules so far were written), then
``heldout4`` (whole PR threads: a release-branch twin, a revert and its re-land, a workaround PR before the
fix, a stale close with cross-referencing PRs closed unmerged), then ``heldout5`` (collected after the rules read
off the fourth batch: projects not used before, a release-branch twin on a named release branch, merged closing
PRs on issues the stored copies show open, an internal ticket closed by another developer's PR).

A PR whose thread is not stored may be given as the record of its squash-merge commit (number and title from
the subject, body = the commit message, ``created`` = the commit day); the data file says which.
"""

from __future__ import annotations

import hashlib
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import yaml

from fixlore.replay.worldwrite import reset_dir, stable_hex, stable_int, write_json, write_yaml

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "npu_threads.yaml"
# Threads collected later, each file with the split its issues belong to whatever their URL hashes to.
LATER_SPLITS = {"heldout2": HERE / "data" / "npu_threads_heldout2.yaml",
                "heldout3": HERE / "data" / "npu_threads_heldout3.yaml",
                "heldout4": HERE / "data" / "npu_threads_heldout4.yaml",
                "heldout5": HERE / "data" / "npu_threads_heldout5.yaml"}
API = "https://api.github.com"
WEB = "https://github.com"
SNAPSHOT = "2026-09-25T00:00:00Z"
SINCE = "2025-07-01T00:00:00Z"
BOTS = {"github-actions[bot]", "Copilot"}
STALE_BOT = "github-actions[bot]"
UNKNOWN_CLOSER = "ghost"
# GitHub's issue state_reason values a data file may give as close.reason (None: the close shows no reason)
STATE_REASONS = ("completed", "not_planned", "duplicate", None)
URL_RE = re.compile(r"^https://github\.com/([^/]+/[^/]+)/(issues|pull)/(\d+)$")


def _fmt(d: datetime) -> str:
    return d.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _day(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=timezone.utc)


def _hash(*parts: object) -> int:
    return int(hashlib.sha1("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:8], 16)


def split_of(url: str) -> str:
    """The first batch's split: SHA-1 of the issue URL, first hex digit 0-4 -> ``tune2``, else ``tune``.

    ``tune2`` was the first held-out split (named ``heldout`` then). It was measured once, then read for
    failure classes, so it is spent: rules may be fitted on it now. Fresh held-out data lives in later
    batches (``LATER_SPLITS``)."""
    return "tune2" if hashlib.sha1(url.encode("utf-8")).hexdigest()[0] in "01234" else "tune"


def uid(login: str) -> int:
    return 100000 + int(stable_hex("gh-user", login, length=8), 16) % 900000


def user(login: str) -> dict:
    bot = login in BOTS or login.endswith("[bot]")
    return {"login": login, "id": uid(login), "node_id": "U_" + stable_hex("node", login, length=16),
            "avatar_url": f"https://avatars.githubusercontent.com/u/{uid(login)}?v=4",
            "url": f"{API}/users/{login}", "html_url": f"{WEB}/{login}",
            "type": "Bot" if bot else "User", "site_admin": False}


class Thread:
    """One collected thread with the times this generator gives it."""

    def __init__(self, raw: dict) -> None:
        m = URL_RE.match(raw["url"])
        if not m:
            raise ValueError(f"not a GitHub issue/PR URL: {raw['url']}")
        self.raw = raw
        self.url = raw["url"]
        self.repo = m.group(1)
        self.kind = "pull" if m.group(2) == "pull" else "issue"
        self.number = int(m.group(3))
        comments = raw.get("comments") or []
        first_day = raw.get("created") or (comments[0][1] if comments else None)
        if first_day is None:
            raise ValueError(f"{self.url}: no day at all")
        self.created = _day(first_day) + timedelta(seconds=3600 + _hash(self.url, "created") % 3600)
        self.comments: list[tuple[str, datetime, str]] = []
        for i, (who, day, text) in enumerate(comments):
            when = _day(day) + timedelta(seconds=3 * 3600 + i * 600 + _hash(self.url, "c", i) % 300)
            self.comments.append((who, max(when, self.created + timedelta(seconds=60)), text))
        self.last_activity = max([self.created] + [c[1] for c in self.comments])
        self.merged_at: datetime | None = None
        self.closed_at: datetime | None = None
        if self.kind == "pull" and raw["state"] in ("merged", "closed"):
            self.closed_at = self.last_activity + timedelta(hours=1)
            if raw["state"] == "merged":
                self.merged_at = self.closed_at
        self.closer: str | None = None
        self.merger = raw.get("merged_by") or "ghost"
        self.state_reason: str | None = None
        self.close_commit: str | None = None
        self.floors: dict[tuple[str, int], datetime] = {}
        self.split = split_of(self.url)

    def names_pull(self, number: int) -> bool:
        """Whether this thread's comments name PR ``#number`` of its own repository."""
        pattern = re.compile(rf"(?<![\w/])#{number}\b|{re.escape(WEB)}/{re.escape(self.repo)}/pull/{number}\b")
        return any(pattern.search(text) for _, _, text in self.comments)

    def names_in_ticket_field(self, number: int) -> bool:
        """Whether this PR's title or body gives issue ``number`` as a bare ``ISSUE ID: N`` (a team's PR-template
        field, third batch of accel threads) or as ``gh-N`` (the NumPy/SciPy spelling, ``Closes gh-9463``, ninth
        batch): GitHub links neither, so no cross-reference comes of it."""
        pattern = re.compile(rf"\bISSUE ID\s*:\s*{number}\b|(?<![\w-])gh-{number}\b", re.IGNORECASE)
        return any(pattern.search(self.raw.get(k) or "") for k in ("title", "body"))

    @property
    def author(self) -> str:
        return self.raw.get("author") or UNKNOWN_CLOSER

    def mentions(self, repo: str, number: int) -> list[datetime]:
        """Moments at which this PR names issue ``repo#number`` (title/body at creation, then comments),
        never before the issue existed (see ``place_after_named_issues``)."""
        floor = self.floors.get((repo, number))
        return [max(when, floor) if floor else when for when in self._named_at(repo, number)]

    def _named_at(self, repo: str, number: int) -> list[datetime]:
        pattern = re.compile(rf"(?<![\w/])#{number}\b|{re.escape(WEB)}/{re.escape(repo)}/issues/{number}\b")
        out = []
        if pattern.search(self.raw.get("title") or "") or pattern.search(self.raw.get("body") or ""):
            out.append(self.created)
        out += [when for _, when, text in self.comments if pattern.search(text)]
        return out


def load(path: Path = DATA, later: dict[str, Path] | None = None) -> tuple[dict, list[Thread]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    threads = [Thread(t) for t in data["threads"]]
    for split, extra_path in (LATER_SPLITS if later is None else later).items():
        extra = yaml.safe_load(extra_path.read_text(encoding="utf-8"))
        for name, meta in extra["repos"].items():
            data["repos"].setdefault(name, meta)
        for raw in extra["threads"]:
            thread = Thread(raw)
            thread.split = split
            threads.append(thread)
    keys = [(t.repo, t.number) for t in threads]
    if len(keys) != len(set(keys)):
        raise ValueError("a thread is listed twice")
    place_after_named_issues(threads)
    return data, threads


def place_after_named_issues(threads: list[Thread]) -> None:
    """A PR text that names an issue was written (or edited) after the issue existed: GitHub shows the
    edited body, dated at the PR's creation. So the mention is placed a minute after the issue's creation
    at the earliest, and the PR merges or closes an hour after its last activity counted that way."""
    issues = {(t.repo, t.number): t for t in threads if t.kind == "issue"}
    for pr in (t for t in threads if t.kind == "pull"):
        for (repo, number), issue in issues.items():
            if repo == pr.repo and pr._named_at(repo, number) and issue.created >= pr.created:
                pr.floors[(repo, number)] = issue.created + timedelta(seconds=60)
        if not pr.floors:
            continue
        pr.last_activity = max([pr.last_activity] + list(pr.floors.values()))
        if pr.closed_at:
            pr.closed_at = pr.last_activity + timedelta(hours=1)
            if pr.merged_at:
                pr.merged_at = pr.closed_at


def resolve_closes(threads: list[Thread]) -> None:
    pulls = {(t.repo, t.number): t for t in threads if t.kind == "pull"}
    for t in threads:
        if t.kind != "issue" or t.raw["state"] != "closed":
            continue
        close = t.raw.get("close") or {}
        how = close.get("how")
        # The last known activity includes every collected PR that names the issue: its mention and
        # its merge or close. A hand or stale close is placed after all of it.
        seen = [t.last_activity]
        for pr in pulls.values():
            moments = pr.mentions(t.repo, t.number) if pr.repo == t.repo else []
            if moments:
                seen += moments + ([pr.closed_at] if pr.closed_at else [])
            elif pr.repo == t.repo and pr.closed_at and (t.names_pull(pr.number)
                                                         or pr.names_in_ticket_field(t.number)):
                seen.append(pr.closed_at)  # the thread points at this PR, or it names the issue unlinked: wait
        last = max(seen)
        if how == "pr":
            pr = pulls[(t.repo, int(close["pr"]))]
            t.closed_at = pr.merged_at + timedelta(seconds=1)
            t.closer = pr.merger
            t.state_reason = "completed"
            t.close_commit = stable_hex("merge", pr.url)
        elif how == "hand" and close.get("by"):
            t.closed_at = last + timedelta(seconds=120 + _hash(t.url, "close") % 480)
            t.closer = close["by"]
        elif how == "hand":
            t.closed_at = last + timedelta(days=1, seconds=_hash(t.url, "close") % 3600)
            t.closer = UNKNOWN_CLOSER
        elif how == "stale":
            t.closed_at = last + timedelta(days=30, seconds=_hash(t.url, "close") % 3600)
            t.closer = close.get("by") or STALE_BOT
            t.state_reason = "not_planned"
        else:
            raise ValueError(f"{t.url}: closed issue without close.how")
        if "reason" in close:  # the thread shows GitHub's own close reason (or that it has none): keep it
            if close["reason"] not in STATE_REASONS:
                raise ValueError(f"{t.url}: close.reason must be one of {STATE_REASONS}")
            t.state_reason = close["reason"]


def labels_of(names: list[str]) -> list[dict]:
    return [{"id": stable_int("label", n), "node_id": "LA_" + stable_hex("label", n, length=12), "name": n,
             "color": "ededed", "default": n in ("bug", "enhancement", "question", "invalid", "duplicate"),
             "description": ""} for n in names]


def issue_form(t: Thread, updated: datetime) -> dict:
    url = f"{API}/repos/{t.repo}/issues/{t.number}"
    obj = {
        "url": url, "repository_url": f"{API}/repos/{t.repo}", "labels_url": url + "/labels{/name}",
        "comments_url": url + "/comments", "events_url": url + "/events",
        "html_url": f"{WEB}/{t.repo}/{'pull' if t.kind == 'pull' else 'issues'}/{t.number}",
        "id": stable_int("issue", t.url), "node_id": "I_" + stable_hex("issue", t.url, length=16),
        "number": t.number, "title": t.raw["title"], "user": user(t.author),
        "labels": labels_of(t.raw.get("labels") or []),
        "state": "open" if t.closed_at is None else "closed", "locked": False, "assignee": None, "assignees": [],
        "milestone": None, "comments": len(t.comments), "created_at": _fmt(t.created), "updated_at": _fmt(updated),
        "closed_at": _fmt(t.closed_at) if t.closed_at else None, "author_association": "NONE",
        "active_lock_reason": None, "body": t.raw.get("body") or "",
        "timeline_url": url + "/timeline", "performed_via_github_app": None,
    }
    if t.kind == "issue":
        obj["closed_by"] = user(t.closer) if t.closer else None
        obj["state_reason"] = t.state_reason
    else:
        obj["draft"] = False
        html = obj["html_url"]
        obj["pull_request"] = {"url": f"{API}/repos/{t.repo}/pulls/{t.number}", "html_url": html,
                               "diff_url": html + ".diff", "patch_url": html + ".patch",
                               "merged_at": _fmt(t.merged_at) if t.merged_at else None}
    return obj


def pull_obj(t: Thread, updated: datetime, repo_meta: dict) -> dict:
    html = f"{WEB}/{t.repo}/pull/{t.number}"
    name = t.repo.split("/")[1]
    brief = {"id": repo_meta["id"], "name": name, "full_name": t.repo, "default_branch": "main"}
    head = "change-" + stable_hex("head-ref", t.url, length=8)
    base = t.raw.get("base") or "main"
    closed = t.closed_at is not None
    return {
        "url": f"{API}/repos/{t.repo}/pulls/{t.number}", "id": stable_int("pr", t.url),
        "node_id": "PR_" + stable_hex("pr", t.url, length=16), "html_url": html, "diff_url": html + ".diff",
        "patch_url": html + ".patch", "issue_url": f"{API}/repos/{t.repo}/issues/{t.number}", "number": t.number,
        "state": "closed" if closed else "open", "locked": False, "title": t.raw["title"], "user": user(t.author),
        "body": t.raw.get("body") or "", "created_at": _fmt(t.created), "updated_at": _fmt(updated),
        "closed_at": _fmt(t.closed_at) if closed else None, "merged_at": _fmt(t.merged_at) if t.merged_at else None,
        "merge_commit_sha": stable_hex("merge", t.url) if t.merged_at else None, "assignee": None, "assignees": [],
        "requested_reviewers": [], "labels": labels_of(t.raw.get("labels") or []), "milestone": None, "draft": False,
        "head": {"label": f"{t.author}:{head}", "ref": head, "sha": stable_hex("head", t.url), "user": user(t.author),
                 "repo": dict(brief, full_name=f"{t.author}/{name}")},
        "base": {"label": f"{t.repo.split('/')[0]}:{base}", "ref": base, "sha": stable_hex("base", t.url),
                 "user": user(t.repo.split("/")[0]), "repo": brief},
        "author_association": "NONE", "auto_merge": None, "merged": t.merged_at is not None,
        "mergeable": None if closed else True, "rebaseable": None if closed else True,
        "mergeable_state": "unknown" if closed else "clean",
        "merged_by": user(t.merger) if t.merged_at else None, "comments": len(t.comments), "review_comments": 0,
        "maintainer_can_modify": False, "commits": 1, "additions": 0, "deletions": 0, "changed_files": 0,
    }


def comment_objs(t: Thread, issue_api: str, html: str) -> list[dict]:
    out = []
    for i, (who, when, text) in enumerate(t.comments):
        cid = stable_int("comment", t.url, i)
        out.append({"id": cid, "node_id": "IC_" + stable_hex("comment", t.url, i, length=14),
                    "url": f"{API}/repos/{t.repo}/issues/comments/{cid}", "html_url": f"{html}#issuecomment-{cid}",
                    "body": text, "user": user(who), "created_at": _fmt(when), "updated_at": _fmt(when),
                    "issue_url": issue_api, "author_association": "NONE", "performed_via_github_app": None})
    return out


def build(data: dict, threads: list[Thread]) -> dict[str, Any]:
    resolve_closes(threads)
    repos_meta = {name: dict(meta, id=stable_int("repo", name)) for name, meta in data["repos"].items()}
    pulls = [t for t in threads if t.kind == "pull"]
    files: dict[str, Any] = {}
    for t in threads:
        if t.repo not in repos_meta:
            raise ValueError(f"{t.url}: repository {t.repo} is not listed under repos")
        base = f"repos/{t.repo}"
        issue_api = f"{API}/repos/{t.repo}/issues/{t.number}"
        html = f"{WEB}/{t.repo}/{'pull' if t.kind == 'pull' else 'issues'}/{t.number}"
        comments = comment_objs(t, issue_api, html)
        timeline: list[dict] = [dict(c, event="commented", actor=c["user"]) for c in comments]
        if t.kind == "issue":
            for pr in pulls:
                if pr.repo != t.repo:
                    continue
                for when in pr.mentions(t.repo, t.number):
                    timeline.append({"event": "cross-referenced", "actor": user(pr.author), "created_at": _fmt(when),
                                     "updated_at": _fmt(when), "source": {"type": "issue", "issue": ("PR", pr)}})
            if t.closed_at:
                eid = stable_int("close-event", t.url)
                timeline.append({"id": eid, "node_id": "CE_" + stable_hex("close-event", t.url, length=14),
                                 "url": f"{API}/repos/{t.repo}/issues/events/{eid}", "actor": user(t.closer),
                                 "event": "closed", "commit_id": t.close_commit,
                                 "commit_url": f"{API}/repos/{t.repo}/commits/{t.close_commit}" if t.close_commit else None,
                                 "created_at": _fmt(t.closed_at), "state_reason": t.state_reason,
                                 "performed_via_github_app": None})
        timeline.sort(key=lambda e: (e["created_at"], e["event"]))
        updated = max([t.created, t.last_activity] + ([t.closed_at] if t.closed_at else [])
                      + [datetime.fromisoformat(e["created_at"].replace("Z", "+00:00")) for e in timeline])
        t.updated = updated
        files[f"{base}/issues/{t.number}.json"] = ("issue", t)
        if comments:
            files[f"{base}/issues/{t.number}.comments.json"] = comments
        if timeline:
            files[f"{base}/issues/{t.number}.events.json"] = timeline
        if t.kind == "pull":
            files[f"{base}/pulls/{t.number}.json"] = ("pull", t)
    # Forms are made once every thread knows its update time (cross-references embed the PR's issue form).
    out: dict[str, Any] = {}
    for path, value in files.items():
        if isinstance(value, tuple) and value[0] == "issue":
            out[path] = issue_form(value[1], value[1].updated)
        elif isinstance(value, tuple) and value[0] == "pull":
            out[path] = pull_obj(value[1], value[1].updated, repos_meta[value[1].repo])
        elif path.endswith(".events.json"):
            events = []
            for e in value:
                if e["event"] == "cross-referenced":
                    pr = e["source"]["issue"][1]
                    form = issue_form(pr, pr.updated)
                    form["repository"] = {"id": repos_meta[pr.repo]["id"], "name": pr.repo.split("/")[1],
                                          "full_name": pr.repo}
                    e = dict(e, source={"type": "issue", "issue": form})
                events.append(e)
            out[path] = events
        else:
            out[path] = value
    return {"files": out, "repos": repos_meta, "threads": threads}


def repo_obj(name: str, meta: dict, open_count: int) -> dict:
    owner, short = name.split("/")
    return {
        "id": meta["id"], "node_id": "R_" + stable_hex("repo", name, length=16), "name": short, "full_name": name,
        "private": False,
        "owner": {"login": owner, "id": uid(owner), "node_id": "O_" + stable_hex("org", owner, length=12),
                  "url": f"{API}/orgs/{owner}", "html_url": f"{WEB}/{owner}", "type": "Organization",
                  "site_admin": False},
        "html_url": f"{WEB}/{name}", "description": meta["description"], "fork": False, "url": f"{API}/repos/{name}",
        "created_at": "2025-01-01T00:00:00Z", "updated_at": SNAPSHOT, "pushed_at": SNAPSHOT,
        "default_branch": "main", "open_issues_count": open_count, "has_issues": True, "archived": False,
        "disabled": False, "visibility": "public", "language": meta["language"],
    }


def truth_entries(threads: list[Thread]) -> list[dict]:
    pulls = {(t.repo, t.number): t for t in threads if t.kind == "pull"}
    out = []
    for t in threads:
        if t.kind != "issue":
            continue
        lab = t.raw["truth"]
        fix = [{"repo": t.repo, "number": int(n), "role": role} for n, role in lab.get("fix") or []]
        main = [pulls[(t.repo, f["number"])] for f in fix if f["role"] == "fix"]
        lag = None
        if main and main[0].merged_at and t.closed_at and lab.get("timing") not in ("before_merge", "no_fix"):
            lag = int((t.closed_at - main[0].merged_at).total_seconds())
        out.append({
            "repo": t.repo, "number": t.number, "funnel": lab["funnel"], "drop_reason": lab.get("drop", ""),
            "fix": fix, "evidence": list(lab.get("evidence") or []), "timing": lab.get("timing", "no_fix"),
            "lag_s": lag, "traps": list(lab.get("traps") or []), "kb_refs": [], "theme": lab.get("theme", ""),
            "split": t.split, "source": t.url,
            "fix_sources": [pulls[(t.repo, f["number"])].url for f in fix], "why": lab["why"],
        })
    return sorted(out, key=lambda e: (e["repo"], e["number"]))


def write(out: Path, data_path: Path = DATA, later: dict[str, Path] | None = None) -> None:
    data, threads = load(data_path, later)
    write_world(out, data, threads, since=SINCE, description=(
        "Real public issue/PR threads of Ascend-adjacent projects (triton-ascend, LMCache-Ascend, "
        "InfiniCore, sglang, verl, LlamaFactory, vllm-omni, llama.cpp, ms-swift, gpustack, torch_npu, "
        "...), labelled by hand; times of day are synthetic."), notes=(
        "Hand labels of real public threads (worldgen/data/npu_threads*.yaml; guide in worlds/README.md). "
        "Each entry names its source URL, the fix PR URLs and the evidence (why). split: SHA-1 "
        "of the issue URL starts with 0-4 -> tune2 (the first held-out split, spent: measured once, then read for "
        "failure classes), else tune; heldout2 = the second batch, held out; heldout3 = the third batch (with fix "
        "pairs), held out; heldout4 = the fourth batch (whole PR threads), held out; heldout5 = the fifth batch, "
        "held out. Times of day, merge and close "
        "times are synthetic (rules in worldgen/npu_threads.py); lag_s follows from them. rank_top_k is "
        "{top_k}: every selected and analysis entry."))


def write_world(out: Path, data: dict, threads: list[Thread], *, since: str, description: str, notes: str) -> None:
    """Write a GitHub world of collected threads (any project): objects, org listings, world.yaml and truth.yaml.

    ``notes`` may hold ``{top_k}``, filled with the rank cut (every selected and analysis entry)."""
    world = build(data, threads)
    reset_dir(out)
    truth = truth_entries(threads)
    top_k = sum(e["funnel"] in ("selected", "analysis") for e in truth)
    orgs = sorted({name.split("/")[0] for name in world["repos"]})
    write_yaml(out / "world.yaml", {
        "platform": "github", "snapshot_at": SNAPSHOT, "orgs": orgs,
        "description": description,
        "window": {"since": since},
        "rank_top_k": top_k,
    })
    for path, value in sorted(world["files"].items()):
        write_json(out / path, value)
    by_org: dict[str, list] = {}
    for name, meta in sorted(world["repos"].items()):
        open_count = sum(1 for t in threads if t.repo == name and t.closed_at is None and t.kind == "issue")
        write_json(out / "repos" / name / "repo.json", repo_obj(name, meta, open_count))
        by_org.setdefault(name.split("/")[0], []).append(repo_obj(name, meta, open_count))
    for org, listing in by_org.items():
        write_json(out / "orgs" / f"{org}.json", listing)
    write_yaml(out / "truth.yaml", {
        "window": {"since": since},
        "notes": notes.format(top_k=top_k),
        "issues": truth,
    })


HASH_SPLIT = "hash"   # the `split` of a mixed batch: each issue's split from `hash_split`


def hash_split(repo: str, number: int) -> str:
    """A mixed batch's split of one issue: ``tune`` when the SHA-1 of "owner/repo#N" starts with 0-7, else ``heldout``
    (about half each; the rule of worldgen/paddle_threads.py). Stable: it depends on the issue's name only."""
    return "tune" if hashlib.sha1(f"{repo}#{number}".encode("utf-8")).hexdigest()[0] in "01234567" else "heldout"


def write_held_out(out: Path, data_path: Path, since: str, description: str, split: str = "heldout") -> None:
    """A world of collected threads labelled before their first run (worldgen/held_out_batches.py): every issue in one
    split, ``heldout`` (never read) or ``tune`` for a batch collected to be read after its first run (accel-threads7),
    or, for ``split == HASH_SPLIT`` (a mixed batch, accel-threads9), each issue in ``tune`` or ``heldout`` by
    `hash_split`. Written by `write_world`, its notes naming the data file."""
    data, threads = load(data_path, later={})
    for t in threads:
        t.split = hash_split(t.repo, t.number) if split == HASH_SPLIT else split
    kept = ("Every issue is held out." if split == "heldout" else
            "split: SHA-1 of \"owner/repo#N\" starts with 0-7 -> tune (its per-case output may be read after the first "
            "run), else heldout (figures only)." if split == HASH_SPLIT else
            f"Every issue is in split {split}: its per-case output is read after the first run.")
    write_world(out, data, threads, since=since, description=description, notes=(
        f"Hand labels of real public threads (worldgen/data/{data_path.name}; guide in worlds/README.md, "
        "npu-threads), labelled before the batch's first run. Each entry names its source URL, the fix PR URLs and "
        f"the evidence (why). {kept} Times of day, merge and close times are synthetic (rules in "
        "worldgen/npu_threads.py); lag_s follows from them. rank_top_k is {top_k}: every selected and analysis "
        "entry."))


HELD_OUT_SINCE = "2025-07-01T00:00:00Z"     # npu-threads' window: the held-out batches were collected for it


def held_out_batch(world: str, description: str, split: str = "heldout"):
    """`write(out)` and `main(argv)` of a batch (worldgen/held_out_batches.py): the world
    `worlds/<world>` from `worldgen/data/<world, '-' as '_'>.yaml`, every issue in `split` (held out unless the
    batch is a tune world), written by `write_held_out` in npu-threads' window. What the stored excerpts do not
    show (times of day, merge and close times, closers, cross-reference events) is filled by this module's fixed
    rules."""
    data = HERE / "data" / f"{world.replace('-', '_')}.yaml"

    def write(out: Path, data_path: Path = data) -> None:
        write_held_out(out, data_path, HELD_OUT_SINCE, description, split)

    def main(argv: list[str]) -> None:
        out = Path(argv[1]) if len(argv) > 1 else HERE.parent / "worlds" / world
        write(out)
        print(f"wrote {out}")

    return write, main


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else HERE.parent / "worlds" / "npu-threads"
    write(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
